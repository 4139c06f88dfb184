"""The shoe: deck accounting for one shuffle, carried incrementally.

A :class:`Shoe` knows how many copies of each card are still in the stock (``counts``,
indexed like ``CARDS``; ``left`` in all), the cards taken out since the shuffle
(``dealt``), those shown face up (``seen``) and how often the stock ran out
(``deck_outs``).  Taking a card updates the counts in place of a recount; chance's
distribution over the stock is built once per shoe, as integer weights.

When the stock runs out mid-round, the used cards are shuffled back except those still on
the table (``reshuffled``).  The same object answers a viewer's question, "what may the
third card be?": ``Shoe.from_seen(decks, seen).without(own_face_down).rank_counts()`` is
what ``odds`` needs (every card less the seen ones and one's own face-down cards).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import compress

from aceydeucey.cards import Card, deck
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Action, Distribution

__all__ = ["CARDS", "INDEX", "Shoe"]

#: The 52 distinct cards, sorted (rank, then suit): the order of chance's outcomes.
CARDS: tuple[Card, ...] = deck(1)
#: Each card's index in ``CARDS``.
INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}


@dataclass(frozen=True, slots=True)
class Shoe:
    """The stock and what left it since the shuffle (immutable; see the module docstring)."""

    decks: int
    counts: tuple[int, ...]
    left: int
    dealt: tuple[Card, ...] = ()
    seen: tuple[Card, ...] = ()
    deck_outs: int = 0
    _dist: list[Distribution] = field(default_factory=list, compare=False, repr=False)

    # -- building ---------------------------------------------------------------------
    @staticmethod
    @cache
    def fresh(decks: int, deck_outs: int = 0) -> Shoe:
        """A full, shuffled shoe of ``decks`` decks."""
        return Shoe(decks, (decks,) * len(CARDS), decks * len(CARDS), deck_outs=deck_outs)

    @classmethod
    def from_seen(cls, decks: int, seen: Iterable[Card]) -> Shoe:
        """The shoe as a viewer knows it: every card of ``decks`` decks less ``seen``."""
        seen = tuple(seen)
        return cls.fresh(decks).without(seen)._with(seen=seen)

    def without(self, cards: Iterable[Card]) -> Shoe:
        """The stock less ``cards`` (taken face down); an impossible removal is an error."""
        counts = list(self.counts)
        out = list(self.dealt)
        for card in cards:
            i = INDEX[card]
            if counts[i] == 0:
                raise ArgumentError("shoe.card_exhausted", card=str(card), count=self.decks)
            counts[i] -= 1
            out.append(card)
        return self._with(counts=tuple(counts), left=sum(counts), dealt=tuple(out))

    def collected(self) -> Shoe:
        """Every card gathered and shuffled (the run-out count kept)."""
        return Shoe.fresh(self.decks, self.deck_outs)

    def reshuffled(self, on_table: Sequence[Card]) -> Shoe:
        """The used cards shuffled back, less those still ``on_table``; one more run-out."""
        fresh = Shoe.fresh(self.decks, self.deck_outs + 1).without(on_table)
        return fresh._with(seen=tuple(c for c in self.seen if c in on_table))

    # -- dealing ----------------------------------------------------------------------
    def has(self, card: Card) -> bool:
        """Whether a copy of ``card`` is in the stock."""
        i = INDEX.get(card)
        return i is not None and self.counts[i] > 0

    def take(self, card: Card, *, face_up: bool = True) -> Shoe:
        """``card`` leaves the stock (face up: it joins ``seen``)."""
        i = INDEX[card]
        counts = self.counts
        return Shoe(
            self.decks,
            (*counts[:i], counts[i] - 1, *counts[i + 1 :]),
            self.left - 1,
            (*self.dealt, card),
            (*self.seen, card) if face_up else self.seen,
            self.deck_outs,
        )

    def show(self, cards: Sequence[Card]) -> Shoe:
        """Cards already out of the stock are turned face up."""
        return self._with(seen=self.seen + tuple(cards))

    # -- chance -----------------------------------------------------------------------
    def distribution(self) -> Distribution:
        """Chance's next card: each card in the stock weighted by its copies (reduced)."""
        if not self._dist:
            weights = tuple(filter(None, self.counts))
            total = self.left
            g = math.gcd(*weights)
            if g > 1:
                weights, total = tuple(k // g for k in weights), total // g
            self._dist.append(Distribution(tuple(compress(CARDS, self.counts)), weights, total))
        return self._dist[0]

    def outcomes(self) -> list[tuple[Action, Fraction]]:
        """Chance's next card with exact probabilities."""
        dist = self.distribution()
        return [
            (c, Fraction(w, dist.total)) for c, w in zip(dist.actions, dist.weights, strict=True)
        ]

    def rank_counts(self) -> dict[int, int]:
        """Copies left in the stock per rank (2..14; suits never matter)."""
        out: dict[int, int] = {}
        for card, k in zip(CARDS, self.counts, strict=True):
            if k:
                out[card.rank] = out.get(card.rank, 0) + k
        return out

    def _with(self, **changes: object) -> Shoe:
        values = {
            "decks": self.decks,
            "counts": self.counts,
            "left": self.left,
            "dealt": self.dealt,
            "seen": self.seen,
            "deck_outs": self.deck_outs,
        }
        values.update(changes)
        return Shoe(**values)  # type: ignore[arg-type]
