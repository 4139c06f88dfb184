"""Message catalogs in English and Portuguese.

Catalogs are JSON files ``<domain>.<lang>.json`` in this folder (one domain
per game or front end, e.g. ``inbetween.pt.json``), mapping message keys to
``str.format`` templates.  ``t(domain, key, lang, **values)`` renders one; a
key missing in Portuguese falls back to English, and a key missing in English
is an error (tests check both catalogs hold the same keys).
"""

from __future__ import annotations

import json
import os
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["LANGS", "catalog", "default_lang", "t"]

LANGS = ("en", "pt")


def default_lang() -> str:
    """``pt`` when the environment's locale is Portuguese, else ``en``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "pt" if value.lower().startswith("pt") else "en"
    return "en"


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; accepted: {', '.join(LANGS)}")
    return lang


@cache
def catalog(domain: str, lang: str) -> dict[str, str]:
    """The messages of ``domain`` in ``lang`` (empty if that catalog does not exist)."""
    path = resources.files(__name__) / f"{domain}.{lang}.json"
    if not path.is_file():
        return {}
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def t(domain: str, key: str, lang: str = "en", **values: Any) -> str:
    """Render message ``key`` of ``domain`` in ``lang``."""
    template = catalog(domain, check_lang(lang)).get(key)
    if template is None:
        template = catalog(domain, "en").get(key)
    if template is None:
        raise KeyError(f"no message {key!r} in catalog {domain!r}")
    return template.format(**values) if values else template
