"""A tiny game used to test the contract machinery on its own.

Chance draws a number 1, 2 or 3 (probabilities 1/2, 1/4, 1/4); seat 0 then
says ``stay`` or ``double``; seat 1 says ``stay``.  Seat 0 wins the number
(doubled if it said so, and times ``factor``) from seat 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal

from aceydeucey.core.errors import ActionSyntaxError
from aceydeucey.core.game import CHANCE, TERMINAL, Game, State
from aceydeucey.core.rules import Preset, RulesBase, option


@dataclass(frozen=True)
class ToyRules(RulesBase):
    GAME: ClassVar[str] = "toy"
    PRESETS: ClassVar[dict[str, Preset]] = {
        "plain": Preset("plain", {}, "tests"),
        "big": Preset("big", {"factor": 10}, "tests"),
    }
    DEFAULT_PRESET: ClassVar[str] = "plain"

    preset: str = "plain"
    factor: int = option(1, min=1, max=100, help="payout multiplier")
    mode: Literal["a", "b"] = option("a", help="a mode")
    allow_double: bool = option(True, help="whether seat 0 may double")
    seats: tuple[str, ...] = option(("x", "y"))

    def check(self) -> None:
        from aceydeucey.core.errors import RulesError

        if self.mode == "b" and self.allow_double:
            raise RulesError("option 'mode' = 'b' contradicts option 'allow_double' = True")


class ToyGame(Game):
    game_id = "toy"
    rules_class = ToyRules

    @property
    def num_players(self) -> int:
        return 2

    def new_initial_state(self) -> ToyState:
        return ToyState(self, None, ())

    def parse_action(self, text: str) -> str | int:
        text = text.strip()
        if text in ("stay", "double"):
            return text
        if text.isdigit():
            return int(text)
        raise ActionSyntaxError(f"{text!r} is not a toy action")


@dataclass(frozen=True)
class ToyState(State):
    game: ToyGame
    number: int | None
    said: tuple[str, ...]

    def current_player(self) -> int:
        if self.number is None:
            return CHANCE
        return len(self.said) if len(self.said) < 2 else TERMINAL

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        if self.number is not None:
            return []
        return [(1, Fraction(1, 2)), (2, Fraction(1, 4)), (3, Fraction(1, 4))]

    def player_actions(self) -> list[str]:
        seat = self.current_player()
        if seat == 0:
            return ["stay", "double"] if self.game.rules.allow_double else ["stay"]  # type: ignore[attr-defined]
        return ["stay"] if seat == 1 else []

    def _apply(self, action: Any) -> ToyState:
        if self.number is None:
            return ToyState(self.game, action, ())
        return ToyState(self.game, self.number, (*self.said, action))

    def returns(self) -> tuple[Fraction, ...]:
        if not self.is_terminal():
            return (Fraction(0), Fraction(0))
        assert self.number is not None
        win = self.number * (2 if self.said[0] == "double" else 1) * self.game.rules.factor  # type: ignore[attr-defined]
        return (Fraction(win), Fraction(-win))

    def observation(self, seat: int) -> dict[str, Any]:
        mine = self.current_player() == seat
        return {
            "seat": seat,
            "number": self.number,
            "legal_actions": [str(a) for a in self.legal_actions()] if mine else [],
        }
