"""Choosing and ranking plays with the trained network: 0-ply and 2-ply.

:class:`Evaluator` answers, for a position and the dice in hand, every legal
play with its equity for the mover, best first (:meth:`Evaluator.rank_plays`),
and after a 1-2 the six doubles with the value of each one's best play
(:meth:`Evaluator.rank_doubles`).  The bots ``net`` and ``net2`` and the
``hint`` command use it.

What comes after a play decides how its result is evaluated (:meth:`Evaluator.next_turn`):
the opponent rolls next (the position is turned round and evaluated for the
opponent, then turned back), or the mover acts again: it names the double
after a fully played 1-2, or rolls again after a fully played named double or
natural doubles where the rules give an extra roll.  A play that bears off
the last checker is worth the game's result exactly.

* **0-ply**: each resulting position is evaluated by the network once (all
  plays in one NumPy batch).
* **2-ply**: the best few plays by 0-ply (:data:`TOP_2PLY`, and any play
  within :data:`WINDOW_2PLY` of the best) are looked at again: for each of the
  21 rolls of the side to act next, that side's best reply by 0-ply, averaged
  over the rolls with their probabilities (1/36 for doubles, 2/36 for the
  others), as the strong engines' 2-ply does.  Before a named double the side
  to act names the best double instead.

Races in which both sides are home are valued exactly from the one-sided bear-off table
(:mod:`.bearoff`) when it is built for these rules (``aceydeucey bearoff build``), rather
than by the network.

Equities are cubeless: points per game for Acey-Deucey (one point per checker
the loser has not borne off), money equity (±1, ±2, ±3) for gammon scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from aceydeucey.backgammon import bearoff, generate, kernel
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.net import Network, shipped_for
from aceydeucey.backgammon.notation import Play
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.turn import EV_PLAY, TurnSteps, play_fields
from aceydeucey.core.errors import AceyDeuceyError

__all__ = ["ROLLS", "TOP_2PLY", "WINDOW_2PLY", "Choice", "Evaluator", "points_won"]

#: The 21 distinct rolls, larger die first, with their probabilities (out of 36).
ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(6, 0, -1) for b in range(a, 0, -1)
)
#: How many of the 0-ply best plays 2-ply looks at again, at least.
TOP_2PLY = 4
#: ... and any other within this much equity of the 0-ply best (per point of scoring).
WINDOW_2PLY = 0.08


@dataclass(frozen=True)
class Choice:
    """One candidate: the play (or the double named, with its best play) and its value."""

    text: str
    equity: float
    #: the network's outputs for the mover (see ``net.OUTPUTS``)
    outputs: tuple[float, ...]
    play: Play | None = None
    #: the double named (``rank_doubles``), else 0
    double: int = 0


def points_won(board: np.ndarray[Any, Any], scoring: str) -> int:
    """Points won by the side that has just borne off its last checker (its board)."""
    if scoring == "per_checker":
        return CHECKERS - int(board[29])
    if scoring == "single" or board[29] > 0:
        return 1
    if board[25] > 0 or board[27] > 0 or bool(np.any(board[:6] < 0)):
        return 3
    return 2


class Evaluator:
    """The network's view of positions under one set of rules (not thread-safe)."""

    def __init__(self, rules: BackgammonRules, net: Network | None = None) -> None:
        self.rules = rules
        self.net = net if net is not None else shipped_for(rules)
        self.spec = self.net.spec
        self.params = kernel.move_params_of(rules)
        self._generator = kernel.Generator()
        self._scale = 15.0 if self.spec.name == "points" else 1.0
        #: the turn structure's step under these rules (what follows a play)
        self.turns = TurnSteps(rules)
        #: the exact one-sided bear-off table of these rules, when built
        self.bearoff = _bearoff_table(rules)

    # -- what follows a play ----------------------------------------------------------
    def next_turn(
        self, kind: str, dice: tuple[int, ...], used: int, chain: int
    ) -> tuple[bool, int]:
        """``(flip, pending)`` after playing ``used`` of ``dice`` (of ``kind``).

        ``flip``: the opponent acts next; else the mover acts again, to name a double
        after a 1-2 when ``pending`` is 1, or to roll or play a complement.  The turn
        step (:mod:`.turn`) answers.
        """
        fields = play_fields(tuple(dice), kind, chain)
        after, turned = self.turns.after(fields, EV_PLAY, used)
        return turned, 1 if after[0] == "double" else 0

    # -- values -----------------------------------------------------------------------
    def values(
        self, boards: np.ndarray[Any, Any], flip: bool, pending: int
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs for the mover of each resulting board (``(n, 32)``, the mover's side).

        Boards that bear off the mover's last checker get the game's result.
        """
        out = self.net.evaluate(boards, flip, 0 if flip else pending)
        if flip:
            out = self.spec.flip(out)
        if self.bearoff is not None and (flip or not pending):
            # a race with both sides home: exact, for the side on roll next
            for r in bearoff.race_rows(boards):
                mine, theirs = bearoff.board_counts(boards[r])
                if flip:
                    out[r] = self.spec.flip(self.race_outputs(theirs, mine))
                else:
                    out[r] = self.race_outputs(mine, theirs)
        for r in np.flatnonzero(boards[:, 28] == CHECKERS):
            out[r] = self.won(points_won(boards[r], self.rules.scoring))
        return out

    def race_outputs(
        self, on_roll: tuple[int, ...], other: tuple[int, ...]
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The outputs, for the side on roll, of a race with both sides home (exact)."""
        assert self.bearoff is not None
        v = bearoff.race_value(self.bearoff, on_roll, other)
        if self.spec.name == "points":
            return np.array([v.win, v.points_won / CHECKERS, v.points_lost / CHECKERS])
        return np.array([v.win, v.win_gammon, 0.0, v.lose_gammon, 0.0])

    def won(self, points: int) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The outputs of a game won by ``points`` (for the winner)."""
        res = np.zeros(self.spec.size)
        res[0] = 1.0
        if self.spec.name == "points":
            res[1] = points / CHECKERS
        else:
            res[1] = float(points >= 2)
            res[2] = float(points >= 3)
        return res

    def equity(self, outputs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """Equity of each output row for these rules: under single-game scoring a gammon
        counts one point like any win, so only the win output counts (``2 P(win) - 1``)."""
        if self.rules.scoring == "single" and self.spec.name == "gammons":
            single: np.ndarray[Any, Any] = 2.0 * np.asarray(outputs)[..., 0] - 1.0
            return single
        return self.spec.equity(outputs)

    def _plays(
        self, board: np.ndarray[Any, Any], dice: tuple[int, ...]
    ) -> tuple[np.ndarray[Any, Any], int]:
        results, _, _, used = self._generator.plays(
            board, np.array(dice, dtype=np.int64), self.params
        )
        return results, used

    def _best_reply(
        self, board: np.ndarray[Any, Any], dice: tuple[int, ...], kind: str, chain: int
    ) -> np.ndarray[Any, Any]:
        """Outputs of the 0-ply best play of ``dice`` for the side on roll of ``board``."""
        results, used = self._plays(board, dice)
        flip, pending = self.next_turn(kind, dice, used, chain)
        values = self.values(results, flip, pending)
        best: np.ndarray[Any, Any] = values[int(np.argmax(self.equity(values)))]
        return best

    def _best_double(self, board: np.ndarray[Any, Any], chain: int) -> np.ndarray[Any, Any]:
        """Outputs of the best named double's best play at 0-ply (side on roll of ``board``)."""
        options = [self._best_reply(board, (d,) * 4, "named", chain) for d in range(1, 7)]
        return max(options, key=lambda v: float(self.equity(v)))

    def lookahead(
        self, board: np.ndarray[Any, Any], pending: int, chain: int
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs, for the side to act in ``board``, one roll deep (the 2-ply of a play).

        Before a named double (``pending``): its best double at 0-ply.  Otherwise the
        average over the 21 rolls of that side's best 0-ply reply.
        """
        if pending:
            return self._best_double(board, chain)
        weights = np.array([weight for _, _, weight in ROLLS], dtype=np.float64)
        result: np.ndarray[Any, np.dtype[np.float64]] = weights @ self.roll_values(board, chain)
        return result / 36.0

    def roll_values(
        self, board: np.ndarray[Any, Any], chain: int = 0
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs of the side on roll's 0-ply best play of each of the 21 :data:`ROLLS`
        (rows in their order), for that side: what each roll is worth to it."""
        rows = []
        for a, b, _ in ROLLS:
            dice = (a,) * 4 if a == b else (a, b)
            rows.append(self._best_reply(board, dice, "roll", chain))
        return np.array(rows)

    # -- ranking ----------------------------------------------------------------------
    def rank_plays(
        self,
        position: Position,
        dice: tuple[int, ...],
        *,
        kind: str = "roll",
        chain: int = 0,
        ply: int = 0,
        may_enter: bool = True,
        may_reenter: bool = True,
    ) -> list[Choice]:
        """Every legal play of ``dice`` with its equity for the mover, best first."""
        plays = generate.legal_plays(
            position, dice, self.rules, may_enter=may_enter, may_reenter=may_reenter
        )
        boards = np.frombuffer(
            b"".join(_board_bytes(play) for play in plays), dtype=np.int8
        ).reshape(len(plays), kernel.SLOTS)
        used = len(dice) - len(plays[0].unused) if plays else 0
        flip, pending = self.next_turn(kind, dice, used, chain)
        values = self.values(boards, flip, pending)
        equities = self.equity(values)
        ranking = [int(r) for r in np.argsort(-equities, kind="stable")]
        if ply >= 2 and len(plays) > 1:
            # ranking is by 0-ply equity, so the plays to look at again are a prefix of it
            best = equities[ranking[0]]
            close = int(np.count_nonzero(equities >= best - WINDOW_2PLY * self._scale))
            looked, rest = ranking[: max(TOP_2PLY, close)], ranking[max(TOP_2PLY, close) :]
            next_chain = chain + 1 if pending else (0 if flip else chain)
            for r in looked:
                if boards[r, 28] == CHECKERS:
                    continue  # the game is won: its value is exact
                after = kernel.flip_board(boards[r]) if flip else boards[r]
                deep = self.lookahead(after, 0 if flip else pending, next_chain)
                values[r] = self.spec.flip(deep) if flip else deep
            equities = self.equity(values)
            # the plays looked at again rank above the others, among themselves by 2-ply
            ranking = sorted(looked, key=lambda r: -equities[r]) + rest
        return [
            Choice(str(plays[r]), float(equities[r]), tuple(map(float, values[r])), plays[r])
            for r in ranking
        ]

    def rank_doubles(self, position: Position, *, chain: int = 0, ply: int = 0) -> list[Choice]:
        """The six doubles to name after a 1-2, each worth its best play, best first."""
        choices = []
        for d in range(6, 0, -1):
            best = self.rank_plays(position, (d,) * 4, kind="named", chain=chain, ply=ply)[0]
            choices.append(Choice(f"double {d}", best.equity, best.outputs, best.play, double=d))
        return sorted(choices, key=lambda c: -c.equity)

    def position_value(self, position: Position, *, pending: bool = False) -> Choice:
        """The network's outputs and equity for the side on roll of ``position``."""
        board = generate.to_board(position).reshape(1, kernel.SLOTS)
        values = self.net.evaluate(board, False, int(pending))
        return Choice("", float(self.equity(values)[0]), tuple(map(float, values[0])))


def _bearoff_table(rules: BackgammonRules) -> bearoff.OneSided | None:
    """The full one-sided table of ``rules`` if it is built (never built here: a bot
    does not wait for it), else ``None``; ``None`` too for rules that have none."""
    try:
        return bearoff.one_sided(rules, build=False)
    except AceyDeuceyError:
        return None


def _board_bytes(play: Play) -> bytes:
    board = generate.result_board(play)
    return board if board is not None else generate.board_of(play.result)
