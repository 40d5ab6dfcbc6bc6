"""Tests of the shape comparison of call_time and call_memory lists (PROTOCOLS.md section 6):
a live list of the documented shape compares equal to the model's placeholders, in pid order;
a list with one entry of another shape, or a wrong count, still differs from the golden line."""

from __future__ import annotations

import pytest

from tcs_driver.diff import compare
from tcs_driver.stream import parse_live_stream, parse_stream
from tcs_driver.stream.normalise import normalise_live

CALL = "ctl erlang:trace_info({tcs_target,id,1},call_time) -> "
GOLDEN_TIME = CALL + "{call_time,[{<a>,2,_Seconds,_Microseconds},{<b>,1,_Seconds,_Microseconds}]}"
MEMORY = "ctl trace:info({_Ref,{sa,_Id}},{tcs_target,id,1},all) -> "
GOLDEN_MEMORY = MEMORY + "{all,[{traced,false},{call_memory,[{<a>,3,_Words}]},{call_time,false},{call_count,3}]}"


@pytest.mark.parametrize(
    ("live", "golden", "agrees"),
    [
        pytest.param(CALL + "{call_time,[{<a>,2,0,12},{<b>,1,0,3}]}", GOLDEN_TIME, True, id="time-of-the-shape"),
        pytest.param(CALL + "{call_time,[{<b>,1,1,999999},{<a>,2,0,0}]}", GOLDEN_TIME, True,
                     id="time-in-another-pid-order"),
        pytest.param(CALL + "{call_time,[{<a>,1,0,5},{<a1>,1,0,7}]}",
                     CALL + "{call_time,[{<a1>,1,_Seconds,_Microseconds},{<a>,1,_Seconds,_Microseconds}]}", True,
                     id="time-the-model's-pid-order"),  # ref/tests/test_counters.c: <a1> before <a>
        pytest.param(CALL + "{call_time,[{<a>,3,0,12},{<b>,1,0,3}]}", GOLDEN_TIME, False, id="time-a-count-differs"),
        pytest.param(CALL + "{call_time,[{<a>,2,0,1000000},{<b>,1,0,3}]}", GOLDEN_TIME, False,
                     id="time-microseconds-of-a-second"),
        pytest.param(CALL + "{call_time,[{<a>,2,-1,12},{<b>,1,0,3}]}", GOLDEN_TIME, False, id="time-negative-seconds"),
        pytest.param(CALL + "{call_time,[{<a>,2,0,x},{<b>,1,0,3}]}", GOLDEN_TIME, False, id="time-not-an-integer"),
        pytest.param(CALL + "{call_time,[{<a>,2,0},{<b>,1,0,3}]}", GOLDEN_TIME, False, id="time-three-fields"),
        pytest.param(CALL + "{call_time,[{<a>,2,0,12}]}", GOLDEN_TIME, False, id="time-a-process-missing"),
        pytest.param(CALL + "{call_time,[{<a>,2,0,12},{<b>,1,0,3},{<c>,1,0,3}]}", GOLDEN_TIME, False,
                     id="time-a-process-too-many"),
        pytest.param(CALL + "{call_time,false}", GOLDEN_TIME, False, id="time-off"),
        pytest.param(MEMORY + "{all,[{traced,false},{call_memory,[{<a>,3,0}]},{call_time,false},{call_count,3}]}",
                     GOLDEN_MEMORY, True, id="memory-of-the-shape"),
        pytest.param(MEMORY + "{all,[{traced,false},{call_memory,[{<a>,3,-4}]},{call_time,false},{call_count,3}]}",
                     GOLDEN_MEMORY, False, id="memory-negative-words"),
        pytest.param(MEMORY + "{all,[{traced,false},{call_memory,[{<a>,3,0,1}]},{call_time,false},{call_count,3}]}",
                     GOLDEN_MEMORY, False, id="memory-four-fields"),
        pytest.param(MEMORY + "{all,[{traced,false},{call_memory,[{<a>,3,0}]},{call_time,false},{call_count,2}]}",
                     GOLDEN_MEMORY, False, id="memory-call-count-differs"),
    ],
)
def test_counter_lists_compare_by_shape(live: str, golden: str, agrees: bool) -> None:
    diff = compare(parse_stream("N " + golden + "\n", "golden"), parse_live_stream(live + "\n", "live"))
    assert diff.agree is agrees, diff.summary()


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("ctl erlang:trace_pattern({tcs_target,id,1},true,[call_time]) -> 1", id="another-call"),
        pytest.param("ctl erlang:trace(<a>,true,[{call_time,[{<a>,1,0,1}]}]) -> 1", id="not-an-info-call"),
        pytest.param("trace(send, <tracer>, <a>, {call_time,[{<a>,1,0,1}]}, #{})", id="a-traced-message"),
    ],
)
def test_other_lines_keep_their_numbers(body: str) -> None:
    assert normalise_live(body) == body
