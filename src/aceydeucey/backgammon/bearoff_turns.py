"""The turn of one side bearing off, as a tree of its choices: what the bear-off tables
(:mod:`.bearoff`, :mod:`.bearoff_two`) are computed from.

Nothing here knows how checkers move or how a turn goes on: the plays come from the
engine's move generator and what follows each play from the one turn step, so the tree
is right for every reading of the rules the engine plays.  A leaf is ``(END, ())`` (the
last checker is off), ``(TURN, counts)`` (the turn is over at ``counts``) or ``(AGAIN,
counts)`` (another roll of the same turn); a node is ``(MAX, children)``, the side's
choice, or ``(AVG, children)``, chance (a double after a 1-2 that is rolled).
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterator
from typing import Any

from aceydeucey.backgammon import generate
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.kernel import move_params_of
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.turn import (
    EV_DOUBLE,
    EV_PLAY,
    EV_ROLL,
    G_ACEY,
    G_ACEY_BOTH,
    G_ACEY_FULL,
    G_CHAIN_LIMIT,
    G_COMPLEMENT,
    G_DOUBLES_REROLL,
    G_NAMED,
    PLAY_ENDS,
    TurnSteps,
    play_fields,
)
from aceydeucey.core.errors import ArgumentError

__all__ = [
    "AGAIN",
    "AVG",
    "END",
    "MAX",
    "MAX_CHECKERS",
    "ROLLS",
    "TURN",
    "Counts",
    "HomeTurns",
    "Tree",
    "bearoff_key",
    "checkers_choose",
    "checkers_error",
    "flatten",
    "home_counts",
    "iter_rolls",
    "pips",
    "positions",
]

#: Most checkers a one-sided table holds (the whole side).
MAX_CHECKERS = CHECKERS
#: The 21 rolls, larger die first, with their chances out of 36.
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(6, 0, -1) for b in range(a, 0, -1))

Counts = tuple[int, int, int, int, int, int]


def positions(max_checkers: int) -> list[Counts]:
    """Every home position of at most ``max_checkers`` checkers, fewest pips first."""
    found = [
        c for c in itertools.product(range(max_checkers + 1), repeat=6) if sum(c) <= max_checkers
    ]
    found.sort(key=lambda c: (pips(c), c))
    return found  # type: ignore[return-value]


def pips(counts: tuple[int, ...]) -> int:
    return sum((i + 1) * n for i, n in enumerate(counts))


def home_counts(position: Position, side: int = 0) -> Counts | None:
    """The side's checkers on its points 1..6, or ``None`` unless all its checkers still
    in play are there (none on the bar, none unentered, none farther out)."""
    if position.bar[side] or position.unentered[side]:
        return None
    points = position.points if side == 0 else tuple(-n for n in reversed(position.points))
    if any(n > 0 for n in points[6:]):
        return None
    return tuple(max(n, 0) for n in points[:6])  # type: ignore[return-value]


def _position(counts: tuple[int, ...]) -> Position:
    """The position with ``counts`` on the mover's home points and nothing in the way:
    the opponent's 15 checkers sit on its own 1-point, which no play of the mover's
    reaches."""
    points = list(counts) + [0] * 17 + [-CHECKERS]
    return Position(tuple(points), off=(CHECKERS - sum(counts), 0))


def checkers_error(checkers: int) -> ArgumentError:
    """The refusal of a table of ``checkers`` a side."""
    return ArgumentError("bg.bearoff.checkers", most=MAX_CHECKERS, checkers=checkers)


#: The turn step's parameters that a bear-off meets (from a roll on: not the roll-off, the
#: gates, the cube or the scoring).
_TURN_CODES = (
    G_ACEY,
    G_DOUBLES_REROLL,
    G_ACEY_BOTH,
    G_ACEY_FULL,
    G_CHAIN_LIMIT,
    G_COMPLEMENT,
    G_NAMED,
)


def bearoff_key(rules: BackgammonRules) -> str:
    """The digest of what decides a bear-off: the move generator's parameters and the turn
    step's that a bear-off meets (two rule sets with the same key have the same tables)."""
    if rules.unplayable_remainder == "to_opponent":
        raise ArgumentError("bg.bearoff.not_independent", option="unplayable_remainder")
    codes = TurnSteps(rules).codes
    data = repr(
        (tuple(int(x) for x in move_params_of(rules)), tuple(codes[i] for i in _TURN_CODES))
    ).encode()
    return hashlib.sha1(data).hexdigest()[:16]


# -- what one turn can do: the tree of the mover's choices and chance within a turn ----------
#
# A leaf is (kind, counts): END (the last checker is off), TURN (the turn is over at counts)
# or AGAIN (the mover rolls again, in the same turn, at counts).  A node is (MAX, children),
# the mover's choice, or (AVG, children), chance (a double after a 1-2 that is rolled).

END, TURN, AGAIN, MAX, AVG = range(5)
Tree = tuple[Any, ...]


class HomeTurns:
    """The engine's plays and turn steps from home positions, each answer kept."""

    def __init__(self, rules: BackgammonRules) -> None:
        self.rules = rules
        self.steps = TurnSteps(rules)
        # the fields of a roll at the start of a turn: gates passed (a bear-off is past them)
        self.start = ("roll", 0, (), "", *play_fields(())[4:])
        # what follows dice in hand at a position depends on nothing else: the double after
        # a 1-2 from one position is met from many
        self._trees: dict[tuple[Any, tuple[int, ...]], Tree] = {}

    def roll(self, counts: tuple[int, ...], high: int, low: int) -> Tree:
        """The tree of what the mover may do after rolling ``high-low`` at ``counts``."""
        fields, _ = self.steps.after(self.start, EV_ROLL, high, low)
        return self._play(fields, counts)

    def _play(self, fields: Any, counts: tuple[int, ...]) -> Tree:
        key = (fields, counts)
        tree = self._trees.get(key)
        if tree is None:
            if len(self._trees) > 400_000:
                self._trees.clear()
            tree = self._trees[key] = self._play_tree(fields, counts)
        return tree

    def _play_tree(self, fields: Any, counts: tuple[int, ...]) -> Tree:
        dice = fields[2]
        plays = generate.legal_plays(_position(counts), dice, self.rules)
        children: list[Tree] = []
        seen: set[tuple[int, ...]] = set()
        for play in plays:
            result = play.result
            after: tuple[int, ...] = tuple(max(n, 0) for n in result.points[:6])
            n = len(dice)
            used = n - len(play.unused)
            high = 1 if used == 1 and n == 2 and play.unused[0] == dice[1] else 0
            ends = sum(after) == 0 and bool(play.moves)
            key = (*after, used, high)
            if key in seen:
                continue
            seen.add(key)
            flags = PLAY_ENDS if ends else 0
            nxt, turned = self.steps.after(fields, EV_PLAY, used, high, flags)
            children.append(self._follow(nxt, turned, after, ends))
        return children[0] if len(children) == 1 else (MAX, tuple(children))

    def _follow(self, fields: Any, turned: bool, counts: tuple[int, ...], ends: bool) -> Tree:
        if ends:
            return (END, ())
        if turned:
            return (TURN, counts)
        phase = fields[0]
        if phase == "double":
            named = self.steps.codes[8] == 1  # G_NAMED
            kids = tuple(
                self._play(self.steps.after(fields, EV_DOUBLE, d)[0], counts) for d in range(1, 7)
            )
            return (MAX if named else AVG, kids)
        if phase == "play":  # the complement
            return self._play(fields, counts)
        if phase == "roll":  # another roll in the same turn
            return (AGAIN, counts)
        raise AssertionError(f"unexpected phase {phase!r} after a bear-off play")


def flatten(tree: Tree) -> Tree:
    """Nested choices of one mover are one choice: MAX of MAXes is a MAX of their leaves."""
    kind = tree[0]
    if kind in (END, TURN, AGAIN):
        return tree
    kids = tuple(flatten(k) for k in tree[1])
    if kind == MAX:
        flat: list[Tree] = []
        for k in kids:
            flat.extend(k[1] if k[0] == MAX else (k,))
        unique = tuple(dict.fromkeys(flat))
        return unique[0] if len(unique) == 1 else (MAX, unique)
    return (AVG, kids)


def iter_rolls() -> Iterator[tuple[int, int, float]]:
    """The 21 rolls with their chances."""
    for h, lo, w in ROLLS:
        yield h, lo, w / 36


def checkers_choose(n: int) -> int:
    """How many home positions of at most ``n`` checkers there are: C(n + 6, 6)."""
    return math.comb(n + 6, 6)
