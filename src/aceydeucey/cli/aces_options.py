"""What Aces in the Pot's terminal commands share: their options (players, chips, rolls,
the finish, the first roller, the preset, the speed) and the game built from them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any

import typer

from aceydeucey.cli.common import (
    fail_error,
    parse_options,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import load_game

if TYPE_CHECKING:
    from aceydeucey.core.game import Game

__all__ = [
    "GAME_ID",
    "ChipsOption",
    "Finish",
    "FinishOption",
    "FirstRollerOption",
    "PlayersOption",
    "PresetOption",
    "RollsOption",
    "Speed",
    "Start",
    "game_of",
]

GAME_ID = "aces-in-the-pot"


class Speed(StrEnum):
    fast = "fast"
    normal = "normal"


class Finish(StrEnum):
    last_chip = "last-chip"
    one_holder = "one-holder"


class Start(StrEnum):
    roll_off = "roll-off"
    rotate = "rotate"


PlayersOption = Annotated[
    int | None, typer.Option("--players", "-n", help="Number of players (3-12; default 4).")
]
FinishOption = Annotated[
    Finish | None, typer.Option("--finish", help="When the finish starts (default: the preset's).")
]
ChipsOption = Annotated[
    int | None, typer.Option("--starting-chips", help="Chips each player starts with.")
]
RollsOption = Annotated[
    int | None, typer.Option("--finish-rolls", help="Rolls without a six needed to win.")
]
PresetOption = Annotated[str | None, typer.Option("--preset", help="seed or one-holder.")]
FirstRollerOption = Annotated[
    int | None,
    typer.Option("--first-roller", help="Seat (0-based) that throws first, without a roll-off."),
]


def game_of(
    lang: str,
    pairs: list[str] | None,
    *,
    preset: str | None = None,
    players: int | None = None,
    finish: Finish | None = None,
    chips: int | None = None,
    rolls: int | None = None,
    first_roller: int | None = None,
) -> Game:
    """The game from ``-o key=value`` pairs and the named options (which win)."""
    from aceydeucey.aces_in_the_pot.rules import AcesRules

    options: dict[str, Any] = parse_options(AcesRules, pairs, lang)
    named = {
        "preset": preset,
        "players": players,
        "finish": finish.value if finish is not None else None,
        "starting_chips": chips,
        "finish_rolls": rolls,
        "first_roller": first_roller,
    }
    options.update({k: v for k, v in named.items() if v is not None})
    try:
        return load_game(GAME_ID, **options)
    except AceyDeuceyError as exc:
        fail_error(exc, lang)
