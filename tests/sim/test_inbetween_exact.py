"""The simulator and the reference engine, fed the same deck orders, play the same sessions.

The deterministic strategies (``ev``, ``kelly``, ``cautious``, ``session``) decide the same
way in the kernel and as agents at the core ``Table``, so session by session the final chips,
the pot, the hands, the ending and each seat's hands by outcome (passes, bets won, lost, lost
on a post) must agree exactly: for every preset the kernel plays, and for option sets that
Hypothesis draws from every option the kernel reads.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from aceydeucey.sim.inbetween import deck_orders, kernel_plays, play_sessions
from tests.sim.engine import play

DETERMINISTIC = ("ev", "kelly", "cautious", "session")

CASES: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 2, "starting_chips": 20},
    {"players": 3, "decks": 2, "post_multiplier": 1},
    {"players": 5, "stake_cap": "chips", "first_round_limit": "half-pot", "rounds": 6},
    {"players": 2, "ante": 2, "min_stake": "ante", "round_limits": (2, 4), "rounds": 8},
    {"players": 6, "stake_cap": "none", "ante_each_round": False, "rounds": 10, "dealer": 3},
    {"players": 8, "first_round_limit": "ante", "starting_chips": 20, "post_multiplier": 3},
    {"preset": "banker"},
    {"preset": "banker", "players": 3, "bank": 10, "ante": 1, "dealer_games": 5},
    {"preset": "three-posts"},
    {"preset": "three-posts", "players": 3, "starting_chips": 30, "empty_pot": "replenish"},
    {"pairs": "win", "adjacent": "lose", "post_fee": 1, "players": 3},
    {"pairs": "push", "adjacent": "push", "ante_back": True, "deal": "both-at-turn"},
    {"preset": "sheets"},
    {"preset": "sheets", "players": 3, "deal": "first-around", "ace_third_loses": True},
    {"preset": "sheets", "pairs": "redeal", "post_multiplier": 2, "ante_each_round": True},
    {"preset": "red-dog"},
    {"preset": "red-dog", "players": 2, "pairs": "push", "adjacent": "lose", "ante": 2},
    {"preset": "red-dog", "spread_pays": (6, 3, 2, 1), "trips_pays": 5, "starting_chips": 20},
]


def _check(rules: Rules, sessions: int, seed: int) -> int:
    """Play ``sessions`` sessions both ways on the same decks; the bets settled."""
    n = rules.players
    strategies = tuple(DETERMINISTIC[(i + seed) % 4] for i in range(n))
    ranks, cards = deck_orders(rules, sessions, seed=seed)
    batch = play_sessions(rules, strategies, sessions, seed=0, decks=ranks)
    assert not batch.engine
    bets = 0
    for g in range(sessions):
        engine = play(rules, strategies, g, cards=cards[g])
        assert tuple(int(c) for c in batch.chips[g]) == engine.chips, (g, engine.decisions)
        assert int(batch.pot[g]) == engine.pot, g
        assert int(batch.hands[g]) == engine.hands, g
        assert int(batch.ended[g]) == engine.ended, g
        assert batch.tally[g].tolist() == engine.tally, g
        bets += int(batch.tally[g][:, 1:].sum())
    return bets


@pytest.mark.slow
@pytest.mark.parametrize("options", CASES, ids=lambda o: ",".join(map(str, o.values())) or "guide")
def test_same_decks_same_sessions(options: dict[str, Any]) -> None:
    rules = Rules.resolve(**options)
    assert kernel_plays(rules)
    assert _check(rules, 30, len(options)) > 0  # the comparison saw stakes settled


#: Every option the kernel reads, with values it plays.
OPTIONS = {
    "players": st.integers(2, 6),
    "starting_chips": st.sampled_from([10, 40, 100]),
    "ante": st.integers(1, 3),
    "ante_each_round": st.booleans(),
    "rounds": st.integers(1, 5),
    "decks": st.integers(1, 2),
    "post_multiplier": st.integers(1, 3),
    "ace_pair_multiplier": st.sampled_from([0, 1, 4]),
    "stake_cap": st.sampled_from(["cover", "chips"]),
    "min_stake": st.sampled_from(["one", "ante"]),
    "first_round_limit": st.sampled_from(["pot", "half-pot", "ante"]),
    "round_limits": st.sampled_from([(), (2, 5)]),
    "empty_pot": st.sampled_from(["end", "replenish"]),
    "deal": st.sampled_from(["first-around", "both-at-turn"]),
    "pairs": st.sampled_from(["bet", "win", "push"]),
    "adjacent": st.sampled_from(["bet", "lose", "push"]),
    "post_fee": st.integers(0, 2),
    "ante_back": st.booleans(),
}


@st.composite
def kernel_rules(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(["guide", "banker", "three-posts"]))
    names = draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=6, unique=True))
    options: dict[str, Any] = {}
    for name in names:  # each option in turn, kept where the rules accept it
        value = draw(OPTIONS[name])
        try:
            Rules.resolve(preset=preset, **options, **{name: value})
        except RulesError:  # contradictory or moot beside the others: the engine refuses it
            continue
        options[name] = value
    return Rules.resolve(preset=preset, **options)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=kernel_rules(), seed=st.integers(0, 50))
def test_drawn_options_same_sessions(rules: Rules, seed: int) -> None:
    assert kernel_plays(rules)
    _check(rules, 6, seed)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_is_played(preset: str) -> None:
    """Nothing the engine plays is refused: the compiled kernel plays every preset, and the
    results keep every chip (Red Dog's house holds the rest)."""
    rules = Rules.resolve(preset=preset)
    names = [DETERMINISTIC[i % 4] for i in range(rules.players)]
    batch = play_sessions(rules, names, 3, seed=5)
    assert not batch.engine
    assert batch.sessions == 3 and int(batch.hands.sum()) > 0
    total = batch.chips.sum(axis=1) + batch.pot
    if rules.banking != "house":
        assert (total == rules.players * rules.starting_chips).all()


def test_given_decks_are_the_cards_dealt() -> None:
    """The ranks handed to the kernel are those of the engine's cards (a sanity check of
    the helper the exact test relies on)."""
    rules = Rules.resolve(decks=2)
    ranks, cards = deck_orders(rules, 3, seed=1)
    assert ranks.shape == cards.shape == (3, rules.rounds, 104)
    assert (ranks == cards // 4 + 2).all()
    for row in cards.reshape(-1, 104):
        assert np.bincount(row, minlength=52).tolist() == [2] * 52
