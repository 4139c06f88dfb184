"""Determinisation: states consistent with what one seat sees (``resample``,
``determinisations``).

A resampled state shows the seat exactly its observation; it depends on nothing the seat
cannot see (two states the seat cannot tell apart resample to the same state); over many
draws the hidden cards follow the exact enumeration.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import load_game
from aceydeucey.cards import Card
from aceydeucey.inbetween.determinise import unknown
from aceydeucey.inbetween.game import InBetweenState
from tests.inbetween.inbetween_helpers import new, play

HIDDEN = {"players": 2, "hidden": True, "deal": "both-around"}

OPTIONS: list[dict[str, Any]] = [
    {"players": 3, "hidden": True, "deal": "both-around"},
    {"players": 4, "hidden": True, "deal": "both-around", "decks": 2, "pairs": "redeal"},
    {"players": 3, "hidden": True, "deal": "both-around", "adjacent": "push"},
    {"players": 3, "passed_card": "next-post"},
    {"preset": "banker", "players": 3},
    {"preset": "sheets", "players": 3},
    {"preset": "red-dog", "players": 2},
    {"preset": "three-posts", "players": 3},
]


def _walk(options: dict[str, Any], seed: int, steps: int) -> InBetweenState:
    """A session played at random for up to ``steps`` actions."""
    rng = random.Random(seed)
    state = new(**options)
    for _ in range(steps):
        if state.is_terminal():
            break
        outcomes = state.chance_outcomes()
        legal = [a for a, _ in outcomes] or list(state.legal_actions())
        action = rng.choice(legal)
        state = state.apply(action)
    return state


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(OPTIONS),
    st.integers(0, 10**6),
    st.integers(0, 80),
    st.integers(0, 10**6),
)
def test_a_resampled_state_shows_every_seat_the_same_observation(
    options: dict[str, Any], seed: int, steps: int, draw: int
) -> None:
    state = _walk(options, seed, steps)
    for seat in (None, *range(state.rules.players)):
        again = state.resample(seat, random.Random(draw))
        assert again.observation(seat) == state.observation(seat)
        if seat is not None and state.hands:
            assert again.hands[seat] == state.hands[seat]  # its own cards stay its own
        # the same cards in all: the stock and the unseen places trade cards, no more
        assert Counter(again.shoe.dealt) + _stock(again) == Counter(state.shoe.dealt) + _stock(
            state
        )


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(OPTIONS[:4]), st.integers(0, 10**6), st.integers(4, 60))
def test_a_resample_depends_only_on_what_the_seat_sees(
    options: dict[str, Any], seed: int, steps: int
) -> None:
    # Two states the seat cannot tell apart (the second is a resample of the first) give
    # the same resample for the same draws: nothing the seat cannot see leaks into it.
    state = _walk(options, seed, steps)
    for seat in range(state.rules.players):
        other = state.resample(seat, random.Random(seed + 1))
        assert other.observation(seat) == state.observation(seat)
        mine = state.resample(seat, random.Random(7))
        theirs = other.resample(seat, random.Random(7))
        assert mine.hands == theirs.hands and mine.aside == theirs.aside
        assert mine.shoe.counts == theirs.shoe.counts


def test_the_hidden_hand_is_drawn_from_every_card_the_seat_has_not_seen() -> None:
    # Two players, face down: seat 1 holds 4C 9D; seat 0's 2C KH are unknown to seat 1.
    state = play(new(**HIDDEN), "4C", "2C", "9D", "KH")
    u = unknown(state, 1)
    assert u.places == (("hand", 0, 0), ("hand", 0, 1)) and u.dead == 0
    assert sum(u.pool.values()) == 50 and Card.from_text("4C") not in u.pool
    assert Card.from_text("2C") in u.pool  # the true card is one of the possibilities


def test_the_exact_enumeration_matches_the_samples() -> None:
    state = play(new(**HIDDEN), "4C", "2C", "9D", "KH")
    exact = state.determinisations(1)
    assert sum(p for _, p in exact) == 1
    assert len(exact) == 50 * 49  # every ordered pair of the 50 unseen cards
    assert all(s.observation(1) == state.observation(1) for s, _ in exact[:50])
    rank_chance: Counter[int] = Counter()
    exact_by_rank: dict[int, Fraction] = {}
    for s, p in exact:
        r = s.hands[0][0].rank
        exact_by_rank[r] = exact_by_rank.get(r, Fraction(0)) + p
    assert exact_by_rank[4] == Fraction(3, 50) and exact_by_rank[2] == Fraction(4, 50)
    rng = random.Random(2026)
    n = 5000
    for _ in range(n):
        rank_chance[state.resample(1, rng).hands[0][0].rank] += 1
    for r, p in exact_by_rank.items():
        assert abs(rank_chance[r] / n - float(p)) < 0.02, (r, rank_chance[r], p)


def test_a_card_set_aside_by_a_pass_is_unknown_to_everyone() -> None:
    # passed_card="next-post": the card set aside face down after a pass is placed in the
    # same transition; the state in between (built here) hides it from every seat.
    state = play(new(players=3, passed_card="next-post"), "4C", "5D", "9H", "TD")
    held = state.take(Card.from_text("KS"), face_up=False).evolve(aside=Card.from_text("KS"))
    for seat in (None, 0, 1, 2):
        u = unknown(held, seat)
        assert u.places == (("aside",),)
        assert sum(u.pool.values()) == 48  # everything but the four cards shown
    values = {s.aside for s, _ in held.determinisations(0)}
    assert len(values) == 48
    again = held.resample(0, random.Random(3))
    assert again.observation(0) == held.observation(0) and again.aside is not None


def test_perfect_information_has_one_determinisation() -> None:
    for game_id in ("backgammon", "aces-in-the-pot"):
        state = load_game(game_id).new_initial_state()
        assert state.determinisations(0) == [(state, Fraction(1))]
        assert state.resample(None, random.Random(1)) is state
    # In-Between without hidden cards: nothing to draw either
    state = play(new(players=2), "4C", "QD")
    assert state.determinisations(0) == [(state, Fraction(1))]


def _stock(state: InBetweenState) -> Counter[Card]:
    from aceydeucey.inbetween.shoe import CARDS

    return Counter({c: k for c, k in zip(CARDS, state.shoe.counts, strict=True) if k})


# -- the odds on engine states ------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(OPTIONS), st.integers(0, 10**6), st.integers(0, 80))
def test_an_observation_rebuilds_a_state_that_shows_the_same(
    options: dict[str, Any], seed: int, steps: int
) -> None:
    # The belief state a seat's observation describes shows that seat the same observation
    # and gives the same odds as the state it came from, where the seat sees every card.
    from aceydeucey.inbetween.belief import from_observation
    from aceydeucey.inbetween.odds import state_odds

    state = _walk(options, seed, steps)
    seat = state.to_act
    if seat is None or state.is_chance_node() or state.is_terminal():
        return
    obs = state.observation(seat)
    rebuilt = from_observation(state.game, obs)
    assert rebuilt.observation(seat) == obs
    if not state.rules.hidden:
        assert state_odds(rebuilt, seat) == state_odds(state, seat)


@pytest.mark.slow  # 2,450 arrangements, each enumerated (about 20 s)
def test_hidden_odds_average_the_determinisations_exactly() -> None:
    # Seat 1 holds 4C 9D face down; seat 0's 2C KH are unknown to it.  The odds from its
    # observation equal the average, over every arrangement of the cards it cannot see,
    # of the odds in that arrangement.
    from aceydeucey.inbetween.odds import decision_odds, state_odds

    state = play(new(**HIDDEN), "4C", "2C", "9D", "KH")
    seat = 1
    seen_odds = decision_odds(state.rules, state.observation(seat))
    average = sum(
        (p * state_odds(s, seat).values["bet 1"] for s, p in state.determinisations(seat)),
        Fraction(0),
    )
    assert seen_odds.values["bet 1"] == average
    assert state_odds(state, seat).values["bet 1"] != average  # the true cards differ
