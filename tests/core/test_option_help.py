"""Every rules option and preset is described in English and Portuguese, from one catalog.

The ``options`` gettext domain holds ``<game>.option.<name>`` (an option's help line)
and ``<game>.preset.<name>`` (a preset's summary).  The English must be exactly what
``<game>/rules.py`` declares (``help=`` and ``Preset.summary``), so the two cannot
drift apart: change a help line and this file fails until the catalogs follow.
``RulesBase.describe_options`` / ``describe_presets`` are what the lobby form, the CLI
help and the rules sheets show.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest

from aceydeucey.core.errors import ArgumentError, UnknownGameError
from aceydeucey.core.registry import game_class, game_ids
from aceydeucey.core.rules import RulesBase
from aceydeucey.locale import LANGS, catalog
from tests.core.toy import ToyRules

GAMES = ("inbetween", "backgammon", "aces-in-the-pot")

#: Portuguese texts allowed to equal the English, sentence by sentence.  Empty: every
#: help line and summary is a sentence to translate.  A proper name standing alone
#: (a source's title, "Red Dog") would be the only reason to add one here.
SAME_IN_BOTH: frozenset[str] = frozenset()

#: Help texts a Rules class does not declare but the catalog supplies: Aces in the
#: Pot's preset field is a plain ``preset: str = "seed"`` with no ``option(help=...)``.
UNDECLARED = {"aces-in-the-pot.option.preset": "named rule set"}


def _rules(game_id: str) -> Any:
    return game_class(game_id).rules_class


def _declared(game_id: str) -> dict[str, str]:
    """Every key the catalog must hold for ``game_id``, with its declared English."""
    rules = _rules(game_id)
    out: dict[str, str] = {}
    for f in dataclasses.fields(rules):
        out[f"{game_id}.option.{f.name}"] = f.metadata.get("help", "")
    for name, preset in rules.PRESETS.items():
        out[f"{game_id}.preset.{name}"] = preset.summary
    return out


def _po_entry(key: str, text: str) -> str:
    return f'msgid "{key}"\nmsgstr "{text}"'


def test_the_three_games_are_registered() -> None:
    assert set(GAMES) <= set(game_ids())
    for game_id in GAMES:
        assert game_id == _rules(game_id).GAME


@pytest.mark.parametrize("game_id", GAMES)
def test_english_catalog_is_exactly_the_declared_help(game_id: str) -> None:
    english = catalog("options", "en")
    expected = {k: v or UNDECLARED.get(k, "") for k, v in _declared(game_id).items()}
    missing = [k for k in expected if k not in english]
    assert missing == [], "add to locale/{en,pt}/LC_MESSAGES/options.po:\n" + "\n\n".join(
        _po_entry(k, expected[k]) for k in missing
    )
    drifted = {k: (english[k], v) for k, v in expected.items() if english[k] != v}
    assert drifted == {}, "options.po (catalog, declared) differ: update both languages"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_option_and_preset_has_a_text(game_id: str) -> None:
    undeclared = sorted(k for k, v in _declared(game_id).items() if not v)
    # Only the named exception may lack a declared help line; a new option needs one.
    assert set(undeclared) <= set(UNDECLARED)
    for lang in LANGS:
        texts = catalog("options", lang)
        assert [k for k in _declared(game_id) if not texts.get(k, "").strip()] == []


def test_catalog_holds_no_stale_entries() -> None:
    """A renamed or removed option or preset takes its catalog entries with it."""
    wanted = {k for g in GAMES for k in _declared(g)}
    for lang in LANGS:
        assert sorted(set(catalog("options", lang)) - wanted) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_portuguese_is_a_translation(game_id: str) -> None:
    english, portuguese = catalog("options", "en"), catalog("options", "pt")
    for key in _declared(game_id):
        assert key in portuguese, f"{key} has no Portuguese"
        en, pt = english[key], portuguese[key]
        assert pt.strip() and pt == pt.strip(), key
        same = set(_sentences(en)) & set(_sentences(pt))
        assert same <= SAME_IN_BOTH, f"{key}: untranslated {sorted(same)}"


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"[.;:]\s+|[.;]$", text) if s.strip()]


_LITERALS = re.compile(r"\w+='[\w-]+'|'[\w-]+'|\bNone\b|\bnone(?=:)")


@pytest.mark.parametrize("game_id", GAMES)
def test_portuguese_keeps_numbers_and_values_as_typed(game_id: str) -> None:
    """Numbers and the option values a player types ('draw', None) survive translation."""
    english, portuguese = catalog("options", "en"), catalog("options", "pt")
    for key in _declared(game_id):
        en, pt = english[key], portuguese[key]
        assert set(re.findall(r"\d+", en)) == set(re.findall(r"\d+", pt)), key
        assert sorted(_LITERALS.findall(en)) == sorted(_LITERALS.findall(pt)), key


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_describe_options_lists_every_field_json_ready(game_id: str, lang: str) -> None:
    rules = _rules(game_id)
    described = RulesBase.describe_options(game_id, lang)
    assert json.loads(json.dumps(described)) == described
    assert [o["name"] for o in described] == [f.name for f in dataclasses.fields(rules)]
    texts = catalog("options", lang)
    for entry, f in zip(described, dataclasses.fields(rules), strict=True):
        assert set(entry) == {
            "name",
            "type",
            "choices",
            "min",
            "max",
            "default",
            "help",
            "source",
            "preset_key",
            "nullable",
            "schema",
        }
        assert entry["help"] == texts[f"{game_id}.option.{f.name}"]
        assert entry["preset_key"] is (f.name == rules.PRESET_KEY)
        assert entry["source"] == f.metadata.get("source", "")
        assert entry["min"] == f.metadata.get("min")
        assert entry["max"] == f.metadata.get("max")
        default = f.default
        assert entry["default"] == (list(default) if isinstance(default, tuple) else default)
        if entry["choices"] is not None:
            assert entry["default"] in entry["choices"]
    preset = next(o for o in described if o["preset_key"])
    assert preset["choices"] == list(rules.PRESETS)
    assert preset["default"] == rules.DEFAULT_PRESET


@pytest.mark.parametrize("game_id", GAMES)
def test_described_types_are_readable(game_id: str) -> None:
    types = {o["name"]: o["type"] for o in RulesBase.describe_options(game_id)}
    allowed = {"int", "bool", "str", "int | None", "bool | None", "list[int]", "int | 'draw'"}
    assert set(types.values()) <= allowed
    expected = {
        "inbetween": {"players": "int", "dealer": "int | 'draw'", "spread_pays": "list[int]"},
        "backgammon": {
            "acey_chain_limit": "int | None",
            "acey_deucey": "bool",
            "start": "str",
            "crawford": "bool | None",
        },
        "aces-in-the-pot": {"first_roller": "int | None", "finish": "str", "preset": "str"},
    }[game_id]
    assert {k: types[k] for k in expected} == expected


@pytest.mark.parametrize("game_id", GAMES)
def test_described_defaults_resolve_to_the_default_rules(game_id: str) -> None:
    """The defaults a form pre-fills are the rules one gets with no options at all."""
    rules = _rules(game_id)
    described = RulesBase.describe_options(game_id)
    values = {o["name"]: o["default"] for o in described}
    default_preset = rules.PRESETS[rules.DEFAULT_PRESET].options
    values.update(default_preset)
    assert rules.resolve(**values).to_dict() == rules.resolve().to_dict()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_describe_presets(game_id: str, lang: str) -> None:
    rules = _rules(game_id)
    described = RulesBase.describe_presets(game_id, lang)
    assert json.loads(json.dumps(described)) == described
    assert [p["name"] for p in described] == list(rules.PRESETS)
    texts = catalog("options", lang)
    for entry in described:
        declared = rules.PRESETS[entry["name"]]
        assert set(entry) == {"name", "summary", "source", "options"}
        assert entry["summary"] == texts[f"{game_id}.preset.{entry['name']}"]
        assert entry["source"] == declared.source
        # The preset's options, as a client would send them back, give the preset's rules.
        sent = rules.resolve(**{rules.PRESET_KEY: entry["name"]}, **entry["options"])
        assert sent == rules.resolve(**{rules.PRESET_KEY: entry["name"]})


def test_help_is_in_the_language_asked() -> None:
    en = {o["name"]: o["help"] for o in RulesBase.describe_options("inbetween", "en")}
    pt = {o["name"]: o["help"] for o in RulesBase.describe_options("inbetween", "pt")}
    assert en["players"] == "seats at the table"
    assert pt["players"] == "lugares à mesa"
    summary = RulesBase.describe_presets("aces-in-the-pot", "pt")[0]["summary"]
    assert summary.startswith("duas fichas")


def test_a_rules_class_describes_itself_and_others_through_the_registry() -> None:
    from aceydeucey.inbetween.rules import Rules

    assert Rules.describe_options("inbetween") == RulesBase.describe_options("inbetween")
    # The game id decides, whichever class the method is called on.
    assert Rules.describe_presets("backgammon") == RulesBase.describe_presets("backgammon")


def test_uncatalogued_rules_fall_back_to_the_declared_english() -> None:
    """A game without catalog entries (the toy) still describes itself, in English."""
    described = {o["name"]: o for o in ToyRules.describe_options("toy", "pt")}
    assert described["factor"]["help"] == "payout multiplier"
    assert described["mode"]["choices"] == ["a", "b"]  # from the Literal, none declared
    assert described["seats"] == {
        "name": "seats",
        "type": "list[str]",
        "choices": None,
        "min": None,
        "max": None,
        "default": ["x", "y"],
        "help": "",
        "source": "",
        "preset_key": False,
        "nullable": False,
        "schema": {"type": "array", "items": {"type": "string"}, "default": ["x", "y"]},
    }
    assert described["preset"]["choices"] == ["plain", "big"]
    assert [p["summary"] for p in ToyRules.describe_presets("toy", "pt")] == ["", ""]


def test_bad_game_or_language_is_refused_precisely() -> None:
    with pytest.raises(UnknownGameError) as unknown:
        RulesBase.describe_options("chess")
    assert unknown.value.code == "game.unknown"
    with pytest.raises(ArgumentError) as bad_lang:
        RulesBase.describe_presets("inbetween", "fr")
    assert bad_lang.value.code == "lang.unknown"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", GAMES)
def test_descriptions_are_fresh_copies(game_id: str, lang: str) -> None:
    """A caller that edits what it got (a form pre-filling) changes nothing for the next."""
    first = RulesBase.describe_options(game_id, lang)
    for entry in first:
        if isinstance(entry["default"], list):
            entry["default"].append(99)
        entry["help"] = "changed"
    again = RulesBase.describe_options(game_id, lang)
    assert all(o["help"] != "changed" for o in again)
    assert all(99 not in o["default"] for o in again if isinstance(o["default"], list))
