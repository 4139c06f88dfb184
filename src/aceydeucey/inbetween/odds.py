"""Exact odds of In-Between: the third card's chances and the value of each decision.

Everything is a ``Fraction`` computed from the cards still unseen; simulation only checks it.

``seen`` never includes the posts: the functions remove the posts and ``seen`` from
``decks`` full decks.  Suits never matter, so the unseen cards are counted by rank.

>>> from aceydeucey.cards import Card
>>> odds = post_odds(Card.from_text("4C"), Card.from_text("QD"))
>>> odds.inside, odds.post, odds.outside
(Fraction(14, 25), Fraction(3, 25), Fraction(8, 25))
>>> odds.ev_per_chip  # guide: inside +1, outside -1, post -2
Fraction(0, 1)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from aceydeucey.cards import Card, remaining
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import (
    ACE,
    Call,
    is_pair,
    settle,
    stake_limits,
)

__all__ = [
    "PostOdds",
    "action_values",
    "expected_multiplier",
    "outcome_distribution",
    "post_odds",
    "trips_chance",
    "unseen_ranks",
]


@dataclass(frozen=True)
class PostOdds:
    """The chances of the third card against two posts, and the value of a one-chip bet.

    For a ``higher``/``lower`` call on a pair, ``inside`` is the chance the call wins,
    ``post`` the chance of the same rank again and ``outside`` the rest.
    """

    inside: Fraction
    outside: Fraction
    post: Fraction
    ev_per_chip: Fraction


def unseen_ranks(decks: int, seen: Iterable[Card]) -> Counter[int]:
    """How many cards of each rank (2..14) are left after ``seen`` (raises if impossible)."""
    left = remaining(decks, list(seen))
    counts: Counter[int] = Counter()
    for card, copies in left.items():
        counts[card.rank] += copies
    return counts


def outcome_distribution(
    rules: Rules,
    posts: tuple[int, int],
    call: Call,
    left: Mapping[int, int],
    *,
    second_gap: bool = False,
) -> dict[tuple[str, int], Fraction]:
    """(outcome, multiplier) -> probability, over the third card drawn from ``left``."""
    total = sum(left.values())
    if total == 0:
        raise ValueError("no cards left to draw a third card from")
    out: dict[tuple[str, int], Fraction] = {}
    for rank, copies in sorted(left.items()):
        if copies <= 0:
            continue
        s = settle(rules, posts, call, rank, second_gap=second_gap)
        key = (s.outcome, s.multiplier)
        out[key] = out.get(key, Fraction(0)) + Fraction(copies, total)
    return out


def expected_multiplier(
    rules: Rules,
    posts: tuple[int, int],
    call: Call,
    left: Mapping[int, int],
    *,
    second_gap: bool = False,
) -> Fraction:
    """Expected net chips per chip staked (the stake's signed multiple, averaged)."""
    dist = outcome_distribution(rules, posts, call, left, second_gap=second_gap)
    return sum((p * m for (_, m), p in dist.items()), Fraction(0))


def post_odds(
    first: Card,
    second: Card,
    seen: Sequence[Card] = (),
    *,
    decks: int = 1,
    ace_low: bool = False,
    rules: Rules | None = None,
    call: Call = "between",
) -> PostOdds:
    """Exact chances of inside / outside / post for posts ``first``, ``second``.

    ``seen`` are the other cards already shown since the shuffle (not the posts);
    ``ace_low`` calls a first-post ace low; ``rules`` (default: the guide) decides the
    stake multiples behind ``ev_per_chip``; ``call`` is ``higher``/``lower`` for pairs.
    """
    rules = rules if rules is not None else _default_rules()
    posts = (1 if (ace_low and first.rank == ACE) else first.rank, second.rank)
    left = unseen_ranks(decks, [first, second, *seen])
    total = sum(left.values())
    if total == 0:
        raise ValueError("no cards left to draw a third card from")
    inside = post = 0  # counted in cards, divided once at the end
    low, high = sorted(posts)
    for rank, copies in left.items():
        if rank in posts:
            post += copies
        elif (
            (rank > low)
            if call == "higher"
            else (rank < low)
            if call == "lower"
            else (low < rank < high)
        ):
            inside += copies
    outside = total - inside - post
    inside_p, outside_p, post_p = (Fraction(n, total) for n in (inside, outside, post))
    ev = expected_multiplier(rules, posts, call, left)
    return PostOdds(inside=inside_p, outside=outside_p, post=post_p, ev_per_chip=ev)


@functools.cache
def _default_rules() -> Rules:
    return Rules.resolve()


def action_values(observation: Mapping[str, Any], rules: Rules) -> dict[str, Fraction]:
    """The exact expected chips of each legal action, from an observation and the rules.

    The unseen cards are every card less ``seen`` and the seat's own face-down
    cards (``hidden_hand``); when none are left, the used cards less those on the table
    (the engine's reshuffle).  A stake's
    value is the stake times the expected multiple; a pass is worth 0 (minus the forfeited
    ante under ``ante_to_play``).  Under ``ante_back`` the stakes are capped at the ante until
    the seat's first won bet (``won_bet``); under a dealer's ``aces low`` every ace counts 1;
    the dealer's declaration itself moves no chips and is worth 0 either way.  A ``post_fee``
    already paid is sunk; one still due (an ace call, a split's two hands) is subtracted.
    An ace call and a split are valued by enumerating the
    next post and playing the best bet on it; a split counts its second hand as drawn from
    the same unseen cards (the first hand's cards are not removed: a close approximation).
    """
    legal: list[str] = list(observation["legal_actions"])
    if not legal:
        return {}
    seat = int(observation["seat"])
    seen = [Card.from_text(c) for c in observation["seen"]]
    hidden_own = [Card.from_text(c) for c in observation.get("hidden_hand", [])]
    decks = int(observation["decks"])
    left = unseen_ranks(decks, [*seen, *hidden_own])
    posts_cards = [Card.from_text(c) for c in observation["posts"]]
    if not any(left.values()):  # the deck ran out: the used cards are shuffled back
        actor = observation.get("to_act")
        waiting = [
            Card.from_text(c) for i, c in enumerate(observation["first_cards"]) if c and i != actor
        ]
        table = [*posts_cards, *waiting, *hidden_own]
        left = unseen_ranks(decks, table)
    ace_low = bool(observation.get("ace_low"))
    gap = int(observation.get("gap") or 1)
    ranks = [c.rank for c in posts_cards]
    if observation.get("aces_low"):  # the dealer declared every ace of the round low
        left[1], left[ACE] = left.get(ACE, 0), 0
        ranks = [1 if r == ACE else r for r in ranks]
    if ace_low and ranks and ranks[0] == ACE:
        ranks[0] = 1
    pass_value = Fraction(-rules.ante) if rules.ante_to_play else Fraction(0)
    chips = int(observation["chips"][seat])
    pot = int(observation["pot"])
    round_number = int(observation["round"])
    won = observation.get("won_bet") or []
    ante_cap = rules.ante_back and not (won and won[seat])
    fee = Fraction(min(rules.post_fee, max(chips, 0)))

    def bet_value(posts: tuple[int, int], call: Call, cards: Mapping[int, int]) -> Fraction:
        """The best of passing and the best affordable stake on ``posts``."""
        limits = stake_limits(
            rules, posts, call, chips=chips, pot=pot, round_number=round_number, ante_cap=ante_cap
        )
        best = pass_value
        if limits is not None and any(v > 0 for v in cards.values()):
            m = expected_multiplier(rules, posts, call, cards)
            best = max(best, limits[0] * m, limits[1] * m)
        return best

    def calls_for(posts: tuple[int, int]) -> list[Call]:
        if is_pair(posts) and rules.pairs == "higher-lower":
            return ["higher", "lower"]
        return ["between"]

    def next_post_value(first: int) -> Fraction:
        """Expected value of receiving a second post against ``first``, then playing well."""
        total = sum(left.values())
        value = Fraction(0)
        for rank, copies in left.items():
            if copies <= 0:
                continue
            rest = Counter(left)
            rest[rank] -= 1
            posts = (first, rank)
            best = max(bet_value(posts, c, rest) for c in calls_for(posts))
            value += Fraction(copies, total) * best
        return value

    values: dict[str, Fraction] = {}
    per_chip: dict[str, Fraction] = {}
    for text in legal:
        word, _, amount = text.partition(" ")
        if text in ("pass", "stay"):
            values[text] = pass_value if text == "pass" else Fraction(0)
        elif text in ("aces low", "aces high"):
            values[text] = Fraction(0)
        elif text in ("ace low", "ace high"):
            first = 1 if text == "ace low" else ACE
            if len(ranks) >= 2:  # both posts shown: value the bet on them
                values[text] = max(
                    bet_value((first, ranks[1]), c, left) for c in calls_for((first, ranks[1]))
                )
            else:
                values[text] = next_post_value(first)
            values[text] -= fee  # the post fee falls due once the posts are complete
        elif text == "split":
            split_fee = min(rules.post_fee, max(chips - rules.ante, 0))
            values[text] = -rules.ante + 2 * (next_post_value(ranks[0]) - split_fee)
        elif word in ("bet", "higher", "lower", "raise"):
            call: Call = "between" if word in ("bet", "raise") else word  # type: ignore[assignment]
            if call not in per_chip:
                posts = (ranks[gap - 1], ranks[gap])
                per_chip[call] = expected_multiplier(rules, posts, call, left, second_gap=gap == 2)
            values[text] = int(amount) * per_chip[call]
        else:
            raise ValueError(f"cannot value action {text!r}")
    return values


def trips_chance(pair: int, left: Mapping[int, int]) -> Fraction:
    """Red Dog: the chance that a third card matches ``pair``."""
    total = sum(left.values())
    return Fraction(left.get(pair, 0), total)
