"""Chance's outcomes in Aces in the Pot, and their one notation.

Two kinds of chance action exist; there are no player decisions at all.

- ``Roll``: a throw of both dice, written larger die first: ``5-3``, ``6-6``,
  ``2-1``.  The 21 unordered throws are listed with their exact
  probabilities: doubles 1/36, others 2/36.  Parsing also accepts the smaller
  die first (``3-5``) and spaces around the dash; ``str`` gives the canonical form.
- ``Die``: one die of the opening roll-off, written ``die 4``.  Each seat still
  in the roll-off rolls one, in seat order; ties among the highest roll again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from aceydeucey.core.errors import ActionSyntaxError
from aceydeucey.core.game import Distribution

__all__ = [
    "DIE_DISTRIBUTION",
    "DIE_OUTCOMES",
    "ROLL_DISTRIBUTION",
    "ROLL_OUTCOMES",
    "Die",
    "Roll",
    "parse_chance_action",
]


@dataclass(frozen=True, order=True)
class Roll:
    """A throw of two dice, ``high >= low``: ``Roll(5, 3)`` is ``5-3``."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (1 <= self.low <= self.high <= 6):
            raise ActionSyntaxError("aces.roll_faces", high=self.high, low=self.low)

    @classmethod
    def from_dice(cls, a: int, b: int) -> Roll:
        """The roll showing ``a`` and ``b`` in either order."""
        return cls(max(a, b), min(a, b))

    @property
    def dice(self) -> tuple[int, int]:
        return (self.high, self.low)

    @property
    def aces(self) -> int:
        """How many dice show a one."""
        return (self.high == 1) + (self.low == 1)

    @property
    def sixes(self) -> int:
        """How many dice show a six."""
        return (self.high == 6) + (self.low == 6)

    @property
    def probability(self) -> Fraction:
        return Fraction(1 if self.high == self.low else 2, 36)

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Roll({self.high}, {self.low})"


@dataclass(frozen=True, order=True)
class Die:
    """One die of the opening roll-off: ``Die(4)`` is ``die 4``."""

    value: int

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ActionSyntaxError("aces.die_face", value=self.value)

    def __str__(self) -> str:
        return f"die {self.value}"

    def __repr__(self) -> str:
        return f"Die({self.value})"


#: The 21 throws of two dice with their exact probabilities (sum 1), larger die first.
ROLL_OUTCOMES: tuple[tuple[Roll, Fraction], ...] = tuple(
    (Roll(high, low), Roll(high, low).probability)
    for high in range(6, 0, -1)
    for low in range(high, 0, -1)
)
#: The six faces of one roll-off die, 1/6 each.
DIE_OUTCOMES: tuple[tuple[Die, Fraction], ...] = tuple(
    (Die(v), Fraction(1, 6)) for v in range(1, 7)
)
#: The same two distributions as integer weights, shared by every state (``chance_distribution``).
ROLL_DISTRIBUTION = Distribution.from_outcomes(ROLL_OUTCOMES)
DIE_DISTRIBUTION = Distribution.from_outcomes(DIE_OUTCOMES)

_ROLL = re.compile(r"^\s*([1-6])\s*-\s*([1-6])\s*$")
_DIE = re.compile(r"^\s*die\s+([1-6])\s*$", re.IGNORECASE)


def parse_chance_action(text: str) -> Roll | Die:
    """``"5-3"`` (or ``"3-5"``) to ``Roll(5, 3)``, ``"die 4"`` to ``Die(4)``."""
    if not isinstance(text, str):
        raise ActionSyntaxError("aces.action_not_text", type=type(text).__name__)
    if m := _ROLL.match(text):
        return Roll.from_dice(int(m.group(1)), int(m.group(2)))
    if m := _DIE.match(text):
        return Die(int(m.group(1)))
    raise ActionSyntaxError("aces.not_an_action", text=text)
