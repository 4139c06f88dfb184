"""The move-generation kernel of backgammon: Numba code on a compact ``int8`` board.

The readable reference lives in ``moves.py``; this module computes the same
legal plays, in the same order (``tests/backgammon/test_fast.py`` holds the two
to agreement).  It is imported on first use (``generate.legal_plays``), so the
reference engine never needs Numba; whole random games on this kernel are
:mod:`aceydeucey.sim.playouts`.

Board encoding
--------------
A board is a NumPy ``int8`` array of :data:`SLOTS` (32) counts, always seen
from the side on roll ("me"), like :class:`~aceydeucey.backgammon.board.Position`:

=========  ==========================================================
index      meaning
=========  ==========================================================
0 .. 23    points 1 .. 24 from my side; ``+n`` = n of my checkers,
           ``-n`` = n of the opponent's
24, 25     checkers on the bar: mine, the opponent's
26, 27     checkers not yet entered (Acey-Deucey, Dutch): mine, the opponent's
28, 29     checkers borne off: mine, the opponent's
30, 31     always 0 (padding: a board is four ``int64`` words, hashed and
           compared word by word)
=========  ==========================================================

My checkers travel from point 24 down to point 1 and bear off below it.
Entering (from the bar or from off the board) with a die ``d`` lands on point
``25 - d``.  :func:`flip_board` turns the board round for the other side.

A move is three small ints ``(src, dst, hit)``: ``src`` is a point 1..24,
:data:`BAR` (25) or :data:`STOCK` (26, a checker entering from off the
board); ``dst`` is a point or 0 for borne off; ``hit`` is 1 when a blot is
sent to the bar.  These are the numbers of ``notation.Move``.

Rule parameters
---------------
Move generation reads an ``int64`` array of :data:`N_PARAMS` entries: exact or
higher-point bear-off, what unentered checkers hold back (nothing, moves below
the opponent's 12-point, every board move), a frozen home board, whether
unentered checkers block bearing off, the higher-die rule and the hit gate.
:data:`RULE_CODES` is the one map from option values to the kernels' codes
(this module's and the playouts'); :func:`move_params_of` builds the array of
a ``BackgammonRules``.  Gates that depend on the turn's history (entry and bar
re-entry gates) are the caller's: a closed gate is a pass.

Move generation
---------------
Die by die, depth first, sources in the reference's order (the bar, then off
the board, then points 24 down to 1), the higher die first and then the lower
first.  Plays that reach the same position are one play (an open-addressing
hash table on the board words).  For doubles only source-ordered sequences are
followed: a move never depends on an earlier move from a later source (except
under the hit gate, or when a checker may bear off before another enters,
where every order is followed), so no position is lost and the tree shrinks by
an order of magnitude.  Only the plays using the most dice survive, and when
only one die of two can be used the higher one must be, if it can.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

if TYPE_CHECKING:
    from aceydeucey.backgammon.rules import BackgammonRules

__all__ = [
    "BAR",
    "N_PARAMS",
    "P_BEAROFF_EXACT",
    "P_BEAROFF_NEEDS_ENTERED",
    "P_FROZEN_HOME",
    "P_HIGHER_DIE",
    "P_HIT_NEEDS_HOME",
    "P_HOLD_BACK",
    "ROW",
    "ROW_FLIPPED",
    "ROW_HIGH",
    "ROW_PATH",
    "RULE_CODES",
    "SLOTS",
    "STOCK",
    "Generator",
    "flip_board",
    "generate_rows",
    "move_params",
    "move_params_of",
]

SLOTS = 32  # 30 counts and two zero pads: a board is four int64 words
WORDS = SLOTS // 8
BAR = 25
STOCK = 26

# -- move-generation parameters (indices into the params array) -------------
P_BEAROFF_EXACT = 0  # 1: a die bears off only from its own point
P_HOLD_BACK = 1  # while any is unentered: 0 no limit; 1 no move below point 13; 2 no board move
P_FROZEN_HOME = 2  # 1: checkers in the home board move only to bear off
P_BEAROFF_NEEDS_ENTERED = 3  # 1: unentered checkers block bearing off
P_HIGHER_DIE = 4  # 1: when only one of two dice can be played, the higher must be
P_HIT_NEEDS_HOME = 5  # 1: no hitting until I have a checker in my home board or off
N_PARAMS = 6

HOLD_NONE = 0
HOLD_PAST_MIDPOINT = 1
HOLD_ALL = 2


# capacity of the result table: every distinct result of a roll (fewer than 7,600:
# four equal dice move from at most 18 sources, C(21, 4) + C(20, 3) + ... of them),
# so overflow would mean a bug; it is reported as -1
_CAP = 8192
_TABLE = 2 * _CAP
_MOVE_COLS = 12  # four moves of (src, dst, hit)
#: bytes of one packed play: the board (32), the moves (12), the higher-die flag, padding
ROW = 80
ROW_FLIPPED = SLOTS
ROW_PATH = 2 * SLOTS
ROW_HIGH = 2 * SLOTS + _MOVE_COLS


def move_params(
    *,
    bearoff_exact: bool = False,
    hold_back: int = HOLD_NONE,
    frozen_home: bool = False,
    bearoff_needs_entered: bool = True,
    higher_die: bool = True,
    hit_needs_home: bool = False,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The move-generation parameter array (see the module docstring)."""
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[P_BEAROFF_EXACT] = int(bearoff_exact)
    params[P_HOLD_BACK] = hold_back
    params[P_FROZEN_HOME] = int(frozen_home)
    params[P_BEAROFF_NEEDS_ENTERED] = int(bearoff_needs_entered)
    params[P_HIGHER_DIE] = int(higher_die)
    params[P_HIT_NEEDS_HOME] = int(hit_needs_home)
    return params


#: The one map from option values to the kernels' integer codes (moves and playouts).
RULE_CODES: dict[str, dict[Any, int]] = {
    "must_enter_all_before": {
        "nothing": HOLD_NONE,
        "passing_opp_12pt": HOLD_PAST_MIDPOINT,
        "moving_any_entered": HOLD_ALL,
    },
    "opening": {"use_opening_dice": 0, "reroll_both_dice": 1},
    "natural_doubles_extra_roll": {"none": 0, "if_fully_played": 1, "always": 2},
    "scoring": {"per_checker": 0, "single": 1, "gammons": 2},
    "entry_gate": {"none": 0, "doubles_or_acey": 1, "doubles_only": 2, "six": 3},
    "bar_reentry_gate": {"none": 0, "doubles_or_acey": 1},
}


def code_of(rules: BackgammonRules, option: str) -> int:
    """The kernels' code of ``rules``' value of ``option`` (see :data:`RULE_CODES`)."""
    return RULE_CODES[option][getattr(rules, option)]


def move_params_of(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The move-generation parameter array of ``rules``."""
    return move_params(
        bearoff_exact=rules.bearoff_rule == "exact_only",
        hold_back=code_of(rules, "must_enter_all_before"),
        frozen_home=rules.home_board_frozen,
        bearoff_needs_entered=rules.bearoff_requires_all_entered,
        higher_die=rules.must_play_higher_die,
        hit_needs_home=rules.hit_gate == "after_home_board",
    )


class Generator:
    """Legal plays of one roll on the fast core, with its own work space.

    :meth:`plays` returns ``(results, moves, highs, used)``: ``results`` an
    ``(n, 32)`` int8 array of the distinct resulting boards (still from the
    mover's side, in the reference generator's order), ``moves`` an ``(n,
    12)`` int8 array of one sequence of moves reaching each (``(src, dst,
    hit)`` triples, unused ones zero), ``highs`` an ``(n,)`` array, 1 where a
    one-die play of two different dice used the higher die, and ``used`` the
    number of dice every play uses.  No legal move gives one row: the
    unchanged board with ``used == 0``.  :meth:`packed` gives the same as
    bytes: ``n`` rows of :data:`ROW` bytes (board, the board from the other side,
    moves, high).  The results
    are the caller's to keep.  Not thread-safe: one generator per thread.
    """

    def __init__(self) -> None:
        self._pos = np.zeros((_CAP, SLOTS), dtype=np.int8)
        self._moves = np.zeros((_CAP, _MOVE_COLS), dtype=np.int8)
        self._meta = np.zeros((_CAP, 4), dtype=np.int64)
        self._table = np.full(_TABLE, -1, dtype=np.int64)
        self._keep = np.zeros(_CAP, dtype=np.int64)
        self._work = np.zeros((5, WORDS), dtype=np.int64)
        self._aux = np.zeros(32, dtype=np.int64)
        self._rows = np.zeros((_CAP, ROW), dtype=np.int8)

    @property
    def work_space(self) -> tuple[np.ndarray[Any, Any], ...]:
        """The arrays :func:`generate_rows` takes after ``(board, dice, params)``; the last
        holds the rows."""
        return (
            self._pos,
            self._moves,
            self._meta,
            self._table,
            self._keep,
            self._work,
            self._aux,
            self._rows,
        )

    def packed(
        self,
        board: np.ndarray[Any, np.dtype[np.int8]],
        dice: np.ndarray[Any, np.dtype[np.int64]],
        params: np.ndarray[Any, np.dtype[np.int64]],
    ) -> tuple[bytes, int, int]:
        """``(rows, n, used)``: the plays as ``n`` rows of :data:`ROW` bytes."""
        n, used = _generate_rows(
            board,
            dice,
            params,
            self._pos,
            self._moves,
            self._meta,
            self._table,
            self._keep,
            self._work,
            self._aux,
            self._rows,
        )
        if n < 0:
            raise RuntimeError("fast move generation overflowed its result table")
        return self._rows[:n].tobytes(), n, used

    def plays(
        self,
        board: np.ndarray[Any, np.dtype[np.int8]],
        dice: np.ndarray[Any, np.dtype[np.int64]],
        params: np.ndarray[Any, np.dtype[np.int64]],
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], int]:
        """``(results, moves, highs, used)`` as arrays (see the class docstring)."""
        data, n, used = self.packed(board, dice, params)
        rows = np.frombuffer(data, dtype=np.int8).reshape(n, ROW)
        return rows[:, :SLOTS], rows[:, ROW_PATH : ROW_PATH + _MOVE_COLS], rows[:, ROW_HIGH], used


def flip_board(board: np.ndarray[Any, np.dtype[np.int8]]) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The same board seen by the other side."""
    out = np.zeros(SLOTS, dtype=np.int8)
    _flip_into(board, out)
    return out


# =============================================================================
# kernels
# =============================================================================


@njit(cache=True)
def _flip_into(board: Any, out: Any) -> None:
    for i in range(24):
        out[i] = -board[23 - i]
    out[24] = board[25]
    out[25] = board[24]
    out[26] = board[27]
    out[27] = board[26]
    out[28] = board[29]
    out[29] = board[28]
    out[30] = 0
    out[31] = 0


@njit(cache=True, inline="always")
def _can_move(stack: Any, r: int, src: int, die: int, params: Any, may_bear_off: bool) -> int:
    """-1 if moving one checker of row ``r`` from ``src`` by ``die`` is illegal, else its dst.

    The caller tries the bar alone while a checker of mine is on it, and passes
    whether row ``r`` may bear off (:func:`_all_home`).
    """
    if src >= BAR:
        # entering: from the bar, or from off the board
        if stack[r, 24 if src == BAR else 26] <= 0:
            return -1
        dst = 25 - die
        v = stack[r, dst - 1]
        if v < -1:
            return -1
        if v == -1 and params[P_HIT_NEEDS_HOME] == 1 and not _has_home(stack, r):
            return -1
        return dst
    dst = src - die
    hold = params[P_HOLD_BACK]
    unentered = hold != HOLD_NONE and stack[r, 26] > 0
    if dst >= 1:
        v = stack[r, dst - 1]
        if v < -1:
            return -1
        if unentered and (hold == HOLD_ALL or dst < 13):
            return -1
        if params[P_FROZEN_HOME] == 1 and src <= 6:
            return -1
        if v == -1 and params[P_HIT_NEEDS_HOME] == 1 and not _has_home(stack, r):
            return -1
        return dst
    if not may_bear_off or (unentered and hold == HOLD_ALL):
        return -1
    if dst == 0:
        return 0
    if params[P_BEAROFF_EXACT] == 1:
        return -1
    for i in range(src, 6):
        if stack[r, i] > 0:
            return -1
    return 0


@njit(cache=True, inline="always")
def _all_home(stack: Any, r: int, params: Any) -> bool:
    """Whether row ``r`` may bear off: my checkers all home, off (or unentered if allowed)."""
    if stack[r, 24] > 0 or (stack[r, 26] > 0 and params[P_BEAROFF_NEEDS_ENTERED] == 1):
        return False
    for i in range(6, 24):  # noqa: SIM110 (a plain loop for Numba)
        if stack[r, i] > 0:
            return False
    return True


@njit(cache=True, inline="always")
def _has_home(stack: Any, r: int) -> bool:
    if stack[r, 28] > 0:
        return True
    for i in range(6):  # noqa: SIM110 (a plain loop for Numba)
        if stack[r, i] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _do_move(stack: Any, r: int, src: int, dst: int) -> int:
    """Move one checker in place on row ``r``; 1 if it hit a blot."""
    if src == BAR:
        stack[r, 24] -= 1
    elif src == STOCK:
        stack[r, 26] -= 1
    else:
        stack[r, src - 1] -= 1
    if dst == 0:
        stack[r, 28] += 1
        return 0
    if stack[r, dst - 1] == -1:
        stack[r, dst - 1] = 1
        stack[r, 25] += 1
        return 1
    stack[r, dst - 1] += 1
    return 0


@njit(cache=True, inline="always")
def _record(
    stack: Any,
    s64: Any,
    r: int,
    used: int,
    high: int,
    path: Any,
    pos: Any,
    p64: Any,
    moves: Any,
    meta: Any,
    table: Any,
    n: int,
) -> int:
    """Add row ``r`` as a leaf to the result table; the new number of results (-1: full)."""
    h = np.int64(1469598103934665603)
    for w in range(WORDS):
        h = (h ^ s64[r, w]) * np.int64(1099511628211)
    h ^= h >> 29
    slot = h & (_TABLE - 1)
    while table[slot] != -1:
        idx = table[slot]
        if meta[idx, 0] == h:
            same = True
            for w in range(WORDS):
                if p64[idx, w] != s64[r, w]:
                    same = False
                    break
            if same:
                if used > meta[idx, 1]:
                    # a longer way to the same place (bearing off with a higher die)
                    meta[idx, 1] = used
                    for i in range(_MOVE_COLS):
                        moves[idx, i] = path[i] if i < 3 * used else 0
                if high > meta[idx, 2]:
                    meta[idx, 2] = high
                return n
        slot = (slot + 1) & (_TABLE - 1)
    if n >= _CAP:
        return -1
    table[slot] = n
    for w in range(WORDS):
        p64[n, w] = s64[r, w]
    for i in range(_MOVE_COLS):
        moves[n, i] = path[i] if i < 3 * used else 0
    meta[n, 0] = h
    meta[n, 1] = used
    meta[n, 2] = high
    meta[n, 3] = slot
    return n + 1


@njit(cache=True)
def _search(
    stack: Any,
    s64: Any,
    seq: Any,
    nd: int,
    ordered: bool,
    swapped: bool,
    high_die: int,
    params: Any,
    pos: Any,
    p64: Any,
    moves: Any,
    meta: Any,
    table: Any,
    aux: Any,
    n: int,
) -> int:
    """Depth-first search of the dice in order ``seq`` from row 0 of ``stack``.

    ``swapped`` marks the second search of two different dice (lower die
    first): it skips the plays the first search has certainly found.

    Returns the new result count (-1 when the table is full).
    """
    next_src = aux[0:5]
    found = aux[5:10]
    path = aux[10 : 10 + _MOVE_COLS]
    next_src[0] = 26
    found[0] = 0
    depth = 0
    while depth >= 0:
        if depth == nd:
            high = 1 if (nd == 1 and seq[0] == high_die) else 0
            n = _record(stack, s64, depth, nd, high, path, pos, p64, moves, meta, table, n)
            if n < 0:
                return -1
            depth -= 1
            continue
        die = seq[depth]
        rank = next_src[depth]
        moved = False
        # while a checker of mine is on the bar, nothing else moves
        lowest = 26 if stack[depth, 24] > 0 else 1
        bear = -1  # whether this node may bear off: worked out when first needed
        while rank >= lowest:
            # sources by rank: the bar first, then off the board, then 24..1
            if rank <= 24:
                src = rank
                if stack[depth, src - 1] <= 0:
                    rank -= 1
                    continue
            else:
                src = BAR if rank == 26 else STOCK
            if bear < 0 and src <= die:
                bear = 1 if _all_home(stack, depth, params) else 0
            dst = _can_move(stack, depth, src, die, params, bear == 1)
            if dst >= 0 and swapped and depth == 1 and _same_as_first_order(path, src, dst, params):
                found[depth] = 1  # the first order reached this play already
                rank -= 1
                continue
            if dst >= 0:
                for w in range(WORDS):
                    s64[depth + 1, w] = s64[depth, w]
                hit = _do_move(stack, depth + 1, src, dst)
                path[3 * depth] = src
                path[3 * depth + 1] = dst
                path[3 * depth + 2] = hit
                next_src[depth] = rank - 1
                found[depth] = 1
                next_src[depth + 1] = rank if ordered else 26
                found[depth + 1] = 0
                depth += 1
                moved = True
                if depth < nd and _all_home(stack, depth, params):
                    # a partial play can reach a full play's position when bearing
                    # off; record it where the reference meets it, to keep its order
                    high = 1 if (depth == 1 and seq[0] == high_die) else 0
                    n = _record(
                        stack, s64, depth, depth, high, path, pos, p64, moves, meta, table, n
                    )
                    if n < 0:
                        return -1
                break
            rank -= 1
        if moved:
            continue
        if found[depth] == 0:
            high = 1 if (depth == 1 and seq[0] == high_die) else 0
            n = _record(stack, s64, depth, depth, high, path, pos, p64, moves, meta, table, n)
            if n < 0:
                return -1
        depth -= 1
    return n


@njit(cache=True, inline="always")
def _same_as_first_order(path: Any, src: int, dst: int, params: Any) -> bool:
    """Whether the two moves (``path``'s first, then ``src`` to ``dst``) also play the other way.

    True when the second move neither continues the first checker's journey
    nor bears off, the first came from a point (not the bar or off the board)
    and did not bear off (an entering move played first could forbid that
    bear-off), and no hit gate is in force: then the first search, which tries the
    higher die first, played the same two moves in the other order.
    """
    return (
        src != path[1]
        and dst >= 1
        and 1 <= path[0] <= 24
        and path[1] >= 1
        and params[P_HIT_NEEDS_HOME] == 0
    )


@njit(cache=True)
def _generate(
    board: Any,
    dice: Any,
    params: Any,
    pos: Any,
    moves: Any,
    meta: Any,
    table: Any,
    keep: Any,
    work: Any,
    aux: Any,
) -> tuple[int, int]:
    """All distinct legal plays; fills ``keep`` with their indices. Returns (count, used).

    ``work`` is a (5, 4) int64 scratch board stack, ``aux`` 32 int64 of scratch.
    """
    nd = dice.shape[0]
    seq = aux[24:28]
    for i in range(nd):
        seq[i] = dice[i]
    doubles = True
    for i in range(1, nd):
        if dice[i] != dice[0]:
            doubles = False
    high_die = 0
    if not doubles:
        high_die = max(dice[0], dice[1])
    # the source-ordered search of doubles is exact unless a lower move can
    # enable a higher one, which only the hit gate allows
    # (or bearing off before entering, when unentered checkers do not block it)
    ordered = (
        doubles
        and params[P_HIT_NEEDS_HOME] == 0
        and not (board[26] > 0 and params[P_BEAROFF_NEEDS_ENTERED] == 0)
    )
    s64 = work
    stack = work.view(np.int8)
    p64 = pos.view(np.int64)
    for i in range(30):
        stack[0, i] = board[i]
    n = _search(
        stack, s64, seq, nd, ordered, False, high_die, params, pos, p64, moves, meta, table, aux, 0
    )
    if n >= 0 and not doubles:
        seq[0] = dice[1]
        seq[1] = dice[0]
        n = _search(
            stack, s64, seq, nd, False, True, high_die, params, pos, p64, moves, meta, table, aux, n
        )
    if n < 0:
        table[:] = -1
        return -1, 0
    best = 0
    any_high = False
    for i in range(n):
        if meta[i, 1] > best:
            best = meta[i, 1]
    if best == 1 and not doubles and params[P_HIGHER_DIE] == 1:
        for i in range(n):
            if meta[i, 1] == 1 and meta[i, 2] == 1:
                any_high = True
    k = 0
    for i in range(n):
        table[meta[i, 3]] = -1
        if meta[i, 1] == best and (not any_high or meta[i, 2] == 1):
            keep[k] = i
            k += 1
    return k, best


@njit(cache=True)
def _generate_rows(
    board: Any,
    dice: Any,
    params: Any,
    pos: Any,
    moves: Any,
    meta: Any,
    table: Any,
    keep: Any,
    work: Any,
    aux: Any,
    rows: Any,
) -> tuple[int, int]:
    """:func:`_generate`, then each kept play as one row of ``rows`` (see ``ROW_*``)."""
    k, best = _generate(board, dice, params, pos, moves, meta, table, keep, work, aux)
    r64 = rows.view(np.int64)
    p64 = pos.view(np.int64)
    for j in range(k):
        i = keep[j]
        for w in range(WORDS):
            r64[j, w] = p64[i, w]
        # the same board from the other side (the opponent's roll comes next)
        for p in range(24):
            rows[j, ROW_FLIPPED + p] = -pos[i, 23 - p]
        for c in range(0, 6, 2):
            rows[j, ROW_FLIPPED + 24 + c] = pos[i, 25 + c]
            rows[j, ROW_FLIPPED + 25 + c] = pos[i, 24 + c]
        rows[j, ROW_FLIPPED + 30] = 0
        rows[j, ROW_FLIPPED + 31] = 0
        for c in range(_MOVE_COLS):
            rows[j, ROW_PATH + c] = moves[i, c]
        rows[j, ROW_HIGH] = meta[i, 2]
    return k, best


#: the kernel of :meth:`Generator.packed`, for callers that keep their own work space:
#: ``generate_rows(board, dice, params, *generator.work_space) -> (n, used)``, the ``n``
#: plays left in the first ``n`` rows of the last work-space array (-1: overflow)
generate_rows = _generate_rows
