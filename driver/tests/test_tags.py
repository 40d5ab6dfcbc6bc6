"""The tag table has one source, the model (`tcsref tags`); every other copy is derived
from it or checked against it here (PROTOCOLS.md, section 3)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tcs_driver import corpus, recorder, stream, tags


@pytest.fixture(scope="module")
def printed(layout: corpus.Layout) -> str:
    """What the model prints now."""
    return corpus.model(layout, "tags")


def test_the_driver_reads_what_the_model_prints(layout: corpus.Layout, printed: str) -> None:
    assert (layout.generated / "tcs_tags.json").read_text() == printed
    assert tags.table() == tags.parse(printed, "tcsref tags")


def test_erl_tracer_has_18_callbacks_in_8_categories() -> None:
    # enabled/3, trace/5 and 8 categories x (enabled_X/3, trace_X/5), as listed in spec 000.
    table = tags.table()
    assert len(table.categories) == 8 and len(table.callbacks) == 18
    assert table.with_arities()[:2] == (("enabled", 3), ("trace", 5))
    assert ("trace_garbage_collection", 5) in table.with_arities()
    assert table.special == ("trace_status", "seq_trace")
    assert table.process["link"] == "procs" and table.port["link"] == "ports"
    assert table.process["in"] == "running_procs" and table.port["in"] == "running_ports"


def _erlang_list(text: str, macro: str) -> list[str]:
    """The atoms (quoted) of one -define(MACRO, [...]) of the generated .hrl."""
    m = re.search(rf"-define\({macro}, \[(.*?)\]\)\.", text, re.S)
    assert m is not None, f"{macro} missing"
    return re.findall(r"'([a-z_]+)'", m.group(1))


def test_the_runner_header_is_the_table(layout: corpus.Layout) -> None:
    hrl = (layout.generated / "tcs_tags.hrl").read_text()
    table = tags.table()
    assert _erlang_list(hrl, "TCS_CATEGORIES") == list(table.categories)
    assert _erlang_list(hrl, "TCS_OPTIONAL_CALLBACKS") == list(table.optional_callbacks)
    triples = _erlang_list(hrl, "TCS_TAGS")
    assert [tuple(triples[i:i + 3]) for i in range(0, len(triples), 3)] == \
        [(tag, table.process[tag], table.port[tag]) for tag in table.process]
    assert _erlang_list(hrl, "TCS_SPECIAL_TAGS") == list(table.special)


def test_the_recorder_header_has_the_driver_bit_order(layout: corpus.Layout) -> None:
    header = (layout.generated / "tcs_tags.h").read_text()
    bits = {name: int(bit) for name, bit in re.findall(r"X\((\w+), (\d+)\)", header)}
    assert len(bits) == 16
    for name, bit in bits.items():
        assert recorder.callback_mask([name]) == 1 << bit, name
    assert recorder.module_name(list(bits)) == "tcs_rec_ffff"


def test_the_good_tracer_provides_exactly_the_callbacks(layout: corpus.Layout) -> None:
    # A tracer written as its users would write one, by hand: checked, not generated.
    good = layout.repo / "nif_impls" / "good"
    in_c = set(re.findall(r'\{"(\w+)", (\d), tcs_', (good / "tcs_good_tracer.c").read_text()))
    exports = re.search(r"-export\(\[(.*?)\]\)", (good / "tcs_good_tracer.erl").read_text(), re.S)
    assert exports is not None
    in_erl = set(re.findall(r"(\w+)/(\d)", exports.group(1)))
    every = {(name, str(arity)) for name, arity in tags.table().with_arities()}
    assert in_c == every
    assert in_erl == every - {("enabled", "3"), ("trace", "5")}  # those two come from the .hrl


def test_the_stream_knows_every_callback() -> None:
    for name, arity in tags.table().with_arities():
        body = f"{name}(send, <tracer>, <a>)" + (" -> trace" if arity == 3 else "")
        if arity == 5:
            body = f"{name}(send, <tracer>, <a>, hi, #{{}})"
        assert stream.parse_body(body, "t").callback == name


@pytest.mark.parametrize(("text", "fragment"), [
    pytest.param("not json", "not the output of tcsref tags", id="not-json"),
    pytest.param('{"categories": []}', "not the output of tcsref tags", id="keys-missing"),
    pytest.param('{"categories": ["send", "call"], "callbacks": ["enabled_call", "enabled_send", '
                 '"trace_call", "trace_send"], "tags": [], "special": []}', "not enabled_<category>",
                 id="bit-order"),
])
def test_a_table_that_is_not_the_model_s_is_refused(text: str, fragment: str) -> None:
    with pytest.raises(tags.TagTableError, match=fragment):
        tags.parse(text, "t.json")


def test_no_build_says_how_to_make_the_table(tmp_path: Path) -> None:
    with pytest.raises(tags.TagTableError, match="the build writes the tag table there"):
        tags.load(tmp_path / "tcs_tags.json")


@pytest.mark.live
def test_validate_asks_each_category_for_the_model_s_tags(layout: corpus.Layout, otp_node) -> None:
    """The validate jobs' input space (tcs_validate_lib:categories/0) takes its tags from the table."""
    otp, _, _ = otp_node
    probe = 'io:format("~w", [tcs_validate_lib:categories()]), halt().'
    done = subprocess.run(otp.erl + ["-noshell", "-noinput", "-pa", str(layout.beams), "-eval", probe],
                          capture_output=True, text=True, timeout=60)
    table = tags.table()
    for category, tag_list, kinds in re.findall(r"\{'?(\w+)'?,\[([^\]]*)\],\[([^\]]*)\]\}", done.stdout):
        of = table.port if kinds == "port" else table.process
        assert tag_list.replace("'", "").split(",") == [t for t, c in of.items() if c == category], category
    assert done.stdout.count("{") == 8, done.stdout
