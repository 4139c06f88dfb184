"""Analysis speed: a whole backgammon game rated decision by decision.

``aceydeucey analyze backgammon`` (``backgammon.analysis.analyze``) on games played by
the ``net`` bot against itself (seeded dice), in classic backgammon and in Acey-Deucey,
at 0-, 2- and 3-ply.  Prints the games' moves (the players' actions), the seconds
of the analysis and the seconds per 60 moves (issue's yardstick: a 60-move game at 0-ply
in under 1 s, at 2-ply in under 30 s), with the machine's load.  ``BENCH_ANALYSIS_GAMES``
sets the games per variant (2).
"""

from __future__ import annotations

import os
import time

from aceydeucey.backgammon.analysis import analyze
from aceydeucey.backgammon.bots import NetBot
from aceydeucey.core.chance import Seeded
from aceydeucey.core.record import Record
from aceydeucey.core.registry import load_game

GAMES = int(os.environ.get("BENCH_ANALYSIS_GAMES", "2"))


def played(variant: str, seed: int) -> tuple[Record, int]:
    """A game of ``net`` against itself, and its moves (the players' actions)."""
    game = load_game("backgammon", variant=variant)
    record = Record.start(game, ["net A", "net B"])
    bots = [NetBot(seed), NetBot(seed + 1)]
    for seat, bot in enumerate(bots):
        bot.seated(game, seat)
    state, chance = game.new_initial_state(), Seeded(seed)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = chance.choose(state)
        else:
            seat = state.current_player()
            action = bots[seat].act(state.observation(seat))
            moves += 1
        record.actions.append(str(action))
        state = state.apply(action)
    return record, moves


def main() -> None:
    for variant in ("classic", "acey-deucey"):
        games = [played(variant, 2026 + k) for k in range(GAMES)]
        records = [record for record, _ in games]
        moves = sum(n for _, n in games)
        analyze(records[0], ply=0)  # the network and the move generator, loaded once
        for ply in (0, 2, 3):
            seconds = 0.0
            for record in records:
                began = time.perf_counter()
                found = analyze(record, ply=ply)
                seconds += time.perf_counter() - began
                rated = len(found.decisions)
            per_60 = seconds / moves * 60 if moves else 0.0
            print(
                f"analysis {variant} {ply}-ply: {GAMES} games, {moves} moves "
                f"({rated} decisions rated in the last), {seconds:.2f} s; "
                f"{per_60:.2f} s per 60 moves "
                f"(load {os.getloadavg()[0]:.1f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
