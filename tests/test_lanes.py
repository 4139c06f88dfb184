"""The test lanes: the fast lane's Hypothesis profile caps every property test, in one
process and across pytest-xdist's workers (``-n``) alike; the full suite keeps each
test's own settings.  ``scripts/test --fast`` runs the fast lane on ``WORKERS`` workers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_PROPERTY = """
from hypothesis import example, given, settings, strategies as st

@settings(max_examples=200, database=None)
@given(st.integers())
@example(10**9)
def test_counted(n):
    with open(__file__ + ".count", "a") as f:
        f.write("x")

class TestInAClass:
    @settings(max_examples=50, database=None)
    @given(st.integers())
    def test_method(self, n):
        with open(__file__ + ".method", "a") as f:
            f.write("x")
"""


@pytest.mark.parametrize(
    ("profile", "most", "workers"),
    [("fast", 11, []), ("fast", 11, ["-n", "2"]), ("default", 250, [])],
)
def test_the_fast_profile_caps_examples_and_the_full_suite_keeps_them(
    tmp_path: Path, profile: str, most: int, workers: list[str]
) -> None:
    test = tmp_path / "test_property.py"
    test.write_text(_PROPERTY)
    # the checkout's conftest as a plugin, the property test outside the checkout
    command = [sys.executable, "-m", "pytest", "-q", "-p", "conftest", "-p", "no:randomly"]
    command += ["-p", "no:cacheprovider", f"--hypothesis-profile={profile}", *workers, str(test)]
    done = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={"PYTHONPATH": f"{ROOT}:{ROOT / 'src'}", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    runs = len((tmp_path / "test_property.py.count").read_text())
    method = len((tmp_path / "test_property.py.method").read_text())
    if profile == "fast":
        assert runs <= most and method <= most - 1  # 10 examples (+ the pinned one)
    else:
        assert runs > 50 and method > 10  # their own settings


def test_the_fast_lane_runs_on_workers() -> None:
    script = (ROOT / "scripts" / "test").read_text()
    fast = script[script.index('if [ "$lane" = fast ]') :].split("fi\n", 1)[0]
    assert '-m "not slow and not browser" --hypothesis-profile=fast' in fast
    assert '-n "${WORKERS:-2}"' in fast


def test_the_full_suite_runs_the_browser_tests_on_workers_and_fails_on_either_half() -> None:
    script = (ROOT / "scripts" / "test").read_text()
    full = script[script.index('step "the full suite, 1 of 2') :]
    assert 'half -m "not browser" -n "${WORKERS:-2}"' in full and 'half "${browser[@]}"' in full
    assert 'browser=(-m browser -n "${BROWSER_WORKERS:-3}")' in script
    assert full.rstrip().endswith('exit "$status"')  # a failed first half is not forgotten
