"""Settlement: what a third card does to a stake, and how large a stake may be.

Pure functions of the rules, the posts and the card, shared by the game engine and the odds
so the two cannot drift.  Ranks are ints: 2..14 with the ace high; a first-post ace called low
counts 1, and under ``aces="dealer-declares"`` with aces low every ace (third cards too)
counts 1; ace-specific rules (``ace_pair_multiplier``, ``ace_third_loses``) read 1 or 14.
``posts`` is the pair of post ranks in deal order.

A :class:`Settlement` gives the outcome's name and the signed multiple of the stake the
player receives: guide rules give ``inside +1``, ``outside -1`` and ``post -2``.

Calls: ``"between"`` (the usual bet), ``"higher"`` and ``"lower"`` (a pair under
``pairs="higher-lower"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from aceydeucey.cards import Card
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.rules import Rules

__all__ = [
    "ACE",
    "THIRD_RANKS",
    "Call",
    "Settlement",
    "is_adjacent",
    "is_pair",
    "post_ranks",
    "settle",
    "settle_trips",
    "spread",
    "stake_limits",
    "worst_loss",
]

Call = Literal["between", "higher", "lower"]
ACE = 14
#: Ranks a third card can have (aces are high as third cards).
THIRD_RANKS = tuple(range(2, 15))


@dataclass(frozen=True)
class Settlement:
    """One settled bet: ``outcome`` names it, ``multiplier`` is the signed stakes won."""

    outcome: str
    multiplier: int

    def delta(self, stake: int) -> int:
        """The player's net chips for ``stake``."""
        return self.multiplier * stake


def post_ranks(first: Card, second: Card, ace_low: bool | None = None) -> tuple[int, int]:
    """Post ranks in deal order; a first-post ace called low counts 1."""
    one = 1 if (ace_low and first.rank == ACE) else first.rank
    return (one, second.rank)


def is_pair(posts: tuple[int, int]) -> bool:
    """Equal posts."""
    return posts[0] == posts[1]


def is_adjacent(posts: tuple[int, int]) -> bool:
    """Neighbouring posts (no rank between them)."""
    return abs(posts[0] - posts[1]) == 1


def spread(posts: tuple[int, int]) -> int:
    """Ranks strictly between the posts."""
    return max(abs(posts[0] - posts[1]) - 1, 0)


def settle(
    rules: Rules, posts: tuple[int, int], call: Call, third: int, *, second_gap: bool = False
) -> Settlement:
    """The outcome of a third card of rank ``third`` against ``posts`` for ``call``.

    ``second_gap`` marks the second bet of three posts (its post costs
    ``second_post_multiplier``).  Under ``banking="house"`` the odds are Red Dog's.
    """
    low, high = sorted(posts)
    if low == high:
        pair = low
        if third == pair:
            if call != "between":
                cost = rules.pair_match_multiplier
            else:
                cost = rules.second_post_multiplier if second_gap else rules.post_multiplier
            if pair in (1, ACE) and rules.ace_pair_multiplier:
                cost = rules.ace_pair_multiplier
            return Settlement("post", -cost)
        if third in (1, ACE) and rules.ace_third_loses:
            return Settlement("ace", -1)
        if call == "higher":
            return Settlement("win", 1) if third > pair else Settlement("lose", -1)
        if call == "lower":
            return Settlement("win", 1) if third < pair else Settlement("lose", -1)
        return Settlement("outside", -1)
    if call != "between":
        raise ArgumentError("settle.call_needs_pair", call=call, posts=list(posts))
    if low < third < high:
        if rules.banking == "house":
            gap = high - low - 1
            return Settlement("inside", rules.spread_pays[min(gap, 4) - 1])
        return Settlement("inside", 1)
    if third in (low, high):
        if rules.banking == "house":
            return Settlement("post", -1)
        cost = rules.second_post_multiplier if second_gap else rules.post_multiplier
        return Settlement("post", -cost)
    return Settlement("outside", -1)


def settle_trips(rules: Rules, pair: int, third: int) -> Settlement:
    """Red Dog's pair: a third card of the same rank pays ``trips_pays``, else a push."""
    if third == pair:
        return Settlement("trips", rules.trips_pays)
    return Settlement("push", 0)


def worst_loss(
    rules: Rules, posts: tuple[int, int], call: Call, *, second_gap: bool = False
) -> int:
    """The most stakes a bet on ``posts`` can lose (at least 1)."""
    worst = min(
        settle(rules, posts, call, t, second_gap=second_gap).multiplier for t in (1, *THIRD_RANKS)
    )
    return max(-worst, 1)


def stake_limits(
    rules: Rules,
    posts: tuple[int, int],
    call: Call,
    *,
    chips: int,
    pot: int,
    round_number: int,
    second_gap: bool = False,
    ante_cap: bool = False,
    loss: int | None = None,
) -> tuple[int, int] | None:
    """The smallest and largest stake allowed, or None when no stake is affordable.

    The stake is at least 1 (or the ante with ``min_stake="ante"``, and on the second gap of
    three posts), at most the pot (``first_round_limit`` in the first round, ``round_limits``
    in the rounds they name; ``round_number`` counts from 1), and with
    ``stake_cap="cover"`` small enough that the worst loss stays payable: under the guide
    that is half one's chips, rounded down.  ``ante_cap`` (``ante_back`` before the player's
    first won bet) caps the stake at the ante.  ``loss`` is ``worst_loss`` when the caller
    has it at hand (the engine caches it per game).
    """
    low = rules.ante if (rules.min_stake == "ante" or second_gap) else 1
    high = pot
    first_round = round_number == 1
    if first_round and rules.first_round_limit == "half-pot":
        high = min(high, pot // 2)
    elif first_round and rules.first_round_limit == "ante":
        high = min(high, rules.ante)
    if ante_cap:
        high = min(high, rules.ante)
    if 1 <= round_number <= len(rules.round_limits):
        high = min(high, rules.round_limits[round_number - 1])
    if rules.stake_cap == "cover":
        if loss is None:
            loss = worst_loss(rules, posts, call, second_gap=second_gap)
        high = min(high, max(chips, 0) // loss)
    elif rules.stake_cap == "chips":
        high = min(high, max(chips, 0))
    low = max(low, 1)
    if high < low:
        return None
    return (low, high)
