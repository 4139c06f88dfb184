"""What a backgammon state shows and says: its observation, its events, how it ended,
and why an action is refused.

Functions of a :class:`~.state.BackgammonState` that read it and never change it
(the state's ``observe``, ``event_view``, ``termination``, ``ending_returns`` and
``illegal`` call them): the board from a seat's side with the cube's and the match's
fields (:mod:`.cube`), each legal play's die-by-die steps, whether the mover rolls
again, the compact events written out, and the coded refusals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from aceydeucey.backgammon.board import CHECKERS
from aceydeucey.backgammon.cube import cube_refusal, cube_view, game_result
from aceydeucey.backgammon.moves import explain_steps
from aceydeucey.backgammon.notation import (
    CubeAction,
    DoubleChoice,
    Opening,
    Play,
    Roll,
    Steps,
    play_steps,
)
from aceydeucey.backgammon.termination import Termination
from aceydeucey.backgammon.turn import CF_DROPPED, EV_PLAY
from aceydeucey.core.errors import IllegalActionError, message
from aceydeucey.core.game import CHANCE

if TYPE_CHECKING:
    from aceydeucey.backgammon.state import BackgammonState

__all__ = [
    "PLAY_EVENT",
    "ending_returns",
    "event_dict",
    "illegal",
    "observe",
    "play_steps_of",
    "reroll_pending",
    "termination",
    "who",
    "why",
]

#: first item of a play's compact event (see :func:`event_dict`)
PLAY_EVENT = "play"


def illegal(state: BackgammonState, action: object) -> IllegalActionError:
    """The precise error for ``action``, which is not legal here (a code and params)."""
    if state.is_terminal():
        return IllegalActionError("action.game_over", action=str(action))
    if isinstance(action, CubeAction):
        return cube_refusal(state, action)
    if isinstance(action, Play | Steps) and state.phase == "play":
        return explain_steps(
            state.position, state.dice, action.moves, state.plays, state.game.rules
        )
    if isinstance(action, Roll | Opening) or (
        isinstance(action, DoubleChoice) and state.current_player() == CHANCE
    ):
        if state.current_player() != CHANCE:
            return IllegalActionError("bg.illegal.chance_turn", action=str(action), who=who(state))
        return IllegalActionError("bg.illegal.not_outcome", action=str(action), phase=state.phase)
    if isinstance(action, DoubleChoice):
        return IllegalActionError("bg.illegal.no_double_now", action=str(action), who=who(state))
    if isinstance(action, Play | Steps):
        return IllegalActionError("bg.illegal.step_now", action=str(action), why=why(state))
    return IllegalActionError("bg.illegal.not_an_action", action=str(action), why=why(state))


def who(state: BackgammonState) -> dict[str, Any]:
    player = state.current_player()
    if player == CHANCE:
        code = {"opening": "bg.who.opening", "double": "bg.who.double_die"}
        return message(code.get(state.phase, "bg.who.roll"))
    return message("bg.who.seat", seat=player)


def why(state: BackgammonState) -> dict[str, Any]:
    """Why no checker moves now (or, in the play phase, what to write instead)."""
    if state.phase == "double":
        return message("bg.why.name_double")
    if state.phase == "cube":
        return message("bg.why.cube")
    if state.phase == "take":
        return message("bg.why.take")
    if state.phase == "over":
        return message("bg.why.over")
    if state.phase == "play":
        return message("bg.why.play_now")
    return message("bg.why.waiting", who=who(state))


def observe(state: BackgammonState, seat: int | None) -> dict[str, Any]:
    """The board from ``seat``'s side; the public view (``None``) is seat 0's side.

    Backgammon hides nothing, so every seat and a spectator see the same facts;
    only the side the points are numbered from differs.  ``pending_double`` is
    ``True`` while a double is to be named after a 1-2 and the named double's
    value while it is played; ``reroll_pending`` says whether the same player
    rolls again after what is being played now.  ``play_steps`` (for the seat to
    play, else empty) gives each legal play's die-by-die steps, so a page draws
    checkers moving one die at a time without knowing a rule.
    """
    side = 0 if seat is None else seat
    pos = state.view(side)
    phase = state.phase
    rules = state.game.rules
    pending: bool | int = False
    if phase == "double":
        pending = True
    elif phase == "play" and state.kind == "named":
        pending = state.dice[0]
    return {
        "variant": state.game.rules.variant,
        "mover": state.mover,
        "points": list(pos.points),
        "bar": list(pos.bar),
        "unentered": list(pos.unentered),
        "off": list(pos.off),
        "pip": list(pos.pip_counts()),
        "dice": list(state.dice) if phase == "play" else [],
        "dice_kind": state.kind,
        "pending_double": pending,
        "reroll_pending": reroll_pending(state),
        "chain": state.chain,
        "entry_gate_passed": [state.gates[side], state.gates[1 - side]],
        "winner": state.winner if phase == "over" else None,
        "play_steps": play_steps_of(state) if phase == "play" and seat == state.mover else {},
        **(cube_view(state) if rules.cube != "none" or rules.is_match else {}),
    }


def play_steps_of(state: BackgammonState) -> dict[str, list[dict[str, Any]]]:
    """Each legal play (by its text) as its die-by-die steps, in the order played:
    ``{"from": 13 | "bar" | "in", "to": 7 | "off", "die": 6, "hit": false}``.

    Built once per state (kept in its memo); each observation gets its own copy of the
    mapping, so that a caller editing one leaves the others alone."""
    memo = state.memo
    steps = memo.play_steps
    if steps is None:
        dice = state.dice
        steps = memo.play_steps = {
            text: play_steps(play, dice) for text, play in state.by_text().items() if play.moves
        }
    return dict(steps)


def reroll_pending(state: BackgammonState) -> bool:
    """Whether the mover rolls again after what is to be played now.

    At a roll node: whether that roll is an extra roll of the same turn.  While the
    double after a 1-2 is still to be named: ``True`` (a reroll follows a double
    played in full).  At a play: whether the dice in hand, played as far as they can
    be, earn another roll (a named double of which part cannot be played does not,
    unless ``acey_reroll_requires_full_doubles`` is off).
    """
    phase = state.phase
    if phase == "roll":
        return state.extra
    if phase == "double":
        return True
    if phase != "play":
        return False
    used = len(state.dice) - min(len(play.unused) for play in state.plays)
    fields, turned = state.game.turns.after(state._fields(), EV_PLAY, used)
    return not turned and fields[0] == "roll" and fields[6]


def termination(state: BackgammonState) -> tuple[str, dict[str, Any]]:
    """``race.borne_off`` with the winner, the points won and how they were counted.

    ``result`` is ``single``, ``gammon`` or ``backgammon`` (scoring ``gammons`` or
    ``single``) or ``per_checker`` (Acey-Deucey: one point per checker the loser has
    not borne off).  Other endings (a resignation, from a table) get their own
    codes beside this one.
    """
    points, result = game_result(state)
    params: dict[str, Any] = {
        "winner": state.winner,
        "points": points,
        "result": result,
        "result_name": message(f"race.result.{result}"),
    }
    rules = state.game.rules
    code = Termination.DROPPED if state.cube_flags & CF_DROPPED else Termination.BORNE_OFF
    if rules.cube != "none":
        params["cube"] = state.cube
    if rules.is_match:
        code = Termination.MATCH_WON
        score = state.match.score
        params.update(state.match.to_json(), match_length=rules.match_length)
        params["final"] = f"{score[0]}-{score[1]}"
    return code, params


def ending_returns(state: BackgammonState, seat: int) -> tuple[Fraction, ...]:
    """The returns when ``seat`` gives the game up (resigns, or loses by a claim or a
    timeout): it loses a single game, 1 point, whatever gammon the position threatens
    (scoring ``single`` and ``gammons``); under ``per_checker`` scoring it pays what it
    would pay if the opponent finished now, one point per checker it has not borne off.
    """
    rules = state.game.rules
    if rules.is_match:
        points = Fraction(1)
    elif rules.scoring == "per_checker":
        points = Fraction((CHECKERS - state.view(seat).off[0]) * state.cube)
    else:
        points = Fraction(state.cube)
    out = [points, points]
    out[seat] = -points
    return tuple(out)


def event_dict(event: tuple[Any, ...]) -> dict[str, Any]:
    """The observation's ``last_event``: a play is written out (text, hits, dice left unused)."""
    if event[0] == PLAY_EVENT:
        _, seat, played, dice, kind = event
        event = (("kind", "play"), ("seat", seat), ("play", played), ("dice", dice))
        event += (("dice_kind", kind),)
    out: dict[str, Any] = {}
    play: Play | None = None
    for key, value in event:
        if key == "last":  # the play or cube action that ended a game of a match
            out[key] = event_dict(value) if value else None
        elif key == "play":
            play = value
            out[key] = str(value)
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    if play is not None:
        out["hits"] = sum(1 for m in play.moves if m.hit)
        out["unused"] = list(play.unused)
    return out
