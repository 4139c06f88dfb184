"""Where a classic bot loses to GNU Backgammon: gnubg's equity loss of its checker plays, by phase.

Run: ``python benchmarks/bench_phases.py [--bot net|net2] [--games N] [--seed S]``
(default ``net``, 200 games, seed 2026).  The bot plays GNU Backgammon's 0-ply
(``tests/backgammon/gnubg_bot.py``) with duplicate dice, as in ``bench_networks.py
--versus gnubg``; at each of the bot's checker plays with a choice, every legal play is
valued by gnubg's 0-ply (cubeless money equity of the result, the opponent on roll; a play
that bears off the last checker by the points it wins) and the bot's play is charged the
difference from the best.  The decisions are split into
contact and race (pubeval's test: no checker of either side behind the other's rearmost).

Prints, for each phase: the decisions, the mean loss a decision, the loss a game (per game
of the bot), and the decisions over GNU Backgammon's thresholds for a doubtful play
(0.04), an error (0.08) and a blunder (0.16).  The judge is the opponent itself, so the
figures say where the bot's plays differ from gnubg's in gnubg's own eyes, not how much
each costs in truth; they point at the phase a better network must play better.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the gnubg adapter lives beside the tests

from tests.backgammon.gnubg_bot import GnubgBot, equity  # noqa: E402

from aceydeucey.backgammon.board import CHECKERS, Position  # noqa: E402
from aceydeucey.backgammon.bots import Net2Bot, NetBot, play_result, position_of  # noqa: E402
from aceydeucey.backgammon.cube import default_cube_choice  # noqa: E402
from aceydeucey.backgammon.evaluator import points_won  # noqa: E402
from aceydeucey.backgammon.generate import to_board  # noqa: E402
from aceydeucey.backgammon.pubeval import is_race  # noqa: E402
from aceydeucey.core.chance import Duplicate  # noqa: E402
from aceydeucey.core.registry import load_game  # noqa: E402
from aceydeucey.core.table import Table  # noqa: E402
from aceydeucey.sim.tournament import pair_seeds  # noqa: E402

#: GNU Backgammon's marks for a checker play, by the equity it gives away.
THRESHOLDS = (("doubtful", 0.04), ("error", 0.08), ("blunder", 0.16))


def worth(result: Position) -> float:
    """gnubg's 0-ply money equity of a play's result for the mover; a play that bears off
    the last checker is worth the points it wins (1, 2 or 3)."""
    if result.off[0] == CHECKERS:
        return float(points_won(to_board(result), "gammons"))
    return -equity(result.flip())


def judged(bot: type[NetBot], tally: dict[str, list[float]]) -> type[NetBot]:
    """``bot`` charging each of its checker plays gnubg's loss, into ``tally[phase]``."""

    class Judged(bot):
        def act(self, observation: dict[str, Any]) -> str:
            choice = str(super().act(observation))
            legal: list[str] = observation["legal_actions"]
            if len(legal) < 2 or default_cube_choice(legal) is not None:
                return choice
            position = position_of(observation)
            value = {text: worth(play_result(position, text)) for text in legal}
            loss = max(value.values()) - value[choice]
            tally["race" if is_race(position) else "contact"].append(loss)
            return choice

    return Judged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", choices=("net", "net2"), default="net")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    tally: dict[str, list[float]] = defaultdict(list)
    bot = judged(Net2Bot if args.bot == "net2" else NetBot, tally)
    game = load_game("backgammon", variant="classic")
    start = time.perf_counter()
    pairs = max(1, args.games // 2)
    for pair in range(pairs):
        dice = pair_seeds(args.seed, pair)[0]
        for seat in (0, 1):
            agents = [bot(), GnubgBot()]
            if seat:
                agents.reverse()
            Table(game, agents, chance=Duplicate(dice)).play()
    games = 2 * pairs
    print(
        f"{args.bot} against GNU Backgammon 0-ply, classic, {games:,} games (duplicate dice,"
        f" seed {args.seed}); gnubg's equity loss of {args.bot}'s checker plays:"
    )
    for phase in ("contact", "race"):
        losses = tally[phase]
        marks = ", ".join(
            f"{sum(x > limit for x in losses):,} over {limit} ({name})"
            for name, limit in THRESHOLDS
        )
        mean = sum(losses) / len(losses) if losses else 0.0
        print(
            f"  {phase:8} {len(losses):6,} decisions  {mean:.4f} a decision"
            f"  {sum(losses) / games:.3f} a game  {marks}"
        )
    print(f"  [{time.perf_counter() - start:.0f} s]")


if __name__ == "__main__":
    main()
