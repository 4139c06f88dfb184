"""Sessions and matches over any game: several games in a row at one table, with a tally.

A session is a runner-level feature, not part of a game's state: each game is an
independent game (its own ``Table``, its own record, which replays on its own) and the
session counts who won each.  Seed 004 treats the chips of Aces in the Pot this way
("each game starts level; only the pots won are written down"); family-games-treasurehouse
adds match play: "the first player to win the pot three times" wins, and "in round 2 the
next player starts".

- **Length.** ``games=K`` plays exactly K games; ``first_to=N`` plays until a seat has
  won N games.  Each seat in a game's ``outcome().winners`` is credited one win (a tie
  credits every tied seat).  A fixed number of games can end level: then
  :attr:`Session.winner` is ``None`` and :meth:`Session.leaders` names the tie.
- **Who starts** (:data:`STARTS`).  ``roll-off``: every game opens as its rules say
  (with the game's own roll-off where it has one).  ``rotate``: game 1 opens as its rules
  say; every later game is started by the seat to the left (seat + 1) of the previous
  game's starter.  Rotation needs a game that names its starter in a rules option: the
  game class declares it as ``starter_option`` (Aces in the Pot: ``first_roller``), and
  the later games are played with that option set, so each record carries its starter
  in its rules.  A game's starter is that option when set, else what the state reports
  through an optional ``opener()`` method (the roll-off's winner), else ``None``.
- **Interruptions.** :meth:`Session.play` adds each record as its game ends; while a
  game runs, :meth:`Session.unfinished` gives its record so far (marked not terminal),
  so a runner that catches ``KeyboardInterrupt`` keeps every finished game and saves the
  interrupted one.  ``resume=`` continues a saved unfinished game as the session's first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.chance import ChanceSource, Seeded
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Action, Game, State
from aceydeucey.core.record import Record, replay
from aceydeucey.core.table import Agent, Listener, Table

__all__ = ["STARTS", "Session", "StartName", "play_session", "starter_option"]

StartName = Literal["roll-off", "rotate"]
#: The accepted values of ``start``.
STARTS: tuple[StartName, ...] = ("roll-off", "rotate")


def starter_option(game: Game) -> str | None:
    """The rules option naming the seat that starts, when the game declares one."""
    name = getattr(type(game), "starter_option", None)
    return name if isinstance(name, str) else None


@dataclass
class Session:
    """Games played so far, who started each, and how many games each seat has won.

    ``target`` is the number of wins that takes a first-to-N match, ``None`` for a
    session of a fixed number of games.
    """

    game: Game
    names: list[str]
    target: int | None = None
    start: StartName = "roll-off"
    records: list[Record] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    starters: list[int | None] = field(default_factory=list)
    #: The table of the game in progress, while one runs.
    table: Table | None = None

    def __post_init__(self) -> None:
        if self.target is not None and (isinstance(self.target, bool) or self.target < 1):
            raise ArgumentError("session.bad_target", target=self.target)
        if self.start not in STARTS:
            raise ArgumentError(
                "session.unknown_start", start=repr(self.start), accepted=", ".join(STARTS)
            )
        option = starter_option(self.game)
        if self.start == "rotate":
            if option is None:
                raise ArgumentError("session.cannot_rotate", game=self.game.game_id)
            fixed = getattr(self.game.rules, option)
            if fixed is not None:
                raise ArgumentError("session.rotate_fixed", option=option, value=fixed)
        if not self.wins:
            self.wins = [0] * self.game.num_players
        if len(self.names) != self.game.num_players:
            raise ArgumentError("session.names", seats=self.game.num_players, names=len(self.names))

    # -- the tally --------------------------------------------------------------------
    @property
    def games(self) -> int:
        """Finished games."""
        return len(self.records)

    def leaders(self) -> list[int]:
        """The seats with the most wins (several on a tie)."""
        best = max(self.wins)
        return [seat for seat, won in enumerate(self.wins) if won == best]

    @property
    def winner(self) -> int | None:
        """The seat that won: the one that reached ``target``, or the single leader of a
        fixed-length session; ``None`` while level or unfinished."""
        leaders = self.leaders()
        if len(leaders) != 1:
            return None
        if self.target is not None and self.wins[leaders[0]] < self.target:
            return None
        return leaders[0]

    def over(self, games: int | None) -> bool:
        if self.target is not None:
            return max(self.wins) >= self.target
        return games is not None and self.games >= games

    def unfinished(self) -> Record | None:
        """The record so far of the game in progress (not terminal), if one is running."""
        table = self.table
        if table is None or table.state.is_terminal():
            return None
        table.record.finish(table.state)
        return table.record

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready tally: ``{"games", "wins", "winner", "leaders", "first_to", "start",
        "starters"}``."""
        return {
            "games": self.games,
            "wins": list(self.wins),
            "winner": self.winner,
            "leaders": self.leaders(),
            "first_to": self.target,
            "start": self.start,
            "starters": list(self.starters),
        }

    # -- playing ----------------------------------------------------------------------
    def next_game(self) -> Game:
        """The game to play next: the session's, or, rotating, the next starter's."""
        option = starter_option(self.game)
        if self.start != "rotate" or not self.starters or option is None:
            return self.game
        previous = self.starters[-1]
        if previous is None:
            raise ArgumentError("session.starter_unknown", game=self.game.game_id)
        following = (previous + 1) % self.game.num_players
        return type(self.game)(self.game.rules.replace(**{option: following}))

    def play(
        self,
        games: int | None = None,
        *,
        agents: Sequence[Agent] | None = None,
        chance: ChanceSource | None = None,
        listeners: Sequence[Listener] = (),
        resume: Record | None = None,
    ) -> Session:
        """Play games until :meth:`over` (``games`` for a fixed-length session).

        ``agents`` default to random bots; ``resume`` is an unfinished record of this
        game, continued as the next game.  Each finished game's record is added as it
        ends, so an interruption (``KeyboardInterrupt``) loses nothing already played.
        """
        if self.target is None and (games is None or isinstance(games, bool) or games < 1):
            raise ArgumentError("session.bad_games", games=games)
        chance = chance if chance is not None else Seeded()
        seats = self.game.num_players
        if agents is None:
            agents = [RandomAgent(seed=seat) for seat in range(seats)]
        while not self.over(games):
            this_game = self.next_game()
            if resume is not None:
                this_game = resume.make_game()
                if type(this_game) is not type(self.game):
                    raise ArgumentError(
                        "session.resume_other_game", game=self.game.game_id, record=resume.game
                    )
            starter = _Starter(this_game)
            table = Table(
                this_game, agents, chance=chance, names=self.names, listeners=[starter, *listeners]
            )
            if resume is not None:
                table.state = replay(resume)
                table.record.actions = list(resume.actions)
                starter.seat = _starter_of_record(this_game, resume)
                resume = None
            self.table = table
            record = table.play()
            self.table = None
            outcome = table.state.outcome()
            assert outcome is not None
            for seat in outcome.winners:
                self.wins[seat] += 1
            self.starters.append(starter.seat)
            self.records.append(record)
        return self


class _Starter:
    """Listener noting a game's starter: the rules' starter option, else the state's opener."""

    def __init__(self, game: Game) -> None:
        option = starter_option(game)
        fixed = getattr(game.rules, option) if option is not None else None
        self.seat: int | None = fixed if isinstance(fixed, int) else None

    def __call__(self, before: State, action: Action, after: State) -> None:
        if self.seat is None:
            opener = getattr(after, "opener", None)
            if opener is not None:
                self.seat = opener()


def _starter_of_record(game: Game, record: Record) -> int | None:
    starter = _Starter(game)
    state = game.new_initial_state()
    for text in record.actions:
        if starter.seat is not None:
            break
        after = state.apply(text)
        starter(state, text, after)
        state = after
    return starter.seat


def play_session(
    game: Game,
    games: int | None = None,
    *,
    first_to: int | None = None,
    start: StartName = "roll-off",
    agents: Sequence[Agent] | None = None,
    chance: ChanceSource | None = None,
    names: Sequence[str] | None = None,
    listeners: Sequence[Listener] = (),
) -> Session:
    """Play ``games`` games, or until a seat has won ``first_to`` games (give one of them).

    Returns the tally and the records (see :class:`Session`).
    """
    if (games is None) == (first_to is None):
        raise ArgumentError("session.games_or_first_to")
    seats = game.num_players
    session = Session(
        game,
        list(names) if names is not None else [f"seat {i}" for i in range(seats)],
        first_to,
        start,
    )
    return session.play(games, agents=agents, chance=chance, listeners=listeners)
