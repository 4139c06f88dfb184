"""Sessions and match play: several games in a row with a tally of pots won.

Seed 004 suggests treating the chips as equipment over several games: each game
starts level, everyone with ``starting_chips``, and only the number of pots
each player has won is written down.  family-games-treasurehouse adds match
play: "the first player to win the pot three times" wins, and "in round 2 the
next player starts".  A session is a runner-level feature, not part of a
game's state: :func:`play_session` plays independent games, each with its own
record, and tallies the winners.

- **Length.** ``games=K`` plays exactly K games; ``first_to=N`` plays until one
  seat has won N pots.  Each game has exactly one winner, so the match stops at
  the first game that brings a seat to N and no other seat can be level: a
  first-to-N match never ties.  A fixed number of games can end level; then
  :attr:`Session.winner` is ``None`` and :meth:`Session.leaders` names the tie.
- **Who starts** (:data:`STARTS`).  ``roll-off``: every game opens with seed
  004's roll-off (a single die each, highest starts).  ``rotate``: game 1 opens
  with the roll-off; every later game is started by the seat to the left
  (seat + 1) of the previous game's first roller, with no roll-off.  The later
  games are played with the rules option ``first_roller`` set to that seat, so
  each game's record carries its starter in its rules and replays on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
from aceydeucey.core.chance import ChanceSource, Seeded
from aceydeucey.core.errors import IllegalActionError, RulesError
from aceydeucey.core.game import Action, State
from aceydeucey.core.record import Record
from aceydeucey.core.table import Listener, Table

__all__ = ["STARTS", "NoDecisions", "Session", "StartName", "play_session"]

StartName = Literal["roll-off", "rotate"]
#: The accepted values of ``play_session(start=...)``.
STARTS: tuple[StartName, ...] = ("roll-off", "rotate")


class NoDecisions:
    """The agent for every seat: Aces in the Pot never asks a player anything."""

    name = "dice"

    def act(self, observation: dict[str, Any]) -> str:
        raise IllegalActionError("Aces in the Pot has no player decisions: only the dice act")


@dataclass
class Session:
    """Games played so far, who started each, and the pots each seat has won.

    ``target`` is the number of pots that wins a first-to-N match, ``None`` for
    a session of a fixed number of games.
    """

    game: AcesInThePotGame
    names: list[str]
    target: int | None = None
    start: StartName = "roll-off"
    records: list[Record] = field(default_factory=list)
    pots: list[int] = field(default_factory=list)
    first_rollers: list[int] = field(default_factory=list)

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

    @property
    def winner(self) -> int | None:
        """The seat that won the match: the one that reached ``target``, or the
        single leader of a fixed-length session; ``None`` while level or unfinished."""
        leaders = self.leaders()
        if len(leaders) != 1:
            return None
        if self.target is not None and self.pots[leaders[0]] < self.target:
            return None
        return leaders[0]

    def over(self, games: int | None) -> bool:
        if self.target is not None:
            return max(self.pots) >= self.target
        return games is not None and self.games >= games

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready tally: ``{"games", "pots", "winner", "leaders", "first_to",
        "start", "first_rollers"}``."""
        return {
            "games": self.games,
            "pots": list(self.pots),
            "winner": self.winner,
            "leaders": self.leaders(),
            "first_to": self.target,
            "start": self.start,
            "first_rollers": list(self.first_rollers),
        }


class _Starter:
    """Listener noting the seat that won the roll-off."""

    def __init__(self) -> None:
        self.seat: int | None = None

    def __call__(self, before: State, action: Action, after: State) -> None:
        assert isinstance(after, AcesInThePotState)
        event = after.last_event
        if event is not None and event.kind == "roll-off-won":
            self.seat = event.next_seat


def play_session(
    game: AcesInThePotGame,
    games: int | None = None,
    *,
    first_to: int | None = None,
    start: StartName = "roll-off",
    chance: ChanceSource | None = None,
    names: Sequence[str] | None = None,
    listeners: Sequence[Listener] = (),
) -> Session:
    """Play ``games`` games, or until a seat has won ``first_to`` pots (give one).

    Everyone starts level each game; ``start`` says who throws first in each
    game (see the module docstring).  Returns the tally and the records.
    """
    if (games is None) == (first_to is None):
        raise RulesError("a session needs either a number of games or a first-to target, not both")
    if games is not None and games < 1:
        raise RulesError(f"a session needs at least 1 game, not {games}")
    if first_to is not None and first_to < 1:
        raise RulesError(f"a first-to match needs a target of at least 1 pot, not {first_to}")
    if start not in STARTS:
        raise RulesError(f"start {start!r} is not known; accepted: {', '.join(STARTS)}")
    if start == "rotate" and game.rules.first_roller is not None:
        raise RulesError(
            f"start 'rotate' chooses each game's first roller; the rules already fix option "
            f"'first_roller' = {game.rules.first_roller}"
        )
    chance = chance if chance is not None else Seeded()
    seats = game.num_players
    names = list(names) if names is not None else [f"seat {i}" for i in range(seats)]
    session = Session(game, names, first_to, start)
    while not session.over(games):
        this_game = game
        if start == "rotate" and session.first_rollers:
            following = (session.first_rollers[-1] + 1) % seats
            this_game = AcesInThePotGame(game.rules.replace(first_roller=following))
        starter = _Starter()
        agents = [NoDecisions()] * seats
        table = Table(
            this_game, agents, chance=chance, names=names, listeners=[starter, *listeners]
        )
        record = table.play()
        final = table.state
        assert isinstance(final, AcesInThePotState) and final.winner is not None
        first = this_game.rules.first_roller
        session.first_rollers.append(first if first is not None else _seat(starter.seat))
        session.pots[final.winner] += 1
        session.records.append(record)
    return session


def _seat(seat: int | None) -> int:
    assert seat is not None, "every game without a first_roller opens with a roll-off"
    return seat
