"""The backgammon state machine: Acey-Deucey (default), classic, longgammon, Dutch.

A turn is a sequence of nodes, each a chance node or one decision:

* ``opening`` (chance): the one-die roll-off, ``opening A-B`` (seat 0 rolled A,
  seat 1 rolled B; the 30 ordered pairs of different dice, 1/30 each: ties are
  rolled again).  The higher die moves first; with ``opening="use_opening_dice"``
  it plays those two dice, otherwise it rolls both dice afresh.
* ``roll`` (chance): ``3-1`` (larger first); doubles 1/36, the others 2/36.
* ``play`` (decision): one whole play of the dice in hand, a :class:`Play`
  (distinct resulting positions only; ``pass`` when nothing can be played).
* ``double`` (decision, or chance when ``acey_doubles_choice="rolled"``): after a
  fully played 1-2, ``double 6`` ... ``double 1``; that double is then played
  (``kind`` "named") and, if fully played, the same player rolls again.

The dice in hand have a ``kind``: ``roll`` (rolled), ``named`` (the 1-2 bonus),
``complement`` (``doubles_plus_complement``) or ``remainder`` (the opponent's
unplayable dice under ``unplayable_remainder="to_opponent"``).

The turn's structure (what follows each roll, double and play) is the turn step
of :mod:`.turn`; the state ID's codec is :mod:`.state_id`, the plain-text board
:mod:`.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from aceydeucey.backgammon import generate, state_id
from aceydeucey.backgammon.board import (
    CHECKERS,
    Position,
    long_start,
    off_board_start,
    standard_start,
)
from aceydeucey.backgammon.generate import (
    flipped_board_of,
    flipped_result,
    listed_play_facts,
    play_facts,
    position_of_board,
    result_board,
)
from aceydeucey.backgammon.moves import explain_steps, match_play
from aceydeucey.backgammon.notation import (
    DoubleChoice,
    Opening,
    Play,
    Roll,
    Steps,
    parse_action_text,
    play_steps,
)
from aceydeucey.backgammon.render import render_ascii
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.termination import Termination
from aceydeucey.backgammon.turn import (
    EV_DOUBLE,
    EV_OPENING,
    EV_PLAY,
    EV_ROLL,
    PLAY_ENDS,
    PLAY_FROM_BAR,
    Fields,
    TurnNode,
    TurnSteps,
)
from aceydeucey.core.errors import ArgumentError, IllegalActionError, message
from aceydeucey.core.game import CHANCE, TERMINAL, Action, Distribution, Game, GameInfo, State

__all__ = ["BackgammonGame", "BackgammonState", "render_ascii"]


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
#: first item of a play's compact event (see ``_event_dict``)
PLAY_EVENT = "play"
#: how errors name the two sides of a position
_SIDES = (message("bg.side.on_roll"), message("bg.side.opponent"))
_DOUBLES: list[DoubleChoice] = [DoubleChoice(d) for d in range(6, 0, -1)]
_ROLLED_DOUBLES: list[tuple[Action, Fraction]] = [(d, Fraction(1, 6)) for d in _DOUBLES]
#: the three fixed distributions, shared: samplers draw from them at no cost
_ROLL_DISTRIBUTION = Distribution.from_outcomes(_ROLLS)
_OPENING_DISTRIBUTION = Distribution.from_outcomes(_OPENINGS)
_DOUBLE_DISTRIBUTION = Distribution.from_outcomes(_ROLLED_DOUBLES)


class BackgammonGame(Game):
    """Two-player backgammon family game; options in :class:`BackgammonRules`."""

    game_id: ClassVar[str] = "backgammon"
    rules_class: ClassVar[type[BackgammonRules]] = BackgammonRules
    terminations: ClassVar[type[Termination]] = Termination
    rules: BackgammonRules

    def __init__(self, rules: BackgammonRules) -> None:
        super().__init__(rules)
        #: the turn structure's step under these rules (:mod:`.turn`), answers kept
        self.turns = TurnSteps(rules)

    @property
    def num_players(self) -> int:
        return 2

    def make_info(self) -> GameInfo:
        """Two seats, zero-sum, nothing hidden, dice; no bound on a game's length."""
        best = {"per_checker": CHECKERS, "single": 1, "gammons": 3}[self.rules.scoring]
        return GameInfo(
            game_id=self.game_id,
            num_players=2,
            min_players=2,
            max_players=2,
            zero_sum=True,
            hidden_information=False,
            chance=True,
            min_return=Fraction(-best),
            max_return=Fraction(best),
            max_length=None,
        )

    def start_position(self) -> Position:
        """The starting position (the same from both sides)."""
        return {
            "off_board": off_board_start,
            "standard": standard_start,
            "long": long_start,
        }[self.rules.start]()

    def new_initial_state(self) -> BackgammonState:
        phase, mover, dice, kind, chain, gates, extra, winner = self.turns.new_game()
        return BackgammonState(
            self, phase, mover, self.start_position(), dice, kind, chain, gates, extra, winner
        )

    def new_state(
        self,
        *,
        position_id: str | None = None,
        position: Position | None = None,
        dice: tuple[int, int] | None = None,
        seat: int = 0,
        state_id: str | None = None,
    ) -> BackgammonState:
        """A state from a gnubg Position ID or a Position (seat ``seat`` on roll), or a state ID.

        With ``dice`` the state is the decision of that roll; without, the roll
        is the next chance node.
        """
        if state_id is not None:
            if position_id is not None or position is not None or dice is not None:
                raise ArgumentError("bg.new_state.both", first="state_id", second="position")
            return BackgammonState.from_state_id(self, state_id)
        if position_id is not None:
            if position is not None:
                raise ArgumentError("bg.new_state.both", first="position_id", second="position")
            position = Position.from_position_id(position_id)
        if position is None:
            raise ArgumentError("bg.new_state.needs_position")
        position.validate()
        for side in (0, 1):
            if position.off[side] == CHECKERS:
                raise ArgumentError("bg.position.all_off", side=_SIDES[side])
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ArgumentError("bg.new_state.seat", seat=repr(seat))
        if dice is None:
            return BackgammonState(self, "roll", seat, position)
        if len(dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
            raise ArgumentError("bg.new_state.dice", dice=repr(dice))
        roll = Roll(max(dice), min(dice))
        return BackgammonState(self, "play", seat, position, roll.dice, "roll")

    def parse_action(self, text: str) -> Action:
        return parse_action_text(text)


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
    last_event: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    if not TYPE_CHECKING:

        def __getattr__(self, name: str) -> Any:
            # ``position`` of a state the engine made from the kernel's board: built once,
            # when first asked for (the random-play loop never asks)
            if name == "position":
                d = self.__dict__
                board = d.get("_board")
                if board is not None:
                    position = d["position"] = position_of_board(board)
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
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "roll":
            return _ROLLS
        if self.phase == "opening":
            return _OPENINGS
        if self.phase == "double" and self.game.rules.acey_doubles_choice == "rolled":
            return _ROLLED_DOUBLES
        return []

    def player_actions(self) -> Sequence[Play] | list[DoubleChoice]:
        if self.phase == "play":
            return self._plays()
        if self.phase == "double" and self.game.rules.acey_doubles_choice == "named":
            return _DOUBLES
        return []

    @cached_property
    def plays(self) -> Sequence[Play]:
        """The legal plays of the dice in hand (empty outside the play phase)."""
        return self._plays()

    def _plays(self) -> Sequence[Play]:
        """``plays``, computed once per state (kept where ``cached_property`` keeps it)."""
        cache = self.__dict__
        plays: Sequence[Play] | None = cache.get("plays")
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
                (cache.get("_turn") or self._turn_node()).bar_open,
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
        cache["plays"] = plays
        return plays

    def _may_reenter(self) -> bool:
        """Whether the dice in hand may bring a checker in from the bar (the bar's gate)."""
        return self.game.turns.bar_open(self.kind, self.dice)

    # -- parsing ---------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
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
        if self.is_terminal():
            return IllegalActionError("action.game_over", action=str(action))
        if isinstance(action, Play | Steps) and self.phase == "play":
            return explain_steps(
                self.position, self.dice, action.moves, self.plays, self.game.rules
            )
        if isinstance(action, Roll | Opening) or (
            isinstance(action, DoubleChoice) and self.current_player() == CHANCE
        ):
            if self.current_player() != CHANCE:
                return IllegalActionError(
                    "bg.illegal.chance_turn", action=str(action), who=self._who()
                )
            return IllegalActionError(
                "bg.illegal.not_outcome", action=str(action), phase=self.phase
            )
        if isinstance(action, DoubleChoice):
            return IllegalActionError(
                "bg.illegal.no_double_now", action=str(action), who=self._who()
            )
        if isinstance(action, Play | Steps):
            return IllegalActionError("bg.illegal.step_now", action=str(action), why=self._why())
        return IllegalActionError("bg.illegal.not_an_action", action=str(action), why=self._why())

    def explain_illegal(self, action: Action) -> str:
        return str(self.illegal(action))

    def _who(self) -> dict[str, Any]:
        player = self.current_player()
        if player == CHANCE:
            code = {"opening": "bg.who.opening", "double": "bg.who.double_die"}
            return message(code.get(self.phase, "bg.who.roll"))
        return message("bg.who.seat", seat=player)

    def _why(self) -> dict[str, Any]:
        """Why no checker moves now (or, in the play phase, what to write instead)."""
        if self.phase == "double":
            return message("bg.why.name_double")
        if self.phase == "over":
            return message("bg.why.over")
        if self.phase == "play":
            return message("bg.why.play_now")
        return message("bg.why.waiting", who=self._who())

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
            plays = self.__dict__.get("plays")
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
                plays = d.get("plays")
                if plays is None:
                    plays = self._plays()
                facts = listed_play_facts(plays, action)
                if facts is not None:
                    return self._after_play(action, facts)
                if isinstance(action, Play) and action in plays:
                    return self._after_play(action, play_facts(action))
            elif phase == "roll":
                known = _ROLL_EVENTS.get(id(action))
                if known is not None:
                    return self._rolled(known[0], known[1][d["mover"]])
        after = super().apply(action, seat=seat)
        assert isinstance(after, BackgammonState)
        return after

    # -- transition -----------------------------------------------------------------
    def _apply(self, action: Action) -> BackgammonState:
        if self.phase == "play":
            assert isinstance(action, Play)
            return self._after_play(action, play_facts(action))
        if isinstance(action, Roll):
            return self._rolled(
                action.dice,
                (("kind", "roll"), ("seat", self.mover), ("dice", (action.high, action.low))),
            )
        turns = self.game.turns
        if isinstance(action, Opening):
            event = (
                ("kind", "opening"),
                ("dice", (action.die0, action.die1)),
                ("first", action.first),
            )
            fields, turned = turns.after(self._fields(), EV_OPENING, action.die0, action.die1)
            position = self.position.flip() if turned else self.position
            return self._with(fields, position=position, last_event=event)
        assert isinstance(action, DoubleChoice)
        fields, _ = turns.after(self._fields(), EV_DOUBLE, action.value)
        named = (("kind", "double"), ("seat", self.mover), ("value", action.value))
        return self._with(fields, last_event=named)

    def _turn_node(self) -> TurnNode:
        """The turn's node of this state (kept in the state once made)."""
        node = self.game.turns.node(self._fields())
        self.__dict__["_turn"] = node
        return node

    def _fields(self) -> Fields:
        """The turn's fields (:mod:`.turn`'s record, in the engine's values)."""
        d = self.__dict__
        return (
            d["phase"],
            d["mover"],
            d["dice"],
            d["kind"],
            d["chain"],
            d["gates"],
            d["extra"],
            d["winner"],
        )

    def _rolled(
        self, rolled: tuple[int, ...], event: tuple[tuple[str, Any], ...]
    ) -> BackgammonState:
        """The play node after the roll of ``rolled`` (the dice in hand, larger first)."""
        d = self.__dict__
        node = d.get("_turn") or self._turn_node()
        known = node.next.get((EV_ROLL, rolled[0], rolled[-1], 0))
        if known is None:
            known = self.game.turns.answer(node, EV_ROLL, rolled[0], rolled[-1])
        # the hottest transition, written out (see _with)
        new = d.copy()
        new.pop("plays", None)
        new.update(known[0])
        new["last_event"] = event
        state: BackgammonState = _new_object(BackgammonState)
        _set_attribute(state, "__dict__", new)
        return state

    def _after_play(
        self, play: Action, facts: tuple[bool, tuple[int, ...], bytes | None]
    ) -> BackgammonState:
        """The state after ``play``, one of the legal plays, whose ``play_facts`` are
        ``facts``: the turn step says what comes next."""
        d = self.__dict__
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
        on_bar = board[_BAR_SLOT] if board is not None else self.position.bar[0]
        flags = (PLAY_ENDS if ends else 0) | (PLAY_FROM_BAR if on_bar else 0)
        node = d.get("_turn") or self._turn_node()
        known = node.next.get((EV_PLAY, used, high, flags))
        if known is None:
            known = self.game.turns.answer(node, EV_PLAY, used, high, flags)
        updates, turned = known
        new = d.copy()
        new.pop("plays", None)
        new.update(updates)
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
        state: BackgammonState = _new_object(BackgammonState)
        _set_attribute(state, "__dict__", new)
        return state

    def _evolve(
        self,
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
        """This state with the given fields replaced (``None``: unchanged); see :meth:`_with`."""
        d = self.__dict__
        fields: Fields = (
            phase,
            d["mover"] if mover is None else mover,
            d["dice"] if dice is None else dice,
            d["kind"] if kind is None else kind,
            d["chain"] if chain is None else chain,
            d["gates"] if gates is None else gates,
            d["extra"] if extra is None else extra,
            d["winner"] if winner is None else winner,
        )
        return self._with(fields, position=position, _board=_board, last_event=last_event)

    def _with(
        self,
        fields: Fields,
        *,
        position: Position | None = None,
        _board: bytes | None = None,
        last_event: tuple[Any, ...] = (),
    ) -> BackgammonState:
        """This state with the turn's ``fields`` and, when given, a new position (as a
        ``Position`` or as the kernel's 32 bytes ``_board``, whose ``position`` is built
        on first access); the same value as the constructor gives, built directly: no
        ``__init__``, nothing cached copied."""
        new = self.__dict__.copy()
        new.pop("plays", None)  # cached for this state only
        new.pop("_turn", None)  # the node of the fields replaced
        (
            new["phase"],
            new["mover"],
            new["dice"],
            new["kind"],
            new["chain"],
            new["gates"],
            new["extra"],
            new["winner"],
        ) = fields
        new["last_event"] = last_event
        if position is not None:
            new["position"] = position
            new.pop("_board", None)
        elif _board is not None:
            new["_board"] = _board
            new.pop("position", None)
        state: BackgammonState = _new_object(BackgammonState)
        _set_attribute(state, "__dict__", new)
        return state

    # -- results --------------------------------------------------------------------
    def returns(self) -> tuple[Fraction, ...]:
        if self.phase != "over":
            return (Fraction(0), Fraction(0))
        points = Fraction(self.points_won())
        out = [Fraction(0), Fraction(0)]
        out[self.winner] = points
        out[1 - self.winner] = -points
        return tuple(out)

    def points_won(self) -> int:
        """What the loser pays under the ``scoring`` option (0 before the end)."""
        if self.phase != "over":
            return 0
        pos = self.position  # from the winner's side
        scoring = self.game.rules.scoring
        if scoring == "per_checker":
            return CHECKERS - pos.off[1]
        if scoring == "single" or pos.off[1] > 0:
            return 1
        back = pos.bar[1] or pos.unentered[1] or any(n < 0 for n in pos.points[:6])
        return 3 if back else 2

    # -- views ----------------------------------------------------------------------
    def view(self, seat: int) -> Position:
        """The position from ``seat``'s side."""
        return self.position if seat == self.mover else self.position.flip()

    def observe(self, seat: int | None) -> dict[str, Any]:
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
        pos = self.view(side)
        phase = self.phase
        pending: bool | int = False
        if phase == "double":
            pending = True
        elif phase == "play" and self.kind == "named":
            pending = self.dice[0]
        return {
            "variant": self.game.rules.variant,
            "mover": self.mover,
            "points": list(pos.points),
            "bar": list(pos.bar),
            "unentered": list(pos.unentered),
            "off": list(pos.off),
            "pip": list(pos.pip_counts()),
            "dice": list(self.dice) if phase == "play" else [],
            "dice_kind": self.kind,
            "pending_double": pending,
            "reroll_pending": self._reroll_pending(),
            "chain": self.chain,
            "entry_gate_passed": [self.gates[side], self.gates[1 - side]],
            "winner": self.winner if phase == "over" else None,
            "play_steps": self._play_steps() if phase == "play" and seat == self.mover else {},
        }

    def _play_steps(self) -> dict[str, list[dict[str, Any]]]:
        """Each legal play (by its text) as its die-by-die steps, in the order played:
        ``{"from": 13 | "bar" | "in", "to": 7 | "off", "die": 6, "hit": false}``."""
        return {str(play): play_steps(play, self.dice) for play in self.plays if play.moves}

    def _reroll_pending(self) -> bool:
        """Whether the mover rolls again after what is to be played now.

        At a roll node: whether that roll is an extra roll of the same turn.  While the
        double after a 1-2 is still to be named: ``True`` (a reroll follows a double
        played in full).  At a play: whether the dice in hand, played as far as they can
        be, earn another roll (a named double of which part cannot be played does not,
        unless ``acey_reroll_requires_full_doubles`` is off).
        """
        phase = self.phase
        if phase == "roll":
            return self.extra
        if phase == "double":
            return True
        if phase != "play":
            return False
        used = len(self.dice) - min(len(play.unused) for play in self.plays)
        fields, turned = self.game.turns.after(self._fields(), EV_PLAY, used)
        return not turned and fields[0] == "roll" and fields[6]

    def phase_name(self) -> str:
        return self.phase

    def event_view(self) -> dict[str, Any] | None:
        return _event_dict(self.last_event) if self.last_event else None

    def termination(self) -> tuple[str, dict[str, Any]]:
        """``race.borne_off`` with the winner, the points won and how they were counted.

        ``result`` is ``single``, ``gammon`` or ``backgammon`` (scoring ``gammons`` or
        ``single``) or ``per_checker`` (Acey-Deucey: one point per checker the loser has
        not borne off).  Other endings (a resignation, from a table) get their own
        codes beside this one.
        """
        points = self.points_won()
        scoring = self.game.rules.scoring
        if scoring == "per_checker":
            result = "per_checker"
        else:
            result = {1: "single", 2: "gammon", 3: "backgammon"}[points]
        return Termination.BORNE_OFF, {
            "winner": self.winner,
            "points": points,
            "result": result,
            "result_name": message(f"race.result.{result}"),
        }

    def ending_returns(self, seat: int) -> tuple[Fraction, ...]:
        """The returns when ``seat`` gives the game up (resigns, or loses by a claim or a
        timeout): it loses a single game, 1 point, whatever gammon the position threatens
        (scoring ``single`` and ``gammons``); under ``per_checker`` scoring it pays what it
        would pay if the opponent finished now, one point per checker it has not borne off.
        """
        if self.game.rules.scoring == "per_checker":
            points = Fraction(CHECKERS - self.view(seat).off[0])
        else:
            points = Fraction(1)
        out = [points, points]
        out[seat] = -points
        return tuple(out)

    def chance_actor(self) -> int | None:
        """The seat on roll at a roll (and a rolled double); ``None`` at the opening roll-off.

        In the roll-off both players throw one die at once, so it is no one seat's throw.
        """
        phase = self.phase
        if phase == "roll" or (phase == "double" and self.is_chance_node()):
            return self.mover
        return None

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

    def state_id(self) -> str:
        """A compact ID that round-trips this state (see :mod:`.state_id`)."""
        return state_id.encode(self._fields(), self.position)

    @classmethod
    def from_state_id(cls, game: BackgammonGame, text: str) -> BackgammonState:
        """The state of the state ID ``text``; ``ArgumentError`` naming the problem if
        malformed."""
        (phase, mover, dice, kind, chain, gates, extra, winner), position = state_id.decode(text)
        return cls(game, phase, mover, position, dice, kind, chain, gates, extra, winner)


# -- helpers ---------------------------------------------------------------------------

_new_object = object.__new__
_set_attribute = object.__setattr__
#: byte of the mover's checkers on the bar in a kernel board
_BAR_SLOT = 24


def _event_dict(event: tuple[Any, ...]) -> dict[str, Any]:
    """The observation's ``last_event``: a play is written out (text, hits, dice left unused)."""
    if event[0] == PLAY_EVENT:
        _, seat, played, dice, kind = event
        event = (("kind", "play"), ("seat", seat), ("play", played), ("dice", dice))
        event += (("dice_kind", kind),)
    out: dict[str, Any] = {}
    play: Play | None = None
    for key, value in event:
        if key == "play":
            play = value
            out[key] = str(value)
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    if play is not None:
        out["hits"] = sum(1 for m in play.moves if m.hit)
        out["unused"] = list(play.unused)
    return out
