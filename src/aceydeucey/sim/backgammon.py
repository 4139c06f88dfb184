"""Batch simulation of backgammon-family games on the fast core.

Whole games of random self-play run inside one Numba kernel
(:func:`aceydeucey.sim.playouts.play_games`), with no Python per action:

>>> from aceydeucey.sim.backgammon import simulate
>>> summary = simulate(variant="classic", games=200, seed=1)
>>> summary.games, sum(summary.wins)
(200, 200)

Each decision picks uniformly among the distinct legal plays of the dice in
hand (the same distribution as ``RandomAgent`` choosing among the contract's
``legal_actions()``), and the named double after a 1-2 uniformly among the six.
The turn structure is the engine's own turn step (:mod:`aceydeucey.backgammon.turn`,
compiled): roll-off, rolls, one decision per play (a forced pass included), the
1-2 bonus, complements, extra rolls and dice passed on, so the counts match a game
played through the contract API (``tests/backgammon/test_sim.py`` and
``test_turn.py`` compare the two).

Options are the game's (``variant`` and any option of
:class:`~aceydeucey.backgammon.rules.BackgammonRules`): the kernels play every one.

:func:`simulate` returns a :class:`SimSummary`: counts are ints, shares and
means are exact :class:`~fractions.Fraction` values; only the timing is a float.
:func:`playouts` gives the raw per-game array.  Game ``g`` of a run depends
only on ``(seed, g)``, so ``parallel=True`` (Numba threads over every core)
plays exactly the same games faster.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from aceydeucey.backgammon.board import long_start, off_board_start, standard_start
from aceydeucey.backgammon.generate import fast_params, to_board
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import ArgumentError
from aceydeucey.sim import playouts as kernel

__all__ = ["SimSummary", "playouts", "simulate"]

#: Columns of the array :func:`playouts` returns.
WINNER, POINTS, DECISIONS, ROLLS, FIRST = range(5)


@dataclass(frozen=True)
class SimSummary:
    """What a batch of random games came to."""

    variant: str
    games: int
    seed: int
    #: games won by seat 0 and by seat 1
    wins: tuple[int, int]
    #: games won by the seat that moved first (won the roll-off)
    first_mover_wins: int
    #: total points won by seat 0 and by seat 1 (what the losers paid)
    points: tuple[int, int]
    #: total decisions (plays, passes included, and named doubles) and chance events
    decisions: int
    rolls: int
    #: sample standard deviation of the decisions per game
    decisions_sd: float
    #: wall-clock seconds of the kernel (compilation excluded)
    seconds: float
    #: whether the games were spread over all CPU cores
    parallel: bool = False

    @property
    def win_rates(self) -> tuple[Fraction, Fraction]:
        return (Fraction(self.wins[0], self.games), Fraction(self.wins[1], self.games))

    @property
    def first_mover_win_rate(self) -> Fraction:
        return Fraction(self.first_mover_wins, self.games)

    @property
    def mean_points(self) -> Fraction:
        """Mean points the winner collects per game."""
        return Fraction(sum(self.points), self.games)

    @property
    def mean_decisions(self) -> Fraction:
        return Fraction(self.decisions, self.games)

    @property
    def mean_rolls(self) -> Fraction:
        return Fraction(self.rolls, self.games)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else math.inf

    def describe(self) -> str:
        """A few readable lines."""
        return "\n".join(
            [
                f"{self.variant}: {self.games} random games (seed {self.seed}) "
                f"in {self.seconds:.2f} s, {self.games_per_second:,.0f} games/s"
                + (" (all cores)" if self.parallel else ""),
                f"decisions per game {float(self.mean_decisions):.2f} "
                f"(sd {self.decisions_sd:.2f}), chance events {float(self.mean_rolls):.2f}",
                f"wins: seat 0 {float(self.win_rates[0]):.2%}, seat 1 "
                f"{float(self.win_rates[1]):.2%}; first mover "
                f"{float(self.first_mover_win_rate):.2%}",
                f"mean points per game {float(self.mean_points):.3f}",
            ]
        )


def simulate(
    variant: str = "classic",
    games: int = 100_000,
    seed: int = 0,
    *,
    max_decisions: int = 100_000,
    parallel: bool = False,
    **options: Any,
) -> SimSummary:
    """Play ``games`` random games of the variant with ``options``; a :class:`SimSummary`.

    ``parallel=True`` spreads the games over every CPU core (same results).
    """
    rules = BackgammonRules.resolve(variant=variant, **options)
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ArgumentError("bg.sim.games", games=repr(games))
    warm_up(rules, parallel=parallel)
    start = time.perf_counter()
    out = playouts(rules, games, seed, max_decisions=max_decisions, parallel=parallel)
    seconds = time.perf_counter() - start
    if (out[:, WINNER] < 0).any():
        bad = int((out[:, WINNER] < 0).sum())
        raise RuntimeError(
            f"{bad} of {games} games did not finish within {max_decisions} decisions"
        )
    winner = out[:, WINNER]
    pts = out[:, POINTS]
    decisions = out[:, DECISIONS]
    return SimSummary(
        variant=rules.variant,
        games=games,
        seed=seed,
        wins=(int((winner == 0).sum()), int((winner == 1).sum())),
        first_mover_wins=int((winner == out[:, FIRST]).sum()),
        points=(int(pts[winner == 0].sum()), int(pts[winner == 1].sum())),
        decisions=int(decisions.sum()),
        rolls=int(out[:, ROLLS].sum()),
        decisions_sd=float(decisions.std(ddof=1)) if games > 1 else 0.0,
        seconds=seconds,
        parallel=parallel,
    )


def playouts(
    rules: BackgammonRules,
    games: int,
    seed: int,
    *,
    max_decisions: int = 100_000,
    parallel: bool = False,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The raw ``(games, 5)`` array of :func:`aceydeucey.sim.playouts.play_games`.

    Columns: winner seat, points won, decisions, chance events, first seat.
    Game ``g`` depends only on ``(seed, g)``.
    """
    return kernel.play_games(
        _start(rules), fast_params(rules), kernel.game_params_of(rules), games, seed,
        max_decisions=max_decisions, parallel=parallel,
    )  # fmt: skip


def warm_up(rules: BackgammonRules, *, parallel: bool = False) -> None:
    """Compile (or load from the cache) the kernels, so timings exclude it."""
    playouts(rules, 2, 0, parallel=parallel)


# -- helpers -------------------------------------------------------------------------


def _start(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int8]]:
    position = {"off_board": off_board_start, "standard": standard_start, "long": long_start}[
        rules.start
    ]()
    return to_board(position)
