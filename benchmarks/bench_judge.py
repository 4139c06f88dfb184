"""Classic checker plays judged by GNU Backgammon a few plies deep, on one fixed set of decisions.

Run: ``python benchmarks/bench_judge.py [BOT ...] [--decisions N] [--plies P] [--seed S]``.
A BOT is a weights file or ``shipped`` (the classic network the bots use), with ``:2`` or
``:3`` for ``net2`` or ``net3`` (``:0``, ``net``, by default), or ``gnubg`` (GNU
Backgammon's 0-ply choice, the opponent of ``bench_networks.py --versus gnubg``).

The decisions: the first N checker plays with a choice of the shipped classic network's
games against itself (``seed`` S, the trainer's self-play), bear-off races left out (the
exact table plays those). Every bot picks its play for each of them; GNU Backgammon values
each play's result P plies deep (its numbering: 0 is its network alone; cubeless money
equity, deterministic, ``tests/backgammon/gnubg_bot.py``), once for all the bots that chose
it. Prints, for each bot, the mean equity of its plays less that of the shipped network's
0-ply plays, ± one standard error of those paired differences, and the share of decisions
where its play differs.

Why: a match of 2,000 games with duplicate dice measures a bot to about ±0.028 points a
game, and two networks of one line differ by less than that. The same decisions for every
bot leave only the plays that differ to vary, so the figure is about ten times as precise
(±0.0002 points a decision over 10,000 decisions: about ±0.005 points a game). What it
measures is agreement with a stronger judge on the shipped network's own positions, not
play against an opponent; a gain here is checked by a match before a network ships.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from aceydeucey.backgammon import bearoff
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.evaluator import Evaluator
from aceydeucey.backgammon.generate import position_of_board
from aceydeucey.backgammon.net import Network, shipped_for
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.sim.playouts import SLOTS, TRACE_ROLL
from aceydeucey.sim.td import trace_game

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the gnubg adapter lives beside the tests
from tests.backgammon.gnubg_bot import worth  # noqa: E402

RULES = BackgammonRules.resolve(variant="classic")


def decisions(count: int, seed: int) -> list[tuple[Position, tuple[int, ...]]]:
    """The first ``count`` checker plays with a choice of the shipped network's self-play."""
    net = shipped_for(RULES)
    evaluator = Evaluator(RULES, net)
    found: list[tuple[Position, tuple[int, ...]]] = []
    game = 0
    while len(found) < count:
        _, events = trace_game(net, RULES, seed, first_game=game)
        game += 1
        rows = events[events[:, 0] == TRACE_ROLL]
        boards = rows[:, 4 : 4 + SLOTS].astype(np.int8)
        table = set(bearoff.race_rows(boards).tolist())
        for i, row in enumerate(rows):
            if i in table:
                continue
            d1, d2 = int(row[2]), int(row[3])
            dice = (d1,) * 4 if d1 == d2 else (d1, d2)
            position = position_of_board(boards[i].tobytes())
            if len(evaluator.rank_plays(position, dice)) > 1:
                found.append((position, dice))
    return found[:count]


def load(bot: str) -> tuple[Evaluator, int]:
    """The evaluator and ply of ``PATH[:PLY]`` (``shipped`` for the shipped network)."""
    path, _, ply = bot.partition(":")
    net = shipped_for(RULES) if path == "shipped" else Network.load(path)
    return Evaluator(RULES, net), int(ply or 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bots", nargs="*", default=["shipped:2"])
    parser.add_argument("--decisions", type=int, default=10_000)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=900)
    args = parser.parse_args()
    start = time.perf_counter()
    found = decisions(args.decisions, args.seed)
    judged: dict[Position, float] = {}

    def value(result: Position) -> float:
        """The judge's equity of a play's result for the mover."""
        if result not in judged:
            judged[result] = worth(result, args.plies)
        return judged[result]

    def plays(bot: str) -> np.ndarray:
        """The judge's value of each decision's play by ``bot``."""
        own = bot == "gnubg"  # GNU Backgammon's own 0-ply choice among the legal plays
        evaluator, ply = load("shipped" if own else bot)
        chosen = []
        for position, dice in found:
            ranked = evaluator.rank_plays(position, dice, ply=ply)
            results = [choice.play.result for choice in ranked if choice.play]
            chosen.append(value(max(results, key=worth) if own else results[0]))
        return np.array(chosen)

    base = plays("shipped")
    print(
        f"{len(found):,} decisions of the shipped classic network's self-play (seed"
        f" {args.seed}), judged by GNU Backgammon {args.plies}-ply; against the shipped"
        f" network's 0-ply plays [{time.perf_counter() - start:.0f} s]"
    )
    for bot in args.bots:
        began = time.perf_counter()
        gain = plays(bot) - base
        print(
            f"  {bot}: {gain.mean():+.5f} ± {gain.std(ddof=1) / np.sqrt(len(gain)):.5f}"
            f" points a decision, plays differ in {100 * np.mean(gain != 0):.1f} %"
            f"  [{time.perf_counter() - began:.0f} s]",
            flush=True,
        )


if __name__ == "__main__":
    main()
