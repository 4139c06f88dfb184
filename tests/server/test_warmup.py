"""A server process after warming up: the engines loaded, and what was loaded kept out of
the collector's way (docs/scaling.md: full collections had held a crowd's replies for up to
a third of a second)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from aceydeucey.server.warmup import GC_THRESHOLDS, warm_engines


@pytest.fixture
def collector() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


@pytest.mark.usefixtures("collector")
def test_warming_up_freezes_what_was_loaded_and_collects_less_often() -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    warm_engines()
    assert gc.get_threshold() == GC_THRESHOLDS
    assert GC_THRESHOLDS[0] > 700  # rarer than Python's default
    # a full collection at least every 100 young ones: rarer, the heap kept growing
    assert GC_THRESHOLDS[1] * GC_THRESHOLDS[2] <= 100
    # the engines' modules and the objects loaded with them are no longer walked
    assert gc.get_freeze_count() > 10_000
