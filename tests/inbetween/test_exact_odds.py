"""The decision odds are exact through a split's second hand and through chains of re-deals.

The reference is brute force: every chance outcome applied card by card from engine states
(no grouping of suits, no memo), the seat taking at each later decision of a hand the
action of most expected chips for that hand (the first of equals, in legal order), a
split's second hand played from what its first hand leaves.  The situations are stacked:
a small stock, so the brute force stays small and no chain of re-deals runs the stock out.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from aceydeucey.cards import Card
from aceydeucey.inbetween.hand_odds import gain, state_odds
from aceydeucey.inbetween.shoe import CARDS, Shoe
from aceydeucey.inbetween.state import InBetweenState
from tests.inbetween.inbetween_helpers import new, play

Ends = list[tuple[Fraction, Fraction, InBetweenState]]


def _hand(state: InBetweenState) -> tuple[object, ...]:
    return (state.round, state.dealer_game, state.turn, state.gap, state.split_rest)


def _ends(state: InBetweenState, seat: int, hand: tuple[object, ...]) -> Ends:
    """(chance, chips the hand moved, the state it ends in) over every way hand ``hand``
    can go from ``state``."""
    if state.is_terminal() or _hand(state) != hand:
        return [(Fraction(1), Fraction(0), state)]
    if state.is_chance_node():
        out: Ends = []
        for card, p in state.chance_outcomes():
            after = state.apply(card)
            assert isinstance(after, InBetweenState)
            g = gain(after, seat)
            out.extend((p * q, g + c, end) for q, c, end in _ends(after, seat, hand))
        return out
    actions = list(state.player_actions())
    if state.current_player() != seat:
        return _then(state, state.apply(actions[0]), seat, hand)
    best: tuple[Fraction, Ends] | None = None
    for action in actions:
        after = state.apply(action)
        assert isinstance(after, InBetweenState)
        if str(action) == "split":
            ends = [(Fraction(1), gain(after, seat) + _split(after, seat), after)]
            ends = [(p, c, _over(after)) for p, c, _ in ends]
        else:
            ends = _then(state, after, seat, hand)
        value = sum((p * c for p, c, _ in ends), Fraction(0))
        if best is None or value > best[0]:
            best = (value, ends)
    assert best is not None
    return best[1]


def _over(state: InBetweenState) -> InBetweenState:
    return state  # a split's own enumeration ends the outer hand (its key changes)


def _then(state: InBetweenState, after: Any, seat: int, hand: tuple[object, ...]) -> Ends:
    assert isinstance(after, InBetweenState)
    g = gain(after, seat)
    return [(p, g + c, end) for p, c, end in _ends(after, seat, hand)]


def _value(state: InBetweenState, seat: int, hand: tuple[object, ...]) -> Fraction:
    return sum((p * c for p, c, _ in _ends(state, seat, hand)), Fraction(0))


def _split(after: InBetweenState, seat: int) -> Fraction:
    """Both hands of a split: the first from ``after``, the second from where it ends."""
    total = Fraction(0)
    for p, chips, end in _ends(after, seat, _hand(after)):
        second = Fraction(0)
        if not end.is_terminal() and _hand(end)[:4] == _hand(after)[:4]:
            second = _value(end, seat, _hand(end))
        total += p * (chips + second)
    return total


def brute_values(state: InBetweenState, seat: int) -> dict[str, Fraction]:
    """Each legal action's value by brute force."""
    out = {}
    for action in state.player_actions():
        after = state.apply(action)
        assert isinstance(after, InBetweenState)
        if str(action) == "split":
            out[str(action)] = gain(after, seat) + _split(after, seat)
        else:
            out[str(action)] = gain(after, seat) + _value(after, seat, _hand(state))
    return out


def stacked(state: InBetweenState, cards: str) -> InBetweenState:
    """``state`` with only ``cards`` left in the stock (the others never in play)."""
    keep = [Card.from_text(t) for t in cards.split()]
    assert all(state.shoe.has(c) for c in keep)
    counts = tuple(keep.count(c) for c in CARDS)
    old = state.shoe
    return state._copy(shoe=Shoe(old.decks, counts, len(keep), old.dealt, old.seen))


SPLIT = {"players": 2, "pairs": "split"}


def test_a_split_values_its_second_hand_from_what_the_first_leaves() -> None:
    # Seat 1 has posts 7C 7D and splits: each seven gets a new post from a stock of six,
    # so the second hand's odds depend on the first hand's cards (and its pot).  The old
    # figure, twice the first hand, was not the value.
    state = play(new(**SPLIT), "7C", "3H", "7D")
    state = stacked(state, "2C 5H 9S JD QC KH")
    seat = state.to_act
    assert seat is not None and "split" in [str(a) for a in state.player_actions()]
    odds = state_odds(state, seat, redeals=None)
    brute = brute_values(state, seat)
    assert odds.values == brute
    assert odds.exact
    after = state.apply(state.parse_action("split"))
    assert isinstance(after, InBetweenState)
    first = _value(after, seat, _hand(after))  # the first hand alone
    assert brute["split"] != gain(after, seat) + 2 * first


def test_a_split_with_neighbours_redealt_follows_each_hand_to_its_end() -> None:
    # Under adjacent="redeal" a split hand whose new post neighbours the seven is dealt
    # afresh, and so on: every chain of re-deals is followed (the stock cannot run out).
    state = play(new(**SPLIT, adjacent="redeal"), "7C", "3H", "7D")
    state = stacked(state, "6C 2S 2D 9C 9D QS QH")
    seat = state.to_act
    assert seat is not None
    odds = state_odds(state, seat, redeals=None)
    assert odds.values == brute_values(state, seat)
    assert odds.exact


@pytest.mark.parametrize(
    ("options", "cards", "stock"),
    [
        # a first-post ace: called low, a 2 neighbours it; called high, a king does
        ({"aces": "first-card", "adjacent": "redeal"}, ("AC", "5H"), "2C KH 9S 8C QS 3H 5D"),
        # called either way, a second ace pairs it and the hand is dealt again
        ({"aces": "first-card", "pairs": "redeal"}, ("AC", "5H"), "AD 9S 9C 4D JH 6D KC"),
    ],
)
def test_an_ace_call_follows_every_redeal_in_a_row(
    options: dict[str, Any], cards: tuple[str, ...], stock: str
) -> None:
    state = play(new(players=2, **options), *cards)
    state = stacked(state, stock)
    seat = state.to_act
    assert seat is not None and state.phase == "ace"
    exact = state_odds(state, seat, redeals=None)
    assert exact.values == brute_values(state, seat)
    assert exact.exact
    for depth in (1, 2):  # the chain cut after one re-deal, or after two (the old figure)
        cut = state_odds(state, seat, redeals=depth)
        assert not cut.exact
        assert cut.values != exact.values


def test_the_default_follows_one_redeal_and_says_when_it_stopped() -> None:
    # From a full deck a chain of re-deals is followed one deep by default; the odds say
    # they are not exact there, and are exact where no re-deal can follow the decision.
    state = play(new(players=2, aces="first-card", adjacent="redeal"), "AC", "5H")
    odds = state_odds(state, state.to_act or 0)
    assert not odds.exact and odds.to_dict()["exact"] is False
    plain = play(new(players=2), "4C", "5H", "QD")
    assert state_odds(plain, plain.to_act or 0).exact
    assert "exact" not in state_odds(plain, plain.to_act or 0).to_dict()


# -- the seat's view: the odds equal the average over the determinisations ----------------
HIDDEN = {"players": 2, "hidden": True, "deal": "both-around", "pairs": "redeal"}


STOCK = "2C 5D 7H 7S 9C JD QH KS AC 4D"


@settings(max_examples=10, deadline=None)
@given(st.permutations([Card.from_text(t) for t in STOCK.split(" ")]))
def test_hidden_odds_average_the_determinisations(cards: list[Card]) -> None:
    # Two seats get face-down hands from a stacked stock of ten (in this order).  The odds
    # of seat 1's belief (the cards it cannot see all in the stock) equal the average of
    # the odds over every arrangement of those cards, re-deals of pairs followed to the end.
    from aceydeucey.inbetween.belief import from_observation
    from aceydeucey.inbetween.determinise import unknown

    state = stacked(new(**HIDDEN), " ".join(map(str, cards)))
    assert state.phase == "deal-hand"
    for card in cards[:4]:
        state = state.apply(card)  # type: ignore[assignment]
    # a pair dealt to a seat is re-dealt at once: no decision to value then
    assume(not state.is_chance_node())
    seat = state.to_act
    assert seat is not None
    pool = unknown(state, seat).pool
    belief = from_observation(state.game, state.observation(seat))
    belief = belief._copy(shoe=Shoe(1, tuple(pool[c] for c in CARDS), sum(pool.values())))
    seen = state_odds(belief, seat, redeals=None)
    worlds = state.determinisations(seat)
    assert sum((p for _, p in worlds), Fraction(0)) == 1 and len(worlds) > 1
    for text, value in seen.values.items():
        odds = [(p, state_odds(s, seat, redeals=None)) for s, p in worlds]
        assert all(o.exact for _, o in odds)
        assert value == sum((p * o.values[text] for p, o in odds), Fraction(0)), text
