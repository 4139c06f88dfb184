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

import bisect
import functools
import itertools
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar, Self

from aceydeucey.core.errors import (
    ActionSyntaxError,
    ArgumentError,
    IllegalActionError,
    OutOfTurnError,
    message,
)
from aceydeucey.core.rules import RulesBase

__all__ = [
    "CHANCE",
    "ENVELOPE_KEYS",
    "TERMINAL",
    "Action",
    "Distribution",
    "Game",
    "GameInfo",
    "Outcome",
    "State",
    "event",
]

#: The keys every observation of every game starts with, in this order.
ENVELOPE_KEYS = (
    "game",
    "seat",
    "current_player",
    "phase",
    "legal_actions",
    "last_event",
    "outcome",
)

#: ``current_player()`` at a chance node (same value as OpenSpiel's kChancePlayerId).
CHANCE = -1
#: ``current_player()`` once the game is over (same value as OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

#: An action is a small immutable value whose ``str`` is its canonical notation.
Action = Hashable


def event(kind: str, /, **fields: Any) -> dict[str, Any]:
    """An event in the one shape every game uses: ``{"kind": ..., ...fields}``."""
    return {"kind": kind, **fields}


@dataclass(frozen=True)
class Distribution:
    """Chance's outcomes at a node as integer weights over one total (an exact, fast form).

    ``weights[i] / total`` is the exact probability of ``actions[i]``.  Games with a fixed
    distribution (the 21 rolls of two dice) return one shared instance, so samplers need
    no ``Fraction`` arithmetic per draw: draw an integer below ``total`` and walk ``cumulative``.
    """

    actions: tuple[Action, ...]
    weights: tuple[int, ...]
    total: int

    @classmethod
    def from_outcomes(cls, outcomes: Sequence[tuple[Action, Fraction]]) -> Distribution:
        total = math.lcm(*(p.denominator for _, p in outcomes))
        return cls(
            tuple(a for a, _ in outcomes),
            tuple(p.numerator * (total // p.denominator) for _, p in outcomes),
            total,
        )

    @functools.cached_property
    def cumulative(self) -> tuple[int, ...]:
        return tuple(itertools.accumulate(self.weights))

    def pick(self, draw: int) -> Action:
        """The outcome selected by an integer ``draw`` in ``range(total)``."""
        if not 0 <= draw < self.total:
            raise ArgumentError("chance.draw_out_of_range", draw=draw, total=self.total)
        return self.actions[bisect.bisect_right(self.cumulative, draw)]


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, as a value (python-chess's ``Outcome``).

    ``termination`` is a stable code (``"session.rounds_played"``, ``"race.borne_off"``),
    rendered in a language by the ``errors``-style catalogs of the front ends;
    ``params`` hold its values; ``winners`` the seats that won (several on a tie);
    ``returns`` each seat's exact net result.
    """

    termination: str
    winners: tuple[int, ...]
    returns: tuple[Fraction, ...]
    params: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; returns as exact strings (``"-3/2"``)."""
        return {
            "termination": self.termination,
            "params": dict(self.params),
            "winners": list(self.winners),
            "returns": [str(r) for r in self.returns],
        }


@dataclass(frozen=True)
class GameInfo:
    """A game's fixed facts under its resolved rules (OpenSpiel's ``GameType``/``GameInfo``).

    ``min_return``/``max_return`` bound any seat's net result; ``max_length`` bounds the
    number of actions (chance included), or is ``None`` where no bound holds.
    """

    game_id: str
    num_players: int
    min_players: int
    max_players: int
    zero_sum: bool
    hidden_information: bool
    chance: bool
    min_return: Fraction | None
    max_return: Fraction | None
    max_length: int | None


class Game(ABC):
    """A game with its fully resolved rules: a factory of initial states.

    Subclasses set ``game_id`` and ``rules_class`` and implement
    ``new_initial_state`` and ``parse_action``.
    """

    game_id: ClassVar[str]
    rules_class: ClassVar[type[RulesBase]]
    #: The game's termination codes (a ``StrEnum`` whose values are catalog keys).
    terminations: ClassVar[type[StrEnum] | None] = None

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

    @functools.cached_property
    def info(self) -> GameInfo:
        """The fixed facts of this game under its rules, built once per game (``make_info``)."""
        return self.make_info()

    def make_info(self) -> GameInfo:
        """Build this game's ``GameInfo`` (each game overrides this; ``info`` keeps it)."""
        raise NotImplementedError(f"{type(self).__name__} does not declare its GameInfo")

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

    def chance_distribution(self) -> Distribution:
        """Chance's outcomes as integer weights (games with a fixed distribution cache it)."""
        return Distribution.from_outcomes(self.chance_outcomes())

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
            raise IllegalActionError("action.game_over", action=str(action))
        if action not in self.legal_actions():
            raise IllegalActionError(self.explain_illegal(action))

    def chance_actor(self) -> int | None:
        """At a chance node that a seat performs (a throw of the dice): that seat, else ``None``.

        Runners with people at the table may wait for that seat's gesture ("roll") before
        drawing the outcome; the outcome itself is still chance's.  Dealing is nobody's.
        """
        return None

    def throw_asked(self) -> bool:
        """At a throw (see :meth:`chance_actor`): whether its seat has already asked for it
        by its last decision (backgammon's ``roll`` instead of doubling), so that a runner
        waits for no second gesture."""
        return False

    # -- transition -----------------------------------------------------------
    def apply(self, action: Action | str, *, seat: int | None = None) -> Self:
        """The state after ``action`` (an action or its text); self is unchanged.

        ``seat``, when given, is the seat that claims to act: acting out of turn
        raises ``OutOfTurnError``.
        """
        if seat is not None:
            to_act = self.current_player()
            if seat != to_act:
                if to_act == CHANCE:
                    who = message("turn.who_chance")
                elif to_act == TERMINAL:
                    who = message("turn.who_nobody")
                else:
                    who = message("turn.who_seat", seat=to_act, number=to_act + 1)
                raise OutOfTurnError("turn.not_yours", seat=seat, number=seat + 1, who=who)
        if isinstance(action, str):
            action = self.parse_action(action)
        else:
            try:
                self._check_legal(action)
            except IllegalActionError:
                self._check_is_action(action)
                raise
        return self._apply(action)

    def _check_is_action(self, action: Action) -> None:
        """An ``ActionSyntaxError`` when ``action`` is no action of this game at all (``42``).

        Checked only once ``action`` proved illegal, so that a value of the wrong kind
        is not explained as a move made at the wrong moment.
        """
        try:
            self.parse_action(str(action))
        except IllegalActionError:
            return
        except ActionSyntaxError as exc:
            raise ActionSyntaxError(
                "action.not_of_game",
                value=repr(action),
                game=self.game.game_id,
                reason=message(exc.code, **exc.params),
            ) from None

    @abstractmethod
    def _apply(self, action: Action) -> Self:
        """The next state, for an action already known to be legal."""

    # -- results and views ----------------------------------------------------
    @abstractmethod
    def returns(self) -> tuple[Fraction, ...]:
        """Each seat's exact net result so far (final at a terminal state)."""

    def outcome(self) -> Outcome | None:
        """``None`` while the game runs; how it ended once it is over."""
        if not self.is_terminal():
            return None
        code, params = self.termination()
        return Outcome(code, self.winners(), self.returns(), tuple(sorted(params.items())))

    def termination(self) -> tuple[str, dict[str, Any]]:
        """At a terminal state: the stable code of how it ended, and its params.

        Each game returns a member of its own ``Termination`` (a ``StrEnum`` whose values
        are the catalog keys).
        """
        return "game.over", {}

    def ending_returns(self, seat: int) -> tuple[Fraction, ...]:
        """Each seat's exact net result when ``seat`` resigns (or loses by a claim or a
        timeout) here: how the game settles an ending that is not its own (see
        ``core.endings``).  The base keeps the returns as they stand; games override it.
        """
        return self.returns()

    def winners(self) -> tuple[int, ...]:
        """The seats with the best result (all of them on a tie)."""
        r = self.returns()
        best = max(r)
        return tuple(i for i, v in enumerate(r) if v == best)

    # Games keep their own ``phase`` and ``last_event`` fields; these two hooks are what
    # the envelope shows of them (a property here would become a dataclass default).
    def phase_name(self) -> str:
        """A stable name for the stage of play (``"bet"``, ``"roll"``, ``"over"``...)."""
        return "over" if self.is_terminal() else "play"

    def event_view(self) -> dict[str, Any] | None:
        """The event of the transition that led here (``{"kind": ...}``), or ``None``."""
        return None

    def check_seat(self, seat: int | None) -> int | None:
        """``seat`` when it is a seat of this game or ``None`` (a spectator); else an error."""
        n = self.game.num_players
        if seat is None:
            return None
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ArgumentError("observation.bad_seat", seat=repr(seat), last=n - 1)
        return seat

    def observation(self, seat: int | None = None) -> dict[str, Any]:
        """A JSON-ready view of what ``seat`` may see; ``None`` is a spectator's view.

        Every game's observation starts with the same keys (``ENVELOPE_KEYS``):
        ``legal_actions`` is empty unless it is that seat's turn.  The game's own
        fields follow, from ``observe``; they never hold another seat's hidden cards.
        """
        seat = self.check_seat(seat)
        outcome = self.outcome()
        to_act = self.current_player()
        obs: dict[str, Any] = {
            "game": self.game.game_id,
            "seat": seat,
            "current_player": to_act,
            "phase": self.phase_name(),
            "legal_actions": (self.action_texts() if seat is not None and seat == to_act else []),
            "last_event": self.event_view(),
            "outcome": outcome.to_dict() if outcome is not None else None,
        }
        obs.update(self.observe(seat))
        return obs

    def action_texts(self) -> list[str]:
        """The canonical texts of :meth:`player_actions`, in their order (a new list: a game
        may keep the texts it works out, once per state)."""
        return [str(a) for a in self.player_actions()]

    def observe(self, seat: int | None) -> dict[str, Any]:
        """The game's own observation fields for ``seat`` (validated), or the public view.

        Each game overrides this; the envelope keys come from ``observation``.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement observe()")

    def ending_observe(self, seat: int | None, forfeit: int) -> dict[str, Any]:
        """The game's own fields for ``seat`` once ``forfeit`` has given the game up here
        (``core.endings``): the base shows them as they stood; a game whose ending settles
        something the fields show (In-Between's pot) overrides it."""
        return self.observe(seat)

    # -- determinisation ------------------------------------------------------
    def determinisations(self, seat: int | None) -> list[tuple[Self, Fraction]]:
        """Every state consistent with what ``seat`` sees, with its exact chance.

        Each listed state gives ``seat`` the same ``observation(seat)`` as this one and
        differs only in what ``seat`` cannot see (other seats' face-down cards, the stock);
        the chances are chance's own (a fair deal), not conditioned on how the other
        seats played.  A game of perfect information lists this state alone.  A game
        with hidden cards may list very many: ``resample`` draws one instead.
        """
        self.check_seat(seat)
        return [(self, Fraction(1))]

    def resample(self, seat: int | None, rng: random.Random) -> Self:
        """One state drawn from ``determinisations(seat)`` with its chance, using ``rng``
        (OpenSpiel's ``resample_from_infostate``); this state itself under perfect
        information."""
        self.check_seat(seat)
        return self
