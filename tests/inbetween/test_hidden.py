"""Hidden cards (``hidden=True``): no observation of another seat, nor the public view,
shows a face-down card or anything derived from one.

The known holes, each closed: a pair or neighbours rule (``redeal``, ``push``, ``lose``,
``win``) turns the hand up for everyone before it applies, and a redeal's new posts come
face down; a split turns the pair up once; the stake limits are shown only to the seat
whose hand it is; each split hand's new post comes face down; a face-down first ace
cannot be called (``aces="first-card"`` is refused).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import load_game
from aceydeucey.core import Seeded, Table
from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.bots import ExpectedValueBot, RandomBot
from aceydeucey.inbetween.game import InBetweenState
from tests.inbetween.inbetween_helpers import new, play

HIDDEN = {"players": 2, "hidden": True, "deal": "both-around"}


def _cards(obs: dict[str, object]) -> set[str]:
    """Every card string anywhere in an observation's JSON."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            if len(value) == 2 and value[0] in "23456789TJQKA" and value[1] in "CDHS":
                found.add(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(json.loads(json.dumps(obs)))
    return found


def test_a_redeal_turns_the_hand_up_and_deals_the_new_posts_face_down() -> None:
    # Seat 1 (first to act): 5C 6D, neighbours; seat 0: 2C 9H.
    state = play(new(**HIDDEN, adjacent="redeal"), "5C", "2C", "6D", "9H")
    assert state.phase == "deal-post"
    event = state.event_view()
    assert event is not None
    redeal = [e for e in (event, *event.get("after", [])) if e["kind"] == "redeal"]
    assert redeal and redeal[0]["posts"] == ["5C", "6D"]
    assert state.observation(0)["seen"] == ["5C", "6D"]  # turned up, for everyone
    state = play(state, "KC")  # the new posts, face down
    assert state.event_view() == {"kind": "post", "seat": 1, "face_down": True}
    state = play(state, "3S")
    for viewer in (0, None):
        obs = state.observation(viewer)
        assert not {"KC", "3S"} & _cards(obs), obs
        assert obs["seen"] == ["5C", "6D"]
    assert state.observation(1)["hand"] == ["KC", "3S"]
    assert state.observation(1)["hidden_hand"] == ["KC", "3S"]
    shown = play(state, "bet 1")
    assert shown.observation(0)["seen"] == ["5C", "6D", "KC", "3S"]


@pytest.mark.parametrize("rule", [{"pairs": "push"}, {"pairs": "win"}, {"adjacent": "lose"}])
def test_an_automatic_pair_or_neighbours_rule_shows_the_hand_it_applies_to(
    rule: dict[str, str],
) -> None:
    cards = ("7C", "2C", "7D", "9H") if "pairs" in rule else ("7C", "2C", "8D", "9H")
    state = play(new(**HIDDEN, **rule), *cards)
    assert state.observation(0)["seen"] == [cards[0], cards[2]]
    assert state.observation(None)["seen"] == [cards[0], cards[2]]


def test_a_split_turns_the_pair_up_once_and_deals_each_new_post_face_down() -> None:
    state = play(new(**HIDDEN, pairs="split"), "7C", "2C", "7D", "9H")
    assert state.observation(0)["seen"] == []
    state = play(state, "split")
    assert state.observation(0)["seen"] == ["7C", "7D"]
    state = play(state, "QS")  # the first hand's new post: face down, as a redeal's
    assert state.event_view() == {"kind": "post", "seat": 1, "face_down": True}
    for viewer in (0, None):
        obs = state.observation(viewer)
        assert "QS" not in _cards(obs) and obs["seen"] == ["7C", "7D"]
        assert obs["min_stake"] is None and obs["max_stake"] is None
    mine = state.observation(1)
    assert mine["posts"] == ["7C", "QS"] and mine["hidden_hand"] == ["QS"]
    assert mine["max_stake"] is not None and "bet 1" in mine["legal_actions"]
    state = play(state, "bet 1", "8H")  # first hand 7C QS, inside: turned up by the bet
    assert state.observation(0)["seen"] == ["7C", "7D", "QS", "8H"]
    state = play(state, "KS")  # the second hand's new post, face down too
    assert "KS" not in _cards(state.observation(0))
    assert state.observation(1)["hidden_hand"] == ["KS"]
    state = play(state, "bet 1", "9C")  # second hand 7D KS, inside
    seen = state.observation(0)["seen"]
    assert seen == ["7C", "7D", "QS", "8H", "KS", "9C"]
    assert max(Counter(seen).values()) == 1


def test_a_split_hand_folded_keeps_its_new_post_hidden() -> None:
    state = play(new(**HIDDEN, pairs="split"), "7C", "2C", "7D", "9H", "split", "8S", "pass")
    assert state.phase == "deal-post"  # the second hand's post
    assert "8S" not in _cards(state.observation(0)) and "8S" not in _cards(state.observation(None))
    state = play(state, "KS")
    assert state.observation(1)["hidden_hand"] == ["KS"]
    assert "KS" not in _cards(state.observation(0))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_under_hidden_no_post_is_ever_dealt_face_up(seed: int) -> None:
    game = load_game(
        "inbetween",
        players=3,
        hidden=True,
        deal="both-around",
        pairs="split",
        adjacent="redeal",
        starting_chips=10,
    )
    bots = [RandomBot(seed), ExpectedValueBot(), RandomBot(seed + 1)]
    table = Table(game, bots, chance=Seeded(seed))
    steps = 0
    while not table.state.is_terminal() and steps < 400:
        before = table.state
        after = table.step()
        steps += 1
        if not before.is_chance_node():
            continue
        event = after.event_view()
        assert event is not None
        if event["kind"] == "post":
            assert event.get("face_down") is True and "card" not in event, event


@pytest.mark.parametrize(
    "seeds", [range(8), pytest.param(range(8, 40), marks=pytest.mark.slow)], ids=["8", "32"]
)
def test_ev_bots_play_hidden_split_sessions_through(seeds: range) -> None:
    # Random bots split pairs; the EV bots beside them count the seen cards (40 sessions
    # in the full suite, the first 8 in the fast lane).
    game = load_game("inbetween", players=3, hidden=True, deal="both-around", pairs="split")
    for seed in seeds:
        bots = [RandomBot(seed), ExpectedValueBot(), RandomBot(seed + 1)]
        table = Table(game, bots, chance=Seeded(seed))
        while not table.state.is_terminal():
            after = table.step()
            assert isinstance(after, InBetweenState)
            assert max(Counter(after.seen).values(), default=0) <= 1


def test_stake_limits_are_shown_only_to_the_seat_whose_hand_it_is() -> None:
    pair = play(new(**HIDDEN, starting_chips=20, pairs="bet"), "7C", "2C", "7D", "9H")
    spread = play(new(**HIDDEN, starting_chips=20, pairs="bet"), "3C", "2C", "QD", "9H")
    for state in (pair, spread):
        assert state.observation(1)["max_stake"] is not None
        for viewer in (0, None):
            obs = state.observation(viewer)
            assert obs["min_stake"] is None and obs["max_stake"] is None
    # The face-up game still shows them to everyone: they follow from public cards.
    open_state = play(new(players=2), "2C", "3C", "KD")
    assert open_state.observation(0)["max_stake"] == open_state.observation(1)["max_stake"]


def test_a_face_down_first_ace_cannot_be_called_so_the_combination_is_refused() -> None:
    with pytest.raises(RulesError) as info:
        load_game("inbetween", **HIDDEN, aces="first-card")
    assert info.value.params["options"] == ["hidden", "aces"]
    assert "“Cards face down” and “Aces: First post may be low”" in str(info.value)
