"""The browser front end: Jinja2 templates, CSS and small JavaScript modules.

Nothing here is built or fetched at run time.  ``TEMPLATES`` and ``STATIC`` are the
folders the server renders and serves (``aceydeucey.server.pages`` holds the routes).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC", "TEMPLATES"]

WEB_DIR = Path(__file__).parent
TEMPLATES = WEB_DIR / "templates"
STATIC = WEB_DIR / "static"
