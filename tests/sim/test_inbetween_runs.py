"""Runs of many sessions: exact totals whatever the batches, the jobs or the workers."""

from __future__ import annotations

import importlib.util
import itertools
import os
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import OUTCOMES, play_sessions
from aceydeucey.sim.inbetween_runs import (
    JOB_SESSIONS,
    MAX_JOBS,
    Accumulator,
    plan,
    simulate,
    summarize,
)

RULES = Rules.resolve(players=3)
NAMES = ("ev", "random", "ev")  # a strategy named twice pools both seats


def test_totals_are_those_of_the_sessions_computed_directly() -> None:
    whole = play_sessions(RULES, NAMES, 3000, seed=8)
    acc = Accumulator(NAMES)
    acc.add(whole)
    stats = {s.strategy: s for s in acc.stats()}
    assert set(stats) == {"ev", "random"}
    balances, credit = whole.balances(), whole.win_credit()
    for i, name in enumerate(("ev", "random")):
        mask = np.isin(whole.seat_strategy, [j for j, s in enumerate(NAMES) if s == name])
        s = stats[name]
        assert s.seats == int(mask.sum())
        # the exact win rate: each tied leader's share, as a fraction
        top = whole.chips == whole.chips.max(axis=1, keepdims=True)
        shares = [Fraction(1, int(top[g].sum())) for g in np.nonzero(mask & top)[0]]
        assert s.wins == sum(shares, Fraction(0)) / s.seats
        assert s.win_rate == pytest.approx(credit[mask].mean())
        assert s.win_ci == pytest.approx(1.959964 * credit[mask].std(ddof=1) / mask.sum() ** 0.5)
        assert s.mean_balance == pytest.approx(balances[mask].mean())
        assert s.balance_stderr == pytest.approx(balances[mask].std(ddof=1) / mask.sum() ** 0.5)
        assert s.outcomes == tuple(whole.tally[mask].sum(axis=0).tolist())
        values, counts = acc.balance_counts(i)
        assert int(counts.sum()) == int(mask.sum())
        assert float((values * counts).sum() / counts.sum()) == pytest.approx(balances[mask].mean())
    assert sum(s.wins * s.seats for s in stats.values()) == 3000  # one win per session
    assert sum(acc.ended) == 3000 and acc.hands == int(whole.hands.sum())
    assert [s.to_dict() for s in summarize(whole)] == [s.to_dict() for s in acc.stats()]


@settings(max_examples=20, deadline=None)
@given(cuts=st.lists(st.integers(1, 2999), max_size=6, unique=True), seed=st.integers(0, 99))
def test_any_batches_and_merges_give_the_same_exact_totals(cuts: list[int], seed: int) -> None:
    whole = Accumulator(NAMES)
    whole.add(play_sessions(RULES, NAMES, 3000, seed=seed))
    edges = [0, *sorted(cuts), 3000]
    parts = []
    for a, b in itertools.pairwise(edges):
        part = Accumulator(NAMES)
        part.add(play_sessions(RULES, NAMES, b - a, seed=seed, first=a))
        parts.append(part)
    merged = parts[0]
    for part in parts[1:]:
        merged = merged + part
    assert merged.totals() == whole.totals()
    assert [s.to_dict() for s in merged.stats()] == [s.to_dict() for s in whole.stats()]


def test_totals_of_other_runs_do_not_add() -> None:
    with pytest.raises(ArgumentError) as err:
        _ = Accumulator(NAMES) + Accumulator(("ev", "kelly", "ev"))
    assert err.value.code == "sim.mixed_runs"
    acc = Accumulator(("ev", "ev"))
    acc.add(play_sessions(Rules.resolve(players=2), ("ev", "ev"), 10))
    with pytest.raises(ArgumentError):
        acc.add(play_sessions(Rules.resolve(players=4), ("ev",) * 4, 10))


def test_the_plan_depends_on_the_sessions_alone() -> None:
    for sessions in (1, 7, JOB_SESSIONS - 1, 3 * JOB_SESSIONS + 5, 10**9):
        jobs = plan(sessions)
        assert 1 <= len(jobs) <= MAX_JOBS
        assert jobs[0][0] == 0 and sum(size for _, size in jobs) == sessions
        for (first, size), (after, _) in itertools.pairwise(jobs):
            assert first + size == after  # contiguous, each session once
    assert len(plan(10**9)) == MAX_JOBS and len(plan(3 * JOB_SESSIONS + 5)) == 3
    assert len(plan(10_000, search=True)) > len(plan(10_000))
    with pytest.raises(ArgumentError):
        plan(0)


def test_a_run_in_jobs_is_the_run_in_one_batch() -> None:
    sessions = 2 * JOB_SESSIONS + 17  # two jobs
    seen: list[int] = []
    run = simulate(RULES, NAMES, sessions, seed=5, keep_balances=True, on_sessions=seen.append)
    assert sorted(seen) == sorted(size for _, size in plan(sessions))
    one = Accumulator(NAMES)
    one.add(play_sessions(RULES, NAMES, sessions, seed=5))
    assert run.totals() == one.totals()


@pytest.mark.slow
def test_two_workers_give_the_totals_of_one() -> None:
    sessions = 2 * JOB_SESSIONS
    alone = simulate(RULES, NAMES, sessions, seed=3, keep_balances=True)
    pooled = simulate(RULES, NAMES, sessions, seed=3, keep_balances=True, workers=2)
    assert pooled.totals() == alone.totals()
    assert [s.to_dict() for s in pooled.stats()] == [s.to_dict() for s in alone.stats()]


RAY = importlib.util.find_spec("ray") is not None


@pytest.mark.slow
@pytest.mark.skipif(not RAY, reason="the ray extra is not installed (.ci/run installs it)")
def test_a_local_ray_instance_gives_the_local_totals() -> None:
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    sessions = 2 * JOB_SESSIONS
    alone = simulate(RULES, NAMES, sessions, seed=6)
    on_ray = simulate(RULES, NAMES, sessions, seed=6, ray="local")
    assert on_ray.totals() == alone.totals()


@pytest.mark.parametrize("names", [("ev", "kelly", "random"), ("ev", "random", "ev")])
def test_the_compiled_totals_equal_the_arrays_counted_one_by_one(names: tuple[str, ...]) -> None:
    # Accumulator.add sums a batch in one compiled pass; counted here from the arrays.
    batch = play_sessions(Rules.resolve(players=3), names, 3000, seed=11, first=7)
    acc = Accumulator(names, keep_balances=False)
    acc.add(batch)
    n = 3
    strategies = acc.strategies
    seats = [0] * len(strategies)
    balance = [0] * len(strategies)
    balance2 = [0] * len(strategies)
    ties = [[0] * (n + 1) for _ in strategies]
    outcomes = [[0] * len(OUTCOMES) for _ in strategies]
    for g in range(batch.sessions):
        row = batch.chips[g].tolist()
        best, shared = max(row), row.count(max(row))
        for s in range(n):
            i = strategies.index(names[int(batch.seat_strategy[g, s])])
            v = row[s] * n + int(batch.pot[g])
            seats[i] += 1
            balance[i] += v
            balance2[i] += v * v
            if row[s] == best:
                ties[i][shared] += 1
            for o in range(len(OUTCOMES)):
                outcomes[i][o] += int(batch.tally[g, s, o])
    assert acc.seats == seats and acc.balance == balance and acc.balance2 == balance2
    assert acc.ties == ties and acc.outcomes == outcomes
    assert acc.hands == int(batch.hands.sum()) and sum(acc.ended) == batch.sessions


_THREADS_SCRIPT = """
import json, numba
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import play_sessions
from aceydeucey.sim.inbetween_runs import simulate
out = {"threads": numba.get_num_threads()}
for preset in ("guide", "banker", "three-posts"):
    rules = Rules.resolve(preset=preset, players=3)
    names = ("ev", "kelly", "random")
    acc = simulate(rules, names, 20000, seed=9)
    batch = play_sessions(rules, names, 500, seed=9, first=77)
    out[preset] = [repr(acc.totals()), batch.chips.tolist(), batch.tally.tolist()]
print(json.dumps(out))
"""


@pytest.mark.slow
def test_the_same_run_on_one_thread_and_on_two() -> None:
    """The kernel's blocks follow Numba's threads; the sessions and the totals do not."""
    import json
    import subprocess
    import sys

    runs = []
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads}
        done = subprocess.run(
            [sys.executable, "-c", _THREADS_SCRIPT],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert [r.pop("threads") for r in runs] == [1, 2]
    assert runs[0] == runs[1]
