"""Rules as data: presets cite their seeds, options validate, records round-trip."""

from __future__ import annotations

import pytest

from aceydeucey.core.registry import load_game
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules


def test_preset_names_and_default() -> None:
    assert PRESET_NAMES == ("guide", "banker", "sheets", "red-dog", "three-posts")
    assert Rules.resolve().preset == "guide"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_cites_a_seed_and_resolves(name: str) -> None:
    preset = Rules.PRESETS[name]
    assert "seed 00" in preset.source and preset.summary
    rules = Rules.resolve(preset=name)
    assert Rules.from_dict(rules.to_dict()) == rules


def test_required_option_names_exist() -> None:
    names = set(Rules.option_names())
    assert {"players", "dealer", "starting_chips", "ante", "rounds", "bank", "decks"} <= names


def test_guide_values_are_seed_000s() -> None:
    r = Rules.resolve()
    assert (r.starting_chips, r.ante, r.rounds, r.post_multiplier, r.aces) == (
        100,
        1,
        3,
        2,
        "high",
    )
    assert (r.stake_cap, r.banking, r.deal, r.empty_pot) == (
        "cover",
        "shared",
        "first-around",
        "end",
    )


def test_every_option_has_help_and_a_source() -> None:
    for name, info in Rules.option_help().items():
        assert info["help"], name
        assert info["source"], name


def test_overrides_keep_the_preset_name() -> None:
    game = load_game("inbetween", preset="sheets", players=6, decks=2)
    assert game.rules.describe() == "preset=sheets players=6 decks=2"


def test_module_doctests() -> None:
    import doctest

    import aceydeucey.cli.inbetween_text as ui
    import aceydeucey.cli.inbetween_words as cli
    import aceydeucey.inbetween as package
    from aceydeucey.inbetween import actions, odds, rules

    for module in (package, actions, odds, rules, cli, ui):
        result = doctest.testmod(module)
        assert result.failed == 0 and result.attempted > 0, module.__name__


def test_the_guide_seats_two_to_eight() -> None:
    # Seed 000 §02 "For 2-8 players" (seed 003: "Para 2-8 jogadores"): 9 or 10 are refused
    # with a coded error in both languages; other presets keep their own range.
    from aceydeucey.core.errors import RulesError

    assert Rules.resolve(players=8).players == 8
    for players in (9, 10):
        with pytest.raises(RulesError) as info:
            Rules.resolve(players=players)
        assert info.value.code == "ib_rules.players_for_preset"
        assert "2 to 8 players" in str(info.value)
        assert "2 a 8 jogadores" in info.value.render("pt")
    assert Rules.resolve(preset="sheets", players=10).players == 10
