"""Cubeful equity and cube decisions from cubeless probabilities (Janowski's model).

Everything here is a pure function of the cubeless chances of the side on roll
(``A``: win, win gammon, win backgammon, lose gammon, lose backgammon, each
counting the bigger results too, the ``gammons`` outputs of :mod:`.net`), the cube
(value, owner) and the stakes: money (points, :class:`MoneyStakes`) or a match
score (match-winning chances through the project's match equity table,
:class:`MatchStakes`).

The model
---------
The game is seen as A's winning chance ``p`` drifting continuously from now to
0 or 1 (Keeler and Spencer's continuous model), with the share of gammons and
backgammons among each side's wins fixed at today's.  In that model a cube
owner doubles exactly at its opponent's take point, so a player's equity with
the cube **live** is piecewise linear in ``p``, through the points where the
game ends or a cube changes hands:

* ``(0, lose)`` and ``(1, win)``: the game played out at this cube;
* ``(pa, cash)``: A doubles and B is indifferent between a take and a pass;
  ``pa`` is the first ``p`` where B's equity owning the doubled cube reaches
  A's cash (found the same way one cube higher: a recursion up the cube, ended
  where doubling is not allowed or is dead, or after :data:`MONEY_LEVELS`
  levels in money play, where each level is the same game at twice the stakes);
* ``(pb, concede)``: the same for B's double.

The **dead** cube equity is the straight line from ``(0, lose)`` to ``(1, win)``.
Real games jump, so the live cube is only partly realised: the cubeful equity
is ``x * live + (1 - x) * dead`` (Rick Janowski, "Take-Points in Money Games",
1993), with the cube efficiency ``x`` of the position type
(:func:`cube_efficiency`).  In money play with a centred cube and no gammons
this gives the textbook figures: the take point is 25 % with a dead cube
(``x = 0``) and 20 % with a fully live one (``x = 1``), the cash point 75 % and 80 %;
at ``x = 0.68`` the take point is 21.1 % (Janowski's closed form, which keeps the
redoubles fully live, gives 21.4 %).

The same recursion, with the table's own smaller scores as the values of the
game's ends, computes the match equity table (:mod:`.met`).

Decisions (:func:`decide`): A's no-double equity (its cube as it is), double /
take (B owning the doubled cube), double / pass (A cashes); A doubles when the
smaller of take and pass beats no double; B takes when the take leaves A less
than the pass (and beavers, where allowed, when the take leaves A below zero);
"too good" when B should pass but A's equity playing on beats the cash.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol

__all__ = [
    "CONTACT_EFFICIENCY",
    "MONEY_LEVELS",
    "CubeDecision",
    "EquityTable",
    "MatchStakes",
    "MoneyStakes",
    "Probabilities",
    "Stakes",
    "cash_point",
    "cube_efficiency",
    "cubeful_equity",
    "decide",
    "take_point",
]

#: Cube efficiency in contact positions (Janowski's figure for middle games, gnubg's too).
CONTACT_EFFICIENCY = 0.68
#: In a race the efficiency grows with its length: ``RACE_BASE + RACE_PER_PIP * pips`` of
#: the side on roll, kept within ``RACE_MIN .. RACE_MAX`` (a short race jumps, a long one
#: drifts); the same figures as gnubg's 0-ply cube model.
RACE_BASE = 0.55
RACE_PER_PIP = 0.00125
RACE_MIN = 0.6
RACE_MAX = 0.7
#: Cube levels above the current one looked at in money play (each level is the same
#: game at twice the stakes; the take point of the 8th matters less than 1e-4).
MONEY_LEVELS = 8

Owner = Literal["centred", "me", "opponent"]


@dataclass(frozen=True)
class Probabilities:
    """Cubeless chances of the side on roll (cumulative: a backgammon is also a gammon)."""

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0
    #: per-checker scoring (Acey-Deucey): the mean points of a win and of a loss, in
    #: place of the gammon chances (a game is worth 1 to 15 points)
    win_points: float | None = None
    loss_points: float | None = None

    @classmethod
    def of_points(cls, outputs: tuple[float, ...] | list[float]) -> Probabilities:
        """From the three ``points`` outputs (win, E[points won]/15, E[points lost]/15)."""
        w, won, lost = (float(v) for v in outputs[:3])
        mean_win = 15.0 * won / w if w > 1e-9 else 1.0
        mean_loss = 15.0 * lost / (1.0 - w) if w < 1.0 - 1e-9 else 1.0
        return cls(w, win_points=mean_win, loss_points=mean_loss)

    @classmethod
    def of(cls, outputs: tuple[float, ...] | list[float]) -> Probabilities:
        """From the five ``gammons`` outputs of the network (or gnubg's first five)."""
        w, wg, wb, lg, lb = (float(v) for v in outputs[:5])
        return cls(w, wg, wb, lg, lb)

    def shares(self) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """Shares of the games worth 1, 2, 3... cubes among A's wins, then among its losses
        (single, gammon, backgammon; per-checker scoring: the two whole numbers of points
        around the mean, so that the mean is kept)."""
        if self.win_points is not None and self.loss_points is not None:
            return (_around(self.win_points), _around(self.loss_points))

        def split(total: float, gammon: float, backgammon: float) -> tuple[float, float, float]:
            if total <= 1e-12:
                return (1.0, 0.0, 0.0)
            g = min(max(gammon, 0.0), total) / total
            b = min(max(backgammon, 0.0), gammon if gammon > 0 else 0.0) / total
            return (1.0 - g, g - b, b)

        return (
            split(self.win, self.win_gammon, self.win_backgammon),
            split(1.0 - self.win, self.lose_gammon, self.lose_backgammon),
        )

    def cubeless_money(self) -> float:
        """Cubeless money equity ``2w - 1 + wg + wb - lg - lb``."""
        return (
            2 * self.win
            - 1
            + self.win_gammon
            + self.win_backgammon
            - self.lose_gammon
            - self.lose_backgammon
        )


class Stakes(Protocol):
    """What the game's ends are worth to A, and who may double which cube."""

    def value(self, points: int, cube_turned: bool) -> float:
        """A's equity when the game ends with A scoring ``points`` (negative: B scores)."""
        ...

    def may_double(self, side: int, cube: int) -> bool:
        """Whether ``side`` (0 = A, 1 = B) may (usefully) double ``cube`` to twice it."""
        ...


@dataclass(frozen=True)
class MoneyStakes:
    """Money play, in points at a cube of 1 (multiply by the cube for its value).

    ``jacoby``: gammons count only once the cube has turned; ``beavers``: a doubled
    player may beaver; ``levels``: how many doublings the recursion follows.
    """

    jacoby: bool = False
    beavers: bool = False
    levels: int = MONEY_LEVELS

    def value(self, points: int, cube_turned: bool) -> float:
        if self.jacoby and not cube_turned:
            return float((points > 0) - (points < 0))
        return float(points)

    def may_double(self, side: int, cube: int) -> bool:
        return cube < 1 << self.levels


class EquityTable(Protocol):
    """A match equity table (:class:`.met.MatchEquityTable`)."""

    def after_game(self, away: int, opp_away: int, *, post_crawford: bool) -> float: ...


@dataclass(frozen=True)
class MatchStakes:
    """A match score: A needs ``away`` points, B ``opp_away``; values are A's match-winning
    chances after the game, through ``table`` (the project's: ``met.default_table()``).

    ``crawford``: this game is the Crawford game (nobody doubles); a game with a side
    1-away that is not the Crawford game is post-Crawford.
    """

    away: int
    opp_away: int
    table: EquityTable
    crawford: bool = False

    @property
    def post_crawford(self) -> bool:
        return not self.crawford and min(self.away, self.opp_away) == 1

    def value(self, points: int, cube_turned: bool) -> float:
        a, b = self.away, self.opp_away
        if points > 0:
            a -= points
        else:
            b += points
        return self.table.after_game(a, b, post_crawford=self.post_crawford or self.crawford)

    def may_double(self, side: int, cube: int) -> bool:
        if self.crawford:
            return False
        needs = self.away if side == 0 else self.opp_away
        return needs > cube  # the owner already wins the match with this cube: dead


def cube_efficiency(race: bool, pips_on_roll: int = 0) -> float:
    """Janowski's ``x`` for a position type: contact, or a race of ``pips_on_roll`` pips."""
    if not race:
        return CONTACT_EFFICIENCY
    return min(RACE_MAX, max(RACE_MIN, RACE_BASE + RACE_PER_PIP * pips_on_roll))


# -- the model ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Model:
    stakes: Stakes
    wins: tuple[float, ...]
    losses: tuple[float, ...]
    x: float

    def end(self, cube: int, won: bool, turned: bool) -> float:
        shares, sign = (self.wins, 1) if won else (self.losses, -1)
        return sum(
            share * self.stakes.value(sign * k * cube, turned)
            for k, share in enumerate(shares, 1)
            if share
        )

    def cash(self, cube: int, by_me: bool, turned: bool) -> float:
        return self.stakes.value(cube if by_me else -cube, turned)


@dataclass(frozen=True)
class _Curve:
    """A's equity as a function of ``p`` with one cube and owner: the live corners and the
    dead line's ends."""

    corners: tuple[tuple[float, float], ...]
    lose: float
    win: float
    x: float

    def live(self, p: float) -> float:
        pts = self.corners
        for (p0, v0), (p1, v1) in itertools.pairwise(pts):
            if p <= p1:
                return v0 if p1 <= p0 else v0 + (v1 - v0) * (p - p0) / (p1 - p0)
        return pts[-1][1]

    def dead(self, p: float) -> float:
        return p * self.win + (1.0 - p) * self.lose

    def __call__(self, p: float) -> float:
        """``x * live + (1 - x) * dead``: the cubeful equity at ``p``."""
        return self.x * self.live(p) + (1.0 - self.x) * self.dead(p)

    def crossing(self, target: float) -> float:
        """The first ``p`` where the equity reaches ``target`` (1 if it never does)."""
        values = [(p, self(p)) for p, _ in self.corners]
        if values[0][1] >= target:
            return 0.0
        for (p0, v0), (p1, v1) in itertools.pairwise(values):
            if v1 >= target:
                return p0 + (p1 - p0) * (target - v0) / (v1 - v0) if v1 > v0 else p1
        return 1.0

    def point(self, index: int) -> float:
        """The ``p`` of a doubling corner (``pb`` first, then ``pa``)."""
        return self.corners[index][0]


@lru_cache(maxsize=65536)
def _curve(model: _Model, cube: int, owner: Owner) -> _Curve:
    """A's cubeful equity with ``owner`` holding ``cube`` (the recursion up the cube)."""
    turned = owner != "centred"
    lose, win = model.end(cube, False, turned), model.end(cube, True, turned)
    left: tuple[float, float] = (0.0, lose)
    right: tuple[float, float] = (1.0, win)
    middle: list[tuple[float, float]] = []
    if owner != "me" and model.stakes.may_double(1, cube):
        # B doubles where A, owning the doubled cube, is indifferent to passing
        concede = model.cash(cube, False, turned)
        taken = _curve(model, 2 * cube, "me")
        pb = taken.crossing(concede)
        if pb <= 0.0:
            left = (0.0, max(concede, taken(0.0)))
        else:
            middle.append((pb, concede))
    if owner != "opponent" and model.stakes.may_double(0, cube):
        cash = model.cash(cube, True, turned)
        taken = _curve(model, 2 * cube, "opponent")
        pa = taken.crossing(cash)
        if pa >= 1.0:
            right = (1.0, min(cash, taken(1.0)))
        elif middle and pa <= middle[0][0]:
            middle = [((pa + middle[0][0]) / 2, (cash + middle[0][1]) / 2)]
        else:
            middle.append((pa, cash))
    return _Curve((left, *middle, right), lose, win, model.x)


# -- the public functions -------------------------------------------------------------------


@dataclass(frozen=True)
class CubeDecision:
    """A's cube decision before rolling, with the three equities it compares.

    Money equities are per unit of the cube (multiply by its value for points); match
    equities are A's match-winning chances.  ``action`` is A's: ``double``,
    ``no_double`` or ``too_good`` (B would pass, but playing on is worth more);
    ``response`` is B's to a double: ``take``, ``pass`` or ``beaver``.
    """

    no_double: float
    double_take: float
    double_pass: float
    may_double: bool
    action: str
    response: str
    #: B's take point (its least winning chance to take) and A's cash point (= 1 - it)
    take_point: float
    cash_point: float
    double_beaver: float | None = None

    @property
    def equity(self) -> float:
        """A's cubeful equity under the right actions of both."""
        if self.action != "double":
            return self.no_double
        return self.doubled

    @property
    def doubled(self) -> float:
        """A's equity after doubling, B answering best."""
        options = [self.double_take, self.double_pass]
        if self.double_beaver is not None:
            options.append(self.double_beaver)
        return min(options)


def _model_of(probs: Probabilities, stakes: Stakes, x: float) -> _Model:
    wins, losses = probs.shares()
    return _Model(stakes, _round(wins), _round(losses), float(x))


def _round(shares: tuple[float, ...]) -> tuple[float, ...]:
    # shares rounded to 1e-9 so that nearby positions share the cache's curves
    return tuple(round(v, 9) for v in shares)


def _around(mean: float) -> tuple[float, ...]:
    """Shares of 1..15 points with the given mean on the two nearest whole numbers."""
    mean = min(15.0, max(1.0, mean))
    low = int(mean)
    shares = [0.0] * 15
    high_share = mean - low
    shares[low - 1] = 1.0 - high_share
    if high_share > 0:
        shares[low] = high_share
    return tuple(shares)


def _start(stakes: Stakes, cube: int) -> int:
    """The cube the model starts at: 1 in money play (equities per cube), else the cube."""
    return 1 if isinstance(stakes, MoneyStakes) else cube


def cubeful_equity(
    probs: Probabilities,
    cube: int = 1,
    owner: Owner = "centred",
    stakes: Stakes | None = None,
    x: float = CONTACT_EFFICIENCY,
) -> float:
    """A's cubeful equity playing on without doubling now (money: per unit of cube)."""
    stakes = stakes if stakes is not None else MoneyStakes()
    model = _model_of(probs, stakes, x)
    return _curve(model, _start(stakes, cube), owner)(probs.win)


def cash_point(
    probs: Probabilities,
    cube: int = 1,
    stakes: Stakes | None = None,
    x: float = CONTACT_EFFICIENCY,
) -> float:
    """A's winning chance at which B, doubled, is indifferent between a take and a pass."""
    stakes = stakes if stakes is not None else MoneyStakes()
    model = _model_of(probs, stakes, x)
    c = _start(stakes, cube)
    turned = True  # a doubled cube has turned
    cash = model.cash(c, True, turned)
    return _curve(model, 2 * c, "opponent").crossing(cash)


def take_point(
    probs: Probabilities,
    cube: int = 1,
    stakes: Stakes | None = None,
    x: float = CONTACT_EFFICIENCY,
) -> float:
    """B's least winning chance for taking A's double (``1 - cash_point``)."""
    return 1.0 - cash_point(probs, cube, stakes, x)


def decide(
    probs: Probabilities,
    cube: int = 1,
    owner: Owner = "centred",
    stakes: Stakes | None = None,
    x: float = CONTACT_EFFICIENCY,
) -> CubeDecision:
    """A's double / no double / too good, and B's take / pass / beaver, with the equities."""
    stakes = stakes if stakes is not None else MoneyStakes()
    model = _model_of(probs, stakes, x)
    c = _start(stakes, cube)
    p = probs.win
    no_double = _curve(model, c, owner)(p)
    taken = _curve(model, 2 * c, "opponent")
    double_take = taken(p)
    double_pass = model.cash(c, True, owner != "centred")
    cash = taken.crossing(model.cash(c, True, True))
    may = owner != "opponent" and stakes.may_double(0, c)
    beaver: float | None = None
    if isinstance(stakes, MoneyStakes) and stakes.beavers:
        beaver = _curve(model, 4 * c, "opponent")(p)
    if double_take > double_pass:
        response = "pass"
    elif beaver is not None and beaver < double_take:
        response = "beaver"
    else:
        response = "take"
    doubled = min(v for v in (double_take, double_pass, beaver) if v is not None)
    if not may:
        action = "no_double"
    elif doubled >= no_double - 1e-12:  # a tie doubles: it ends or settles the game sooner
        action = "double"
    elif response == "pass" and no_double > double_pass:
        action = "too_good"
    else:
        action = "no_double"
    return CubeDecision(
        no_double, double_take, double_pass, may, action, response, 1.0 - cash, cash, beaver
    )
