"""The doubling cube on the engine's states: what a game is worth, why a cube action
is refused, what every seat sees of the cube, and the bots' default cube policy.

The cube's phases themselves (who may double when, take, drop, beaver) are the turn
step's (:mod:`.turn`); this module reads the record the step leaves.

* **Points.** A game won by play is worth its result (single 1, gammon 2, backgammon
  3 under ``scoring="gammons"``; one point per checker not borne off under
  ``per_checker``, betting777 and LEE) times the cube's value; under the Jacoby rule
  (money play, ``jacoby``) gammons and backgammons count as single games while the
  cube is centred.  A dropped double ends the game at the cube's value before the
  double.
* **Refusals** (codes in both catalogs): ``bg.cube.no_cube`` (no cube in these
  rules), ``bg.cube.not_yours`` (the opponent owns the cube), ``bg.cube.crawford``
  (the Crawford game), ``bg.cube.max`` (the cube is at ``max_cube``),
  ``bg.cube.not_now`` (not before a turn's roll, or no double to answer),
  ``bg.cube.no_beaver`` (beavers not allowed, or past ``max_cube``).
* **Default policy** (:func:`default_cube_choice`): never double, always take;
  every bot that has no cube policy of its own plays it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aceydeucey.backgammon.generate import board_of
from aceydeucey.backgammon.turn import (
    CF_CRAWFORD,
    CF_DROPPED,
    CF_MAY_BEAVER,
    CUBE_CHOICES,
    code_of,
    game_points,
)
from aceydeucey.core.errors import IllegalActionError

if TYPE_CHECKING:
    from aceydeucey.backgammon.game import BackgammonState
    from aceydeucey.backgammon.notation import CubeAction

__all__ = [
    "cube_actions",
    "cube_refusal",
    "cube_view",
    "default_cube_choice",
    "game_result",
]

_DOUBLE_OR_ROLL = ("double", "roll")


def game_result(state: BackgammonState) -> tuple[int, str]:
    """``(points, result)`` of a finished game: what the loser pays, and how counted
    (``single``, ``gammon``, ``backgammon``, ``per_checker`` or ``dropped``)."""
    if state.cube_flags & CF_DROPPED:
        return state.cube, "dropped"
    rules = state.game.rules
    # the loser on roll, as the one scoring of the engine, playouts and trainer reads it
    loser = memoryview(board_of(state.position.flip())).cast("b")  # signed counts
    base = game_points(loser, code_of(rules, "scoring"))
    if rules.scoring == "per_checker":
        return base * state.cube, "per_checker"
    if rules.jacoby and state.cube_owner == -1:
        base = 1  # the Jacoby rule: no gammons while the cube is centred
    result = {1: "single", 2: "gammon", 3: "backgammon"}[base]
    return base * state.cube, result


def cube_actions(state: BackgammonState) -> list[CubeAction]:
    """The cube actions open now: at the ``cube`` phase ``double`` and ``roll``; at the
    ``take`` phase ``take``, ``drop`` and, where the step allows it, ``beaver``."""
    from aceydeucey.backgammon.notation import CubeAction

    if state.phase == "cube":
        return [CubeAction(word) for word in _DOUBLE_OR_ROLL]
    if state.phase == "take":
        words = ["take", "drop"] + (["beaver"] if state.cube_flags & CF_MAY_BEAVER else [])
        return [CubeAction(word) for word in words]
    return []


def cube_refusal(state: BackgammonState, action: CubeAction) -> IllegalActionError:
    """The precise, coded refusal of ``action``, not legal in ``state``."""
    rules = state.game.rules
    word = str(action)
    if rules.cube == "none":
        return IllegalActionError("bg.cube.no_cube", action=word)
    if word == "double" and state.phase in ("roll", "cube", "take") and not state.extra:
        if state.cube_flags & CF_CRAWFORD:
            return IllegalActionError("bg.cube.crawford", action=word)
        if state.cube_owner not in (-1, state.mover):
            return IllegalActionError("bg.cube.not_yours", action=word, owner=state.cube_owner)
        if state.cube >= rules.cube_limit:
            return IllegalActionError("bg.cube.max", action=word, limit=rules.cube_limit)
    if word == "beaver" and state.phase == "take":
        if not rules.beavers:
            return IllegalActionError("bg.cube.no_beaver", action=word, why="rules")
        return IllegalActionError("bg.cube.max", action=word, limit=rules.cube_limit)
    return IllegalActionError("bg.cube.not_now", action=word, phase=state.phase)


def cube_view(state: BackgammonState) -> dict[str, Any]:
    """What every seat and a spectator see of the cube and the match (seats absolute).

    ``cube`` (value), ``cube_owner`` (``None`` centred, else the seat), ``may_double``
    (the player to act may double now), ``cube_offer`` (``None``, or the double
    waiting for an answer: the doubler's seat, the value if taken, whether it may be
    beavered), ``match_length``, ``match_score``, ``crawford`` (this is the Crawford
    game), ``post_crawford``, ``games`` (each finished game of the match).
    """
    rules = state.game.rules
    offer = None
    if state.phase == "take":
        offer = {
            "seat": state.mover,
            "value": 2 * state.cube,
            "beaver": bool(state.cube_flags & CF_MAY_BEAVER),
        }
    crawford = bool(state.cube_flags & CF_CRAWFORD)
    match = state.match
    return {
        "cube": state.cube,
        "cube_owner": None if state.cube_owner < 0 else state.cube_owner,
        "may_double": state.phase == "cube",
        "cube_offer": offer,
        "match_length": rules.match_length,
        "match_score": list(match.score),
        "crawford": crawford,
        "post_crawford": match.is_post_crawford(rules, crawford),
        "games": match.to_json()["games"],
    }


def default_cube_choice(legal: list[str]) -> str | None:
    """The default cube policy of bots that have none of their own: at a cube decision
    (``legal`` only cube words) never double and always take; ``None`` elsewhere."""
    if not legal or any(text not in CUBE_CHOICES for text in legal):
        return None
    return "roll" if "roll" in legal else "take"
