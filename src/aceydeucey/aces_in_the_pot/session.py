"""Sessions: several games in a row with a tally of pots won (seed 004's last paragraphs).

Seed 004 suggests treating the chips as equipment over several games: each game
starts level, everyone with ``starting_chips``, and only the number of pots
each player has won is written down.  A session is therefore a runner-level
feature, not part of a game's state: :func:`play_session` plays ``games``
independent games (each with its own roll-off and its own record) and tallies
the winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
from aceydeucey.core.chance import ChanceSource, Seeded
from aceydeucey.core.errors import IllegalActionError, RulesError
from aceydeucey.core.record import Record
from aceydeucey.core.table import Listener, Table

__all__ = ["NoDecisions", "Session", "play_session"]


class NoDecisions:
    """The agent for every seat: Aces in the Pot never asks a player anything."""

    name = "dice"

    def act(self, observation: dict[str, Any]) -> str:
        raise IllegalActionError("Aces in the Pot has no player decisions: only the dice act")


@dataclass
class Session:
    """Games played so far and the pots each seat has won."""

    game: AcesInThePotGame
    names: list[str]
    records: list[Record] = field(default_factory=list)
    pots: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.pots:
            self.pots = [0] * self.game.num_players

    @property
    def games(self) -> int:
        return len(self.records)

    def leaders(self) -> list[int]:
        """The seats with the most pots won (several on a tie)."""
        best = max(self.pots)
        return [seat for seat, won in enumerate(self.pots) if won == best]


def play_session(
    game: AcesInThePotGame,
    games: int,
    *,
    chance: ChanceSource | None = None,
    names: Sequence[str] | None = None,
    listeners: Sequence[Listener] = (),
) -> Session:
    """Play ``games`` games, everyone starting level each time; the tally and the records."""
    if games < 1:
        raise RulesError(f"a session needs at least 1 game, not {games}")
    chance = chance if chance is not None else Seeded()
    seats = game.num_players
    names = list(names) if names is not None else [f"seat {i}" for i in range(seats)]
    session = Session(game, names)
    for _ in range(games):
        agents = [NoDecisions()] * seats
        table = Table(game, agents, chance=chance, names=names, listeners=listeners)
        record = table.play()
        final = table.state
        assert isinstance(final, AcesInThePotState) and final.winner is not None
        session.pots[final.winner] += 1
        session.records.append(record)
    return session
