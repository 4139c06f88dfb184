"""Every spread of two posts from a full shoe, and Red Dog's exact house edge.

Both enumerate the first two cards by the shoe's composition, ``decks`` decks of 13
ranks x 4 suits: an ordered pair of ranks ``(a, b)`` comes with chance
``4d * 4d / (N * (N - 1))`` (``4d * (4d - 1) / ...`` for a pair), ``N = 52d``; suits never
change a result, so they enter only through the counts.  The third card's odds are
``odds.posts_odds`` on those posts, the function the ``odds`` command, the terminal's
``?`` and the bots use, so the rules' payouts (the preset's ``spread_pays``,
``trips_pays``, post penalties, pair and neighbour rules) come from ``settle`` as in play.
Aces are high (a first-post ace called low is the ``odds`` command's ``--ace``).

- :func:`spread_table`: one row per spread (ranks strictly between the posts): a pair,
  neighbours (spread 0), then 1..11; pairs split by rank where their odds differ (a
  called pair, ``ace_pair_multiplier``).
- :func:`house_edge`: Red Dog (``banking="house"``) played best: on each spread, raise by
  the ante when the bet's EV is positive (the raise's value is linear in its size, so
  all or nothing is best; never on a tie), else stay.  The house edge is the player's
  expected loss per initial bet; the element of risk divides it by the average total
  bet (the ante plus the raises).  ``raise_on`` plays a fixed set of spreads instead.

>>> edge = house_edge(Rules.resolve(preset="red-dog"))
>>> edge.house_edge, edge.raise_spreads
(Fraction(523, 16575), (7, 8, 9, 10, 11))
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from fractions import Fraction

from aceydeucey.cards import Card
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.odds import DecisionOdds, posts_odds
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import ACE, Call

__all__ = ["HouseEdge", "SpreadRow", "house_edge", "post_pairs", "spread_table"]

_RANKS = range(2, ACE + 1)


@dataclass(frozen=True)
class SpreadRow:
    """One row of :func:`spread_table`.

    ``spread`` counts the ranks strictly between the posts (None: a pair; 0: neighbours),
    ``pair`` the rank of a pair whose odds depend on it (else None), ``posts`` an example
    of the two post ranks, ``frequency`` the chance that two posts from the full shoe
    make this row, ``odds`` the decision they put to a player.
    """

    spread: int | None
    pair: int | None
    posts: tuple[int, int]
    frequency: Fraction
    odds: DecisionOdds


@dataclass(frozen=True)
class HouseEdge:
    """Red Dog's house edge for one shoe, as fractions of the initial bet.

    ``average_bet`` is the expected total bet (the ante plus the raises) over the initial
    bet, ``element_of_risk`` the house edge over it, ``raise_spreads`` the spreads played
    with a raise.
    """

    decks: int
    house_edge: Fraction
    average_bet: Fraction
    element_of_risk: Fraction
    raise_spreads: tuple[int, ...]


def post_pairs(decks: int) -> Iterator[tuple[int, int, Fraction]]:
    """Every ordered pair of post ranks and its chance from a full shoe of ``decks``."""
    each, total = 4 * decks, 52 * decks
    for a in _RANKS:
        for b in _RANKS:
            ways = each * (each - 1) if a == b else each * each
            yield a, b, Fraction(ways, total * (total - 1))


def _cards(a: int, b: int) -> list[Card]:
    """Two cards of ranks ``a`` and ``b`` (different suits when they are a pair)."""
    return [Card(a, "C"), Card(b, "D" if a == b else "C")]


def _odds(rules: Rules, a: int, b: int) -> DecisionOdds:
    """The decision posts ``a``, ``b`` put to a player (both calls of a called pair)."""
    ace_low = False if rules.aces == "first-card" and a == ACE else None
    cards = _cards(a, b)
    if a == b and rules.pairs == "higher-lower":
        calls: tuple[Call, Call] = ("higher", "lower")
        bets = tuple(
            bet
            for call in calls
            for bet in posts_odds(rules, cards, call=call, ace_low=ace_low).bets
        )
        return DecisionOdds("bet", bets)
    return posts_odds(rules, cards, ace_low=ace_low)


def spread_table(rules: Rules) -> list[SpreadRow]:
    """Every spread with a full shoe of ``rules.decks`` decks (see the module).

    Refused (``ib_odds.table_three_posts``) under three posts: a spread is the gap
    between two posts, and there the decision is on two gaps of three posts.
    """
    if rules.three_posts:
        raise ArgumentError("ib_odds.table_three_posts")
    pairs: list[tuple[int, Fraction, DecisionOdds]] = []
    spreads: dict[int, Fraction] = {}
    for a, b, chance in post_pairs(rules.decks):
        if a == b:
            pairs.append((a, chance, _odds(rules, a, b)))
        else:
            spread = abs(a - b) - 1
            spreads[spread] = spreads.get(spread, Fraction(0)) + chance
    rows: list[SpreadRow] = []

    def key(odds: DecisionOdds) -> tuple[object, ...]:
        return (odds.decision, *((b.action, b.outcomes) for b in odds.bets))

    if len({key(odds) for _, _, odds in pairs}) == 1:
        sevens = next(odds for rank, _, odds in pairs if rank == 7)
        chance = sum((c for _, c, _ in pairs), Fraction(0))
        rows.append(SpreadRow(None, None, (7, 7), chance, sevens))
    else:
        rows.extend(SpreadRow(None, rank, (rank, rank), c, odds) for rank, c, odds in pairs)
    for spread in sorted(spreads):
        posts = (2, 3 + spread)
        odds = _odds(rules, *posts)
        rows.append(SpreadRow(spread, None, posts, spreads[spread], odds))
    return rows


def house_edge(
    rules: Rules, decks: int | None = None, *, raise_on: Collection[int] | None = None
) -> HouseEdge:
    """Red Dog's exact house edge (see the module), for ``decks`` (default the rules').

    Refused (``ib_odds.house_edge_needs_house``) under rules where the house does not bank.
    """
    if rules.banking != "house":
        raise ArgumentError("ib_odds.house_edge_needs_house", banking=rules.banking)
    if decks is not None and decks != rules.decks:
        rules = rules.replace(decks=decks)
    value = average = Fraction(0)
    raised: set[int] = set()
    for a, b, chance in post_pairs(rules.decks):
        odds = _odds(rules, a, b)
        bet = odds.bets[0] if odds.bets else None
        stake = 1
        if odds.decision == "raise" and bet is not None:
            spread = abs(a - b) - 1
            up = bet.ev_per_chip > 0 if raise_on is None else spread in raise_on
            if up:
                stake = 2
                raised.add(spread)
        ev = bet.ev_per_chip if bet is not None else Fraction(0)
        value += chance * stake * ev
        average += chance * stake
    edge = -value
    return HouseEdge(rules.decks, edge, average, edge / average, tuple(sorted(raised)))
