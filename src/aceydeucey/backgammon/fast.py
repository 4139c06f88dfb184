"""The fast backgammon core: Numba kernels on a compact ``int8`` board.

The readable reference lives in ``moves.py``; this module computes the same
sets of legal plays (the tests in ``tests/backgammon/test_fast.py`` hold the
two to agreement) and plays whole random games without returning to Python.

Board encoding
--------------
A board is a NumPy ``int8`` array of :data:`SLOTS` (30) counts, always seen
from the side on roll ("me"), like :class:`~aceydeucey.backgammon.board.Position`:

=========  ==========================================================
index      meaning
=========  ==========================================================
0 .. 23    points 1 .. 24 from my side; ``+n`` = n of my checkers,
           ``-n`` = n of the opponent's
24, 25     checkers on the bar: mine, the opponent's
26, 27     checkers not yet entered (Acey-Deucey): mine, the opponent's
28, 29     checkers borne off: mine, the opponent's
=========  ==========================================================

My checkers travel from point 24 down to point 1 and bear off below it.
Entering (from the bar or from off the board) with a die ``d`` lands on point
``25 - d``.  :func:`flip_board` turns the board round for the other side.

A move is three small ints ``(src, dst, hit)``: ``src`` is a point 1..24,
:data:`BAR` (25) or :data:`STOCK` (26, a checker entering from off the
board); ``dst`` is a point or 0 for borne off; ``hit`` is 1 when a blot is
sent to the bar.

Rule parameters
---------------
Move generation reads an ``int64`` array of :data:`N_PARAMS` entries (build it
with :func:`move_params`): the bear-off rule, the hold-back rule for
unentered checkers, a frozen home board, whether entering from off the board
and from the bar is open this turn, and whether hitting needs a checker in
the home board first.  Whole-game playouts read a second array (see
:func:`game_params`) with the start, the opening, the Acey-Deucey 1-2 bonus,
the extra roll after natural doubles and the scoring.

Generation is die by die, depth first; plays that reach the same position are
one play (an open-addressing hash table on the board).  For doubles the
moves are generated in a fixed order of sources (the bar, then off the board,
then points 24 down to 1), which loses no resulting position (such a move
never depends on an earlier move from a later source, except under the hit
gate, where the order is not imposed) and cuts the tree by an order of
magnitude.  Only the
plays using the most dice survive, and when only one die of two can be used
the higher one must be, if it can.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = [
    "BAR",
    "G_ACEY",
    "G_ACEY_BOTH",
    "G_ACEY_FULL",
    "G_CHAIN_LIMIT",
    "G_COMPLEMENT",
    "G_DOUBLES_REROLL",
    "G_NAMED",
    "G_OPENING",
    "G_SCORING",
    "N_GAME_PARAMS",
    "N_PARAMS",
    "P_BEAROFF_EXACT",
    "P_BEAROFF_NEEDS_ENTERED",
    "P_FROZEN_HOME",
    "P_HIGHER_DIE",
    "P_HIT_NEEDS_HOME",
    "P_HOLD_BACK",
    "SLOTS",
    "STOCK",
    "Generator",
    "flip_board",
    "game_params",
    "move_params",
    "play_games",
    "trace_game",
]

SLOTS = 32  # 30 counts and two zero pads: a board is four int64 words
WORDS = SLOTS // 8
BAR = 25
STOCK = 26

# -- move-generation parameters (indices into the params array) -------------
P_BEAROFF_EXACT = 0  # 1: a die bears off only from its own point
P_HOLD_BACK = 1  # 0: none; 1: none may pass the opponent's 12-point; 2: no board move
P_FROZEN_HOME = 2  # 1: checkers in the home board move only to bear off
P_BEAROFF_NEEDS_ENTERED = 3  # 1: unentered checkers block bearing off
P_HIGHER_DIE = 4  # 1: when only one of two dice can be played, the higher must be
P_HIT_NEEDS_HOME = 5  # 1: no hitting until I have a checker in my home board or off
N_PARAMS = 6

HOLD_NONE = 0
HOLD_PAST_MIDPOINT = 1
HOLD_ALL = 2

# -- whole-game parameters ----------------------------------------------------
G_OPENING = 0  # 0: the winner of the roll-off plays its two dice; 1: rolls both afresh
G_ACEY = 1  # 1: a 1-2 earns a double and another roll
G_DOUBLES_REROLL = 2  # natural doubles roll again: 0 never, 1 if fully played, 2 always
G_SCORING = 3  # 0: one point per checker not borne off; 1: single; 2: gammons
G_ACEY_BOTH = 4  # 1: the 1-2 bonus needs both dice played
G_ACEY_FULL = 5  # 1: the roll after the named double needs all four played
G_CHAIN_LIMIT = 6  # most 1-2 bonuses in one turn (0: no limit)
G_COMPLEMENT = 7  # 1: fully played doubles are followed by their complement
G_NAMED = 8  # 1: the double after a 1-2 is a decision (named); 0: a die roll
N_GAME_PARAMS = 9

TRACE_OPENING = 0
TRACE_ROLL = 1
TRACE_DOUBLE = 2
TRACE_PLAY = 3

SCORE_PER_CHECKER = 0
SCORE_SINGLE = 1
SCORE_GAMMONS = 2

# capacity of the result table (distinct plays of one roll); the most seen in
# practice is a few hundred, so overflow means a bug, reported as -1
_CAP = 8192
_TABLE = 2 * _CAP
_MOVE_COLS = 12  # four moves of (src, dst, hit)

_NO_TRACE = np.zeros((0, 4 + SLOTS), dtype=np.int64)


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


def game_params(
    *,
    opening: int = 0,
    acey: bool = False,
    doubles_reroll: int = 0,
    scoring: int = SCORE_PER_CHECKER,
    acey_both: bool = True,
    acey_full: bool = True,
    chain_limit: int = 0,
    complement: bool = False,
    named: bool = True,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The whole-game parameter array for :func:`play_games` (see ``G_*``)."""
    params = np.zeros(N_GAME_PARAMS, dtype=np.int64)
    params[G_OPENING] = opening
    params[G_ACEY] = int(acey)
    params[G_DOUBLES_REROLL] = doubles_reroll
    params[G_SCORING] = scoring
    params[G_ACEY_BOTH] = int(acey_both)
    params[G_ACEY_FULL] = int(acey_full)
    params[G_CHAIN_LIMIT] = chain_limit
    params[G_COMPLEMENT] = int(complement)
    params[G_NAMED] = int(named)
    return params


class Generator:
    """Legal plays of one roll on the fast core, with its own work space.

    :meth:`plays` returns ``(results, moves, highs, used)``: ``results`` an
    ``(n, 32)`` int8 array of the distinct resulting boards (still from the
    mover's side), ``moves`` an ``(n, 12)`` int8 array of one sequence of
    moves reaching each (``(src, dst, hit)`` triples, unused ones zero),
    ``highs`` an ``(n,)`` array, 1 where a one-die play of two different dice
    used the higher die, and ``used`` the number of dice every play uses.  No
    legal move gives one row: the unchanged board with ``used == 0``.  The
    arrays are copies the caller keeps.  Not thread-safe: one per thread.
    """

    def __init__(self) -> None:
        self._pos = np.zeros((_CAP, SLOTS), dtype=np.int8)
        self._moves = np.zeros((_CAP, _MOVE_COLS), dtype=np.int8)
        self._meta = np.zeros((_CAP, 4), dtype=np.int64)
        self._table = np.full(_TABLE, -1, dtype=np.int64)
        self._keep = np.zeros(_CAP, dtype=np.int64)
        self._work = np.zeros((5, WORDS), dtype=np.int64)
        self._aux = np.zeros(32, dtype=np.int64)

    def plays(
        self,
        board: np.ndarray[Any, np.dtype[np.int8]],
        dice: np.ndarray[Any, np.dtype[np.int64]],
        params: np.ndarray[Any, np.dtype[np.int64]],
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], int]:
        n, used = _generate_compact(
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
        )
        if n < 0:
            raise RuntimeError("fast move generation overflowed its result table")
        return self._pos[:n].copy(), self._moves[:n].copy(), self._meta[:n, 2].copy(), int(used)


def flip_board(board: np.ndarray[Any, np.dtype[np.int8]]) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The same board seen by the other side."""
    out = np.empty(SLOTS, dtype=np.int8)
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


@njit(cache=True)
def _can_move(stack: Any, r: int, src: int, die: int, params: Any) -> int:
    """-1 if moving one checker of row ``r`` from ``src`` by ``die`` is illegal, else its dst."""
    if src >= BAR:
        # entering: from the bar, or from off the board when nothing is on the bar
        if src == BAR:
            if stack[r, 24] <= 0:
                return -1
        elif stack[r, 26] <= 0 or stack[r, 24] > 0:
            return -1
        dst = 25 - die
        v = stack[r, dst - 1]
        if v < -1:
            return -1
        if v == -1 and params[P_HIT_NEEDS_HOME] == 1 and not _has_home(stack, r):
            return -1
        return dst
    if stack[r, src - 1] <= 0 or stack[r, 24] > 0:
        return -1
    hold = params[P_HOLD_BACK]
    unentered = stack[r, 26] > 0
    if unentered and hold == HOLD_ALL:
        return -1
    dst = src - die
    if dst >= 1:
        if params[P_FROZEN_HOME] == 1 and src <= 6:
            return -1
        if unentered and hold == HOLD_PAST_MIDPOINT and dst < 13:
            return -1
        v = stack[r, dst - 1]
        if v < -1:
            return -1
        if v == -1 and params[P_HIT_NEEDS_HOME] == 1 and not _has_home(stack, r):
            return -1
        return dst
    # bearing off: every checker of mine in the home board
    if unentered and params[P_BEAROFF_NEEDS_ENTERED] == 1:
        return -1
    for i in range(6, 24):
        if stack[r, i] > 0:
            return -1
    if dst == 0:
        return 0
    if params[P_BEAROFF_EXACT] == 1:
        return -1
    for i in range(src, 6):
        if stack[r, i] > 0:
            return -1
    return 0


@njit(cache=True)
def _all_home(stack: Any, r: int, params: Any) -> bool:
    """Whether row ``r`` may bear off: my checkers all home, off (or unentered if allowed)."""
    if stack[r, 24] > 0 or (stack[r, 26] > 0 and params[P_BEAROFF_NEEDS_ENTERED] == 1):
        return False
    for i in range(6, 24):  # noqa: SIM110 (a plain loop for Numba)
        if stack[r, i] > 0:
            return False
    return True


@njit(cache=True)
def _has_home(stack: Any, r: int) -> bool:
    if stack[r, 28] > 0:
        return True
    for i in range(6):  # noqa: SIM110 (a plain loop for Numba)
        if stack[r, i] > 0:
            return True
    return False


@njit(cache=True)
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


@njit(cache=True)
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
        while rank >= 1:
            # sources by rank: the bar first, then off the board, then 24..1
            if rank <= 24:
                src = rank
                if stack[depth, src - 1] <= 0:
                    rank -= 1
                    continue
            else:
                src = BAR if rank == 26 else STOCK
            dst = _can_move(stack, depth, src, die, params)
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
    ordered = doubles and params[P_HIT_NEEDS_HOME] == 0
    s64 = work
    stack = work.view(np.int8)
    p64 = pos.view(np.int64)
    for i in range(30):
        stack[0, i] = board[i]
    n = _search(
        stack, s64, seq, nd, ordered, high_die, params, pos, p64, moves, meta, table, aux, 0
    )
    if n >= 0 and not doubles:
        seq[0] = dice[1]
        seq[1] = dice[0]
        n = _search(
            stack, s64, seq, nd, False, high_die, params, pos, p64, moves, meta, table, aux, n
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
def _generate_compact(
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
    """:func:`_generate`, then the kept plays moved to the first rows of the tables."""
    k, best = _generate(board, dice, params, pos, moves, meta, table, keep, work, aux)
    p64 = pos.view(np.int64)
    for j in range(k):
        i = keep[j]
        if i != j:
            for w in range(WORDS):
                p64[j, w] = p64[i, w]
            for c in range(_MOVE_COLS):
                moves[j, c] = moves[i, c]
            meta[j, 2] = meta[i, 2]
    return k, best


# =============================================================================
# whole games
# =============================================================================


@njit(cache=True)
def _roll() -> int:
    return int(np.random.randint(1, 7))


@njit(cache=True)
def _play_roll(
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
    """Play ``dice`` by a uniformly random distinct play; returns (dice used, plays open)."""
    k, used = _generate(board, dice, params, pos, moves, meta, table, keep, work, aux)
    if k <= 0:
        return -1, k
    pick = keep[np.random.randint(0, k)]
    for i in range(SLOTS):
        board[i] = pos[pick, i]
    return used, k


@njit(cache=True)
def _trace(trace: Any, tn: int, kind: int, seat: int, x: int, y: int, board: Any) -> int:
    """Append one event to the trace (when it has room); the new length."""
    if tn >= trace.shape[0]:
        return tn
    trace[tn, 0] = kind
    trace[tn, 1] = seat
    trace[tn, 2] = x
    trace[tn, 3] = y
    for i in range(SLOTS):
        trace[tn, 4 + i] = board[i]
    return tn + 1


@njit(cache=True)
def _score(board: Any, scoring: int) -> int:
    """Points won by the side that has just borne off its last checker (board: loser on roll)."""
    if scoring == SCORE_SINGLE:
        return 1
    if scoring == SCORE_PER_CHECKER:
        return 15 - int(board[28])
    if board[28] > 0:
        return 1
    if board[24] > 0 or board[26] > 0:
        return 3
    for i in range(18, 24):
        if board[i] > 0:
            return 3
    return 2


@njit(cache=True)
def _play_games(
    start: Any,
    mparams: Any,
    gparams: Any,
    games: int,
    seed: int,
    max_decisions: int,
    out: Any,
    trace: Any,
) -> int:
    """Random self-play: ``out[g] = (winner, points, decisions, rolls, first)`` per game.

    Follows the turn structure of ``game.py``: roll-off, rolls, one decision
    per play (a pass included), the 1-2 bonus (a decision when the double is
    named), complements and extra rolls; each decision picks uniformly among
    the distinct legal plays (or the six doubles).  The first game's events
    go to ``trace`` (as many as fit; see :func:`trace_game`); returns their count.
    """
    np.random.seed(seed)
    tn = 0
    pos = np.zeros((_CAP, SLOTS), dtype=np.int8)
    moves = np.zeros((_CAP, _MOVE_COLS), dtype=np.int8)
    meta = np.zeros((_CAP, 4), dtype=np.int64)
    table = np.full(_TABLE, -1, dtype=np.int64)
    keep = np.zeros(_CAP, dtype=np.int64)
    work = np.zeros((5, WORDS), dtype=np.int64)
    aux = np.zeros(32, dtype=np.int64)
    board = np.zeros(SLOTS, dtype=np.int8)
    other = np.zeros(SLOTS, dtype=np.int8)
    two = np.empty(2, dtype=np.int64)
    four = np.empty(4, dtype=np.int64)
    opening = gparams[G_OPENING]
    acey = gparams[G_ACEY] == 1
    reroll_mode = gparams[G_DOUBLES_REROLL]
    acey_both = gparams[G_ACEY_BOTH] == 1
    acey_full = gparams[G_ACEY_FULL] == 1
    chain_limit = gparams[G_CHAIN_LIMIT]
    complement = gparams[G_COMPLEMENT] == 1
    named_is_decision = gparams[G_NAMED] == 1
    for g in range(games):
        for i in range(SLOTS):
            board[i] = start[i]
        # roll-off: one die each, ties roll again; the higher die moves first
        a = _roll()
        b = _roll()
        while a == b:
            a = _roll()
            b = _roll()
        seat = 0 if a > b else 1
        tracing = g == 0
        if tracing:
            tn = _trace(trace, tn, TRACE_OPENING, seat, a, b, board)
        decisions = 0
        rolls = 1
        first = True
        chain = 0
        winner = -1
        points = 0
        while decisions < max_decisions:
            if first and opening == 0:
                d1, d2 = max(a, b), min(a, b)
            else:
                d1 = _roll()
                d2 = _roll()
                rolls += 1
                if tracing:
                    tn = _trace(trace, tn, TRACE_ROLL, seat, max(d1, d2), min(d1, d2), board)
                if d2 > d1:
                    d1, d2 = d2, d1
            first = False
            again = False
            if d1 == d2:
                for i in range(4):
                    four[i] = d1
                used, k = _play_roll(board, four, mparams, pos, moves, meta, table, keep, work, aux)
                decisions += 1
                if tracing:
                    tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                full = used == 4
                if k > 0 and board[28] < 15 and complement and full:
                    for i in range(4):
                        four[i] = 7 - d1
                    used, k = _play_roll(
                        board, four, mparams, pos, moves, meta, table, keep, work, aux
                    )
                    decisions += 1
                    if tracing:
                        tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                    full = used == 4
                again = reroll_mode == 2 or (reroll_mode == 1 and full)
            else:
                two[0] = d1
                two[1] = d2
                used, k = _play_roll(board, two, mparams, pos, moves, meta, table, keep, work, aux)
                decisions += 1
                if tracing:
                    tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                earned = used == 2 or not acey_both
                if (
                    acey
                    and d1 == 2
                    and d2 == 1
                    and earned
                    and (chain_limit == 0 or chain < chain_limit)
                    and k > 0
                    and board[28] < 15
                ):
                    chain += 1
                    named = _roll()  # uniform: a random player's choice or the die
                    if named_is_decision:
                        decisions += 1
                    else:
                        rolls += 1
                    if tracing:
                        tn = _trace(trace, tn, TRACE_DOUBLE, seat, named, 0, board)
                    for i in range(4):
                        four[i] = named
                    used, k = _play_roll(
                        board, four, mparams, pos, moves, meta, table, keep, work, aux
                    )
                    decisions += 1
                    if tracing:
                        tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                    again = used == 4 or not acey_full
            if k < 0:
                winner = -2
                break
            if board[28] == 15:
                _flip_into(board, other)
                winner = seat
                points = _score(other, gparams[G_SCORING])
                break
            if not again:
                _flip_into(board, other)
                for i in range(SLOTS):
                    board[i] = other[i]
                seat = 1 - seat
                chain = 0
        out[g, 0] = winner
        out[g, 1] = points
        out[g, 2] = decisions
        out[g, 3] = rolls
        out[g, 4] = 0 if a > b else 1
    return tn


def play_games(
    start: np.ndarray[Any, np.dtype[np.int8]],
    mparams: np.ndarray[Any, np.dtype[np.int64]],
    gparams: np.ndarray[Any, np.dtype[np.int64]],
    games: int,
    seed: int,
    *,
    max_decisions: int = 100_000,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Random self-play of ``games`` games from ``start`` (seat 0 on roll's view).

    Returns a ``(games, 5)`` int64 array: winner seat (-1 if the game hit
    ``max_decisions``, -2 on an internal overflow), points won, decisions
    (one per play of dice in hand, a pass included, and one per named double)
    and chance events (the roll-off counts as one, a rolled double as one), and
    the seat that moved first.
    """
    out = np.zeros((games, 5), dtype=np.int64)
    _play_games(start, mparams, gparams, games, seed, max_decisions, out, _NO_TRACE)
    return out


def trace_game(
    start: np.ndarray[Any, np.dtype[np.int8]],
    mparams: np.ndarray[Any, np.dtype[np.int64]],
    gparams: np.ndarray[Any, np.dtype[np.int64]],
    seed: int,
    *,
    max_events: int = 5_000,
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], np.ndarray[Any, np.dtype[np.int64]]]:
    """One random game as :func:`play_games` plays it with ``seed``, event by event.

    Returns ``(summary_row, events)``; each event row is ``(kind, seat, x, y,
    board...)``: :data:`TRACE_OPENING` (x, y = the dice of seats 0 and 1),
    :data:`TRACE_ROLL` (x >= y, the dice), :data:`TRACE_DOUBLE` (x = the
    double) or :data:`TRACE_PLAY` (x = dice used, y = plays open, board = the
    position after the play, from the mover's side).
    """
    out = np.zeros((1, 5), dtype=np.int64)
    trace = np.zeros((max_events, 4 + SLOTS), dtype=np.int64)
    n = _play_games(start, mparams, gparams, 1, seed, 100_000, out, trace)
    return out[0], trace[:n]
