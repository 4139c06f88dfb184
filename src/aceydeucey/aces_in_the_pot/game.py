"""Aces in the Pot as a state machine (game id ``aces-in-the-pot``).

There are no player decisions in this game: every non-terminal state is a
chance node, ``current_player()`` is ``CHANCE`` until the game is over, and
``legal_actions()`` lists chance's outcomes.  Observations therefore carry an
empty ``legal_actions`` list for every seat.

Phases and chance actions (notation in :mod:`aceydeucey.aces_in_the_pot.dice`):

- ``roll-off`` -- the seats still in the roll-off roll one die each, in seat
  order (``die 4``); the single highest starts, ties among the highest roll again.
  Skipped when the ``first_roller`` option names the seat that starts.
- ``play`` -- the roller throws both dice (``5-3``, larger first); the throw is
  settled by :func:`aceydeucey.aces_in_the_pot.settle.advance`.
- ``finish`` -- the holder throws up to ``finish_rolls`` times; ``roll_number``
  says which throw is next (1-based).
- ``over`` -- the winner has taken the pot.

Returns are net chips, exact: each seat's holdings minus ``starting_chips``,
the winner's holdings including the pot.  With the default rules the winner
ends with every chip, ``(players - 1) * starting_chips`` up, and everyone else
is ``starting_chips`` down.  Before the end, returns count chips held only
(the pot belongs to nobody yet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from aceydeucey.aces_in_the_pot.dice import (
    DIE_OUTCOMES,
    ROLL_OUTCOMES,
    Die,
    Roll,
    parse_chance_action,
)
from aceydeucey.aces_in_the_pot.rules import AcesRules
from aceydeucey.aces_in_the_pot.settle import Position, advance, start_position
from aceydeucey.core.errors import IllegalActionError, RulesError
from aceydeucey.core.game import CHANCE, TERMINAL, Action, Game, State
from aceydeucey.core.rules import RulesBase

__all__ = ["AcesInThePotGame", "AcesInThePotState", "Event", "PhaseName"]

PhaseName = Literal["roll-off", "play", "finish", "over"]


@dataclass(frozen=True)
class Event:
    """What the last chance action did, for narration (JSON via :meth:`to_dict`).

    ``outcome`` is one of ``roll-off-next`` (more roll-off dice to come),
    ``roll-off-tie`` (``tied`` roll again), ``roll-off-won`` (``next_seat``
    starts), ``next`` (the dice pass to ``next_seat``; ``skipped`` seats hold no
    chips), ``finish-start`` (``next_seat`` holds the finish), ``finish-continue``,
    ``finish-pass`` (a six: the chip goes to ``next_seat``), ``back-to-play`` (a
    six in a one-holder finish leaves two seats with chips) and ``win``.
    """

    seat: int
    action: str
    phase: PhaseName
    outcome: str
    next_seat: int | None
    to_pot: int = 0
    to_left: int = 0
    unpaid: int = 0
    kept: int = 0
    skipped: tuple[int, ...] = ()
    roll_number: int = 0
    tied: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "action": self.action,
            "phase": self.phase,
            "outcome": self.outcome,
            "next_seat": self.next_seat,
            "to_pot": self.to_pot,
            "to_left": self.to_left,
            "unpaid": self.unpaid,
            "kept": self.kept,
            "skipped": list(self.skipped),
            "roll_number": self.roll_number,
            "tied": list(self.tied),
        }


class AcesInThePotGame(Game):
    """Aces in the Pot with resolved :class:`AcesRules`."""

    game_id = "aces-in-the-pot"
    rules_class = AcesRules
    rules: AcesRules

    def __init__(self, rules: RulesBase) -> None:
        if not isinstance(rules, AcesRules):
            raise RulesError(f"{self.game_id} needs AcesRules, not {type(rules).__name__}")
        super().__init__(rules)

    @property
    def num_players(self) -> int:
        return self.rules.players

    def new_initial_state(self) -> AcesInThePotState:
        """Everyone holds their chips; the roll-off for the first turn is next.

        With the ``first_roller`` option set there is no roll-off: that seat's
        first throw is next.
        """
        first = self.rules.first_roller
        if first is not None:
            return self.first_turn(first)
        return AcesInThePotState(self, None, tuple(range(self.num_players)), ())

    def parse_action(self, text: str) -> Roll | Die:
        return parse_chance_action(text)

    def first_turn(self, first: int = 0) -> AcesInThePotState:
        """The state right after a roll-off won by seat ``first``."""
        self._check_seat(first)
        pos = start_position(self.num_players, self.rules.starting_chips, first)
        return AcesInThePotState(self, pos)

    def state_at(
        self,
        chips: tuple[int, ...],
        pot: int,
        roller: int,
        *,
        phase: Literal["play", "finish"] = "play",
        roll_number: int = 1,
    ) -> AcesInThePotState:
        """A position set up by hand (tests, worked examples), checked for consistency.

        In ``play`` the roller must hold chips; in ``finish`` the roller is the
        holder and ``roll_number`` the throw about to be made.
        """
        n = self.num_players
        chips = tuple(chips)
        if len(chips) != n or any(not isinstance(c, int) or c < 0 for c in chips):
            raise IllegalActionError(f"chips must be {n} counts >= 0, not {chips}")
        if pot < 0 or sum(chips) + pot != self.rules.total_chips:
            raise IllegalActionError(
                f"chips {chips} and pot {pot} must add up to the {self.rules.total_chips} "
                "chips at the table"
            )
        self._check_seat(roller)
        if chips[roller] == 0:
            raise IllegalActionError(f"seat {roller} holds no chip and cannot roll")
        if phase == "finish":
            if not 1 <= roll_number <= self.rules.finish_rolls:
                raise IllegalActionError(
                    f"roll_number must be 1..{self.rules.finish_rolls}, not {roll_number}"
                )
            if sum(1 for c in chips if c) != 1:
                raise IllegalActionError("in the finish only the holder holds chips")
            return AcesInThePotState(self, Position(chips, pot, "finish", roller, roll_number))
        return AcesInThePotState(self, Position(chips, pot, "play", roller))

    def _check_seat(self, seat: int) -> None:
        if not (isinstance(seat, int) and 0 <= seat < self.num_players):
            raise IllegalActionError(
                f"no seat {seat!r}: this table seats {self.num_players} (0..{self.num_players - 1})"
            )


@dataclass(frozen=True)
class AcesInThePotState(State):
    """One situation of a game of Aces in the Pot (immutable, hashable).

    ``position`` is ``None`` during the roll-off, where ``rolloff`` holds the
    seats still rolling and ``rolloff_dice`` the dice they rolled this round.
    """

    game: AcesInThePotGame
    position: Position | None
    rolloff: tuple[int, ...] = ()
    rolloff_dice: tuple[int, ...] = ()
    last_event: Event | None = field(default=None, compare=False)

    # -- what everyone can see -------------------------------------------------
    @property
    def rules(self) -> AcesRules:
        return self.game.rules

    @property
    def phase(self) -> PhaseName:
        return "roll-off" if self.position is None else self.position.phase

    @property
    def chips(self) -> tuple[int, ...]:
        """Chips each seat holds."""
        if self.position is None:
            return (self.rules.starting_chips,) * self.rules.players
        return self.position.chips

    @property
    def pot(self) -> int:
        return 0 if self.position is None else self.position.pot

    @property
    def roller(self) -> int | None:
        """The seat about to roll (a roll-off die, a throw or a finish throw)."""
        if self.position is None:
            return self.rolloff[len(self.rolloff_dice)]
        return None if self.position.phase == "over" else self.position.roller

    @property
    def holder(self) -> int | None:
        """The seat playing the finish, else ``None``."""
        pos = self.position
        return pos.roller if pos is not None and pos.phase == "finish" else None

    @property
    def roll_number(self) -> int | None:
        """The finish throw about to be made (1-based), else ``None``."""
        pos = self.position
        return pos.roll_number if pos is not None and pos.phase == "finish" else None

    @property
    def winner(self) -> int | None:
        pos = self.position
        return pos.roller if pos is not None and pos.phase == "over" else None

    # -- the contract ---------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else CHANCE

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "over":
            return []
        return list(DIE_OUTCOMES if self.position is None else ROLL_OUTCOMES)

    def player_actions(self) -> list[Action]:
        return []

    def explain_illegal(self, action: Action) -> str:
        if self.position is None and isinstance(action, Roll):
            return (
                f"{action}: the roll-off is on: seat {self.roller} rolls one die "
                "(like 'die 4'), not two"
            )
        if self.position is not None and isinstance(action, Die):
            return f"{action}: seat {self.roller} throws both dice now (like '5-3'), not one die"
        return super().explain_illegal(action)

    def _apply(self, action: Action) -> AcesInThePotState:
        if isinstance(action, Die):
            return self._apply_die(action)
        assert isinstance(action, Roll) and self.position is not None
        pos = self.position
        rules = self.rules
        step = advance(
            pos,
            action.aces,
            action.sixes,
            finish=rules.finish,
            finish_rolls=rules.finish_rolls,
        )
        new = step.position
        event = Event(
            seat=pos.roller,
            action=str(action),
            phase=pos.phase,
            outcome=step.outcome,
            next_seat=new.roller,
            to_pot=step.to_pot,
            to_left=step.to_left,
            unpaid=step.unpaid,
            kept=step.kept,
            skipped=step.skipped,
            roll_number=pos.roll_number,
        )
        return AcesInThePotState(self.game, new, last_event=event)

    def _apply_die(self, die: Die) -> AcesInThePotState:
        seat = self.rolloff[len(self.rolloff_dice)]
        dice = (*self.rolloff_dice, die.value)
        if len(dice) < len(self.rolloff):
            event = Event(seat, str(die), "roll-off", "roll-off-next", self.rolloff[len(dice)])
            return AcesInThePotState(self.game, None, self.rolloff, dice, event)
        top = max(dice)
        tied = tuple(s for s, d in zip(self.rolloff, dice, strict=True) if d == top)
        if len(tied) > 1:
            event = Event(seat, str(die), "roll-off", "roll-off-tie", tied[0], tied=tied)
            return AcesInThePotState(self.game, None, tied, (), event)
        first = tied[0]
        event = Event(seat, str(die), "roll-off", "roll-off-won", first)
        pos = start_position(self.rules.players, self.rules.starting_chips, first)
        return AcesInThePotState(self.game, pos, last_event=event)

    def returns(self) -> tuple[Fraction, ...]:
        start = self.rules.starting_chips
        held = list(self.chips)
        if self.winner is not None:
            held[self.winner] += self.pot
        return tuple(Fraction(c - start) for c in held)

    def observation(self, seat: int) -> dict[str, Any]:  # type: ignore[override]  # until issue 7 lands
        self.game._check_seat(seat)
        return {
            "game": self.game.game_id,
            "seat": seat,
            "players": self.rules.players,
            "phase": self.phase,
            "chips": list(self.chips),
            "pot": self.pot,
            "roller": self.roller,
            "holder": self.holder,
            "roll_number": self.roll_number,
            "finish_rolls": self.rules.finish_rolls,
            "rolloff": None
            if self.position is not None
            else {"seats": list(self.rolloff), "dice": list(self.rolloff_dice)},
            "winner": self.winner,
            "returns": [str(r) for r in self.returns()],
            "last_event": None if self.last_event is None else self.last_event.to_dict(),
            "legal_actions": [],
        }

    def __str__(self) -> str:
        seats = "  ".join(f"seat {s}: {c}" for s, c in enumerate(self.chips))
        if self.position is None:
            rolled = ", ".join(
                f"seat {s} {d}" for s, d in zip(self.rolloff, self.rolloff_dice, strict=False)
            )
            head = f"roll-off among seats {list(self.rolloff)}" + (f" ({rolled})" if rolled else "")
            head += f"; seat {self.roller} rolls one die"
        elif self.phase == "play":
            head = f"play; seat {self.roller} to roll"
        elif self.phase == "finish":
            head = (
                f"finish; seat {self.holder} holds the last chip"
                if sum(self.chips) == 1
                else f"finish; seat {self.holder} is the only one with chips"
            )
            head += f", roll {self.roll_number} of {self.rules.finish_rolls}"
        else:
            head = f"over; seat {self.winner} won the pot of {self.pot}"
        return f"Aces in the Pot ({self.rules.players} players): {head}\npot {self.pot} | {seats}"
