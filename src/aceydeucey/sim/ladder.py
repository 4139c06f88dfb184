"""The bot ladder: every bot of every game rated on one Elo scale per game.

Each rung of :data:`LADDER` is a game under one set of rules with the bots that play it;
:func:`climb` plays a round robin among them (:func:`~aceydeucey.sim.tournament.round_robin`:
duplicate chance, pairs with the seats swapped) and :func:`ratings` fits Elo ratings to
the games won, lost and drawn.

The fit is the Bradley-Terry model on Elo's scale: bot *i* beats bot *j* with chance
``1 / (1 + 10 ** ((r_j - r_i) / 400))``, a draw counting half a win. The ratings are the
maximum of the likelihood of every game played, with ``prior_draws`` virtual drawn games
added to each pair (as BayesElo does), so a bot that won every game still gets a finite
rating. ``random`` is rated 0 ("Elo above random play") where it plays, else the first
bot. The standard errors come from the curvature of the log-likelihood at its maximum
(the observed information), of each bot's difference from the best measured bot of the
rung (the one whose games hold the most information: not random play, which loses every
game and so is itself placed only roughly).

The rating counts games won, as match ratings do (FIBS, lichess); how much a game is won
by (a gammon, checkers left in Acey-Deucey, chips in In-Between) is the tournament's
points per game, which the ladder reports beside it.

>>> from aceydeucey.sim.tournament import MatchResult, Tally
>>> fit = ratings([MatchResult("a", "random", Tally(pairs=50, games=100, wins=76, losses=24))])
>>> [(r.bot, round(r.elo), round(r.stderr), r.against) for r in fit]
[('a', 195, 0, 'a'), ('random', 0, 40, 'a')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import bot_names, load_game
from aceydeucey.core.table import seat_agent
from aceydeucey.sim.tournament import (
    Entrant,
    MatchResult,
    check_entrants,
    entrant,
    round_robin,
    standings,
)

__all__ = ["LADDER", "Rating", "Rung", "RungResult", "climb", "ratings", "rung_bots"]

#: Elo's scale: ten times the odds every 400 points.
ELO = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Rating:
    """One bot's place on its rung's scale."""

    bot: str
    elo: float
    stderr: float  # of the difference from ``against`` (0 for that bot itself)
    games: int
    wins: int
    losses: int
    points_per_game: float
    against: str  # the bot the errors are measured from

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.elo - 1.96 * self.stderr, self.elo + 1.96 * self.stderr)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "elo": self.elo,
            "stderr": self.stderr,
            "ci95": list(self.ci95),
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.games - self.wins - self.losses,
            "points_per_game": self.points_per_game,
            "against": self.against,
        }


def ratings(
    results: Sequence[MatchResult],
    *,
    zero: str | None = None,
    against: str | None = None,
    prior_draws: float = 2.0,
) -> list[Rating]:
    """Elo ratings fitted to the matches' games won, lost and drawn; best first.

    ``zero`` is rated 0 (default: ``random`` where it played, else the first bot met).
    The standard errors are of each bot's difference from ``against`` (default: the best
    measured bot, the one with the most information in its games; each :class:`Rating`
    names it): a bot that lost every game, as random play does, is itself poorly placed,
    and errors measured from it would hide how well the others are known. Every bot must
    be linked to the others through the matches.
    """
    names: list[str] = []
    for r in results:
        for name in (r.bot, r.opponent):
            if name not in names:
                names.append(name)
    if zero is None:
        zero = "random" if "random" in names else names[0]
    index = {name: k for k, name in enumerate(names)}
    n = len(names)
    games = np.zeros((n, n))  # games between i and j, both ways
    score = np.zeros((n, n))  # i's score against j (a win 1, a draw 1/2)
    played = np.zeros((n, n), dtype=bool)  # the pairs that met (the prior's pairs)
    for r in results:
        i, j = index[r.bot], index[r.opponent]
        won = r.wins + r.draws / 2
        for a, b, s in ((i, j, won), (j, i, r.games - won)):
            games[a, b] += r.games
            score[a, b] += s
            played[a, b] = True
    games = games + prior_draws * played
    score = score + prior_draws / 2 * played
    free = [k for k in range(n) if names[k] != zero]
    elo = np.zeros(n)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(elo[:, None] - elo[None, :]) / ELO))
        gradient = (score - games * p).sum(axis=1) / ELO
        weight = games * p * (1.0 - p) / ELO**2
        hessian = np.diag(weight.sum(axis=1)) - weight  # minus the log-likelihood's
        reduced = hessian[np.ix_(free, free)]
        step = np.linalg.solve(reduced, gradient[free])
        elo[free] += step
        if np.abs(step).max() < 1e-9:
            break
    p = 1.0 / (1.0 + np.exp(-(elo[:, None] - elo[None, :]) / ELO))
    weight = games * p * (1.0 - p) / ELO**2
    hessian = np.diag(weight.sum(axis=1)) - weight
    base = index[against] if against is not None else int(np.argmax(weight.sum(axis=1)))
    others = [k for k in range(n) if k != base]
    covariance = np.linalg.inv(hessian[np.ix_(others, others)])
    stderr = np.zeros(n)
    stderr[others] = np.sqrt(np.diag(covariance))
    totals = {s.bot: s for s in standings(results)}
    table = [
        Rating(
            name,
            float(elo[k]),
            float(stderr[k]),
            totals[name].games,
            totals[name].wins,
            totals[name].losses,
            totals[name].points_per_game,
            names[base],
        )
        for k, name in enumerate(names)
    ]
    return sorted(table, key=lambda r: (-r.elo, r.bot))


@dataclass(frozen=True)
class Rung:
    """A game under one set of rules; ``bots`` (default: every registered bot that plays
    these rules) are rated against each other."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] | None = None

    @property
    def title(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.options.items() if k != "players")
        return f"{self.game} ({shown})" if shown else self.game


#: The rungs the ladder rates: each game's default rules (and classic backgammon). Aces in
#: the Pot has one bot, and In-Between is rated at a table of two.
LADDER: tuple[Rung, ...] = (
    Rung("backgammon", {"variant": "acey-deucey"}),
    Rung("backgammon", {"variant": "classic"}),
    Rung("inbetween", {"players": 2}),
)


def rung_bots(rung: Rung, extra: Sequence[Entrant] = ()) -> list[Entrant]:
    """The entrants of ``rung``: its bots that take a seat under its rules, then ``extra``."""
    game = load_game(rung.game, **rung.options)
    chosen = []
    for name in rung.bots or tuple(bot_names(rung.game)):
        one = entrant(rung.game, name)
        try:
            for seat in (0, 1):
                seat_agent(one.make(seed=0), game, seat)
        except AceyDeuceyError:
            if rung.bots is not None:
                raise  # asked for by name: its refusal says why
            continue  # pubeval outside classic: not on this rung
        chosen.append(one)
    entrants = [*chosen, *extra]
    check_entrants(game, entrants)  # two seats, zero-sum, two bots or more
    return entrants


@dataclass(frozen=True)
class RungResult:
    rung: Rung
    matches: list[MatchResult]
    ratings: list[Rating]


def climb(
    rung: Rung,
    games: int,
    *,
    seed: int = 0,
    extra: Sequence[Entrant] = (),
    workers: int = 1,
    ray: str | None = None,
    on_games: Callable[[int], None] | None = None,
) -> RungResult:
    """The round robin of ``rung`` (``games`` games a match) and the ratings it gives."""
    game = load_game(rung.game, **rung.options)
    entrants = rung_bots(rung, extra)
    matches = round_robin(
        game, entrants, games, seed=seed, workers=workers, ray=ray, on_games=on_games
    )
    return RungResult(rung, matches, ratings(matches))
