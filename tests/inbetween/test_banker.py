"""The banker preset (seed 001's main rules): the dealer's game against a banked pot."""

from __future__ import annotations

import pytest

from aceydeucey.core.errors import IllegalActionError
from tests.inbetween.inbetween_helpers import new, play


def anna(third: str):  # type: ignore[no-untyped-def]
    # Seed 001: Anna has 4♣ and J♥, the pot holds 12 chips, she bets 5.
    state = play(new(preset="banker", players=2, bank=12), "4C", "JH")
    assert state.pot == 12
    return play(state, "bet 5", third)


def test_anna_in_between_takes_five_leaving_seven() -> None:
    state = anna("9D")
    assert state.chips[1] == 105 and state.pot == 7


def test_anna_outside_pays_five_into_the_pot() -> None:
    state = anna("KS")
    assert state.chips[1] == 95 and state.pot == 17


@pytest.mark.parametrize("third", ["4D", "JS"])
def test_anna_hitting_the_post_pays_ten(third: str) -> None:
    state = anna(third)
    assert state.chips[1] == 90 and state.pot == 22


def test_dealer_puts_up_the_bank_and_gets_no_cards() -> None:
    state = new(preset="banker", players=3)
    assert state.pot == 20 and state.chips == (80, 100, 100)  # no antes in the dealer's game
    state = play(state, "5C", "6C")  # seats 1 and 2 get first cards; then seat 1's turn
    assert state.observation(0)["first_cards"] == [None, "5C", "6C"]
    assert state.to_act == 1


def test_bets_up_to_the_pot() -> None:
    state = play(new(preset="banker", players=2, bank=12), "2C", "AD")
    assert str(state.legal_actions()[-1]) == "bet 12"


def test_stake_is_capped_so_a_post_loss_is_payable() -> None:
    # Our reading of seed 001's tip "don't bet more than you can pay twice": with 20 chips
    # the stake is at most 10 even though the pot holds 12.
    state = play(new(preset="banker", players=2, bank=12, starting_chips=20), "2C", "AD")
    assert str(state.legal_actions()[-1]) == "bet 10"
    with pytest.raises(IllegalActionError, match="at most 10, half your 20 chips"):
        state.apply("bet 11")


def test_winning_the_whole_pot_ends_the_dealers_game_at_once() -> None:
    # Seat 1 stakes the whole pot of 12 and wins: seat 1 deals next and puts up its bank.
    state = play(new(preset="banker", players=2, bank=12), "2C", "AD", "bet 12", "7H")
    assert state.dealer == 1 and state.dealer_game == 1
    assert state.chips == (88, 112 - 12) and state.pot == 12


def test_after_the_agreed_rounds_the_dealer_takes_the_pot_and_the_left_player_deals() -> None:
    # Three rounds: seat 1 loses 5 in the first, passes in the others; the dealer takes 17.
    state = play(new(preset="banker", players=2, bank=12), "4C", "JH", "bet 5", "KS")
    state = play(state, "4C", "JH", "pass", "4C", "JH", "pass")
    assert state.dealer == 1
    assert state.chips == (88 + 17 - 0, 95 - 12)
    assert state.pot == 12


def test_session_is_one_dealers_game_per_seat_most_chips_wins() -> None:
    state = new(preset="banker", players=2, bank=12)
    for _ in range(6):  # 2 dealer's games x 3 rounds, the one player always passes
        state = play(state, "4C", "JH", "pass")
    assert state.is_terminal()
    assert state.chips == (100, 100) and state.winners() == (0, 1)


def test_dealer_games_option_sets_the_session_length() -> None:
    state = new(preset="banker", players=3, dealer_games=1, rounds=1)
    state = play(state, "2C", "3C", "4C", "pass", "5C", "pass")
    assert state.is_terminal() and state.chips == (100, 100, 100)


class Script:
    """A seat that plays the given decisions in order."""

    def __init__(self, *decisions: str) -> None:
        self.decisions = list(decisions)

    def act(self, observation: dict[str, object]) -> str:
        return self.decisions.pop(0)


@pytest.mark.parametrize(
    ("third", "chips", "pot"), [("9D", 105, 7), ("KC", 95, 17), ("JD", 90, 22)]
)
def test_anna_at_a_table_with_a_stacked_deck(third: str, chips: int, pot: int) -> None:
    from aceydeucey import Stacked, Table

    state = new(preset="banker", players=2, bank=12)
    table = Table(state.game, [Script(), Script("bet 5")], chance=Stacked(["4C", "JH", third]))
    for _ in range(4):
        table.step()
    assert table.state.chips[1] == chips and table.state.pot == pot  # type: ignore[attr-defined]
