"""Python driver of the erl_tracer conformance suite: stream parsing, comparison, results."""
