"""Numba kernels: where their machine code is cached, and building it in a separate process.

The fast paths (the backgammon move generator, the In-Between simulator, ...) are Numba
functions declared with ``cache=True``.  Compiling them takes seconds (the simulator's
parallel kernels about half a minute on a small machine) and is needed once per machine
and version: Numba keeps the machine code in its cache, from which a later process loads
it in under a second.

Where the cache lives
---------------------
In the user's cache folder, ``platformdirs.user_cache_path("aceydeucey") / "numba"``
(``~/.cache/aceydeucey/numba`` on Linux), never inside the installed package or a
checkout.  :func:`configure` (run when the package is imported, before any kernel module
imports Numba) puts it in ``NUMBA_CACHE_DIR``, unless the environment already names a
folder there, which is then respected.

Targets
-------
A target is a group of kernels with the function that compiles them by calling each once
(:data:`TARGETS`).  A kernel declared the standard way, ``@njit(cache=True)`` and called
by its target's function (directly or through the code it runs), is built with it.

A new kernel registers in two steps: a ``warm_up()`` in its module that calls each of its
entry points once with the argument types real calls use (a parallel and a serial entry
point are two kernels to Numba, as are two argument types), named by a :class:`Target` in
:data:`TARGETS` (with a ``name.*`` key in the ``kernels`` catalog, en and pt); and the
Python function through which callers reach the kernels marked ``@kernels.needs(name)``
(or a call of :func:`ensure` before the first kernel runs), so that the first use in a
process builds the target in a separate process, saying so, instead of compiling in
place.  A fast path that can answer without its kernel (the backgammon move generator)
calls :func:`request` instead and carries on meanwhile.

Building ahead, whatever the caller does
----------------------------------------
A build runs in a separate, detached process (:func:`request`), so the cache is written
however busy the process that asked for it is, and even if that one exits first; a
second process asking for the same target waits on the build's lock and then finds it
done, instead of compiling again.  A finished build leaves a stamp beside the cache: the
package files it loaded (sizes and modification times) and the Python and Numba it ran
on.  A rebuild after a file holding compiled code changed first removes Numba's cached
code of every package file the old build loaded, and the stamps of the other targets that
loaded one of them: Numba checks only a kernel's own file, so a kernel that calls into a
changed file would otherwise load its stale code.  Stamps, logs and locks are named per installed
package folder, so two checkouts sharing the user's cache do not undo each other.
:func:`ready` compares the stamp with the files as they are now, without importing
Numba, so a process knows at once whether loading a target costs a second (load it
now) or a compilation (start the build and carry on, or wait for it with
:func:`build`).  Both say on the terminal (standard error) what they are doing, in the
user's language.  ``aceydeucey warm`` builds every target now.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal, ParamSpec, TypeVar

__all__ = [
    "CACHE_ENV",
    "TARGETS",
    "Target",
    "available",
    "build",
    "cache_dir",
    "configure",
    "ensure",
    "log_path",
    "needs",
    "ready",
    "request",
]

#: The environment variable Numba reads its cache folder from.
CACHE_ENV = "NUMBA_CACHE_DIR"
#: The package's folder: the files a stamp lists are relative to it.
PACKAGE = Path(__file__).resolve().parent
#: Names this installed package folder in the stamps', logs' and locks' names.
_KEY = hashlib.sha1(str(PACKAGE).encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Target:
    """A group of kernels: ``function`` (``"module:name"``) compiles them by calling each
    once; ``about`` is the seconds a build takes on a small machine (said on the terminal);
    ``label`` the key of its name in the ``kernels`` catalog."""

    name: str
    function: str
    about: int
    label: str


#: Every target, by name.
TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target("backgammon", "aceydeucey.backgammon.generate:warm_up", 10, "name.backgammon"),
        Target("net", "aceydeucey.backgammon.net:warm_up", 10, "name.net"),
        Target("playouts", "aceydeucey.sim.playouts:warm_up", 40, "name.playouts"),
        Target("td", "aceydeucey.sim.td:warm_up", 40, "name.td"),
        Target("inbetween", "aceydeucey.sim.inbetween_runs:warm_up", 40, "name.inbetween"),
        Target("aces", "aceydeucey.aces_in_the_pot.analysis:warm_up", 5, "name.aces"),
    )
}

Status = Literal["ready", "building", "failed", "unavailable"]


def cache_dir() -> Path:
    """The folder of Numba's cache: ``NUMBA_CACHE_DIR`` when set, else the user's cache."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    from platformdirs import user_cache_path

    return user_cache_path("aceydeucey", appauthor=False) / "numba"


def configure() -> Path:
    """Point Numba's cache at :func:`cache_dir` (keeping a folder the environment names).

    Run when the package is imported.  If Numba was imported earlier, its configuration
    is updated too, which is enough as long as no kernel module has been imported yet.
    """
    folder = cache_dir()
    os.environ.setdefault(CACHE_ENV, str(folder))
    numba = sys.modules.get("numba")
    config = getattr(getattr(numba, "core", None), "config", None)
    if config is not None and not getattr(config, "CACHE_DIR", ""):
        config.CACHE_DIR = str(folder)
    return folder


# -- stamps -------------------------------------------------------------------------------


def _stamp_path(name: str) -> Path:
    return cache_dir() / f"aceydeucey-{name}-{_KEY}.json"


def _runtime() -> dict[str, object] | None:
    """Python's version and machine, and Numba's installed files (``None``: no Numba)."""
    spec = importlib.util.find_spec("numba")
    if spec is None or spec.origin is None:
        return None
    stat = os.stat(spec.origin)
    return {
        "python": list(sys.version_info[:2]),
        "machine": platform.machine(),
        "numba": [spec.origin, stat.st_mtime_ns, stat.st_size],
    }


def _package_files() -> dict[str, list[int]]:
    """The package's modules loaded in this process: relative path -> [mtime_ns, size]."""
    files: dict[str, list[int]] = {}
    for module in list(sys.modules.values()):
        origin = getattr(module, "__file__", None)
        if not origin:
            continue
        path = Path(origin).resolve()
        if PACKAGE in path.parents and path.suffix == ".py":
            stat = path.stat()
            files[path.relative_to(PACKAGE).as_posix()] = [stat.st_mtime_ns, stat.st_size]
    return dict(sorted(files.items()))


def available() -> bool:
    """Whether Numba is installed (found without importing it)."""
    return _runtime() is not None


def ready(name: str) -> bool:
    """Whether target ``name``'s cache is built for the package and Numba as they are now."""
    if name in _READY:
        return True
    try:
        stamp = json.loads(_stamp_path(name).read_text())
        if stamp["runtime"] != _runtime():
            return False
        for relative, (mtime, size) in stamp["files"].items():
            stat = (PACKAGE / relative).stat()
            if (stat.st_mtime_ns, stat.st_size) != (mtime, size):
                return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    _READY.add(name)
    return True


# -- building in a separate process ---------------------------------------------------------


def request(name: str, *, lang: str | None = None) -> Status:
    """Where target ``name`` stands, starting its build in a separate process if needed.

    ``"ready"``: load it now (about a second); ``"building"``: the build runs (started by
    this call, with a line on the terminal saying so, or by an earlier one); ``"failed"``:
    the build process failed (its log is beside the cache), compile in this process
    instead; ``"unavailable"``: Numba is not installed.  Cheap to call again.
    """
    target = TARGETS[name]
    with _LOCK:
        if name in _READY:
            return "ready"
        process = _BUILDS.get(name)
        if process is None:
            if _runtime() is None:
                return "unavailable"
            if ready(name):
                return "ready"
            if _BUILDING or name in _FAILED:  # a build process compiles in place
                return "failed"
            spawned = _spawn(target)
            if spawned is None:
                return "failed"
            process = _BUILDS[name] = spawned
            _say("building.background", target, lang, log=log_path(name))
        code = process.poll()
        if code is None:
            return "building"
        if code == 0 and ready(name):
            return "ready"
        return "failed"


def build(name: str, *, lang: str | None = None, progress: bool = True) -> bool:
    """Build target ``name`` in a separate process and wait for it; ``True`` once built.

    While it waits, the terminal shows what is being compiled and for how long (a line
    that counts the seconds when standard error is a terminal).  ``False`` when the build
    failed or Numba is missing: the caller then compiles in its own process, as Numba does.
    """
    target = TARGETS[name]
    with _LOCK:
        if name in _READY:
            return True
        if _BUILDING or name in _FAILED or _runtime() is None:
            return False
        if ready(name):
            return True
        process = _BUILDS.get(name)
        if process is None:
            spawned = _spawn(target)
            if spawned is None:
                return False
            process = _BUILDS[name] = spawned
    start = time.monotonic()
    stream = _terminal()
    live = progress and stream is not None and stream.isatty()
    if progress:
        _say("building.wait", target, lang)
    while True:
        try:
            code = process.wait(timeout=1.0)
            break
        except subprocess.TimeoutExpired:
            if live and stream is not None:
                # the counter alone is rewritten: a line the terminal wraps cannot be
                elapsed = _text("building.elapsed", lang, seconds=round(time.monotonic() - start))
                stream.write(f"\r{elapsed}")
                stream.flush()
    if live and stream is not None:
        stream.write("\n")
    built = code == 0 and ready(name)
    if built and progress:
        _say("built", target, lang, seconds=round(time.monotonic() - start, 1))
    elif not built:
        _say("build.failed", target, lang, log=log_path(name))
    return built


def _spawn(target: Target) -> subprocess.Popen[bytes] | None:
    """Start the detached process that builds ``target`` (its output goes to its log).

    ``None`` when it cannot start (a cache folder that cannot be written, say): the
    target is then left to the caller for the rest of this process, as a failed build.
    """
    folder = cache_dir()
    env = dict(os.environ)
    env[CACHE_ENV] = str(folder)
    # the child imports this very package, wherever it was found
    root = str(PACKAGE.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with log_path(target.name).open("ab") as log:
            return subprocess.Popen(
                [sys.executable, "-c", _CHILD, target.name, target.function],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=folder,
                start_new_session=True,
            )
    except OSError:
        _FAILED.add(target.name)
        return None


def log_path(name: str) -> Path:
    """The log of target ``name``'s builds (beside the cache)."""
    return cache_dir() / f"aceydeucey-{name}-{_KEY}.log"


def ensure(name: str, *, lang: str | None = None) -> None:
    """Have target ``name`` built before its kernels first run in this process.

    Once per process: a built target costs a look at its stamp; else it is built in a
    separate process while the terminal counts the seconds (:func:`build`).  When that
    fails, or Numba is missing, the kernels compile here on first call, as Numba does.
    """
    if name not in _ENSURED:
        build(name, lang=lang)
        _ENSURED.add(name)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def needs(name: str) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Mark a function that runs target ``name``'s kernels: it calls :func:`ensure` first."""

    def mark(function: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(function)
        def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            if name not in _ENSURED:
                ensure(name)
            return function(*args, **kwargs)

        return call

    return mark


#: the build process's program (``sys.argv[1:]``: the target's name and function)
_CHILD = "import aceydeucey.kernels as k; k._main()"


def _main() -> None:
    """The build process: compiles target ``sys.argv[1]`` by calling ``sys.argv[2]``
    (``module:function``) under the target's lock, unless it is found built."""
    global _BUILDING
    _BUILDING = True
    name, function = sys.argv[1], sys.argv[2]
    folder = cache_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f"aceydeucey-{name}-{_KEY}.lock").open("a") as lock:
        _lock(lock)
        if ready(name):  # another process built it while this one waited
            return
        _forget_stale(name)
        start = time.perf_counter()
        module, _, attribute = function.partition(":")
        getattr(importlib.import_module(module), attribute)()
        stamp = {
            "runtime": _runtime(),
            "files": _package_files(),
            "seconds": round(time.perf_counter() - start, 2),
        }
        partial = _stamp_path(name).with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(stamp, indent=1))
        os.replace(partial, _stamp_path(name))
        print(f"built {name} in {stamp['seconds']} s by process {os.getpid()}", flush=True)


def _forget_stale(name: str) -> None:
    """Before rebuilding ``name``: when a changed file holds compiled code (a kernel that
    others call, or whose constants they read), remove Numba's cached code of every package
    file the last build loaded, and the stamps of the other targets that loaded any of them.
    A change elsewhere (a plain module) leaves the cache to Numba's own check."""
    try:
        stamped = json.loads(_stamp_path(name).read_text())["files"]
        files = set(stamped)
    except (OSError, ValueError, KeyError, TypeError):
        return  # never built here: nothing cached can be stale
    cached = {relative for relative in files if _cache_entries(relative)}
    if not any(_changed(relative, stamped[relative]) for relative in cached):
        return
    for relative in cached:
        for entry in _cache_entries(relative):
            entry.unlink(missing_ok=True)
    for other in TARGETS:
        try:
            theirs = set(json.loads(_stamp_path(other).read_text())["files"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if other != name and cached & theirs:
            _stamp_path(other).unlink(missing_ok=True)
    _stamp_path(name).unlink(missing_ok=True)


def _changed(relative: str, stamp: object) -> bool:
    try:
        stat = (PACKAGE / relative).stat()
    except OSError:
        return True
    return [stat.st_mtime_ns, stat.st_size] != stamp


def _cache_entries(relative: str) -> list[Path]:
    """Numba's cache files of the package file ``relative`` (Numba's own naming: a folder
    per source folder, ``<folder name>_<sha1 of its path>``, files ``<module>.<function>``)."""
    source = PACKAGE / relative
    folder = (
        cache_dir()
        / f"{source.parent.name}_{hashlib.sha1(str(source.parent).encode()).hexdigest()}"
    )
    try:
        return [
            entry
            for entry in folder.iterdir()
            if entry.name.startswith(f"{source.stem}.") and entry.suffix in (".nbi", ".nbc")
        ]
    except OSError:
        return []


def _lock(handle: IO[str]) -> None:
    """Hold an exclusive lock on ``handle`` (released when it is closed)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: builds may overlap, still correct
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)


# -- what the terminal is told ---------------------------------------------------------------


def _terminal() -> IO[str] | None:
    """The process's own standard error (not a stream a test runner swapped in)."""
    return sys.__stderr__


def _text(key: str, lang: str | None, **values: object) -> str:
    from aceydeucey.locale import default_lang, t

    return t("kernels", key, lang or default_lang(), **values)


def _names(target: Target, lang: str | None) -> dict[str, object]:
    return {"name": _text(target.label, lang), "about": target.about}


def _say(key: str, target: Target, lang: str | None, *, end: str = "\n", **values: object) -> None:
    stream = _terminal()
    if stream is None:
        return
    try:
        stream.write(_text(key, lang, **_names(target, lang), **values) + end)
        stream.flush()
    except (OSError, ValueError):  # a closed or broken terminal: nothing to tell
        pass


#: targets found built in this process
_READY: set[str] = set()
#: targets :func:`ensure` has seen to in this process
_ENSURED: set[str] = set()
#: targets whose build process could not be started in this process
_FAILED: set[str] = set()
#: the build process started by this process, per target
_BUILDS: dict[str, subprocess.Popen[bytes]] = {}
_LOCK = threading.RLock()
#: whether this process is a build process (its target's function compiles in place)
_BUILDING = False
