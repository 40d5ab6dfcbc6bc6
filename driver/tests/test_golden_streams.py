"""Every golden stream of the corpus reads as the comparison reads it (stream.parse_stream): classes
that agree with the classification, windows opened and closed, choices well formed. `./tcs golden
--check` compares the files with the model's output and cannot see a stream the driver would
refuse at run time (a window left open at a case's end did so once)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tcs_driver.stream import parse_stream

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
STREAMS = sorted(GOLDEN.glob("*.stream"))


def test_there_are_golden_streams() -> None:
    assert len(STREAMS) > 1000


@pytest.mark.parametrize("path", STREAMS, ids=[p.stem for p in STREAMS])
def test_golden_stream_parses(path: Path) -> None:
    parse_stream(path.read_text(), path.name)
