"""MkDocs hook: the paper pages' claims tables on a phone, as the report shows them.

The report's small-screen rules (``causal_bandits/report/templates/small-screen.css``: under 40em each claim a
card, its cells stacked and named by their columns) are served at :data:`CSS` and loaded on every page, so the
paper pages' claims tables (drawn by the report's template, docs/hooks/paper_scale.py) take the same layout.
"""

from __future__ import annotations

from mkdocs.structure.files import File

from causal_bandits.report.page import SMALL_SCREEN_CSS, TEMPLATES

CSS = "stylesheets/small-screen.css"


def on_config(config, **kwargs):
    config.extra_css.append(CSS)
    return config


def on_files(files, config, **kwargs):
    files.append(File.generated(config, CSS, abs_src_path=str(TEMPLATES / SMALL_SCREEN_CSS)))
    return files
