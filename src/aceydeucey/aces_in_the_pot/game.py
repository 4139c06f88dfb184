"""Aces in the Pot as a state machine (game id ``aces-in-the-pot``).

There are no player decisions in this game: every non-terminal state is a
chance node, ``current_player()`` is ``CHANCE`` until the game is over, and
``legal_actions()`` lists chance's outcomes.  Observations therefore carry an
empty ``legal_actions`` list for every seat.  Every throw is made by a seat:
``chance_actor()`` names it (the roll-off die's seat, the roller, the holder), so a
runner with a person in that seat may wait for their "roll" before drawing the dice.

Observations (``observation(seat)``, the same for every seat and for a spectator:
nothing is hidden) hold the shared envelope (``game``, ``seat``, ``current_player``,
``phase``, ``legal_actions``, ``last_event``, ``outcome``) and this game's fields:
``players``, ``chips``, ``pot``, ``roller``, ``holder``, ``roll_number``,
``finish_rolls``, ``rolloff`` (``{"seats", "dice"}`` during the roll-off, else
``null``), ``winner`` and ``returns``.  ``last_event`` is ``{"kind": ...}`` with the
kinds listed on :class:`Event`.  A finished game's ``outcome`` has the termination
code ``aces.pot_won`` (``{"seat", "pot"}``).

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
    DIE_DISTRIBUTION,
    DIE_OUTCOMES,
    ROLL_DISTRIBUTION,
    ROLL_OUTCOMES,
    Die,
    Roll,
    parse_chance_action,
)
from aceydeucey.aces_in_the_pot.rules import MAX_PLAYERS, MIN_PLAYERS, AcesRules
from aceydeucey.aces_in_the_pot.settle import Position, advance, start_position
from aceydeucey.aces_in_the_pot.termination import Termination
from aceydeucey.core.errors import ArgumentError, IllegalActionError, RulesError
from aceydeucey.core.game import (
    CHANCE,
    TERMINAL,
    Action,
    Distribution,
    Game,
    GameInfo,
    State,
    event,
)
from aceydeucey.core.rules import RulesBase

__all__ = ["AcesInThePotGame", "AcesInThePotState", "Event", "EventKind", "PhaseName"]

PhaseName = Literal["roll-off", "play", "finish", "over"]
EventKind = Literal[
    "roll-off-next",
    "roll-off-tie",
    "roll-off-won",
    "next",
    "finish-start",
    "finish-continue",
    "finish-pass",
    "back-to-play",
    "win",
]


@dataclass(frozen=True)
class Event:
    """What the last chance action did, for narration (JSON via :meth:`to_dict`).

    ``kind`` is one of ``roll-off-next`` (more roll-off dice to come),
    ``roll-off-tie`` (``tied`` roll again), ``roll-off-won`` (``next_seat``
    starts), ``next`` (the dice pass to ``next_seat``; ``skipped`` seats hold no
    chips), ``finish-start`` (``next_seat`` holds the finish), ``finish-continue``,
    ``finish-pass`` (a six: the chip goes to ``next_seat``), ``back-to-play`` (a
    six in a one-holder finish leaves two seats with chips) and ``win``.
    ``phase`` is the phase the throw was made in.
    """

    seat: int
    action: str
    phase: PhaseName
    kind: EventKind
    next_seat: int | None
    to_pot: int = 0
    to_left: int = 0
    unpaid: int = 0
    kept: int = 0
    skipped: tuple[int, ...] = ()
    roll_number: int = 0
    tied: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": ..., "seat", "action", "phase", "next_seat", ...}`` (JSON-ready)."""
        return event(
            self.kind,
            seat=self.seat,
            action=self.action,
            phase=self.phase,
            next_seat=self.next_seat,
            to_pot=self.to_pot,
            to_left=self.to_left,
            unpaid=self.unpaid,
            kept=self.kept,
            skipped=list(self.skipped),
            roll_number=self.roll_number,
            tied=list(self.tied),
        )


class AcesInThePotGame(Game):
    """Aces in the Pot with resolved :class:`AcesRules`."""

    game_id = "aces-in-the-pot"
    rules_class = AcesRules
    terminations = Termination
    rules: AcesRules
    #: The rules option naming the seat that starts (sessions rotate it: ``core.session``).
    starter_option = "first_roller"

    def __init__(self, rules: RulesBase) -> None:
        if not isinstance(rules, AcesRules):
            raise RulesError("aces.needs_rules", got=type(rules).__name__)
        super().__init__(rules)

    @property
    def num_players(self) -> int:
        return self.rules.players

    def make_info(self) -> GameInfo:
        """Zero-sum over the chips (the winner takes everything), nothing hidden, no bound
        on the length (a six in the finish can always pass the chip on)."""
        chips = self.rules.starting_chips
        return GameInfo(
            game_id=self.game_id,
            num_players=self.num_players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            zero_sum=True,
            hidden_information=False,
            chance=True,
            min_return=Fraction(-chips),
            max_return=Fraction((self.num_players - 1) * chips),
            max_length=None,
        )

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
        if len(chips) != n or any(
            not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in chips
        ):
            raise ArgumentError("aces.bad_chips", players=n, chips=repr(chips))
        total = self.rules.total_chips
        if not isinstance(pot, int) or pot < 0 or sum(chips) + pot != total:
            raise ArgumentError("aces.chips_total", chips=repr(chips), pot=repr(pot), total=total)
        self._check_seat(roller)
        if chips[roller] == 0:
            raise ArgumentError("aces.roller_without_chips", seat=roller)
        if phase == "finish":
            rolls = self.rules.finish_rolls
            if not isinstance(roll_number, int) or not 1 <= roll_number <= rolls:
                raise ArgumentError("aces.bad_roll_number", rolls=rolls, number=repr(roll_number))
            if sum(1 for c in chips if c) != 1:
                raise ArgumentError("aces.finish_needs_one_holder", chips=repr(chips))
            return AcesInThePotState(self, Position(chips, pot, "finish", roller, roll_number))
        if phase != "play":
            raise ArgumentError("aces.bad_phase", phase=repr(phase))
        return AcesInThePotState(self, Position(chips, pot, "play", roller))

    def _check_seat(self, seat: int) -> None:
        n = self.num_players
        if isinstance(seat, bool) or not (isinstance(seat, int) and 0 <= seat < n):
            raise ArgumentError("aces.no_seat", seat=repr(seat), seats=n, last=n - 1)


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

    def opener(self) -> int | None:
        """The seat that won the roll-off, on the state right after it (sessions read it)."""
        e = self.last_event
        return e.next_seat if e is not None and e.kind == "roll-off-won" else None

    # -- the contract ---------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else CHANCE

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "over":
            return []
        return list(DIE_OUTCOMES if self.position is None else ROLL_OUTCOMES)

    def chance_distribution(self) -> Distribution:
        """The shared distribution of one die (roll-off) or of two dice (every throw)."""
        if self.phase == "over":
            return Distribution((), (), 1)
        return DIE_DISTRIBUTION if self.position is None else ROLL_DISTRIBUTION

    def chance_actor(self) -> int | None:
        """The seat throwing: the roll-off die's seat, the roller or the holder."""
        return self.roller

    def player_actions(self) -> list[Action]:
        return []

    def explain_illegal(self, action: Action) -> str:
        return self._illegal(action).render("en")

    def _check_legal(self, action: Action) -> None:
        # Every die is legal in the roll-off and every throw after it (a Roll or Die is
        # checked when it is made), so legality is a type test, not a search of the list.
        pos = self.position
        if pos is None:
            if isinstance(action, Die):
                return
        elif pos.phase != "over":
            if isinstance(action, Roll):
                return
        else:
            super()._check_legal(action)  # the game is over
        raise self._illegal(action)

    def _illegal(self, action: Action) -> IllegalActionError:
        if self.position is None and isinstance(action, Roll):
            return IllegalActionError("aces.rolloff_one_die", action=str(action), seat=self.roller)
        if self.position is not None and isinstance(action, Die):
            return IllegalActionError("aces.throw_both_dice", action=str(action), seat=self.roller)
        return IllegalActionError("aces.not_legal", action=str(action))

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
        happened = Event(
            seat=pos.roller,
            action=str(action),
            phase=pos.phase,
            kind=step.kind,
            next_seat=new.roller,
            to_pot=step.to_pot,
            to_left=step.to_left,
            unpaid=step.unpaid,
            kept=step.kept,
            skipped=step.skipped,
            roll_number=pos.roll_number,
        )
        return AcesInThePotState(self.game, new, last_event=happened)

    def _apply_die(self, die: Die) -> AcesInThePotState:
        seat = self.rolloff[len(self.rolloff_dice)]
        dice = (*self.rolloff_dice, die.value)
        if len(dice) < len(self.rolloff):
            happened = Event(seat, str(die), "roll-off", "roll-off-next", self.rolloff[len(dice)])
            return AcesInThePotState(self.game, None, self.rolloff, dice, happened)
        top = max(dice)
        tied = tuple(s for s, d in zip(self.rolloff, dice, strict=True) if d == top)
        if len(tied) > 1:
            happened = Event(seat, str(die), "roll-off", "roll-off-tie", tied[0], tied=tied)
            return AcesInThePotState(self.game, None, tied, (), happened)
        first = tied[0]
        happened = Event(seat, str(die), "roll-off", "roll-off-won", first)
        pos = start_position(self.rules.players, self.rules.starting_chips, first)
        return AcesInThePotState(self.game, pos, last_event=happened)

    def returns(self) -> tuple[Fraction, ...]:
        start = self.rules.starting_chips
        held = list(self.chips)
        if self.winner is not None:
            held[self.winner] += self.pot
        return tuple(Fraction(c - start) for c in held)

    def termination(self) -> tuple[str, dict[str, Any]]:
        """``aces.pot_won``: the winner took the pot (``seat``, ``pot``)."""
        return Termination.POT_WON, {"seat": self.winner, "pot": self.pot}

    def ending_returns(self, seat: int) -> tuple[Fraction, ...]:
        """The returns when ``seat`` gives the game up (resigns, or loses by a claim or a
        timeout): its chips go into the pot, and the pot is divided equally among the
        other seats (exact shares; no chip is created or lost).
        """
        n = self.rules.players
        held = [Fraction(c) for c in self.chips]
        pot = self.pot + self.chips[seat]
        held[seat] = Fraction(0)
        for i in range(n):
            if i != seat:
                held[i] += Fraction(pot, n - 1)
        start = self.rules.starting_chips
        return tuple(h - start for h in held)

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    # -- views ----------------------------------------------------------------
    def phase_name(self) -> str:
        return self.phase

    def event_view(self) -> dict[str, Any] | None:
        """The last throw (``Event.to_dict``) with the ``chips`` and ``pot`` it left: a
        step's throws come to a page one by one, each with the table as it stood then."""
        if self.last_event is None:
            return None
        return {**self.last_event.to_dict(), "chips": list(self.chips), "pot": self.pot}

    def observe(self, seat: int | None) -> dict[str, Any]:
        """Everything is public: every seat and a spectator see the same fields."""
        return {
            "players": self.rules.players,
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
