"""Bad input: each a clear error naming the problem, the state unchanged."""

from __future__ import annotations

import pytest

from aceydeucey import load_game
from aceydeucey.core.errors import (
    ActionSyntaxError,
    IllegalActionError,
    OutOfTurnError,
    RulesError,
)
from aceydeucey.inbetween.game import Decision
from aceydeucey.locale import option_label
from tests.inbetween.inbetween_helpers import new, play


def test_unknown_preset_lists_the_accepted_ones() -> None:
    with pytest.raises(
        RulesError, match=r"has no “poker”; choose one of: Standard \(shared pot\), Dealer's bank"
    ):
        load_game("inbetween", preset="poker")


def test_unknown_option_lists_the_accepted_ones() -> None:
    with pytest.raises(RulesError, match=r"has no option 'jokers'.*Players"):
        load_game("inbetween", jokers=True)


def test_option_out_of_range_or_wrong_choice() -> None:
    with pytest.raises(
        RulesError, match=r"“Decks” must be a whole number from 1 to 8 \(it was 9\)"
    ):
        load_game("inbetween", decks=9)
    with pytest.raises(
        RulesError, match=r"“Pair of posts” cannot be “maybe”; choose one of: Bet as usual"
    ):
        load_game("inbetween", pairs="maybe")


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"banking": "house"}, ("banking", "deal")),
        ({"preset": "banker", "dealer_plays": True}, ("banking", "dealer_plays")),
        ({"hidden": True}, ("hidden", "deal")),
        ({"empty_pot": "next-dealer"}, ("empty_pot", "banking")),
        ({"preset": "three-posts", "pairs": "higher-lower"}, ("three_posts", "pairs")),
        ({"dealer": 5, "players": 3}, ("dealer", "players")),
        ({"preset": "banker", "empty_pot": "replenish"}, ("banking", "empty_pot")),
    ],
)
def test_contradictory_options_name_both(
    options: dict[str, object], names: tuple[str, str]
) -> None:
    with pytest.raises(RulesError) as info:
        load_game("inbetween", **options)
    assert set(names) <= set(info.value.params["options"])
    for name in names:
        assert option_label("inbetween", name) in str(info.value)


def test_a_stake_over_half_ones_chips_is_refused_with_the_reason() -> None:
    state = play(new(players=8, starting_chips=10), "2C", "2D", "3D", "4D", "5D", "6D", "7D", "8D")
    state = play(state, "KC")
    with pytest.raises(IllegalActionError, match="bet 5: at most 4, half your 9 chips"):
        state.apply("bet 5")
    assert state.chips[1] == 9 and state.pot == 8  # unchanged


def test_a_stake_over_the_pot_names_the_pot() -> None:
    state = play(new(players=2), "2C", "3C", "AD")
    with pytest.raises(IllegalActionError, match="bet 3: at most 2, the pot of 2"):
        state.apply("bet 3")


def test_out_of_turn_action_is_refused() -> None:
    state = play(new(players=3), "2C", "3C", "4C", "AD")
    with pytest.raises(OutOfTurnError, match="seat 3 cannot act now: it is seat 2's turn"):
        state.apply("pass", seat=2)
    assert state.to_act == 1


def test_syntax_errors_name_the_problem() -> None:
    state = play(new(players=2), "2C", "3C", "AD")
    with pytest.raises(ActionSyntaxError, match="whole number"):
        state.apply("bet five")
    with pytest.raises(ActionSyntaxError, match="say how many chips"):
        state.apply("bet")
    with pytest.raises(ActionSyntaxError, match="not an In-Between action"):
        state.apply("fold")


def test_a_decision_at_a_chance_node_and_a_card_at_a_decision() -> None:
    state = new(players=2)
    with pytest.raises(IllegalActionError, match="chance's turn"):
        state.apply("pass")
    state = play(state, "2C", "3C", "AD")
    with pytest.raises(IllegalActionError, match="seat 2 must decide"):  # seat 1 from 0
        state.apply("5H")


def test_a_card_already_dealt_cannot_come_again() -> None:
    state = play(new(players=2), "2C")
    with pytest.raises(IllegalActionError, match="2C: no copy"):
        state.apply("2C")


def test_higher_is_refused_without_a_pair() -> None:
    state = play(new(preset="sheets", players=2), "2C", "AD")
    with pytest.raises(IllegalActionError, match="not with these posts"):
        state.apply("higher 1")


def test_actions_round_trip_their_notation() -> None:
    for text in ("pass", "bet 5", "higher 2", "lower 1", "split", "ace low", "stay", "raise 1"):
        action = Decision.from_text(text)
        assert str(action) == text
        assert eval(repr(action)) == action
    game = load_game("inbetween")
    assert str(game.parse_action("10h")) == "TH"
    assert game.parse_action("  BET   3 ") == Decision("bet", 3)


def test_the_game_over_refuses_actions() -> None:
    state = play(new(players=2), "2C", "3C", "AC", "bet 2", "7H")
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply("pass")
