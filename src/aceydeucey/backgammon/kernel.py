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
only one die of two can be used the higher one must be, if it can; under free
choice of dice (``must_use_max_dice=False``) every play of one die or more
survives, each with the number of dice it uses (``meta[:, 1]``).

Calling it
----------
:func:`generate_rows` takes the board, the dice, the parameters and the work
space as eleven arrays (a :class:`Generator` holds them).  The game calls
:func:`generate_packed` instead: one int64 buffer (:func:`packed_buffer`) holds
all of it, since Numba checks and unboxes each array argument of a call from
Python.  The kernels run without Numba's reference counting (see
``_kernel_jit``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numba import njit

from aceydeucey.backgammon import turn
from aceydeucey.backgammon.turn import RULE_CODES, code_of

if TYPE_CHECKING:
    from aceydeucey.backgammon.rules import BackgammonRules

__all__ = [
    "BAR",
    "B_ROWS",
    "HEAD_DICE",
    "HEAD_PARAMS",
    "N_PARAMS",
    "P_BEAROFF_EXACT",
    "P_BEAROFF_NEEDS_ENTERED",
    "P_FREE_DICE",
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
    "game_points",
    "generate_packed",
    "generate_rows",
    "move_params",
    "move_params_of",
    "packed_buffer",
    "turn_step",
]

_F = TypeVar("_F", bound=Callable[..., Any])

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
P_FREE_DICE = 6  # 1: any number of dice may be played (every partial play is a play)
N_PARAMS = 7

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
    free_dice: bool = False,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The move-generation parameter array (see the module docstring)."""
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[P_BEAROFF_EXACT] = int(bearoff_exact)
    params[P_HOLD_BACK] = hold_back
    params[P_FROZEN_HOME] = int(frozen_home)
    params[P_BEAROFF_NEEDS_ENTERED] = int(bearoff_needs_entered)
    params[P_HIGHER_DIE] = int(higher_die)
    params[P_HIT_NEEDS_HOME] = int(hit_needs_home)
    params[P_FREE_DICE] = int(free_dice)
    return params


def move_params_of(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The move-generation parameter array of ``rules``."""
    return move_params(
        bearoff_exact=rules.bearoff_rule == "exact_only",
        hold_back=code_of(rules, "must_enter_all_before"),
        frozen_home=rules.home_board_frozen,
        bearoff_needs_entered=rules.bearoff_requires_all_entered,
        higher_die=rules.must_play_higher_die,
        hit_needs_home=rules.hit_gate == "after_home_board",
        free_dice=not rules.must_use_max_dice,
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

#: Numba's options for the move-generation kernels: compiled once into Numba's cache, and
#: without its reference counting (``_nrt``, the remedy Numba's developers give in
#: numba/numba#2345 and #2350).  Counting the references to every array a loop hands
#: around costs an atomic operation each time, several times the search itself; these
#: kernels allocate nothing, so they have nothing to count.
_KERNEL_OPTIONS: dict[str, Any] = {"cache": True, "_nrt": False}


def _kernel_jit(function: _F) -> _F:
    """``njit`` with :data:`_KERNEL_OPTIONS` (typed for mypy, which does not know ``_nrt``)."""
    compiled: _F = njit(**_KERNEL_OPTIONS)(function)
    return compiled


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


@_kernel_jit
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

    One function with no calls in its loop, on purpose: Numba counts references to
    every array handed to a helper, even an inlined one, and those atomic counts cost
    more than the search itself.  The steps are marked in place.

    The search runs once per order of the dice (the higher die first, then, for two
    different dice, the lower), depth first from row 0 of the stack; row ``d`` is the
    board after ``d`` moves.  A leaf is recorded in the result table: a full play
    (every die used), a dead end (no move left), and a partial play whose board may
    bear off (a partial play can then reach a full play's position: it is recorded
    where the reference generator meets it, on entering the node, to keep its order).
    """
    nd = dice.shape[0]
    next_src = aux[0:5]  # per depth: the next source rank to try
    found = aux[5:10]  # per depth: whether a move was found there
    path = aux[10 : 10 + _MOVE_COLS]  # the moves made so far, (src, dst, hit) each
    seq = aux[24:28]  # the dice in the order searched
    home = aux[28:32]  # per depth below nd: may that row bear off (-1: not known yet)
    for i in range(nd):
        seq[i] = dice[i]
    doubles = True
    for i in range(1, nd):
        if dice[i] != dice[0]:
            doubles = False
    high_die = 0
    if not doubles:
        high_die = max(dice[0], dice[1])
    exact = params[P_BEAROFF_EXACT] == 1
    hold = params[P_HOLD_BACK]
    frozen = params[P_FROZEN_HOME] == 1
    needs_entered = params[P_BEAROFF_NEEDS_ENTERED] == 1
    hit_gate = params[P_HIT_NEEDS_HOME] == 1
    free = params[P_FREE_DICE] == 1
    # the source-ordered search of doubles is exact unless a lower move can
    # enable a higher one, which only the hit gate allows
    # (or bearing off before entering, when unentered checkers do not block it)
    ordered = doubles and not hit_gate and not (board[26] > 0 and not needs_entered)
    s64 = work
    stack = work.view(np.int8)
    p64 = pos.view(np.int64)
    for i in range(30):
        stack[0, i] = board[i]
    n = 0
    for order in range(1 if doubles else 2):
        swapped = order == 1
        if swapped:
            # lower die first: skip the plays the first order has certainly found
            seq[0] = dice[1]
            seq[1] = dice[0]
        next_src[0] = 26
        found[0] = 0
        home[0] = -1
        depth = 0
        while depth >= 0:
            record = False
            pop = False
            if depth == nd:  # a full play
                record = True
                pop = True
            elif home[depth] < 0:
                # first visit: may this row bear off? (all my checkers home or off, or
                # unentered where that does not block it)
                may_bear = 1
                if stack[depth, 24] > 0 or (stack[depth, 26] > 0 and needs_entered):
                    may_bear = 0
                else:
                    for i in range(6, 24):
                        if stack[depth, i] > 0:
                            may_bear = 0
                            break
                home[depth] = may_bear
                # a partial play that may bear off; under free choice, every partial play
                record = (may_bear == 1 or free) and depth > 0
            else:
                die = seq[depth]
                rank = next_src[depth]
                moved = False
                may_bear_off = home[depth] == 1
                unentered = hold != HOLD_NONE and stack[depth, 26] > 0
                # while a checker of mine is on the bar, nothing else moves
                lowest = 26 if stack[depth, 24] > 0 else 1
                while rank >= lowest:
                    # sources by rank: the bar first, then off the board, then 24..1
                    # -- the destination of one checker from src by die, -1 if illegal
                    dst = -1
                    if rank <= 24:
                        src = rank
                        if stack[depth, src - 1] <= 0:
                            rank -= 1
                            continue
                        to = src - die
                        if to >= 1:
                            if not (
                                (unentered and (hold == HOLD_ALL or to < 13))
                                or (frozen and src <= 6)
                            ):
                                dst = to
                        elif may_bear_off and not (unentered and hold == HOLD_ALL):
                            if to == 0:
                                dst = 0
                            elif not exact:
                                # a higher die bears off from the highest point only
                                dst = 0
                                for i in range(src, 6):
                                    if stack[depth, i] > 0:
                                        dst = -1
                                        break
                    else:  # entering: from the bar (rank 26), or from off the board
                        src = BAR if rank == 26 else STOCK
                        if stack[depth, 24 if src == BAR else 26] > 0:
                            dst = 25 - die
                    if dst >= 1:  # onto a point: not a made point; a hit may be gated
                        v = stack[depth, dst - 1]
                        if v < -1:
                            dst = -1
                        elif v == -1 and hit_gate:
                            has_home = stack[depth, 28] > 0
                            for i in range(6):
                                if stack[depth, i] > 0:
                                    has_home = True
                                    break
                            if not has_home:
                                dst = -1
                    if dst < 0:
                        rank -= 1
                        continue
                    if (
                        swapped
                        and depth == 1
                        and src != path[1]
                        and dst >= 1
                        and 1 <= path[0] <= 24
                        and path[1] >= 1
                        and not hit_gate
                    ):
                        # the two moves also play the other way round (the second
                        # neither continues the first checker's journey nor bears off,
                        # the first came from a point and did not bear off): the first
                        # order, higher die first, reached this play already
                        found[depth] = 1
                        rank -= 1
                        continue
                    # -- move one checker on a copy of the row, one deeper
                    up = depth + 1
                    for w in range(WORDS):
                        s64[up, w] = s64[depth, w]
                    if src == BAR:
                        stack[up, 24] -= 1
                    elif src == STOCK:
                        stack[up, 26] -= 1
                    else:
                        stack[up, src - 1] -= 1
                    hit = 0
                    if dst == 0:
                        stack[up, 28] += 1
                    elif stack[up, dst - 1] == -1:
                        stack[up, dst - 1] = 1
                        stack[up, 25] += 1
                        hit = 1
                    else:
                        stack[up, dst - 1] += 1
                    path[3 * depth] = src
                    path[3 * depth + 1] = dst
                    path[3 * depth + 2] = hit
                    next_src[depth] = rank - 1
                    found[depth] = 1
                    next_src[up] = rank if ordered else 26
                    found[up] = 0
                    if up < nd:
                        home[up] = -1
                    depth = up
                    moved = True
                    break
                if not moved:
                    pop = True
                    record = found[depth] == 0  # a dead end
            if record:
                # -- add row ``depth`` (a play of ``depth`` dice) to the result table
                high = 1 if (depth == 1 and seq[0] == high_die) else 0
                h = np.int64(1469598103934665603)
                for w in range(WORDS):
                    h = (h ^ s64[depth, w]) * np.int64(1099511628211)
                h ^= h >> 29
                slot = h & (_TABLE - 1)
                known = False
                while table[slot] != -1:
                    idx = table[slot]
                    if meta[idx, 0] == h:
                        known = True
                        for w in range(WORDS):
                            if p64[idx, w] != s64[depth, w]:
                                known = False
                                break
                        if known:
                            if depth > meta[idx, 1]:
                                # a longer way to the same place (bearing off with a
                                # higher die)
                                meta[idx, 1] = depth
                                for i in range(_MOVE_COLS):
                                    moves[idx, i] = path[i] if i < 3 * depth else 0
                            if high > meta[idx, 2]:
                                meta[idx, 2] = high
                            break
                    slot = (slot + 1) & (_TABLE - 1)
                if not known:
                    if n >= _CAP:
                        n = -1
                        break
                    table[slot] = n
                    for w in range(WORDS):
                        p64[n, w] = s64[depth, w]
                    for i in range(_MOVE_COLS):
                        moves[n, i] = path[i] if i < 3 * depth else 0
                    meta[n, 0] = h
                    meta[n, 1] = depth
                    meta[n, 2] = high
                    meta[n, 3] = slot
                    n += 1
            if pop:
                depth -= 1
        if n < 0:
            break
    if n < 0:
        table[:] = -1
        return -1, 0
    best = 0
    any_high = False
    for i in range(n):
        if meta[i, 1] > best:
            best = meta[i, 1]
    if best == 1 and not doubles and params[P_HIGHER_DIE] == 1 and not free:
        for i in range(n):
            if meta[i, 1] == 1 and meta[i, 2] == 1:
                any_high = True
    k = 0
    for i in range(n):
        table[meta[i, 3]] = -1
        if (meta[i, 1] == best or (free and meta[i, 1] > 0)) and (not any_high or meta[i, 2] == 1):
            keep[k] = i
            k += 1
    return k, best


@_kernel_jit
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


# -- the one-buffer entry point ------------------------------------------------------
# A call from Python pays for every array argument (Numba types and unboxes each): the
# game's generator hands :func:`_generate_packed` a single int64 buffer that holds the
# board, the dice, the parameters and the whole work space (see :func:`packed_buffer`).

#: byte offsets of the header (the first words of the buffer): the board, then the dice
#: (up to four, zero after the last), then the parameters, one byte each
HEAD_DICE = SLOTS
HEAD_PARAMS = SLOTS + 4
#: word offsets of the buffer's regions
_B_DICE = 8  # the dice as int64 (4 words)
_B_PARAMS = _B_DICE + 4  # the parameters as int64 (N_PARAMS words, 8 kept)
_B_POS = _B_PARAMS + 8
_B_MOVES = _B_POS + _CAP * WORDS
_B_META = _B_MOVES + _CAP * _MOVE_COLS // 8
_B_TABLE = _B_META + _CAP * 4
_B_KEEP = _B_TABLE + _TABLE
_B_WORK = _B_KEEP + _CAP
_B_AUX = _B_WORK + 5 * WORDS
#: word offset of the rows (``ROW`` bytes each) the call leaves its plays in
B_ROWS = _B_AUX + 32
B_WORDS = B_ROWS + _CAP * ROW // 8


def packed_buffer() -> np.ndarray[Any, np.dtype[np.int64]]:
    """A fresh buffer for :func:`generate_packed` (its hash table empty)."""
    buf = np.zeros(B_WORDS, dtype=np.int64)
    buf[_B_TABLE : _B_TABLE + _TABLE] = -1
    return buf


@_kernel_jit
def _generate_packed(buf: Any) -> tuple[int, int]:
    """:func:`_generate_rows` with every argument in one buffer (see :func:`packed_buffer`).

    Python writes the header's bytes (board, dice, parameters); the ``n`` plays are left
    in the rows from word :data:`B_ROWS` on.  Returns ``(n, used)``; ``n`` is -1 on
    overflow.
    """
    head = buf[:_B_DICE].view(np.int8)
    nd = 0
    while nd < 4 and head[HEAD_DICE + nd] != 0:
        buf[_B_DICE + nd] = head[HEAD_DICE + nd]
        nd += 1
    for i in range(N_PARAMS):
        buf[_B_PARAMS + i] = head[HEAD_PARAMS + i]
    n, used = _generate_rows(
        head[:SLOTS],
        buf[_B_DICE : _B_DICE + nd],
        buf[_B_PARAMS : _B_PARAMS + N_PARAMS],
        buf[_B_POS:_B_MOVES].reshape((_CAP, WORDS)).view(np.int8),
        buf[_B_MOVES:_B_META].view(np.int8).reshape((_CAP, _MOVE_COLS)),
        buf[_B_META:_B_TABLE].reshape((_CAP, 4)),
        buf[_B_TABLE:_B_KEEP],
        buf[_B_KEEP:_B_WORK],
        buf[_B_WORK:_B_AUX].reshape((5, WORDS)),
        buf[_B_AUX:B_ROWS],
        buf[B_ROWS:B_WORDS].view(np.int8).reshape((_CAP, ROW)),
    )
    return n, used


#: the turn structure's one step, compiled (:func:`aceydeucey.backgammon.turn.step`):
#: ``turn_step(params, record, event, x, y, z) -> turned``
turn_step = _kernel_jit(turn.step)
#: a won game's points before the cube, compiled (:func:`aceydeucey.backgammon.turn.game_points`)
game_points = _kernel_jit(turn.game_points)

#: the one-buffer kernel: ``generate_packed(buf) -> (n, used)``
generate_packed = _generate_packed

#: the kernel of :meth:`Generator.packed`, for callers that keep their own work space:
#: ``generate_rows(board, dice, params, *generator.work_space) -> (n, used)``, the ``n``
#: plays left in the first ``n`` rows of the last work-space array (-1: overflow)
generate_rows = _generate_rows
