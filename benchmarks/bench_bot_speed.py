"""How long ``net``, ``net2`` and ``net3`` think: every decision of whole games, by CPU time.

Run: ``python benchmarks/bench_bot_speed.py [GAMES]`` (or ``BENCH_SPEED_GAMES=20``; default
20 games a variant, seed ``BENCH_SPEED_SEED``, default 2026).  Per variant (``acey-deucey``
and ``classic``) ``net2`` plays ``net`` GAMES games, then ``net3`` plays ``net`` as many, with
duplicate dice through the game
contract (:func:`aceydeucey.sim.tournament.play_pair`, as a tournament plays them); each
decision of either bot that has a choice (more than one legal action) is timed by the CPU
time of its thread around ``act`` and filed by kind: a checker ``play``, the ``double``
named after a 1-2, a ``cube`` decision (double or roll, take or drop).  It prints, per bot and kind,
the count, p50, p90, p99 and the maximum in milliseconds, and the share of decisions under
the target of the issue "The strongest bots": ``net`` under 20 ms, ``net2`` under 1 s (and
``net3``, the deepest, under the same second).

One pair of games per variant is played first, untimed, so that compiling or loading Numba's code
and the shipped networks does not count.  The machine may be shared: CPU time is what one
decision costs whatever else runs, but a busy machine's caches still slow it somewhat.
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict
from typing import Any

import numpy as np

from aceydeucey.core.registry import load_game, make_bot
from aceydeucey.sim.tournament import Entrant, play_pair

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_SPEED_GAMES", 20))
SEED = int(os.environ.get("BENCH_SPEED_SEED", 2026))
#: the games played: a label and the game's options (classic with the cube in money play,
#: for the cube decisions)
VARIANTS: dict[str, dict[str, str]] = {
    "acey-deucey": {"variant": "acey-deucey"},
    "classic": {"variant": "classic"},
    "classic-cube": {"variant": "classic", "cube": "money"},
}
#: the target of each bot, in ms (p99 of every decision)
TARGET_MS = {"net": 20.0, "net2": 1000.0, "net3": 1000.0}
#: the bots timed, each against ``net``
DEEP_BOTS = ("net2", "net3")
CUBE_WORDS = {"double", "roll", "take", "drop", "beaver"}

#: (variant, bot, kind) -> CPU ms of each decision
TIMES: dict[tuple[str, str, str], list[float]] = defaultdict(list)


def kind_of(legal: list[str]) -> str:
    """``cube``, ``double`` (naming the double after a 1-2) or ``play``."""
    if set(legal) <= CUBE_WORDS:
        return "cube"
    if all(text.startswith("double ") for text in legal):
        return "double"
    return "play"


class Timed:
    """A bot whose decisions with a choice are timed into :data:`TIMES` (when ``on``)."""

    on = False

    def __init__(self, variant: str, name: str, seed: int | None) -> None:
        self.variant = variant
        self.name = name
        self.bot = make_bot("backgammon", name, seed=seed)

    def seated(self, game: Any, seat: int) -> None:
        self.bot.seated(game, seat)

    def act(self, observation: dict[str, Any]) -> str:
        legal = observation["legal_actions"]
        start = time.thread_time()
        action: str = self.bot.act(observation)
        spent = (time.thread_time() - start) * 1e3
        if Timed.on and len(legal) > 1:
            TIMES[(self.variant, self.name, kind_of(legal))].append(spent)
        return action


def entrant(variant: str, name: str) -> Entrant:
    def factory(seed: int | None = None) -> Timed:
        return Timed(variant, name, seed)

    return Entrant(name, factory)


def main() -> None:
    print(f"  {GAMES} games a variant and bot, net2 and net3 vs net, seed {SEED}; CPU ms")
    for variant, options in VARIANTS.items():
        game = load_game("backgammon", **options)
        for deep in DEEP_BOTS:
            bots = entrant(variant, deep), entrant(variant, "net")
            Timed.on = False
            play_pair(game, *bots, SEED + 1, 0)  # compile and load, untimed (one pair: 2 games)
            Timed.on = True
            clock = time.process_time()
            for pair in range(GAMES // 2):
                play_pair(game, *bots, SEED, pair)
            cpu = time.process_time() - clock
            print(f"  {variant}, {deep} vs net: {GAMES} games in {cpu:.0f} s of CPU")
    print(
        f"  {'variant':<13} {'bot':<5} {'kind':<7} {'count':>6} {'p50':>8} {'p90':>8} "
        f"{'p99':>8} {'max':>8} {'under':>7}"
    )
    for (variant, name, kind), times in sorted(TIMES.items()):
        ms = np.array(times)
        p50, p90, p99 = np.percentile(ms, [50, 90, 99])
        under = float(np.mean(ms < TARGET_MS[name])) * 100
        print(
            f"  {variant:<13} {name:<5} {kind:<7} {len(ms):>6} {p50:>8.1f} {p90:>8.1f} "
            f"{p99:>8.1f} {ms.max():>8.1f} {under:>6.1f}%"
        )


if __name__ == "__main__":
    main()
