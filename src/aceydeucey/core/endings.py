"""Endings a runner applies to a game in progress: a resignation, a claim, a timeout.

A game ends by its own rules (the last chip, the last checker borne off), or because a
seat gives it up: ``end(state, Ending.RESIGNED, seat)`` is the finished state in which
``seat`` resigned.  It is terminal, its ``outcome()`` says which ending (the
termination code ``ending.resigned``, ``ending.claimed`` or ``ending.timeout``, with the
seat), and its returns are the game's (``State.ending_returns``): each game documents what
giving up costs.  ``seat`` is always the seat that loses by the ending: the one who
resigned, the absent one whose game was claimed, the one whose time ran out.

Records keep the ending beside the actions (``docs/records.md``), so a resigned game
replays and verifies as finished.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import TERMINAL, Action, Game, State

__all__ = ["EndedState", "Ending", "end"]


class Ending(StrEnum):
    """The endings a runner applies; each game's ``Termination`` holds the same values."""

    RESIGNED = "ending.resigned"
    CLAIMED = "ending.claimed"
    TIMEOUT = "ending.timeout"


def end(state: State, ending: Ending | str, seat: int) -> EndedState:
    """``state`` ended by ``ending`` against ``seat`` (a finished state).

    ``ending`` is an ``Ending`` or its short name (``"resigned"``, ``"claimed"``,
    ``"timeout"``) or code.  A finished game cannot end again, and ``seat`` must be one
    of the game's seats: both are refused with a coded ``ArgumentError``.
    """
    kind = _ending(ending)
    if state.is_terminal():
        raise ArgumentError("ending.game_over", ending=kind.value.removeprefix("ending."))
    n = state.game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ArgumentError("observation.bad_seat", seat=repr(seat), last=n - 1)
    return EndedState(state.game, state, kind, seat)


def _ending(value: Ending | str) -> Ending:
    if isinstance(value, Ending):
        return value
    for member in Ending:
        if value in (member.value, member.value.removeprefix("ending.")):
            return member
    accepted = ", ".join(m.value.removeprefix("ending.") for m in Ending)
    raise ArgumentError("ending.unknown", ending=repr(value), accepted=accepted)


@dataclass(frozen=True)
class EndedState(State):
    """A game given up by ``seat`` (``ending``) at ``before``: terminal, immutable."""

    game: Game = field(compare=False, repr=False)
    before: State
    ending: Ending
    seat: int

    def current_player(self) -> int:
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        return []

    def player_actions(self) -> list[Action]:
        return []

    def _apply(self, action: Action) -> EndedState:  # pragma: no cover - terminal
        raise AssertionError("a finished game takes no action")

    def returns(self) -> tuple[Fraction, ...]:
        return self.before.ending_returns(self.seat)

    def termination(self) -> tuple[str, dict[str, Any]]:
        """The game's own ``Termination`` member of this ending, and the seat."""
        codes = getattr(self.game, "terminations", None)
        code = self.ending if codes is None else codes(self.ending.value)
        return code, {"seat": self.seat, "number": self.seat + 1}

    def winners(self) -> tuple[int, ...]:
        """The seats with the best result among those that did not give the game up."""
        r = self.returns()
        others = [i for i in range(len(r)) if i != self.seat]
        best = max(r[i] for i in others)
        return tuple(i for i in others if r[i] == best)

    def phase_name(self) -> str:
        return "over"

    def event_view(self) -> dict[str, Any] | None:
        return {"kind": self.ending.value.removeprefix("ending."), "seat": self.seat}

    def observe(self, seat: int | None) -> dict[str, Any]:
        """The game's own fields as they stood when the game was given up (with what the
        ending settles: ``State.ending_observe``)."""
        return self.before.ending_observe(seat, self.seat)

    def __str__(self) -> str:
        return f"{self.before}\n{self.ending.value.removeprefix('ending.')}: seat {self.seat}"
