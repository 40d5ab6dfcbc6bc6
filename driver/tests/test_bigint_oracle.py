"""The model's integer arithmetic (ref/terms/bigint.c, MS-GUARD-BIGNUM) against Python's exact
integers: for each Erlang operator, a few hundred operand pairs from 1 to 300 bits, both signs,
the edges of 64 bits among them, go through `tcsref sim` as `erlang:match_spec_test/3` steps, and
every answer must be what Erlang's operator gives (`'EXIT'` where it raises)."""
import random
import re
import subprocess
from pathlib import Path
from typing import Callable, Optional

import pytest

from tcs_driver import corpus

Op = Callable[[int, int], Optional[int]]


def truncated_div(x: int, y: int) -> Optional[int]:
    """Erlang's div: toward zero; None (badarith) for a zero divisor."""
    if y == 0:
        return None
    quotient = abs(x) // abs(y)
    return quotient if (x < 0) == (y < 0) else -quotient


def truncated_rem(x: int, y: int) -> Optional[int]:
    """Erlang's rem: the sign of the dividend; None for a zero divisor."""
    quotient = truncated_div(x, y)
    return None if quotient is None else x - y * quotient


def shift_left(x: int, count: int) -> int:
    """Erlang's bsl: a negative count shifts right, rounding toward minus infinity as >> does."""
    return x << count if count >= 0 else x >> -count


#: Erlang's binary operators as Python computes them (Python's & | ^ act on two's complement of
#: unbounded width, as Erlang's band, bor, bxor do).
BINARY: dict[str, Op] = {
    "+": lambda x, y: x + y,
    "-": lambda x, y: x - y,
    "*": lambda x, y: x * y,
    "div": truncated_div,
    "rem": truncated_rem,
    "band": lambda x, y: x & y,
    "bor": lambda x, y: x | y,
    "bxor": lambda x, y: x ^ y,
    "bsl": shift_left,
    "bsr": lambda x, y: shift_left(x, -y),
    "<": lambda x, y: int(x < y),
    "=:=": lambda x, y: int(x == y),
}
UNARY: dict[str, Callable[[int], int]] = {"-": lambda x: -x, "abs": abs, "bnot": lambda x: ~x}
COMPARISONS = {"<", "=:="}


def operands(seed: int, count: int, shift: bool) -> list[tuple[int, int]]:
    """count pairs: random magnitudes of 1 to 300 bits and the 64-bit edges, both signs; a shift's
    count stays within 300 bits either way (the model computes up to 2^20 bits)."""
    rng = random.Random(seed)
    edges = [0, 1, (1 << 59) - 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, (1 << 64) + 1, 1 << 128]
    def value() -> int:
        magnitude = rng.choice(edges) if rng.random() < 0.3 else rng.getrandbits(rng.randint(1, 300))
        return -magnitude if rng.random() < 0.5 else magnitude
    return [(value(), rng.randint(-300, 300) if shift else value()) for _ in range(count)]


def erlang_text(value: Optional[int], comparison: bool) -> str:
    """How the stream prints what the operator gave."""
    if value is None:
        return "'EXIT'"
    if comparison:
        return "true" if value else "false"
    return str(value)


def scenario(steps: list[str]) -> str:
    return "case oracle\nrules A\ndesc \"d\"\notp 25\ntracer recorder\nprocess a\n" + "".join(
        f"{step}\n" for step in steps)


def answers(tcsref: Path, text: str, tmp_path: Path) -> list[str]:
    """The Result of each ms_test line of the stream `tcsref sim` prints for the scenario."""
    case = tmp_path / "oracle.tcs"
    case.write_text(text)
    done = subprocess.run([str(tcsref), "sim", str(case)], capture_output=True, text=True, check=True)
    return re.findall(r"erlang:match_spec_test\(.*\) -> \{ok,(.*),\[\],\[\]\}$", done.stdout, re.M)


@pytest.mark.parametrize("op", sorted(BINARY), ids=lambda op: f"binary-{op}")
def test_binary_operator_matches_python(op: str, layout: corpus.Layout, tmp_path: Path) -> None:
    pairs = operands(seed=sum(map(ord, op)), count=150, shift=op in ("bsl", "bsr"))
    steps = [f"a ms_test [{x},{y}] [{{['$1','$2'],[],[{{message,{{'{op}','$1','$2'}}}}]}}]" for x, y in pairs]
    want = [erlang_text(BINARY[op](x, y), op in COMPARISONS) for x, y in pairs]
    got = answers(layout.tcsref, scenario(steps), tmp_path)
    assert got == want


@pytest.mark.parametrize("op", sorted(UNARY), ids=lambda op: f"unary-{op}")
def test_unary_operator_matches_python(op: str, layout: corpus.Layout, tmp_path: Path) -> None:
    values = [x for x, _ in operands(seed=len(op), count=150, shift=False)]
    steps = [f"a ms_test [{x}] [{{['$1'],[],[{{message,{{'{op}','$1'}}}}]}}]" for x in values]
    got = answers(layout.tcsref, scenario(steps), tmp_path)
    assert got == [str(UNARY[op](x)) for x in values]


def test_the_oracle_reads_every_step(layout: corpus.Layout, tmp_path: Path) -> None:
    """A wrong answer shows: the model's sum of 2^64 and 1 is not 2^64."""
    steps = ["a ms_test [18446744073709551616,1] [{['$1','$2'],[],[{message,{'+','$1','$2'}}]}]"]
    assert answers(layout.tcsref, scenario(steps), tmp_path) == ["18446744073709551617"]
