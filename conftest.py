"""Checks of the whole test run (no test leaves files behind in the checkout), and the
Hypothesis profile of the fast lane.

Every file under the checkout is listed when the run starts and again when it ends
(skipping git's folder, virtual environments and the tools' own caches); a file that
appeared in between, compiled Python bytecode aside, fails the run with its name. A
test writes into a temporary folder (``tmp_path``), never into the working directory;
Numba writes its cache in the user's cache folder (``aceydeucey.kernels``), never next
to the package.

The fast lane (``scripts/test --fast``) runs with ``--hypothesis-profile=fast``: every
property test runs at most :data:`FAST_EXAMPLES` examples, its own ``max_examples``
included (its pinned ``@example`` cases all run); the full suite keeps each test's own
settings.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent
#: folders not looked into: git's, virtual environments, the tools' caches
SKIPPED = {".git", ".venv", "venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}
_BEFORE = pytest.StashKey[set[str]]()
#: the most examples a property test runs in the fast lane
FAST_EXAMPLES = 10

settings.register_profile("fast", max_examples=FAST_EXAMPLES)


def checkout_files() -> set[str]:
    """Every file of the checkout (relative paths), bytecode and skipped folders aside."""
    found: set[str] = set()
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.endswith(".egg-info")]
        for name in names:
            if not name.endswith(".pyc"):
                found.add(os.path.relpath(os.path.join(folder, name), ROOT))
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_BEFORE] = checkout_files()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_BEFORE, None)
    if before is None:
        return
    left = sorted(checkout_files() - before)
    if not left:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = ["tests left files in the checkout (write them under tmp_path):", *left]
    if reporter is not None:
        reporter.write_line("")
        for line in lines:
            reporter.write_line(line, red=True)
    else:  # pragma: no cover - no terminal reporter
        print("\n".join(lines))
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under the ``fast`` profile, cap every property test at :data:`FAST_EXAMPLES`."""
    if settings.get_current_profile_name() != "fast":
        return
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)  # a method's function
        given: settings | None = getattr(test, "_hypothesis_internal_use_settings", None)
        if given is not None and given.max_examples > FAST_EXAMPLES:
            capped = settings(given, max_examples=FAST_EXAMPLES)
            test._hypothesis_internal_use_settings = capped
