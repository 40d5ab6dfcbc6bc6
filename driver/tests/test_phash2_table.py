"""ref/tests/phash2_live.h, the erlang:phash2/1 values test_phash2 checks the model against, is what live
nodes answer (tcs_driver.phash2_table): every row is checked again on each release of the matrix."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import TEST_RELEASES

from tcs_driver import node, phash2_table


def test_the_header_holds_every_term_of_the_terms_file() -> None:
    """The header is made from the terms file as it stands: no term added or changed since."""
    assert list(phash2_table.recorded()) == phash2_table.read_terms()


@pytest.mark.parametrize("release", TEST_RELEASES)
def test_the_header_is_what_the_node_answers(otp_for: Callable[[str], node.Otp], release: str) -> None:
    """Each recorded hash is the one erlang:phash2/1 gives on this release now."""
    table = phash2_table.recorded()
    live = phash2_table.live_hashes(otp_for(release))
    assert dict(zip(phash2_table.read_terms(), live)) == table
