"""Property: with or without hidden cards, no seat and no spectator is shown a card it may
not know, nor a field derived from one.

The test keeps its own account of who may know each card, from the rules alone: a card
dealt face up is public; a card dealt to a face-down hand (``hidden``: the events ``hand``,
and ``post`` with ``face_down`` after a redeal) is known to that seat
until the hand is turned up (a bet, a split, or a pairs/adjacent rule applied to it), when
it becomes public; a card set aside by a pass is nobody's until it is placed as a post.
Every card string anywhere in the JSON of ``observation(viewer)`` must be one the viewer
may know; while a face-down hand waits for its decision, only its own seat sees stake
limits; ``seen`` never lists a card more often than the decks hold.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from aceydeucey.core import Seeded
from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.game import InBetweenGame, InBetweenState
from aceydeucey.inbetween.rules import Rules

OPTIONS: dict[str, Any] = {
    "players": st.integers(1, 5),
    "decks": st.integers(1, 2),
    "starting_chips": st.integers(2, 20),
    "aces": st.sampled_from(["high", "first-card", "dealer-declares"]),
    "adjacent": st.sampled_from(["bet", "lose", "redeal", "push"]),
    "pairs": st.sampled_from(["bet", "higher-lower", "win", "push", "redeal", "split"]),
    "stake_cap": st.sampled_from(["cover", "chips", "none"]),
    "min_stake": st.sampled_from(["one", "ante"]),
    "ante_to_play": st.booleans(),
    "empty_pot": st.sampled_from(["end", "replenish"]),
    "dealer": st.sampled_from([0, "draw"]),
    "post_fee": st.integers(0, 1),
    "passed_card": st.sampled_from(["discard", "next-post"]),
    "reshuffle": st.sampled_from(["round", "deck-out"]),
}
TURN_UP = {"bet", "split", "redeal", "push", "adjacent-loss", "pair-win"}
SESSIONS_PER_EXAMPLE = 10


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(list(Rules.PRESETS)))
    hidden = draw(st.booleans())
    names = draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=5, unique=True))
    options = {name: draw(OPTIONS[name]) for name in names}
    if hidden:
        options.update(hidden=True, deal="both-around")
    try:
        return Rules.resolve(preset=preset, rounds=1, **options)
    except RulesError:
        assume(False)
        raise


_CARD = re.compile(r'"([2-9TJQKA][CDHS])"')


def _cards(obs: dict[str, Any]) -> set[str]:
    """Every card string anywhere in the observation's JSON."""
    return set(_CARD.findall(json.dumps(obs)))


def _events(state: InBetweenState) -> list[dict[str, Any]]:
    event = state.event_view()
    return [] if event is None else [event, *event.get("after", [])]


def play_and_check(rules: Rules, seed: int) -> None:
    game = InBetweenGame(rules)
    n = rules.players
    rng = random.Random(seed)
    chance = Seeded(seed)
    state = game.new_initial_state()
    public: set[str] = set()
    private: list[list[str]] = [[] for _ in range(n)]  # each seat's face-down cards
    aside: list[str] = []
    steps = 0
    while True:
        check(state, public, private)
        if state.is_terminal() or steps > 400:
            return
        if state.is_chance_node():
            action = chance.choose(state)
        else:
            action = rng.choice(list(state.legal_actions()))
        after = state.apply(action)
        events = _events(after)
        if state.is_chance_node():
            card = str(action)
            kind = events[0]["kind"]
            if kind == "hand" or (kind == "post" and events[0].get("face_down")):
                private[events[0]["seat"]].append(card)
            elif kind == "set-aside":
                aside.append(card)
            else:
                public.add(card)
        for event in events:
            seat = event.get("seat")
            if event["kind"] in TURN_UP and isinstance(seat, int):
                public.update(private[seat])
                private[seat].clear()
            if event["kind"] == "post" and event.get("passed"):
                assert event["card"] == aside.pop(0)
                public.add(event["card"])
            if event["kind"] == "round":  # a new round: the old hands are gone
                for cards in private:
                    cards.clear()
        state = after
        steps += 1


def check(state: InBetweenState, public: set[str], private: list[list[str]]) -> None:
    n = state.game.num_players
    actor = state.to_act
    for viewer in (None, *range(n)):
        obs = state.observation(viewer)
        allowed = public | (set(private[viewer]) if viewer is not None else set())
        leaked = _cards(obs) - allowed
        assert not leaked, f"{viewer=} sees {leaked} in {obs}"
        assert max(Counter(obs["seen"]).values(), default=0) <= state.rules.decks
        if actor is not None and viewer != actor and private[actor]:
            assert obs["min_stake"] is None and obs["max_stake"] is None


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 10**6))
def test_no_observation_shows_a_card_its_viewer_may_not_know(rules: Rules, seed: int) -> None:
    for k in range(SESSIONS_PER_EXAMPLE):
        play_and_check(rules, seed + k)
