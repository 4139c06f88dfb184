"""What the replay viewer draws for a decision's best play: the board after it, and its moves.

For every checker play, and every Acey-Deucey double named after a 1-2, whose best choice
(:func:`~.analysis.analyze`'s ``best``) is not the one made, :func:`best_plays` gives

* ``board``: the public observation after the best choice, the board ``/replay/steps``
  gives for a step (``state.observation(None)``), which the page draws as it draws a step;
* ``moves``: each checker the best choice moves, die by die (``{"from", "to", "hit",
  "seat"}``), numbered from the public view's side (seat 0's: a point ``p`` of seat 1's is
  ``25 - p``; ``bar``, ``in`` and ``off`` are the mover's, ``seat``);
* ``played_moves``: the same for the play made, so the page marks both without a rule;
* ``play``: the checker play the board shows (for a named double: its best play), in the
  mover's numbering as the analysis writes plays; ``shown``: it written from seat 0's
  side, as the board is drawn and the moves listed.

A named double's best choice is the double and then its best play at 0-ply (the play
that gives the double its value), so the board shows checkers moved; its ``played_moves``
are empty (the step after naming a double moves none).  Cube decisions have no board.
"""

from __future__ import annotations

import re
from typing import Any

from aceydeucey.backgammon.bots import rank_observation
from aceydeucey.backgammon.evaluator import Evaluator
from aceydeucey.backgammon.notation import DoubleChoice, parse_action_text
from aceydeucey.core.record import Record

__all__ = ["DRAWN", "best_plays", "for_the_viewer", "public_moves", "public_text"]

#: the decisions whose best choice has a board to draw
DRAWN = ("play", "named_double")


def for_the_viewer(record: Record, decisions: list[dict[str, Any]]) -> None:
    """Add to ``decisions`` (the analysis of ``record``, as JSON) what the replay viewer
    draws and says: ``best_view`` (:func:`best_plays`), ``best_shown`` and
    ``played_shown`` at a checker play (:func:`public_text`), ``best_double`` and
    ``played_double`` at a named double (the numbers, for the page's own words)."""
    drawn = best_plays(record, decisions)
    for decision in decisions:
        if decision["kind"] == "play":
            decision["best_shown"] = public_text(decision["best"], decision["seat"])
            decision["played_shown"] = public_text(decision["played"], decision["seat"])
        elif decision["kind"] == "named_double":
            for key in ("best", "played"):
                named = parse_action_text(decision[key])
                if isinstance(named, DoubleChoice):
                    decision[f"{key}_double"] = named.value
        if decision["index"] in drawn:
            decision["best_view"] = drawn[decision["index"]]


def best_plays(record: Record, decisions: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The board and moves of each drawn decision's best choice, by its action's index
    (``decisions``: :meth:`~.analysis.Analysis.to_json`'s, for ``record``)."""
    wanted = {
        int(d["index"]): d for d in decisions if d["kind"] in DRAWN and d["best"] != d["played"]
    }
    out: dict[int, dict[str, Any]] = {}
    if not wanted:
        return out
    game: Any = record.make_game()
    evaluator: Evaluator | None = None
    state = game.new_initial_state()
    for index, text in enumerate(record.actions):
        if index > max(wanted):
            break
        decision = wanted.get(index)
        if decision is not None:
            seat = int(state.current_player())
            best = state.apply(decision["best"])
            play = decision["best"]
            moves = public_moves(state, play, seat)
            played = public_moves(state, text, seat)
            if decision["kind"] == "named_double":
                evaluator = evaluator or Evaluator(game.rules)
                play, moves, best = _played_out(evaluator, best, seat)
                played = []
            out[index] = {
                "board": best.observation(None),
                "moves": moves,
                "played_moves": played,
                "play": play,
                "shown": public_text(play, seat),
            }
        state = state.apply(text)
    return out


def _played_out(evaluator: Evaluator, state: Any, seat: int) -> tuple[str, list[Any], Any]:
    """After a named double: its best play (the sole one when forced), that play's moves
    and the state after it (no play to make: the state as it is)."""
    if state.is_chance_node() or state.is_terminal() or state.phase != "play":
        return "", [], state
    observation = state.observation(seat)
    legal: list[str] = observation["legal_actions"]
    play = legal[0] if len(legal) == 1 else rank_observation(evaluator, observation, 0)[0].text
    return play, public_moves(state, play, seat), state.apply(play)


def public_moves(state: Any, text: str, seat: int) -> list[dict[str, Any]]:
    """The checker moves of the play ``text`` at ``state`` (empty for a play that moves
    none, or an action that is not a play), numbered from seat 0's side."""
    if state.phase != "play":
        return []
    steps: dict[str, list[dict[str, Any]]] = state.observation(seat)["play_steps"]
    found = steps.get(text)
    if found is None:  # a record may write a play otherwise than its canonical text
        found = steps.get(str(state.parse_action(text)), [])
    return [
        {
            "from": _public(step["from"], seat),
            "to": _public(step["to"], seat),
            "hit": bool(step["hit"]),
            "seat": seat,
        }
        for step in found
    ]


def public_text(text: str, seat: int) -> str:
    """A play's text (the mover's numbering) written from seat 0's side: each point ``p`` of
    seat 1's is ``25 - p``; a count in parentheses stays."""
    if seat != 1:
        return text
    return re.sub(r"(\(\d+\))|(\d+)", lambda m: m[1] or str(25 - int(m[2])), text)


def _public(place: int | str, seat: int) -> int | str:
    return 25 - place if seat == 1 and isinstance(place, int) else place
