"""The sheets preset (seed 002's card rules): both cards at one's turn, pairs call."""

from __future__ import annotations

from tests.inbetween.inbetween_helpers import new, play


def test_ante_one_each_to_form_the_pool_once() -> None:
    state = new(preset="sheets", players=3)
    assert state.pot == 3 and state.chips == (99, 99, 99)
    # Each player passes once: round 2 starts without a new ante.
    state = play(state, "2C", "9D", "pass", "2D", "9H", "pass", "2H", "9S", "pass")
    assert state.round == 2 and state.pot == 3 and state.chips == (99, 99, 99)


def test_each_player_gets_both_cards_at_once_at_their_turn_dealer_last() -> None:
    state = play(new(preset="sheets", players=3), "2C", "9D")
    assert state.to_act == 1 and state.observation(1)["posts"] == ["2C", "9D"]
    state = play(state, "pass", "3C", "TD", "pass", "4C")
    assert state.to_act == 0  # the dealer plays too, last


def test_bet_one_to_the_pool() -> None:
    state = play(new(preset="sheets", players=3), "2C", "AD")
    assert [str(a) for a in state.legal_actions()] == ["pass", "bet 1", "bet 2", "bet 3"]


def test_equal_or_outside_loses_one_stake() -> None:
    equal = play(new(preset="sheets", players=3), "4C", "QD", "bet 2", "QS")
    outside = play(new(preset="sheets", players=3), "4C", "QD", "bet 2", "KS")
    assert equal.chips[1] == 97 and outside.chips[1] == 97 and equal.pot == 5


def test_consecutive_posts_are_laid_aside_and_two_new_cards_dealt() -> None:
    state = play(new(preset="sheets", players=3), "5C", "6D")
    assert state.is_chance_node() and state.to_act == 1 and state.posts == ()
    assert state.observation(2)["seen"] == ["5C", "6D"]
    state = play(state, "2C", "KD")
    assert [str(c) for c in state.posts] == ["2C", "KD"]


def test_a_pair_calls_higher_or_lower() -> None:
    state = play(new(preset="sheets", players=3), "7C", "7D")
    legal = [str(a) for a in state.legal_actions()]
    assert legal == ["pass", "higher 1", "higher 2", "higher 3", "lower 1", "lower 2", "lower 3"]
    assert play(state, "higher 2", "9H").chips[1] == 101
    assert play(state, "lower 2", "9H").chips[1] == 97
    assert play(state, "lower 2", "2S").chips[1] == 101


def test_the_same_rank_again_costs_double() -> None:
    state = play(new(preset="sheets", players=3), "7C", "7D", "higher 2", "7H")
    assert state.chips[1] == 99 - 4 and state.pot == 7


def test_an_empty_pool_is_replenished_with_one_chip_from_everyone() -> None:
    state = play(new(preset="sheets", players=3), "2C", "AD", "bet 3", "7H")
    assert not state.is_terminal()
    assert state.chips == (98, 101, 98) and state.pot == 3


def test_the_deal_passes_left_and_the_rounds_limit_ends_it() -> None:
    state = new(preset="sheets", players=2, rounds=2)
    state = play(state, "2C", "9D", "pass", "2D", "9H", "pass")
    assert state.dealer == 1 and state.to_act == 0
    state = play(state, "2C", "9D", "pass", "2D", "9H", "pass")
    assert state.is_terminal() and state.round == 2


def test_a_pool_emptied_by_a_push_is_refilled() -> None:
    # Issue 8: with pushes, the pool of 2 pays 1 back twice and reaches 0; everyone antes again.
    for rule, cards in (
        ({"adjacent": "push"}, ("5C", "6D", "8C", "9D")),
        ({"pairs": "push"}, ("5C", "5D", "8C", "8D")),
    ):
        state = play(new(preset="sheets", players=2, **rule), *cards)
        assert state.pot == 2 and state.chips == (99, 99), rule
        assert state.round == 2 and not state.is_terminal()
        event = state.event_view()
        assert event is not None
        kinds = [e["kind"] for e in (event, *event.get("after", []))]
        assert kinds[:3] == ["post", "push", "replenish"]
        assert any(str(a).startswith("bet") for a in play(state, "2C", "KD").legal_actions())


def test_a_push_does_not_end_a_session_whose_empty_pot_rule_is_end() -> None:
    # Only a bet that empties the pot ends the guide's session; the next antes refill it.
    state = play(new(players=2, adjacent="push"), "5C", "8C", "6D", "9D")
    assert state.pot == 2 and state.round == 2 and not state.is_terminal()
