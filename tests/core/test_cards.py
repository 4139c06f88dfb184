"""Cards: one text form both ways, decks of any size."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aceydeucey.cards import RANKS, SUITS, Card, deck, parse_cards, remaining
from aceydeucey.core.errors import ActionSyntaxError

cards = st.builds(Card, st.integers(2, 14), st.sampled_from(SUITS))


@given(cards)
def test_text_round_trip(card: Card) -> None:
    assert Card.from_text(str(card)) == card
    assert eval(repr(card)) == card


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [("4C", 4, "C"), ("10h", 10, "H"), ("th", 10, "H"), ("Q♦", 12, "D"), (" as ", 14, "S")],
)
def test_parse_spellings(text: str, rank: int, suit: str) -> None:
    assert Card.from_text(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "1C", "4X", "QDD", "11H"])
def test_parse_rejects(text: str) -> None:
    with pytest.raises(ActionSyntaxError, match="is not a card"):
        Card.from_text(text)


def test_symbols_and_decks() -> None:
    assert Card.from_text("QD").symbol() == "Q♦" and Card.from_text("TC").symbol() == "10♣"
    assert len(set(deck())) == 52 and len(deck(2)) == 104
    assert Counter(deck(2))[Card.from_text("AS")] == 2
    assert [str(c) for c in parse_cards("5H,5S QS")] == ["5H", "5S", "QS"]
    assert len(RANKS) == 13


def test_remaining_removes_seen_and_refuses_impossible() -> None:
    five = Card.from_text("5H")
    left = remaining(1, [five])
    assert sum(left.values()) == 51 and left[five] == 0
    with pytest.raises(ActionSyntaxError, match="seen more often than one deck holds"):
        remaining(1, [five, five])
    assert remaining(2, [five, five])[five] == 0
