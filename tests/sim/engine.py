"""The reference side of the cross-checks: the same sessions through the engine's ``Table``.

The agents of the strategies' names play at the core ``Table``; the hands are counted from
the engine's events by ``sim.inbetween_engine.tally_event`` (the slow path's own count).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

import aceydeucey
from aceydeucey.core import Seeded, Table
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.state import InBetweenState
from aceydeucey.sim.inbetween import ENDINGS, OUTCOMES
from aceydeucey.sim.inbetween_bots import ALL_BOTS
from aceydeucey.sim.inbetween_engine import DeckChance, tally_event

AGENTS = ALL_BOTS


@dataclass
class EngineSession:
    chips: tuple[int, ...]
    pot: int
    hands: int
    ended: int
    tally: list[list[int]]
    #: every seat's decision, in order: (seat, action text)
    decisions: list[tuple[int, str]]
    #: every card dealt, in order
    cards: list[str]


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
    decisions: list[tuple[int, str]] = []
    dealt: list[str] = []
    while not table.state.is_terminal():
        before = table.state
        state = table.step()
        assert isinstance(state, InBetweenState)
        action = str(table.record.actions[-1]) if table.record.actions else ""
        if before.is_chance_node():
            dealt.append(action)
        else:
            decisions.append((before.current_player(), action))
        view = state.event_view()
        if view is not None:
            for e in (view, *view.get("after", ())):
                hands += tally_event(e, tally)
    final = table.state
    assert isinstance(final, InBetweenState)
    code, _ = final.termination()
    return EngineSession(
        final.chips, final.pot, hands, ENDINGS.index(code), tally, decisions, dealt
    )
