"""GNU Backgammon's Match ID, both ways: the cube, the turn, the dice and the score.

The Match ID (GNUBG's manual, "A technical description of the Match ID"; the 67th
bit is gnubg's later addition, read from its ``MatchID``) is 67 bits, least
significant first, written as 12 characters of base64:

====== ==========================================================================
bits   field
====== ==========================================================================
1-4    log2 of the cube's value
5-6    the cube's owner: 0 or 1 the player, 3 centred
7      the player on roll (who owns the dice)
8      this is the Crawford game
9-11   game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a drop
12     the player to decide now (the opponent while a double waits for an answer)
13     a double is offered
14-15  resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
16-18  first die (0: not rolled)
19-21  second die
22-36  match length (0: money play)
37-51  player 0's score
52-66  player 1's score
67     the Jacoby rule is off (always in a match; money play without ``jacoby``)
====== ==========================================================================

Player 0 is seat 0.  :func:`encode` and :func:`decode` work on :class:`MatchFields`;
:func:`of_state` reads a backgammon state (``state.match_id()``), and
``game.new_state(position_id=..., match_id=...)`` builds a state back from both IDs.
"""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, NamedTuple

from aceydeucey.backgammon.match import Match
from aceydeucey.backgammon.turn import (
    CF_CRAWFORD,
    CF_DROPPED,
    CUBE_DOUBLE,
    EV_CUBE,
    EV_TURN,
    Fields,
)
from aceydeucey.core.errors import ArgumentError

if TYPE_CHECKING:
    from aceydeucey.backgammon.board import Position
    from aceydeucey.backgammon.game import BackgammonGame, BackgammonState

__all__ = ["GAME_STATES", "MatchFields", "decode", "encode", "of_state", "state_of_match_id"]

#: game state codes, in the order of their values
GAME_STATES = ("none", "playing", "over", "resigned", "dropped")

#: (first bit, width) of each field, in order
_LAYOUT = (
    ("cube_log", 0, 4),
    ("owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("doubled", 12, 1),
    ("resigned", 13, 2),
    ("die0", 15, 3),
    ("die1", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)


class MatchFields(NamedTuple):
    """The fields of a Match ID, as gnubg names them (owner 3 is centred)."""

    cube_log: int
    owner: int
    on_roll: int
    crawford: int
    game_state: int
    turn: int
    doubled: int
    resigned: int
    die0: int
    die1: int
    match_length: int
    score0: int
    score1: int
    no_jacoby: int


def encode(fields: MatchFields) -> str:
    """The Match ID of ``fields``."""
    value = 0
    for (name, first, width), field in zip(_LAYOUT, fields, strict=True):
        if not 0 <= field < 1 << width:
            raise ArgumentError("bg.match_id.bad", id=repr(fields), reason=name)
        value |= field << first
    return base64.b64encode(value.to_bytes(9, "little")).decode("ascii")[:12]


def decode(text: str) -> MatchFields:
    """The fields of the Match ID ``text``; ``bg.match_id.bad`` if it is not one."""
    body = text.strip()
    try:
        data = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise ArgumentError("bg.match_id.bad", id=text, reason="base64") from None
    if len(body) != 12 or len(data) != 9:
        raise ArgumentError("bg.match_id.bad", id=text, reason="length")
    value = int.from_bytes(data, "little")
    fields = MatchFields(*((value >> first) & ((1 << width) - 1) for _, first, width in _LAYOUT))
    if fields.owner == 2 or fields.game_state >= len(GAME_STATES):
        raise ArgumentError("bg.match_id.bad", id=text, reason="owner/game state")
    if fields.die0 > 6 or fields.die1 > 6 or (fields.die0 == 0) != (fields.die1 == 0):
        raise ArgumentError("bg.match_id.bad", id=text, reason="dice")
    return fields


def of_state(state: BackgammonState) -> str:
    """The Match ID of ``state``: its cube, the seat on roll and the one to decide, the
    dice in hand, the match length and the score (seat 0 is gnubg's player 0).

    After a game's last play (or a drop) the player on roll is the loser, as in
    gnubg, where the turn passes after the game's last action too.
    """
    rules = state.game.rules
    phase = state.phase
    on_roll = state.mover
    turn = 1 - state.mover if phase == "take" else state.mover
    game_state = 1
    if phase == "over":
        game_state = 4 if state.cube_flags & CF_DROPPED else 2
        on_roll = turn = 1 - state.winner
    dice = state.dice if phase == "play" else ()
    score = state.match.score
    return encode(
        MatchFields(
            cube_log=state.cube.bit_length() - 1,
            owner=3 if state.cube_owner < 0 else state.cube_owner,
            on_roll=on_roll,
            crawford=int(bool(state.cube_flags & CF_CRAWFORD)),
            game_state=game_state,
            turn=turn,
            doubled=int(phase == "take"),
            resigned=0,
            die0=dice[0] if dice else 0,
            die1=dice[-1] if len(dice) == 2 or len(dice) == 4 else 0,
            match_length=rules.match_length or 0,
            score0=score[0],
            score1=score[1],
            no_jacoby=int(not rules.jacoby),
        )
    )


def state_of_match_id(game: BackgammonGame, position: Position, match_id: str) -> BackgammonState:
    """The state of a game in progress of ``position`` (from the side on roll) and the
    gnubg ``match_id``: a double waiting for an answer, dice to play, or the turn's
    start (the cube decision first where the player may double, as the turn step says).
    The Match ID holds no list of the games before: the match has only its score."""
    rules = game.rules
    f = decode(match_id)
    if f.game_state != 1 or f.resigned:
        raise ArgumentError("bg.match_id.bad", id=match_id, reason="not a game in play")
    if f.match_length != (rules.match_length or 0):
        raise ArgumentError("bg.match_id.bad", id=match_id, reason="match length")
    if (f.cube_log or f.owner != 3 or f.doubled) and rules.cube == "none":
        raise ArgumentError("bg.match_id.bad", id=match_id, reason="cube")
    crawford = bool(f.crawford)
    score = (f.score0, f.score1)
    length = rules.match_length
    done = crawford or (rules.crawford_rule and length is not None and length - 1 in score)
    match = Match(score, (), done)
    owner = -1 if f.owner == 3 else f.owner
    cflags = CF_CRAWFORD if crawford else 0
    fields: Fields
    if f.die0:
        dice = (f.die0,) * 4 if f.die0 == f.die1 else (max(f.die0, f.die1), min(f.die0, f.die1))
        cube = 1 << f.cube_log
        fields = ("play", f.on_roll, dice, "roll", 0, (True, True), False, -1, cube, owner, cflags)
        return game.state_of(fields, position, match)
    phase = "take" if f.doubled else "roll"
    fields = (phase, f.on_roll, (), "", 0, (True, True), False, -1, 1 << f.cube_log, owner, cflags)
    if f.doubled:
        if rules.beavers:  # the step's own answer: whether this double may be beavered
            before = ("cube", *fields[1:])
            fields = game.turns.after(before, EV_CUBE, CUBE_DOUBLE)[0]
        return game.state_of(fields, position, match)
    return game.state_of(game.turns.after(fields, EV_TURN)[0], position, match)
