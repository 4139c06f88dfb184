"""Backgammon speed: the contract API, the batch simulator and legal-play generation.

Run: ``python benchmarks/bench_backgammon.py`` (about a minute and a half).

* Random self-play, games per second.  One Python loop drives both engines:
  uniform choice among ``legal_actions()`` and chance drawn with
  ``random.choices`` over the outcome weights, as a user would write it (our
  ``chance_distribution()``'s integer weights; OpenSpiel's
  ``chance_outcomes()`` probabilities), one ``random.Random`` for both.  The
  peer is OpenSpiel's C++ backgammon (``pyspiel``).  Its doubles are two decision
  nodes and its actions encode two checker moves, so
  games are counted, not decisions.  The two loops take turns for 25 rounds of
  about 0.4 s each; the ratio printed is the median of the rounds' ratios, by the
  clock and by this process's CPU time (on a shared machine the clock also counts
  time lost to other work), with their range.  The batch simulator plays whole games
  inside the Numba kernel.
* Legal-play generation, positions per second, on a fixed sample of
  (position, dice) pairs from seeded random games: the readable reference
  (``moves.legal_plays``), the game's generator on the fast core
  (``generate.legal_plays``, with its Play objects) and the bare kernel (its
  one-buffer entry point, as the game calls it).
  OpenSpiel's ``legal_actions()`` is timed on decision nodes of its own random
  classic games (it cannot be set to our positions), the same distribution of
  positions but not the same sample.

* The first move after a fresh install: seconds from a fresh process to the first
  legal plays, with an empty Numba cache (``NUMBA_CACHE_DIR`` set to a new
  directory) and then with the cache that run wrote; and when the kernel, compiled
  in the background meanwhile, was ready.

Numba compilation is otherwise excluded (everything is warmed up first).
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numba

import aceydeucey
from aceydeucey.backgammon import generate, kernel, moves
from aceydeucey.backgammon.game import BackgammonState
from aceydeucey.sim.backgammon import simulate

SECONDS = 10.0  # time box of each engine's game loop, shared out over the rounds
ROUNDS = 25  # alternating rounds of the engines compared (about 0.4 s each)


# -- one driver for both engines ---------------------------------------------------------


def contract_chance(state: Any, rng: random.Random) -> Any:
    """Chance's outcome as a user of the contract draws it: ``random.choices`` over the
    integer weights of ``chance_distribution()``."""
    dist = state.chance_distribution()
    return rng.choices(dist.actions, dist.weights)[0]


def openspiel_chance(state: Any, rng: random.Random) -> Any:
    """The same for OpenSpiel: ``random.choices`` over ``chance_outcomes()``'s probabilities."""
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    return rng.choices(actions, probs)[0]


def random_game(
    state: Any,
    step: Callable[[Any, Any], Any],
    chance: Callable[[Any, random.Random], Any],
    rng: random.Random,
) -> int:
    """Play one game at random; returns the number of decisions."""
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
            decisions += 1
        state = step(state, action)
    return decisions


Engine = tuple[Callable[[], Any], Callable[[Any, Any], Any], Callable[[Any, random.Random], Any]]


@dataclass
class Timing:
    """One engine's games over the alternating rounds of :func:`time_games`."""

    wall: list[float] = field(default_factory=list)  # games/s by the clock, per round
    cpu: list[float] = field(default_factory=list)  # games/s of this process's CPU time
    games: int = 0
    decisions: int = 0

    @property
    def rate(self) -> float:
        """Median games/s by the clock."""
        return statistics.median(self.wall)

    @property
    def mean_decisions(self) -> float:
        return self.decisions / self.games


def time_games(engines: Sequence[Engine], seed: int) -> list[Timing]:
    """Each engine's games per round, the engines taking turns for ``ROUNDS`` rounds.

    Within a round every engine plays for the same time, one after the other, so a
    change in the machine's load falls on all of them alike; :func:`ratio` compares
    them round by round.
    """
    rng = random.Random(seed)
    for new_state, step, chance in engines:
        random_game(new_state(), step, chance, rng)  # warm up
    timings = [Timing() for _ in engines]
    for _ in range(ROUNDS):
        for timing, (new_state, step, chance) in zip(timings, engines, strict=True):
            games = 0
            start, cpu = time.perf_counter(), time.process_time()
            while time.perf_counter() - start < SECONDS / ROUNDS or games < 2:
                timing.decisions += random_game(new_state(), step, chance, rng)
                games += 1
            timing.wall.append(games / (time.perf_counter() - start))
            timing.cpu.append(games / max(time.process_time() - cpu, 1e-9))
            timing.games += games
    return timings


def ratio(ours: Timing, peer: Timing) -> str:
    """The median and range of the per-round ratios, by the clock and by CPU time."""
    out = []
    for name, a, b in (("clock", ours.wall, peer.wall), ("CPU time", ours.cpu, peer.cpu)):
        ratios = sorted(x / y for x, y in zip(a, b, strict=True))
        out.append(
            f"{statistics.median(ratios):.2f} by {name} (rounds {ratios[0]:.2f}-{ratios[-1]:.2f})"
        )
    return f"ratio {out[0]}, {out[1]}; median of {len(ours.wall)} alternating rounds"


def contract_step(state: Any, action: Any) -> Any:
    return state.apply(action)


def openspiel_step(state: Any, action: Any) -> Any:
    state.apply_action(action)
    return state


# -- legal-play generation -----------------------------------------------------------------


def sample_nodes(variant: str, count: int, seed: int) -> list[BackgammonState]:
    """Play nodes of seeded random games (the fixed sample)."""
    game = aceydeucey.load_game("backgammon", variant=variant)
    rng = random.Random(seed)
    chance = aceydeucey.Seeded(seed)
    nodes: list[BackgammonState] = []
    while len(nodes) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(nodes) < count:
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
                continue
            if isinstance(state, BackgammonState) and state.phase == "play":
                nodes.append(state)
            state = state.apply(rng.choice(list(state.legal_actions())))
    return nodes


def time_generation(nodes: list[BackgammonState]) -> dict[str, float]:
    """Positions per second of each generator over the sample."""
    args = [(n.position, n.dice, n.game.rules, n.gates[n.mover], n._may_reenter()) for n in nodes]
    rates: dict[str, float] = {}
    start = time.perf_counter()
    for pos, dice, rules, enter, reenter in args:
        moves.legal_plays(pos, dice, rules, may_enter=enter, may_reenter=reenter)
    rates["reference"] = len(args) / (time.perf_counter() - start)
    for _ in range(2):  # warm up, then time
        start = time.perf_counter()
        for pos, dice, rules, enter, reenter in args:
            generate.legal_plays(pos, dice, rules, may_enter=enter, may_reenter=reenter)
        rates["fast"] = len(args) / (time.perf_counter() - start)
    # the kernel as the game calls it: each position's header (board, dice high to low,
    # parameters) written into the one buffer, and the call
    headers = [
        generate.board_of(pos)
        + bytes(sorted(dice, reverse=True)).ljust(4, b"\0")
        + bytes(int(p) for p in generate.fast_params(rules))
        for pos, dice, rules, _, _ in args
    ]
    buf = kernel.packed_buffer()
    head = memoryview(buf).cast("B")[: kernel.HEAD_PARAMS + kernel.N_PARAMS]
    for _ in range(2):
        start = time.perf_counter()
        for header in headers:
            head[:] = header
            kernel.generate_packed(buf)
        rates["kernel"] = len(args) / (time.perf_counter() - start)
    return rates


def time_openspiel_generation(count: int, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                action = openspiel_chance(state, rng)
            else:
                states.append(state.clone())
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    start = time.perf_counter()
    for state in states:
        state.legal_actions()
    return len(states) / (time.perf_counter() - start)


# -- the first move after a fresh install ----------------------------------------------------

_FIRST_MOVE = """
import time
start = time.perf_counter()
import aceydeucey
from aceydeucey.backgammon import generate
state = aceydeucey.load_game("backgammon").new_initial_state()
while state.is_chance_node():
    state = state.apply(state.legal_actions()[0])
plays = state.legal_actions()
first = time.perf_counter() - start
while not generate.kernel_ready():
    time.sleep(0.02)
print(first, time.perf_counter() - start, len(plays))
"""


def time_first_move() -> list[tuple[float, float]]:
    """(seconds to the first legal plays, seconds until the kernel is loaded) in fresh
    processes: the first with an empty Numba cache (a fresh install), the second with the
    cache the first one wrote."""
    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", _FIRST_MOVE],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            first, ready, _ = done.stdout.split()
            out.append((float(first), float(ready)))
    return out


# -- report ---------------------------------------------------------------------------------


def main() -> None:
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - optional peer
        pyspiel = None

    (fresh, fresh_ready), (cached, cached_ready) = time_first_move()
    print(
        f"first legal plays in a fresh process: {fresh:.2f} s with an empty Numba cache "
        f"(kernel compiled in the background, ready after {fresh_ready:.1f} s), "
        f"{cached:.2f} s with the cache (kernel ready after {cached_ready:.1f} s)"
    )
    generate.warm_up()  # the game's generator on the kernel from here on
    classic = aceydeucey.load_game("backgammon", variant="classic")
    acey = aceydeucey.load_game("backgammon", variant="acey-deucey")
    simulate("classic", games=2, seed=0)  # compile / load the kernels
    simulate("acey-deucey", games=2, seed=0)
    simulate("classic", games=2, seed=0, parallel=True)

    peer = None
    engines: list[Engine] = [(classic.new_initial_state, contract_step, contract_chance)]
    if pyspiel is not None:
        engines.append(
            (pyspiel.load_game("backgammon").new_initial_state, openspiel_step, openspiel_chance)
        )
    measured = time_games(engines, 1)
    ours = measured[0]
    if pyspiel is not None:
        peer = measured[1].rate
        print(f"classic OpenSpiel loop: {peer:.0f} games/s ({measured[1].games} games)")
    shown = f"OpenSpiel loop {peer:.0f} games/s" if peer else "no OpenSpiel"
    print(
        f"classic contract loop: {ours.rate:.0f} games/s ({shown}); "
        f"{ours.mean_decisions:.1f} decisions/game over {ours.games} games"
    )
    if pyspiel is not None:
        print(f"classic contract loop / OpenSpiel loop: {ratio(ours, measured[1])}")
    sim = simulate("classic", games=20_000, seed=1)
    versus = f", ratio {sim.games_per_second / peer:.1f}" if peer else ""
    print(
        f"classic batch simulator: {sim.games_per_second:.0f} games/s "
        f"({shown}{versus}); {float(sim.mean_decisions):.1f} decisions/game "
        f"over {sim.games} games"
    )

    sim = simulate("classic", games=20_000, seed=1, parallel=True)
    print(
        f"classic batch simulator on all {numba.get_num_threads()} cores: "
        f"{sim.games_per_second:.0f} games/s (same games as above)"
    )

    acey_loop = time_games([(acey.new_initial_state, contract_step, contract_chance)], 2)[0]
    rate = acey_loop.rate
    print(
        f"acey-deucey contract loop: {rate:.0f} games/s; "
        f"{acey_loop.mean_decisions:.1f} decisions/game over {acey_loop.games} games"
    )
    sim = simulate("acey-deucey", games=5_000, seed=2)
    print(
        f"acey-deucey batch simulator: {sim.games_per_second:.0f} games/s "
        f"(ratio to its contract loop {sim.games_per_second / rate:.1f}); "
        f"{float(sim.mean_decisions):.1f} decisions/game over {sim.games} games"
    )

    for variant, count in (("classic", 2_000), ("acey-deucey", 1_000)):
        rates = time_generation(sample_nodes(variant, count, seed=3))
        ref = rates["reference"]
        print(
            f"{variant} legal plays ({count} positions): reference {ref:,.0f} positions/s, "
            f"fast path {rates['fast']:,.0f} (ratio {rates['fast'] / ref:.1f}), "
            f"bare kernel {rates['kernel']:,.0f} (ratio {rates['kernel'] / ref:.1f})"
        )
    if pyspiel is not None:
        os_rate = time_openspiel_generation(2_000, seed=3)
        print(
            f"classic legal actions, OpenSpiel (2000 decision nodes of its own random games): "
            f"{os_rate:,.0f} positions/s"
        )


if __name__ == "__main__":
    main()
