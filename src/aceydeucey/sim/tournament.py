"""Matches and round-robin tournaments between bots, for any game of two seats.

A **match** of bot A against bot B is ``games`` games played in pairs: in each
pair A takes seat 0 in one game and seat 1 in the other.  With duplicate chance
(the default) both games of a pair draw their chance from
:class:`~aceydeucey.core.chance.Duplicate` sources of the same seed: in
backgammon the same opening roll-off and, for each seat, the same k-th roll
(the rolls after a 1-2 included), so each bot meets the dice the other met from
the same seat and much of the luck cancels within the pair.  With
``duplicate=False`` each game draws its own chance (the seats still alternate).

The figures, for A (:class:`MatchResult`): points per game (the mean of A's
returns), its standard error, and the games A won, lost and drew.  The error is
computed over the pairs, the independent units of a match (the standard
deviation of the pair means over the square root of the number of pairs), so it
shows the variance the duplicate dice remove.  Totals are exact (``Fraction``);
the figures are derived from them.

Seeds: pair ``p`` of every match draws its dice and its bots' seeds from child
``p`` of ``numpy.random.SeedSequence(seed)``.  Every match of a round robin is
therefore played on the same dice, and a match's figures depend only on its
two bots, the number of games and the seed: not on the other bots in the
tournament, nor on how the work is shared out.

Work: each match is cut into jobs of at most :data:`PAIRS_PER_JOB` pairs and all
the jobs of a tournament go to one :func:`aceydeucey.sim.parallel.run_jobs` call
(``workers`` local processes, or Ray); a job returns its :class:`Tally`, never a
game.  A job ignores the seed sequence ``run_jobs`` hands it: its pairs' seeds
come from the tournament's seed as above, which is what makes every worker count
and job size give the same results.

Bots are :class:`Entrant` values: a name and a factory called as
``factory(seed=...)``.  :func:`entrant` makes one from a game's registered bots
(its ``BOTS``), so a bot added there plays with no change here; any top-level
class or function serves as a factory too (workers must be able to import it).
Before the first game every bot is built and seated in both seats
(:func:`check_entrants`), so a bot that refuses the rules (``pubeval`` outside
classic backgammon) fails at once, with its own coded error.

>>> from aceydeucey import load_game
>>> game = load_game("backgammon", variant="classic")
>>> [result] = round_robin(game, [entrant("backgammon", "greedy"),
...                               entrant("backgammon", "random")], 4, seed=1)
>>> result.bot, result.opponent, result.games, result.wins + result.losses
('greedy', 'random', 4, 4)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from aceydeucey.core.chance import Duplicate
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game
from aceydeucey.core.registry import make_bot
from aceydeucey.core.table import Table, seat_agent
from aceydeucey.sim.parallel import run_jobs

__all__ = [
    "PAIRS_PER_JOB",
    "Entrant",
    "MatchResult",
    "Standing",
    "Tally",
    "check_entrants",
    "entrant",
    "pair_seeds",
    "play_match",
    "play_pair",
    "round_robin",
    "standings",
]

#: Pairs of games in one job (a job is the unit of work and of progress).
PAIRS_PER_JOB = 10
#: The normal quantile of a two-sided 95 % confidence interval.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Entrant:
    """A bot of a tournament: its name and a factory called as ``factory(seed=...)``."""

    name: str
    factory: Callable[..., Any]

    def make(self, seed: int | None = None) -> Any:
        """A new bot (an agent: ``act(observation)``)."""
        return self.factory(seed=seed)


def entrant(game_id: str, name: str) -> Entrant:
    """The registered bot ``name`` of ``game_id`` (an unknown name: ``bot.unknown``)."""
    make_bot(game_id, name)  # refuses an unknown game or bot, with the registry's error
    return Entrant(name, functools.partial(make_bot, game_id, name))


@dataclass(frozen=True)
class Tally:
    """Exact totals of some pairs of one match, from the first bot's side.

    ``squares`` is the sum over pairs of the square of the bot's points in the
    pair (both games together): with ``points`` it gives the variance of the pairs.
    """

    pairs: int = 0
    games: int = 0
    wins: int = 0
    losses: int = 0
    points: Fraction = Fraction(0)
    squares: Fraction = Fraction(0)

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.pairs + other.pairs,
            self.games + other.games,
            self.wins + other.wins,
            self.losses + other.losses,
            self.points + other.points,
            self.squares + other.squares,
        )

    def reversed(self) -> Tally:
        """The same games from the other bot's side."""
        return Tally(self.pairs, self.games, self.losses, self.wins, -self.points, self.squares)


@dataclass(frozen=True)
class MatchResult:
    """One match's figures from ``bot``'s side against ``opponent``."""

    bot: str
    opponent: str
    tally: Tally

    @property
    def games(self) -> int:
        return self.tally.games

    @property
    def wins(self) -> int:
        return self.tally.wins

    @property
    def losses(self) -> int:
        return self.tally.losses

    @property
    def draws(self) -> int:
        return self.tally.games - self.tally.wins - self.tally.losses

    @property
    def points(self) -> Fraction:
        """The bot's total points over the match (exact)."""
        return self.tally.points

    @property
    def points_per_game(self) -> float:
        return float(self.tally.points / self.tally.games) if self.tally.games else math.nan

    @property
    def stderr(self) -> float:
        """Standard error of the points per game, over the pairs (``nan`` below two pairs)."""
        n = self.tally.pairs
        if n < 2:
            return math.nan
        # pair means m_p = s_p / 2: their variance from the sums of s_p and s_p²
        mean = self.tally.points / (2 * n)
        variance = (self.tally.squares / 4 - n * mean * mean) / (n - 1)
        return math.sqrt(max(float(variance), 0.0) / n)

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95 % confidence interval of the points per game (normal approximation)."""
        half = Z95 * self.stderr
        return (self.points_per_game - half, self.points_per_game + half)

    def reversed(self) -> MatchResult:
        """The same match from the opponent's side."""
        return MatchResult(self.opponent, self.bot, self.tally.reversed())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: bot, opponent, games, points_per_game, stderr (``None`` when not
        defined), the 95 % interval, wins, losses, draws and the exact total points."""
        stderr = self.stderr
        low, high = self.ci95
        defined = not math.isnan(stderr)
        return {
            "bot": self.bot,
            "opponent": self.opponent,
            "games": self.games,
            "points_per_game": self.points_per_game,
            "stderr": stderr if defined else None,
            "ci95": [low, high] if defined else None,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "points": str(self.points),
        }


@dataclass(frozen=True)
class Standing:
    """A bot's totals over all its matches of a tournament."""

    bot: str
    games: int
    wins: int
    losses: int
    points: Fraction

    @property
    def points_per_game(self) -> float:
        return float(self.points / self.games) if self.games else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "games": self.games,
            "points_per_game": self.points_per_game,
            "wins": self.wins,
            "losses": self.losses,
        }


def standings(results: Sequence[MatchResult]) -> list[Standing]:
    """Each bot's totals over its matches, best points per game first (ties: by name)."""
    totals: dict[str, Tally] = {}
    for result in results:
        for side in (result, result.reversed()):
            totals[side.bot] = totals.get(side.bot, Tally()) + side.tally
    table = [Standing(bot, t.games, t.wins, t.losses, t.points) for bot, t in totals.items()]
    return sorted(table, key=lambda s: (-s.points / max(s.games, 1), s.bot))


def check_entrants(game: Game, entrants: Sequence[Entrant]) -> None:
    """Refuse a tournament that cannot be played, before any game.

    The game must have two seats and be zero-sum (one bot's gain the other's loss: not
    Red Dog's house game); there must be two bots or more, each named once;
    each bot is built and seated in both seats, so one that refuses these rules
    raises its own coded error now.
    """
    if game.num_players != 2:
        raise ArgumentError("tournament.two_seats", game=game.game_id, seats=game.num_players)
    if not game.info.zero_sum:
        raise ArgumentError("tournament.zero_sum", game=game.game_id)
    if len(entrants) < 2:
        raise ArgumentError("tournament.too_few", count=len(entrants))
    seen: set[str] = set()
    for one in entrants:
        if one.name in seen:
            raise ArgumentError("tournament.repeated", bot=one.name)
        seen.add(one.name)
        for seat in (0, 1):
            seat_agent(one.make(seed=0), game, seat)


def round_robin(
    game: Game,
    entrants: Sequence[Entrant],
    games: int,
    *,
    seed: int = 0,
    duplicate: bool = True,
    workers: int = 1,
    ray: str | None = None,
    on_games: Callable[[int], None] | None = None,
) -> list[MatchResult]:
    """Every bot against every later one, ``games`` games a match (an even number).

    Results in the order of the matches (the first bot against the second, the
    third..., then the second against the third...), each from the side of the bot
    listed first.  ``on_games(n)`` is called as each job's ``n`` games finish.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2:
        raise ArgumentError("tournament.games", games=games)
    check_entrants(game, entrants)
    matches = list(itertools.combinations(range(len(entrants)), 2))
    pairs = games // 2
    plan = [
        (m, first, min(PAIRS_PER_JOB, pairs - first))
        for m in range(len(matches))
        for first in range(0, pairs, PAIRS_PER_JOB)
    ]
    sides = [(entrants[i], entrants[j]) for i, j in matches]

    def done(_index: int, tally: Tally) -> None:
        if on_games is not None:
            on_games(tally.games)

    tallies = run_jobs(
        _match_job,
        len(plan),
        seed=seed,
        args=(game, tuple(plan), tuple(sides), seed, duplicate),
        workers=workers,
        ray=ray,
        on_result=done,
    )
    totals = [Tally() for _ in matches]
    for (m, _, _), tally in zip(plan, tallies, strict=True):
        totals[m] = totals[m] + tally
    return [MatchResult(a.name, b.name, total) for (a, b), total in zip(sides, totals, strict=True)]


def play_match(
    game: Game, bot: Entrant, opponent: Entrant, games: int, **options: Any
) -> MatchResult:
    """One match (see :func:`round_robin` for the options)."""
    [result] = round_robin(game, [bot, opponent], games, **options)
    return result


def pair_seeds(seed: int, pair: int) -> tuple[int, int, int, int]:
    """Pair ``pair``'s seeds: chance of its first and second game (equal under duplicate
    chance, the second is used only without it), then the two bots'.

    They come from child ``pair`` of ``SeedSequence(seed)``.
    """
    root = np.random.SeedSequence(seed)
    child = np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, pair))
    words = [int(w) for w in child.generate_state(6, np.uint32)]
    return (words[0] << 32 | words[1], words[2] << 32 | words[3], words[4], words[5])


def play_pair(
    game: Game, bot: Entrant, opponent: Entrant, seed: int, pair: int, *, duplicate: bool = True
) -> tuple[Tally, tuple[Table, Table]]:
    """Pair ``pair`` of a match: ``bot`` in seat 0, then in seat 1; its tally and tables."""
    first, second, bot_seed, opponent_seed = pair_seeds(seed, pair)
    chances = (first, first if duplicate else second)
    tally = Tally(pairs=1)
    pair_points = Fraction(0)
    tables = []
    for seat, chance_seed in enumerate(chances):
        agents = [bot.make(bot_seed), opponent.make(opponent_seed)]
        if seat == 1:
            agents.reverse()
        table = Table(game, agents, chance=Duplicate(chance_seed))
        table.play()
        outcome = table.state.outcome()
        assert outcome is not None  # Table.play plays to the end
        points = outcome.returns[seat]
        pair_points += points
        won, lost = seat in outcome.winners, 1 - seat in outcome.winners
        tally = tally + Tally(0, 1, int(won and not lost), int(lost and not won), points)
        tables.append(table)
    tally = tally + Tally(squares=pair_points * pair_points)
    return tally, (tables[0], tables[1])


def _match_job(
    _seeds: np.random.SeedSequence,
    index: int,
    game: Game,
    plan: tuple[tuple[int, int, int], ...],
    sides: tuple[tuple[Entrant, Entrant], ...],
    seed: int,
    duplicate: bool,
) -> Tally:
    """Job ``index`` of a tournament: its pairs of one match (see the module docstring)."""
    match, first, count = plan[index]
    bot, opponent = sides[match]
    tally = Tally()
    for pair in range(first, first + count):
        tally = tally + play_pair(game, bot, opponent, seed, pair, duplicate=duplicate)[0]
    return tally
