"""An option that cannot take effect is refused, naming the option that makes it inert.

``reshuffle="twice-through"`` ends the session at the deck's second run-out: over rounds
that cannot deal that many cards it plays exactly as ``deck-out`` (the banker preset's 3
rounds a dealer's game, the guide's 3 rounds).  ``deck-out`` over one round with no draw
deals as ``round``; ``ante_each_round`` over one round (no banker) changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import load_game
from aceydeucey.core import Seeded, Table
from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.bots import RandomBot
from aceydeucey.inbetween.game import InBetweenGame
from aceydeucey.inbetween.rules import Rules
from aceydeucey.locale import option_label


@pytest.mark.parametrize(
    ("options", "option", "by"),
    [
        ({"preset": "banker", "reshuffle": "twice-through"}, "reshuffle", "rounds"),
        ({"reshuffle": "twice-through"}, "reshuffle", "rounds"),
        ({"reshuffle": "deck-out", "rounds": 1}, "reshuffle", "rounds"),
        ({"rounds": 1, "ante_each_round": False}, "ante_each_round", "rounds"),
    ],
)
def test_an_inert_option_is_refused_naming_both(
    options: dict[str, Any], option: str, by: str
) -> None:
    with pytest.raises(RulesError) as err:
        load_game("inbetween", **options)
    assert err.value.code == "ib_rules.moot_option"
    assert err.value.params["option"] == option and err.value.params["by"] == by
    en, pt = str(err.value), err.value.render("pt")
    assert option_label("inbetween", option) in en and option_label("inbetween", by) in en
    pt_labels = (option_label("inbetween", option, "pt"), option_label("inbetween", by, "pt"))
    assert all(f"«{label}: " in pt for label in pt_labels) and "=" not in pt


@pytest.mark.parametrize(
    "options",
    [
        {"reshuffle": "twice-through", "rounds": 50},
        {"preset": "banker", "reshuffle": "twice-through", "rounds": 30},
        {"reshuffle": "twice-through", "pairs": "redeal"},
        {"reshuffle": "deck-out", "rounds": 1, "dealer": "draw"},
        {"preset": "banker", "reshuffle": "deck-out"},
        {"preset": "sheets", "rounds": 1},  # the preset's own ante_each_round=False
    ],
)
def test_an_option_that_can_take_effect_is_accepted(options: dict[str, Any]) -> None:
    load_game("inbetween", **options)


def _unchecked(options: dict[str, Any], **inert: Any) -> Rules:
    """``options`` with ``inert`` set past the validation that refuses it (to show why)."""
    rules = Rules.resolve(**options)
    forced: Rules = object.__new__(Rules)
    forced.__dict__.update(rules.__dict__, **inert)
    return forced


def _actions(rules: Rules, seed: int) -> list[str]:
    game = InBetweenGame(rules)
    bots = [RandomBot(seed + i) for i in range(game.num_players)]
    return Table(game, bots, chance=Seeded(seed)).play().actions


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 8),
    preset=st.sampled_from(["guide", "banker"]),
)
def test_a_refused_twice_through_plays_exactly_as_deck_out(
    seed: int, players: int, preset: str
) -> None:
    options = {"preset": preset, "players": players}
    try:
        Rules.resolve(**options, reshuffle="twice-through")
    except RulesError as err:
        assert err.code == "ib_rules.moot_option"
    else:
        return  # accepted: it can take effect
    deck_out = Rules.resolve(**options, reshuffle="deck-out")
    forced = _unchecked(options, reshuffle="twice-through")
    assert _actions(forced, seed) == _actions(deck_out, seed)


@pytest.mark.parametrize("seed", range(8))
def test_one_round_of_deck_out_deals_as_round(seed: int) -> None:
    options = {"players": 3, "rounds": 1}
    forced = _unchecked(options, reshuffle="deck-out")
    assert _actions(forced, seed) == _actions(Rules.resolve(**options), seed)


@pytest.mark.parametrize("seed", range(8))
def test_one_round_antes_once_as_every_round(seed: int) -> None:
    options = {"players": 3, "rounds": 1}
    forced = _unchecked(options, ante_each_round=False)
    assert _actions(forced, seed) == _actions(Rules.resolve(**options), seed)


def test_twice_through_over_enough_rounds_ends_the_session_at_the_second_run_out() -> None:
    rules = Rules.resolve(reshuffle="twice-through", rounds=50, players=4)
    ends = set()
    for seed in range(6):
        game = InBetweenGame(rules)
        bots = [RandomBot(seed + i) for i in range(4)]
        table = Table(game, bots, chance=Seeded(seed))
        table.play()
        outcome = table.state.outcome()
        assert outcome is not None
        ends.add(outcome.termination)
    assert "session.deck_out_twice" in ends
