"""Make the tcs_driver package importable when pytest runs from the repository root."""

import sys
from pathlib import Path

_DRIVER = str(Path(__file__).resolve().parents[1])
if _DRIVER not in sys.path:
    sys.path.insert(0, _DRIVER)
