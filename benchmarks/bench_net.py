"""Benchmark of the backgammon network: training speed, evaluation speed, bot decisions.

Prints, per variant: TD(λ) self-play games per CPU second (the trainer's Numba
loop, 128 hidden units), positions evaluated per second by the sparse Numba
forward pass beside NumPy's dense one on the same boards (the ratio), and the
mean time of a 0-ply and a 2-ply decision of the shipped network.  CPU time
where it applies; the machine may be shared, so figures are indicative.
"""

from __future__ import annotations

import time

import numpy as np

from aceydeucey.backgammon.evaluator import Evaluator
from aceydeucey.backgammon.generate import position_of_board
from aceydeucey.backgammon.kernel import flip_board, move_params_of
from aceydeucey.backgammon.net import Network, encode, output_set_of, shipped
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.sim.playouts import game_params_of, trace_game
from aceydeucey.sim.td import Hyper, start_board, train_games

GAMES = {"acey-deucey": 300, "classic": 600}
ROLLS = [(6, 5), (3, 1), (4, 4), (2, 1), (6, 2)]


def main() -> None:
    for variant, games in GAMES.items():
        rules = BackgammonRules.resolve(variant=variant)
        start = start_board(rules)
        net = Network.initial(variant, output_set_of(rules.scoring).name, 128, seed=1)
        train_games(net, rules, start, 0, 5, 1, Hyper())  # compile
        clock = time.process_time()
        stats = train_games(net, rules, start, 5, games, 1, Hyper())
        cpu = time.process_time() - clock
        print(
            f"{variant}: training {games / cpu:,.0f} games per CPU second "
            f"({stats.mean_decisions:.0f} decisions a game)"
        )

        _, events = trace_game(start, move_params_of(rules), game_params_of(rules), 3)
        boards = np.ascontiguousarray(np.repeat(events[events[:, 0] == 3][:, 4:], 20, axis=0))
        boards = boards.astype(np.int8)
        trained = shipped(variant)
        trained.evaluate(boards[:2])
        clock = time.perf_counter()
        trained.evaluate(boards)
        sparse = len(boards) / (time.perf_counter() - clock)
        clock = time.perf_counter()
        trained.forward(encode(boards))
        dense = len(boards) / (time.perf_counter() - clock)
        print(
            f"  evaluation: {sparse:,.0f} positions/s sparse (Numba), {dense:,.0f} dense "
            f"(NumPy), ratio {sparse / dense:.2f}"
        )

        evaluator = Evaluator(rules)
        positions = [
            position_of_board(flip_board(np.ascontiguousarray(e[4:], dtype=np.int8)).tobytes())
            for e in events[events[:, 0] == 3][::10]
            if e[4 + 28] < 15
        ][:8]
        for ply in (0, 2):
            evaluator.rank_plays(positions[0], (3, 1), ply=ply)
            clock = time.perf_counter()
            count = 0
            for position in positions:
                for a, b in ROLLS:
                    evaluator.rank_plays(position, (a,) * 4 if a == b else (a, b), ply=ply)
                    count += 1
            ms = (time.perf_counter() - clock) / count * 1e3
            print(f"  {ply}-ply decision: {ms:.2f} ms (mean of {count})")


if __name__ == "__main__":
    main()
