"""The red-dog preset (seed 001's casino version): the house banks, common posts."""

from __future__ import annotations

import pytest

from aceydeucey.core.errors import IllegalActionError
from tests.inbetween.inbetween_helpers import new, play


def test_everyone_antes_and_two_cards_are_turned_for_all() -> None:
    state = new(preset="red-dog", players=2)
    assert state.chips == (99, 99) and state.bets == (1, 1) and state.bank == 1000
    state = play(state, "3C", "9D")
    assert state.observation(1)["posts"] == ["3C", "9D"]
    assert state.to_act == 0
    assert [str(a) for a in state.legal_actions()] == ["stay", "raise 1"]


def test_neighbouring_cards_push() -> None:
    state = play(new(preset="red-dog", players=2), "TC", "JD")
    assert state.chips == (99, 99) and state.bets == (1, 1)  # the next round's antes
    assert state.round == 2 and state.bank == 1000


def test_a_pair_turns_a_third_card_trips_pay_eleven_to_one() -> None:
    state = play(new(preset="red-dog", players=2), "8C", "8D", "8H")
    assert state.bank == 1000 - 22
    assert state.chips == (100 + 11 - 1, 100 + 11 - 1)  # paid, then the next ante


def test_a_pair_without_trips_pushes() -> None:
    state = play(new(preset="red-dog", players=2), "8C", "8D", "2H")
    assert state.bank == 1000 and state.chips == (99, 99)


def test_a_raise_is_up_to_the_ante() -> None:
    state = play(new(preset="red-dog", players=2), "3C", "9D")
    with pytest.raises(IllegalActionError, match="1 to 1"):
        state.apply("raise 2")


@pytest.mark.parametrize(
    ("posts", "pays"), [(("4C", "6D"), 5), (("4C", "7D"), 4), (("4C", "8D"), 2), (("4C", "9D"), 1)]
)
def test_in_between_pays_by_the_spread(posts: tuple[str, str], pays: int) -> None:
    # Spread 1: 5 to 1, 2: 4 to 1, 3: 2 to 1, 4 or more: 1 to 1; seat 0 raises (bet 2).
    state = play(new(preset="red-dog", players=2, rounds=1), *posts, "raise 1", "stay", "5H")
    assert state.is_terminal()
    assert state.chips == (98 + 2 + 2 * pays, 99 + 1 + pays)
    assert state.bank == 1000 - 3 * pays


@pytest.mark.parametrize("third", ["4H", "KH"])
def test_outside_or_equal_the_dealer_takes_the_bets(third: str) -> None:
    state = play(new(preset="red-dog", players=2, rounds=1), "4C", "9D", "raise 1", "stay", third)
    assert state.chips == (98, 99) and state.bank == 1003


def test_chips_plus_bank_are_conserved() -> None:
    state = play(new(preset="red-dog", players=3), "4C", "9D", "raise 1", "stay", "raise 1", "5H")
    assert sum(state.chips) + sum(state.bets) + state.bank == 3 * 100 + 1000
