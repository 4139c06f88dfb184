"""Backgammon bot strength: matches with duplicate dice, points per game ± standard error.

Run: ``python benchmarks/bench_bots.py [GAMES]`` (or ``BENCH_BOTS_GAMES=200``); each
match is GAMES games (default 2,000), in pairs with the seats swapped and the same
dice from each seat (:mod:`aceydeucey.sim.tournament`), seed ``BENCH_BOTS_SEED``
(default 2026).  ``BENCH_BOTS_WORKERS`` local processes share the work (default 1;
the figures do not depend on it).  About 45 minutes of CPU at 2,000 games (Acey-Deucey's
net2 against net alone about 15), and an hour more for classic net3 against GNU
Backgammon.

The matches (the first bot's points per game):

* ``acey-deucey``: net vs greedy, net2 vs net, greedy vs random;
* ``classic``: net vs pubeval, net, net2 and net3 vs GNU Backgammon 0-ply (the same dice
  for each, so their differences compare the look-aheads), pubeval vs random,
  pubeval vs greedy, greedy vs random, pubeval vs GNU Backgammon 0-ply (the peer:
  GNU Backgammon's 0-ply is known to win about +0.6 points a game from pubeval).

A bot that is not registered (``net`` before it lands) or cannot play the variant
is reported as not available.  GNU Backgammon is a test dependency, so its adapter is
``tests/backgammon/gnubg_bot.py``; without ``gnubg`` installed its rows are not
available either.  One more line measures what duplicate dice buy: pubeval vs greedy
again with independent dice, and the ratio of the two standard errors.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
from pathlib import Path

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import bot_names, load_game
from aceydeucey.sim.tournament import Entrant, MatchResult, entrant, play_match

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the gnubg adapter lives with the tests

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_BOTS_GAMES", 2000))
SEED = int(os.environ.get("BENCH_BOTS_SEED", 2026))
WORKERS = int(os.environ.get("BENCH_BOTS_WORKERS", 1))

MATCHES = [
    ("acey-deucey", "net", "greedy"),
    ("acey-deucey", "net2", "net"),
    ("acey-deucey", "greedy", "random"),
    ("classic", "net", "pubeval"),
    ("classic", "net", "gnubg"),
    ("classic", "net2", "gnubg"),
    ("classic", "net3", "gnubg"),
    ("classic", "pubeval", "random"),
    ("classic", "pubeval", "greedy"),
    ("classic", "greedy", "random"),
    ("classic", "pubeval", "gnubg"),
]


def make(name: str) -> Entrant:
    """A registered bot, or GNU Backgammon's 0-ply; KeyError with the reason if neither."""
    if name == "gnubg":
        if importlib.util.find_spec("gnubg") is None:
            raise KeyError("gnubg is not installed (pip install gnubg)")
        from tests.backgammon.gnubg_bot import GnubgBot

        return Entrant("gnubg", GnubgBot)
    if name not in bot_names("backgammon"):
        raise KeyError(f"no '{name}' bot registered")
    return entrant("backgammon", name)


def row(variant: str, first: str, second: str, *, duplicate: bool = True) -> MatchResult | None:
    label = f"  {variant:<12} {first:>8} vs {second:<8}"
    try:
        bots = make(first), make(second)
        game = load_game("backgammon", variant=variant)
        wall, cpu = time.perf_counter(), time.process_time()
        result = play_match(game, *bots, GAMES, seed=SEED, duplicate=duplicate, workers=WORKERS)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    except KeyError as exc:
        print(f"{label} not available: {exc.args[0]}", flush=True)
        return None
    except AceyDeuceyError as exc:
        print(f"{label} not available: {exc}", flush=True)
        return None
    low, high = result.ci95
    print(
        f"{label} {result.points_per_game:+.3f} ± {result.stderr:.3f}"
        f"  (95% {low:+.3f} … {high:+.3f})  won {result.wins}-{result.losses}"
        f"  [{wall:.0f} s, {cpu:.0f} s CPU here]",
        flush=True,
    )
    return result


def main() -> None:
    print(
        f"Bot strength: {GAMES:,} games a match, duplicate dice, seed {SEED}, "
        f"{WORKERS} worker(s); points per game of the first bot ± standard error",
        flush=True,
    )
    results = {(v, a, b): row(v, a, b) for v, a, b in MATCHES}
    duplicate = results[("classic", "pubeval", "greedy")]
    print("What duplicate dice buy (the same match, each game with its own dice):", flush=True)
    independent = row("classic", "pubeval", "greedy", duplicate=False)
    if duplicate is not None and independent is not None and duplicate.stderr > 0:
        ratio = independent.stderr / duplicate.stderr
        print(
            f"  standard error independent / duplicate: {ratio:.2f}"
            f" (the same precision takes {ratio * ratio:.1f}x the games without duplicate dice)",
            flush=True,
        )
    peer = results[("classic", "pubeval", "gnubg")]
    if peer is not None:
        print(
            f"  peer: GNU Backgammon 0-ply vs pubeval here {-peer.points_per_game:+.3f}"
            " (published: about +0.6)",
            flush=True,
        )


if __name__ == "__main__":
    main()
