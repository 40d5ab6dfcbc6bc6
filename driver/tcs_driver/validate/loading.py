"""Why a tracer module did not load on a node, said one way whatever the
reason: that it did not load, OTP's own words for why (the reason code:load_abs/1
or load/0 returned, or what code_server logged about a failed on_load; the
shape job hands both over on every release), and what to try.  A module that
does not load is an error of the input (exit status 2), not a failing check."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .inputs import BadInput


class LoadFailure(BadInput):
    """The tracer module did not load; the message is the whole diagnosis."""


@dataclass(frozen=True)
class Placement:
    """Where validate put the tracer for the node, to say where a library was looked for."""
    module: str
    nif_names: tuple[str, ...]   # the --nif library's names next to the module; () without --nif
    apps: tuple[str, ...]        # the --app application directory names on the code path
    copies: tuple[tuple[str, str], ...] = ()   # (the node's path of a copy, the user's original)


def _where(place: Placement) -> str:
    parts = []
    if place.nif_names:
        parts.append(f"--nif is next to the module, in the node's working directory and on "
                     f"LD_LIBRARY_PATH, as {' and '.join(place.nif_names)}")
    if place.apps:
        parts.append(f"the application(s) {', '.join(place.apps)} are on the code path "
                     f"(code:priv_dir/1, code:lib_dir/1 find them)")
    return "; ".join(parts) or "no library was given"


def diagnose(kind: str, said: str, place: Placement, otp: str) -> str:
    """The diagnosis of a NOLOAD line (kind and OTP's text) on release `otp`."""
    module = place.module
    for inside, original in place.copies:
        said = said.replace(inside, original)
    if kind == "no_nif_library":
        cause = "it loads no NIF library: it has no -on_load function that loads one and exports no load/0"
        said = f"{module}:module_info(nifs) is [] after loading"
        hint = (f"load the library in an -on_load function: -on_load(init/0). "
                f"init() -> erlang:load_nif(filename:join(code:priv_dir(App), \"{module}\"), 0).")
    elif (mismatch := re.search(r"Library module name '([^']*)' does not match calling module '([^']*)'", said)):
        cause = f"the library is for module {mismatch.group(1)}, not {mismatch.group(2)}"
        hint = (f"the first argument of ERL_NIF_INIT in the library's C source must be {mismatch.group(2)}: "
                f"rebuild it, or validate module {mismatch.group(1)} (--module {mismatch.group(1)})")
    elif (missing := re.search(r"'?([^':]*): cannot open shared object file", said)):
        cause = f"its NIF library is not where it looks for it ({missing.group(1)})"
        hint = (f"{_where(place)}; give the library the module looks for with --nif, or the "
                "application it ships in with --app (rebar3: --app _build/default/lib)")
    elif (symbol := re.search(r"undefined symbol: ([^'\"\s]+)", said)):
        name = symbol.group(1)
        cause = f"its NIF library needs the symbol {name}, which neither the library nor the node defines"
        hint = ("link the library against whatever defines it (ldd -r LIBRARY lists what is missing), "
                "or build it without that dependency")
    elif "Function not found" in said:
        cause = "the library's NIF table names a function the module does not define"
        hint = "give every NIF of the table an Erlang stub of the same name and arity in the module"
    elif kind == "load_module":
        cause = "the node refused the beam file"
        hint = ("a beam compiled by a newer OTP does not load on an older one: give --erl (compiled by "
                "each release) or compile with the oldest release you validate on")
    elif kind == "load_0":
        cause = "its load/0 did not return ok"
        hint = "load/0 must return ok once erlang:load_nif/2 succeeded"
    else:
        cause = "its on_load function did not return ok"
        hint = "the on_load function must return ok; run it by hand in an erl shell to see why it fails"
    return f"the module {module} did not load on OTP {otp}: {cause}\n  OTP says: {said}\n  try: {hint}"
