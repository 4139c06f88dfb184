"""The trained network's cube decisions: double / roll, take / drop / beaver.

The bots ``net``, ``net2`` and ``net3`` answer a cube decision with :func:`cube_choice`: the
network's cubeless chances of the side on roll before its roll (for ``net`` the average
over the 21 rolls of its best 0-ply play; for ``net2`` and ``net3`` one roll deeper, each of those
plays valued by the opponent's own 21 rolls), the cube's value and owner and
the stakes of the rules (money, with the Jacoby rule and beavers where they apply,
the cube's limit; or the match score through the project's match equity table,
:mod:`.met`) go to :func:`.cubeful.decide`.  The cube efficiency is that of the
position type (:func:`.cubeful.cube_efficiency`: contact or a race of its length).
Per-checker scoring (Acey-Deucey with a cube) uses the network's mean points of a
win and of a loss in place of gammon chances.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from aceydeucey.backgammon import generate, kernel, pubeval
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.cube import default_cube_choice
from aceydeucey.backgammon.cubeful import (
    MONEY_LEVELS,
    CubeDecision,
    MatchStakes,
    MoneyStakes,
    Owner,
    Probabilities,
    Stakes,
    cube_efficiency,
    decide,
)
from aceydeucey.backgammon.met import default_table
from aceydeucey.backgammon.rules import BackgammonRules

__all__ = ["cube_choice", "cube_decision", "probabilities", "stakes_of"]


def stakes_of(rules: BackgammonRules, observation: dict[str, Any], seat: int, cube: int) -> Stakes:
    """The stakes for ``seat`` (the side on roll) under ``rules`` at the observed score."""
    if rules.cube == "match" and rules.match_length is not None:
        score = observation.get("match_score") or [0, 0]
        length = int(rules.match_length)
        return MatchStakes(
            length - int(score[seat]),
            length - int(score[1 - seat]),
            default_table(),
            crawford=bool(observation.get("crawford")),
        )
    levels = MONEY_LEVELS
    limit = rules.cube_limit
    while levels > 0 and cube << levels > limit:
        levels -= 1
    return MoneyStakes(jacoby=bool(rules.jacoby), beavers=bool(rules.beavers), levels=levels)


def probabilities(evaluator: Any, position: Position, ply: int) -> Probabilities:
    """The network's cubeless chances for the side on roll of ``position`` before its roll:
    one roll deep at ``ply`` 0 (``net``), two at 2 and 3 (``net2``, ``net3``), see
    :meth:`.evaluator.Evaluator.before_roll`."""
    board = generate.to_board(position).reshape(kernel.SLOTS)
    outputs = evaluator.before_roll(board, rolls=2 if ply >= 2 else 1)
    values = tuple(float(v) for v in np.asarray(outputs))
    if evaluator.spec.name == "points":
        return Probabilities.of_points(values)
    if evaluator.rules.scoring == "single":
        return Probabilities(values[0])
    return Probabilities.of(values)


def cube_decision(
    evaluator: Any,
    observation: dict[str, Any],
    rules: BackgammonRules,
    ply: int,
    mine: Position,
) -> CubeDecision:
    """The decision of the side on roll (the doubler), whichever seat observes (``mine``:
    the position the observation shows, from its seat's side)."""
    seat = int(observation["seat"])
    offer = observation.get("cube_offer")
    on_roll = int(offer["seat"]) if offer else seat
    position = mine if on_roll == seat else mine.flip()
    cube = int(observation.get("cube") or 1)
    holder = observation.get("cube_owner")
    owner: Owner = "centred" if holder is None else ("me" if holder == on_roll else "opponent")
    x = cube_efficiency(pubeval.is_race(position), position.pip_counts()[0])
    stakes = stakes_of(rules, observation, on_roll, cube)
    return decide(probabilities(evaluator, position, ply), cube, owner, stakes, x)


def cube_choice(
    evaluator: Any,
    observation: dict[str, Any],
    rules: BackgammonRules,
    ply: int,
    mine: Position,
) -> str | None:
    """The cube action to play when ``legal_actions`` are cube words, else ``None``."""
    legal: list[str] = observation["legal_actions"]
    if default_cube_choice(legal) is None:  # not a cube decision
        return None
    decision = cube_decision(evaluator, observation, rules, ply, mine)
    if "roll" in legal:
        return "double" if decision.action == "double" and "double" in legal else "roll"
    if decision.response == "pass":
        return "drop"
    if decision.response == "beaver" and "beaver" in legal:
        return "beaver"
    return "take"
