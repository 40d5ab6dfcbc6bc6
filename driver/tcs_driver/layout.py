"""Where the source tree and its CMake build put things."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Layout:
    """Where the source tree and the build put things; `run --cases-dir DIR` puts a user's own tree of
    scenarios in place of the corpus, with the golden streams the model generates for them."""
    repo: Path
    build: Path
    own_cases: Path | None = None      # a user's tree of scenarios (and DIR/expectations/, if any)
    own_golden: Path | None = None     # the golden streams the model wrote for them

    @property
    def tcsref(self) -> Path:
        return self.build / "tcsref"

    @property
    def beams(self) -> Path:
        return self.build / "beam"

    @property
    def nifs(self) -> Path:
        return self.build / "nif"

    @property
    def expectations(self) -> Path:
        return self.own_cases / "expectations" if self.own_cases else self.repo / "expectations"

    @property
    def cases(self) -> Path:
        """The corpus: a tree with one directory per area, cases/<area>/<id>.tcs (cases/README.md)."""
        return self.own_cases or self.repo / "cases"

    def case_file(self, case_id: str) -> Path:
        """The file of corpus case `case_id`, in whichever area of cases/ holds it; when none does,
        cases/<id>.tcs, a path that does not exist, for the caller to report."""
        return next(self.cases.rglob(f"{case_id}.tcs"), self.cases / f"{case_id}.tcs")

    @property
    def golden(self) -> Path:
        return self.own_golden or self.repo / "golden"

    @property
    def generated(self) -> Path:
        """What the build derives from the model: the tag table (cmake/tcs_tags.cmake)."""
        return self.build / "generated"


REPO = Path(__file__).resolve().parents[2]


def default_layout() -> Layout:
    """This repository and its build directory ($TCS_BUILD_DIR, default build/)."""
    return Layout(REPO, Path(os.environ.get("TCS_BUILD_DIR", REPO / "build")).resolve())
