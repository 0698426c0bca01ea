"""The replication report rendered from a synthetic claims document (no workflow run), the paper
packages' artefact lists, and the captions of the workflow's report() outputs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from docutils.core import publish_parts
from report_helpers import check_page
from workflow_helpers import ROOT

from causal_bandits import config as cb_config
from causal_bandits import report
from causal_bandits.artefacts import Artefact, caption_file, figure, paths, supporting, table
from causal_bandits.claims import DIFFERS, NOT_EVALUATED, NOT_SPECIFIED, REPRODUCED, note_texts
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers import PAPERS
from causal_bandits.papers import paper as paper_registry
from causal_bandits.plots import new_figure, save_figure
from causal_bandits.report.links import artefact_id, claim_id
from causal_bandits.report.page import markdown_html


def _row(cid, source, status, statement="a statement"):
    return {
        "id": cid,
        "source": source,
        "statement": statement,
        "paper": "1.00",
        "ours": "1.02",
        "status": status,
        "note": "a <note> & more",
        "notes": [],
    }


@pytest.fixture
def synthetic(tmp_path):
    """A claims document for the registered paper 'nonmanip' (its TITLE heads the section) with every
    verdict, a figure, a table, an absent figure and claims with known and unknown sources."""
    out = tmp_path / "figures" / "nonmanip"
    with_pipe = "### A title\n\nA note with **bold**.\n\n| a | b \\| c |\n|---|--:|\n| 1 | <x> |\n| 2 | 3 |\n"
    out.mkdir(parents=True)
    (out / "table9.md").write_text(with_pipe)
    (out / "table9.csv").write_text("a,b\n1,2\n")
    fig = new_figure((2.0, 1.0))
    fig.add_subplot().plot(np.arange(3))
    save_figure(fig, out / "figure9.png", out / "figure9.pdf")
    artefacts = [
        table("table9", "Table 9: a table", "figures/nonmanip/table9", sources=[r"\bTable 9\b"]),
        figure("figure9", "Figure 9: a figure", "figures/nonmanip/figure9", sources=[r"\bFig\. 9"], ids=["special$"]),
        figure(
            "figure8",
            "Figure 8: not run here",
            "figures/nonmanip/figure8",
            ids=["e8-"],
            absent="E8 is not in run_experiments",
        ),
    ]
    rows = [
        _row("t9", "Table 9", REPRODUCED),
        _row("f9", "§5, Fig. 9", DIFFERS),
        _row("special", "§2", NOT_SPECIFIED),
        _row("e8-order", "docs/papers/cpe.md#cpe-results", NOT_EVALUATED),
        _row("unknown", "robustness", REPRODUCED, "a claim about an artefact nobody mapped"),
    ]
    doc = {"paper": "nonmanip", "scale": "T = 10, 2 seeds", "claims": rows, "notes": {}}
    return tmp_path, doc, artefacts


def test_render_shows_figures_and_links_every_claim(synthetic):
    root, doc, artefacts = synthetic
    md, page = report.render([doc], {"nonmanip": artefacts}, root=root)
    checked = check_page(page, root / "figures", docs=False)
    assert checked.images == ["nonmanip/figure9.png"]
    assert len(checked.claims) == 5
    links = {c.id: c.links for c in checked.claims}
    assert links["claim-nonmanip-t9"] == ["#nonmanip-table9"]
    assert links["claim-nonmanip-f9"] == ["#nonmanip-figure9"]
    assert links["claim-nonmanip-special"] == ["#nonmanip-figure9"]
    assert links["claim-nonmanip-e8-order"] == ["#nonmanip-figure8"]
    assert links["claim-nonmanip-unknown"] == ["#nonmanip"]  # falls back to the paper's section
    # Verdict colours, the summary line, the absent artefact's reason, escaped text, the Markdown table.
    for cls in ("r-ok", "r-differs", "r-unspecified", "r-unevaluated"):
        assert f'class="{cls}"' in page
    assert "2 reproduced" in page and "1 differs" in page
    assert "Not written by this run: E8 is not in run_experiments." in page
    assert "a &lt;note&gt; &amp; more" in page and "<note>" not in page
    right = 'style="text-align: right;"'
    assert f"<th {right}>b | c</th>" in page and f"<td {right}>&lt;x&gt;</td>" in page
    assert 'href="nonmanip/figure9.pdf"' in page and 'href="nonmanip/table9.csv"' in page
    # Markdown: every claim row says where it is shown, relative to the report.
    assert "[Table 9](nonmanip/table9.md)" in md and "[Figure 9](nonmanip/figure9.png)" in md
    assert "| a claim about an artefact nobody mapped | robustness |" in md


def test_render_without_artefacts_still_links_every_claim(synthetic, tmp_path):
    _, doc, _ = synthetic
    _, page = report.render([doc], root=tmp_path)
    checked = check_page(page, tmp_path, docs=False)
    assert all(c.links == ["#nonmanip"] for c in checked.claims) and not checked.images


def test_a_missing_artefact_file_is_an_error_naming_it(synthetic):
    root, doc, artefacts = synthetic
    (root / "figures/nonmanip/figure9.png").unlink()
    with pytest.raises(CausalBanditsError, match=re.escape("figures/nonmanip/figure9.png")):
        report.render([doc], {"nonmanip": artefacts}, root=root)


def test_a_figure_that_is_not_a_png_is_an_error(synthetic):
    root, doc, artefacts = synthetic
    (root / "figures/nonmanip/figure9.png").write_bytes(b"%PDF-1.4")
    with pytest.raises(CausalBanditsError, match="not a PNG"):
        report.render([doc], {"nonmanip": artefacts}, root=root)


def test_anchors_are_the_documented_ones():
    """docs/papers/<key>.md promise figures/REPORT.html#claim-<paper>-<claim id>: the id as it is."""
    assert claim_id("unknown_graph", "table1-bce_lb") == "claim-unknown_graph-table1-bce_lb"
    assert claim_id("nonmanip", "table1-ts-POMIS+-fig5a") == "claim-nonmanip-table1-ts-POMIS+-fig5a"
    assert artefact_id("nonmanip", "figure5") == "nonmanip-figure5"


def test_every_claim_id_is_an_html_id():
    """Claim ids go into the page as they are: no whitespace, unique per paper."""
    for paper, ids in _claim_ids().items():
        assert len(set(ids)) == len(ids), paper
        assert not [i for i in ids if re.search(r"\s", i)], paper


def _claim_ids():
    from causal_bandits.papers.bounds import claims as bounds
    from causal_bandits.papers.fairness import claims as fairness
    from causal_bandits.papers.unknown_graph import claims as unknown_graph

    return {
        "bounds": [c.id for c in bounds.claims()],
        "fairness": [c.id for c in fairness.claims()],
        "unknown_graph": [c.id for c in unknown_graph.claims()],
    }


def test_markdown_tables_keep_braces_and_escape_html():
    """The markdown library renders the workflow's tables; a cell's trailing {...} is text (no attribute
    lists), and HTML in the text is shown, not run."""
    out = markdown_html("# Head\n\n<script>x</script> and `code`\n\n| a | b {Y} |\n|---|---|\n| ∅, {Z} | {X} |\n")
    assert "<h5>Head</h5>" in out and "<h1>" not in out and "&lt;script&gt;" in out and "<code>code</code>" in out
    assert "<td>∅, {Z}</td>" in out and "<td>{X}</td>" in out and "<th>b {Y}</th>" in out


def test_artefact_needs_a_file_the_report_can_show():
    with pytest.raises(CausalBanditsError, match="first path"):
        Artefact("x", "Figure 1: x", ("figures/p/x.pdf", "figures/p/x.png"))
    a = figure("x", "Figure 1 (a): x", "figures/p/x")
    assert a.label == "Figure 1 (a)" and a.is_figure and Artefact.from_dict(a.to_dict()) == a


def _quick_config():
    return cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml", ROOT / "config" / "quick.yaml"))


@pytest.mark.parametrize("paper", PAPERS)
def test_every_paper_lists_its_artefacts(paper):
    for cfg in (_quick_config(), cb_config.validate(cb_config.load(ROOT / "config" / "config.yaml"))):
        found = paper_registry(paper).artefacts(cfg[paper])
        assert found and all(p.startswith(f"figures/{paper}/") for a in found for p in a.paths)
        assert all(re.match(r"(Table|Figure|Appendix|Addition)", a.title) for a in found), [a.title for a in found]
        if paper in ("cpe", "unknown_graph"):  # designed artefacts say so (unknown_graph's Figure 1 is the paper's)
            designed = [a for a in found if not a.title.startswith("Figure 1")] if paper == "unknown_graph" else found
            assert all("designed for this replication, not from the paper" in a.title for a in designed)


def test_cpe_lists_the_figure_of_an_experiment_left_out_as_absent():
    section = {**_quick_config()["cpe"], "run_experiments": ["E1", "E3", "E4", "E5"]}  # E0, E2 left out
    found = {a.key: a for a in paper_registry("cpe").artefacts(section)}
    assert "E0" in found["figure0"].absent and "E2" in found["figure2"].absent and not found["figure1"].absent
    assert "figures/cpe/figure0.png" not in paths(list(found.values()))
    assert supporting(_row("ci-validity-E0", "docs/papers/cpe.md#cpe-results", NOT_EVALUATED), list(found.values()))


# ------------------------------------------------------------------------------------ captions
def _report_captions():
    """(rule file, caption) of every report() flag in the workflow's rule files: those they write, and those of the
    papers' artefacts (``artefact_outputs`` in common.smk: workflow/report/<paper>_<caption>.rst)."""
    for smk in sorted((ROOT / "workflow" / "rules").rglob("*.smk")):
        for caption in re.findall(r'caption="(?:\.\./)+report/([^"]+)"', smk.read_text()):
            yield smk.stem, caption
    for paper in PAPERS:
        for artefact in paper_registry(paper).artefacts(_quick_config()[paper]):
            yield paper, caption_file(ROOT / "workflow" / "report", paper, artefact.caption or artefact.key).name


def test_every_report_caption_names_a_table_or_figure_and_renders_cleanly():
    captions = sorted(set(_report_captions()))
    assert {c for _, c in captions} == {p.name for p in (ROOT / "workflow" / "report").glob("*.rst")}
    for paper, caption in captions:
        text = " ".join((ROOT / "workflow" / "report" / caption).read_text().split())
        publish_parts(text, writer="html", settings_overrides={"report_level": 2, "halt_level": 2})
        if paper != "report":  # the paper's table or figure, or an addition that says it is not the paper's
            assert re.search(r"\b(Tables?|Figures?)\b|not in the paper", text), caption
        if caption.startswith(("cpe_", "unknown_graph_validation")):
            assert "designed for this replication, not from the paper" in text, caption


def test_every_final_output_of_the_rule_files_is_a_report_output():
    """Every figures/ path written in an output: block is wrapped in report(...)."""
    for smk in sorted((ROOT / "workflow" / "rules").rglob("*.smk")):
        for block in re.findall(r"\n    output:\n(.*?)\n    \w+:", smk.read_text(), flags=re.S):
            for entry in re.split(r"\n        (?=\S)", "\n" + block.strip("\n")):
                if "figures/" in entry:
                    assert "report(" in entry, f"{smk.name}: {entry.strip()}"


def test_shared_notes_are_said_once_and_unjudged_claims_listed_apart(synthetic):
    """A note several claims cite by key is stated once under the paper's header and cited by number; a
    note only one claim cites stays in its row; claims this run did not judge are listed apart, our number
    greyed; a paper's notices (stand-in data) stand once at the top of the report as "Read first" and in
    its header."""
    root, doc, artefacts = synthetic
    rows = [dict(r) for r in doc["claims"]]
    rows[0].update(note="+1.0% from the paper (tolerance ±30%)", notes=["synthetic"])
    rows[1].update(note="exact reason one", notes=["synthetic"])
    rows[2].update(note="", notes=["lonely"])
    rows[3] = {**rows[3], "ours": "0.42", "note": "", "notes": ["scale"]}
    other = _row("e8-other", "docs/papers/cpe.md#cpe-results", NOT_EVALUATED)
    rows.append({**other, "ours": "0.77", "note": "its own reason", "notes": ["scale"]})
    texts = {"synthetic": "[SYNTHETIC STAND-IN DATA]", "lonely": "said once", "scale": "this run has T = 10"}
    notice = "Synthetic stand-in data: every result of this paper."
    doc = {**doc, "claims": rows, "notes": texts, "notices": [notice]}
    md, page = report.render([doc], {"nonmanip": artefacts}, root=root)
    assert md.count(notice) == 2 and md.count("**Read first.**") == 1  # top and header
    assert md.count("this run has T = 10") == 1 and md.count("[SYNTHETIC STAND-IN DATA]") == 1
    assert "1. [SYNTHETIC STAND-IN DATA]" in md and "exact reason one (note 1)" in md
    assert "| said once |" in md and "said once (note" not in md
    judged, unjudged = md.split("### Not evaluated in this run (2)")
    assert "| **not evaluated** |" not in md and "0.42" not in judged and "| *0.42* | (note 2) |" in unjudged
    assert "| *0.77* | its own reason (note 2) |" in unjudged
    checked = check_page(page, root / "figures", docs=False)
    assert len(checked.claims) == 6  # every claim keeps its anchor
    assert page.count('class="num unjudged"') == 2 and page.count("Read first.") == 1
    assert page.count(notice) == 2 and page.count("this run has T = 10") == 1


def test_an_amendment_of_a_rule_is_said_once_for_the_claims_it_judges(synthetic):
    """The claims of one rule cite its amendment as a shared note (what moved is said for the whole rule); an
    amendment only one claim's rule has stays in that row."""
    root, doc, artefacts = synthetic
    shared = {
        "date": "2026-01-02",
        "commit": "a" * 40,
        "new": "f1",
        "reason": "Judged on intervals.",
        "verdict_old": "2 reproduced",
        "verdict_new": "1 reproduced, 1 inconclusive",
    }
    alone = {**shared, "commit": "b" * 40, "new": "f2", "reason": "Vacuous on identical arm sets."}
    rows = [dict(r) for r in doc["claims"]]
    rows[0]["amendments"] = rows[1]["amendments"] = [shared]
    rows[2]["amendments"] = [alone]
    md, page = report.render([{**doc, "claims": rows}], {"nonmanip": artefacts}, root=root)
    said = "Rule amended 2026-01-02 (aaaaaaaaaaaa): Judged on intervals. Archived verdict under the old rule: "
    assert md.count(said) == 1 and f"1. {said}" in md and md.count("(note 1)") == 2
    assert md.count("Vacuous on identical arm sets.") == 1 and page.count("Vacuous on identical arm sets.") == 1
    assert page.count(said) == 1


def test_a_rule_set_after_its_result_is_labelled_and_a_shared_reason_is_said_once(synthetic):
    """The header calls a rule declared before the run only where no amendment says it was set after its result;
    such a claim says so; a reason several amendments share is printed once, each amendment citing it by name."""
    root, doc, artefacts = synthetic
    late = {
        "date": "2026-01-02",
        "commit": "a" * 40,
        "new": "f1",
        "reason": "Its own reason.",
        "shared": "common",
        "after_result": True,
        "verdict_old": "1 reproduced",
        "verdict_new": "1 reproduced",
    }
    rows = [dict(r) for r in doc["claims"]]
    rows[0]["amendments"] = [late]
    rows[2]["amendments"] = [{**late, "commit": "b" * 40, "new": "f2", "after_result": False}]
    docs = [{**doc, "claims": rows, "shared_reasons": {"common": "A long reason several rules share."}}]
    md, page = report.render(docs, {"nonmanip": artefacts}, root=root)
    for text in (md, page):
        assert text.count("A long reason several rules share.") == 1
        assert text.count("Rule set after its result was seen (its amendments).") == 1  # row 0 only
    assert "declared before the run except where the claim says *rule set after its result was seen*" in md
    assert "after its result was seen: Its own reason. (and the shared reason 'common')" in md
    assert "aaaaaaaaaaaa): Its" not in md and "(bbbbbbbbbbbb): Its own reason." in md


def test_a_claim_citing_a_note_its_paper_does_not_list_is_an_error():
    row = {"id": "x", "notes": ["nowhere"]}
    with pytest.raises(KeyError, match="nowhere"):
        note_texts({"somewhere": "text"}, [row], {})
    assert note_texts({"a": "A", "b": lambda r: r["t"], "c": "C"}, [{"notes": ["b", "a"]}], {"t": "T"}) == {
        "b": "T",
        "a": "A",
    }


@pytest.mark.parametrize("paper", PAPERS)
def test_every_shared_note_a_paper_lists_is_cited_by_its_claims(paper):
    """A paper's NOTES lists no note its claims never cite (dead text)."""
    claims = __import__(f"causal_bandits.papers.{paper}.claims", fromlist=["NOTES"])
    source = (ROOT / "src/causal_bandits/papers" / paper / "claims.py").read_text()
    for key in claims.NOTES:
        cited = f'"{key}"' in source.replace(f'"{key}":', "") or key.startswith("reconstructed-")
        assert cited, f"{paper}: NOTES[{key!r}] is cited by no claim"


def test_every_docs_link_of_a_report_resolves(tmp_path):
    """Each claim row of REPORT.md and REPORT.html links to a docs section that exists: the paper's
    numbers section for a row citing nothing, and every docs section a paper's claims cite."""
    from test_citations import DOCS, anchors

    from causal_bandits.report.links import DOCREF

    papers = []
    for key in PAPERS:
        cited = DOCREF.findall((ROOT / "src/causal_bandits/papers" / key / "claims.py").read_text())
        rows = [_row("plain", "Table 1", REPRODUCED)] + [
            _row(f"c{i}", f"docs/{page}.md" + (f"#{a}" if a else ""), NOT_EVALUATED)
            for i, (page, a) in enumerate(cited)
        ]
        papers.append({"paper": key, "scale": "T = 10, 1 seeds", "claims": rows})
    md, html = report.render(papers, root=tmp_path)
    links = re.findall(r"\]\((\.\./docs/[^)]+)\)", md) + re.findall(r'href="(\.\./docs/[^"]+)"', html)
    n_rows = sum(len(p["claims"]) for p in papers)
    assert len(links) >= 2 * n_rows
    for target in links:
        path, _, anchor_id = target.partition("#")
        source = DOCS / path.removeprefix("../docs/")
        assert source.is_file(), target
        assert not anchor_id or anchor_id in anchors(source), target
    for key in PAPERS:  # a row citing nothing links to its paper's numbers section
        assert f"../docs/papers/{key}.md#" in md and f'href="../docs/papers/{key}.md#' in html


# ------------------------------------------------------------------------------------ studies
def _paper_doc(status: str) -> dict:
    row = {"id": "table1-ts-POMIS+-fig5c", "source": "Table 1", "statement": "s", "paper": "121.54", "ours": "140.7"}
    return {"paper": "nonmanip", "scale": "T = 10,000", "claims": [{**row, "status": status, "note": "n"}]}


def _study_doc(name: str, findings: dict) -> dict:
    from causal_bandits import studies

    return studies.document(name, "T = 10,000, 200 seeds", [], findings)


def test_a_differing_claim_shows_the_finding_records_of_the_studies_that_examine_it():
    """Under a paper claim that differs: each study of its paper that examines it, with its finding record when it
    ran, else which study examines it and the command that runs it, nothing about an outcome; "located" only from a
    located record; the claim keeps its verdict and the paper's claims never read a study."""
    from causal_bandits import studies
    from causal_bandits.report.located import located

    row = _paper_doc("differs")["claims"][0]
    evidence = studies.Located("n_min = 100", "n_min = 20", True, "120.0 [118.0, 122.0]", "TS fig5b 49 → 64")
    record = studies.finding(
        studies.LOCATED, "some deferral n_min reproduces the cell", "n_min ∈ {100} of {0, 20, 100}", evidence
    )
    ran = {"knobs": _study_doc("knobs", {row["id"]: record})}
    lines = located("nonmanip", row, ran)
    assert lines[0].startswith("Study refresh (") and "docs/papers/nonmanip.md#nonmanip-numbers-spot-check" in lines[0]
    assert "`snakemake --cores all refresh --configfile config/studies.yaml`" in lines[0]
    assert "examines this claim; it did not run here" in lines[0] and "locate" not in lines[0]
    assert lines[1] == (
        "Study knobs — located the cause: some deferral n_min reproduces the cell (n_min ∈ {100} of {0, 20, 100}) At "
        "n_min = 100 (the main run: n_min = 20): 120.0 [118.0, 122.0]; the other claims there: TS fig5b 49 → 64."
    )
    assert any(line.startswith("Study same_means (") for line in lines) and len(lines) == 3
    assert not any("locate" in line for line in located("nonmanip", row, {}))  # no study ran: no outcome
    ruled_out = {"knobs": _study_doc("knobs", {row["id"]: studies.finding(studies.RULED_OUT, "no n_min does")})}
    assert "Study knobs — ruled this cause out: no n_min does." in located("nonmanip", row, ruled_out)
    silent = {"knobs": _study_doc("knobs", {})}
    assert "Study knobs ran but recorded no finding for this claim." in located("nonmanip", row, silent)
    assert located("nonmanip", {**row, "status": "reproduced"}, ran) == []
    with pytest.raises(ValueError, match="not finding records"):
        _study_doc("knobs", {row["id"]: "a bare line"})
    assert located("nonmanip", {**row, "id": "order-fig5a-ts"}, {}) == [
        line for line in located("nonmanip", {**row, "id": "order-fig5a-ts"}, {}) if "robustness" in line
    ]


def test_the_report_has_a_studies_part_after_the_papers(tmp_path):
    from causal_bandits import report, studies

    record = studies.finding(studies.RULED_OUT, "no n_min puts the cell within ±15%")
    study = _study_doc("knobs", {"table1-ts-POMIS+-fig5c": record})
    md, html = report.render([_paper_doc("differs")], {}, root=tmp_path, page_dir="figures", studies=[study])
    assert md.index("## Studies beyond the papers") > md.index("Lee & Bareinboim")
    assert "### Knob study: POMIS+ under the deferral n_min and the Beta switch (study knobs)" in md
    assert "Study knobs — ruled this cause out: no n_min puts the cell within ±15%." in md
    assert 'id="knobs"' in html and 'href="#studies"' in html and "ruled this cause out: no n_min puts" in html
    assert "Overall: 1 differs." in md  # the studies' claims are not the papers'
