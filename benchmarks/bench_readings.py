"""Networks trained for a reading of the rules, each against the default network under it.

Run: ``python benchmarks/bench_readings.py [GAMES] [CHECKPOINT]``. For every network of
``aceydeucey.backgammon.net.READINGS`` (Acey-Deucey's exact-count bear-off today), a
match of GAMES games (default 1,000; duplicate dice, seed ``BENCH_BOTS_SEED``, default
2026, ``BENCH_BOTS_WORKERS`` processes) under that reading: ``net`` with the network the
bots choose for it against ``net`` with the base network the scoring alone would give.
CHECKPOINT (a training checkpoint, ``.npz``) stands in for the reading's shipped file, to
measure a network before shipping it. Points per game of the reading's network ± one
standard error over the pairs.
"""

from __future__ import annotations

import functools
import os
import sys
import time

from aceydeucey.backgammon.bots import NetBot
from aceydeucey.backgammon.net import READINGS, Network, shipped, weights_path
from aceydeucey.core.registry import load_game
from aceydeucey.sim.tournament import Entrant, play_match

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
CHECKPOINT = sys.argv[2] if len(sys.argv) > 2 else None
SEED = int(os.environ.get("BENCH_BOTS_SEED", 2026))
WORKERS = int(os.environ.get("BENCH_BOTS_WORKERS", 1))


def main() -> None:
    print(
        f"Networks for a reading of the rules: {GAMES:,} games a match, duplicate dice, "
        f"seed {SEED}; points per game of the reading's network against the base network",
        flush=True,
    )
    for base, readings in READINGS.items():
        for name, options in readings:
            label = f"  {name} vs {base} under " + ", ".join(f"{k}={v}" for k, v in options.items())
            if CHECKPOINT is not None:
                network = Network.load(CHECKPOINT)
            elif weights_path(name).is_file():
                network = shipped(name)
            else:
                print(f"{label}: not available (no {weights_path(name).name} shipped)")
                continue
            game = load_game("backgammon", variant=base, **options)
            reading = Entrant(name, functools.partial(NetBot, network=network))
            default = Entrant(base, functools.partial(NetBot, network=shipped(base)))
            wall = time.perf_counter()
            result = play_match(game, reading, default, GAMES, seed=SEED, workers=WORKERS)
            low, high = result.ci95
            print(
                f"{label}: {result.points_per_game:+.3f} ± {result.stderr:.3f}"
                f"  (95% {low:+.3f} … {high:+.3f})  won {result.wins}-{result.losses}"
                f"  [{time.perf_counter() - wall:.0f} s; network of "
                f"{network.meta.get('games', 0):,} games]",
                flush=True,
            )


if __name__ == "__main__":
    main()
