"""Property: an agent's observation does not depend on cards it may not see.

In-Between with face-down hands (``hidden``, ``deal="both-around"``): two decks differ only
in another seat's face-down hand (swapped with cards that are never dealt) and in the
order of the cards never dealt.  The other seats always pass, so their hands are never
turned up.  Playing both games with the same actions, the observer's vector, mask and
info are identical at every step, while the seat whose hand changed does see the change.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from aceydeucey.ai.pettingzoo import AceyDeuceyEnv
from aceydeucey.cards import Card
from aceydeucey.core import Stacked

DECK = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "CDHS"]
#: Cards from here on are never dealt: at most 3 cards a seat in one round of 4 seats.
UNDEALT = 30


def _env(deck: list[str], players: int) -> AceyDeuceyEnv:
    env = AceyDeuceyEnv(
        "inbetween",
        players=players,
        rounds=1,
        hidden=True,
        deal="both-around",
        chance=Stacked([Card.from_text(c) for c in deck]),
    )
    env.reset()
    return env


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 4),
    observer=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_another_seats_face_down_cards_and_the_undealt_deck_do_not_show(
    players: int, observer: int, seed: int
) -> None:
    observer %= players
    rng = random.Random(seed)
    deck = DECK[:]
    rng.shuffle(deck)
    first = _env(deck, players)
    victim = rng.choice([s for s in range(players) if s != observer])
    hand = first.game_observation(f"player_{victim}")["hand"]
    assert len(hand) == 2 and first.game_observation(f"player_{victim}")["hidden_hand"] == hand
    other = deck[:]
    tail = list(range(UNDEALT, len(deck)))
    rng.shuffle(tail)
    for card, spot in zip(hand, tail, strict=False):
        at = other.index(card)
        other[at], other[spot] = other[spot], other[at]
    undealt = other[UNDEALT:]
    rng.shuffle(undealt)
    other[UNDEALT:] = undealt
    second = _env(other, players)
    me, them = f"player_{observer}", f"player_{victim}"
    assert second.game_observation(them)["hand"] != hand  # the change is there to be seen
    assert not np.array_equal(
        first.observe(them)["observation"], second.observe(them)["observation"]
    )
    actions = np.random.default_rng(seed)
    while not first.terminations[first.agent_selection]:
        a, b = first.observe(me), second.observe(me)
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"])
        assert first.infos[me] == second.infos[me]
        agent = first.agent_selection
        assert second.agent_selection == agent
        if agent == me:
            index = int(actions.choice(np.flatnonzero(a["action_mask"])))
        else:
            index = first.action_index(agent, "pass")
        first.step(index)
        second.step(index)
    assert second.terminations[second.agent_selection]
    assert np.array_equal(first.observe(me)["observation"], second.observe(me)["observation"])
    assert first.infos[me] == second.infos[me]
