"""The tracers that come with the suite, and what validate must say of each:
the good ones pass every check; each deliberately defective one
(nif_impls/defective/, its .c file says "Flagged by: CHECK, ...") fails those
checks, and may fail those of its "May also fail:" line (a defect that only
some scheduling of live traffic hits); the recorder, the suite's instrument, fails the two checks its
recording breaks by design.  Used by the validate test and the cost
benchmark (bench/)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import corpus, recorder, tags


@dataclass(frozen=True)
class Bundled:
    """A bundled tracer and the checks validate must fail it on."""
    module: str
    nif: Path
    erl: Path
    fails: frozenset[str]
    why: str                  # its defect, or why it is good
    may_fail: frozenset[str] = frozenset()   # checks its defect fails only when scheduling hits it


#: The good tracers: (module, directory under nif_impls/, why it is good).
GOOD = (
    ("erl_msg_tracer", "erl_msg_tracer", "the documentation's example tracer (spec 000), verbatim"),
    ("tcs_good_tracer", "good", "every optional callback in its NIF table (nif_impls/good)"),
    ("tcs_good_threaded", "good", "shared bookkeeping synchronised with atomics, per-scheduler counters "
     "and a mutex"),
    ("tcs_good_spawn_reader", "good", "badarg unless a spawn's extra is {M, F, Args}, as the runtime "
     "always makes it"),
)


def good(layout: corpus.Layout) -> list[Bundled]:
    """The good tracers: the documentation's example and those of nif_impls/good."""
    return [Bundled(module, layout.nifs / f"{module}.so", layout.repo / "nif_impls" / where / f"{module}.erl",
                    frozenset(), why) for module, where, why in GOOD]


def defective(layout: corpus.Layout) -> list[Bundled]:
    """Every tracer of nif_impls/defective/, with the check its source names."""
    tracers = []
    for source in sorted((layout.repo / "nif_impls" / "defective").glob("tcs_defect_*.c")):
        text = source.read_text()
        flagged = re.search(r"Flagged by: ([\w, ]+)", text)
        may = re.search(r"May also fail: ([\w, ]+)", text)
        defect = re.search(r"Defect: (.*?)\n \*\s*(?:Flagged|\n)", text, re.S)
        if not flagged or not defect:
            raise ValueError(f"{source}: the header must say 'Defect: ...' and 'Flagged by: CHECK'")
        tracers.append(Bundled(source.stem, layout.nifs / f"{source.stem}.so", source.with_suffix(".erl"),
                               _names(flagged.group(1)),
                               " ".join(defect.group(1).replace("*", " ").split()),
                               _names(may.group(1)) if may else frozenset()))
    return tracers


def _names(text: str) -> frozenset[str]:
    return frozenset(name.strip() for name in text.split(",") if name.strip())


def recorder_tracer(layout: corpus.Layout, erts_include: Path, scratch: Path) -> Bundled:
    """The recorder with every optional callback, and an .erl that loads it
    with the default answers (trace for every tag)."""
    table = tags.table()
    every = list(table.optional_callbacks)
    module = recorder.module_name(every)
    library = recorder.build_variant(layout.repo / "nif_impls" / "recorder" / "tcs_recorder.c", layout.generated,
                                     layout.build / "recorders", erts_include, every)
    callbacks = table.with_arities()
    stubs = "".join(f"{name}({', '.join(['_'] * arity)}) -> erlang:nif_error(not_loaded).\n"
                    for name, arity in callbacks)
    source = scratch / f"{module}.erl"
    source.write_text(f"-module({module}).\n"
                      f"-export([load/0, {', '.join(f'{n}/{a}' for n, a in callbacks)}]).\n"
                      f"load() -> erlang:load_nif(\"{module}\", []).\n" + stubs)
    return Bundled(module, library.with_suffix(".so"), source,
                   frozenset(["enabled_pure", "dead_state"]),
                   "the suite's recorder: its enabled callbacks report every call to the state "
                   "process (a side effect, by design) and it answers trace for trace_status even "
                   "when the state is dead (it records, it never removes)")
