"""MkDocs hook: render the Sphinx cross-reference roles of the docstrings as plain code.

The package's docstrings write references the Sphinx way (:mod:`causal_bandits.store`,
:func:`~causal_bandits.bandits.engine.simulate`). mkdocstrings renders the backticks as code but
leaves the role in front of it; this hook drops the role (and, for ``~``, the module path, as
Sphinx shows it), so the API reference reads ``causal_bandits.store`` and ``simulate``. It also renders the
plain-text sub- and superscripts the docstrings and pages write (``T_{a,z}``, ``B^{v:Y}``) as HTML
(:func:`causal_bandits.report.inline.scripts`), so no TeX brace reaches the reader.
"""

from __future__ import annotations

import re

from causal_bandits.report.inline import scripts

ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|obj|exc|const):<code>(~?)([^<]+)</code>")


def _plain(match: re.Match[str]) -> str:
    tilde, target = match.groups()
    return f"<code>{target.rsplit('.', 1)[-1] if tilde else target}</code>"


def on_page_content(html: str, **kwargs) -> str:
    return scripts(ROLE.sub(_plain, html))
