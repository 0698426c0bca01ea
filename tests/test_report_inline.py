"""A note's prose in the report (:mod:`causal_bandits.report.inline`): a dotted name wraps at its separators, and
nothing else in prose gains a break (a subscript such as ``H_m``, an abbreviation, a short ``x.y``)."""

from __future__ import annotations

from causal_bandits.report import inline


def test_a_dotted_name_in_prose_wraps_at_its_dots_and_underscores():
    shown = inline.inline_html("the interval (causal_bandits.claims.ratio_estimate) at n", lambda page, anchor: "")
    assert "causal_<wbr>bandits.<wbr>claims.<wbr>ratio_<wbr>estimate" in shown


def test_other_prose_gains_no_break():
    shown = inline.inline_html("e.g. x.y and 0.95, as before", lambda page, anchor: "")
    assert "<wbr>" not in shown
