"""The hand-crafted inputs of encodings 2 and 3 (GNU Backgammon style).

Encoding 2 is encoding 1 (:mod:`.net`, 204 raw inputs) followed by :data:`N_EXTRA`
inputs: :data:`PER_SIDE` figures of the side to act (inputs ``204 + k``), then the same
of its opponent (``204 + PER_SIDE + k``).  They are what a raw encoding makes a network
learn slowly: how exposed the blots are, how trapped the back checkers are, how strong
the blockades and the home boards.  The figures follow the ideas of GNU Backgammon's
contact inputs (``eval.c``: ``I_P1``, ``I_PIPLOSS``, ``I_BACKESCAPES``, ``I_CONTAIN``,
``I_ENTER2``, ``I_BREAK_CONTACT``), each defined here on its own terms.

Each side ``X`` is read in its own numbering: ``x[p]`` its checkers on its point ``p``
(1..24, it moves from 24 down to 1), ``x[25]`` its checkers on the bar plus those not
yet entered (Acey-Deucey: an unentered checker enters like one on the bar).  Its
opponent ``Y`` likewise (``y``); ``X``'s point ``p`` is ``Y``'s point ``25 - p``.  A
point is *made* by a side holding two checkers or more on it, a *blot* is a single
checker.  Rolls are the 36 ordered rolls (the 21 distinct ones, a non-double counting
twice).  For side ``X`` (index ``k`` of :data:`NAMES`):

0. ``shots``: the rolls of ``Y`` (of 36) that hit at least one blot of ``X``, / 36.
   ``Y`` hits a blot when one of its checkers can land on it: with one die; with both
   dice of a non-double, through either intermediate point not made by ``X``; with 1 to
   4 steps of a double, each intermediate point not made by ``X``.  With checkers to
   enter, ``Y`` enters first: one checker on the bar enters with either die (its entry
   point, ``X``'s point ``d``, not made by ``X``; a blot there is hit) and the other die
   is then free for any checker, the entered one included; two or more on the bar use
   both dice of a non-double to enter and hit only on entering; with a double, ``n``
   checkers to enter take ``min(n, 4)`` steps (none at all when the entry point is
   made) and the steps left are free.  Whether the rest of the roll is playable is not
   checked.
1. ``pip_loss``: the mean over the 36 rolls of the most pips ``X`` loses to one hit of
   that roll (a blot on ``X``'s point ``p`` sent to the bar loses ``25 - p`` pips; 0 for
   a roll that hits nothing), / 24.
2. ``back_escapes``: the rolls (of 36) with which ``X``'s rearmost checker (on the bar,
   25, when it has any to enter) can move the roll's two dice ``d1 + d2`` forward: the
   landing point not made by ``Y`` and at least one intermediate point (``p - d1`` or
   ``p - d2``; ``p - d`` for a double) not made by ``Y`` (GNU Backgammon's escapes,
   points beyond ``X``'s 1-point counting as open), / 36; 0 when ``X`` has no checker left.
3. ``containment``: ``1 -`` the fewest such escaping rolls, / 36, of a checker of ``X``
   on any of its points 16..24: how well ``Y``'s blockade holds back there.
4. ``prime``: the longest run of consecutive points made by ``X`` (of its 1..24), at
   most 6, / 6.
5. ``home``: the points made by ``X`` in its home board (1..6), / 6.
6. ``dance``: with checkers of ``X`` to enter, the chance ``(c / 6)**2`` that one of them
   fails to enter on the next roll, ``c`` the points ``Y`` has made in its home board
   (``X``'s entry points); 0 when ``X`` has none to enter.
7. ``break_contact``: the pips ``X`` must move to get every checker past ``Y``'s
   rearmost checker: with that checker on ``X``'s point ``m`` (``Y`` on the bar or to
   enter: ``m = 0``), the sum over ``X``'s checkers on points ``p > m`` (the bar 25) of
   ``p - m``, / 152 (the figure of the starting position); 0 once contact is broken.

Encoding 3 appends :data:`PER_SIDE_3` more figures of each side (the side to act's, then
its opponent's, after encoding 2's), for the structure of contact positions that the
figures above do not see: timing, anchors, mobility behind a blockade, the pips already
free of contact and the back game (after GNU Backgammon's ``I_TIMING``,
``I_BACK_ANCHOR``, ``I_FORWARD_ANCHOR``, ``I_MOBILITY``, ``I_FREEPIP``, ``I_BACKG``).
With ``m`` as in ``break_contact`` (the point of ``X`` on which ``Y``'s rearmost checker
stands, 0 when ``Y`` has any to enter) and ``E(p)`` the escaping rolls of
``back_escapes`` for a checker on point ``p`` (the bar 25):

8. ``timing``: the pips ``X``'s spare checkers can move before it must break a made
   point: a checker is spare when it is on the bar, alone on a point, or beyond the
   second on a point of ``X``'s; each counts the pips to ``X``'s 1-point (``p - 1``),
   / 100.
9. ``back_anchor``: ``X``'s rearmost made point ``p`` (1..24), ``p`` / 24; 0 when ``X``
   has none.
10. ``forward_anchor``: ``X``'s most advanced made point ``p`` in ``Y``'s half (``X``'s
    points 13..24), ``(25 - p)`` / 12; 0 when ``X`` has none there.
11. ``mobility``: over ``X``'s checkers outside its home board (points 7..25), the
    pips each is from home (``p - 6``) times ``E(p)``, summed, / 3600.
12. ``free_pips``: the pips of ``X``'s checkers past every checker of ``Y`` (points
    below ``m``), / 100.
13. ``anchors``: the points ``X`` has made in ``Y``'s home board (its 19..24), / 6.
14. ``back_checkers``: ``X``'s checkers in ``Y``'s home board or to enter (its
    19..25), / 15.

:func:`extra_features` is called by :func:`.net.features` (the one encoder) for
networks of encoding 2 and 3; :func:`side_figures` and :func:`side_figures_3` are its
per-side core, which the tests hold against a brute-force reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = [
    "NAMES",
    "NAMES_3",
    "N_EXTRA",
    "N_EXTRA_3",
    "PER_SIDE",
    "PER_SIDE_3",
    "extra_features",
    "put",
    "side_counts",
    "side_figures",
    "side_figures_3",
]

#: The figures of one side, in input order.
NAMES = (
    "shots",
    "pip_loss",
    "back_escapes",
    "containment",
    "prime",
    "home",
    "dance",
    "break_contact",
)
PER_SIDE = len(NAMES)
#: Inputs encoding 2 adds to encoding 1: the side to act's figures, then its opponent's.
N_EXTRA = 2 * PER_SIDE
#: The figures encoding 3 adds to encoding 2's, of one side, in input order.
NAMES_3 = (
    "timing",
    "back_anchor",
    "forward_anchor",
    "mobility",
    "free_pips",
    "anchors",
    "back_checkers",
)
PER_SIDE_3 = len(NAMES_3)
#: Inputs encoding 3 adds to encoding 2.
N_EXTRA_3 = 2 * PER_SIDE_3


@njit(cache=True)
def side_counts(board: Any, flip: bool, a: Any, b: Any) -> None:
    """The side to act's checkers into ``a`` and its opponent's into ``b`` (int64[26]),
    each in its own numbering: ``[p]`` on point ``p`` (1..24), ``[25]`` on the bar plus not
    yet entered, ``[0]`` 0.  ``board`` and ``flip`` as :func:`.net.features` takes them."""
    a[0] = 0
    b[0] = 0
    for p in range(1, 25):
        if flip:
            mine = -board[24 - p]
            theirs = board[p - 1]
        else:
            mine = board[p - 1]
            theirs = -board[24 - p]
        a[p] = mine if mine > 0 else 0
        b[p] = theirs if theirs > 0 else 0
    s = 1 if flip else 0
    a[25] = board[24 + s] + board[26 + s]
    b[25] = board[25 - s] + board[27 - s]


def _escape_table() -> np.ndarray[Any, np.dtype[np.int64]]:
    """``ESCAPES[mask]``: the rolls (of 36) with which a checker moves ``d1 + d2`` when bit
    ``k - 1`` of ``mask`` says the point ``k`` pips ahead of it is made by the opponent
    (``k`` = 1..12): the landing point open and at least one intermediate point open."""
    table = np.zeros(1 << 12, dtype=np.int64)
    for mask in range(1 << 12):
        n = 0
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                if mask >> (d1 + d2 - 1) & 1:
                    continue
                if not (mask >> (d1 - 1) & 1 and mask >> (d2 - 1) & 1):
                    n += 1 if d1 == d2 else 2
        table[mask] = n
    return table


ESCAPES = _escape_table()


@njit(cache=True, inline="always")
def _escapes(made: int, p: int) -> int:
    """Rolls (of 36) with which a checker on ``X``'s point ``p`` (1..25) moves ``d1 + d2``
    past ``Y``'s made points, ``made`` having bit ``q - 1`` set when ``Y`` made its point
    ``q``: the point ``k`` pips ahead is ``Y``'s ``25 - p + k`` (beyond 24: off, open)."""
    return int(ESCAPES[(made >> (25 - p)) & 0xFFF])


@njit(cache=True, inline="always")
def _top(bits: int) -> int:
    """The number of the highest set bit of ``bits`` counted from 1 (0 when none)."""
    n = 0
    while bits:
        bits >>= 1
        n += 1
    return n


@njit(cache=True)
def _hits(blots: int, blocks: int, sources: int, ybar: int, d1: int, d2: int) -> int:
    """The most pips ``X`` loses to a hit of ``Y``'s roll ``d1 >= d2`` (0: no hit).

    All in ``Y``'s numbering, as bit masks (bit ``t - 1`` for point ``t``): ``X``'s
    ``blots`` and made points (``blocks``), ``Y``'s occupied points (``sources``);
    ``ybar`` of ``Y``'s checkers are to enter, on point ``25 - d``.  A blot of ``X`` on
    ``Y``'s point ``t`` loses ``t`` pips (the number of its bit, :func:`_top`)."""
    best = 0
    if d1 != d2:
        if ybar >= 2:  # both dice enter
            for d in (d1, d2):
                if blots >> (24 - d) & 1:
                    best = max(best, 25 - d)
            return best
        if ybar == 1:  # one die enters, the other is free
            for e, f in ((d1, d2), (d2, d1)):
                if blocks >> (24 - e) & 1:
                    continue
                if blots >> (24 - e) & 1:
                    best = max(best, 25 - e)
                best = max(best, _top(((sources | 1 << (24 - e)) >> f) & blots))
            return best
        hit = ((sources >> d1) | (sources >> d2)) & blots
        # both dice on one checker: through either intermediate point not made by X
        hit |= (sources >> (d1 + d2)) & blots & (~blocks >> d2 | ~blocks >> d1)
        return _top(hit)
    d = d1
    steps = 4
    reach = sources
    if ybar > 0:
        if blocks >> (24 - d) & 1:
            return 0  # the entry point is made: no move at all
        if blots >> (24 - d) & 1:
            best = 25 - d
        steps = 4 - min(ybar, 4)
        reach |= 1 << (24 - d)
    hit = 0
    for _ in range(steps):
        reach = (reach >> d) & ~blocks
        hit |= reach & blots
    return max(best, _top(hit))


@njit(cache=True, inline="always")
def _contact_point(y: Any) -> int:
    """``m``: the point of ``X`` on which ``Y``'s rearmost checker stands (``Y``'s point
    ``q`` is ``X``'s ``25 - q``); 0 while ``Y`` has any to enter, 25 when it has none left."""
    if y[25] > 0:
        return 0
    for q in range(24, 0, -1):
        if y[q] > 0:
            return 25 - q
    return 25


@njit(cache=True)
def side_figures(x: Any, y: Any) -> tuple[float, float, float, float, float, float, float, float]:
    """The :data:`PER_SIDE` figures of side ``x`` against ``y`` (:func:`side_counts`
    arrays), in the order of :data:`NAMES`."""
    blots = 0  # X's blots, made points (Y's numbering); Y's occupied, made points (its own)
    blocks = 0
    sources = 0
    made = 0
    for p in range(1, 25):
        if x[p] == 1:
            blots |= 1 << (24 - p)
        elif x[p] >= 2:
            blocks |= 1 << (24 - p)
        if y[p] > 0:
            sources |= 1 << (p - 1)
            if y[p] >= 2:
                made |= 1 << (p - 1)
    shots = 0
    loss = 0
    if blots:
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                w = 1 if d1 == d2 else 2
                lost = _hits(blots, blocks, sources, y[25], d1, d2)
                if lost > 0:
                    shots += w
                    loss += w * lost
    rear = 0
    if x[25] > 0:
        rear = 25
    else:
        for p in range(24, 0, -1):
            if x[p] > 0:
                rear = p
                break
    fewest = 36
    for p in range(16, 25):
        e = _escapes(made, p)
        if e < fewest:
            fewest = e
    longest = 0
    run = 0
    home = 0
    for p in range(1, 25):
        if x[p] >= 2:
            run += 1
            if run > longest:
                longest = run
            if p <= 6:
                home += 1
        else:
            run = 0
    closed = 0
    for q in range(6):
        closed += made >> q & 1
    m = _contact_point(y)
    pips = 0
    for p in range(m + 1, 26):
        pips += x[p] * (p - m)
    return (
        shots / 36.0,
        loss / (36.0 * 24.0),
        _escapes(made, rear) / 36.0 if rear > 0 else 0.0,
        (36 - fewest) / 36.0,
        min(longest, 6) / 6.0,
        home / 6.0,
        (closed / 6.0) ** 2 if x[25] > 0 else 0.0,
        pips / 152.0,
    )


@njit(cache=True, inline="always")
def _made_mask(y: Any) -> int:
    """Bit ``q - 1`` set for each point ``q`` (1..24, ``Y``'s numbering) that ``Y`` made."""
    made = 0
    for q in range(1, 25):
        if y[q] >= 2:
            made |= 1 << (q - 1)
    return made


@njit(cache=True)
def side_figures_3(x: Any, y: Any) -> tuple[float, float, float, float, float, float, float]:
    """The :data:`PER_SIDE_3` figures of side ``x`` against ``y`` (:func:`side_counts`
    arrays), in the order of :data:`NAMES_3`."""
    made = _made_mask(y)
    spare = x[25] * 24
    mobility = x[25] * 19 * _escapes(made, 25)
    back_anchor = 0
    forward_anchor = 0
    anchors = 0
    back = x[25]
    for p in range(1, 25):
        c = x[p]
        if c == 0:
            continue
        spare += (p - 1) * (c - 2 if c >= 2 else c)
        if p >= 7:
            mobility += c * (p - 6) * _escapes(made, p)
        if p >= 19:
            back += c
        if c >= 2:
            back_anchor = p
            if p >= 13 and forward_anchor == 0:
                forward_anchor = 25 - p
            if p >= 19:
                anchors += 1
    m = _contact_point(y)
    free = 0
    for p in range(1, m):
        free += p * x[p]
    return (
        spare / 100.0,
        back_anchor / 24.0,
        forward_anchor / 12.0,
        mobility / 3600.0,
        free / 100.0,
        anchors / 6.0,
        back / 15.0,
    )


@njit(cache=True)
def extra_features(
    board: Any, flip: bool, idx: Any, val: Any, n: int, first: int, encoding: int
) -> int:
    """The nonzero inputs of the figures of ``encoding`` (2 or 3) of ``board`` appended to
    ``idx``/``val`` from entry ``n`` (input numbers from ``first``: encoding 2's figures
    of the side to act, then of its opponent, then encoding 3's the same way); returns
    the new count.  ``board``, ``flip`` as :func:`.net.features` takes them."""
    counts = np.empty(52, dtype=np.int64)
    a = counts[:26]
    b = counts[26:]
    side_counts(board, flip, a, b)
    k = first
    for side in range(2):
        figures = side_figures(a, b) if side == 0 else side_figures(b, a)
        for v in figures:
            n = put(idx, val, n, k, v)
            k += 1
    if encoding >= 3:
        for side in range(2):
            more = side_figures_3(a, b) if side == 0 else side_figures_3(b, a)
            for v in more:
                n = put(idx, val, n, k, v)
                k += 1
    return n


@njit(cache=True, inline="always")
def put(idx: Any, val: Any, n: int, k: int, v: float) -> int:
    """Input ``k`` of value ``v`` appended to the sparse ``idx``/``val`` at entry ``n``
    when it is not zero; returns the new count."""
    if v != 0.0:
        idx[n] = k
        val[n] = v
        return n + 1
    return n
