"""The model's table of the fixture's call sites (`fixture_call_line`, ref/vocab/fixture.c) against
the fixture sources (MS-CALLER-LINE, C-570): every non-tail call of a fixture function by another,
as the host's `epp` reads driver/runner/tcs_target.erl and tcs_shapes.erl (their -file attributes
honoured), is exactly one `{caller_line}` value the model gives in the case ms_caller_line_sites:
the same caller, file and line. A line moved in a source, or a call added, fails here before any
node runs."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tcs_driver.layout import REPO

FIXTURES = ("tcs_target", "tcs_shapes")
GOLDEN = REPO / "golden" / "ms_caller_line_sites.stream"

# Prints "Module Function/Arity File Line" for every non-tail call, in a function of a fixture
# module, of a function of that module (local, or ?MODULE:F(...)); a call in a clause body's last
# expression is a tail call unless it sits inside something (a tuple, a list, a try); the clauses of
# a case, try or fun are walked as if no call in them were a tail call (the fixture has none).
PROBE = r"""
Walk = fun Walk(E, Tail, Ctx = {Mod, _, _}, Acc) when is_tuple(E) ->
               {Here, Next} =
                   case E of
                       {call, A, {atom, _, _}, _} when not Tail -> {[A], Ctx};
                       {call, A, {remote, _, {atom, _, Mod}, {atom, _, _}}, _} when not Tail -> {[A], Ctx};
                       _ -> {[], Ctx}
                   end,
               Found = [{Next, erl_anno:line(A)} || A <- Here],
               lists:foldl(fun(Sub, In) -> Walk(Sub, false, Ctx, In) end, Found ++ Acc,
                           case E of
                               {call, _, _, Args} -> Args;
                               {clause, _, _, Guards, Exprs} -> [Guards, Exprs]; % a case, try or fun's
                               _ -> tl(tuple_to_list(E))
                           end);
           Walk(E, _, Ctx, Acc) when is_list(E) ->
               lists:foldl(fun(Sub, In) -> Walk(Sub, false, Ctx, In) end, Acc, E);
           Walk(_, _, _, Acc) -> Acc
       end,
Body = fun(Exprs, Ctx, Acc) ->
               {Init, [Last]} = lists:split(length(Exprs) - 1, Exprs),
               Walk(Last, true, Ctx, Walk(Init, false, Ctx, Acc))
       end,
Sites = fun(Path) ->
                {ok, Forms} = epp:parse_file(Path, []),
                {_, _, Out} =
                    lists:foldl(
                      fun({attribute, _, module, M}, {_, File, Acc}) -> {M, File, Acc};
                         ({attribute, _, file, {File, _}}, {M, _, Acc}) -> {M, File, Acc};
                         ({function, _, F, Ar, Clauses}, {M, File, Acc}) ->
                              Calls = lists:foldl(fun({clause, _, _, _, B}, In) ->
                                                          Body(B, {M, F, Ar}, In)
                                                  end, [], Clauses),
                              {M, File, [{M, F, Ar, File, L} || {_, L} <- Calls] ++ Acc};
                         (_, S) -> S
                      end, {none, none, []}, Forms),
                Out
        end,
[io:format("~s ~s/~w ~s ~w~n", [M, F, A, File, L])
 || P <- PATHS, {M, F, A, File, L} <- lists:usort(Sites(P))],
halt().
"""


def source_sites(erl: list[str]) -> set[str]:
    """The non-tail calls between fixture functions, as epp reads the sources."""
    paths = ", ".join(f'"{REPO / "driver" / "runner" / (m + ".erl")}"' for m in FIXTURES)
    done = subprocess.run([*erl, "-noshell", "-noinput", "-eval", PROBE.replace("PATHS", f"[{paths}]")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return set(done.stdout.split("\n")) - {""}


def model_sites(stream: str) -> set[str]:
    """The {caller_line} values of the model's stream, written as source_sites writes them."""
    found = re.findall(r"match_spec_result=>\{(\w+),(\w+),(\d+),\{\[([\d,]+)\],(\d+)\}\}", stream)
    return {f"{m} {f}/{a} {''.join(chr(int(c)) for c in chars.split(','))} {line}"
            for m, f, a, chars, line in found}


def test_every_fixture_call_site_is_the_models(otp_node) -> None:  # type: ignore[no-untyped-def]
    otp, _release, _include = otp_node
    in_source = source_sites(otp.erl)
    assert len(in_source) == 11, in_source  # twice, deep, relay, catcher, top 2, middle 4, loop
    assert model_sites(GOLDEN.read_text()) == in_source


def test_model_sites_reads_a_value() -> None:
    line = ('N trace(call, <tracer>, <a>, {tcs_target,id,[1]}, #{match_spec_result=>'
            '{tcs_target,twice,1,{[116,99,115,95,116,97,114,103,101,116,46,101,114,108],11}}})')
    assert model_sites(line) == {"tcs_target twice/1 tcs_target.erl 11"}


def test_the_probe_sees_a_moved_line(tmp_path: Path, otp_node) -> None:  # type: ignore[no-untyped-def]
    """The check can fail: a copy of tcs_target.erl with a line added above twice/1 moves its call."""
    otp, _release, _include = otp_node
    source = (REPO / "driver" / "runner" / "tcs_target.erl").read_text().replace(
        "twice(X) ->", "%% a line more\ntwice(X) ->")
    copy = tmp_path / "tcs_target.erl"
    copy.write_text(source)
    done = subprocess.run([*otp.erl, "-noshell", "-noinput", "-eval", PROBE.replace("PATHS", f'["{copy}"]')],
                          capture_output=True, text=True, timeout=120)
    assert "tcs_target twice/1 tcs_target.erl 12" in done.stdout.split("\n"), done.stdout + done.stderr
