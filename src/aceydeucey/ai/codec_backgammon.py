"""Backgammon (every variant) as numbers: Tesauro's board encoding plus what the variants add.

Actions: an index into the seat's legal actions as the contract lists them
(``observation(seat)["legal_actions"]``, the same order as ``state.legal_actions()``):
action ``i`` is the ``i``-th legal play (or named double after a 1-2).  A play is one
whole turn's use of the dice (the contract's ``Play``, plays reaching the same position
being one), so the turn structure stays the game's own and every variant's rules (entering
from off the board, the named double, chained rolls, complements) come from the engine.
The table has room for every possible decision: a play's resulting position is fixed by
the multiset of points its single moves start from (each one die's move from a point
lands on a fixed point), with at most four moves from 26 starting places (the 24 points,
the bar and off the board), so at most ``C(26 + 4, 4) = 27405`` distinct plays (counting
``pass``) exist at any node; a double's choice has six.  Learners that score each
legal play's resulting position (TD-Gammon's method) use the index only to say which
one they chose.

Features, all from the observer's side (``own`` then ``opp``): for each of the 24 points
(1 to 24 as the observer numbers them) Tesauro's four units per side (``n >= 1``,
``n >= 2``, ``n >= 3``, ``(n - 3) / 2``), then ``bar`` (``n / 2``), ``unentered`` and
``off`` (``n / 15``), ``pip`` (``/ 375``), ``mover`` (me, the opponent), ``phase``
(opening, roll, double, play, over), ``dice`` (how many of each face are in hand,
``/ 4``), ``dice_kind`` (none, roll, named, complement, remainder), ``naming_double``,
``named_double`` (its face), ``reroll_pending``, ``chain`` (1-2 bonuses this turn,
``/ 4``, clipped), ``entry_gate_passed`` and ``winner``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb
from typing import Any, ClassVar

from aceydeucey.ai.codec import Codec, Vector
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game

__all__ = ["MAX_DECISIONS", "BackgammonCodec"]

#: Starting places of a single move: 24 points, the bar, off the board (not yet entered).
SOURCES = 26
#: The most distinct plays of at most four moves: multisets of at most 4 of 26 sources.
MAX_DECISIONS = comb(SOURCES + 4, 4)
CHECKERS = 15
PHASES = ("opening", "roll", "double", "play", "over")
KINDS = ("", "roll", "named", "complement", "remainder")


class BackgammonCodec(Codec):
    """The backgammon encoding (see the module docstring)."""

    game_id: ClassVar[str] = "backgammon"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        add = self.layout.add
        self.s_points = add("points", 24 * 8, high=(CHECKERS - 3) / 2)
        self.s_bar = add("bar", 2, high=CHECKERS / 2)
        self.s_unentered = add("unentered", 2)
        self.s_off = add("off", 2)
        self.s_pip = add("pip", 2)
        self.s_mover = add("mover", 2)
        self.s_phase = add("phase", len(PHASES))
        self.s_dice = add("dice", 6)
        self.s_kind = add("dice_kind", len(KINDS))
        self.s_naming = add("naming_double", 1)
        self.s_named = add("named_double", 6)
        self.s_reroll = add("reroll_pending", 1)
        self.s_chain = add("chain", 1)
        self.s_gates = add("entry_gate_passed", 2)
        self.s_winner = add("winner", 2)
        self._finish()

    @property
    def num_actions(self) -> int:
        return MAX_DECISIONS

    def action_indices(self, legal: Sequence[str]) -> list[int | None]:
        if len(legal) > MAX_DECISIONS:
            raise ArgumentError("ai.too_many_plays", count=len(legal), limit=MAX_DECISIONS)
        return list(range(len(legal)))

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        obs = observation
        vec = self._vector()
        at = self.s_points.start
        for n in obs["points"]:
            mine, theirs = (n, 0) if n > 0 else (0, -n)
            _tesauro(vec, at, mine)
            _tesauro(vec, at + 4, theirs)
            at += 8
        vec[self.s_bar] = [b / 2 for b in obs["bar"]]
        vec[self.s_unentered] = [u / CHECKERS for u in obs["unentered"]]
        vec[self.s_off] = [o / CHECKERS for o in obs["off"]]
        vec[self.s_pip] = [p / (25 * CHECKERS) for p in obs["pip"]]
        mover = self._rel(obs, obs["mover"])
        assert mover is not None
        vec[self.s_mover.start + mover] = 1.0
        vec[self.s_phase.start + PHASES.index(obs["phase"])] = 1.0
        for face in obs["dice"]:
            vec[self.s_dice.start + face - 1] += 0.25
        vec[self.s_kind.start + KINDS.index(obs["dice_kind"])] = 1.0
        pending = obs["pending_double"]
        if pending is True:
            vec[self.s_naming] = 1.0
        elif pending is not False:
            vec[self.s_named.start + int(pending) - 1] = 1.0
        vec[self.s_reroll] = float(obs["reroll_pending"])
        vec[self.s_chain] = obs["chain"] / 4
        vec[self.s_gates] = [float(g) for g in obs["entry_gate_passed"]]
        winner = self._rel(obs, obs["winner"])
        if winner is not None:
            vec[self.s_winner.start + winner] = 1.0
        return self._clip(vec)


def _tesauro(vec: Vector, at: int, n: int) -> None:
    """Tesauro's four units for ``n`` checkers of one side on one point."""
    if n >= 1:
        vec[at] = 1.0
    if n >= 2:
        vec[at + 1] = 1.0
    if n >= 3:
        vec[at + 2] = 1.0
    if n > 3:
        vec[at + 3] = (n - 3) / 2
