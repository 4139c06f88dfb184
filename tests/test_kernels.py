"""Numba's cache lives outside the package, and kernels are built in a separate process."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from aceydeucey import kernels
from aceydeucey.kernels import Target


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty Numba cache (a fresh install) and no build known to this process."""
    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(kernels, "_READY", set())
    monkeypatch.setattr(kernels, "_BUILDS", {})
    monkeypatch.setattr(kernels, "_FAILED", set())
    return tmp_path


def _target(monkeypatch: pytest.MonkeyPatch, name: str, function: str) -> None:
    monkeypatch.setitem(kernels.TARGETS, name, Target(name, function, 1, "name.backgammon"))


def test_the_cache_is_in_the_user_cache_folder_unless_the_environment_names_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from platformdirs import user_cache_path

    monkeypatch.delenv(kernels.CACHE_ENV, raising=False)
    expected = user_cache_path("aceydeucey", appauthor=False) / "numba"
    assert kernels.cache_dir() == expected
    assert kernels.configure() == expected
    assert os.environ[kernels.CACHE_ENV] == str(expected)
    monkeypatch.setenv(kernels.CACHE_ENV, str(tmp_path))
    assert kernels.configure() == tmp_path  # the environment's folder is kept
    assert os.environ[kernels.CACHE_ENV] == str(tmp_path)


def test_numba_in_this_process_caches_outside_the_package() -> None:
    import numba.core.config

    folder = Path(numba.core.config.CACHE_DIR)
    assert str(folder)
    assert kernels.PACKAGE not in folder.resolve().parents


def test_a_build_runs_in_another_process_and_its_stamp_follows_the_files(
    monkeypatch: pytest.MonkeyPatch, fresh: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _target(monkeypatch, "probe", "aceydeucey.locale:default_lang")
    assert not kernels.ready("probe")
    assert kernels.build("probe", lang="en")
    assert "aceydeucey: compiling" in capfd.readouterr().err
    stamp = json.loads((fresh / "aceydeucey-probe.json").read_text())
    assert "locale/__init__.py" in stamp["files"] and "kernels.py" in stamp["files"]
    log = (fresh / "aceydeucey-probe.log").read_text()
    assert "built probe in" in log and not log.strip().endswith(f"process {os.getpid()}")
    assert kernels.ready("probe") and kernels.request("probe") == "ready"
    # a package file changed since: the stamp no longer holds
    mtime, size = stamp["files"]["locale/__init__.py"]
    stamp["files"]["locale/__init__.py"] = [mtime, size + 1]
    (fresh / "aceydeucey-probe.json").write_text(json.dumps(stamp))
    monkeypatch.setattr(kernels, "_READY", set())
    assert not kernels.ready("probe")


def test_request_starts_the_build_once_and_says_so_in_the_users_language(
    monkeypatch: pytest.MonkeyPatch, fresh: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _target(monkeypatch, "probe", "aceydeucey.locale:default_lang")
    statuses = [kernels.request("probe", lang="pt")]
    process = kernels._BUILDS["probe"]
    statuses.append(kernels.request("probe", lang="pt"))
    assert kernels._BUILDS["probe"] is process  # one build process
    process.wait(timeout=120)
    statuses.append(kernels.request("probe", lang="pt"))
    assert statuses[0] == "building" and statuses[-1] == "ready"
    said = capfd.readouterr().err
    assert said.count("aceydeucey: a compilar") == 1


def test_a_failed_build_is_said_and_left_to_the_caller(
    monkeypatch: pytest.MonkeyPatch, fresh: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _target(monkeypatch, "broken", "aceydeucey.locale:no_such_function")
    assert not kernels.build("broken", lang="en")
    assert kernels.request("broken") == "failed"
    assert "failed" in capfd.readouterr().err
    assert "AttributeError" in (fresh / "aceydeucey-broken.log").read_text()
    assert not (fresh / "aceydeucey-broken.json").exists()


def test_a_cache_folder_that_cannot_be_written_leaves_the_kernel_to_the_caller(
    monkeypatch: pytest.MonkeyPatch, fresh: Path
) -> None:
    blocked = fresh / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(kernels.CACHE_ENV, str(blocked / "numba"))
    _target(monkeypatch, "probe", "aceydeucey.locale:default_lang")
    assert kernels.request("probe") == "failed"
    assert not kernels.build("probe")
    assert "probe" not in kernels._BUILDS


@pytest.mark.slow
def test_a_fresh_install_plays_on_the_reference_until_the_kernel_is_built(
    monkeypatch: pytest.MonkeyPatch, fresh: Path
) -> None:
    # the first call starts the build in a separate process and answers with the
    # reference; a later call loads the kernel once the build is done
    import aceydeucey
    from aceydeucey.backgammon import generate

    game = aceydeucey.load_game("backgammon", variant="classic")
    state = game.new_initial_state().apply("opening 6-1")
    for name, value in (("_KERNEL", []), ("_STARTED", []), ("_NEXT_LOOK", [0.0])):
        monkeypatch.setattr(generate, name, value)
    first = generate.legal_plays(state.position, (6, 5), game.rules)
    assert not any(isinstance(p, generate._FastPlay) for p in first)
    assert "backgammon" in kernels._BUILDS
    plays: Any = first
    deadline = time.monotonic() + 600
    while not generate.kernel_ready() and time.monotonic() < deadline:
        time.sleep(0.3)
        plays = generate.legal_plays(state.position, (6, 5), game.rules)
    assert generate.kernel_ready()
    plays = generate.legal_plays(state.position, (6, 5), game.rules)
    assert all(isinstance(p, generate._FastPlay) for p in plays)
    assert [str(p) for p in plays] == [str(p) for p in first]
    assert kernels.ready("backgammon")
    assert list(fresh.rglob("*.nbi")), "the build wrote Numba's cache in the cache folder"
