"""Coarse parallel jobs: in this process, on local processes, or on a Ray cluster.

Simulations, tournaments and training evaluations split their work into a fixed
number of *jobs*.  Job ``i`` always receives child ``i`` of
``numpy.random.SeedSequence(seed)``, so what a job computes depends only on the
seed and its index, never on where it runs: the results of ``workers=1``,
``workers=8`` and a Ray cluster are identical, not merely equal in distribution.
Each job returns a small aggregate (counts, sums, histogram bins); nothing per
game or per hand crosses a process boundary.

>>> def job(seeds, index, scale):  # a real job is a top-level function of a module
...     return index * scale
>>> run_jobs(job, 4, seed=7, args=(10,))
[0, 10, 20, 30]
>>> split(10, 4)
[3, 3, 2, 2]

``workers=N`` runs the jobs on ``N`` local processes (``spawn``: each starts a fresh
interpreter, so Numba's threads and compiled caches are never shared through a
fork).  ``ray="local"`` starts a Ray instance on this machine for the run;
``ray="auto"`` joins the running cluster this machine belongs to; any other
value is a cluster address (``ray://head:10001``).  Ray is the optional ``ray``
extra (``pip install 'aceydeucey[ray]'``); every node of a cluster needs
aceydeucey installed.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from aceydeucey.core.errors import ArgumentError

__all__ = ["check_workers", "run_jobs", "split"]

R = TypeVar("R")

#: A job: ``job(seed_sequence, index, *args)`` → a small picklable aggregate.
Job = Callable[..., R]


def split(total: int, parts: int) -> list[int]:
    """``total`` items in ``parts`` jobs as even as can be, the larger ones first.

    The split depends only on its arguments, never on the number of workers, so a
    run's jobs (and therefore its results) are the same wherever it runs.
    """
    if total < 0 or parts < 1:
        raise ArgumentError("parallel.bad_split", total=total, parts=parts)
    base, extra = divmod(total, parts)
    return [base + (i < extra) for i in range(parts)]


def check_workers(workers: int, ray: str | None = None) -> None:
    """Refuse a worker count below 1, or workers together with Ray (coded errors).

    ``run_jobs`` checks this; commands call it too, so that bad values fail before
    any work starts.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ArgumentError("parallel.bad_workers", workers=repr(workers))
    if ray is not None and workers != 1:
        raise ArgumentError("parallel.workers_and_ray")


def run_jobs(
    job: Job[R],
    n_jobs: int,
    *,
    seed: int | np.random.SeedSequence,
    args: Sequence[Any] = (),
    workers: int = 1,
    ray: str | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """Run ``job(child_i, i, *args)`` for ``i`` in ``range(n_jobs)``; results in index order.

    ``on_result(i, result)`` is called in this process as each job finishes (in
    completion order), e.g. to advance a progress bar.  An error raised by a job is
    raised here (the first one to finish failing); the other jobs are cancelled.
    """
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs < 0:
        raise ArgumentError("parallel.bad_jobs", jobs=repr(n_jobs))
    check_workers(workers, ray)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    children = root.spawn(n_jobs)
    calls = [(child, i, *args) for i, child in enumerate(children)]
    if ray is not None:
        return _run_ray(job, calls, ray, on_result)
    if workers == 1 or n_jobs <= 1:
        results: list[R] = []
        for call in calls:
            result = job(*call)
            if on_result is not None:
                on_result(call[1], result)
            results.append(result)
        return results
    return _run_processes(job, calls, min(workers, n_jobs), on_result)


def _run_processes(
    job: Job[R],
    calls: list[tuple[Any, ...]],
    workers: int,
    on_result: Callable[[int, R], None] | None,
) -> list[R]:
    results: dict[int, R] = {}
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(job, *call): call[1] for call in calls}
        try:
            for future in concurrent.futures.as_completed(futures):
                index = futures[future]
                results[index] = future.result()
                if on_result is not None:
                    on_result(index, results[index])
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return [results[i] for i in range(len(calls))]


def _run_ray(
    job: Job[R],
    calls: list[tuple[Any, ...]],
    address: str,
    on_result: Callable[[int, R], None] | None,
) -> list[R]:
    try:
        import ray
    except ImportError:
        raise ArgumentError("parallel.ray_missing") from None
    started = False
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            if address == "auto" and isinstance(exc, ConnectionError):
                # Ray's own text speaks of its command's --address flag, not ours
                raise ArgumentError("parallel.ray_none_running") from None
            raise ArgumentError(
                "parallel.ray_unreachable", address=address, reason=str(exc) or type(exc).__name__
            ) from None
        started = True
    try:
        remote = ray.remote(job)
        refs = {remote.remote(*call): call[1] for call in calls}
        results: dict[int, R] = {}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            index = refs[done[0]]
            results[index] = ray.get(done[0])
            if on_result is not None:
                on_result(index, results[index])
        return [results[i] for i in range(len(calls))]
    finally:
        if started:
            ray.shutdown()
