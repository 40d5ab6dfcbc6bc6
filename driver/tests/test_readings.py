"""The relations between two named counter readings (CALL-COUNTERS-RELATION): the golden line
fails the comparison when the harness answers otherwise, and the harness's measure
(driver/runner/tcs_readings.erl) answers false on readings that violate the relation."""
from __future__ import annotations

import subprocess

import pytest

from tcs_driver.diff import compare
from tcs_driver.stream import parse_live_stream, parse_stream

GOLDEN = """\
N ctl trace:info({_Ref,{s,_Id}},{lists,seq,2},call_memory) -> {call_memory,[{<a>,1,_Words}]}
N ctl trace:info({_Ref,{s,_Id}},{lists,seq,2},call_memory) -> {call_memory,[{<a>,2,_Words}]}
N ctl tcs_readings:relation(m2,'>',m1) -> true
"""
M1 = "ctl trace:info({_Ref,{s,_Id}},{lists,seq,2},call_memory) -> {call_memory,[{<a>,1,20}]}\n"


@pytest.mark.parametrize(
    ("m2_words", "answer", "agree"),
    [
        pytest.param(40, "true", True, id="words-grew"),
        pytest.param(20, "false", False, id="words-did-not-grow"),
        pytest.param(40, "{not_a_counter_list,false}", False, id="no-list-read"),
    ],
)
def test_a_relation_fails_on_a_violating_stream(m2_words: int, answer: str, agree: bool) -> None:
    live = (M1 + f"ctl trace:info({{_Ref,{{s,_Id}}}},{{lists,seq,2}},call_memory) -> "
            f"{{call_memory,[{{<a>,2,{m2_words}}}]}}\n" + f"ctl tcs_readings:relation(m2,'>',m1) -> {answer}\n")
    assert compare(parse_stream(GOLDEN, "golden"), parse_live_stream(live, "live")).agree is agree


# (reading X, operator, reading Y, what tcs_readings:relation/3 answers)
RELATIONS = [
    ("{call_time,[{p,2,0,7}]}", ">=", "{call_time,[{p,1,0,7}]}", "true"),
    ("{call_time,[{p,2,0,6}]}", ">=", "{call_time,[{p,1,0,7}]}", "false"),
    ("{call_time,[{p,2,1,0}]}", ">", "{call_time,[{p,1,0,999999}]}", "true"),
    ("{call_time,[{p,1,0,5},{q,1,0,5}]}", "=:=", "{call_time,[{p,2,0,10}]}", "true"),
    ("{call_memory,[{p,2,40}]}", ">", "{call_memory,[{p,1,20}]}", "true"),
    ("{call_memory,[{p,2,20}]}", ">", "{call_memory,[{p,1,20}]}", "false"),
    ("{call_memory,[{p,1,20}]}", "<", "{call_memory,[{p,2,40}]}", "true"),
    ("{call_memory,[{p,1,20}]}", "=<", "{call_memory,[{p,2,10}]}", "false"),
    ("{call_memory,false}", ">", "{call_memory,[{p,1,20}]}", "{not_a_counter_list,{call_memory,false}}"),
    ("{call_memory,[{p,1,20}]}", ">", "undefined", "{not_a_counter_list,undefined}"),
    ("{call_memory,[{p,1}]}", ">", "{call_memory,[]}", "{not_a_counter_list,{call_memory,[{p,1}]}}"),
]


def test_the_harness_measure_answers_each_relation(otp_node, layout, tmp_path) -> None:  # type: ignore[no-untyped-def]
    otp, _, _ = otp_node
    beams = layout.build / "beam"
    calls = "".join(f"io:format(\"~p~n\", [tcs_readings:relation({x}, '{op}', {y})]), " for x, op, y, _ in RELATIONS)
    out = subprocess.run([*otp.erl, "-noshell", "-pa", str(beams), "-eval", calls + "halt()."],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.split() == [want for _, _, _, want in RELATIONS]
