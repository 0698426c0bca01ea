"""MkDocs hook: formulas rendered as math in the site, with no network.

Pages and docstrings write a formula between dollars (``$U_{a,c}$``); ``pymdownx.arithmatex`` (mkdocs.yml) keeps
its characters from Markdown (no emphasis, no attribute list takes them) and marks it for MathJax. MathJax itself
comes from the ``django-static-mathjax`` package (requirements.lock), whose wheel ships MathJax's files: this hook
serves its single-file SVG build at :data:`MATHJAX` and loads it after the site's settings
(docs/javascripts/mathjax-config.js), so the site carries its renderer and fetches nothing.
"""

from __future__ import annotations

from importlib import resources

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

#: Where the site serves MathJax, and the file of the package it is.
MATHJAX = "javascripts/mathjax/tex-svg.js"
SOURCE = ("mathjax", "static/mathjax/es5/tex-svg.js")
CONFIG = "javascripts/mathjax-config.js"


def on_config(config, **kwargs):
    config.extra_javascript.extend([CONFIG, MATHJAX])
    return config


def on_files(files, config, **kwargs):
    package, path = SOURCE
    try:
        source = resources.files(package).joinpath(path)
    except ModuleNotFoundError:
        source = None
    if source is None or not source.is_file():
        raise PluginError(
            f"MathJax is missing ({package}/{path}): install the docs extra (pip install -r requirements.lock)"
        )
    files.append(File.generated(config, MATHJAX, abs_src_path=str(source)))
    return files
