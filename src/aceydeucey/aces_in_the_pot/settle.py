"""Settling a throw: the pure transition of Aces in the Pot on plain tuples.

The engine (``game.py``), the exact solution (``analysis.py``) and the tests all
use this one function, so the rules are written once.  A :class:`Position` is
the part of a state that play depends on; :func:`advance` returns the position
after one throw of both dice, described by its number of aces and sixes.

Reading of seed 004 used here (each point documented in ``docs/aces-in-the-pot.md``):

- In play, the roller pays every ace (one chip to the pot) before every six (one
  chip to the left neighbour, seat ``roller + 1``); once the roller has no chip
  left, the rest of the throw goes unpaid.
- An ace whose chip would leave no chip in play is not paid (it is "kept").
- The throw is settled in full, then: under ``finish = last-chip`` a single chip
  in play starts the finish for its holder; under ``one-holder``, a single seat
  holding chips does.  Otherwise the dice pass left to the next seat holding
  chips; seats without chips are skipped.
- In the finish aces count for nothing.  A throw without a six counts one of the
  ``finish_rolls``; after the last one the holder wins the pot.  A six ends the
  attempt: one chip and the dice go to the left neighbour.  If the holder had
  only that chip, the neighbour starts a new attempt; if the holder kept chips
  (``one-holder`` only), two seats now hold chips and normal play resumes with
  the neighbour to roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Phase", "Position", "Step", "advance", "start_position"]

Phase = Literal["play", "finish", "over"]


@dataclass(frozen=True)
class Position:
    """Chips per seat, the pot, the phase, the seat to roll and the finish roll number.

    ``roller`` is the holder during the finish and the winner once the game is
    over; ``roll_number`` is 1..finish_rolls during the finish and 0 otherwise.
    """

    chips: tuple[int, ...]
    pot: int
    phase: Phase
    roller: int
    roll_number: int = 0

    @property
    def in_play(self) -> int:
        """Chips not in the pot."""
        return sum(self.chips)


@dataclass(frozen=True)
class Step:
    """One throw settled: the new position and what moved, for narration."""

    position: Position
    to_pot: int = 0
    to_left: int = 0
    unpaid: int = 0
    kept: int = 0
    skipped: tuple[int, ...] = ()
    kind: Literal[
        "next", "finish-start", "finish-continue", "finish-pass", "back-to-play", "win"
    ] = "next"


def start_position(players: int, starting_chips: int, first: int) -> Position:
    """Everyone holds ``starting_chips``, the pot is empty, ``first`` rolls."""
    return Position((starting_chips,) * players, 0, "play", first)


def advance(pos: Position, aces: int, sixes: int, *, finish: str, finish_rolls: int) -> Step:
    """The position after a throw showing ``aces`` ones and ``sixes`` sixes."""
    if pos.phase == "play":
        return _play(pos, aces, sixes, finish)
    if pos.phase == "finish":
        return _finish(pos, sixes, finish_rolls)
    raise ValueError("the game is over: nobody rolls")  # internal: the engine never asks


def _play(pos: Position, aces: int, sixes: int, finish: str) -> Step:
    n = len(pos.chips)
    r = pos.roller
    held = pos.chips[r]
    in_play = pos.in_play
    to_pot = min(aces, held, in_play - 1)
    kept = min(aces, held) - to_pot
    to_left = min(sixes, held - to_pot - kept)
    unpaid = aces + sixes - to_pot - kept - to_left
    chips = list(pos.chips)
    chips[r] -= to_pot + to_left
    chips[(r + 1) % n] += to_left
    pot = pos.pot + to_pot
    holders = [s for s in range(n) if chips[s] > 0]
    if (finish == "last-chip" and in_play - to_pot == 1) or (
        finish == "one-holder" and len(holders) == 1
    ):
        new = Position(tuple(chips), pot, "finish", holders[0], 1)
        return Step(new, to_pot, to_left, unpaid, kept, kind="finish-start")
    nxt, skipped = _next_holder(chips, r)
    new = Position(tuple(chips), pot, "play", nxt)
    return Step(new, to_pot, to_left, unpaid, kept, skipped=skipped)


def _finish(pos: Position, sixes: int, finish_rolls: int) -> Step:
    n = len(pos.chips)
    h = pos.roller
    if sixes == 0:
        if pos.roll_number >= finish_rolls:
            return Step(Position(pos.chips, pos.pot, "over", h, 0), kind="win")
        new = Position(pos.chips, pos.pot, "finish", h, pos.roll_number + 1)
        return Step(new, kind="finish-continue")
    left = (h + 1) % n
    chips = list(pos.chips)
    chips[h] -= 1
    chips[left] += 1
    if chips[h] == 0:
        new = Position(tuple(chips), pos.pot, "finish", left, 1)
        return Step(new, to_left=1, kind="finish-pass")
    return Step(Position(tuple(chips), pos.pot, "play", left), to_left=1, kind="back-to-play")


def _next_holder(chips: list[int], roller: int) -> tuple[int, tuple[int, ...]]:
    """The next seat to the left holding chips, and the empty seats passed over."""
    n = len(chips)
    skipped: list[int] = []
    for k in range(1, n + 1):
        seat = (roller + k) % n
        if chips[seat] > 0:
            return seat, tuple(skipped)
        skipped.append(seat)
    raise ValueError("no chip is left in play")  # cannot happen: the last chip stays
