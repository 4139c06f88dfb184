"""The rules sheet: generated from the resolved options, in English and Portuguese."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest

from aceydeucey.backgammon.rules import VARIANTS, BackgammonRules
from aceydeucey.backgammon.sheet import changed_options, rules_sheet, sentence, sheet_sections
from aceydeucey.core.errors import RulesError
from aceydeucey.core.rules import option_in_words
from aceydeucey.locale import catalog, t

LANGS = ("en", "pt")


def option_values(name: str) -> list[Any]:
    """Every value an option accepts (small ranges sampled)."""
    field = next(f for f in dataclasses.fields(BackgammonRules) if f.name == name)
    hint = typing.get_type_hints(BackgammonRules)[name]
    choices = BackgammonRules.option_spec(name).choices
    if choices:
        return list(choices)
    if hint is bool:
        return [True, False]
    if hint == bool | None:
        return [None, True, False]
    if field.metadata.get("min") is not None:
        return [None, field.metadata["min"], 3]
    raise AssertionError(f"no values known for {name}")


def variations() -> list[tuple[str, Any, BackgammonRules]]:
    """Each option set to each of its other values, on the first variant that allows it."""
    out = []
    for name in BackgammonRules.option_names():
        for value in option_values(name):
            for variant in VARIANTS:
                base = BackgammonRules.resolve(variant=variant)
                if getattr(base, name) == value:
                    continue
                try:
                    rules = BackgammonRules.resolve(variant=variant, **{name: value})
                except RulesError:
                    continue
                out.append((variant, value, rules))
                break
    return out


def test_catalogs_hold_the_same_keys() -> None:
    assert set(catalog("backgammon", "en")) == set(catalog("backgammon", "pt"))


@pytest.mark.parametrize("name", BackgammonRules.option_names())
def test_every_value_of_every_option_has_a_sentence_in_both_languages(name: str) -> None:
    # The sheet states each rule in words; a missing sentence would fall back to "name = value".
    for value in option_values(name):
        if isinstance(value, int) and not isinstance(value, bool):
            spelled = "n"
        else:
            spelled = str(value).lower().replace("-", "_")
        key = f"sheet_{name}_{spelled}"
        assert key in catalog("backgammon", "en"), key
        assert key in catalog("backgammon", "pt"), key


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("lang", LANGS)
def test_every_variant_has_a_sheet_with_the_core_sections(variant: str, lang: str) -> None:
    rules = BackgammonRules.resolve(variant=variant)
    text = rules_sheet(rules, lang)
    assert t("web", f"preset.backgammon.{variant}", lang) in text.splitlines()[0]
    headings = [h for h, _ in sheet_sections(rules, lang)]
    # Movement, hitting, bearing off and scoring apply to every variant.
    wanted = {
        "en": ["Movement", "Hitting and the bar", "Bearing off", "Scoring"],
        "pt": ["Movimento", "Capturas e a barra", "Retirada", "Pontuação"],
    }[lang]
    for heading in wanted:
        assert heading in headings
    assert max(len(line) for line in text.splitlines()) <= 78


def test_entering_is_described_only_when_checkers_start_off_the_board() -> None:
    acey = [h for h, _ in sheet_sections(BackgammonRules.resolve(variant="acey-deucey"))]
    classic = [h for h, _ in sheet_sections(BackgammonRules.resolve(variant="classic"))]
    assert "Entering" in acey
    assert "Entering" not in classic


def test_english_and_portuguese_sheets_differ_but_list_the_same_changes() -> None:
    rules = BackgammonRules.resolve(variant="dutch")
    en, pt = rules_sheet(rules, "en"), rules_sheet(rules, "pt")
    assert en != pt
    for name, value in changed_options(rules).items():
        # by the option's player name and value in words, never its code name
        assert option_in_words(rules, name, "en") in en, (name, value)
        assert option_in_words(rules, name, "pt") in pt, (name, value)
        assert f"{name} = " not in en and f"{name} = " not in pt


def test_the_baseline_lists_no_changed_options() -> None:
    assert changed_options(BackgammonRules.resolve()) == {}
    assert "None: these are the baseline rules" in rules_sheet(BackgammonRules.resolve())


@pytest.mark.parametrize(
    ("variant", "value", "rules"),
    variations(),
    ids=lambda x: str(x) if not isinstance(x, BackgammonRules) else "",
)
def test_changing_an_option_changes_the_sheet(variant: str, value: Any, rules: Any) -> None:
    # Every option that can differ from a variant's value shows in that variant's sheet.
    base = BackgammonRules.resolve(variant=variant)
    for lang in LANGS:
        assert rules_sheet(rules, lang) != rules_sheet(base, lang)


def test_chain_limit_sentence_names_the_limit() -> None:
    rules = BackgammonRules.resolve(acey_chain_limit=2)
    assert "at most 2;" in sentence(rules, "acey_chain_limit", "en")
    assert "No máximo 2" in sentence(rules, "acey_chain_limit", "pt")
    assert option_in_words(rules, "acey_chain_limit") in rules_sheet(rules)
    assert "acey_chain_limit" not in rules_sheet(rules)


def test_an_option_without_a_sentence_is_still_stated() -> None:
    # A later option this sheet does not know is stated with its value and its help line.
    @dataclasses.dataclass(frozen=True)
    class Extended(BackgammonRules):
        new_rule: bool = dataclasses.field(default=False, metadata={"help": "a new rule"})

    rules = Extended(new_rule=True)
    text = rules_sheet(rules)
    assert "new_rule: yes (a new rule)" in text


def test_the_sheet_writes_entering_steps_as_the_engine_does() -> None:
    # The sheet's example (6-3 from the stock) in the engine's canonical order, and the
    # checker that enters and moves on with the other die in the same roll.
    from aceydeucey.backgammon.board import off_board_start
    from aceydeucey.backgammon.game import BackgammonGame
    from aceydeucey.backgammon.sheet import rules_sheet
    from aceydeucey.core.registry import load_game

    game = load_game("backgammon")
    assert isinstance(game, BackgammonGame)
    state = game.new_state(position=off_board_start(), dice=(6, 3))
    texts = {str(p) for p in state.legal_actions()}
    assert {"in/22 in/19", "in/16"} <= texts
    assert str(state.parse_action("in/19 in/22")) == "in/22 in/19"
    assert str(state.parse_action("in/19/16")) == "in/16"
    for lang in ("en", "pt"):
        sheet = rules_sheet(game.rules, lang)
        assert "in/22 in/19" in sheet and "in/19 in/22" not in sheet
        assert "in/19/16" in sheet and "in/16" in sheet
