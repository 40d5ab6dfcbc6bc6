"""The HTML report: its structure, and the real matrix rendered by headless Chromium
(screenshot kept in build/test-output/report.png)."""
from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from conftest import CASES, TEST_RELEASES
from tcs_driver import corpus, report_html
from tcs_driver.results import CaseResult, per_rule

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def test_differences_side_by_side() -> None:
    golden = ["I enabled(trace_status, <tracer>, <a>) -> trace", "N enabled(send, <tracer>, <a>) -> trace",
              "N trace_send(send, <tracer>, <a>, ping, #{extra=><b>})"]
    live = golden[:2] + ["N trace(send, <tracer>, <a>, ping, #{extra=><b>})"]
    results = [CaseResult("fallback_x", "fail", ["FALLBACK-TRACE"], "29", "DIFFER: <1 missing>",
                          golden, live, changed=["-" + golden[2], "+" + live[2]]),
               CaseResult("fallback_x", "pass", ["FALLBACK-TRACE"], "25")]
    page = report_html.render(results)
    assert '<a href="#diff-fallback_x-otp29">fail</a>' in page
    section = page[page.index('<section id="diff-fallback_x-otp29">'):]
    assert '<span class="del">N trace_send(send, &lt;tracer&gt;, &lt;a&gt;, ping, #{extra=&gt;&lt;b&gt;})</span>' in section
    assert '<span class="add">N trace(send, &lt;tracer&gt;, &lt;a&gt;, ping, #{extra=&gt;&lt;b&gt;})</span>' in section
    assert '<span class="info">I enabled(trace_status' in section
    assert "DIFFER: &lt;1 missing&gt;" in section
    assert "diff-fallback_x-otp25" not in page  # a pass has no streams section
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page), "the report must not load anything"


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="tcs-chromium-") as profile:
        return subprocess.run(["chromium", *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def _png_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the decompressed scanlines of a PNG file."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return width, height, zlib.decompress(idat)


@pytest.mark.browser
def test_report_renders_the_matrices_in_chromium(layout: corpus.Layout, corpus_results) -> None:
    if shutil.which("chromium") is None:
        pytest.skip("needs the Debian package chromium (./tcs test installs it when run as root)")
    results = [r for release in TEST_RELEASES for r in corpus_results(release).values()]
    out = layout.build / "test-output"
    out.mkdir(exist_ok=True)
    page = out / "report.html"
    page.write_text(report_html.render(results))

    dumped = _chromium("--dump-dom", page.as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    dom = dumped.stdout
    for case in CASES:
        for release in TEST_RELEASES:
            status = corpus_results(release)[case.id].status
            assert f'<td class="{status}" data-case="{case.id}" data-otp="{release}"' in dom, (case.id, release)
    for rule in per_rule(results):
        assert all(f'data-rule="{rule}" data-otp="{release}"' in dom for release in TEST_RELEASES), rule
    assert dom.count("<th>OTP ") >= 3 * len(TEST_RELEASES)  # summary, rule and case matrix headers

    screenshot = out / "report.png"
    screenshot.unlink(missing_ok=True)
    shot = _chromium("--window-size=1280,2400", f"--screenshot={screenshot}", page.as_uri())
    assert shot.returncode == 0 and screenshot.exists(), shot.stderr[-2000:]
    width, height, pixels = _png_pixels(screenshot)
    assert (width, height) == (1280, 2400)
    assert len(set(pixels)) > 16, "the screenshot is blank"
    print(f"screenshot of the report: {screenshot}")
