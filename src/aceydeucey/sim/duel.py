"""Games between two backgammon bots through the game contract, with duplicate dice.

The training command's periodic evaluation (``net`` against ``greedy``) plays
here: each pair of games uses one seeded chance source twice, once with each
bot in seat 0, so both bots meet the same dice from both sides (the same dice
as long as both games need the same chance events).  Pairs are split into
jobs for :func:`aceydeucey.sim.parallel.run_jobs` (``--workers``, ``--ray``);
job ``i``'s games are seeded from its own ``SeedSequence`` child, so the
figures do not depend on where the jobs run.

A bot is named as in ``backgammon.bots.BOTS``; ``net`` and ``net2`` may be
given a weights file instead of the shipped network (``net_path``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from aceydeucey.backgammon.bots import BOTS, NetBot
from aceydeucey.backgammon.evaluator import Evaluator
from aceydeucey.backgammon.game import BackgammonGame
from aceydeucey.backgammon.net import Network
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.chance import Seeded
from aceydeucey.core.table import Table
from aceydeucey.sim.parallel import run_jobs, split

__all__ = ["DuelResult", "duel", "duel_job"]


@dataclass(frozen=True)
class DuelResult:
    """Points won by the first bot, game by game (pairs of duplicate games)."""

    points: tuple[int, ...]

    @property
    def games(self) -> int:
        return len(self.points)

    @property
    def mean(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0

    @property
    def stderr(self) -> float:
        """Standard error of the mean, from the pairs (duplicate games are correlated)."""
        pairs = np.array(self.points, dtype=np.float64).reshape(-1, 2).sum(axis=1) / 2.0
        if pairs.size < 2:
            return math.nan
        return float(pairs.std(ddof=1) / math.sqrt(pairs.size))

    @property
    def wins(self) -> int:
        return sum(1 for p in self.points if p > 0)


def _bot(name: str, rules: BackgammonRules, net: Network | None, seed: int) -> Any:
    bot = BOTS[name](seed=seed)
    if isinstance(bot, NetBot) and net is not None:
        bot._evaluator = Evaluator(rules, net)
    return bot


def duel_job(
    seeds: np.random.SeedSequence,
    index: int,
    variant: str,
    first: str,
    second: str,
    pairs: int,
    net_path: str | None,
) -> list[int]:
    """``pairs`` duplicate pairs of ``first`` against ``second``: points ``first`` won."""
    rules = BackgammonRules.resolve(variant=variant)
    game = BackgammonGame(rules)
    net = Network.load(net_path) if net_path else None
    seed_stream = seeds.generate_state(pairs * 2 + 2, dtype=np.uint32)
    bots = (
        _bot(first, rules, net, int(seed_stream[-2])),
        _bot(second, rules, net, int(seed_stream[-1])),
    )
    seed_stream = seed_stream[:-2].reshape(pairs, 2)
    out: list[int] = []
    for pair in range(pairs):
        seed = int(seed_stream[pair, 0]) << 32 | int(seed_stream[pair, 1])
        for side in (0, 1):
            agents = [bots[0], bots[1]] if side == 0 else [bots[1], bots[0]]
            table = Table(game, agents, chance=Seeded(seed))
            table.play()
            returns = table.state.returns()
            out.append(int(returns[side]))
    return out


def duel(
    variant: str,
    first: str,
    second: str,
    pairs: int,
    *,
    seed: int,
    net_path: str | Path | None = None,
    workers: int = 1,
    ray: str | None = None,
    jobs: int = 0,
) -> DuelResult:
    """``2 * pairs`` games of ``first`` against ``second``; see the module docstring."""
    n_jobs = jobs or max(1, min(pairs, 4 * workers))
    sizes = split(pairs, n_jobs)
    path = str(net_path) if net_path is not None else None
    results = run_jobs(
        _duel_sized,
        n_jobs,
        seed=seed,
        args=(variant, first, second, tuple(sizes), path),
        workers=workers,
        ray=ray,
    )
    return DuelResult(tuple(p for chunk in results for p in chunk))


def _duel_sized(
    seeds: np.random.SeedSequence,
    index: int,
    variant: str,
    first: str,
    second: str,
    sizes: tuple[int, ...],
    net_path: str | None,
) -> list[int]:
    return duel_job(seeds, index, variant, first, second, sizes[index], net_path)
