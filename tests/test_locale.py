"""Every gettext catalog has an English and a Portuguese twin with the same keys.

Generic over all domains: each ``locale/en/LC_MESSAGES/<domain>.po`` must have a
``locale/pt/LC_MESSAGES/<domain>.po`` holding exactly the same message ids, each
message must use exactly the same ``{placeholders}`` in both languages (a
translation that drops or renames one would fail at run time), and plural
messages must have their forms in both.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import aceydeucey.locale
from aceydeucey.core.errors import IllegalActionError, message
from aceydeucey.locale import catalog, negotiate, t

LOCALE_DIR = Path(aceydeucey.locale.__file__).parent
ENGLISH = sorted((LOCALE_DIR / "en" / "LC_MESSAGES").glob("*.po"))


def _placeholders(template: str) -> set[str]:
    """The field names a ``str.format`` template uses (``{pot}``, ``{who}``...)."""
    return {
        field.split(".")[0].split("[")[0].split(":")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field is not None
    }


def _load(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _texts(cat: Catalog) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for m in cat:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(forms), f"{key!r} has an empty translation"
        out[key] = tuple(forms)
    return out


def _twin(english: Path) -> Path:
    return LOCALE_DIR / "pt" / "LC_MESSAGES" / english.name


def test_there_are_catalogs() -> None:
    names = {p.stem for p in ENGLISH}
    assert {"inbetween", "backgammon", "aces", "cli", "errors"} <= names


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: p.stem)
def test_portuguese_twin_has_the_same_keys_and_placeholders(english: Path) -> None:
    assert _twin(english).is_file(), f"{english.stem} has no Portuguese twin"
    en, pt = _texts(_load(english)), _texts(_load(_twin(english)))
    assert sorted(set(en) - set(pt)) == [], "keys missing in Portuguese"
    assert sorted(set(pt) - set(en)) == [], "keys only in Portuguese"
    mismatched = {
        key: (en[key], pt[key])
        for key in en
        if {frozenset(_placeholders(f)) for f in en[key]}
        != {frozenset(_placeholders(f)) for f in pt[key]}
        or len(en[key]) != len(pt[key])
    }
    assert mismatched == {}


def test_no_orphan_portuguese_catalog() -> None:
    orphans = [
        p.name
        for p in (LOCALE_DIR / "pt" / "LC_MESSAGES").glob("*.po")
        if not (LOCALE_DIR / "en" / "LC_MESSAGES" / p.name).is_file()
    ]
    assert orphans == []


def test_plural_forms_follow_the_count() -> None:
    assert t("errors", "count.chips", "en", count=1) == "1 chip"
    assert t("errors", "count.chips", "en", count=2) == "2 chips"
    assert t("errors", "count.chips", "pt", count=1) == "1 ficha"
    assert t("errors", "count.chips", "pt", count=0) == "0 fichas"


def test_floats_take_the_decimal_comma_in_portuguese() -> None:
    assert aceydeucey.locale._Formatter("pt").format("{x:.2f}", x=0.5) == "0,50"
    assert aceydeucey.locale._Formatter("en").format("{x:.2f}", x=0.5) == "0.50"


def test_errors_render_nested_messages_in_the_same_language() -> None:
    err = IllegalActionError("turn.not_yours", seat=0, number=1, who=message("turn.who_chance"))
    assert str(err) == "seat 1 cannot act now: it is chance's turn"
    assert err.render("pt") == "o lugar 1 não pode jogar agora: é a vez do acaso"
    assert err.to_dict()["params"] == {
        "seat": 0,
        "number": 1,
        "who": {"code": "turn.who_chance", "params": {}},
    }


def test_catalog_lists_every_key() -> None:
    assert catalog("errors", "en")["turn.who_seat"] == "seat {number}"


@pytest.mark.parametrize(
    ("header", "lang"),
    [(None, "en"), ("pt-PT,pt;q=0.9,en;q=0.8", "pt"), ("fr, en;q=0.5", "en"), ("de", "en")],
)
def test_accept_language_negotiation(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def test_placeholder_parser_sees_every_field() -> None:
    assert _placeholders("{a} and {b.c} and {d[0]}, {e:.2f} {{literal}}") == {"a", "b", "d", "e"}


def test_error_codes_are_unique_across_error_domains() -> None:
    seen: dict[str, str] = {}
    for domain in aceydeucey.locale.ERROR_DOMAINS:
        for key in catalog(domain, "en"):
            assert key not in seen, f"{key!r} is in both {seen[key]} and {domain}"
            seen[key] = domain


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_every_bot_has_a_name_on_the_pages(lang: str) -> None:
    from aceydeucey.core.registry import BUILTIN_GAME_IDS, bot_names

    web = catalog("web", lang)
    missing = {
        name for game in BUILTIN_GAME_IDS for name in bot_names(game) if f"bot.{name}" not in web
    }
    assert not missing, f"bots without a label in web ({lang}): {sorted(missing)}"


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_no_message_writes_a_plural_shortcut(lang: str) -> None:
    # "2 chip(s)", "jogo(s)", "passa(m)": a message with a count has plural forms instead
    shortcut = re.compile(r"[^\W\d_]\((s|es|m|ões)\)")
    found = [
        f"{english.stem}:{key}"
        for english in ENGLISH
        for key, text in catalog(english.stem, lang).items()
        if shortcut.search(text)
    ]
    assert found == []
    assert t("analysis", "summary", lang, unit="ppg", count=1).endswith(("1 game)", "1 jogo)"))
