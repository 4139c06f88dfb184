"""Random backgammon playouts inside Numba: whole games with no Python per action.

Built on the move-generation kernel (:mod:`aceydeucey.backgammon.kernel`).
:func:`play_games` plays random self-play games (every decision uniform among
the distinct plays, as a random agent choosing among the contract's legal
actions) with the game's turn structure: every event goes through the compiled
turn step (:func:`aceydeucey.backgammon.turn.step`, the engine's own), so the
playouts cover every option the engine plays.  :func:`trace_game` returns one
such game event by event so that tests can replay it through the contract.
Whole-game options are an ``int64`` array (:func:`game_params_of` maps a
``BackgammonRules`` through the one :data:`~aceydeucey.backgammon.turn.RULE_CODES`
map): the opening, the gates, the 1-2 bonus and its options, extra rolls after
doubles, complements, dice passed to the opponent and the scoring.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import njit, prange

from aceydeucey import kernels
from aceydeucey.backgammon.kernel import (
    _CAP,
    _MOVE_COLS,
    _TABLE,
    SLOTS,
    WORDS,
    _flip_into,
    _generate,
    game_points,
    turn_step,
)
from aceydeucey.backgammon.turn import (
    CUBE_ROLL,
    EV_CUBE,
    EV_DOUBLE,
    EV_NEW,
    EV_OPENING,
    EV_PLAY,
    EV_ROLL,
    G_ACEY,
    G_ACEY_BOTH,
    G_ACEY_FULL,
    G_BAR_GATE,
    G_CHAIN_LIMIT,
    G_COMPLEMENT,
    G_DOUBLES_REROLL,
    G_ENTRY_GATE,
    G_NAMED,
    G_OPENING,
    G_SCORING,
    G_TO_OPPONENT,
    N_GAME_PARAMS,
    N_TURN,
    PH_CUBE,
    PH_DOUBLE,
    PH_OVER,
    PH_PLAY,
    PH_ROLL,
    PLAY_ENDS,
    PLAY_FROM_BAR,
    T_BAR_OPEN,
    T_DICE,
    T_GATE,
    T_MOVER,
    T_N,
    T_PHASE,
    T_WINNER,
    game_params,
    game_params_of,
)

__all__ = [
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
    "game_params",
    "game_params_of",
    "play_games",
    "trace_game",
    "warm_up",
]

TRACE_OPENING = 0
TRACE_ROLL = 1
TRACE_DOUBLE = 2
TRACE_PLAY = 3


_NO_TRACE = np.zeros((0, 4 + SLOTS), dtype=np.int64)


@kernels.needs("playouts")
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


@kernels.needs("playouts")
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


def warm_up() -> None:
    """Compile the playouts' kernels (or load them from Numba's cache): the function of
    ``aceydeucey.kernels``' target ``playouts``, one short run of each entry point."""
    from aceydeucey.backgammon.board import standard_start
    from aceydeucey.backgammon.generate import fast_params, to_board
    from aceydeucey.backgammon.rules import BackgammonRules

    rules = BackgammonRules.resolve(variant="classic")
    start, mparams, gparams = to_board(standard_start()), fast_params(rules), game_params_of(rules)
    play_games(start, mparams, gparams, 2, 0)
    play_games(start, mparams, gparams, 2, 0, parallel=True)
    trace_game(start, mparams, gparams, 0)


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
    bar_open: bool,
    params: Any,
    pos: Any,
    moves: Any,
    meta: Any,
    table: Any,
    keep: Any,
    work: Any,
    aux: Any,
) -> tuple[int, int, int]:
    """Play ``dice`` by a uniformly random distinct play (a pass when a gate is closed:
    the mover's entry gate, or the bar's when a checker of the mover's is on it).

    Returns (dice used, plays open, whether a one-die play used the higher die);
    plays open is -1 when the result table overflowed.
    """
    if not may_enter or (board[24] > 0 and not bar_open):
        return 0, 1, 0
    k, _ = _generate(board, dice, params, pos, moves, meta, table, keep, work, aux)
    if k <= 0:
        return 0, -1, 0
    pick = keep[np.random.randint(0, k)]
    for i in range(SLOTS):
        board[i] = pos[pick, i]
    return meta[pick, 1], k, meta[pick, 2]


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

    ``out[g] = (winner, points, decisions, rolls, first)``.  Each event goes
    through the turn step (:func:`~aceydeucey.backgammon.turn.step`, compiled), which
    says what comes next: a roll, the double after a 1-2 (a decision when it is
    named), or a play of the dice in hand, by the mover or, for dice passed on, by
    the opponent.  Each decision picks uniformly among the distinct legal plays (or
    the six doubles).  Each game draws from its own stream (:func:`_game_seed`), so
    results do not depend on how games are shared among threads.  The first game's
    events go to ``trace`` (as many as fit; see :func:`trace_game`); returns their
    count.
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
    # the dice in hand, one array per count (a slice would be counted by Numba's runtime)
    hands = (
        np.zeros(1, dtype=np.int64),
        np.zeros(2, dtype=np.int64),
        np.zeros(3, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
    )
    t = np.zeros(N_TURN, dtype=np.int64)
    named_is_decision = gparams[G_NAMED] == 1
    for g in range(first_game, end_game):
        np.random.seed(_game_seed(seed, g))
        for i in range(SLOTS):
            board[i] = start[i]
        turn_step(gparams, t, EV_NEW, 0, 0, 0)
        # roll-off: one die each, ties roll again
        a = _roll()
        b = _roll()
        while a == b:
            a = _roll()
            b = _roll()
        tracing = g == first_game
        if tracing:
            tn = _trace(trace, tn, TRACE_OPENING, 0 if a > b else 1, a, b, board)
        if turn_step(gparams, t, EV_OPENING, a, b, 0):
            _turn_round(board, other)
        decisions = 0
        rolls = 1
        k = 1
        while decisions < max_decisions:
            phase = t[T_PHASE]
            seat = t[T_MOVER]
            if phase == PH_OVER:
                break
            if phase == PH_ROLL:
                d1 = _roll()
                d2 = _roll()
                rolls += 1
                if d2 > d1:
                    d1, d2 = d2, d1
                if tracing:
                    tn = _trace(trace, tn, TRACE_ROLL, seat, d1, d2, board)
                turn_step(gparams, t, EV_ROLL, d1, d2, 0)
            elif phase == PH_DOUBLE:
                named = _roll()  # uniform: a random player's choice or the die
                if named_is_decision:
                    decisions += 1
                else:
                    rolls += 1
                if tracing:
                    tn = _trace(trace, tn, TRACE_DOUBLE, seat, named, 0, board)
                turn_step(gparams, t, EV_DOUBLE, named, 0, 0)
            elif phase == PH_PLAY:
                n = t[T_N]
                hand = hands[n - 1]
                for i in range(n):
                    hand[i] = t[T_DICE + i]
                from_bar = PLAY_FROM_BAR if board[24] > 0 else 0
                used, k, high = _decide(
                    board, hand, t[T_GATE + seat] == 1, t[T_BAR_OPEN] == 1, mparams,
                    pos, moves, meta, table, keep, work, aux,
                )  # fmt: skip
                decisions += 1
                if tracing:
                    tn = _trace(trace, tn, TRACE_PLAY, seat, used, k, board)
                if k < 0:
                    break
                ends = PLAY_ENDS if board[28] == 15 else 0
                if turn_step(gparams, t, EV_PLAY, used, high, ends | from_bar):
                    _turn_round(board, other)
            elif phase == PH_CUBE:  # the playouts' cube policy: never double
                turn_step(gparams, t, EV_CUBE, CUBE_ROLL, 0, 0)
            else:  # no other phase reaches the playouts
                k = -1
                break
        winner = -1
        points = 0
        if k < 0:
            winner = -2
        elif t[T_PHASE] == PH_OVER:
            _flip_into(board, other)
            winner = t[T_WINNER]
            points = game_points(other, gparams[G_SCORING])
        out[g, 0] = winner
        out[g, 1] = points
        out[g, 2] = decisions
        out[g, 3] = rolls
        out[g, 4] = 0 if a > b else 1
    return tn


@njit(cache=True)
def _turn_round(board: Any, other: Any) -> None:
    """Turn ``board`` round in place (the other side is on roll), through ``other``."""
    _flip_into(board, other)
    for i in range(SLOTS):
        board[i] = other[i]


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
