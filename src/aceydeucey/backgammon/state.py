"""One node of a backgammon game: :class:`BackgammonState` (the game is :mod:`.game`).

The state holds the turn's fields (:mod:`.turn`'s record in the engine's values: phase,
mover, dice in hand and their kind, 1-2 bonuses, gates, extra roll, winner, the cube's
value, owner and flags), the position from the mover's side and the match so far
(:mod:`.match`).  Its transitions (:mod:`.transitions`) ask the turn step what follows
each event; what it shows and why it refuses an action are :mod:`.views`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from aceydeucey.backgammon import generate, state_id, views
from aceydeucey.backgammon.board import (
    Position,
)
from aceydeucey.backgammon.cube import cube_actions, game_result
from aceydeucey.backgammon.generate import (
    listed_play_facts,
    play_facts,
    position_of_board,
)
from aceydeucey.backgammon.match import NO_MATCH, Match
from aceydeucey.backgammon.match_id import of_state
from aceydeucey.backgammon.moves import match_play
from aceydeucey.backgammon.notation import (
    CubeAction,
    DoubleChoice,
    Opening,
    Play,
    Roll,
    Steps,
)
from aceydeucey.backgammon.render import render_ascii
from aceydeucey.backgammon.transitions import (
    Memo,
    after_play,
    after_roll,
    evolve,
    fields_of,
    transition,
    turn_node,
)
from aceydeucey.backgammon.turn import (
    Fields,
    TurnNode,
)
from aceydeucey.core.errors import IllegalActionError
from aceydeucey.core.game import CHANCE, TERMINAL, Action, Distribution, State

if TYPE_CHECKING:
    from aceydeucey.backgammon.game import BackgammonGame

__all__ = ["BackgammonState"]


_ROLLS: list[tuple[Action, Fraction]] = [
    (Roll(a, b), Fraction(1 if a == b else 2, 36)) for a in range(6, 0, -1) for b in range(a, 0, -1)
]
_OPENINGS: list[tuple[Action, Fraction]] = [
    (Opening(a, b), Fraction(1, 30)) for a in range(1, 7) for b in range(1, 7) if a != b
]
#: the roll outcomes' actions, shared (a roll node's ``legal_actions()``)
_ROLL_ACTIONS: list[Action] = [action for action, _ in _ROLLS]
#: identities of those shared actions: an action that is one of them is legal at a roll node
_ROLL_IDS = frozenset(id(action) for action in _ROLL_ACTIONS)
#: per shared roll outcome (by identity): its dice in hand and its event for each mover
_ROLL_EVENTS: dict[int, tuple[tuple[int, ...], tuple[tuple[tuple[str, Any], ...], ...]]] = {
    id(roll): (
        roll.dice,
        tuple(
            (("kind", "roll"), ("seat", seat), ("dice", (roll.high, roll.low))) for seat in (0, 1)
        ),
    )
    for roll, _ in _ROLLS
    if isinstance(roll, Roll)
}
_DOUBLES: list[DoubleChoice] = [DoubleChoice(d) for d in range(6, 0, -1)]
_ROLLED_DOUBLES: list[tuple[Action, Fraction]] = [(d, Fraction(1, 6)) for d in _DOUBLES]
#: the three fixed distributions, shared: samplers draw from them at no cost
_ROLL_DISTRIBUTION = Distribution.from_outcomes(_ROLLS)
_OPENING_DISTRIBUTION = Distribution.from_outcomes(_OPENINGS)
_DOUBLE_DISTRIBUTION = Distribution.from_outcomes(_ROLLED_DOUBLES)


@dataclass(frozen=True)
class BackgammonState(State):
    """One node of a backgammon game; the position is seen from ``mover``."""

    game: BackgammonGame = field(compare=False, repr=False)
    phase: str
    mover: int
    position: Position
    dice: tuple[int, ...] = ()
    kind: str = ""
    chain: int = 0
    gates: tuple[bool, bool] = (True, True)
    extra: bool = False
    winner: int = -1
    #: the doubling cube: its value, its owner (-1 centred, else the seat), the turn
    #: step's flags (``turn.CF_*``: the Crawford game, a dropped double, a beaver allowed)
    cube: int = 1
    cube_owner: int = -1
    cube_flags: int = 0
    #: the match so far (the score and the games finished; empty outside a match)
    match: Match = NO_MATCH
    #: how the state was reached, not what it is: outside equality and the hash
    last_event: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    #: values derived from the fields, computed once per state on first use (never part
    #: of its value): the position of a kernel board, the legal plays, the turn's node
    memo: Memo = field(default_factory=lambda: Memo(), compare=False, repr=False)

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            # ``position`` of a state the engine made from the kernel's board (kept in
            # its ``_board``, set when it was made): built once, when first asked for
            # (the random-play loop never asks), and kept in the memo
            if name == "position":
                d = self.__dict__
                board = d.get("_board")
                if board is not None:
                    memo = d["memo"]
                    position = memo.position
                    if position is None:
                        position = memo.position = position_of_board(board)
                    return position
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- who acts -----------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == "play":
            return self.mover
        if phase in ("roll", "opening"):
            return CHANCE
        if phase == "double":
            return CHANCE if self.game.rules.acey_doubles_choice == "rolled" else self.mover
        if phase == "cube":
            return self.mover
        if phase == "take":
            return 1 - self.mover
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "roll":
            return _ROLLS
        if self.phase == "opening":
            return _OPENINGS
        if self.phase == "double" and self.game.rules.acey_doubles_choice == "rolled":
            return _ROLLED_DOUBLES
        return []

    def player_actions(self) -> Sequence[Play] | list[DoubleChoice] | list[CubeAction]:
        if self.phase == "play":
            return self._plays()
        if self.phase == "double" and self.game.rules.acey_doubles_choice == "named":
            return _DOUBLES
        if self.phase in ("cube", "take"):
            return cube_actions(self)
        return []

    @property
    def plays(self) -> Sequence[Play]:
        """The legal plays of the dice in hand (empty outside the play phase)."""
        return self._plays()

    def _plays(self) -> Sequence[Play]:
        """``plays``, computed once per state (kept in its memo)."""
        cache = self.__dict__
        memo: Memo = cache["memo"]
        plays = memo.plays
        if plays is not None:
            return plays
        if self.phase != "play":
            plays = []
        elif "_board" in cache:  # the state keeps the kernel's board: the hot path
            rules = self.game.rules
            dice = cache["dice"]
            plays = generate.board_plays(
                cache["_board"],
                dice,
                rules,
                cache["gates"][cache["mover"]],
                (memo.turn or self._turn_node()).bar_open,
            )
        else:
            rules = self.game.rules
            dice = self.dice
            plays = generate.legal_plays(
                cache.get("position"),
                dice,
                rules,
                may_enter=self.gates[self.mover],
                may_reenter=self._may_reenter(),
                board=cache.get("_board"),
            )
        memo.plays = plays
        return plays

    def _may_reenter(self) -> bool:
        """Whether the dice in hand may bring a checker in from the bar (the bar's gate)."""
        return self.game.turns.bar_open(self.kind, self.dice)

    # -- parsing ---------------------------------------------------------------------
    def by_text(self) -> dict[str, Play]:
        """The legal plays by their canonical texts, in the plays' order (computed once
        per state, kept in its memo; empty outside the play phase)."""
        memo: Memo = self.__dict__["memo"]
        known = memo.by_text
        if known is None:
            known = memo.by_text = {str(play): play for play in self._plays()}
        return known

    def action_texts(self) -> list[str]:
        if self.phase == "play":
            return list(self.by_text())
        return super().action_texts()

    def parse_action(self, text: str) -> Action:
        if self.phase == "play":  # a listed play's own text (what clients send): no parsing
            listed = self.by_text().get(text)
            if listed is not None:
                return listed
        action = self.game.parse_action(text)
        if isinstance(action, Steps):
            if self.phase != "play":
                raise self.illegal(action)
            play = match_play(self.position, action.moves, self.plays)
            if play is None:
                raise self.illegal(action)
            return play
        self._check_legal(action)
        return action

    def illegal(self, action: object) -> IllegalActionError:
        """The precise error for ``action``, which is not legal here (a code and params)."""
        return views.illegal(self, action)

    def explain_illegal(self, action: Action) -> str:
        return str(self.illegal(action))

    # -- fast paths (same results as the base class, fewer calls) ---------------------
    def is_chance_node(self) -> bool:
        phase = self.phase
        if phase == "roll" or phase == "opening":
            return True
        return phase == "double" and self.game.rules.acey_doubles_choice == "rolled"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> Sequence[Action]:
        phase = self.phase
        if phase == "play":
            plays = self.__dict__["memo"].plays
            return plays if plays is not None else self._plays()
        if phase == "roll":
            return _ROLL_ACTIONS
        return super().legal_actions()

    def _check_legal(self, action: Action) -> None:
        phase = self.phase
        if phase == "play":
            if action in self._plays():
                return
        elif phase == "roll" and id(action) in _ROLL_IDS:
            return
        if self.is_terminal() or action not in self.legal_actions():
            raise self.illegal(action)

    def apply(self, action: Action | str, *, seat: int | None = None) -> BackgammonState:
        if seat is None:  # the common cases first: one of the listed plays, a shared roll
            d = self.__dict__
            phase = d["phase"]
            if phase == "play":
                plays = d["memo"].plays
                if plays is None:
                    plays = self._plays()
                facts = listed_play_facts(plays, action)
                if facts is not None:
                    return after_play(self, action, facts)
                if isinstance(action, Play) and action in plays:
                    return after_play(self, action, play_facts(action))
            elif phase == "roll":
                known = _ROLL_EVENTS.get(id(action))
                if known is not None:
                    return after_roll(self, known[0], known[1][d["mover"]])
        after = super().apply(action, seat=seat)
        assert isinstance(after, BackgammonState)
        return after

    # -- transition -----------------------------------------------------------------
    def _apply(self, action: Action) -> BackgammonState:
        return transition(self, action)

    def _turn_node(self) -> TurnNode:
        """The turn's node of this state (kept in its memo once made)."""
        return turn_node(self)

    def _fields(self) -> Fields:
        """The turn's fields (:mod:`.turn`'s record, in the engine's values)."""
        return fields_of(self)

    def _evolve(self, **changes: Any) -> BackgammonState:
        """This state with the given fields replaced (see :func:`.transitions.evolve`)."""
        return evolve(self, **changes)

    # -- results --------------------------------------------------------------------
    def returns(self) -> tuple[Fraction, ...]:
        if self.phase != "over":
            return (Fraction(0), Fraction(0))
        points = Fraction(1 if self.game.rules.is_match else self.points_won())
        out = [Fraction(0), Fraction(0)]
        out[self.winner] = points
        out[1 - self.winner] = -points
        return tuple(out)

    def points_won(self) -> int:
        """What the loser of the game pays under the ``scoring`` option, times the cube
        (0 before the end; see :func:`.cube.game_result`)."""
        if self.phase != "over":
            return 0
        return game_result(self)[0]

    # -- views ----------------------------------------------------------------------
    def view(self, seat: int) -> Position:
        """The position from ``seat``'s side."""
        return self.position if seat == self.mover else self.position.flip()

    def observe(self, seat: int | None) -> dict[str, Any]:
        """The board from ``seat``'s side (see :func:`.views.observe`)."""
        return views.observe(self, seat)

    def phase_name(self) -> str:
        return self.phase

    def event_view(self) -> dict[str, Any] | None:
        return views.event_dict(self.last_event) if self.last_event else None

    def termination(self) -> tuple[str, dict[str, Any]]:
        """How the game (or the match) ended (see :func:`.views.termination`)."""
        return views.termination(self)

    def ending_returns(self, seat: int) -> tuple[Fraction, ...]:
        """The returns when ``seat`` gives the game up (see :func:`.views.ending_returns`)."""
        return views.ending_returns(self, seat)

    def chance_actor(self) -> int | None:
        """The seat on roll at a roll (and a rolled double); ``None`` at the opening roll-off.

        In the roll-off both players throw one die at once, so it is no one seat's throw.
        """
        phase = self.phase
        if phase == "roll" or (phase == "double" and self.is_chance_node()):
            return self.mover
        return None

    def throw_asked(self) -> bool:
        """A roll that its seat chose at the cube (``roll``, not ``double``): that choice
        was the throw's gesture."""
        event = self.last_event
        if self.phase != "roll" or not event or event[0] != ("kind", "cube"):
            return False
        fields = dict(event)
        return fields.get("action") == "roll" and fields.get("seat") == self.mover

    def chance_distribution(self) -> Distribution:
        phase = self.phase
        if phase == "roll":
            return _ROLL_DISTRIBUTION
        if phase == "opening":
            return _OPENING_DISTRIBUTION
        if phase == "double" and self.game.rules.acey_doubles_choice == "rolled":
            return _DOUBLE_DISTRIBUTION
        return super().chance_distribution()

    def __str__(self) -> str:
        return render_ascii(self)

    # -- state IDs ------------------------------------------------------------------
    def position_id(self) -> str:
        """gnubg's Position ID of the position, from the side on roll (its second half).

        After the game's last play that is the loser, as in gnubg (and OpenSpiel), where
        the turn passes after every play, the last one included.
        """
        position = self.position
        return (position.flip() if self.phase == "over" else position).position_id()

    def match_id(self) -> str:
        """gnubg's Match ID of the state (the cube, the turn, the dice, the score; see
        :mod:`.match_id`), to read beside :meth:`position_id`."""
        return of_state(self)

    def state_id(self) -> str:
        """A compact ID that round-trips this state (see :mod:`.state_id`)."""
        return state_id.encode(self._fields(), self.position, self.match)

    @classmethod
    def from_state_id(cls, game: BackgammonGame, text: str) -> BackgammonState:
        """The state of the state ID ``text``; ``ArgumentError`` naming the problem if
        malformed."""
        fields, position, match = state_id.decode(text)
        return game.state_of(fields, position, match)
