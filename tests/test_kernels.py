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
    monkeypatch.setattr(kernels, "_ENSURED", set())
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
    stamp = json.loads(kernels._stamp_path("probe").read_text())
    assert "locale/__init__.py" in stamp["files"] and "kernels.py" in stamp["files"]
    log = kernels.log_path("probe").read_text()
    assert "built probe in" in log and not log.strip().endswith(f"process {os.getpid()}")
    assert kernels.ready("probe") and kernels.request("probe") == "ready"
    # a package file changed since: the stamp no longer holds
    mtime, size = stamp["files"]["locale/__init__.py"]
    stamp["files"]["locale/__init__.py"] = [mtime, size + 1]
    kernels._stamp_path("probe").write_text(json.dumps(stamp))
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
    assert "AttributeError" in kernels.log_path("broken").read_text()
    assert not kernels._stamp_path("broken").exists()


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


def _sources_with_kernels() -> set[str]:
    """The package's modules that declare a Numba function (relative to the package)."""
    return {
        path.relative_to(kernels.PACKAGE).as_posix()
        for path in kernels.PACKAGE.rglob("*.py")
        if path.name != "kernels.py" and "njit" in path.read_text()
    }


def test_every_module_with_a_kernel_is_loaded_by_a_target_build() -> None:
    # every target is built (the suite's set-up builds them; else this builds them now)
    # and every module declaring a Numba function is among the files a build loaded
    loaded: set[str] = set()
    for name in kernels.TARGETS:
        assert kernels.build(name, progress=False), name
        loaded |= set(json.loads(kernels._stamp_path(name).read_text())["files"])
    missing = _sources_with_kernels() - loaded
    assert not missing, f"kernels no target builds: {sorted(missing)}"
    assert "sim/td.py" in loaded and "aces_in_the_pot/analysis.py" in loaded


def test_every_target_has_a_name_in_both_languages() -> None:
    from aceydeucey.locale import t

    for target in kernels.TARGETS.values():
        names = {t("kernels", target.label, lang) for lang in ("en", "pt")}
        assert len(names) == 2 and target.label not in names, target.name


def test_a_marked_function_builds_its_target_once_before_it_runs(
    monkeypatch: pytest.MonkeyPatch, fresh: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _target(monkeypatch, "probe", "aceydeucey.locale:default_lang")
    calls: list[bool] = []

    @kernels.needs("probe")
    def run(value: int) -> int:
        calls.append(kernels.ready("probe"))
        return value + 1

    assert [run(1), run(2)] == [2, 3]
    assert calls == [True, True]  # built before the first call ran
    said = capfd.readouterr().err
    assert said.count("aceydeucey: compiling") == 1 and "is ready" in said
    assert run.__name__ == "run"


def test_a_rebuild_forgets_the_cached_code_of_the_files_its_last_build_loaded(
    monkeypatch: pytest.MonkeyPatch, fresh: Path
) -> None:
    # Numba checks only a kernel's own file: a kernel that calls into a changed file
    # would load stale code, so a rebuild removes what the last build's files cached,
    # and the stamps of other targets that loaded one of them
    import hashlib

    def entries(relative: str) -> Path:
        source = kernels.PACKAGE / relative
        digest = hashlib.sha1(str(source.parent).encode()).hexdigest()
        folder = fresh / f"{source.parent.name}_{digest}"
        folder.mkdir(exist_ok=True)
        return folder

    turn = entries("backgammon/turn.py")
    for name in ("turn.step-10.py311.nbi", "turn.step-10.py311.1.nbc", "turns.other-1.py311.nbi"):
        (turn / name).write_text("cached")
    aces = entries("aces_in_the_pot/analysis.py")
    (aces / "analysis._gauss_seidel-5.py311.nbi").write_text("cached")

    def stamp(name: str, files: list[str]) -> None:
        record = {"runtime": None, "files": {f: [0, 0] for f in files}}
        kernels._stamp_path(name).write_text(json.dumps(record))

    for name in ("playouts", "td", "aces"):
        _target(monkeypatch, name, "aceydeucey.locale:default_lang")
    stamp("playouts", ["backgammon/turn.py", "sim/playouts.py"])
    stamp("td", ["backgammon/turn.py", "sim/td.py"])
    stamp("aces", ["aces_in_the_pot/analysis.py"])
    kernels._forget_stale("playouts")
    assert sorted(p.name for p in turn.iterdir()) == ["turns.other-1.py311.nbi"]
    assert not kernels._stamp_path("playouts").exists()
    assert not kernels._stamp_path("td").exists()  # it loaded turn.py: rebuilt on next use
    assert kernels._stamp_path("aces").exists()  # shares no cached file
    assert (aces / "analysis._gauss_seidel-5.py311.nbi").exists()
    # a change in a file without compiled code leaves the cache to Numba's own check
    stat = (kernels.PACKAGE / "aces_in_the_pot/analysis.py").stat()
    record = {
        "runtime": None,
        "files": {
            "aces_in_the_pot/analysis.py": [stat.st_mtime_ns, stat.st_size],
            "aces_in_the_pot/rules.py": [0, 0],
        },
    }
    kernels._stamp_path("aces").write_text(json.dumps(record))
    kernels._forget_stale("aces")
    assert (aces / "analysis._gauss_seidel-5.py311.nbi").exists()


_NO_COMPILATION = """
import json, sys
import numba.core.caching as caching
from numba.core.registry import CPUDispatcher
import aceydeucey.kernels as k
for target in k.TARGETS.values():
    module, _, function = target.function.partition(":")
    getattr(__import__(module, fromlist=[function]), function)()
misses = {}
for name, module in list(sys.modules.items()):
    if not name.startswith("aceydeucey"):
        continue
    for attribute, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and not isinstance(value._cache, caching.NullCache):
            count = sum(value.stats.cache_misses.values())
            if count:
                misses[f"{name}.{attribute}"] = count
print(json.dumps(misses))
"""


@pytest.mark.slow
def test_a_process_after_the_build_compiles_no_kernel_itself() -> None:
    # once every target is built, running each target's entry points loads every cached
    # kernel from the cache: not one compiles in the calling process
    import subprocess
    import sys

    for name in kernels.TARGETS:
        assert kernels.build(name, progress=False), name
    done = subprocess.run(
        [sys.executable, "-c", _NO_COMPILATION], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == {}
    assert "compiling" not in done.stderr
