"""The load benchmark at a small size, as a smoke test: it must finish by itself with no
error (no timing is asserted: speed is measured by the benchmark, not by tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: Each spawns the benchmark's servers: the full suite's.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def run_load(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load.py"), *args],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_busy_scenario_runs_to_its_end_with_no_error() -> None:
    result = run_load("busy", "--store", "sqlite", "--tables", "3", "--seconds", "3")
    assert result["errors"] == 0 and result["problems"] == []
    assert isinstance(result["actions"], int) and result["actions"] > 0
    assert isinstance(result["games_finished"], int) and result["games_finished"] > 0


def test_the_crowd_scenario_delivers_to_its_spectators() -> None:
    result = run_load(
        "crowd", "--store", "sqlite", "--tables", "3", "--sockets", "9", "--seconds", "4"
    )
    assert result["errors"] == 0 and result["spectator_states_missed"] == 0
    assert result["spectator_streams_behind"] == 0
    assert isinstance(result["store_ceiling_inserts_per_s"], float)
    assert isinstance(result["spectator_states_delivered"], int)
    assert result["spectator_states_delivered"] > 0
