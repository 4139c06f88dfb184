"""The game contract every game implements.

A game is a pure state machine in which chance is an explicit actor (the model
OpenSpiel uses).  Nothing in a game draws a random number: at a chance node the
state lists every outcome with its exact probability and whoever runs the game
picks one.

Subclasses implement the abstract methods; this base supplies the shared
behaviour: ``apply`` accepting an action or its canonical text, legality
checking with a precise message, out-of-turn detection and the derived
predicates.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from aceydeucey.core.errors import IllegalActionError, OutOfTurnError
from aceydeucey.core.rules import RulesBase

__all__ = ["CHANCE", "TERMINAL", "Action", "Game", "State"]

#: ``current_player()`` at a chance node (same value as OpenSpiel's kChancePlayerId).
CHANCE = -1
#: ``current_player()`` once the game is over (same value as OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

#: An action is a small immutable value whose ``str`` is its canonical notation.
Action = Hashable


class Game(ABC):
    """A game with its fully resolved rules: a factory of initial states.

    Subclasses set ``game_id`` and ``rules_class`` and implement
    ``new_initial_state`` and ``parse_action``.
    """

    game_id: ClassVar[str]
    rules_class: ClassVar[type[RulesBase]]

    def __init__(self, rules: RulesBase) -> None:
        self.rules = rules

    @classmethod
    def from_options(cls, **options: Any) -> Game:
        """Build the game from a preset name and option overrides (validated)."""
        return cls(cls.rules_class.resolve(**options))

    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before anything has happened (often a chance node)."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Turn text into an action of this game, or raise ActionSyntaxError.

        This checks the syntax only; ``State.parse_action`` also checks legality.
        """

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game_id} {self.rules.describe()}>"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Game) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash((type(self), self.rules))


class State(ABC):
    """One immutable situation of a game.

    Subclasses implement ``current_player``, ``chance_outcomes``,
    ``player_actions``, ``_apply``, ``returns`` and ``observation``.
    """

    game: Game

    # -- who acts -------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat 0..n-1 to act, ``CHANCE`` or ``TERMINAL``."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # -- what may happen ------------------------------------------------------
    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node: every outcome with its exact probability (sums to 1).

        Elsewhere: an empty list.
        """

    @abstractmethod
    def player_actions(self) -> Sequence[Action]:
        """The actions open to the seat to act (empty at chance and terminal nodes)."""

    def legal_actions(self) -> Sequence[Action]:
        """The seat's actions, or chance's outcomes at a chance node."""
        if self.is_chance_node():
            return [action for action, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        return self.player_actions()

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal here: games override this for precise reasons."""
        legal = self.legal_actions()
        shown = ", ".join(str(a) for a in list(legal)[:12])
        more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
        return f"{action} is not legal here; legal: {shown}{more}"

    def parse_action(self, text: str) -> Action:
        """Turn text into an action that is legal here, or raise a precise error."""
        action = self.game.parse_action(text)
        self._check_legal(action)
        return action

    def _check_legal(self, action: Action) -> None:
        if self.is_terminal():
            raise IllegalActionError(f"{action}: the game is over")
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))

    # -- transition -----------------------------------------------------------
    def apply(self, action: Action | str, *, seat: int | None = None) -> State:
        """The state after ``action`` (an action or its text); self is unchanged.

        ``seat``, when given, is the seat that claims to act: acting out of turn
        raises ``OutOfTurnError``.
        """
        if seat is not None:
            to_act = self.current_player()
            if seat != to_act:
                who = {CHANCE: "chance", TERMINAL: "nobody (the game is over)"}.get(
                    to_act, f"seat {to_act}"
                )
                raise OutOfTurnError(f"seat {seat} cannot act now: it is {who}'s turn")
        if isinstance(action, str):
            action = self.parse_action(action)
        else:
            self._check_legal(action)
        return self._apply(action)

    @abstractmethod
    def _apply(self, action: Action) -> State:
        """The next state, for an action already known to be legal."""

    # -- results and views ----------------------------------------------------
    @abstractmethod
    def returns(self) -> tuple[Fraction, ...]:
        """Each seat's exact net result so far (final at a terminal state)."""

    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]:
        """A JSON-ready view of what ``seat`` may see, including its legal actions."""
