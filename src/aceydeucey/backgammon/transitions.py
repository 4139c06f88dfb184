"""A backgammon state's transitions: the state after each event (a roll, a play, the
cube, the opening roll-off, a named double), built from the turn step's answers
(:mod:`.turn`), and the state's memo of derived values.

Each function takes a :class:`.state.BackgammonState` and returns a new one, never
changing it: the new state's attribute dictionary is filled once, before anyone holds
it (:func:`_made`, the constructor's value without its per-field ``__init__``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.cube import game_result
from aceydeucey.backgammon.generate import (
    flipped_board_of,
    flipped_result,
    play_facts,
    result_board,
)
from aceydeucey.backgammon.match import Match
from aceydeucey.backgammon.notation import CubeAction, DoubleChoice, Opening, Play, Roll
from aceydeucey.backgammon.turn import (
    EV_CUBE,
    EV_DOUBLE,
    EV_OPENING,
    EV_PLAY,
    EV_ROLL,
    PLAY_ENDS,
    PLAY_FROM_BAR,
    Fields,
    TurnNode,
)
from aceydeucey.backgammon.views import PLAY_EVENT
from aceydeucey.core.game import Action

if TYPE_CHECKING:
    from aceydeucey.backgammon.state import BackgammonState

__all__ = [
    "Memo",
    "after_play",
    "after_roll",
    "evolve",
    "fields_of",
    "settled",
    "transition",
    "turn_node",
    "with_fields",
]


def transition(state: BackgammonState, action: Action) -> BackgammonState:
    if state.phase == "play":
        assert isinstance(action, Play)
        return after_play(state, action, play_facts(action))
    if isinstance(action, Roll):
        return after_roll(
            state,
            action.dice,
            (("kind", "roll"), ("seat", state.mover), ("dice", (action.high, action.low))),
        )
    turns = state.game.turns
    if isinstance(action, CubeAction):
        actor = state.current_player()
        fields, _ = turns.after(fields_of(state), EV_CUBE, action.code)
        cubed = (("kind", "cube"), ("seat", actor), ("action", str(action)))
        return settled(with_fields(state, fields, last_event=(*cubed, ("cube", fields[8]))))
    if isinstance(action, Opening):
        event = (
            ("kind", "opening"),
            ("dice", (action.die0, action.die1)),
            ("first", action.first),
        )
        fields, turned = turns.after(fields_of(state), EV_OPENING, action.die0, action.die1)
        position = state.position.flip() if turned else state.position
        return with_fields(state, fields, position=position, last_event=event)
    assert isinstance(action, DoubleChoice)
    fields, _ = turns.after(fields_of(state), EV_DOUBLE, action.value)
    named = (("kind", "double"), ("seat", state.mover), ("value", action.value))
    return with_fields(state, fields, last_event=named)


def turn_node(state: BackgammonState) -> TurnNode:
    """The turn's node of this state (kept in its memo once made)."""
    node = state.game.turns.node(fields_of(state))
    state.memo.turn = node
    return node


def fields_of(state: BackgammonState) -> Fields:
    """The turn's fields (:mod:`.turn`'s record, in the engine's values)."""
    d = state.__dict__
    return (
        d["phase"],
        d["mover"],
        d["dice"],
        d["kind"],
        d["chain"],
        d["gates"],
        d["extra"],
        d["winner"],
        d["cube"],
        d["cube_owner"],
        d["cube_flags"],
    )


def after_roll(
    state: BackgammonState, rolled: tuple[int, ...], event: tuple[tuple[str, Any], ...]
) -> BackgammonState:
    """The play node after the roll of ``rolled`` (the dice in hand, larger first)."""
    d = state.__dict__
    node = d["memo"].turn or turn_node(state)
    known = node.next.get((EV_ROLL, rolled[0], rolled[-1], 0))
    if known is None:
        known = state.game.turns.answer(node, EV_ROLL, rolled[0], rolled[-1])
    # the hottest transition, written out (see with_fields)
    new = d.copy()
    new.update(known[0])
    new["memo"] = Memo(new.pop("_turn"))
    new["last_event"] = event
    return _made(type(state), new)


def after_play(
    state: BackgammonState, play: Action, facts: tuple[bool, tuple[int, ...], bytes | None]
) -> BackgammonState:
    """The state after ``play``, one of the legal plays, whose ``play_facts`` are
    ``facts``: the turn step says what comes next."""
    d = state.__dict__
    mover, kind, dice = d["mover"], d["kind"], d["dice"]
    ends, unused, flipped = facts
    # the play itself is kept: its text and hits are written out by observation(); a
    # play's event is kept compact, (PLAY_EVENT, seat, play, dice, dice kind)
    event = (PLAY_EVENT, mover, play, dice, kind)
    n = len(dice)
    used = n - len(unused)
    # a one-die play of two different dice: whether it used the higher
    high = 1 if used == 1 and n == 2 and unused[0] == dice[1] else 0
    board = d.get("_board")
    on_bar = board[_BAR_SLOT] if board is not None else state.position.bar[0]
    flags = (PLAY_ENDS if ends else 0) | (PLAY_FROM_BAR if on_bar else 0)
    node = d["memo"].turn or turn_node(state)
    known = node.next.get((EV_PLAY, used, high, flags))
    if known is None:
        known = state.game.turns.answer(node, EV_PLAY, used, high, flags)
    updates, turned = known
    new = d.copy()
    new.update(updates)
    new["memo"] = Memo(new.pop("_turn"))
    new["last_event"] = event
    assert isinstance(play, Play)
    if flipped is not None:  # a kernel play: the next state keeps the kernel's board
        new["_board"] = flipped if turned else result_board(play)
        new.pop("position", None)
    elif not play.moves and board is not None:  # a pass: the same board
        new["_board"] = flipped_board_of(board) if turned else board
        new.pop("position", None)
    else:
        new["position"] = flipped_result(play) if turned else play.result
        new.pop("_board", None)
    after = _made(type(state), new)
    return settled(after) if new["phase"] == "over" else after


def settled(state: BackgammonState) -> BackgammonState:
    """This state, or at the end of a game of a match that no one has won yet, the
    next game's roll-off, the game's points added to the score (:mod:`.match`)."""
    rules = state.game.rules
    if state.phase != "over" or not rules.is_match:
        return state
    points, result = game_result(state)
    match = state.match.after_game((state.winner, points, result))
    if match.is_over(rules):
        return with_fields(state, fields_of(state), last_event=state.last_event, match=match)
    crawford = match.next_is_crawford(rules)
    if crawford:
        match = Match(match.score, match.games, crawford_done=True)
    event = (
        ("kind", "game_over"),
        ("seat", state.winner),
        ("points", points),
        ("result", result),
        ("score", match.score),
        ("last", state.last_event),
    )
    game = state.game
    return game.state_of(game.turns.new_game(crawford), game.start_position(), match, event)


def evolve(
    state: BackgammonState,
    *,
    phase: str,
    mover: int | None = None,
    position: Position | None = None,
    _board: bytes | None = None,
    dice: tuple[int, ...] | None = None,
    kind: str | None = None,
    chain: int | None = None,
    gates: tuple[bool, bool] | None = None,
    extra: bool | None = None,
    winner: int | None = None,
    last_event: tuple[Any, ...] = (),
) -> BackgammonState:
    """This state with the given fields replaced (``None``: unchanged); see :func:`with_fields`."""
    d = state.__dict__
    fields: Fields = (
        phase,
        d["mover"] if mover is None else mover,
        d["dice"] if dice is None else dice,
        d["kind"] if kind is None else kind,
        d["chain"] if chain is None else chain,
        d["gates"] if gates is None else gates,
        d["extra"] if extra is None else extra,
        d["winner"] if winner is None else winner,
        d["cube"],
        d["cube_owner"],
        d["cube_flags"],
    )
    return with_fields(state, fields, position=position, _board=_board, last_event=last_event)


def with_fields(
    state: BackgammonState,
    fields: Fields,
    *,
    position: Position | None = None,
    _board: bytes | None = None,
    last_event: tuple[Any, ...] = (),
    match: Match | None = None,
) -> BackgammonState:
    """This state with the turn's ``fields`` and, when given, a new position (as a
    ``Position`` or as the kernel's 32 bytes ``_board``, whose ``position`` is built
    on first access); the same value as the constructor gives, built directly: no
    ``__init__``, nothing cached copied."""
    new = state.__dict__.copy()
    new["memo"] = Memo()  # the derived values are this state's alone
    (
        new["phase"],
        new["mover"],
        new["dice"],
        new["kind"],
        new["chain"],
        new["gates"],
        new["extra"],
        new["winner"],
        new["cube"],
        new["cube_owner"],
        new["cube_flags"],
    ) = fields
    new["last_event"] = last_event
    if match is not None:
        new["match"] = match
    if position is not None:
        new["position"] = position
        new.pop("_board", None)
    elif _board is not None:
        new["_board"] = _board
        new.pop("position", None)
    return _made(type(state), new)


# -- helpers ---------------------------------------------------------------------------


class Memo:
    """A state's derived values, computed on first use and never part of its value: the
    position of a state made from the kernel's board, the legal plays, the turn's node
    (:class:`.turn.TurnNode`, known at once when the turn step made the state), the
    plays by their canonical texts, and the plays' die-by-die steps that the observations
    carry (built once, however many audiences and bots observe the state)."""

    __slots__ = ("by_text", "play_steps", "plays", "position", "turn")

    def __init__(self, turn: TurnNode | None = None) -> None:
        self.plays: Sequence[Play] | None = None
        self.by_text: dict[str, Play] | None = None
        self.play_steps: dict[str, list[dict[str, Any]]] | None = None
        self.position: Position | None = None
        self.turn: TurnNode | None = turn


def _made(cls: type[BackgammonState], fields: dict[str, Any]) -> BackgammonState:
    """A new state of the attribute dictionary ``fields`` (every field, its own memo and,
    for a kernel board, ``_board`` in place of ``position``): the constructor's value,
    without its per-field ``__init__``, built before anyone holds it and never written
    after."""
    state: BackgammonState = _new_object(cls)
    state.__dict__.update(fields)
    return state


_new_object = object.__new__
#: byte of the mover's checkers on the bar in a kernel board
_BAR_SLOT = 24
