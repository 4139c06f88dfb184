"""The shoe: deck accounting carried incrementally, and the same object for a viewer's odds."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.cards import Card, deck, parse_cards
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.shoe import CARDS, Shoe
from tests.inbetween.inbetween_helpers import new, play


@settings(max_examples=60, deadline=None)
@given(decks=st.integers(1, 3), data=st.data())
def test_taking_cards_keeps_the_counts_a_recount_gives(decks: int, data: st.DataObject) -> None:
    shoe = Shoe.fresh(decks)
    pool = list(deck(decks))
    taken = data.draw(st.lists(st.sampled_from(range(len(pool))), unique=True, max_size=40))
    for i in taken:
        shoe = shoe.take(pool[i], face_up=i % 2 == 0)
    left = Counter(deck(decks)) - Counter(pool[i] for i in taken)
    assert shoe.counts == tuple(left[c] for c in CARDS)
    assert shoe.left == sum(left.values()) == len(pool) - len(taken)
    assert shoe.seen == tuple(pool[i] for i in taken if i % 2 == 0)
    outcomes = shoe.outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes) == {c: Fraction(k, shoe.left) for c, k in left.items() if k}
    dist = shoe.distribution()
    assert dist.total * 1 == sum(dist.weights)


def test_a_viewer_shoe_counts_the_unseen_ranks() -> None:
    seen = parse_cards("4C 4D QS")
    shoe = Shoe.from_seen(1, seen).without(parse_cards("4H"))
    ranks = shoe.rank_counts()
    assert ranks[4] == 1 and ranks[12] == 3 and ranks[14] == 4
    assert sum(ranks.values()) == 48
    with pytest.raises(ArgumentError) as info:
        Shoe.from_seen(1, parse_cards("QS QS"))
    assert info.value.code == "shoe.card_exhausted"
    assert "QS" in info.value.render("pt")


def test_a_reshuffle_keeps_the_cards_on_the_table_out() -> None:
    shoe = Shoe.fresh(1)
    for card in deck(1):
        shoe = shoe.take(card)
    table = parse_cards("2C KD")
    again = shoe.reshuffled(table)
    assert again.left == 50 and again.deck_outs == 1
    assert not again.has(Card.from_text("2C")) and again.has(Card.from_text("3C"))
    assert again.seen == tuple(table)


def test_the_state_deals_from_its_shoe() -> None:
    state = play(new(players=2), "2C", "3C", "AD")
    assert state.shoe.left == 49 and state.seen == tuple(parse_cards("2C 3C AD"))
    assert state.chance_outcomes() == [] and state.phase == "decide"
    third = play(state, "bet 1")
    assert third.chance_distribution() == third.shoe.distribution()
    assert [a for a, _ in third.chance_outcomes()] == list(third.legal_actions())


@settings(max_examples=40, deadline=None)
@given(decks=st.integers(1, 2), data=st.data())
def test_a_viewer_shoe_agrees_with_the_odds_count_of_unseen_ranks(
    decks: int, data: st.DataObject
) -> None:
    from aceydeucey.inbetween.odds import unseen_ranks

    pool = list(deck(decks))
    picked = data.draw(st.lists(st.sampled_from(range(len(pool))), unique=True, max_size=30))
    seen = [pool[i] for i in picked]
    counts = Shoe.from_seen(decks, seen).rank_counts()
    assert counts == {r: k for r, k in unseen_ranks(decks, seen).items() if k}
