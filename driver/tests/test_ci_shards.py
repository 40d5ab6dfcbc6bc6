"""The sharded GitHub Actions workflow of the README (ci-examples/github-actions.yml), run here: its
matrix made small (OTP 25, two shards; the fallback cases, a campaign of 8 scenarios: the workflow's
own env variables), each shard job's `run:` steps as written, the two jobs side by side, each in a
directory of its own (where `./tcs` is this checkout's, as actions/checkout would put it), their
out/ files put together as download-artifact does, then the merge job's steps. The merged reports
must give every case and scenario the status one unsharded run gives it. What cannot be tested
here is GitHub itself: the container, the artifact and cache actions."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from tcs_driver import corpus

yaml = pytest.importorskip("yaml", reason="reading the workflow needs Debian's python3-yaml (./tcs test installs it)")

LAYOUT = corpus.default_layout()
WORKFLOW = LAYOUT.repo / "ci-examples" / "github-actions.yml"
#: The workflow's inputs made small: its env variables, its matrix, the run number (the fuzz seed).
SMALL_ENV = {"CASES": "fallback_*", "FUZZ_COUNT": "8", "SHRINK": "0"}
SMALL_MATRIX: dict[str, list[Any]] = {"otp": ["25"], "shard": [1, 2], "of": [2]}
RUN_NUMBER = "5"


def workflow() -> dict[str, Any]:
    return yaml.safe_load(WORKFLOW.read_text())


def readme_workflow(readme: str) -> str:
    """The YAML block of the README's section on sharded CI."""
    return readme.split("**Sharded CI.**", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]


def test_the_readme_shows_the_workflow_file() -> None:
    assert readme_workflow((LAYOUT.repo / "README.md").read_text()) == WORKFLOW.read_text()


def test_the_workflow_is_release_by_shard_then_a_merge() -> None:
    jobs = workflow()["jobs"]
    matrix = jobs["shard"]["strategy"]["matrix"]
    assert set(matrix) == set(SMALL_MATRIX) and matrix["of"] == [len(matrix["shard"])]
    assert matrix["shard"] == list(range(1, len(matrix["shard"]) + 1))
    assert jobs["merge"]["needs"] == "shard"
    assert set(SMALL_ENV) <= set(workflow()["env"])
    assert any("./tcs merge run.json" in s.get("run", "") for s in jobs["merge"]["steps"])


def expand(command: str, values: dict[str, str]) -> str:
    """A step's command with its ${{ ... }} expressions replaced, as GitHub does before the shell sees it."""
    return re.sub(r"\$\{\{\s*([\w.-]+)\s*\}\}", lambda m: values[m.group(1)], command)


def run_job(job: str, values: dict[str, str], where: Path) -> list[tuple[str, int, str]]:
    """The job's `run:` steps in order in `where` (./tcs being this checkout's): (command, exit, stderr)."""
    where.mkdir(parents=True, exist_ok=True)
    (where / "tcs").write_text(f'#!/bin/sh\nexec "{LAYOUT.repo / "tcs"}" "$@"\n')
    (where / "tcs").chmod(0o755)
    env = {**os.environ, **{k: str(v) for k, v in workflow()["env"].items()}, **SMALL_ENV}
    done = []
    for step in workflow()["jobs"][job]["steps"]:
        if "run" in step:
            command = expand(step["run"], values)
            ran = subprocess.run(["bash", "-e", "-c", command], cwd=where, env=env, capture_output=True, text=True)
            done.append((command, ran.returncode, ran.stderr))
    return done


def statuses(path: Path, subject: str) -> dict[tuple[str, str], str]:
    return {(row[subject], row["otp"]): row["status"] for row in json.loads(path.read_text())["results"]}


def tcs(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LAYOUT.repo / "tcs"), *args], cwd=cwd, capture_output=True, text=True)


@pytest.mark.live
def test_the_workflow_sharded_and_merged_gives_one_run_s_statuses(tmp_path: Path) -> None:
    combos = [dict(zip(SMALL_MATRIX, values)) for values in product(*SMALL_MATRIX.values())]
    jobs = {f"{c['otp']}-{c['shard']}": {**{f"matrix.{k}": str(v) for k, v in c.items()},
                                        "github.run_number": RUN_NUMBER, "github.run_attempt": "1"} for c in combos}
    with ThreadPoolExecutor(max_workers=len(jobs)) as pool:   # the shards side by side
        ran = dict(zip(jobs, pool.map(lambda name: run_job("shard", jobs[name], tmp_path / f"shard-{name}"), jobs)))
    for name, steps in ran.items():
        for command, status, err in steps:
            assert status in (0, 1), f"shard {name}: {command}: exit {status}\n{err}"
    (tmp_path / "merge" / "shards").mkdir(parents=True)
    for name in jobs:   # download-artifact with merge-multiple: every job's out/ in one directory
        for path in (tmp_path / f"shard-{name}" / "out").iterdir():
            shutil.copy(path, tmp_path / "merge" / "shards" / path.name)
    merged = run_job("merge", {}, tmp_path / "merge")
    for command, status, err in merged:
        assert status == 0, f"merge: {command}: exit {status}\n{err}"
    run_json, fuzz_json = tmp_path / "merge" / "run.json", tmp_path / "merge" / "fuzz.json"
    assert json.loads(run_json.read_text())["complete"] and json.loads(fuzz_json.read_text())["complete"]
    assert (tmp_path / "merge" / "run.xml").exists() and (tmp_path / "merge" / "fuzz.xml").exists()

    whole = tcs("run", "--otp", "25", "--cases", SMALL_ENV["CASES"], "--json", "whole.json", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert statuses(run_json, "case") == statuses(tmp_path / "whole.json", "case")
    assert len(statuses(run_json, "case")) == len(corpus.case_paths(LAYOUT, SMALL_ENV["CASES"]))
    campaign = tcs("fuzz", "--seed", RUN_NUMBER, "--count", SMALL_ENV["FUZZ_COUNT"], "--otp", "25",
                   "--shrink-seconds", "0", "--json", "fuzz-whole.json", cwd=tmp_path)
    assert campaign.returncode in (0, 1), campaign.stderr
    assert statuses(fuzz_json, "scenario") == statuses(tmp_path / "fuzz-whole.json", "scenario")
    assert len(statuses(fuzz_json, "scenario")) == int(SMALL_ENV["FUZZ_COUNT"])


@pytest.mark.live
def test_a_campaign_goes_on_from_its_output_directory(tmp_path: Path) -> None:
    """Stopped after 4 scenarios, the same campaign asked for 8 runs only the 4 it has not judged; run
    again, it runs none; its report is the one a campaign of 8 in one go writes."""
    common = ["fuzz", "--seed", RUN_NUMBER, "--otp", "25", "--shrink-seconds", "0", "--out", "found"]
    first = tcs(*common, "--count", "4", "--json", "first.json", cwd=tmp_path)
    assert first.returncode in (0, 1), first.stderr
    [log] = (tmp_path / "found").glob("campaign-*.jsonl")
    judged = sum('"outcome"' in line for line in log.read_text().splitlines())
    assert judged == 4
    resumed = tcs(*common, "--count", "8", "--json", "resumed.json", cwd=tmp_path)
    assert "4 outcome(s) judged before" in resumed.stderr
    assert sum('"outcome"' in line for line in log.read_text().splitlines()) == 8
    again = tcs(*common, "--count", "8", "--json", "again.json", cwd=tmp_path)
    assert "8 outcome(s) judged before" in again.stderr
    assert sum('"outcome"' in line for line in log.read_text().splitlines()) == 8
    at_once = tcs("fuzz", "--seed", RUN_NUMBER, "--otp", "25", "--shrink-seconds", "0", "--count", "8",
                  "--json", "at-once.json", cwd=tmp_path)
    assert at_once.returncode in (0, 1), at_once.stderr
    expected = statuses(tmp_path / "at-once.json", "scenario")
    assert statuses(tmp_path / "resumed.json", "scenario") == expected == statuses(tmp_path / "again.json", "scenario")
    assert statuses(tmp_path / "first.json", "scenario").items() <= expected.items()
