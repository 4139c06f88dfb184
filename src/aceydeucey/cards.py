"""Playing cards: ranks, suits, cards with one text form, and decks.

>>> Card.from_text("4C")
Card.from_text('4C')
>>> str(Card.from_text("10h")), Card.from_text("Q♦").symbol()
('TH', 'Q♦')
>>> len(deck(decks=2))
104
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from aceydeucey.core.errors import ActionSyntaxError

__all__ = ["RANKS", "SUITS", "Card", "deck", "parse_cards", "rank_name", "remaining"]

#: Rank characters from low to high; a card's rank value is 2..14 (ace = 14).
RANKS = "23456789TJQKA"
#: Suit characters; suits never rank.
SUITS = "CDHS"
_SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SYMBOL_SUITS = {v: k for k, v in _SUIT_SYMBOLS.items()}
_RANK_NAMES = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def rank_name(rank: int) -> str:
    """Rank value as players write it: 2..10, J, Q, K, A (1 for a low ace)."""
    if rank == 1:
        return "A"
    return _RANK_NAMES.get(rank, str(rank))


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card: ``rank`` 2..14 (ace high; games decide when an ace counts low) and ``suit``."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14 or self.suit not in SUITS:
            raise ActionSyntaxError("card.no_such_card", rank=self.rank, suit=repr(self.suit))

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse ``4C``, ``TH``, ``10h``, ``Q♦`` (case and suit symbols accepted)."""
        t = text.strip().upper()
        if t[-1:] in _SYMBOL_SUITS:
            t = t[:-1] + _SYMBOL_SUITS[t[-1]]
        if t.startswith("10"):
            t = "T" + t[2:]
        if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
            raise ActionSyntaxError("card.not_a_card", text=repr(text), ranks=RANKS, suits=SUITS)
        return cls(RANKS.index(t[0]) + 2, t[1])

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card.from_text({str(self)!r})"

    def symbol(self) -> str:
        """Rank and suit symbol as printed on the card: ``Q♦``, ``10♥``."""
        return rank_name(self.rank) + _SUIT_SYMBOLS[self.suit]

    @property
    def is_red(self) -> bool:
        return self.suit in "DH"


def deck(decks: int = 1) -> tuple[Card, ...]:
    """``decks`` standard 52-card decks, sorted (a multiset of cards)."""
    one = tuple(Card(r, s) for r in range(2, 15) for s in SUITS)
    return one * decks


def parse_cards(text: str) -> list[Card]:
    """Parse a comma- or space-separated list of cards: ``"5H,5S QS"``."""
    parts = [p for p in text.replace(",", " ").split() if p]
    return [Card.from_text(p) for p in parts]


def remaining(decks: int, seen: list[Card] | tuple[Card, ...]) -> Counter[Card]:
    """The multiset of cards left after ``seen`` were dealt from ``decks`` decks."""
    left = Counter(deck(decks))
    for card in seen:
        if left[card] == 0:
            raise ActionSyntaxError("card.seen_too_often", card=str(card), count=decks)
        left[card] -= 1
    return +left
