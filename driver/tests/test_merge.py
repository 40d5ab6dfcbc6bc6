"""./tcs merge: the JSON reports of shards make the report one run writes (summaries recomputed, the
JUnit XML and HTML report of the same results), read by diff and book as a run's; reports that are not
one run's are refused with nothing written; a missing shard or a report cut short makes the merge
incomplete, saying why. Fuzz campaigns' reports merge into the campaign's, and a campaign's journal
gives back what was judged."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tcs_driver import cli, junit, merge, report_html, rundiff
from tcs_driver.fuzz import campaign as cp
from tcs_driver.fuzz import journal, report, steer
from tcs_driver.fuzz import merge as fuzz_merge
from tcs_driver.results import CaseResult, from_json, junit_cases, to_json
from tcs_driver.shard import WHOLE, Shard
from tcs_driver.workshop import book

TREE = {"corpus": "c0ffee", "commit": "abc123", "cases": "*", "strict": False}


def whole_run() -> list[CaseResult]:
    """A run on two releases with every status that shows streams, out of order."""
    return [
        CaseResult("b_send", "pass", ["EV-SEND"], "25", live=["N ctl erlang:trace(<a>,true,[send]) -> 1"]),
        CaseResult("a_call", "fail", ["EV-CALL", "EV-SEND"], "25", "1 missing", golden=["N ctl erlang:trace(<a>,true,[call]) -> 1"],
                   live=[], changed=["-N call <a> f/0"]),
        CaseResult("c_gc", "deviation", ["GC-MINOR"], "25", "C-41", golden=["N ctl erlang:trace(<a>,true,[procs]) -> 1"], clarification="C-41"),
        CaseResult("d_sess", "skip", ["SESSION-NEW"], "25", "needs OTP >= 27"),
        CaseResult("b_send", "pass", ["EV-SEND"], "29", live=["N ctl erlang:trace(<a>,true,[send]) -> 1"]),
        CaseResult("a_call", "pass", ["EV-CALL", "EV-SEND"], "29", live=["N ctl erlang:trace(<a>,true,[call]) -> 1"], rerun_alone=True,
                   shared_run=CaseResult("a_call", "fail", ["EV-CALL"], "29", "shared", golden=["N ctl erlang:trace(<a>,true,[]) -> 1"])),
        CaseResult("c_gc", "crash", ["GC-MINOR"], "29", "node down", golden=["N ctl erlang:trace(<a>,true,[procs]) -> 1"]),
        CaseResult("d_sess", "timeout", ["SESSION-NEW"], "29", "hung"),
    ]


def shard_report(results: list[CaseResult], part: Shard, otp: str, **fields: Any) -> dict[str, Any]:
    """The report `run --otp OTP --shard PART` writes: its part of the cases sorted by id."""
    mine = part.select(sorted({r.case for r in results}))
    return to_json([otp], [r for r in results if r.otp == otp and r.case in mine],
                   provenance={**TREE, "shard": str(part), **fields})


def write(tmp_path: Path, name: str, report_json: dict[str, Any]) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(report_json, indent=2) + "\n")
    return path


def shard_files(tmp_path: Path, total: int = 2) -> list[Path]:
    return [write(tmp_path, f"run-{otp}-{k}.json", shard_report(whole_run(), Shard(k, total), otp))
            for otp in ("25", "29") for k in range(1, total + 1)]


@pytest.mark.parametrize("total", [1, 2, 3], ids=lambda n: f"N{n}")
def test_merged_shards_are_the_report_of_one_run(tmp_path: Path, total: int) -> None:
    merged = merge.merge([merge.load(p) for p in shard_files(tmp_path, total)])
    one_run = to_json(["25", "29"], whole_run(), provenance=TREE)
    assert merged["complete"] is True and "incomplete" not in merged
    assert merged["summary"] == one_run["summary"] and merged["by_otp"] == one_run["by_otp"]
    assert merged["results"] == one_run["results"]
    assert merged["corpus"] == "c0ffee" and len(merged["merged"]) == 2 * total


def test_from_json_gives_back_what_the_report_keeps() -> None:
    rows = to_json(["25", "29"], whole_run())["results"]
    assert [to_json(["25", "29"], [from_json(row)])["results"][0] for row in rows] == rows
    kept = {(r.case, r.otp): r.golden for r in map(from_json, rows)}
    assert kept[("a_call", "25")] == ["N ctl erlang:trace(<a>,true,[call]) -> 1"] and kept[("b_send", "25")] == []


def test_the_merge_command_writes_json_junit_and_html_as_one_run(tmp_path: Path) -> None:
    out, xml, page = tmp_path / "m.json", tmp_path / "m.xml", tmp_path / "m.html"
    status = cli.main(["merge", str(out), *map(str, shard_files(tmp_path)), "--junit", str(xml), "--html", str(page)])
    assert status == 1   # a_call fails on 25, as the run itself would exit
    assert xml.read_text() == junit.render("tcs run", junit_cases(sorted(whole_run(), key=lambda r: (r.case, r.otp))))
    assert page.read_text() == report_html.render(whole_run())
    assert 'id="diff-a_call-otp25"' in page.read_text() and "erlang:trace(&lt;a&gt;,true,[call])" in page.read_text()
    diffed = rundiff.compare(rundiff.load(out), rundiff.load(write(tmp_path, "w.json", to_json(["25", "29"], whole_run()))))
    assert not diffed.newly_failing and not diffed.status_changed and not diffed.only_old and diffed.unchanged == 8
    assert {(e.case, e.otp, e.status) for e in book.results_from_files([str(out)])} == \
        {(r.case, r.otp, r.status) for r in whole_run()}


def test_a_missing_shard_makes_the_merge_incomplete(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = shard_files(tmp_path, 3)
    out = tmp_path / "m.json"
    assert cli.main(["merge", str(out), *map(str, files[:2] + files[3:])]) == 1
    merged = json.loads(out.read_text())
    assert merged["complete"] is False and merged["incomplete"] == "OTP 25: shard 3/3 missing"
    assert "incomplete: OTP 25: shard 3/3 missing" in capsys.readouterr().err
    assert rundiff.load(out).incomplete == "OTP 25: shard 3/3 missing"


def test_a_shard_cut_short_makes_the_merge_incomplete(tmp_path: Path) -> None:
    cut = shard_report(whole_run(), Shard(1, 2), "25")
    cut.update(complete=False, incomplete="interrupted (Ctrl-C) after 1 result(s)")
    files = [write(tmp_path, "cut.json", cut), write(tmp_path, "b.json", shard_report(whole_run(), Shard(2, 2), "25"))]
    merged = merge.merge([merge.load(p) for p in files])
    assert merged["incomplete"] == f"{files[0]}: interrupted (Ctrl-C) after 1 result(s)"


def test_shards_of_different_splits_are_incomplete(tmp_path: Path) -> None:
    files = [write(tmp_path, "a.json", shard_report(whole_run(), Shard(1, 2), "25")),
             write(tmp_path, "b.json", shard_report(whole_run(), Shard(2, 3), "25"))]
    assert "different splits" in merge.merge([merge.load(p) for p in files])["incomplete"]


def test_an_unsharded_report_is_whole(tmp_path: Path) -> None:
    files = [write(tmp_path, "a.json", shard_report(whole_run(), WHOLE, "25")),
             write(tmp_path, "b.json", shard_report(whole_run(), WHOLE, "29"))]
    assert merge.merge([merge.load(p) for p in files])["complete"] is True


@pytest.mark.parametrize("field,value", [("corpus", "beef"), ("commit", "def456"), ("cases", "fallback_*"),
                                         ("strict", True)], ids=["corpus", "commit", "cases", "strict"])
def test_reports_of_another_tree_or_selection_are_refused(tmp_path: Path, field: str, value: Any,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path, "a.json", shard_report(whole_run(), Shard(1, 2), "25")),
             write(tmp_path, "b.json", shard_report(whole_run(), Shard(2, 2), "25", **{field: value}))]
    out = tmp_path / "m.json"
    assert cli.main(["merge", str(out), *map(str, files)]) == 2
    assert f"differ in '{field}'" in capsys.readouterr().err and not out.exists()


def test_two_statuses_for_one_case_and_release_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = [CaseResult(r.case, "pass", r.rules, r.otp) if r.case == "a_call" else r for r in whole_run()]
    files = [write(tmp_path, "a.json", shard_report(whole_run(), WHOLE, "25")),
             write(tmp_path, "b.json", shard_report(other, Shard(1, 2), "25"))]
    out, xml = tmp_path / "m.json", tmp_path / "m.xml"
    assert cli.main(["merge", str(out), *map(str, files), "--junit", str(xml)]) == 2
    err = capsys.readouterr().err
    assert "a_call on OTP 25: fail in" in err and "pass in" in err
    assert not out.exists() and not xml.exists()


def test_the_same_result_twice_is_kept_once(tmp_path: Path) -> None:
    files = [write(tmp_path, "a.json", shard_report(whole_run(), WHOLE, "25")),
             write(tmp_path, "b.json", shard_report(whole_run(), Shard(1, 2), "25"))]
    assert merge.merge([merge.load(p) for p in files])["summary"]["cases"] == 4


@pytest.mark.parametrize("text", ["[]", '{"otp": "25"}', "not json", '{"otp": ["25"], "results": [{"case": 1}]}'],
                         ids=["list", "no-results", "not-json", "bad-row"])
def test_what_is_no_report_is_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(merge.MergeError, match=str(path)):
        merge.load(path)


def outcome(index: int, otp: str, status: str, shape: tuple[str, ...] = ()) -> cp.Outcome:
    return cp.Outcome(f"fuzz_7_{index}", otp, status, shape, ["-N x"] if shape else [], status)


def whole_campaign() -> list[cp.Outcome]:
    shapes = {1: ("-trace send",), 4: ("-trace send",), 5: ("+ctl x ->",)}
    return [outcome(i, otp, "disagree" if i in shapes and otp == "29" else "skip" if i == 2 and otp == "25"
                    else "agree", shapes.get(i, ()) if otp == "29" else ())
            for i in range(7) for otp in ("25", "29")]


def campaign_report(outcomes: list[cp.Outcome], part: Shard) -> dict[str, Any]:
    cover = steer.Coverage()
    cover.add(["EV-SEND", "EV-CALL"])
    mine = [o for o in outcomes if part.holds(int(o.scenario.rsplit("_", 1)[1]))]
    result = cp.Campaign(7, ["25", "29"], [], mine, cp.group(mine), {"25": 3.0, "29": 4.0}, steer.Coverage(), cover,
                         part=part)
    return report.to_json(result) | {"scenarios": len({o.scenario for o in mine})}


def test_the_shards_of_a_campaign_merge_into_the_campaign(tmp_path: Path) -> None:
    files = [write(tmp_path, f"f{k}.json", campaign_report(whole_campaign(), Shard(k, 3))) for k in (1, 2, 3)]
    merged, campaign = fuzz_merge.merge([merge.load(p) for p in files])
    whole = campaign_report(whole_campaign(), WHOLE)
    assert merged["complete"] is True and merged["seed"] == 7 and merged["scenarios"] == 7
    assert merged["by_otp"] == whole["by_otp"] and merged["coverage"] == whole["coverage"]
    assert sorted(map(json.dumps, merged["results"])) == sorted(map(json.dumps, whole["results"]))
    assert [(g["status"], g["shape"], g["count"]) for g in merged["groups"]] == \
        [(g["status"], g["shape"], g["count"]) for g in whole["groups"]]
    assert merged["seconds"] == {"25": 9.0, "29": 12.0}
    assert len(report.junit_cases(campaign)) == 14


def test_campaigns_of_other_seeds_or_lengths_are_refused(tmp_path: Path) -> None:
    first = campaign_report(whole_campaign(), Shard(1, 2))
    for changed in ({"seed": 8}, {"coverage": {"rules": 9}}):
        files = [write(tmp_path, "a.json", first), write(tmp_path, "b.json", first | changed)]
        with pytest.raises(merge.MergeError, match=f"differ in '{next(iter(changed))}'"):
            fuzz_merge.merge([merge.load(p) for p in files])


def test_a_run_and_a_campaign_are_not_merged(tmp_path: Path) -> None:
    files = [write(tmp_path, "a.json", campaign_report(whole_campaign(), WHOLE)),
             write(tmp_path, "b.json", shard_report(whole_run(), WHOLE, "25"))]
    with pytest.raises(merge.MergeError, match="one kind"):
        fuzz_merge.merge([merge.load(p) for p in files])


def test_a_journal_gives_back_what_was_judged(tmp_path: Path) -> None:
    first = journal.open_journal(tmp_path, 7, Shard(1, 2), strict=False)
    first.record([outcome(0, "25", "agree"), outcome(2, "25", "disagree", ("-trace send",))], "25", 2.5)
    first.record([outcome(0, "29", "skip")], "29", 0.5)
    with first.path.open("a") as cut:
        cut.write('{"outcome": {"scenario": "fuzz_7_4"')   # a kill in the middle of a line
    again = journal.open_journal(tmp_path, 7, Shard(1, 2), strict=False)
    assert again.judged == first.judged and len(again.judged) == 3
    assert again.judged[("fuzz_7_2", "25")].shape == ("-trace send",)
    assert again.seconds == {"25": 2.5, "29": 0.5}
    assert journal.open_journal(tmp_path, 7, Shard(2, 2), strict=False).judged == {}   # another shard's file


def test_a_journal_of_another_comparison_is_refused(tmp_path: Path) -> None:
    journal.open_journal(tmp_path, 7, WHOLE, strict=False)
    with pytest.raises(journal.JournalError, match="another campaign"):
        journal.open_journal(tmp_path, 7, WHOLE, strict=True)


def test_a_campaign_report_with_a_malformed_result_is_refused(tmp_path: Path) -> None:
    broken = campaign_report(whole_campaign(), WHOLE)
    del broken["results"][0]["shape"]
    with pytest.raises(merge.MergeError, match="not a fuzz outcome"):
        fuzz_merge.merge([merge.load(write(tmp_path, "a.json", broken))])
