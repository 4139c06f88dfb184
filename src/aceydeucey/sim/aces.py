"""Aces in the Pot over many jobs: the batch simulator's wins per seat.

:func:`simulate_wins` cuts ``games`` games into coarse jobs (by the games alone), runs
them through :func:`aceydeucey.sim.parallel.run_jobs` and adds up the wins each job
returns.  Job ``i`` draws its dice from child ``i`` of ``SeedSequence(seed)``, and its
batches from that child's children, so the wins are identical for any number of workers
(or on Ray):

>>> from aceydeucey.aces_in_the_pot.rules import AcesRules
>>> wins = simulate_wins(AcesRules.resolve(players=4), 3000, seed=2)
>>> len(wins), sum(wins)
(4, 3000)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from aceydeucey.aces_in_the_pot.rules import AcesRules
from aceydeucey.aces_in_the_pot.simulate import simulate
from aceydeucey.core.errors import ArgumentError
from aceydeucey.sim.parallel import run_jobs, split

__all__ = ["BATCH", "aces_job", "plan", "simulate_wins"]

#: Games per call of the NumPy simulator inside a job (bounds a job's memory).
BATCH = 200_000
#: A run is cut into at most this many jobs, of at least ``JOB_GAMES`` games each.
MAX_JOBS = 64
JOB_GAMES = 25_000


def plan(games: int) -> list[int]:
    """The games of each job: between 1 and :data:`MAX_JOBS` jobs, by ``games`` alone."""
    if games < 1:
        raise ArgumentError("sim.bad_games", games=games)
    return split(games, max(1, min(MAX_JOBS, games // JOB_GAMES)))


def aces_job(
    seeds: np.random.SeedSequence, index: int, rules: AcesRules, jobs: tuple[int, ...]
) -> tuple[int, ...]:
    """Job ``index`` (for ``run_jobs``): the wins per seat of its games."""
    games = jobs[index]
    batches = split(games, -(-games // BATCH))
    # a fresh copy of the job's seed sequence: its children do not depend on earlier spawns
    own = np.random.SeedSequence(seeds.entropy, spawn_key=seeds.spawn_key)
    wins = [0] * rules.players
    for size, child in zip(batches, own.spawn(len(batches)), strict=True):
        result = simulate(rules, size, seed=int(child.generate_state(1, np.uint64)[0]))
        wins = [a + b for a, b in zip(wins, result.wins, strict=True)]
    return tuple(wins)


def simulate_wins(
    rules: AcesRules,
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    ray: str | None = None,
    on_games: Callable[[int], None] | None = None,
) -> tuple[int, ...]:
    """Wins per seat over ``games`` games (seat 0, or ``first_roller``, rolling first);
    ``on_games(k)`` is called as each job of ``k`` games finishes."""
    jobs = tuple(plan(games))

    def done(index: int, _wins: tuple[int, ...]) -> None:
        if on_games is not None:
            on_games(jobs[index])

    parts = run_jobs(
        aces_job,
        len(jobs),
        seed=seed % (1 << 64),
        args=(rules, jobs),
        workers=workers,
        ray=ray,
        on_result=done,
    )
    return tuple(sum(column) for column in zip(*parts, strict=True))
