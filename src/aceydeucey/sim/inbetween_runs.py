"""Runs of many In-Between sessions: exact totals, split into jobs, merged.

:func:`simulate` cuts a run of ``sessions`` sessions into coarse jobs
(:func:`plan`), plays them through :func:`aceydeucey.sim.parallel.run_jobs` (in this
process, on local processes or on Ray) and merges what they return.  A job returns an
:class:`Accumulator`: counts and integer sums (and, for a chart, each final balance's
count), never a session.

Every total is exact: a balance is counted as ``players`` times itself (chips times the
players plus the pot, an integer), a shared win by how many seats shared it.  Session
``g`` of a run depends only on the run's seed and ``g`` (``sim.inbetween``), so the
totals, and every figure derived from them, are identical whatever the number of workers,
the jobs or the batches (only the timings differ):

>>> from aceydeucey.inbetween.rules import Rules
>>> rules, names = Rules.resolve(players=3), ("ev", "kelly", "random")
>>> whole = simulate(rules, names, 5000, seed=4)
>>> parts = Accumulator(names, keep_balances=False)
>>> parts.add(play_sessions(rules, names, 1234, seed=4))
>>> parts.add(play_sessions(rules, names, 3766, seed=4, first=1234))
>>> whole.totals() == parts.totals()
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import (
    ENDINGS,
    OUTCOMES,
    SessionBatch,
    kernel_plays,
    play_sessions,
)
from aceydeucey.sim.parallel import run_jobs, split

__all__ = [
    "BATCH",
    "MAX_JOBS",
    "Accumulator",
    "StrategyStats",
    "plan",
    "prepare",
    "session_job",
    "simulate",
    "summarize",
    "warm_up",
]

#: Sessions per kernel call inside a job (bounds a job's memory).
BATCH = 200_000
#: A run is cut into at most this many jobs ...
MAX_JOBS = 64
#: ... of at least this many sessions each (``SEARCH_JOB_SESSIONS`` with a ``session`` seat
#: or on the engine's slow path).
JOB_SESSIONS = 25_000
SEARCH_JOB_SESSIONS = 250
#: 1.959964: the normal quantile of a two-sided 95 % interval.
Z95 = 1.959964


# -- exact totals ----------------------------------------------------------------------------
@dataclass(frozen=True)
class StrategyStats:
    """One strategy's figures over every seat it took in every session."""

    strategy: str
    #: seat-sessions played (a strategy named twice counts both seats)
    seats: int
    win_rate: float
    #: half-width of the 95 % confidence interval of ``win_rate`` (normal approximation)
    win_ci: float
    mean_balance: float
    balance_stderr: float
    hands: int
    #: hands by ``OUTCOMES``
    outcomes: tuple[int, ...]
    #: the exact win rate (``win_rate`` is its float)
    wins: Fraction

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95 % interval of ``win_rate``, cut to the rates there are (0 to 1)."""
        return max(self.win_rate - self.win_ci, 0.0), min(self.win_rate + self.win_ci, 1.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "seats": self.seats,
            "win_rate": self.win_rate,
            "win_rate_exact": str(self.wins),
            "win_ci95": list(self.win_interval),
            "mean_balance": self.mean_balance,
            "balance_stderr": self.balance_stderr,
            "hands": self.hands,
            "outcomes": dict(zip(OUTCOMES, self.outcomes, strict=True)),
        }


class Accumulator:
    """Exact totals of a run's sessions, by strategy; batches :meth:`add`, jobs ``+``.

    ``keep_balances`` keeps each final balance's count (for :meth:`balance_counts`, the
    chart); the other totals are a few integers per strategy.
    """

    def __init__(self, strategies: Sequence[str], keep_balances: bool = True) -> None:
        self.strategies = tuple(dict.fromkeys(strategies))
        m = len(self.strategies)
        self.keep = keep_balances
        self.players = 0
        self.sessions = 0
        self.hands = 0
        #: seconds inside the kernel (a timing: the one field that is not exact)
        self.seconds = 0.0
        self.seats = [0] * m
        #: ``ties[i][t]``: seat-sessions of strategy ``i`` among ``t`` seats sharing the lead
        self.ties: list[list[int]] = [[] for _ in range(m)]
        #: sums of ``players * balance`` and of its square
        self.balance = [0] * m
        self.balance2 = [0] * m
        self.outcomes = [[0] * len(OUTCOMES) for _ in range(m)]
        self.ended = [0] * len(ENDINGS)
        #: per strategy: ``players * balance`` -> seat-sessions
        self.histogram: list[dict[int, int]] = [{} for _ in range(m)]

    def add(self, batch: SessionBatch) -> None:
        """Add a batch's totals (and, with ``keep_balances``, its final balances: the batch
        must hold its per-session rows)."""
        n = batch.rules.players
        if self.players and n != self.players:
            raise ArgumentError("sim.mixed_runs")
        totals = batch.totals
        self.players = n
        self.sessions += batch.sessions
        self.seconds += batch.seconds
        self.hands += totals.hands
        for e, count in enumerate(totals.ended):
            self.ended[e] += count
        for j, name in enumerate(totals.names):
            i = self.strategies.index(name)
            self.seats[i] += totals.seats[j]
            self.balance[i] += totals.balance[j]
            self.balance2[i] += totals.balance2[j]
            self.ties[i] = _plus(self.ties[i], list(totals.ties[j]))
            for o, count in enumerate(totals.outcomes[j]):
                self.outcomes[i][o] += count
        if not self.keep:
            return
        scaled = batch.chips * n + batch.pot[:, None]
        for i, name in enumerate(self.strategies):
            index = [j for j, s in enumerate(batch.strategies) if s == name]
            values = scaled[np.isin(batch.seat_strategy, index)]
            keys, counts = np.unique(values, return_counts=True)
            hist = self.histogram[i]
            for v, c in zip(keys.tolist(), counts.tolist(), strict=True):
                hist[v] = hist.get(v, 0) + c

    def __add__(self, other: Accumulator) -> Accumulator:
        same = other.strategies == self.strategies and other.keep == self.keep
        if not same or (self.players and other.players and self.players != other.players):
            raise ArgumentError("sim.mixed_runs")
        total = Accumulator(self.strategies, self.keep)
        total.players = self.players or other.players
        total.sessions = self.sessions + other.sessions
        total.hands = self.hands + other.hands
        total.seconds = self.seconds + other.seconds
        total.seats = [a + b for a, b in zip(self.seats, other.seats, strict=True)]
        total.ties = [_plus(a, b) for a, b in zip(self.ties, other.ties, strict=True)]
        total.balance = [a + b for a, b in zip(self.balance, other.balance, strict=True)]
        total.balance2 = [a + b for a, b in zip(self.balance2, other.balance2, strict=True)]
        total.outcomes = [
            [x + y for x, y in zip(a, b, strict=True)]
            for a, b in zip(self.outcomes, other.outcomes, strict=True)
        ]
        total.ended = [a + b for a, b in zip(self.ended, other.ended, strict=True)]
        for hist, a, b in zip(total.histogram, self.histogram, other.histogram, strict=True):
            hist.update(a)
            for v, c in b.items():
                hist[v] = hist.get(v, 0) + c
        return total

    def totals(self) -> dict[str, Any]:
        """Every exact total (what equal runs share; the timing left out)."""
        return {
            "strategies": self.strategies,
            "players": self.players,
            "sessions": self.sessions,
            "hands": self.hands,
            "seats": self.seats,
            "ties": [_trim(t) for t in self.ties],
            "balance": self.balance,
            "balance2": self.balance2,
            "outcomes": self.outcomes,
            "ended": self.ended,
            "histogram": [dict(sorted(h.items())) for h in self.histogram],
        }

    def stats(self) -> list[StrategyStats]:
        out = []
        n = self.players or 1
        for i, name in enumerate(self.strategies):
            k = self.seats[i]
            if k == 0:
                continue
            win = sum((Fraction(c, t) for t, c in enumerate(self.ties[i]) if t), Fraction(0))
            win2 = sum((Fraction(c, t * t) for t, c in enumerate(self.ties[i]) if t), Fraction(0))
            mean_w = win / k
            mean_b = Fraction(self.balance[i], k * n)
            # unbiased variances, exact until the square root
            var_w = (win2 - k * mean_w**2) / max(k - 1, 1)
            var_b = (Fraction(self.balance2[i], n * n) - k * mean_b**2) / max(k - 1, 1)
            out.append(
                StrategyStats(
                    name,
                    k,
                    float(mean_w),
                    Z95 * math.sqrt(max(float(var_w), 0.0) / k),
                    float(mean_b),
                    math.sqrt(max(float(var_b), 0.0) / k),
                    sum(self.outcomes[i]),
                    tuple(self.outcomes[i]),
                    mean_w,
                )
            )
        return out

    def endings(self) -> dict[str, int]:
        """Sessions by how they ended (``ENDINGS``)."""
        return dict(zip(ENDINGS, self.ended, strict=True))

    def balance_counts(self, i: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
        """Strategy ``i``'s distinct final balances and how many seat-sessions ended so
        (bounded memory whatever the number of sessions)."""
        hist = self.histogram[i]
        keys = np.array(sorted(hist), dtype=np.int64)
        counts = np.array([hist[k] for k in keys.tolist()], dtype=np.int64)
        return keys / (self.players or 1), counts


def _plus(a: list[int], b: list[int]) -> list[int]:
    size = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) for i in range(size)]


def _trim(counts: list[int]) -> list[int]:
    end = len(counts)
    while end and counts[end - 1] == 0:
        end -= 1
    return counts[:end]


def summarize(batch: SessionBatch) -> list[StrategyStats]:
    """Per-strategy win rates (95 % intervals), mean balances and hands of one batch."""
    acc = Accumulator(batch.strategies, keep_balances=False)
    acc.add(batch)
    return acc.stats()


# -- jobs -------------------------------------------------------------------------------------
def plan(sessions: int, search: bool = False) -> list[tuple[int, int]]:
    """The jobs of a run: ``(first session, sessions)`` each, by the sessions alone.

    Between 1 and :data:`MAX_JOBS` jobs of at least :data:`JOB_SESSIONS` sessions
    (:data:`SEARCH_JOB_SESSIONS` when a seat searches), as even as can be.
    """
    if sessions < 1:
        raise ArgumentError("sim.bad_sessions", sessions=sessions)
    least = SEARCH_JOB_SESSIONS if search else JOB_SESSIONS
    jobs = max(1, min(MAX_JOBS, sessions // least))
    out, first = [], 0
    for size in split(sessions, jobs):
        out.append((first, size))
        first += size
    return out


def session_job(
    seeds: np.random.SeedSequence,
    index: int,
    rules: Rules,
    strategies: tuple[str, ...],
    seed: int,
    jobs: tuple[tuple[int, int], ...],
    keep_balances: bool,
    threads: int | None,
) -> Accumulator:
    """Job ``index`` of a run (for ``run_jobs``): its sessions' totals.

    The sessions' randomness comes from ``seed`` and their numbers (``sim.inbetween``),
    not from ``seeds``: that is what makes a run's totals independent of its jobs.
    ``threads`` caps Numba's threads in a worker process (its share of the cores).
    """
    if threads is not None:
        most = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
        numba.set_num_threads(max(1, min(threads, most)))
    first, count = jobs[index]
    acc = Accumulator(strategies, keep_balances)
    step = BATCH if keep_balances else count  # the totals alone need no rows in memory
    for start in range(first, first + count, step):
        size = min(step, first + count - start)
        batch = play_sessions(rules, strategies, size, seed=seed, first=start, keep=keep_balances)
        acc.add(batch)
    return acc


def prepare(rules: Rules, strategies: Sequence[str], seed: int = 0) -> None:
    """Check the strategies' names for ``rules`` and load the compiled kernel (a first
    session: what a timing of :func:`simulate` should leave out, with the process's start)."""
    play_sessions(rules, tuple(strategies), 1, seed=seed, keep=False)


def simulate(
    rules: Rules,
    strategies: Sequence[str],
    sessions: int,
    *,
    seed: int = 0,
    keep_balances: bool = False,
    workers: int = 1,
    ray: str | None = None,
    on_sessions: Callable[[int], None] | None = None,
) -> Accumulator:
    """Play sessions ``0 .. sessions - 1`` of the run with ``seed``; their totals.

    ``workers`` local processes, or ``ray`` (see ``sim.parallel``), share the jobs;
    ``on_sessions(k)`` is called as each job of ``k`` sessions finishes.
    """
    names = tuple(strategies)
    prepare(rules, names, seed)
    jobs = tuple(plan(sessions, search="session" in names or not kernel_plays(rules)))
    threads = None
    if ray is None and workers > 1:
        threads = max(1, (os.cpu_count() or 1) // min(workers, len(jobs)))

    def done(_index: int, acc: Accumulator) -> None:
        if on_sessions is not None:
            on_sessions(acc.sessions)

    parts = run_jobs(
        session_job,
        len(jobs),
        seed=seed % (1 << 64),
        args=(rules, names, seed, jobs, keep_balances, threads),
        workers=workers,
        ray=ray,
        on_result=done,
    )
    total = Accumulator(names, keep_balances)
    for part in parts:
        total = total + part
    return total


def warm_up() -> None:
    """Compile the simulator's kernels and the batch totals (or load them from the cache).

    The function of ``aceydeucey.kernels``' target ``inbetween``: the simulator's own
    kernels (:func:`aceydeucey.sim.inbetween.warm_up`), then one batch's totals.
    """
    from aceydeucey.sim import inbetween

    inbetween.warm_up()
    rules = Rules.resolve(players=2)
    Accumulator(("ev", "random"), keep_balances=True).add(play_sessions(rules, ("ev", "random"), 2))
