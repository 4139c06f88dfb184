"""The simulator's slow path: In-Between sessions played by the reference engine itself.

Where the compiled kernel does not play a rule (``inbetween_params.kernel_refusal``: the
draw for the deal, face-down hands, ace calls, split pairs, the deck-out reshuffles, the
passed card, the ante to play),
``sim.inbetween.play_sessions`` plays the sessions here: the core ``Table`` seats the
agents of the strategies' names (``sim.inbetween_bots.ALL_BOTS``) and deals from a
generator seeded by the run's seed and the session's number, so session ``g`` is the same
whatever the batches.  The results take the kernel's shape (chips, pot, hands, ending,
hands by outcome), so the totals and every figure are computed alike.

A hand is one seat's decision settled: a pass, or a bet's third card (each hand of a
split, each gap of three posts); under Red Dog each seat's bet of a round, pushed when the
posts are neighbours or a pair without trips.  :func:`tally_event` counts them from the
engine's events (the cross-checks count the engine's hands with it too).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

import aceydeucey
from aceydeucey.core import Seeded, Table
from aceydeucey.core.game import Action, State
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.shoe import CARDS
from aceydeucey.inbetween.state import InBetweenState
from aceydeucey.sim.inbetween_kernel import ENDINGS
from aceydeucey.sim.inbetween_params import OUTCOMES

__all__ = ["DeckChance", "EngineSessions", "play_on_engine", "tally_event"]

PASS, INSIDE, OUTSIDE, POST, PUSH = range(len(OUTCOMES))

IntArray = npt.NDArray[np.int64]


class DeckChance:
    """Deals round ``r`` of a session from ``cards[r]`` in order (a fixed shuffle)."""

    def __init__(self, cards: npt.NDArray[np.int16]) -> None:
        self.cards = cards

    def choose(self, state: State) -> Action:
        assert isinstance(state, InBetweenState)
        return CARDS[int(self.cards[state.round - 1, len(state.shoe.dealt)])]


def tally_event(e: dict[str, Any], tally: list[list[int]]) -> int:
    """Count the hands event ``e`` settles into ``tally[seat][outcome]``; how many."""
    kind = e["kind"]
    if kind == "pass":
        tally[e["seat"]][PASS] += 1
        return 1
    if kind == "settle" and "seat" in e:
        tally[e["seat"]][_kind(e["delta"], e["outcome"])] += 1
        return 1
    if kind == "settle":  # the house settles every seat's bet at once
        for seat, gain in enumerate(e["deltas"]):
            tally[seat][_kind(gain, e["outcome"])] += 1
        return len(e["deltas"])
    if kind in ("push", "house-takes") and "seat" not in e:  # the house's neighbours, pairs
        for row in tally:
            row[PUSH if kind == "push" else OUTSIDE] += 1
        return len(tally)
    return 0


def _kind(gain: int, outcome: str) -> int:
    if gain > 0:
        return INSIDE
    if gain == 0:
        return PUSH
    return POST if outcome == "post" else OUTSIDE


class EngineSessions:
    """Per-session results of :func:`play_on_engine` (the kernel's ``keep`` rows)."""

    def __init__(self, sessions: int, n: int) -> None:
        self.chips = np.zeros((sessions, n), dtype=np.int64)
        self.pot = np.zeros(sessions, dtype=np.int64)
        self.hands = np.zeros(sessions, dtype=np.int64)
        self.ended = np.zeros(sessions, dtype=np.int64)
        self.tally = np.zeros((sessions, n, len(OUTCOMES)), dtype=np.int32)


def play_on_engine(
    rules: Rules,
    seat_names: Sequence[Sequence[str]],
    *,
    seed: int,
    first: int,
    cards: npt.NDArray[np.int16] | None = None,
) -> EngineSessions:
    """Sessions ``first ..`` with ``seat_names[g][s]`` the strategy at seat ``s`` of the
    ``g``-th; ``cards[g]`` (card indices, one row per round) replaces its shuffles."""
    from aceydeucey.sim.inbetween_bots import ALL_BOTS

    game = aceydeucey.load_game("inbetween", **rules.to_dict())
    n = rules.players
    out = EngineSessions(len(seat_names), n)
    for g, names in enumerate(seat_names):
        gid = first + g
        agents = [ALL_BOTS[name](f"{seed}:{gid}:{s}") for s, name in enumerate(names)]
        chance = DeckChance(cards[g]) if cards is not None else Seeded(f"{seed}:{gid}")
        table = Table(game, agents, chance=chance)
        tally = [[0] * len(OUTCOMES) for _ in range(n)]
        hands = 0
        while not table.state.is_terminal():
            state = table.step()
            assert isinstance(state, InBetweenState)
            view = state.event_view()
            if view is not None:
                for e in (view, *view.get("after", ())):
                    hands += tally_event(e, tally)
        final = table.state
        assert isinstance(final, InBetweenState)
        code, _ = final.termination()
        out.chips[g] = final.chips
        out.pot[g] = final.pot
        out.hands[g] = hands
        out.ended[g] = ENDINGS.index(code)
        out.tally[g] = tally
    return out
