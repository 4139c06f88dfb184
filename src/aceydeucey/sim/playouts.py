"""Random backgammon playouts inside Numba: whole games with no Python per action.

Built on the move-generation kernel (:mod:`aceydeucey.backgammon.kernel`).
:func:`play_games` plays random self-play games (every decision uniform among
the distinct plays, as a random agent choosing among the contract's legal
actions) with the turn structure of ``game.py``; :func:`trace_game` returns one
such game event by event so that tests can replay it through the contract.
Whole-game options are an ``int64`` array (:func:`game_params_of` maps a
``BackgammonRules`` through the kernel's one :data:`~.kernel.RULE_CODES` map):
the opening, the 1-2 bonus and its options, extra rolls after doubles,
complements and the scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba
import numpy as np
from numba import njit, prange

from aceydeucey.backgammon.kernel import (
    _CAP,
    _MOVE_COLS,
    _TABLE,
    SLOTS,
    WORDS,
    _flip_into,
    _generate,
    code_of,
)

if TYPE_CHECKING:
    from aceydeucey.backgammon.rules import BackgammonRules

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
]

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

_NO_TRACE = np.zeros((0, 4 + SLOTS), dtype=np.int64)


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


def game_params_of(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The whole-game parameter array of ``rules``."""
    return game_params(
        opening=code_of(rules, "opening"),
        acey=rules.acey_deucey,
        doubles_reroll=code_of(rules, "natural_doubles_extra_roll"),
        scoring=code_of(rules, "scoring"),
        acey_both=rules.acey_requires_both_played,
        acey_full=rules.acey_reroll_requires_full_doubles,
        chain_limit=rules.acey_chain_limit or 0,
        complement=rules.doubles_plus_complement,
        named=rules.acey_doubles_choice == "named",
        entry_gate=code_of(rules, "entry_gate"),
        bar_gate=code_of(rules, "bar_reentry_gate"),
        to_opponent=rules.unplayable_remainder == "to_opponent",
    )


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
