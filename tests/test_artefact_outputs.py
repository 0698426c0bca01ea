"""A rule's outputs come from its artefacts' declarations (causal_bandits.artefacts.rule_outputs, through
``artefact_outputs`` in workflow/rules/common.smk): named by suffix or by key and suffix, a key with wildcards giving
one path pattern, a suffix selecting one file, and a key that names no artefact refused in one line."""

from __future__ import annotations

import re

import pytest
from workflow_helpers import ROOT

from causal_bandits.artefacts import Artefact, figure, rule_outputs, table
from causal_bandits.errors import CausalBanditsError
from causal_bandits.papers import PAPERS

DECLARED = (
    table("t1_a", "Table 1 (a): x", "figures/p/t1_a", caption="t1"),
    table("t1_b", "Table 1 (b): x", "figures/p/t1_b", caption="t1"),
    figure("fig2", "Figure 2: x", "figures/p/figure2_long_name"),
    Artefact("trace", "Trace: x", ("figures/p/trace.md", "figures/p/instance.json")),
    figure("fig9", "Figure 9: x", "figures/p/fig9", absent="not run"),
)


def test_one_key_names_its_outputs_by_suffix_with_its_caption():
    assert rule_outputs(DECLARED, ["fig2"]) == {
        "png": ("figures/p/figure2_long_name.png", "fig2"),
        "pdf": ("figures/p/figure2_long_name.pdf", "fig2"),
    }


def test_a_key_with_wildcards_is_one_path_pattern():
    assert rule_outputs(DECLARED, ["t1_{variant}"]) == {
        "md": ("figures/p/t1_{variant}.md", "t1"),
        "csv": ("figures/p/t1_{variant}.csv", "t1"),
    }


def test_several_keys_name_outputs_by_key_and_a_suffix_selects_one_file():
    assert rule_outputs(DECLARED, ["fig2", "trace.json"]) == {
        "fig2_png": ("figures/p/figure2_long_name.png", "fig2"),
        "fig2_pdf": ("figures/p/figure2_long_name.pdf", "fig2"),
        "trace_json": ("figures/p/instance.json", "trace"),
    }


@pytest.mark.parametrize(
    ("key", "error"),
    [
        ("fig3", r"'fig3' matches 0 path patterns .* not one; name a declared key"),
        ("fig9", r"'fig9' matches 0 path patterns"),  # absent: this config does not write it
        ("{anything}", r"holds 'fig2' \(the {anything} of its key\) 0 times, not once; name its files after its key"),
    ],
)
def test_a_key_of_no_artefact_this_config_writes_or_of_several_patterns_is_refused(key, error):
    with pytest.raises(CausalBanditsError, match=error):
        rule_outputs(DECLARED, [key])


@pytest.mark.parametrize("paper", PAPERS)
def test_no_rule_file_writes_an_artefacts_path_itself(paper):
    """A paper's rule file takes its artefacts' files from their declarations: no literal figures/<paper>/ path."""
    text = (ROOT / "workflow" / "rules" / f"{paper}.smk").read_text()
    assert not re.findall(rf'"figures/{paper}/', text)
