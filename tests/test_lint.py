"""Lint, format and types are part of the test command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(
    "command",
    [
        ("ruff", "check", "src", "tests", "benchmarks"),
        ("ruff", "format", "--check", "src", "tests", "benchmarks"),
        ("mypy",),
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_passes(command: tuple[str, ...]) -> None:
    result = _run(*command)
    assert result.returncode == 0, result.stdout + result.stderr
