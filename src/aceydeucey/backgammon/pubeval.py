"""Tesauro's pubeval: the public linear evaluation of classic backgammon plays.

Gerald Tesauro (IBM Research) published ``pubeval.c`` in 1993 "as a public service
to the backgammon programming community": a benchmark opponent that "makes lots of
obvious mistakes, but provides a decent level of play".  GNU Backgammon and many
papers measure against it; GNU Backgammon's 0-ply wins about +0.6 points a game
from it.  The weights below are the published ones (``wr`` for races, ``wc`` for
contact positions, 122 each), as GNU Backgammon's ``pub_eval.c`` and OpenBSD's
``backgammon`` carry them; the encoding is written here from its description.

A play is scored by the position it leads to, seen from the side that has just
moved (its checkers positive, moving from its 24-point down to its 1-point): the
score is the dot product of the weights and 122 inputs (:func:`inputs`):

==========  ==========================================================================
index       input
==========  ==========================================================================
5k .. 5k+4  point ``24 - k`` (k = 0 .. 23, so the 24-point first): 1 when exactly one
            opposing checker is there (a blot of the opponent's), 1 for exactly one
            of ours, 1 for two or more of ours, 1 for exactly three of ours, and
            ``(n - 3) / 2`` for ``n >= 4`` of ours
120         the opponent's checkers on the bar / 2
121         our checkers borne off / 15
==========  ==========================================================================

The weights are chosen by the position *before* the play (:func:`is_race`): race
weights once no contact is possible, contact weights otherwise.  A play that bears
off the last checker scores :data:`WIN_SCORE`.  Opposing points of two or more,
our own bar and the opponent's borne-off checkers are not inputs.

The function was fitted to the standard game: :func:`check_rules` refuses rules
with another starting position or the Acey-Deucey 1-2 bonus (its inputs have no
place for unentered checkers or a pending named double).
"""

from __future__ import annotations

from collections.abc import Sequence

from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import ArgumentError

__all__ = [
    "CONTACT_WEIGHTS",
    "INPUTS",
    "RACE_WEIGHTS",
    "WIN_SCORE",
    "check_rules",
    "inputs",
    "is_race",
    "score",
]

#: Inputs of the evaluation (and weights in each vector).
INPUTS = 122
#: The score of a play that bears off the last checker (pubeval.c's 99999999).
WIN_SCORE = 99_999_999.0

# The published weights, five per point from the 24-point down, then inputs 120 and 121.
# fmt: off
RACE_WEIGHTS: tuple[float, ...] = (
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471,  # point 24
    0.00000, -1.40375, -1.05121, 0.07217, -0.01351,  # point 23
    0.00000, -1.29506, -2.16183, 0.13246, -1.03508,  # point 22
    0.00000, -2.29847, -2.34631, 0.17253, 0.08302,  # point 21
    0.00000, -1.27266, -2.87401, -0.07456, -0.34240,  # point 20
    0.00000, -1.34640, -2.46556, -0.13022, -0.01591,  # point 19
    0.00000, 0.27448, 0.60015, 0.48302, 0.25236,  # point 18
    0.00000, 0.39521, 0.68178, 0.05281, 0.09266,  # point 17
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685,  # point 16
    0.00000, 0.17405, 0.00430, 0.74427, 0.00576,  # point 15
    0.00000, 0.12392, 0.31202, -0.91035, -0.16270,  # point 14
    0.00000, 0.01418, -0.10839, -0.02781, -0.88035,  # point 13
    0.00000, 1.07274, 2.00366, 1.16242, 0.22520,  # point 12
    0.00000, 0.85631, 1.06349, 1.49549, 0.18966,  # point 11
    0.00000, 0.37183, -0.50352, -0.14818, 0.12039,  # point 10
    0.00000, 0.13681, 0.13978, 1.11245, -0.12707,  # point 9
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728,  # point 8
    0.00000, -0.13597, -0.19412, -0.09308, -1.26062,  # point 7
    0.00000, 3.05454, 5.16874, 1.50680, 5.35000,  # point 6
    0.00000, 2.19605, 3.85390, 0.88296, 2.30052,  # point 5
    0.00000, 0.92321, 1.08744, -0.11696, -0.78560,  # point 4
    0.00000, -0.09795, -0.83050, -1.09167, -4.94251,  # point 3
    0.00000, -1.00316, -3.66465, -2.56906, -9.67677,  # point 2
    0.00000, -2.77982, -7.26713, -3.40177, -12.32252,  # point 1
    0.00000, 3.42040,  # opponent on the bar, own borne off
)
CONTACT_WEIGHTS: tuple[float, ...] = (
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398,  # point 24
    -0.16092, -1.11725, -1.06654, -0.92830, -1.99558,  # point 23
    -1.10388, -0.80802, 0.09856, -0.62086, -1.27999,  # point 22
    -0.59220, -0.73667, 0.89032, -0.38933, -1.59847,  # point 21
    -1.50197, -0.60966, 1.56166, -0.47389, -1.80390,  # point 20
    -0.83425, -0.97741, -1.41371, 0.24500, 0.10970,  # point 19
    -1.36476, -1.05572, 1.15420, 0.11069, -0.38319,  # point 18
    -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,  # point 17
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786,  # point 16
    -1.18435, -0.43363, 1.06169, -0.21329, 0.04798,  # point 15
    -0.94373, -0.22982, 1.22737, -0.13099, -0.06295,  # point 14
    -0.75882, -0.13658, 1.78389, 0.30416, 0.36797,  # point 13
    -0.69851, 0.13003, 1.23070, 0.40868, -0.21081,  # point 12
    -0.64073, 0.31061, 1.59554, 0.65718, 0.25429,  # point 11
    -0.80789, 0.08240, 1.78964, 0.54304, 0.41174,  # point 10
    -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,  # point 9
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777,  # point 8
    -0.83711, -0.33248, 2.64983, 0.52698, 0.82132,  # point 7
    -0.58897, -1.18223, 3.35809, 0.62017, 0.57353,  # point 6
    -0.07276, -0.36214, 4.37655, 0.45481, 0.21746,  # point 5
    0.10504, -0.61977, 3.54001, 0.04612, -0.18108,  # point 4
    0.63211, -0.87046, 2.47673, -0.48016, -1.27157,  # point 3
    0.86505, -1.11342, 1.24612, -0.82385, -2.77082,  # point 2
    1.23606, -1.59529, 0.10438, -1.30206, -4.11520,  # point 1
    5.62596, -2.75800,  # opponent on the bar, own borne off
)
# fmt: on


def check_rules(rules: BackgammonRules, bot: str = "pubeval") -> None:
    """Refuse rules pubeval was not made for: another start, or the 1-2 bonus."""
    for option, wanted in (("start", "standard"), ("acey_deucey", False)):
        value = getattr(rules, option)
        if value != wanted:
            raise ArgumentError(
                "bg.bot.classic_only",
                bot=bot,
                option=option,
                value=str(value).lower(),
                variant=rules.variant,
            )


def is_race(position: Position) -> bool:
    """Whether no contact is possible: every checker of ours is past every opposing one.

    ``position`` is seen from the side on roll (see :mod:`.board`); a checker on
    the bar (or still to enter) is always in contact.
    """
    if any(position.bar) or any(position.unentered):
        return False
    points = position.points
    own_back = max((i for i, n in enumerate(points) if n > 0), default=-1)
    opp_back = min((i for i, n in enumerate(points) if n < 0), default=24)
    return own_back < opp_back


def inputs(position: Position) -> list[float]:
    """The 122 inputs of ``position``, seen from the side that has just moved."""
    x = [0.0] * INPUTS
    for index, n in enumerate(position.points):
        base = 5 * (23 - index)  # point index + 1 is input group 23 - index
        if n == -1:
            x[base] = 1.0
        elif n == 1:
            x[base + 1] = 1.0
        elif n >= 2:
            x[base + 2] = 1.0
            if n == 3:
                x[base + 3] = 1.0
            elif n >= 4:
                x[base + 4] = (n - 3) / 2
    x[120] = position.bar[1] / 2
    x[121] = position.off[0] / CHECKERS
    return x


def score(position: Position, race: bool) -> float:
    """pubeval's score of the position a play leads to (higher is better for the mover).

    ``race`` is :func:`is_race` of the position *before* the play.  Equal to the dot
    product of :func:`inputs` and the weights, computed from per-point tables.
    """
    if position.off[0] == CHECKERS:
        return WIN_SCORE
    table = _RACE_TABLE if race else _CONTACT_TABLE
    weights = RACE_WEIGHTS if race else CONTACT_WEIGHTS
    total = weights[120] * position.bar[1] / 2 + weights[121] * position.off[0] / CHECKERS
    for row, n in zip(table, position.points, strict=True):
        if n >= -1:
            total += row[n + 1]
    return total


def _point_table(weights: Sequence[float]) -> tuple[tuple[float, ...], ...]:
    """Per point index (0 = the 1-point), the contribution of ``n`` checkers, at ``n + 1``.

    Counts -1 (an opposing blot) to 15; fewer than -1 contribute nothing.
    """
    rows = []
    for index in range(24):
        row = []
        for n in range(-1, CHECKERS + 1):
            points = [0] * 24
            points[index] = n
            # only this point's inputs are non-zero (nothing on the bar or off)
            x = inputs(Position(tuple(points)))
            row.append(sum(w * v for w, v in zip(weights, x, strict=True)))
        rows.append(tuple(row))
    return tuple(rows)


_RACE_TABLE = _point_table(RACE_WEIGHTS)
_CONTACT_TABLE = _point_table(CONTACT_WEIGHTS)
