"""``GameInfo.hidden_information`` is true for every option set that deals a card face down.

The server decides from this fact alone whether a game's record may be served before the
game is over, so it must hold structurally: whatever the options, a game whose play can
deal a card that the public view does not show at once declares hidden information.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aceydeucey.core import Seeded
from aceydeucey.inbetween.game import InBetweenGame
from aceydeucey.inbetween.rules import Rules

from .test_no_leaks import rule_sets

#: Every option that deals a card face down, alone and combined with others it allows.
FACE_DOWN_OPTIONS: list[dict[str, Any]] = [
    {"hidden": True, "deal": "both-around"},
    {"hidden": True, "deal": "both-around", "pairs": "redeal"},
    {"hidden": True, "deal": "both-around", "adjacent": "redeal", "players": 4},
    {"passed_card": "next-post"},
    {"passed_card": "next-post", "deal": "both-at-turn"},
    {"passed_card": "next-post", "aces": "first-card"},
    {"passed_card": "next-post", "aces": "first-card", "players": 5, "decks": 2},
    {"preset": "sheets", "passed_card": "next-post", "pairs": "bet"},
    {"preset": "banker", "passed_card": "next-post"},
]


def deals_face_down(rules: Rules, seed: int, steps: int = 400) -> bool:
    """Whether a random session deals a card the public view does not show at once."""
    game = InBetweenGame(rules)
    rng = random.Random(seed)
    chance = Seeded(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            return False
        if state.is_chance_node():
            card = str(chance.choose(state))
            state = state.apply(card)
            if f'"{card}"' not in json.dumps(state.observation(None)["last_event"]):
                return True
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
    return False


@pytest.mark.parametrize("options", FACE_DOWN_OPTIONS, ids=lambda o: ",".join(map(str, o.values())))
def test_every_face_down_option_declares_hidden_information(options: dict[str, Any]) -> None:
    rules = Rules.resolve(**options)
    assert InBetweenGame(rules).info.hidden_information


def test_a_set_aside_card_is_dealt_face_down_where_a_first_ace_is_called() -> None:
    # the card set aside by a pass waits face down while the next player calls a first ace
    rules = Rules.resolve(passed_card="next-post", aces="first-card", players=5, rounds=3)
    assert any(deals_face_down(rules, seed) for seed in range(200))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 10**6))
def test_a_game_that_deals_face_down_declares_hidden_information(rules: Rules, seed: int) -> None:
    if any(deals_face_down(rules, seed + k) for k in range(4)):
        assert InBetweenGame(rules).info.hidden_information
