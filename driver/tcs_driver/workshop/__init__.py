"""For spec clarification workshops: `./tcs try` (any scenario, model and live, side by side) and
`./tcs book` (a static site of the rules, their cases, streams and verdicts per release)."""
