"""The reference side of the cross-checks: the same sessions through the engine's ``Table``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import aceydeucey
from aceydeucey.core import Seeded, Table
from aceydeucey.core.game import Action, State
from aceydeucey.inbetween.bots import BOTS
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.shoe import CARDS
from aceydeucey.inbetween.state import InBetweenState
from aceydeucey.sim.inbetween import ENDINGS, OUTCOMES
from aceydeucey.sim.inbetween_bots import STRATEGIES

AGENTS = {**BOTS, **STRATEGIES}
#: Events that settle a hand, by ``OUTCOMES`` (the engine's settle outcomes).
_OUTCOME = {"inside": 1, "outside": 2, "post": 3}


class DeckChance:
    """Deals round ``r`` of a session from ``cards[r]`` in order (a fixed shuffle)."""

    def __init__(self, cards: npt.NDArray[np.int16]) -> None:
        self.cards = cards

    def choose(self, state: State) -> Action:
        assert isinstance(state, InBetweenState)
        return CARDS[int(self.cards[state.round - 1, len(state.shoe.dealt)])]


@dataclass
class EngineSession:
    chips: tuple[int, ...]
    pot: int
    hands: int
    ended: int
    tally: list[list[int]]


def play(
    rules: Rules,
    strategies: Sequence[str],
    session: int,
    *,
    cards: npt.NDArray[np.int16] | None = None,
    seed: int = 0,
) -> EngineSession:
    """Session ``session`` with the simulator's seating (strategies rotated by ``session``)."""
    n = rules.players
    game = aceydeucey.load_game("inbetween", **rules.to_dict())
    seat_names = [strategies[(s + session) % n] for s in range(n)]
    agents = [AGENTS[name](seed * 1000 + session * 10 + s) for s, name in enumerate(seat_names)]
    chance = DeckChance(cards) if cards is not None else Seeded(seed * 100003 + session)
    table = Table(game, agents, chance=chance)
    tally = [[0] * len(OUTCOMES) for _ in range(n)]
    hands = 0
    while not table.state.is_terminal():
        state = table.step()
        assert isinstance(state, InBetweenState)
        events = []
        view = state.event_view()
        if view is not None:
            events = [view, *view.get("after", [])]
        for e in events:
            if e["kind"] == "pass":
                tally[e["seat"]][0] += 1
                hands += 1
            elif e["kind"] == "settle":
                tally[e["seat"]][_OUTCOME[e["outcome"]]] += 1
                hands += 1
    final = table.state
    assert isinstance(final, InBetweenState)
    code, _ = final.termination()
    return EngineSession(final.chips, final.pot, hands, ENDINGS.index(code), tally)
