"""States consistent with what one seat sees: determinisation of In-Between's hidden cards.

A seat (or a spectator, ``None``) cannot see three kinds of card: other seats' face-down
hands (``hidden=True``; the acting seat's face-down posts are its hand), a card set aside
face down by a pass (``passed_card="next-post"``) and cards that left the stock face down
and were never shown (a folded hidden hand).  Together with the stock they form the
seat's *pool*: every arrangement of the pool's cards over those places is consistent with
the seat's observation, and a fair deal makes each arrangement as likely as drawing those
places' cards one by one from the pool.  ``unknown`` names the places and the pool,
``resample`` draws one arrangement and ``determinisations`` lists them all with their exact
chances (a product of card counts, so it is for small pools and few places: two hidden
cards over a fresh deck already give 2,450 states).

The chances are chance's alone: a seat's pass or bet is not read as evidence about its
cards (OpenSpiel's ``resample_from_infostate`` does the same).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from aceydeucey.cards import Card
from aceydeucey.inbetween.shoe import CARDS, Shoe

if TYPE_CHECKING:
    from aceydeucey.inbetween.state import InBetweenState

__all__ = ["Unknown", "determinisations", "resample", "unknown"]


@dataclass(frozen=True)
class Unknown:
    """What ``seat`` cannot see: ``places`` (``("hand", s, i)`` for card ``i`` of seat
    ``s``'s face-down hand, ``("aside",)``), ``dead`` (how many cards left the stock face
    down and stay out unseen) and ``pool`` (every card that may fill them or the stock,
    with its copies)."""

    seat: int | None
    places: tuple[tuple[object, ...], ...]
    dead: int
    pool: Counter[Card]

    @property
    def size(self) -> int:
        """How many cards are drawn from the pool for one arrangement."""
        return len(self.places) + self.dead


def unknown(state: InBetweenState, seat: int | None) -> Unknown:
    """The places ``seat`` cannot see and the pool of cards that may fill them."""
    places: list[tuple[object, ...]] = []
    hidden: Counter[Card] = Counter()
    if state.hands:
        for s, hand in enumerate(state.hands):
            if s == seat or s in state.shown or not hand:
                continue
            for i, card in enumerate(hand):
                places.append(("hand", s, i))
                hidden[card] += 1
    if state.aside is not None:
        places.append(("aside",))
        hidden[state.aside] += 1
    face_down = Counter(state.shoe.dealt)
    face_down.subtract(state.shoe.seen)
    if seat is not None and state.hands and seat not in state.shown:
        face_down.subtract(state.hands[seat])
    face_down.subtract(hidden)
    dead = sum(k for k in face_down.values() if k > 0)
    stock = zip(CARDS, state.shoe.counts, strict=True)
    pool: Counter[Card] = Counter({c: k for c, k in stock if k})
    pool.update(hidden)
    pool.update({c: k for c, k in face_down.items() if k > 0})
    return Unknown(seat, tuple(places), dead, pool)


def resample(state: InBetweenState, seat: int | None, rng: random.Random) -> InBetweenState:
    """One arrangement of the cards ``seat`` cannot see, drawn with ``rng``."""
    u = unknown(state, seat)
    if not u.size:
        return state
    cards = sorted(u.pool.elements())
    drawn = rng.sample(cards, u.size)
    return _arrange(state, u, drawn)


def determinisations(
    state: InBetweenState, seat: int | None
) -> list[tuple[InBetweenState, Fraction]]:
    """Every arrangement of the cards ``seat`` cannot see, with its exact chance."""
    u = unknown(state, seat)
    if not u.size:
        return [(state, Fraction(1))]
    total = sum(u.pool.values())
    out: dict[tuple[Card, ...], Fraction] = {}

    def walk(prefix: list[Card], pool: Counter[Card], left: int, p: Fraction) -> None:
        if len(prefix) == u.size:
            key = (*prefix[: len(u.places)], *sorted(prefix[len(u.places) :]))
            out[key] = out.get(key, Fraction(0)) + p
            return
        for card in sorted(c for c, k in pool.items() if k > 0):
            k = pool[card]
            pool[card] = k - 1
            prefix.append(card)
            walk(prefix, pool, left - 1, p * Fraction(k, left))
            prefix.pop()
            pool[card] = k

    walk([], Counter(u.pool), total, Fraction(1))
    return [(_arrange(state, u, list(key)), p) for key, p in out.items()]


def _arrange(state: InBetweenState, u: Unknown, drawn: list[Card]) -> InBetweenState:
    """``state`` with the unknown places filled by ``drawn`` (places first, then the dead
    cards), the rest of the pool left in the stock."""
    fill = drawn[: len(u.places)]
    dead = sorted(drawn[len(u.places) :])
    hands = [list(h) for h in state.hands]
    aside = state.aside
    old_hidden: Counter[Card] = Counter()
    new_hidden: list[Card] = []
    for place, card in zip(u.places, fill, strict=True):
        if place[0] == "hand":
            _, s, i = place
            assert isinstance(s, int) and isinstance(i, int)
            old_hidden[hands[s][i]] += 1
            hands[s][i] = card
        else:
            assert aside is not None
            old_hidden[aside] += 1
            aside = card
        new_hidden.append(card)
    # the shoe: the known cards keep their places in ``dealt``; the unknown ones are
    # replaced, the hidden places' cards first, then the dead ones
    known = Counter(state.shoe.seen)
    if u.seat is not None and state.hands and u.seat not in state.shown:
        known.update(state.hands[u.seat])
    replace_hidden = list(new_hidden)
    replace_dead = list(dead)
    dealt: list[Card] = []
    for card in state.shoe.dealt:
        if known[card] > 0:
            known[card] -= 1
            dealt.append(card)
        elif old_hidden[card] > 0 and replace_hidden:
            old_hidden[card] -= 1
            dealt.append(replace_hidden.pop(0))
        else:
            dealt.append(replace_dead.pop(0) if replace_dead else replace_hidden.pop(0))
    stock = Counter(u.pool)
    stock.subtract(drawn)
    counts = [stock[c] for c in CARDS]
    shoe = Shoe(
        state.shoe.decks,
        tuple(counts),
        sum(counts),
        tuple(dealt),
        state.shoe.seen,
        state.shoe.deck_outs,
    )
    new_hands = tuple(tuple(h) for h in hands)
    changes: dict[str, object] = {"hands": new_hands, "aside": aside, "shoe": shoe}
    actor = state.to_act
    if not state.revealed and actor is not None and actor != u.seat and state.posts:
        changes["posts"] = new_hands[actor][: len(state.posts)]
    return state._copy(**changes)
