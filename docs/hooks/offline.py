"""MkDocs hook: the 404 page's links relative, so that it works opened from disk (``file://``) too.

Without a ``site_url`` MkDocs writes the 404 page's links root-absolute (``/index.html``, ``/assets/...``),
which a browser resolves to the root of the file system when the site is read from disk. The page sits at
the site's root, so the same links without the leading ``/`` reach the same files.
"""

from __future__ import annotations

import re

ROOT_ABSOLUTE = re.compile(r'((?:href|src)=")/(?!/)')


def on_post_template(output_content: str, template_name: str, config, **kwargs) -> str:
    return ROOT_ABSOLUTE.sub(r"\1", output_content) if template_name == "404.html" else output_content
