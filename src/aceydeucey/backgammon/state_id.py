"""The backgammon state ID: a compact text that round-trips every state.

``BG1-`` followed by the unpadded URL-safe base64 of these bytes: phase (0
opening, 1 roll, 2 double, 3 play, 4 over), mover seat, kind (0 none, 1 roll,
2 named, 3 complement, 4 remainder), chain (1-2 bonuses taken this turn), flags
(bit 0: seat 0 has passed the entry gate, bit 1: seat 1 has, bit 2: the coming
roll is an extra roll of the same turn, bits 4-5: winner + 1), the number of
dice in hand and the dice, then the 24 points as signed bytes from the mover's
side, then bar, unentered and off (mover first, then opponent).  Where the cube or
a match is in play (any of them away from its start) the 30 bytes are followed by
the cube's log2, its owner + 1, the cube flags (``turn.CF_*``), whether the
Crawford game has begun, each seat's score (two bytes each, big-endian), the number
of games finished, and for each game its winner, its result code
(:data:`RESULTS`) and its points (two bytes).

:meth:`BackgammonState.state_id <aceydeucey.backgammon.game.BackgammonState.state_id>`
and ``game.new_state(state_id=...)`` use it; the codes are :mod:`.turn`'s.
"""

from __future__ import annotations

import base64
import binascii

from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.match import NO_MATCH, Match
from aceydeucey.backgammon.turn import KINDS, PHASES, Fields
from aceydeucey.core.errors import ArgumentError, message

__all__ = ["ID_PREFIX", "RESULTS", "decode", "encode"]

ID_PREFIX = "BG1-"
#: the codes of a finished game's result in the ID
RESULTS = ("single", "gammon", "backgammon", "per_checker", "dropped")
_BLANK = NO_MATCH


def encode(fields: Fields, position: Position, match: Match = _BLANK) -> str:
    """The state ID of the turn's ``fields``, the ``position`` (from the mover's side)
    and the ``match`` so far."""
    phase, mover, dice, kind, chain, gates, extra, winner, cube, owner, cflags = fields
    flags = (int(gates[0]) | int(gates[1]) << 1 | int(extra) << 2) | (winner + 1) << 4
    tail: list[int] = []
    if (cube, owner, cflags) != (1, -1, 0) or match != _BLANK:
        tail = [cube.bit_length() - 1, owner + 1, cflags, int(match.crawford_done)]
        for points in match.score:
            tail += [points >> 8, points & 0xFF]
        tail.append(len(match.games))
        for seat, points, result in match.games:
            tail += [seat, RESULTS.index(result), points >> 8, points & 0xFF]
    data = bytes(
        [
            PHASES.index(phase),
            mover,
            KINDS.index(kind),
            chain,
            flags,
            len(dice),
            *dice,
            *(n & 0xFF for n in position.points),
            *position.bar,
            *position.unentered,
            *position.off,
            *tail,
        ]
    )
    return ID_PREFIX + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def decode(state_id: str) -> tuple[Fields, Position, Match]:
    """The turn's fields, the position and the match of ``state_id``; ``ArgumentError``
    naming the problem if it is malformed."""
    text = state_id.strip()
    if not text.startswith(ID_PREFIX):
        raise ArgumentError("bg.state_id.prefix", id=state_id, prefix=ID_PREFIX)
    body = text[len(ID_PREFIX) :]
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise ArgumentError("bg.state_id.base64", id=state_id) from None
    if len(data) < 6 or len(data) < 6 + data[5] + 30:
        raise ArgumentError("bg.state_id.length", id=state_id)
    cube, owner, cflags, match = _decode_tail(data[6 + data[5] + 30 :], state_id)
    phase_i, mover, kind_i, chain, flags, n = data[:6]
    dice = tuple(data[6 : 6 + n])
    rest = data[6 + n :]
    points = tuple(b - 256 if b > 127 else b for b in rest[:24])
    if phase_i >= len(PHASES) or kind_i >= len(KINDS) or mover > 1:
        raise ArgumentError("bg.state_id.fields", id=state_id)
    if any(not 1 <= d <= 6 for d in dice) or n > 4:
        raise ArgumentError("bg.state_id.dice", id=state_id)
    position = Position(points, (rest[24], rest[25]), (rest[26], rest[27]), (rest[28], rest[29]))
    try:
        position.validate()
    except ArgumentError as exc:
        reason = message(exc.code, **exc.params)
        raise ArgumentError("bg.state_id.position", id=state_id, reason=reason) from None
    winner = (flags >> 4) - 1
    if winner not in (-1, 0, 1):
        raise ArgumentError("bg.state_id.winner", id=state_id)
    gates = (bool(flags & 1), bool(flags & 2))
    fields: Fields = (
        PHASES[phase_i],
        mover,
        dice,
        KINDS[kind_i],
        chain,
        gates,
        bool(flags & 4),
        winner,
        cube,
        owner,
        cflags,
    )
    return fields, position, match


def _decode_tail(tail: bytes, state_id: str) -> tuple[int, int, int, Match]:
    """The cube and the match of an ID's bytes after the position (none: the start)."""
    if not tail:
        return 1, -1, 0, _BLANK
    if len(tail) < 9 or len(tail) != 9 + 4 * tail[8]:
        raise ArgumentError("bg.state_id.length", id=state_id)
    log, owner1, cflags, done = tail[:4]
    if log > 12 or owner1 > 2 or cflags > 7 or done > 1:
        raise ArgumentError("bg.state_id.fields", id=state_id)
    score = (tail[4] << 8 | tail[5], tail[6] << 8 | tail[7])
    games = []
    for k in range(tail[8]):
        seat, code, high, low = tail[9 + 4 * k : 13 + 4 * k]
        if seat > 1 or code >= len(RESULTS):
            raise ArgumentError("bg.state_id.fields", id=state_id)
        games.append((seat, high << 8 | low, RESULTS[code]))
    return 1 << log, owner1 - 1, cflags, Match(score, tuple(games), bool(done))
