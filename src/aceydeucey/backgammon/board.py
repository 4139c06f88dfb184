"""The backgammon position, always seen from the side on roll.

Notation of the data model (fixed; the fast core and the front end build on it):

* ``points[i]`` is the signed count on point ``i + 1`` *as the side on roll
  numbers them*: index 0 is its 1-point (the last point of its home board),
  positive counts are its checkers, negative ones the opponent's.  The side on
  roll moves from high points to low; the opponent's point ``p`` is this
  side's ``25 - p``.
* ``bar``, ``unentered`` and ``off`` are pairs ``(side on roll, opponent)``.
  ``unentered`` checkers have never been on the board (Acey-Deucey and Dutch
  start with all 15 there); ``bar`` checkers were hit.  Both enter with a die
  ``d`` on point ``25 - d`` (the opponent's home board).
* Special locations in moves: :data:`BAR` (25), :data:`STOCK` (26, unentered
  checkers, written ``in``) and :data:`OFF` (0).
* 15 checkers per side across points, bar, unentered and off.  The pip count
  counts a checker on point ``p`` as ``p`` and a bar or unentered one as 25.

The GNU Backgammon Position ID (:meth:`Position.position_id`) is written and
read exactly as gnubg does: an 80-bit key built from gnubg's board tuple in
order, ``(side not on roll, side on roll)`` (for each, points 1..24 from its
own side and the bar: a 1 per checker then a 0), stored little-endian in 10
bytes, in base64 without padding (14 characters).  So the ID's *second* half
is the player on roll: gnubg 1.1 shows ``AQAAAMD/HwAAAA`` (``set turn 1``) with
the side on roll's 15 checkers on its 13-point, and ``gnubg.positionfromid``
gives that side as ``board[1]``.  It cannot
tell unentered checkers from borne-off ones, so it is only meaningful when
nothing is unentered; the Acey-Deucey state ID in ``game.py`` covers the rest.
"""

from __future__ import annotations

import base64
import operator
from collections.abc import Mapping
from dataclasses import dataclass

from aceydeucey.core.errors import ArgumentError, message

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "STOCK",
    "Position",
    "long_start",
    "make_position",
    "off_board_start",
    "standard_start",
]

#: Checkers per side.
CHECKERS = 15
#: Source index of a checker entering from the bar.
BAR = 25
#: Source index of a checker entering from off the board (never entered yet), written ``in``.
STOCK = 26
#: Destination index of a checker borne off.
OFF = 0

#: How errors name the two sides of a position.
_SIDES = (message("bg.side.on_roll"), message("bg.side.opponent"))


@dataclass(frozen=True, slots=True)
class Position:
    """A position from the side on roll (see the module docstring for the notation)."""

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    unentered: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)

    def validate(self) -> None:
        """Raise ValueError naming the problem unless this is a well-formed position.

        (Not run on construction: the move generator builds positions in its inner loop.)
        """
        if len(self.points) != 24:
            raise ArgumentError("bg.position.points_count", count=len(self.points))
        for side in (0, 1):
            if self.count(side) != CHECKERS:
                raise ArgumentError(
                    "bg.position.checkers", side=_SIDES[side], count=self.count(side)
                )

    @classmethod
    def build(
        cls,
        own: Mapping[int, int],
        opp: Mapping[int, int] | None = None,
        *,
        bar: tuple[int, int] = (0, 0),
        unentered: tuple[int, int] = (0, 0),
        off: tuple[int, int] | None = None,
    ) -> Position:
        """A checked position from point counts, both keyed by the mover's point numbers.

        ``off`` defaults to whatever completes 15 checkers per side.
        ``Position.build({6: 2}, {19: 3}, unentered=(13, 12))``
        """
        points = [0] * 24
        for sign, counts in ((1, own), (-1, opp or {})):
            for point, n in counts.items():
                if not 1 <= point <= 24:
                    raise ArgumentError("bg.position.not_on_board", point=point)
                if points[point - 1] * sign < 0:
                    raise ArgumentError("bg.position.both_sides", point=point)
                points[point - 1] += sign * n
        if off is None:
            off = (
                CHECKERS - sum(own.values()) - bar[0] - unentered[0],
                CHECKERS - sum((opp or {}).values()) - bar[1] - unentered[1],
            )
        position = cls(tuple(points), bar, unentered, off)
        if min(off) < 0:
            raise ArgumentError("bg.position.too_many")
        position.validate()
        return position

    # -- views ----------------------------------------------------------------
    def count(self, side: int) -> int:
        """All checkers of ``side`` (0 = on roll, 1 = opponent) wherever they are."""
        on_board = sum(n for n in self.points if (n > 0 if side == 0 else n < 0))
        return abs(on_board) + self.bar[side] + self.unentered[side] + self.off[side]

    def flip(self) -> Position:
        """The same position seen by the other side (its point p is our 25 - p)."""
        bar, unentered, off = self.bar, self.unentered, self.off
        return make_position(
            tuple(map(operator.neg, reversed(self.points))),
            (bar[1], bar[0]),
            (unentered[1], unentered[0]),
            (off[1], off[0]),
        )

    def pip_counts(self) -> tuple[int, int]:
        """Pips to bear everything off: (side on roll, opponent); bar and unentered count 25."""
        own = sum((i + 1) * n for i, n in enumerate(self.points) if n > 0)
        opp = sum((24 - i) * -n for i, n in enumerate(self.points) if n < 0)
        return (
            own + 25 * (self.bar[0] + self.unentered[0]),
            opp + 25 * (self.bar[1] + self.unentered[1]),
        )

    def is_open(self, point: int) -> bool:
        """Whether the side on roll may land on ``point`` (1..24): fewer than 2 opponents."""
        return self.points[point - 1] > -2

    def all_home(self) -> bool:
        """Whether every checker of the side on roll is in its home board or off."""
        if self.bar[0] or self.unentered[0]:
            return False
        return all(n <= 0 for n in self.points[6:])

    def gnubg_board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """GNU Backgammon's board: (opponent, side on roll), 25 counts each from its own side.

        Index 0..23 are points 1..24 as that side numbers them, index 24 the bar.
        Unentered checkers cannot be shown (gnubg treats them as borne off).
        """
        own = (*(max(n, 0) for n in self.points), self.bar[0])
        opp = (*(max(-n, 0) for n in reversed(self.points)), self.bar[1])
        return opp, own

    # -- GNU Backgammon Position ID --------------------------------------------
    def position_id(self) -> str:
        """gnubg's 14-character Position ID: the opponent's half, then the side on roll's.

        Unentered checkers count as borne off (the ID cannot tell them apart).
        """
        bits: list[int] = []
        for side in self.gnubg_board():
            for n in side:
                bits.extend([1] * n)
                bits.append(0)
        key = bytearray(10)
        for i, bit in enumerate(bits):
            if bit:
                key[i // 8] |= 1 << (i % 8)
        return base64.b64encode(bytes(key)).decode("ascii").rstrip("=")

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """The position of a gnubg Position ID, seen from the side on roll (its second half).

        Checkers the ID does not place are borne off.
        """
        text = position_id.strip()
        try:
            if len(text) != 14:
                raise ValueError
            key = base64.b64decode(text + "==", validate=True)
        except ValueError:
            raise ArgumentError("bg.position_id.format", id=position_id) from None
        bits = [(key[i // 8] >> (i % 8)) & 1 for i in range(80)]
        sides: list[list[int]] = [[0] * 25, [0] * 25]
        side, slot = 0, 0
        for bit in bits:
            if side == 2:
                if bit:
                    raise ArgumentError("bg.position_id.extra", id=position_id)
                continue
            if bit:
                sides[side][slot] += 1
            else:
                slot += 1
                if slot == 25:
                    side, slot = side + 1, 0
        if side < 2:
            raise ArgumentError("bg.position_id.truncated", id=position_id)
        opp, own = sides  # gnubg's order: the side not on roll first
        for side, counts in enumerate((own, opp)):
            if sum(counts) > CHECKERS:
                raise ArgumentError(
                    "bg.position_id.too_many", id=position_id, side=_SIDES[side], count=sum(counts)
                )
        points = []
        for i in range(24):
            mine, theirs = own[i], opp[23 - i]
            if mine and theirs:
                raise ArgumentError("bg.position_id.both_sides", id=position_id, point=i + 1)
            points.append(mine - theirs)
        return cls(
            tuple(points),
            (own[24], opp[24]),
            (0, 0),
            (CHECKERS - sum(own), CHECKERS - sum(opp)),
        )


def make_position(
    points: tuple[int, ...],
    bar: tuple[int, int],
    unentered: tuple[int, int],
    off: tuple[int, int],
) -> Position:
    """``Position(points, bar, unentered, off)`` built without the dataclass constructor.

    The same value, made faster for the engine's inner loops; like the
    constructor it checks nothing.
    """
    position: Position = _new_object(Position)
    _set_points(position, points)
    _set_bar(position, bar)
    _set_unentered(position, unentered)
    _set_off(position, off)
    return position


_new_object = object.__new__
# the slots' own setters (the dataclass is frozen: its __setattr__ refuses)
_set_points = vars(Position)["points"].__set__
_set_bar = vars(Position)["bar"].__set__
_set_unentered = vars(Position)["unentered"].__set__
_set_off = vars(Position)["off"].__set__


def _mirror(own: dict[int, int]) -> tuple[int, ...]:
    points = [0] * 24
    for p, n in own.items():
        points[p - 1] += n
        points[24 - p] -= n
    return tuple(points)


def standard_start() -> Position:
    """The usual backgammon setup: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6, for both."""
    return Position(_mirror({24: 2, 13: 5, 8: 3, 6: 5}))


def long_start() -> Position:
    """LongGammon: all 15 on each side's 24-point (the opponent's 1-point)."""
    return Position(_mirror({24: 15}))


def off_board_start() -> Position:
    """Acey-Deucey and Dutch: all 15 checkers of both sides unentered."""
    return Position((0,) * 24, (0, 0), (CHECKERS, CHECKERS), (0, 0))
