"""One backgammon network against another: is a new network stronger than the one shipped?

Run: ``python benchmarks/bench_networks.py [NEW.npz [OLD.npz]] [--variant V] [--games N]
[--bot net|net2] [--versus BOT] [--workers N] [--seed S] [-o key=value ...]``.  Both
networks play as the same bot (``net`` by default: 0-ply checker plays; ``net2``: 2-ply),
under the rules of NEW's variant with the options given, in a match of duplicate dice
(each pair of games on the same dice from each seat, :mod:`aceydeucey.sim.tournament`).

- No NEW: the network shipped for ``--variant`` (default ``acey-deucey``) against the one
  shipped before it, read from the repository's history (the previous commit that changed
  its weights file); "not available" outside a git checkout.
- NEW alone: NEW against the network the bots use today for those rules
  (``net.shipped_for``), to measure a checkpoint before shipping it.
- ``--versus BOT``: NEW (or the shipped network) against another bot instead: a registered
  one (``pubeval``, ``greedy``...) or ``gnubg``, GNU Backgammon's 0-ply (its adapter is
  ``tests/backgammon/gnubg_bot.py``, as in ``bench_bots.py``).

Prints NEW's points per game ± one standard error over the pairs, the 95 % interval,
the games won and lost, each network's training games, and the time.
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import tempfile
import time
from pathlib import Path

from aceydeucey.backgammon.bots import Net2Bot, NetBot
from aceydeucey.backgammon.net import Network, shipped, shipped_for, weights_path
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.registry import load_game
from aceydeucey.sim.tournament import Entrant, entrant, play_match

ROOT = Path(__file__).resolve().parent.parent


def versus(name: str) -> Entrant:
    """A registered bot, or GNU Backgammon's 0-ply (``gnubg``, the tests' adapter)."""
    if name == "gnubg":
        import sys

        sys.path.insert(0, str(ROOT))  # the gnubg adapter lives with the tests
        from tests.backgammon.gnubg_bot import GnubgBot

        return Entrant("gnubg", GnubgBot)
    return entrant("backgammon", name)


def shipped_before(variant: str) -> Network | None:
    """The network shipped for ``variant`` before the current file, from git's history."""
    path = weights_path(variant)
    root = Path(__file__).resolve().parent.parent
    try:
        relative = path.resolve().relative_to(root)
        revisions = subprocess.run(
            ["git", "log", "-n", "2", "--format=%H", "--", str(relative)],
            cwd=root, capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        if len(revisions) < 2:
            return None
        data = subprocess.run(
            ["git", "show", f"{revisions[1]}:{relative}"], cwd=root, capture_output=True,
            check=True,
        ).stdout  # fmt: skip
    except (ValueError, OSError, subprocess.CalledProcessError):
        return None
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / path.name
        file.write_bytes(data)
        return Network.load(file)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("new", nargs="?")
    parser.add_argument("old", nargs="?")
    parser.add_argument("--variant", default="acey-deucey")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--bot", choices=("net", "net2"), default="net")
    parser.add_argument("--versus", default=None, metavar="BOT")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("-o", dest="options", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()

    options = dict(item.split("=", 1) for item in args.options)
    if args.new is None:
        new, before = shipped(args.variant), shipped_before(args.variant)
        if before is None:
            print(f"{args.variant}: no earlier shipped network in the history: not available")
            return
        old = before
    else:
        new = Network.load(args.new)
        if args.old:
            old = Network.load(args.old)
        else:
            old = shipped_for(BackgammonRules.resolve(variant=new.variant, **options))
    game = load_game("backgammon", variant=new.variant, **options)
    bot = NetBot if args.bot == "net" else Net2Bot
    first = Entrant("new", functools.partial(bot, network=new))
    second = Entrant("old", functools.partial(bot, network=old))
    against = f"old ({old.meta.get('games', 0):,})"
    if args.versus is not None:
        second = versus(args.versus)
        against = args.versus
    shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "default rules"
    print(
        f"{args.bot}: new network ({new.meta.get('games', 0):,} training games, encoding"
        f" {new.encoding}) against {against}, {new.variant}, {shown}; {args.games:,} games,"
        f" duplicate dice, seed {args.seed}",
        flush=True,
    )
    wall = time.perf_counter()
    result = play_match(game, first, second, args.games, seed=args.seed, workers=args.workers)
    low, high = result.ci95
    print(
        f"  new vs {second.name}: {result.points_per_game:+.3f} ± {result.stderr:.3f} points a game"
        f"  (95% {low:+.3f} … {high:+.3f})  won {result.wins}-{result.losses}"
        f"  [{time.perf_counter() - wall:.0f} s]",
        flush=True,
    )


if __name__ == "__main__":
    main()
