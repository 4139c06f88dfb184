"""The rules sheets name a changed option as the lobby's form does, by its player's name
and its value in words ("Starting chips: 1"), never by its code name ("starting_chips=1");
their sources and titles name no file of the project and no preset id."""

from __future__ import annotations

import re

import pytest

from aceydeucey.aces_in_the_pot.rules import AcesRules
from aceydeucey.aces_in_the_pot.sheet import rules_sheet as aces_sheet
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.sheet import rules_sheet as backgammon_sheet
from aceydeucey.core.options import option_specs
from aceydeucey.core.rules import option_in_words
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.sheet import sheet_sections
from aceydeucey.locale import t


def code_names_in(text: str, rules: object) -> list[str]:
    names = [s.name for s in option_specs(type(rules)) if "_" in s.name or s.name == "aces"]
    return [n for n in names if re.search(rf"\b{re.escape(n)}\s*=", text) or f"{n}=" in text]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Starting chips: 1", "Aces: First post may be low", "Ante every round: no"]),
        ("pt", ["Fichas iniciais: 1", "Ases: A primeira baliza pode ser baixa"]),
    ],
)
def test_the_inbetween_sheet_names_each_change_in_words(lang: str, words: list[str]) -> None:
    rules = Rules.resolve(starting_chips=1, aces="first-card", ante_each_round=False)
    version = " ".join(sheet_sections(rules, lang)[0][1])
    changed = t("inbetween", "sheet.changed", lang, changes="")[:-1]  # "Changed ...: "
    assert changed.strip() in version
    for w in words:
        assert w in version, version
    assert code_names_in(version, rules) == []
    assert "starting_chips" not in version and "first-card" not in version


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_backgammon_sheet_states_its_options_in_words(lang: str) -> None:
    rules = BackgammonRules.resolve(variant="classic", cube="money")
    text = backgammon_sheet(rules, lang)
    assert option_in_words(rules, "cube", lang) in text
    assert "cube = money" not in text and "acey_deucey = false" not in text
    assert code_names_in(text, rules) == []


def test_a_seat_option_is_counted_from_1_and_a_flag_is_a_word() -> None:
    rules = Rules.resolve(dealer=2, hidden=True, deal="both-around")
    assert option_in_words(rules, "dealer", "en").endswith(": Seat 3")
    assert option_in_words(rules, "hidden", "pt").endswith(": sim")


@pytest.mark.parametrize("preset", ["seed", "one-holder"])
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_aces_sheet_names_no_file_and_no_preset_id(preset: str, lang: str) -> None:
    text = aces_sheet(AcesRules.resolve(preset=preset), lang)
    assert "SOURCES.md" not in text and "source 004" not in text and "fonte 004" not in text
    title = text.splitlines()[0]
    assert f"({preset})" not in title
    assert t("web", f"preset.aces-in-the-pot.{preset}", lang) in title


@pytest.mark.parametrize("variant", sorted(BackgammonRules.PRESETS))
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_backgammon_sheet_names_its_variant_and_source_in_words(
    variant: str, lang: str
) -> None:
    text = backgammon_sheet(BackgammonRules.resolve(variant=variant), lang)
    title = text.splitlines()[0]
    assert t("web", f"preset.backgammon.{variant}", lang) in title
    assert f"variant {variant}" not in title and "seed" not in text.lower()
    assert "SOURCES.md" not in text
