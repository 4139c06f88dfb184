"""Every message catalog has an English and a Portuguese twin with the same keys.

Generic over all domains: each ``locale/<domain>.en.json`` must have a
``<domain>.pt.json`` holding exactly the same keys, and each message must use
exactly the same ``{placeholders}`` in both languages (a translation that drops
or renames one would fail at run time).
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

import aceydeucey.locale

LOCALE_DIR = Path(aceydeucey.locale.__file__).parent
ENGLISH = sorted(LOCALE_DIR.glob("*.en.json"))


def _placeholders(template: str) -> set[str]:
    """The field names a ``str.format`` template uses (``{pot}``, ``{who}``...)."""
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field is not None
    }


def _load(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path.name} must hold a JSON object"
    for key, value in data.items():
        assert isinstance(value, str), f"{path.name}: message {key!r} must be a string"
    return data


def test_there_are_catalogs() -> None:
    # The In-Between front end ships a catalog; the glob must find it.
    assert any(p.name == "inbetween.en.json" for p in ENGLISH)


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.name)
def test_portuguese_twin_has_the_same_keys(english: Path) -> None:
    # A catalog in English must have a Portuguese twin with exactly the same keys.
    portuguese = english.with_name(english.name.replace(".en.json", ".pt.json"))
    assert portuguese.is_file(), f"{english.name} has no Portuguese twin {portuguese.name}"
    en, pt = _load(english), _load(portuguese)
    assert sorted(set(en) - set(pt)) == [], f"keys missing in {portuguese.name}"
    assert sorted(set(pt) - set(en)) == [], f"keys only in {portuguese.name}"


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.name)
def test_placeholders_match_per_key(english: Path) -> None:
    # Each message uses the same {placeholders} in both languages.
    portuguese = english.with_name(english.name.replace(".en.json", ".pt.json"))
    if not portuguese.is_file():
        pytest.fail(f"{english.name} has no Portuguese twin")
    en, pt = _load(english), _load(portuguese)
    mismatched = {
        key: (sorted(_placeholders(en[key])), sorted(_placeholders(pt[key])))
        for key in set(en) & set(pt)
        if _placeholders(en[key]) != _placeholders(pt[key])
    }
    assert mismatched == {}


def test_no_orphan_portuguese_catalog() -> None:
    # A Portuguese catalog without an English original would never be used as a fallback.
    orphans = [
        p.name
        for p in LOCALE_DIR.glob("*.pt.json")
        if not p.with_name(p.name.replace(".pt.json", ".en.json")).is_file()
    ]
    assert orphans == []


def test_placeholder_parser_sees_every_field() -> None:
    # The helper itself: fields with attribute or index access count by their base name.
    assert _placeholders("{a} and {b.c} and {d[0]}, {{literal}}") == {"a", "b", "d"}
