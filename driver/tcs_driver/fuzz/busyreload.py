"""`tracer reload while A calls M:F(Args)` for the generator: one round of tracer_SUITE's reload/1
(cases/README.md "Steps"; the model is ref/harness/busyreload.c, C-281).

The model states the round only for what its window can bound, and refuses the rest
(conformance/refusals.md): A an idle process of the case traced by the legacy recorder for
`call` and nothing else, the function loaded, with a pattern of `true` or `[]` and neither a meta
pattern nor counters, the tracer module loaded with no old code, no defaults for new processes
or ports, no seq_trace system tracer and no sessions (the round deletes the module, which
`tracer unload` refuses there). The generator writes the round with the steps that make it so:
A's flags cleared and set to `call` (which loads the module again when a delete left it gone),
the pattern set.
"""
from __future__ import annotations

import random
from typing import Final

from .state import FuzzState

#: The fixture functions the loop may call: id/1 calls nothing; the others call id/1 (or inner/1)
#: locally, so they are taken only while no pattern can change the caller's flags.
LOOP_FUNCTIONS: Final[tuple[str, ...]] = ("id", "id", "twice", "tail", "deep")
LOOP_ARGS: Final[tuple[str, ...]] = ("1", "ok", "{x,2}", "[]")


def possible(st: FuzzState) -> bool:
    """Whether the scenario so far allows a round (the model's conditions that steps cannot undo);
    never where every legacy trace step names a tracer state of its own (st.step_state): the
    round's `trace A on call` names none."""
    return (st.recorder and not st.step_state and not st.tracer_gone and not st.seq_tracer and not st.new_traced
            and not st.new_ports_traced and not st.sessions and not st.meta and st.tracer_module != "old")


def round_steps(st: FuzzState, xr: random.Random) -> list[str]:
    """The steps of one round, drawn with xr, or none when no process or function can take it."""
    who = [p for p in st.free() if p not in st.seq_group and p not in st.token]
    functions = [] if "*" in st.counted else [
        f for f in dict.fromkeys(LOOP_FUNCTIONS)
        if f not in st.counted and (f == "id" or (not st.flag_functions and "id" not in st.counted))]
    if not possible(st) or not who or not functions:
        return []
    a = xr.choice(who)
    fn = xr.choice([f for f in LOOP_FUNCTIONS if f in functions])
    lines = [f"trace {a} off all"] if a in st.traced else []
    # after a delete the trace step loads the module again (TRACER-LOAD-ON-DEMAND), as reload/1's
    # next round does
    lines.append(f"trace {a} on call")
    lines.append(f"pattern tcs_target:{fn}/1 {xr.choice(['[]', 'true'])}" + xr.choice(["", "", " local", " global"]))
    lines.append(f"tracer reload while {a} calls tcs_target:{fn}({xr.choice(LOOP_ARGS)})")
    st.traced.add(a)
    st.tracer_module = "unloaded"
    return lines
