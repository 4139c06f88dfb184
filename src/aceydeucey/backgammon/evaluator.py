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
* **2-ply**: the best few plays by 0-ply (:data:`TOP_2PLY`, and any play within
  :data:`WINDOW_2PLY` of the best, :data:`MAX_2PLY` at most) are looked at again:
  for each of the 21 rolls of the side to act next, that side's best reply by
  0-ply, averaged over the rolls with their probabilities (1/36 for doubles, 2/36
  for the others) (GNU Backgammon's 1-ply, eXtreme Gammon's 2-ply); before a named
  double the side to act names the best double instead.  One Numba call does it for
  all the plays looked at (:meth:`Evaluator.best_replies`).  After a 1-2 the best
  :data:`DOUBLES_2PLY` doubles by 0-ply are looked at so.
* **3-ply**: after 2-ply, its best :data:`TOP_3PLY` plays that hand the turn to the
  opponent are looked at two rolls deep (:meth:`Evaluator.before_roll_many`): for
  each of the opponent's 21 rolls its best 0-ply reply, valued by the mover's own
  one-roll look (GNU Backgammon's 2-ply, eXtreme Gammon's 3-ply).  A filter in
  stages, as those engines filter: 0-ply for every play, 2-ply for the few, 3-ply
  for the best of those.
* **Rollouts** (:meth:`Evaluator.rollout`): games played on from a position by the
  0-ply bot for a few plies, the luck of each roll taken out.

Races in which both sides are home are valued exactly from the one-sided bear-off table
(:mod:`.bearoff`) when it is built for these rules (``aceydeucey bearoff build``), rather
than by the network.

Equities are cubeless: points per game for Acey-Deucey (one point per checker
the loser has not borne off), money equity (±1, ±2, ±3) for gammon scoring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from aceydeucey import kernels
from aceydeucey.backgammon import bearoff, generate, kernel
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.net import Network, best_replies, shipped_for
from aceydeucey.backgammon.notation import Play
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.turn import EV_PLAY, TurnSteps, play_fields
from aceydeucey.core.errors import AceyDeuceyError

__all__ = [
    "BLEND_2PLY",
    "DOUBLES_2PLY",
    "HANDS",
    "MAX_2PLY",
    "ROLLS",
    "TOP_2PLY",
    "TOP_3PLY",
    "WINDOW_2PLY",
    "Choice",
    "Evaluator",
    "points_won",
]

#: The 21 distinct rolls, larger die first, with their probabilities (out of 36).
ROLLS: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, 1 if a == b else 2) for a in range(6, 0, -1) for b in range(a, 0, -1)
)
#: How many of the 0-ply best plays 2-ply looks at again, at least.
TOP_2PLY = 4
#: ... and any other within this much equity of the 0-ply best (per point of scoring).
WINDOW_2PLY = 0.08
#: ... but never more than this many in all (the best by 0-ply; ``None``: no limit).
MAX_2PLY: int | None = 8
#: The weight of the one-roll look in a play's 2-ply value, the rest its 0-ply value
#: (1.0: the look alone, as before 2026-12-07; docs/bots.md, "2-ply blended with 0-ply").
BLEND_2PLY = 0.5
#: How many of the 2-ply best plays 3-ply looks at again, two rolls deep.
TOP_3PLY = 3
#: After a 1-2, 2-ply looks at the best this many doubles by 0-ply (their best plays),
#: the others keep their 0-ply values and rank below.
DOUBLES_2PLY = 3
#: The hands of the side to act next, in the order :meth:`Evaluator.best_replies` takes
#: them: a roll (the 21 :data:`ROLLS`), or the double it names (1 to 6, four dice each).
HANDS: dict[str, tuple[tuple[int, ...], ...]] = {
    "roll": tuple((a,) * 4 if a == b else (a, b) for a, b, _ in ROLLS),
    "named": tuple((d,) * 4 for d in range(1, 7)),
}
#: The rolls' weights (out of 36), in the order of :data:`ROLLS`.
_WEIGHTS = np.array([weight for _, _, weight in ROLLS], dtype=np.float64)
#: The 36 ordered rolls, as indexes into :data:`ROLLS`.
_ORDERED = np.array([i for i, (_, _, weight) in enumerate(ROLLS) for _ in range(weight)])
#: Scoring codes of the kernel (:func:`.net.best_replies`).
_SCORING = {"per_checker": 0, "single": 1}


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


class _Ranked(NamedTuple):
    """The plays of one hand with their values (``values``, ``equities`` by row) and their
    order (``ranking``, best first), and what follows them (``flip``, ``pending``)."""

    plays: Any
    boards: np.ndarray[Any, Any]
    flipped: np.ndarray[Any, Any]
    values: np.ndarray[Any, Any]
    equities: np.ndarray[Any, Any]
    ranking: list[int]
    flip: bool
    pending: int
    chain: int
    #: how many plays (a prefix of ``ranking``) were looked at again at 2-ply
    looked: int = 0


class Evaluator:
    """The network's view of positions under one set of rules (not thread-safe).

    ``max_2ply`` and ``doubles_2ply`` bound what 2-ply looks at again (:data:`MAX_2PLY`,
    :data:`DOUBLES_2PLY`; ``None`` and 6 look at every play within the window and every
    double, as before the bounds); ``blend_2ply`` is the one-roll look's weight in a
    2-ply value (:data:`BLEND_2PLY`; 1.0 the look alone).
    """

    def __init__(
        self,
        rules: BackgammonRules,
        net: Network | None = None,
        *,
        max_2ply: int | None = MAX_2PLY,
        doubles_2ply: int = DOUBLES_2PLY,
        blend_2ply: float = BLEND_2PLY,
    ) -> None:
        if not 0.0 <= blend_2ply <= 1.0:
            raise ValueError(f"blend_2ply is a weight from 0 to 1, not {blend_2ply}")
        self.rules = rules
        self.net = net if net is not None else shipped_for(rules)
        self.spec = self.net.spec
        self.params = kernel.move_params_of(rules)
        self._generator = kernel.Generator()
        self._scale = 15.0 if self.spec.name == "points" else 1.0
        self.max_2ply = max_2ply
        self.doubles_2ply = doubles_2ply
        self.blend_2ply = blend_2ply
        #: the turn structure's step under these rules (what follows a play)
        self.turns = TurnSteps(rules)
        #: the exact one-sided bear-off table of these rules, when built
        self.bearoff = _bearoff_table(rules)
        # the kernel's view of the outputs and equity (see net.best_replies)
        perm, comp, coef = self.spec.arrays()
        bias = self.spec.bias
        if rules.scoring == "single" and self.spec.name == "gammons":
            coef = np.zeros(self.spec.size)
            coef[0], bias = 2.0, -1.0
        self._kernel_spec = (perm, comp, coef, float(bias))
        self._won = np.array([self.won(points) for points in range(CHECKERS + 1)])
        self._hands = {
            name: (
                np.array([[*dice, 0, 0, 0, 0][:4] for dice in hands], dtype=np.int64),
                np.array([len(dice) for dice in hands], dtype=np.int64),
            )
            for name, hands in HANDS.items()
        }
        self._turn_tables: dict[tuple[str, int], tuple[np.ndarray[Any, Any], ...]] = {}

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

    def _best_reply(
        self, board: np.ndarray[Any, Any], dice: tuple[int, ...], kind: str, chain: int
    ) -> np.ndarray[Any, Any]:
        """Outputs of the 0-ply best play of ``dice`` for the side on roll of ``board`` (the
        plain way, one hand at a time: :meth:`best_replies` does it for many)."""
        dice_array = np.array(dice, dtype=np.int64)
        results, _, _, used = self._generator.plays(board, dice_array, self.params)
        flip, pending = self.next_turn(kind, dice, used, chain)
        values = self.values(results, flip, pending)
        best: np.ndarray[Any, Any] = values[int(np.argmax(self.equity(values)))]
        return best

    def _turn_table(self, kind: str, chain: int) -> tuple[np.ndarray[Any, Any], ...]:
        """``(flips, pendings)``: :meth:`next_turn` of each hand of ``HANDS[kind]`` (rows)
        after playing ``u`` of its dice (column ``u``)."""
        key = (kind, chain)
        table = self._turn_tables.get(key)
        if table is None:
            flips = np.zeros((len(HANDS[kind]), 5), dtype=np.int64)
            pendings = np.zeros((len(HANDS[kind]), 5), dtype=np.int64)
            for r, dice in enumerate(HANDS[kind]):
                for used in range(len(dice) + 1):
                    flips[r, used], pendings[r, used] = self.next_turn(kind, dice, used, chain)
            table = self._turn_tables[key] = (flips, pendings)
        return table

    def best_replies(
        self, boards: np.ndarray[Any, Any], kind: str = "roll", chain: int = 0
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs (``(k, hands, outputs)``) of the 0-ply best play of each hand of
        ``HANDS[kind]`` (the 21 rolls, or the six named doubles) for the side on roll of
        each of the ``k`` boards, for that side: what :meth:`_best_reply` gives hand by
        hand, in one call of the Numba kernel (:func:`.net.best_replies`)."""
        return self._replies(boards, kind, chain, keep=False)[0]

    @kernels.needs("net")
    def _replies(
        self, boards: np.ndarray[Any, Any], kind: str, chain: int, *, keep: bool
    ) -> tuple[np.ndarray[Any, np.dtype[np.float64]], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """:meth:`best_replies`; with ``keep``, also each best play's board (``(k, hands,
        SLOTS)``, the mover's side) and where a deeper look goes on from it (``(k,
        hands)`` bools): the play hands the turn to the opponent with the game going on,
        and the network chose it (a hand valued from the bear-off table is not)."""
        boards = np.ascontiguousarray(np.atleast_2d(boards), dtype=np.int8)
        dice_sets, n_dice = self._hands[kind]
        flips, pendings = self._turn_table(kind, chain)
        perm, comp, coef, bias = self._kernel_spec
        net = self.net
        k_boards, hands = boards.shape[0], len(n_dice)
        best = np.zeros((k_boards, hands, self.spec.size))
        flagged = np.zeros((k_boards, hands), dtype=np.int64)
        turned = np.zeros((k_boards, hands), dtype=np.int64)
        chosen = np.zeros((k_boards if keep else 0, hands, kernel.SLOTS), dtype=np.int8)
        code = best_replies(
            boards, dice_sets, n_dice, self.params, flips, pendings, net.w1, net.b1, net.w2,
            net.b2, perm, comp, coef, bias, _SCORING.get(self.rules.scoring, 2), self._won,
            self.bearoff is not None, self._generator.work_space, best, flagged, chosen,
            turned,
        )  # fmt: skip
        if code < 0:
            raise RuntimeError("fast move generation overflowed its result table")
        for k, r in np.argwhere(flagged):
            # a race with both sides home among the plays: the table's exact values
            best[k, r] = self._best_reply(boards[k], HANDS[kind][r], kind, chain)
        return best, chosen, (turned != 0) & (flagged == 0)

    def before_roll(
        self, board: np.ndarray[Any, Any], chain: int = 0, *, rolls: int = 1
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs, for the side on roll of ``board`` before its roll, ``rolls`` rolls deep.

        One roll: :meth:`lookahead` (the average over the 21 rolls of the best 0-ply
        play).  Two: each roll's best 0-ply play is valued by the opponent's one-roll
        look (:meth:`lookahead_many`, one call for the 21 positions) where it hands the
        turn over, else (another roll, a named double, the game's end, a race from the
        bear-off table) at 0-ply as before; then the same average.  What the cube
        decisions read (:mod:`.cube_policy`)."""
        if rolls <= 1:
            return self.lookahead(board, 0, chain)
        result: np.ndarray[Any, np.dtype[np.float64]] = self.before_roll_many(
            np.asarray(board)[None, :], chain
        )[0]
        return result

    def before_roll_many(
        self, boards: np.ndarray[Any, Any], chain: int = 0
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """:meth:`before_roll` two rolls deep of each of the boards (rows): one call of the
        kernel for their 21 rolls each, one for the opponent's rolls after all of them."""
        best, chosen, deeper = self._replies(boards, "roll", chain, keep=True)
        where = np.argwhere(deeper)
        if where.size:
            turned = np.array([kernel.flip_board(chosen[k, r]) for k, r in where])
            best[where[:, 0], where[:, 1]] = self.spec.flip(self.lookahead_many(turned, 0, 0))
        result: np.ndarray[Any, np.dtype[np.float64]] = (
            np.einsum("r,kro->ko", _WEIGHTS, best) / 36.0
        )
        return result

    def rollout(
        self, board: np.ndarray[Any, Any], trials: int = 36, plies: int = 10, seed: int = 0
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Truncated rollouts of ``board`` before its roll: each trial's outputs (``(trials,
        outputs)``) for the side on roll, their mean the rollout's estimate.

        Each trial plays on for ``plies`` plies, both sides taking their best 0-ply play of
        the roll drawn, and is valued by the outputs after its last ply at 0-ply, less the
        luck of every roll on the way: the outputs of the roll drawn, less their mean over
        the 21 rolls (variance reduction, as GNU Backgammon's rollouts do; the luck has
        mean zero, so the estimate keeps its mean and sheds most of its spread). A trial
        stops early where the game ends, where the mover acts again (a named double, an
        extra roll) or where a race is valued from the bear-off table. Trial ``i`` opens
        with the ordered roll ``i mod 36`` (36 trials see each first roll once), the
        later rolls drawn from ``seed``: rollouts of the same seed see the same dice.
        One call of :meth:`best_replies`'s kernel a ply for all the trials still going.
        """
        if trials < 1 or plies < 1:
            raise ValueError(f"a rollout needs a trial and a ply at least: {trials}, {plies}")
        spec = self.spec
        dice = np.random.default_rng(seed).integers(0, 36, size=(trials, plies))
        dice[:, 0] = np.arange(trials) % 36
        boards = np.repeat(np.asarray(board, dtype=np.int8)[None, :], trials, axis=0)
        values = np.zeros((trials, spec.size))
        alive = np.arange(trials)
        ours = True  # whether the side to move is the one the values are for
        for ply in range(plies):
            best, chosen, deeper = self._replies(boards[alive], "roll", 0, keep=True)
            if not ours:
                best = spec.flip(best)
            rows = np.arange(len(alive))
            roll = _ORDERED[dice[alive, ply]]
            got = best[rows, roll]
            values[alive] += np.einsum("r,kro->ko", _WEIGHTS, best) / 36.0 - got
            going = deeper[rows, roll] & (ply < plies - 1)
            values[alive[~going]] += got[~going]
            for k in np.flatnonzero(going):
                boards[alive[k]] = kernel.flip_board(chosen[k, roll[k]])
            alive = alive[going]
            ours = not ours
            if not alive.size:
                break
        return values

    def lookahead(
        self, board: np.ndarray[Any, Any], pending: int, chain: int
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs, for the side to act in ``board``, one roll deep (the 2-ply of a play).

        Before a named double (``pending``): its best double at 0-ply.  Otherwise the
        average over the 21 rolls of that side's best 0-ply reply.
        """
        result: np.ndarray[Any, np.dtype[np.float64]] = self.lookahead_many(
            np.asarray(board)[None, :], pending, chain
        )[0]
        return result

    def lookahead_many(
        self, boards: np.ndarray[Any, Any], pending: int, chain: int
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """:meth:`lookahead` of each of the boards (rows), in one call of the kernel."""
        if pending:  # the first best of the doubles 1..6
            best = self.best_replies(boards, "named", chain)
            pick = np.argmax(self.equity(best), axis=1)
            named: np.ndarray[Any, np.dtype[np.float64]] = best[np.arange(len(best)), pick]
            return named
        best = self.best_replies(boards, "roll", chain)
        return np.array([_WEIGHTS @ rows / 36.0 for rows in best]).reshape(len(best), -1)

    def roll_values(
        self, board: np.ndarray[Any, Any], chain: int = 0
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs of the side on roll's 0-ply best play of each of the 21 :data:`ROLLS`
        (rows in their order), for that side: what each roll is worth to it."""
        result: np.ndarray[Any, np.dtype[np.float64]] = self.best_replies(
            np.asarray(board)[None, :], "roll", chain
        )[0]
        return result

    # -- ranking ----------------------------------------------------------------------
    def _rank0(
        self,
        position: Position,
        dice: tuple[int, ...],
        kind: str,
        chain: int,
        may_enter: bool = True,
        may_reenter: bool = True,
    ) -> _Ranked:
        """Every legal play of ``dice`` with its 0-ply value, best first."""
        plays = generate.legal_plays(
            position, dice, self.rules, may_enter=may_enter, may_reenter=may_reenter
        )
        data = generate.packed_rows(plays)
        if data is not None:
            rows = np.frombuffer(data, dtype=np.int8).reshape(len(plays), kernel.ROW)
            boards = rows[:, : kernel.SLOTS]
            flipped = rows[:, kernel.ROW_FLIPPED : kernel.ROW_FLIPPED + kernel.SLOTS]
        else:
            boards = np.frombuffer(
                b"".join(_board_bytes(play) for play in plays), dtype=np.int8
            ).reshape(len(plays), kernel.SLOTS)
            flipped = np.array([kernel.flip_board(b) for b in boards]).reshape(-1, kernel.SLOTS)
        used = len(dice) - len(plays[0].unused) if plays else 0
        flip, pending = self.next_turn(kind, dice, used, chain)
        values = self.values(boards, flip, pending)
        equities = self.equity(values)
        ranking = [int(r) for r in np.argsort(-equities, kind="stable")]
        return _Ranked(plays, boards, flipped, values, equities, ranking, flip, pending, chain)

    def _deepen(self, ranked: _Ranked) -> _Ranked:
        """``ranked`` with its best plays by 0-ply looked at again at 2-ply: the best
        :data:`TOP_2PLY` and any within :data:`WINDOW_2PLY` of the best, at most
        ``max_2ply``; they rank above the others, among themselves by 2-ply (where the
        opponent rolls next, the look one roll deep blended with 0-ply, ``blend_2ply``)."""
        ranking, equities = ranked.ranking, ranked.equities
        if len(ranking) <= 1:
            return ranked
        # ranking is by 0-ply equity, so the plays to look at again are a prefix of it
        best = equities[ranking[0]]
        close = int(np.count_nonzero(equities >= best - WINDOW_2PLY * self._scale))
        count = max(TOP_2PLY, close)
        if self.max_2ply is not None:
            count = min(count, max(TOP_2PLY, self.max_2ply))
        looked, rest = ranking[:count], ranking[count:]
        flip, pending = ranked.flip, ranked.pending
        next_chain = ranked.chain + 1 if pending else (0 if flip else ranked.chain)
        values = ranked.values.copy()
        # a play that wins the game keeps its exact value
        deep = [r for r in looked if ranked.boards[r, 28] != CHECKERS]
        if deep and flip:
            zero = self.spec.flip(values[deep])  # the 0-ply values, for the opponent
            values[deep] = self.spec.flip(self._blended_look(ranked.flipped[deep], zero))
        elif deep:  # the mover acts again: the look alone
            values[deep] = self.lookahead_many(ranked.boards[deep], pending, next_chain)
        equities = self.equity(values)
        ranking = sorted(looked, key=lambda r: -equities[r]) + rest
        return ranked._replace(values=values, equities=equities, ranking=ranking, looked=count)

    def _blended_look(
        self, boards: np.ndarray[Any, Any], zero: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """:meth:`lookahead_many` of ``boards`` (the opponent to roll, ``zero`` their 0-ply
        outputs for it) with each roll's reply blended with ``zero`` by ``blend_2ply``
        where the network values a position after it that the other side rolls in, the
        parity opposite 0-ply's; exact values (the game's end, the bear-off table) and
        replies after which the opponent acts again stand as they are."""
        w = self.blend_2ply
        best, _, estimated = self._replies(boards, "roll", 0, keep=True)
        if w != 1.0:
            mixed = w * best + (1.0 - w) * np.asarray(zero)[:, None, :]
            best = np.where(estimated[:, :, None], mixed, best)
        result: np.ndarray[Any, np.dtype[np.float64]] = (
            np.einsum("r,kro->ko", _WEIGHTS, best) / 36.0
        )
        return result

    def _deepen3(self, ranked: _Ranked) -> _Ranked:
        """``ranked`` after :meth:`_deepen` with its best :data:`TOP_3PLY` plays by 2-ply
        looked at once more, two rolls deep (:meth:`before_roll_many` of the position the
        opponent rolls in); they rank above the others, among themselves by 3-ply.  Where
        the mover acts again (a named double, another roll) the 2-ply values stand."""
        if not ranked.flip or ranked.looked <= 1:
            return ranked
        top = ranked.ranking[: min(TOP_3PLY, ranked.looked)]
        deep = [r for r in top if ranked.boards[r, 28] != CHECKERS]
        if not deep:
            return ranked
        values = ranked.values.copy()
        values[deep] = self.spec.flip(self.before_roll_many(ranked.flipped[deep], 0))
        equities = self.equity(values)
        ranking = sorted(top, key=lambda r: -equities[r]) + ranked.ranking[len(top) :]
        return ranked._replace(values=values, equities=equities, ranking=ranking)

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
        ranked = self._rank0(position, dice, kind, chain, may_enter, may_reenter)
        if ply >= 2:
            ranked = self._deepen(ranked)
        if ply >= 3:
            ranked = self._deepen3(ranked)
        return [_choice(ranked, r) for r in ranked.ranking]

    def rank_doubles(self, position: Position, *, chain: int = 0, ply: int = 0) -> list[Choice]:
        """The six doubles to name after a 1-2, each worth its best play, best first.

        At 2-ply the best ``doubles_2ply`` of them by 0-ply (:data:`DOUBLES_2PLY`) are
        looked at again, and rank above the others, among themselves by 2-ply.
        """
        ranked = {d: self._rank0(position, (d,) * 4, "named", chain) for d in range(6, 0, -1)}

        def value(d: int) -> float:
            return float(ranked[d].equities[ranked[d].ranking[0]])

        order = sorted(ranked, key=lambda d: -value(d))  # stable: 6 .. 1 among equals
        looked = order
        if ply >= 2:
            looked = order[: self.doubles_2ply]
            for d in sorted(looked, reverse=True):
                ranked[d] = self._deepen(ranked[d])
            looked = sorted(sorted(looked, reverse=True), key=lambda d: -value(d))
        rest = [d for d in order if d not in looked]
        choices = []
        for d in looked + rest:
            best = _choice(ranked[d], ranked[d].ranking[0])
            choices.append(Choice(f"double {d}", best.equity, best.outputs, best.play, double=d))
        return choices

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


def _choice(ranked: _Ranked, row: int) -> Choice:
    play = ranked.plays[row]
    values = ranked.values[row]
    return Choice(str(play), float(ranked.equities[row]), tuple(map(float, values)), play)


def _board_bytes(play: Play) -> bytes:
    board = generate.result_board(play)
    return board if board is not None else generate.board_of(play.result)
