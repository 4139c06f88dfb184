"""A fast simulator of many games at once (NumPy), to check the exact solution.

All games advance together, one throw per loop, each as arrays: chips per
seat, phase (0 play, 1 finish, 2 over), the seat to roll and the finish roll
number.  :func:`settle_batch` applies one throw to a batch with the same rules
as :func:`aceydeucey.aces_in_the_pot.settle.advance` (the tests compare them);
:func:`simulate` plays whole games from the first turn after the roll-off.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from aceydeucey.aces_in_the_pot.rules import AcesRules

__all__ = ["FINISH", "OVER", "PLAY", "Batch", "Simulation", "settle_batch", "simulate"]

PLAY, FINISH, OVER = 0, 1, 2

IntArray = npt.NDArray[np.int64]


@dataclass
class Batch:
    """Games as arrays (mutated in place by :func:`settle_batch`)."""

    chips: IntArray  # (G, N)
    phase: IntArray  # (G,)
    roller: IntArray  # (G,) seat to roll; holder in the finish; winner when over
    roll_number: IntArray  # (G,) finish throw about to be made, 0 in play


@dataclass(frozen=True)
class Simulation:
    """Tallies of ``games`` simulated games, seat 0 (or ``first_roller``) rolling first."""

    games: int
    wins: tuple[int, ...]
    rolls: IntArray
    turns: IntArray
    first_holder_won: int

    @property
    def win_rate(self) -> tuple[float, ...]:
        return tuple(w / self.games for w in self.wins)


def settle_batch(
    batch: Batch, rows: IntArray, aces: IntArray, sixes: IntArray, rules: AcesRules
) -> None:
    """Apply one throw (``aces``, ``sixes`` per row) to the games ``rows`` of ``batch``."""
    phase = batch.phase[rows]
    play, fin = rows[phase == PLAY], rows[phase == FINISH]
    _play(batch, play, aces[phase == PLAY], sixes[phase == PLAY], rules.finish)
    _finish(batch, fin, sixes[phase == FINISH], rules.finish_rolls)


def simulate(rules: AcesRules, games: int, seed: int | None = None) -> Simulation:
    """Play ``games`` games from the first throw of seat ``rules.first_roller`` (seat 0 when
    ``None``: the roll-off is not simulated); the rolls come from ``seed``."""
    rng = np.random.default_rng(seed)
    n = rules.players
    batch = Batch(
        np.full((games, n), rules.starting_chips, dtype=np.int64),
        np.zeros(games, dtype=np.int64),
        np.full(games, rules.first_roller or 0, dtype=np.int64),
        np.zeros(games, dtype=np.int64),
    )
    rolls = np.zeros(games, dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    first_holder = np.full(games, -1, dtype=np.int64)
    active = np.arange(games, dtype=np.int64)
    while active.size:
        dice = rng.integers(1, 7, size=(active.size, 2))
        aces = (dice == 1).sum(axis=1)
        sixes = (dice == 6).sum(axis=1)
        rolls[active] += 1
        starts_turn = (batch.phase[active] == PLAY) | (batch.roll_number[active] == 1)
        turns[active[starts_turn]] += 1
        settle_batch(batch, active, aces, sixes, rules)
        entered = active[(batch.phase[active] == FINISH) & (first_holder[active] < 0)]
        first_holder[entered] = batch.roller[entered]
        active = active[batch.phase[active] != OVER]
    winners = batch.roller
    wins = np.bincount(winners, minlength=n)
    return Simulation(
        games,
        tuple(int(w) for w in wins),
        rolls,
        turns,
        int(np.sum(winners == first_holder)),
    )


def _play(batch: Batch, rows: IntArray, aces: IntArray, sixes: IntArray, finish: str) -> None:
    if rows.size == 0:
        return
    n = batch.chips.shape[1]
    r = batch.roller[rows]
    left = (r + 1) % n
    held = batch.chips[rows, r]
    in_play = batch.chips[rows].sum(axis=1)
    to_pot = np.minimum(np.minimum(aces, held), in_play - 1)
    kept = np.minimum(aces, held) - to_pot
    to_left = np.minimum(sixes, held - to_pot - kept)
    batch.chips[rows, r] -= to_pot + to_left
    batch.chips[rows, left] += to_left
    has = batch.chips[rows] > 0
    finishing = in_play - to_pot == 1 if finish == "last-chip" else has.sum(axis=1) == 1
    seats = (r[:, None] + 1 + np.arange(n)[None, :]) % n
    after = np.take_along_axis(has, seats, axis=1).argmax(axis=1)
    nxt = (r + 1 + after) % n
    holder = has.argmax(axis=1)
    batch.roller[rows] = np.where(finishing, holder, nxt)
    batch.phase[rows] = np.where(finishing, FINISH, PLAY)
    batch.roll_number[rows] = np.where(finishing, 1, 0)


def _finish(batch: Batch, rows: IntArray, sixes: IntArray, finish_rolls: int) -> None:
    if rows.size == 0:
        return
    n = batch.chips.shape[1]
    clean = sixes == 0
    ok = rows[clean]
    won = batch.roll_number[ok] >= finish_rolls
    batch.phase[ok[won]] = OVER
    batch.roll_number[ok[won]] = 0
    batch.roll_number[ok[~won]] += 1
    hit = rows[~clean]
    h = batch.roller[hit]
    left = (h + 1) % n
    batch.chips[hit, h] -= 1
    batch.chips[hit, left] += 1
    kept = batch.chips[hit, h] > 0
    batch.roller[hit] = left
    batch.phase[hit] = np.where(kept, PLAY, FINISH)
    batch.roll_number[hit] = np.where(kept, 0, 1)
