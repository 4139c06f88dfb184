"""Bear-off tables: what they cost to build and what they are worth in play.

Run: ``python benchmarks/bench_bearoff.py [RACES]`` (or ``BENCH_BEAROFF_RACES``, default
2,000).  For classic and Acey-Deucey (and Acey-Deucey's exact-count reading): the time to
build the one-sided table (or to load it when it is in the data folder already), then
RACES random races with both sides home, each played twice with the same dice and the
seats swapped, between ``net`` valuing races from the table and ``net`` asking its
network; in classic also the table-valued ``net`` against GNU Backgammon's 0-ply, which
values such races from its own bear-off databases (the peer: near 0 means as exact).
Prints points a game of the first bot ± one standard error over the pairs.
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import aceydeucey
from aceydeucey.backgammon import bearoff, generate
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.bots import NetBot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the gnubg adapter lives with the tests

RACES = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ.get("BENCH_BEAROFF_RACES", 2000))
SEED = 2026
READINGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {"variant": "classic"}),
    ("acey-deucey", {"variant": "acey-deucey"}),
    ("acey-deucey exact-count", {"variant": "acey-deucey", "bearoff_rule": "exact_only"}),
]


class TableNet(NetBot):
    """``net`` with the given one-sided table (``None``: the network alone)."""

    def __init__(self, table: bearoff.OneSided | None) -> None:
        super().__init__()
        self.table = table

    def evaluator(self, rules: Any) -> Any:
        made = super().evaluator(rules)
        made.bearoff = self.table
        return made


def random_race(rng: random.Random) -> Position:
    """Both sides home, each with 5 to 15 checkers left on its six points."""
    points = [0] * 24
    left = []
    for side in (0, 1):
        n = rng.randint(5, CHECKERS)
        left.append(n)
        for _ in range(n):
            p = min(rng.randrange(6), rng.randrange(6)) if rng.random() < 0.3 else rng.randrange(6)
            if side == 0:
                points[p] += 1
            else:
                points[23 - p] -= 1
    return Position(tuple(points), off=(CHECKERS - left[0], CHECKERS - left[1]))


def play(game: Any, position: Position, bots: tuple[Any, Any], dice_seed: int) -> float:
    """Seat 0's points in one race, seat 0 on roll; the k-th roll of each seat from one
    stream per seat (duplicate dice)."""
    streams = [random.Random(dice_seed * 2 + s) for s in (0, 1)]
    state = game.new_state(position=position, seat=0)
    for bot, seat in zip(bots, (0, 1), strict=True):
        bot.seated(game, seat)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [action for action, _ in outcomes]
            weights = [float(p) for _, p in outcomes]
            state = state.apply(streams[state.mover].choices(actions, weights)[0])
        else:
            seat = state.current_player()
            state = state.apply(bots[seat].act(state.observation(seat)))
    return float(state.returns()[0])


def match(game: Any, make_a: Any, make_b: Any) -> tuple[float, float, float]:
    rng = random.Random(SEED)
    pairs = []
    wall = time.perf_counter()
    for i in range(RACES):
        position = random_race(rng)
        first = play(game, position, (make_a(), make_b()), i)
        second = -play(game, position, (make_b(), make_a()), i)
        pairs.append((first + second) / 2)
    mean = sum(pairs) / len(pairs)
    var = sum((x - mean) ** 2 for x in pairs) / (len(pairs) - 1)
    return mean, math.sqrt(var / len(pairs)), time.perf_counter() - wall


def main() -> None:
    generate.warm_up()
    print(f"Bear-off tables: {RACES:,} random home races a match, played twice (seats swapped)")
    for label, options in READINGS:
        game = aceydeucey.load_game("backgammon", **options)
        had = bearoff.one_sided_path(game.rules).exists()
        wall, cpu = time.perf_counter(), time.process_time()
        table = bearoff.one_sided(game.rules)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        what = "loaded" if had else "built"
        print(f"  {label:<24} table {what} in {wall:.1f} s ({cpu:.1f} s CPU)", flush=True)
        mean, se, seconds = match(game, partial(TableNet, table), partial(TableNet, None))
        print(
            f"  {label:<24} net+table vs net {mean:+.4f} ± {se:.4f} points a game"
            f"  [{seconds:.0f} s]",
            flush=True,
        )
        if label == "classic" and importlib.util.find_spec("gnubg") is not None:
            from tests.backgammon.gnubg_bot import GnubgBot

            mean, se, seconds = match(game, partial(TableNet, table), GnubgBot)
            print(
                f"  {label:<24} net+table vs gnubg 0-ply {mean:+.4f} ± {se:.4f}"
                f"  [{seconds:.0f} s] (peer)",
                flush=True,
            )
            mean, se, seconds = match(game, partial(TableNet, None), GnubgBot)
            print(
                f"  {label:<24} net vs gnubg 0-ply {mean:+.4f} ± {se:.4f}  [{seconds:.0f} s]",
                flush=True,
            )


if __name__ == "__main__":
    main()
