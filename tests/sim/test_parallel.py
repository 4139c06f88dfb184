"""The parallel job runner: results depend on the seed and the job's index only."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest

from aceydeucey.core.errors import ArgumentError
from aceydeucey.sim.parallel import run_jobs, split


def draw_job(seeds: np.random.SeedSequence, index: int, count: int) -> tuple[int, list[int]]:
    """A job of the kind simulations run: draws from its own child seed, returns an aggregate."""
    rng = np.random.default_rng(seeds)
    return index, rng.integers(0, 1_000_000, size=count).tolist()


def failing_job(seeds: np.random.SeedSequence, index: int) -> int:
    if index == 2:
        raise ArgumentError("parallel.bad_workers", workers="x")
    return index


def test_split_is_even_and_complete() -> None:
    for total in range(0, 40):
        for parts in range(1, 9):
            sizes = split(total, parts)
            assert sum(sizes) == total and len(sizes) == parts
            assert max(sizes) - min(sizes) <= 1
            assert sizes == sorted(sizes, reverse=True)


def test_bad_arguments_are_coded_errors() -> None:
    with pytest.raises(ArgumentError) as err:
        run_jobs(draw_job, 2, seed=1, args=(1,), workers=0)
    assert err.value.code == "parallel.bad_workers"
    assert "--workers" in err.value.render("pt")
    with pytest.raises(ArgumentError) as err:
        run_jobs(draw_job, -1, seed=1)
    assert err.value.code == "parallel.bad_jobs"
    with pytest.raises(ArgumentError) as err:
        run_jobs(draw_job, 2, seed=1, workers=2, ray="local")
    assert err.value.code == "parallel.workers_and_ray"
    with pytest.raises(ArgumentError):
        split(3, 0)


def test_each_job_gets_its_own_child_seed() -> None:
    results = run_jobs(draw_job, 4, seed=123, args=(5,))
    assert [i for i, _ in results] == [0, 1, 2, 3]
    draws = [tuple(d) for _, d in results]
    assert len(set(draws)) == 4
    # Job i's draws are those of child i of SeedSequence(seed), whatever else runs.
    child = np.random.SeedSequence(123).spawn(4)[2]
    assert draws[2] == tuple(np.random.default_rng(child).integers(0, 1_000_000, size=5))
    assert run_jobs(draw_job, 4, seed=124, args=(5,)) != results


@pytest.mark.slow
def test_local_processes_give_identical_results_in_index_order() -> None:
    seen: list[int] = []
    alone = run_jobs(draw_job, 5, seed=9, args=(3,))
    pooled = run_jobs(
        draw_job, 5, seed=9, args=(3,), workers=2, on_result=lambda i, r: seen.append(i)
    )
    assert pooled == alone
    assert sorted(seen) == [0, 1, 2, 3, 4]


@pytest.mark.slow
def test_a_job_error_reaches_the_caller_with_its_code() -> None:
    with pytest.raises(ArgumentError) as err:
        run_jobs(failing_job, 4, seed=1, workers=2)
    assert err.value.code == "parallel.bad_workers"


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ray(name: str, *args: object, **kwargs: object) -> object:
        if name == "ray":
            raise ImportError("no ray")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(ArgumentError) as err:
        run_jobs(draw_job, 2, seed=1, args=(1,), ray="local")
    assert err.value.code == "parallel.ray_missing"
    assert "aceydeucey[ray]" in err.value.render("pt")


RAY = importlib.util.find_spec("ray") is not None


@pytest.mark.slow
@pytest.mark.skipif(not RAY, reason="the ray extra is not installed (.ci/run installs it)")
def test_a_local_ray_instance_gives_the_local_results() -> None:
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    seen: list[int] = []
    alone = run_jobs(draw_job, 4, seed=5, args=(4,))
    on_ray = run_jobs(
        draw_job, 4, seed=5, args=(4,), ray="local", on_result=lambda i, r: seen.append(i)
    )
    assert on_ray == alone
    assert sorted(seen) == [0, 1, 2, 3]
