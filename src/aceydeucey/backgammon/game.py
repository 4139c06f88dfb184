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

With the doubling cube (``cube``) a turn may start with the ``cube`` decision
(``double`` or ``roll``) and a double is answered at the ``take`` node (``take``,
``drop``, ``beaver``); in a match a finished game is followed by the next one's
roll-off (:mod:`.cube`, :mod:`.match`).

This module holds the game (:class:`BackgammonGame`); the states are :mod:`.state`,
what they show and why they refuse an action :mod:`.views`.  The turn's structure
(what follows each roll, double, cube action and play) is the turn step of
:mod:`.turn`; the state ID's codec is :mod:`.state_id`, gnubg's Match ID
:mod:`.match_id`, the plain-text board :mod:`.render`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from aceydeucey.backgammon.board import (
    CHECKERS,
    Position,
    long_start,
    off_board_start,
    standard_start,
)
from aceydeucey.backgammon.match import NO_MATCH, Match
from aceydeucey.backgammon.match_id import state_of_match_id
from aceydeucey.backgammon.notation import (
    Roll,
    parse_action_text,
)
from aceydeucey.backgammon.render import render_ascii
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.state import BackgammonState
from aceydeucey.backgammon.termination import Termination
from aceydeucey.backgammon.turn import (
    EV_TURN,
    Fields,
    TurnSteps,
)
from aceydeucey.core.errors import ArgumentError, message
from aceydeucey.core.game import Action, Game, GameInfo

__all__ = ["BackgammonGame", "BackgammonState", "render_ascii"]

_SIDES = (message("bg.side.on_roll"), message("bg.side.opponent"))


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
        rules = self.rules
        game_best = {"per_checker": CHECKERS, "single": 1, "gammons": 3}[rules.scoring]
        best: Fraction | None = Fraction(game_best)
        if rules.is_match:
            best = Fraction(1)  # a match is won or lost
        elif rules.cube != "none":
            best = Fraction(game_best * rules.cube_limit)
        return GameInfo(
            game_id=self.game_id,
            num_players=2,
            min_players=2,
            max_players=2,
            zero_sum=True,
            hidden_information=False,
            chance=True,
            min_return=None if best is None else -best,
            max_return=best,
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
        return self.state_of(self.turns.new_game(), self.start_position())

    def state_of(
        self,
        fields: Fields,
        position: Position,
        match: Match = NO_MATCH,
        last_event: tuple[Any, ...] = (),
    ) -> BackgammonState:
        """The state of the turn's ``fields`` (:mod:`.turn`), ``position`` (from the
        mover's side) and the ``match`` so far."""
        phase, mover, dice, kind, chain, gates, extra, winner, cube, owner, flags = fields
        return BackgammonState(
            self,
            phase,
            mover,
            position,
            dice,
            kind,
            chain,
            gates,
            extra,
            winner,
            cube,
            owner,
            flags,
            match,
            last_event,
        )

    def new_state(
        self,
        *,
        position_id: str | None = None,
        position: Position | None = None,
        dice: tuple[int, int] | None = None,
        seat: int = 0,
        state_id: str | None = None,
        match_id: str | None = None,
    ) -> BackgammonState:
        """A state from a gnubg Position ID or a Position (seat ``seat`` on roll), or a state ID.

        With ``dice`` the state is the decision of that roll; without, the roll (or,
        where the player may double, the cube decision) comes next.  With a gnubg
        ``match_id`` (:mod:`.match_id`) the seat on roll, the dice, the cube, the
        pending double and the score are the Match ID's (``seat`` and ``dice`` are
        not given then).
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
        if match_id is not None:
            if dice is not None:
                raise ArgumentError("bg.new_state.both", first="match_id", second="dice")
            return state_of_match_id(self, position, match_id)
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ArgumentError("bg.new_state.seat", seat=repr(seat))
        if dice is None:
            fields: Fields = ("roll", seat, (), "", 0, (True, True), False, -1, 1, -1, 0)
            return self.state_of(self.turns.after(fields, EV_TURN)[0], position)
        if len(dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
            raise ArgumentError("bg.new_state.dice", dice=repr(dice))
        roll = Roll(max(dice), min(dice))
        return BackgammonState(self, "play", seat, position, roll.dice, "roll")

    def parse_action(self, text: str) -> Action:
        return parse_action_text(text)
