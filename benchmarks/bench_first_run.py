"""The first runs after a fresh install: are short scripts fast from the second one on?

Run: ``python benchmarks/bench_first_run.py [SECONDS] [--no-simulator]`` (about half a
minute, plus the In-Between simulator's compilation, about a minute on a small machine).

A fresh install is an empty Numba cache: ``NUMBA_CACHE_DIR`` set to a new temporary
folder.  Three fresh processes in a row each run the same script for ``SECONDS`` (8 by
default): random backgammon games through the contract (uniform choice among
``legal_actions()``, chance drawn with ``random.choices`` over
``chance_distribution()``'s weights).  Each reports its games per second, when the
move-generation kernel was loaded (``generate.kernel_ready()``) and what it said on the
terminal.  The first compiles the kernel in a separate process and plays on the
reference generator meanwhile; the target is that the second already runs at the
kernel's speed, which the third (long after the compilation) shows.  Then the same for
the In-Between simulator: a short ``play_sessions`` in two fresh processes, the first
waiting for the compilation.  And the cost of loading the backgammon kernel from a warm
cache, in the calling thread.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

_GAMES = """
import json, random, sys, time
start = time.perf_counter()
import aceydeucey
from aceydeucey.backgammon import generate
seconds = float(sys.argv[1])
rng = random.Random(1)
game = aceydeucey.load_game("backgammon")
began = time.perf_counter()
games = kernel_games = 0
ready_at = None
while time.perf_counter() - began < seconds:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            dist = state.chance_distribution()
            state = state.apply(rng.choices(dist.actions, dist.weights)[0])
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    games += 1
    if generate.kernel_ready():
        if ready_at is None:
            ready_at = time.perf_counter() - began
        else:
            kernel_games += 1
elapsed = time.perf_counter() - began
print(json.dumps({"games": games, "seconds": elapsed, "ready_at": ready_at,
                  "kernel_games": kernel_games, "import": began - start}))
"""

_LOAD = """
import json, time
import aceydeucey
from aceydeucey import kernels
from aceydeucey.backgammon import generate
began = time.perf_counter()
ready = kernels.ready("backgammon")
generate.warm_up()
print(json.dumps({"ready": ready, "seconds": time.perf_counter() - began}))
"""

_SIM = """
import json, time
began = time.perf_counter()
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import play_sessions
batch = play_sessions(Rules.resolve(players=3), ("ev", "kelly", "random"), 10_000, seed=1)
print(json.dumps({"seconds": time.perf_counter() - began, "kernel": batch.seconds,
                  "hands": int(batch.hands.sum())}))
"""


def _run(code: str, env: dict[str, str], *args: str) -> tuple[dict[str, float], list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=True
    )
    said = [line.strip() for line in done.stderr.replace("\r", "\n").splitlines() if line.strip()]
    return json.loads(done.stdout.splitlines()[-1]), said


def _wait_for_builds(cache: str) -> None:
    """Let a build still running in the background finish before the folder is removed."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        locks = [f for f in os.listdir(cache) if f.endswith(".lock")]
        stamps = [f for f in os.listdir(cache) if f.endswith(".json")]
        if len(stamps) >= len(locks):
            return
        time.sleep(0.5)


def main(argv: list[str]) -> None:
    """``[SECONDS] [--no-simulator]``: the script's length, and whether to skip the
    In-Between simulator's part."""
    simulator = "--no-simulator" not in argv
    argv = [a for a in argv if a != "--no-simulator"]
    seconds = argv[0] if argv else "8"
    with tempfile.TemporaryDirectory(prefix="aceydeucey-numba-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        print(f"backgammon: {seconds} s of random games through the contract, fresh processes")
        for run in (1, 2, 3):
            out, said = _run(_GAMES, env, seconds)
            ready = out["ready_at"]
            when = "never" if ready is None else f"after {ready:.1f} s"
            after = ""
            if ready is not None and out["seconds"] - ready > 0.5:
                after = f", {out['kernel_games'] / (out['seconds'] - ready):.1f} games/s after"
            print(
                f"  run {run}: {out['games'] / out['seconds']:6.1f} games/s "
                f"({out['games']} games in {out['seconds']:.1f} s; kernel loaded {when}{after})"
            )
            for line in said:
                print(f"      said: {line}")
        out, _ = _run(_LOAD, env)
        print(
            f"  loading the kernel from the cache in the calling thread: {out['seconds']:.2f} s"
            f" (cache found built: {out['ready']})"
        )
        if simulator:
            print("In-Between simulator: 10,000 sessions of 3 players, fresh processes")
        for run in (1, 2) if simulator else ():
            out, said = _run(_SIM, env)
            print(
                f"  run {run}: {out['seconds']:.1f} s in all, of which {out['kernel']:.2f} s"
                f" in the kernel ({out['hands']:,} hands)"
            )
            for line in said:
                print(f"      said: {line}")
        _wait_for_builds(cache)


if __name__ == "__main__":
    main(sys.argv[1:])
