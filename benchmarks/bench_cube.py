"""The cube against GNU Backgammon: the match equity table, cube decisions, money play.

Run: ``python benchmarks/bench_cube.py`` with, optionally, ``BENCH_CUBE_POSITIONS``
(positions per kind, default 3,000: the share agreeing moves by one standard error of
1.6 points on 500 positions, 0.6 on 3,000), ``BENCH_CUBE_GAMES`` (money games with the
cube, default 2,000; 0 skips them), ``BENCH_CUBE_SEED`` (default 2026),
``BENCH_CUBE_KINDS`` (the kinds of positions of part 2, default
``contact,race,crashed,primes``), ``BENCH_CUBE_NET`` (a weights file to measure in place of the
shipped classic network, in parts 2 and 3).  Needs ``gnubg``
(a test dependency; its adapters are ``tests/backgammon/gnubg_bot.py`` and
``gnubg_cube.py``).

1. The project's match equity table (:mod:`aceydeucey.backgammon.met`) against gnubg's
   own (``gnubg.met``): the largest difference up to 11-away (the target: under 1.5
   percentage points) and up to 25-away.
2. Cube decisions on random classic positions (contact, race; money play, centred
   cube, and a 7-point match at random scores): how often double / no double and
   take / pass agree with gnubg's 0-ply cubeful decision (its ``hint``), first with
   gnubg's own cubeless chances in :mod:`aceydeucey.backgammon.cubeful` (the model),
   then with the network's (what ``net`` and ``net2`` decide).  The target: 85 %.
   Two more kinds, a third as many each, of the positions the networks misread
   (:mod:`aceydeucey.backgammon.misread`, half of them with the other side on roll): a
   side hit late (``crashed``, once a runaway cube) and prime against prime (``primes``).
   Each row also gives the mean distance of the network's cubeless win chance from
   gnubg's (``net``, ``net2``).
3. Money play with the cube: ``net`` against gnubg 0-ply (checker play and cube),
   duplicate dice, points per game ± standard error (the target: ``net`` loses less
   than 0.25 points a game).
"""

from __future__ import annotations

import functools
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the gnubg adapters live with the tests

POSITIONS = int(os.environ.get("BENCH_CUBE_POSITIONS", 3000))
GAMES = int(os.environ.get("BENCH_CUBE_GAMES", 2000))
SEED = int(os.environ.get("BENCH_CUBE_SEED", 2026))
KINDS = os.environ.get("BENCH_CUBE_KINDS", "contact,race,crashed,primes").split(",")
NET = os.environ.get("BENCH_CUBE_NET")


def network() -> Any:
    """The network measured: ``BENCH_CUBE_NET``'s, else None (the shipped one)."""
    from aceydeucey.backgammon.net import Network

    return Network.load(NET) if NET else None


def met_rows() -> None:
    import gnubg

    from aceydeucey.backgammon.met import default_table

    table = default_table()
    for size in (11, 25):
        pre, post, _ = gnubg.met(size)
        worst, where = 0.0, (0, 0)
        for a in range(1, size + 1):
            for b in range(1, size + 1):
                d = abs(table.mwc(a, b) - pre[a - 1][b - 1])
                if d > worst:
                    worst, where = d, (a, b)
            d = abs(table.mwc(a, 1, post_crawford=True) - post[a - 1])
            if d > worst:
                worst, where = d, (a, 1)
        print(
            f"  MET up to {size}-away: largest difference {100 * worst:.2f} points of"
            f" percentage, at {where[0]}-away / {where[1]}-away",
            flush=True,
        )


def agreement_rows() -> None:
    from tests.backgammon.gnubg_cube import cube_decision, gnubg_probabilities, sample_positions

    from aceydeucey.backgammon import pubeval
    from aceydeucey.backgammon.cube_policy import probabilities
    from aceydeucey.backgammon.cubeful import (
        MatchStakes,
        MoneyStakes,
        Probabilities,
        cube_efficiency,
        decide,
    )
    from aceydeucey.backgammon.evaluator import Evaluator
    from aceydeucey.backgammon.met import default_table
    from aceydeucey.backgammon.misread import KINDS as MISREAD
    from aceydeucey.backgammon.misread import positions as misread
    from aceydeucey.backgammon.rules import BackgammonRules

    evaluator = Evaluator(BackgammonRules.resolve(variant="classic"), network())
    rng = random.Random(SEED)
    kinds = {
        "contact": lambda: sample_positions(POSITIONS, SEED, race=False),
        "race": lambda: sample_positions(POSITIONS, SEED + 1, race=True),
        **{
            kind: functools.partial(misread, kind, max(1, POSITIONS // 3), SEED) for kind in MISREAD
        },
    }
    unknown = ", ".join(sorted(set(KINDS) - set(kinds)))
    if unknown:
        raise SystemExit(f"BENCH_CUBE_KINDS: no kind {unknown} (the kinds: {', '.join(kinds)})")
    for label in KINDS:
        positions = kinds[label]()
        for setting in ("money", "7-point match"):
            counts = {"model": [0, 0], "net": [0, 0], "net2": [0, 0]}
            gaps = {"net": 0.0, "net2": 0.0}
            start = time.perf_counter()
            for position in positions:
                if setting == "money":
                    score, length, stakes = (0, 0), 0, MoneyStakes()
                else:
                    score = (rng.randrange(6), rng.randrange(6))  # both 2-away or more
                    length = 7
                    stakes = MatchStakes(7 - score[0], 7 - score[1], default_table())
                theirs = cube_decision(position, match_length=length, score=score)
                x = cube_efficiency(pubeval.is_race(position), position.pip_counts()[0])
                sources = {
                    "model": Probabilities.of(gnubg_probabilities(position)),
                    "net": probabilities(evaluator, position, 0),
                    "net2": probabilities(evaluator, position, 2),
                }
                gnubg_win = sources["model"].win
                for name in gaps:
                    gaps[name] += abs(sources[name].win - gnubg_win)
                for name, probs in sources.items():
                    mine = decide(probs, stakes=stakes, x=x)
                    counts[name][0] += (mine.action == "double") == (theirs[0] == "double")
                    counts[name][1] += (mine.response == "pass") == (theirs[1] == "pass")
            took = time.perf_counter() - start
            n = len(positions)
            shown = ", ".join(
                f"{name} {100 * d / n:.1f}% / {100 * t / n:.1f}%" for name, (d, t) in counts.items()
            )
            gap = ", ".join(f"{name} {value / n:.3f}" for name, value in gaps.items())
            print(
                f"  {label:<7} {setting:<13} {n} positions, double / take agreement: {shown};"
                f" win chance off gnubg's by: {gap}  [{took:.0f} s]",
                flush=True,
            )


def money_row() -> None:
    from tests.backgammon.gnubg_bot import GnubgBot

    from aceydeucey.backgammon.bots import NetBot
    from aceydeucey.core.registry import load_game
    from aceydeucey.sim.tournament import Entrant, entrant, play_match

    game = load_game("backgammon", variant="classic", cube="money")
    start = time.perf_counter()
    bot = (
        Entrant("net", functools.partial(NetBot, network=network()))
        if NET
        else entrant("backgammon", "net")
    )
    result = play_match(game, bot, Entrant("gnubg", GnubgBot), GAMES, seed=SEED)
    low, high = result.ci95
    print(
        f"  money with the cube, net vs gnubg 0-ply, {GAMES} games (duplicate dice):"
        f" {result.points_per_game:+.3f} ± {result.stderr:.3f} points a game"
        f" (95% {low:+.3f} … {high:+.3f})  [{time.perf_counter() - start:.0f} s]",
        flush=True,
    )


def main() -> None:
    print(f"The cube against GNU Backgammon (seed {SEED})", flush=True)
    met_rows()
    if POSITIONS:
        agreement_rows()
    if GAMES:
        money_row()


if __name__ == "__main__":
    main()
