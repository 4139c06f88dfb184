"""Where a classic bot loses to GNU Backgammon: gnubg's equity loss of its checker plays, by phase.

Run: ``python benchmarks/bench_phases.py [--bot net|net2] [--games N] [--seed S]
[--teachers K [--trials T] [--plies P]]`` (default ``net``, 200 games, seed 2026).  The
bot plays GNU Backgammon's 0-ply (``tests/backgammon/gnubg_bot.py``) with duplicate dice,
as in ``bench_networks.py --versus gnubg``; at each of the bot's checker plays with a
choice, every legal play is valued by gnubg's 0-ply (cubeless money equity of the result,
the opponent on roll; a play that bears off the last checker by the points it wins) and
the bot's play is charged the difference from the best.  The decisions are split into
contact and race (pubeval's test: no checker of either side behind the other's rearmost),
and the contact decisions also by kind (:func:`kinds`: back games, back checkers, the bar,
crashed boards, the race lead), a decision in every kind it is.

Prints, for each phase: the decisions, the mean loss a decision, the loss a game (per game
of the bot), and the decisions over GNU Backgammon's thresholds for a doubtful play
(0.04), an error (0.08) and a blunder (0.16).  The judge is the opponent itself, so the
figures say where the bot's plays differ from gnubg's in gnubg's own eyes, not how much
each costs in truth; they point at the phase a better network must play better.

``--teachers K`` then asks which teacher could show the network its errors: in the first
K contact decisions where gnubg charges the bot's play more than 0.04, the bot's play and
gnubg's are each valued, from the mover's side, by the network at 0-ply, two rolls deep
(``Evaluator.before_roll_many``, what ``net3`` reads) and by a truncated rollout of the
network's own 0-ply play (``Evaluator.rollout``, T trials of P plies, the same dice for
both plays). Prints how often each prefers gnubg's play, the decisions where the
rollouts' difference is over two standard errors either way, and the mean difference.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the gnubg adapter lives beside the tests

from tests.backgammon.gnubg_bot import GnubgBot, worth  # noqa: E402

from aceydeucey.backgammon.board import CHECKERS, Position  # noqa: E402
from aceydeucey.backgammon.bots import Net2Bot, NetBot, play_result, position_of  # noqa: E402
from aceydeucey.backgammon.cube import default_cube_choice  # noqa: E402
from aceydeucey.backgammon.evaluator import Evaluator  # noqa: E402
from aceydeucey.backgammon.generate import to_board  # noqa: E402
from aceydeucey.backgammon.pubeval import is_race  # noqa: E402
from aceydeucey.core.chance import Duplicate  # noqa: E402
from aceydeucey.core.registry import load_game  # noqa: E402
from aceydeucey.core.table import Table  # noqa: E402
from aceydeucey.sim.tournament import pair_seeds  # noqa: E402

#: GNU Backgammon's marks for a checker play, by the equity it gives away.
THRESHOLDS = (("doubtful", 0.04), ("error", 0.08), ("blunder", 0.16))


def kinds(position: Position) -> list[str]:
    """The kinds of contact position ``position`` (the mover on roll) is, by the mover's
    back checkers, the bar, either side's crashed board and the race."""
    own = [max(n, 0) for n in position.points]
    theirs = [max(-n, 0) for n in reversed(position.points)]
    back = sum(own[18:]) + position.bar[0]
    found = []
    if sum(n >= 2 for n in own[18:]) >= 2:
        found.append("two anchors or more in the opponent's home")
    if back >= 4:
        found.append("four back checkers or more")
    if position.bar[0] or position.bar[1]:
        found.append("a checker on the bar")
    if crashed(own, position.off[0]) or crashed(theirs, position.off[1]):
        found.append("a crashed board")
    mine, yours = position.pip_counts()
    if yours - mine > 20:
        found.append("race lead over 20")
    elif mine - yours > 20:
        found.append("behind by over 20")
    return found


def crashed(points: list[int], off: int) -> bool:
    """A side with six checkers or fewer left in play, its ace and deuce points' extra
    checkers aside (after GNU Backgammon's crashed class)."""
    left = CHECKERS - off - max(points[0] - 1, 0)
    return left <= 6 or (points[0] > 1 and left - max(points[1] - 1, 0) <= 6)


def judged(
    bot: type[NetBot], tally: dict[str, list[float]], disputed: list[tuple[Position, str, str]]
) -> type[NetBot]:
    """``bot`` charging each of its checker plays gnubg's loss, into ``tally[phase]``; its
    contact plays that gnubg charges more than 0.04 go to ``disputed`` (the position, the
    bot's play, gnubg's)."""

    class Judged(bot):
        def act(self, observation: dict[str, Any]) -> str:
            choice = str(super().act(observation))
            legal: list[str] = observation["legal_actions"]
            if len(legal) < 2 or default_cube_choice(legal) is not None:
                return choice
            position = position_of(observation)
            value = {text: worth(play_result(position, text)) for text in legal}
            best = max(value, key=value.__getitem__)
            loss = value[best] - value[choice]
            race = is_race(position)
            tally["race" if race else "contact"].append(loss)
            for name in () if race else kinds(position):
                tally[name].append(loss)
            if not race and loss > THRESHOLDS[0][1]:
                disputed.append((position, choice, best))
            return choice

    return Judged


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", choices=("net", "net2"), default="net")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--teachers", type=int, default=0)
    parser.add_argument("--trials", type=int, default=72)
    parser.add_argument("--plies", type=int, default=10)
    args = parser.parse_args()
    tally: dict[str, list[float]] = defaultdict(list)
    disputed: list[tuple[Position, str, str]] = []
    bot = judged(Net2Bot if args.bot == "net2" else NetBot, tally, disputed)
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
    phases = ("contact", "race", *sorted(set(tally) - {"contact", "race"}))
    width = max(map(len, phases))
    for phase in phases:
        losses = tally[phase]
        marks = ", ".join(
            f"{sum(x > limit for x in losses):,} over {limit} ({name})"
            for name, limit in THRESHOLDS
        )
        mean = sum(losses) / len(losses) if losses else 0.0
        print(
            f"  {phase:{width}} {len(losses):6,} decisions  {mean:.4f} a decision"
            f"  {sum(losses) / games:.3f} a game  {marks}"
        )
    print(f"  [{time.perf_counter() - start:.0f} s]")
    if args.teachers:
        teachers(disputed[: args.teachers], args.trials, args.plies)


def teachers(disputed: list[tuple[Position, str, str]], trials: int, plies: int) -> None:
    """How often each teacher prefers gnubg's play where the bot's differs (``--teachers``)."""
    evaluator = Evaluator(load_game("backgammon", variant="classic").rules)
    start = time.perf_counter()
    prefer: dict[str, int] = defaultdict(int)
    gaps: dict[str, list[float]] = defaultdict(list)
    clear = [0, 0]  # rollouts: gnubg's play better by two standard errors, the bot's
    for seed, (position, mine, theirs) in enumerate(disputed):
        valued: dict[str, list[Any]] = defaultdict(list)
        for text in (mine, theirs):
            result = play_result(position, text)
            if result.off[0] == CHECKERS:
                break  # a play that wins: no teacher needed
            board = to_board(result.flip())[None, :]
            valued["0-ply"].append(-float(evaluator.equity(evaluator.net.evaluate(board))[0]))
            deeper = evaluator.before_roll_many(board)
            valued["two rolls"].append(-float(evaluator.equity(deeper)[0]))
            # each trial's equity for the mover (the rollout's are for the side on roll)
            rolled = evaluator.rollout(board[0], trials, plies, seed)
            valued["rollout"].append(-evaluator.equity(rolled))
        else:
            for name, (a, b) in valued.items():
                gap = float(np.mean(b) - np.mean(a))
                prefer[name] += gap > 0
                gaps[name].append(gap)
            diff = valued["rollout"][1] - valued["rollout"][0]
            se = float(diff.std()) / np.sqrt(len(diff))
            clear[0] += float(diff.mean()) > 2 * se
            clear[1] += float(diff.mean()) < -2 * se
    n = len(gaps["rollout"])
    print(
        f"Teachers on {n:,} contact decisions where gnubg charges the bot's play over"
        f" {THRESHOLDS[0][1]} (rollouts: {trials} trials of {plies} plies):"
    )
    for name in ("0-ply", "two rolls", "rollout"):
        print(
            f"  {name:9} prefers gnubg's play in {100 * prefer[name] / max(n, 1):5.1f} %"
            f"  (mean gain of gnubg's play {np.mean(gaps[name]):+.4f})"
        )
    print(
        f"  rollouts: gnubg's play better by over two standard errors in {clear[0]:,},"
        f" the bot's in {clear[1]:,}  [{time.perf_counter() - start:.0f} s]"
    )


if __name__ == "__main__":
    main()
