"""The fast backgammon core: Numba kernels on a compact ``int8`` board.

The readable reference lives in ``moves.py``; this module computes the same
legal plays, in the same order (``tests/backgammon/test_fast.py`` holds the two
to agreement), and plays whole random games without returning to Python.

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
Move generation reads an ``int64`` array of :data:`N_PARAMS` entries (build it
with :func:`move_params`; ``generate.fast_params(rules)`` maps a
``BackgammonRules``): exact or higher-point bear-off, what unentered checkers
hold back (nothing, moves below the opponent's 12-point, every board move),
a frozen home board, whether unentered checkers block bearing off, the
higher-die rule and the hit gate.  Gates that depend on the turn's history
(entry and bar re-entry gates) are the caller's: a closed gate is a pass.
Whole-game playouts read a second array (:func:`game_params`): the opening,
the 1-2 bonus and its options, extra rolls after doubles, complements and the
scoring.

Move generation
---------------
Die by die, depth first, sources in the reference's order (the bar, then off
the board, then points 24 down to 1), the higher die first and then the lower
first.  Plays that reach the same position are one play (an open-addressing
hash table on the board words).  For doubles only source-ordered sequences are
followed: a move never depends on an earlier move from a later source (except
under the hit gate, where every order is followed), so no position is lost
and the tree shrinks by an order of magnitude.  Only the plays using the most
dice survive, and when only one die of two can be used the higher one must be,
if it can.

Whole games
-----------
:func:`play_games` plays random self-play games (every decision uniform among
the distinct plays, as a random agent choosing among the contract's legal
actions) with the turn structure of ``game.py``; :func:`trace_game` returns one
such game event by event so that tests can replay it through the contract.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import njit, prange

__all__ = [
    "BAR",
    "G_ACEY",
    "G_ACEY_BOTH",
    "G_ACEY_FULL",
    "G_BAR_GATE",
    "G_CHAIN_LIMIT",
    "G_COMPLEMENT",
    "G_DOUBLES_REROLL",
    "G_ENTRY_GATE",
    "G_NAMED",
    "G_OPENING",
    "G_SCORING",
    "G_TO_OPPONENT",
    "N_GAME_PARAMS",
    "N_PARAMS",
    "P_BEAROFF_EXACT",
    "P_BEAROFF_NEEDS_ENTERED",
    "P_FROZEN_HOME",
    "P_HIGHER_DIE",
    "P_HIT_NEEDS_HOME",
    "P_HOLD_BACK",
    "ROW",
    "ROW_HIGH",
    "ROW_PATH",
    "SLOTS",
    "STOCK",
    "Generator",
    "flip_board",
    "game_params",
    "generate_rows",
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
P_HOLD_BACK = 1  # while any is unentered: 0 no limit; 1 no move below point 13; 2 no board move
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
G_ENTRY_GATE = 9  # roll before the first entry: 0 none, 1 doubles or 1-2, 2 doubles, 3 a six
G_BAR_GATE = 10  # roll to come in from the bar: 0 any, 1 doubles or 1-2
G_TO_OPPONENT = 11  # 1: dice a player cannot use are played by the opponent
N_GAME_PARAMS = 12

TRACE_OPENING = 0
TRACE_ROLL = 1
TRACE_DOUBLE = 2
TRACE_PLAY = 3

SCORE_PER_CHECKER = 0
SCORE_SINGLE = 1
SCORE_GAMMONS = 2

# capacity of the result table: every distinct result of a roll (fewer than 7,600:
# four equal dice move from at most 18 sources, C(21, 4) + C(20, 3) + ... of them),
# so overflow would mean a bug; it is reported as -1
_CAP = 8192
_TABLE = 2 * _CAP
_MOVE_COLS = 12  # four moves of (src, dst, hit)
#: bytes of one packed play: the board (32), the moves (12), the higher-die flag, padding
ROW = 48
ROW_PATH = SLOTS
ROW_HIGH = SLOTS + _MOVE_COLS

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
    entry_gate: int = 0,
    bar_gate: int = 0,
    to_opponent: bool = False,
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
    params[G_ENTRY_GATE] = entry_gate
    params[G_BAR_GATE] = bar_gate
    params[G_TO_OPPONENT] = int(to_opponent)
    return params


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
    bytes: ``n`` rows of :data:`ROW` bytes (board, moves, high).  The results
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


def play_games(
    start: np.ndarray[Any, np.dtype[np.int8]],
    mparams: np.ndarray[Any, np.dtype[np.int64]],
    gparams: np.ndarray[Any, np.dtype[np.int64]],
    games: int,
    seed: int,
    *,
    max_decisions: int = 100_000,
    parallel: bool = False,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Random self-play of ``games`` games from ``start`` (seat 0 on roll's view).

    Returns a ``(games, 5)`` int64 array: winner seat (-1 if the game hit
    ``max_decisions``, -2 on an internal overflow), points won, decisions
    (one per play of dice in hand, a pass included, and one per named double)
    and chance events (the roll-off counts as one, a rolled double as one), and
    the seat that moved first.  Game ``g`` depends only on ``(seed, g)``, so
    ``parallel=True`` (all CPU cores, Numba threads) gives the same array.
    """
    out = np.zeros((games, 5), dtype=np.int64)
    if parallel and games > 1:
        chunks = min(games, 64 * max(1, numba.get_num_threads()))
        _play_games_parallel(start, mparams, gparams, games, seed, max_decisions, out, chunks)
    else:
        _play_chunk(start, mparams, gparams, 0, games, seed, max_decisions, out, _NO_TRACE)
    return out


def trace_game(
    start: np.ndarray[Any, np.dtype[np.int8]],
    mparams: np.ndarray[Any, np.dtype[np.int64]],
    gparams: np.ndarray[Any, np.dtype[np.int64]],
    seed: int,
    *,
    max_events: int = 5_000,
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], np.ndarray[Any, np.dtype[np.int64]]]:
    """Game 0 of ``play_games(..., seed)`` event by event.

    Returns ``(summary_row, events)``; each event row is ``(kind, seat, x, y,
    board...)``: :data:`TRACE_OPENING` (x, y = the dice of seats 0 and 1),
    :data:`TRACE_ROLL` (x >= y, the dice), :data:`TRACE_DOUBLE` (x = the
    double) or :data:`TRACE_PLAY` (x = dice used, y = plays open, board = the
    position after the play, from the mover's side).
    """
    out = np.zeros((1, 5), dtype=np.int64)
    trace = np.zeros((max_events, 4 + SLOTS), dtype=np.int64)
    n = _play_chunk(start, mparams, gparams, 0, 1, seed, 100_000, out, trace)
    return out[0], trace[:n]


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
        for c in range(_MOVE_COLS):
            rows[j, ROW_PATH + c] = moves[i, c]
        rows[j, ROW_HIGH] = meta[i, 2]
    return k, best


#: the kernel of :meth:`Generator.packed`, for callers that keep their own work space:
#: ``generate_rows(board, dice, params, *generator.work_space) -> (n, used)``, the ``n``
#: plays left in the first ``n`` rows of the last work-space array (-1: overflow)
generate_rows = _generate_rows


# =============================================================================
# whole games
# =============================================================================


@njit(cache=True)
def _roll() -> int:
    return int(np.random.randint(1, 7))


@njit(cache=True)
def _decide(
    board: Any,
    dice: Any,
    may_enter: bool,
    bar_gate: int,
    params: Any,
    pos: Any,
    moves: Any,
    meta: Any,
    table: Any,
    keep: Any,
    work: Any,
    aux: Any,
) -> tuple[int, int, int]:
    """Play ``dice`` by a uniformly random distinct play (a pass when a gate is closed).

    Returns (dice used, plays open, whether a one-die play used the higher die);
    plays open is -1 when the result table overflowed.
    """
    if not may_enter or (board[24] > 0 and bar_gate == 1 and not _is_special(dice)):
        return 0, 1, 0
    k, used = _generate(board, dice, params, pos, moves, meta, table, keep, work, aux)
    if k <= 0:
        return 0, -1, 0
    pick = keep[np.random.randint(0, k)]
    for i in range(SLOTS):
        board[i] = pos[pick, i]
    return used, k, meta[pick, 2]


@njit(cache=True)
def _is_special(dice: Any) -> bool:
    """Doubles or a 1-2: what the gates of LEE and WIKI-2008 ask for."""
    n = dice.shape[0]
    if n < 2:
        return False
    same = True
    for i in range(1, n):
        if dice[i] != dice[0]:
            same = False
    return same or (n == 2 and dice[0] + dice[1] == 3 and dice[0] != dice[1])


@njit(cache=True)
def _gate_opens(gate: int, d1: int, d2: int) -> bool:
    """Whether a roll of ``d1``-``d2`` opens a closed entry gate (see ``G_ENTRY_GATE``)."""
    if gate == 0:
        return True
    if gate == 1:
        return d1 == d2 or d1 + d2 == 3
    if gate == 2:
        return d1 == d2
    return d1 == 6 or d2 == 6


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
def _game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` of a run (each game has its own random stream)."""
    return (seed * 1_000_003 + game * 7_919 + 12_345) % 4_294_967_296


@njit(cache=True)
def _play_chunk(
    start: Any,
    mparams: Any,
    gparams: Any,
    first_game: int,
    end_game: int,
    seed: int,
    max_decisions: int,
    out: Any,
    trace: Any,
) -> int:
    """Random self-play of games ``first_game .. end_game - 1`` into ``out``.

    ``out[g] = (winner, points, decisions, rolls, first)``.  Follows the turn
    structure of ``game.py``: roll-off, rolls, one decision per play (a pass
    included), the 1-2 bonus (a decision when the double is named),
    complements and extra rolls; each decision picks uniformly among the
    distinct legal plays (or the six doubles).  Each game draws from its own
    stream (:func:`_game_seed`), so results do not depend on how games are
    shared among threads.  The first game's events go to ``trace`` (as many
    as fit; see :func:`trace_game`); returns their count.
    """
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
    entry_gate = gparams[G_ENTRY_GATE]
    bar_gate = gparams[G_BAR_GATE]
    to_opponent = gparams[G_TO_OPPONENT] == 1
    gates = np.zeros(2, dtype=np.bool_)
    rest = np.empty(4, dtype=np.int64)
    for g in range(first_game, end_game):
        np.random.seed(_game_seed(seed, g))
        for i in range(SLOTS):
            board[i] = start[i]
        gates[0] = gates[1] = entry_gate == 0
        # roll-off: one die each, ties roll again; the higher die moves first
        a = _roll()
        b = _roll()
        while a == b:
            a = _roll()
            b = _roll()
        seat = 0 if a > b else 1
        tracing = g == first_game
        if tracing:
            tn = _trace(trace, tn, TRACE_OPENING, seat, a, b, board)
        decisions = 0
        rolls = 1
        first = True
        chain = 0
        winner = -1
        points = 0
        k = 1
        dice = two
        while decisions < max_decisions:
            if first and opening == 0:
                d1, d2 = max(a, b), min(a, b)
            else:
                d1 = _roll()
                d2 = _roll()
                rolls += 1
                if d2 > d1:
                    d1, d2 = d2, d1
                if tracing:
                    tn = _trace(trace, tn, TRACE_ROLL, seat, d1, d2, board)
            first = False
            if not gates[seat] and _gate_opens(entry_gate, d1, d2):
                gates[seat] = True
            if d1 == d2:
                for i in range(4):
                    four[i] = d1
                dice = four
            else:
                two[0] = d1
                two[1] = d2
                dice = two
            used, k, high = _decide(
                board, dice, gates[seat], bar_gate, mparams,
                pos, moves, meta, table, keep, work, aux,
            )  # fmt: skip
            decisions += 1
            if tracing:
                tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
            if k < 0 or board[28] == 15:
                break
            again = False
            if d1 != d2:
                earned = used == 2 or (used > 0 and not acey_both)
                if (
                    acey
                    and d1 == 2
                    and d2 == 1
                    and earned
                    and (chain_limit == 0 or chain < chain_limit)
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
                    dice = four
                    used, k, high = _decide(
                        board, dice, gates[seat], bar_gate, mparams,
                        pos, moves, meta, table, keep, work, aux,
                    )  # fmt: skip
                    decisions += 1
                    if tracing:
                        tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                    if k < 0 or board[28] == 15:
                        break
                    again = used == 4 or not acey_full
            else:
                if complement and used == 4:
                    for i in range(4):
                        four[i] = 7 - d1
                    dice = four
                    used, k, high = _decide(
                        board, dice, gates[seat], bar_gate, mparams,
                        pos, moves, meta, table, keep, work, aux,
                    )  # fmt: skip
                    decisions += 1
                    if tracing:
                        tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                    if k < 0 or board[28] == 15:
                        break
                again = reroll_mode == 2 or (reroll_mode == 1 and used == 4)
            if again:
                continue
            # end of the turn: the opponent may have to play the unplayed dice
            nd = dice.shape[0]
            gated = not gates[seat] or (board[24] > 0 and bar_gate == 1 and not _is_special(dice))
            _flip_into(board, other)
            for i in range(SLOTS):
                board[i] = other[i]
            seat = 1 - seat
            chain = 0
            if to_opponent and used < nd and not gated:
                m = nd - used
                if nd == 2 and used == 1:
                    rest[0] = dice[1] if high == 1 else dice[0]
                else:
                    for i in range(m):
                        rest[i] = dice[used + i] if nd == 2 else dice[0]
                used, k, high = _decide(
                    board, rest[:m], gates[seat], bar_gate, mparams,
                    pos, moves, meta, table, keep, work, aux,
                )  # fmt: skip
                decisions += 1
                if tracing:
                    tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                if k < 0 or board[28] == 15:
                    break
        if k < 0:
            winner = -2
        elif board[28] == 15:
            _flip_into(board, other)
            winner = seat
            points = _score(other, gparams[G_SCORING])
        out[g, 0] = winner
        out[g, 1] = points
        out[g, 2] = decisions
        out[g, 3] = rolls
        out[g, 4] = 0 if a > b else 1
    return tn


@njit(cache=True, parallel=True)
def _play_games_parallel(
    start: Any,
    mparams: Any,
    gparams: Any,
    games: int,
    seed: int,
    max_decisions: int,
    out: Any,
    chunks: int,
) -> None:
    """:func:`_play_chunk` over all games, ``chunks`` slices shared among threads."""
    for c in prange(chunks):
        lo = games * c // chunks
        hi = games * (c + 1) // chunks
        _play_chunk(
            start, mparams, gparams, lo, hi, seed, max_decisions, out,
            np.zeros((0, 4 + SLOTS), dtype=np.int64),
        )  # fmt: skip
