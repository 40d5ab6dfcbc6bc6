"""The gate NIF the scenario processes wait in (driver/runner/tcs_gate.c), on the host's node."""
from __future__ import annotations

import subprocess

from tcs_driver import corpus

# A process waits in the gate; once it is counted, a poke must uncount it at once: it is on
# its way out of the NIF and will be scheduled again, which a `running` flag set by the
# next step would trace. It counts again only after it has entered the NIF anew.
POKE = """
ok = tcs_gate:load(GateSo),
Gate = tcs_gate:new(),
Wait = fun W(N) -> case tcs_gate:waiting(Gate) of N -> ok; _ -> timer:sleep(1), W(N) end end,
Loop = fun L() -> poke = tcs_gate:await_turn(Gate), L() end,
spawn(Loop),
ok = Wait(1),
Counts = [begin ok = tcs_gate:poke(Gate), C = tcs_gate:waiting(Gate), ok = Wait(1), C end
          || _ <- lists:seq(1, 200)],
io:format("~w", [lists:usort(Counts)]),
halt().
"""


def test_a_poked_process_is_no_longer_counted_as_waiting(layout: corpus.Layout, otp_node) -> None:
    otp, _, _ = otp_node
    gate_so = layout.nifs / "tcs_gate"
    done = subprocess.run([*otp.erl, "-noshell", "-pa", str(layout.beams), "-eval",
                           f'GateSo = "{gate_so}", {POKE}'], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "[0]", f"waiting/1 right after poke/1 gave {done.stdout}"
