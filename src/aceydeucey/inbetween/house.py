"""Red Dog's house banking (``banking="house"``): common posts, the raise, the house pays.

Every seat's ante is its bet (``bets``); the house turns two common posts.  Neighbours
push (or lose, ``adjacent="lose"``); a pair turns a third card that pays ``trips_pays`` on
the same rank and pushes otherwise; any other spread is announced, each seat stays or
raises up to its ante, and the third card settles every bet at the spread's odds
against the house's ``bank``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aceydeucey.cards import Card
from aceydeucey.inbetween import lifecycle
from aceydeucey.inbetween.actions import Decision
from aceydeucey.inbetween.events import event
from aceydeucey.inbetween.settle import is_adjacent, is_pair, settle, settle_trips

if TYPE_CHECKING:
    from aceydeucey.inbetween.state import InBetweenState

__all__ = ["deal_common", "deal_third", "decide"]


def deal_common(s: InBetweenState, card: Card) -> InBetweenState:
    """One of the two common posts, face up for everyone."""
    s = s.take(card).evolve(posts=(*s.posts, card), event=event("post", seat=None, card=str(card)))
    if len(s.posts) < 2:
        return s
    return _posts(s)


def _posts(s: InBetweenState) -> InBetweenState:
    rules = s.rules
    ranks = (s.posts[0].rank, s.posts[1].rank)
    if is_pair(ranks) and rules.pairs == "third-card":
        return s.evolve(phase="house-third", turn=0)
    if is_pair(ranks) or is_adjacent(ranks):
        policy = rules.pairs if is_pair(ranks) else rules.adjacent
        if policy == "lose":
            return lifecycle.end_round(
                s.evolve(
                    bank=s.bank + sum(s.bets),
                    bets=(0,) * rules.players,
                    event=event("house-takes", amount=sum(s.bets)),
                )
            )
        return _push(s)
    spread = abs(ranks[0] - ranks[1]) - 1
    return s.evolve(phase="raise", turn=0, event=event("spread", spread=spread))


def _push(s: InBetweenState) -> InBetweenState:
    chips = tuple(c + b for c, b in zip(s.chips, s.bets, strict=True))
    s = s.evolve(chips=chips, bets=(0,) * s.rules.players, event=event("push"))
    return lifecycle.end_round(s)


def decide(s: InBetweenState, d: Decision) -> InBetweenState:
    """A seat stays or raises (up to its ante) after the spread is announced."""
    seat = s.order[s.turn]
    if d.word == "stay":
        return _next_raiser(s.evolve(event=event("stay", seat=seat)))
    amount = d.amount or 0
    chips = (*s.chips[:seat], s.chips[seat] - amount, *s.chips[seat + 1 :])
    bets = (*s.bets[:seat], s.bets[seat] + amount, *s.bets[seat + 1 :])
    s = s.evolve(chips=chips, bets=bets, event=event("raise", seat=seat, amount=amount))
    return _next_raiser(s)


def _next_raiser(s: InBetweenState) -> InBetweenState:
    if s.turn + 1 < len(s.order):
        return s.evolve(turn=s.turn + 1)
    return s.evolve(phase="house-third", turn=len(s.order))


def deal_third(s: InBetweenState, card: Card) -> InBetweenState:
    """The third card settles every bet against the house."""
    rules = s.rules
    ranks = (s.posts[0].rank, s.posts[1].rank)
    s = s.take(card)
    chips, bank = list(s.chips), s.bank
    if is_pair(ranks):
        result = settle_trips(rules, ranks[0], card.rank)
    else:
        result = settle(rules, ranks, "between", card.rank)
    deltas = []
    for seat, bet in enumerate(s.bets):
        gain = result.delta(bet)
        if gain >= 0:
            chips[seat] += bet + gain
        bank -= gain
        deltas.append(gain)
    s = s.evolve(
        chips=tuple(chips),
        bank=bank,
        bets=(0,) * rules.players,
        event=event("settle", third=str(card), outcome=result.outcome, deltas=deltas),
    )
    return lifecycle.end_round(s)
