"""Chance sources: who picks chance's outcomes when a runner meets a chance node.

Games only list outcomes with exact probabilities; a chance source chooses
one.  Sampling is exact: the probabilities are brought to a common
denominator and an integer is drawn uniformly below it, so a seeded source
reproduces the same game on every machine.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Protocol

from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Action, State

__all__ = ["ChanceSource", "Duplicate", "Seeded", "Stacked", "SystemChance", "sample_outcome"]


class ChanceSource(Protocol):
    """Anything that picks an outcome at a chance node."""

    def choose(self, state: State) -> Action: ...


def sample_outcome(outcomes: Sequence[tuple[Action, Fraction]], draw: int) -> Action:
    """The outcome selected by ``draw`` in ``range(denominator(outcomes))``."""
    denom = common_denominator(outcomes)
    acc = 0
    for action, p in outcomes:
        acc += p.numerator * (denom // p.denominator)
        if draw < acc:
            return action
    raise ValueError(f"draw {draw} is not below the total {acc}")


def common_denominator(outcomes: Sequence[tuple[Action, Fraction]]) -> int:
    return math.lcm(*(p.denominator for _, p in outcomes))


class Seeded:
    """A reproducible source: the same seed gives the same outcomes."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        dist = state.chance_distribution()
        return dist.pick(self._rng.randrange(dist.total))


class Duplicate:
    """A reproducible source with one stream of draws per thrower and kind of chance node.

    The stream of a node is chosen by ``(state.chance_actor(), state.phase_name())``:
    in backgammon, the opening roll-off (nobody's throw) has one stream, each seat's
    rolls another, each seat's rolled doubles after a 1-2 a third.  So two games
    played from the same seed get the same opening, and each seat's k-th roll is the
    same in both, whatever the players did in between: after a 1-2 the extra roll
    is the next of the same seat's stream, and a game in which one side rolled more
    often does not shift the other's dice.  This is what duplicate matches need
    (both bots play the same dice from both seats; see
    :mod:`aceydeucey.sim.tournament`).  Each draw is exact, as in :class:`Seeded`.
    """

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._streams: dict[tuple[int | None, str], random.Random] = {}

    def choose(self, state: State) -> Action:
        key = (state.chance_actor(), state.phase_name())
        stream = self._streams.get(key)
        if stream is None:
            stream = self._streams[key] = random.Random(f"{self.seed}/{key[0]}/{key[1]}")
        dist = state.chance_distribution()
        return dist.pick(stream.randrange(dist.total))


class SystemChance:
    """Operating-system randomness (``secrets``): for real play."""

    def choose(self, state: State) -> Action:
        dist = state.chance_distribution()
        return dist.pick(secrets.randbelow(dist.total))


class Stacked:
    """Given outcomes in order (actions or their text): for tests and worked examples.

    When ``then`` is given, outcomes after the stack runs out come from it;
    otherwise running out raises.
    """

    def __init__(self, outcomes: Iterable[Action | str], then: ChanceSource | None = None) -> None:
        self._pending = list(outcomes)
        self._then = then

    def choose(self, state: State) -> Action:
        if not self._pending:
            if self._then is None:
                raise ArgumentError("chance.stack_empty")
            return self._then.choose(state)
        wanted = self._pending.pop(0)
        return state.parse_action(wanted) if isinstance(wanted, str) else wanted
