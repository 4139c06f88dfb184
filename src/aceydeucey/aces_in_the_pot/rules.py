"""The rules of Aces in the Pot as data: options, presets and their sources.

Options (see ``docs/aces-in-the-pot.md``):

- ``players`` -- seats at the table, 3 to 12 (seed 004: "It works with three
  players, though four or more is better").
- ``starting_chips`` -- chips each player takes (seed 004: "Every player takes
  two chips").
- ``finish`` -- when the play for the pot starts: ``last-chip`` (seed 004: as soon
  as a single chip is left in play) or ``one-holder`` (seed 004's Variants:
  as soon as only one player holds chips, however many).
- ``finish_rolls`` -- rolls without a six needed to win the pot (seed 004:
  "three rolls of both dice").
- ``first_roller`` -- ``None`` (default): the game opens with seed 004's roll-off
  ("roll a single die each, and the highest number goes first"); a seat number:
  that seat throws first and there is no roll-off.  Match play uses it to
  rotate the start (family-games-treasurehouse: "in round 2 the next player
  starts"), so each game's record still replays on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, get_args

from aceydeucey.core.rules import Preset, RulesBase, option, refusal

__all__ = ["FINISHES", "MAX_PLAYERS", "MIN_PLAYERS", "AcesRules"]

#: Fewest seats the game is played with (seed 004: "It works with three players, though
#: four or more is better, because then the chips get to travel before the pot swallows them").
MIN_PLAYERS = 3
#: Most seats this implementation seats (the exact solution stays within reach).
MAX_PLAYERS = 12
#: The accepted values of the ``finish`` option.
Finish = Literal["last-chip", "one-holder"]
#: The ways the finish may start (the words of ``Finish``).
FINISHES: tuple[str, ...] = get_args(Finish)

_SEED = "seed 004 (Aces in the Pot Dice Game Rules)"


@dataclass(frozen=True)
class AcesRules(RulesBase):
    """Every option of Aces in the Pot; build with ``AcesRules.resolve(...)``."""

    GAME: ClassVar[str] = "aces-in-the-pot"
    PRESETS: ClassVar[dict[str, Preset]] = {
        "seed": Preset(
            "seed",
            {},
            _SEED,
            "two chips each; the finish starts when a single chip is left in play",
        ),
        "one-holder": Preset(
            "one-holder",
            {"finish": "one-holder"},
            f"{_SEED}, Variants; netexl and family-games-treasurehouse (SOURCES.md)",
            "the finish starts as soon as only one player holds chips, even several",
        ),
    }
    DEFAULT_PRESET: ClassVar[str] = "seed"

    preset: str = "seed"
    players: int = option(
        4,
        min=MIN_PLAYERS,
        max=MAX_PLAYERS,
        help="number of players, 3 to 12",
        source=f"{_SEED}: 'It works with three players, though four or more is better'",
    )
    starting_chips: int = option(
        2,
        min=1,
        max=20,
        help="chips each player takes at the start of a game",
        source=f"{_SEED}: 'Every player takes two chips'",
    )
    finish: Finish = option(
        "last-chip",
        help="when the finish starts: a single chip in play, or a single player holding chips",
        source=f"{_SEED}: last paragraph ('The fuller ones wait until a single chip is left')",
    )
    finish_rolls: int = option(
        3,
        min=1,
        max=10,
        help="rolls without a six the holder needs to win the pot",
        source=f"{_SEED}: 'three rolls of both dice, and not one of them may show a six'",
    )

    first_roller: int | None = option(
        None,
        help="seat that throws first without a roll-off (none: roll-off, highest die starts)",
        source=(
            f"{_SEED}: 'roll a single die each, and the highest number goes first'; "
            "family-games-treasurehouse (SOURCES.md): 'in round 2 the next player starts'"
        ),
        seat=True,
    )

    def check(self) -> None:
        if self.first_roller is not None and not 0 <= self.first_roller < self.players:
            raise refusal(
                self,
                "aces.first_roller_not_seat",
                "first_roller",
                "players",
                first=self.first_roller,
                last=self.players - 1,
            )

    @property
    def total_chips(self) -> int:
        """Chips at the table: ``players * starting_chips``."""
        return self.players * self.starting_chips
