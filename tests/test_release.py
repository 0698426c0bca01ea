"""The release command's checks and records (:mod:`causal_bandits.archive.release`, :mod:`.changelog`): a dirty tree,
a version not above the current one and a checkout without ``rules check`` are refused; the version is written into
every version file; the CHANGELOG entry counts the verdicts that moved and the outputs whose bytes changed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from workflow_helpers import ROOT

from causal_bandits.archive import changelog, jobs, quotes, release, release_cost
from causal_bandits.cli import main
from causal_bandits.errors import CausalBanditsError


def _git(work: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=work, check=True)


def _versioned(tmp_path: Path) -> Path:
    work = tmp_path / "repo"
    (work / "src" / "causal_bandits").mkdir(parents=True)
    for name in release.VERSION_LINES:
        (work / name).write_text((ROOT / name).read_text())
    return work


def test_a_version_must_be_x_y_z_and_above_the_current_one():
    release.check_version("1.0.0", "0.1.0")
    release.check_version("0.10.0", "0.9.3")
    for bad, match in (("1.0", "is not X.Y.Z"), ("v1.0.0", "is not X.Y.Z"), ("0.1.0", "is not above the current")):
        with pytest.raises(CausalBanditsError, match=match):
            release.check_version(bad, "0.1.0")


def test_a_dirty_tree_is_refused_and_a_clean_one_passes(tmp_path):
    work = _versioned(tmp_path)
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "x")
    release.check_clean(work)
    (work / "pyproject.toml").write_text("edited\n")
    with pytest.raises(CausalBanditsError, match=r"the tree is not clean \(1 changed or untracked files"):
        release.check_clean(work)


def test_a_checkout_without_rules_check_is_refused(tmp_path, monkeypatch):
    class Done:
        returncode, stdout = 2, ""
        stderr = "causal-bandits: error: argument COMMAND: invalid choice: 'rules' (choose from ...)\n"

    monkeypatch.setattr(release.subprocess, "run", lambda *a, **k: Done())
    with pytest.raises(CausalBanditsError, match="has no `causal-bandits rules check`"):
        release.check_rules(tmp_path)
    Done.returncode, Done.stderr, Done.stdout = 1, "", "unregistered: cpe/pac-x\n"
    with pytest.raises(CausalBanditsError, match="rules check refused: unregistered: cpe/pac-x"):
        release.check_rules(tmp_path)
    Done.returncode = 0
    release.check_rules(tmp_path)


def test_the_version_is_written_into_every_version_file(tmp_path):
    work = _versioned(tmp_path)
    release.bump(work, "9.0.0")
    assert release.current_version(work) == "9.0.0"
    for name, line in release.VERSION_LINES.items():
        assert line.search((work / name).read_text())[1] == "9.0.0", name
    assert "date-released: " in (work / "CITATION.cff").read_text()


def _side(verdicts: dict[str, str], outputs: dict[str, str]) -> changelog.Side:
    return changelog.Side(verdicts, {ref: f"why {ref}" for ref in verdicts}, outputs, {"jobs": 3}, "2 reproduced")


def test_the_entry_names_each_moved_verdict_and_counts_the_outputs_that_changed_bytes(tmp_path):
    before = _side({"cpe/a": "reproduced", "cpe/b": "differs", "cpe/gone": "vacuous"}, {"x": "1", "y": "2", "z": "3"})
    after = _side({"cpe/a": "reproduced", "cpe/b": "reproduced", "cpe/new": "fitted"}, {"x": "1", "y": "9", "w": "4"})
    assert changelog.moved(before, after) == [
        "`cpe/b`: differs → reproduced: why cpe/b",
        "`cpe/gone`: vacuous → claim gone",
        "`cpe/new`: new claim → fitted: why cpe/new",
    ]
    assert changelog.changed_bytes(before.outputs, after.outputs) == (3, ["w", "y", "z"])
    assert changelog.changed_bytes(before.outputs, before.outputs) == (0, [])
    snapshot = changelog.Snapshot({"archive": after, "studies": after})
    lines = changelog.entry("1.0.0", "a" * 40, changelog.Snapshot({"archive": before}), snapshot, ["`make verify`: ok"])
    assert lines[0] == f"Archives made at commit `{'a' * 40}` (`archive/paper-scale`, `archive/studies`)."
    assert "  Verdicts moved: 3:" in lines and "  Verdicts moved: 0." not in lines[:8]
    assert "- `make verify`: ok" in lines
    path = tmp_path / "CHANGELOG.md"
    path.write_text("# Changelog\n\n## [Unreleased]\n\n### Changed\n\n- a change\n\n## [0.1.0] - 2026-11-28\n")
    changelog.write(path, "1.0.0", lines, today="2026-12-01")
    text = path.read_text()
    assert text.index("## [Unreleased]") < text.index("## [1.0.0] - 2026-12-01") < text.index("Archives made at")
    assert text.index("Archives made at") < text.index("- a change") < text.index("## [0.1.0]")
    path.write_text("# Changelog\n")
    with pytest.raises(CausalBanditsError, match="has no '## \\[Unreleased\\]' section"):
        changelog.write(path, "1.0.0", lines)


def test_the_cost_estimate_costs_each_planned_job_by_the_archived_job_that_wrote_its_files():
    def job(path: str, cpu: float, inputs: tuple[str, ...] = ()) -> dict[str, object]:
        return {"outputs": [{"path": path}], "inputs": list(inputs), "cpu_s": cpu, "wall_s": 9999.0}

    record = {"jobs": [job("a", 600.0), job("b", 1200.0, ("a",)), job("c", 1800.0), job("old", 7200.0)]}
    planned = [
        jobs.PlannedJob("make_a", outputs=["a", "a.log"]),
        jobs.PlannedJob("make_b", outputs=["b"]),
        jobs.PlannedJob("make_c", outputs=["c"]),
        jobs.PlannedJob("planned_run", outputs=["new1"]),
        jobs.PlannedJob("planned_run", outputs=["new2"]),
    ]
    part = release_cost.costed("the papers", planned, record, cores=2)
    # a, b and c as recorded (not the job that is no longer planned); on 2 cores, b waits for a: 30 min either way
    assert (part.planned, part.cpu_s, part.minutes) == (5, 3600.0, 30.0)
    assert part.uncosted == {"planned_run": 2}
    line = part.line(Path("archive/x"))
    assert line.startswith("the papers: 5 jobs, 1.00 CPU-h as archive/x recorded them, 30 min")
    assert line.endswith("not costed, no archived job wrote their files: 2 jobs (planned_run 2)")
    assert release_cost.costed("p", planned[:3], record, cores=1).minutes == 60.0


def test_cores_must_be_a_number_or_all():
    assert release.cores_number("3") == 3
    assert release.cores_number("all") >= 1
    for bad in ("0", "two", "-1"):
        with pytest.raises(CausalBanditsError, match="is not a number of cores"):
            release.cores_number(bad)


def test_a_release_stopped_after_its_version_commit_goes_on_with_the_archives_restored(tmp_path):
    work = _versioned(tmp_path)
    for name in ("archive/paper-scale/manifest.json", "CHANGELOG.md", "README.md", "other.txt"):
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text("as released\n")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "main")
    assert not release.resume(work, "9.0.0")  # not at the release's commit: a new release
    release.bump(work, "9.0.0")
    _git(work, "commit", "-qam", release.bump_message("9.0.0"))
    # what the stopped release left: a half-written archive, an entry, a quote rewritten
    for name in ("archive/paper-scale/manifest.json", "archive/paper-scale/new.json", "CHANGELOG.md", "README.md"):
        (work / name).write_text("half written\n")
    assert release.resume(work, "9.0.0")
    for name in ("archive/paper-scale/manifest.json", "CHANGELOG.md", "README.md"):
        assert (work / name).read_text() == "as released\n", name
    assert not (work / "archive/paper-scale/new.json").exists()
    (work / "other.txt").write_text("a change the release did not make\n")
    with pytest.raises(CausalBanditsError, match="the tree is not clean"):
        release.resume(work, "9.0.0")
    assert not release.resume(work, "9.1.0")


def test_the_run_folder_of_a_stopped_release_at_another_commit_is_made_again(tmp_path, monkeypatch):
    work = _versioned(tmp_path)
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "first")
    monkeypatch.setattr(release, "_run", lambda *a: None)
    monkeypatch.setattr(release, "_archive", lambda *a: None)
    folder = release.run_and_archive(work, "1.0.0", "1", [])
    (work / "CITATION.cff").write_text("cff-version: 1.2.0\nversion: 0.1.0\n")
    _git(work, "commit", "-qam", "second")
    assert release.run_and_archive(work, "1.0.0", "1", []) == folder
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True).stdout
    assert subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, capture_output=True, text=True).stdout == head


def test_the_raw_data_of_both_runs_are_checked_before_anything_changes(monkeypatch):
    checked = []
    monkeypatch.setattr(release.raw_data, "check_before_run", lambda config, where: checked.append((config, where)))
    release.check_raw(ROOT, [])
    assert [where for _, where in checked] == [ROOT / "data/raw"] * 2
    assert "studies" not in checked[0][0] and checked[1][0]["studies"]["knobs"]["n_seeds"] == 200
    monkeypatch.setattr(release, "TESTS_RAW", "no/such/raw")
    with pytest.raises(CausalBanditsError, match=r"the tests' raw data are not at .*no/such/raw .* is missing"):
        release.check_raw(ROOT, [])


def test_estimate_prints_the_cost_alone_and_changes_nothing(monkeypatch, capsys):
    monkeypatch.setattr(release_cost, "estimate", lambda root, cores: [f"estimated cost on {cores} cores"])
    monkeypatch.setattr(release, "release", lambda *a: pytest.fail("--estimate made the release"))
    assert main(["release", "9.0.0", "--estimate", "--cores", "3"]) == 0
    assert capsys.readouterr().out == "estimated cost on 3 cores\n"
    assert main(["release", "0.0.1", "--estimate"]) == 2
    assert "is not above the current" in capsys.readouterr().err


def test_the_entry_tallies_the_studies_apart_from_the_papers():
    sides = changelog.Snapshot.of(ROOT).sides
    papers, _, studies = sides["studies"].tally.partition("; the studies: ")
    assert papers == sides["archive"].tally and "; the studies" not in papers
    assert studies and all(part.split(" ", 1)[0].isdigit() for part in studies.split(", "))


def test_the_estimate_of_a_plan_the_archives_ran_is_their_cost(monkeypatch):
    archived = {name: quotes.Archive(ROOT / folder).manifest for name, folder in quotes.FOLDERS.items()}

    def plan(root, configfiles):  # the plan each archive's run had, as Snakemake would print it
        record = archived["studies" if configfiles else "archive"]
        return [jobs.PlannedJob(job["rule"], outputs=[o["path"] for o in job["outputs"]]) for job in record["jobs"]]

    monkeypatch.setattr(release_cost.planning, "plan", plan)
    lines = release_cost.estimate(ROOT, 2)
    assert len(lines) == 5 and "not costed" not in "".join(lines[:2])
    papers_h = archived["archive"]["run"]["cpu_hours_with_unsampled_tails"]
    assert lines[0].startswith(f"estimated cost of the papers: {len(archived['archive']['jobs'])} jobs, {papers_h:.2f}")
    assert lines[3].startswith("the previous archives copied ")
    assert lines[3].endswith("(archive refuses over 30 MB each)")
    assert lines[4].startswith("estimated cost of the release: ") and "on 2 cores" in lines[4]


def test_docs_that_disagree_with_the_new_archives_are_named_after_the_release(monkeypatch):
    class Done:
        returncode, stdout = 1, "FAILED tests/test_docs_verdict_words.py::test_no_verdict_word - cpe/pac: differs\n"

    ran = []
    monkeypatch.setattr(release.subprocess, "run", lambda command, **kw: ran.append(command) or Done())
    with pytest.raises(CausalBanditsError, match=r"(?s)committed and tagged, but the docs disagree.*cpe/pac: differs"):
        release.check_docs(ROOT)
    tests = list(release.DOCS_TESTS)
    assert ran[0][-len(tests) :] == tests and all((ROOT / test).is_file() for test in tests)
    Done.returncode = 0
    release.check_docs(ROOT)
