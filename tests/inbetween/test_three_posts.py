"""The three-posts preset (seed 001's harsher version): two gaps, two bets."""

from __future__ import annotations

from tests.inbetween.inbetween_helpers import new, play


def test_three_cards_face_up_then_a_usual_bet_on_the_first_gap() -> None:
    # Our reading: the player's three posts are all face up before the first bet.
    state = play(new(preset="three-posts", players=2), "3C", "5C", "9D")
    assert state.is_chance_node()
    state = play(state, "KH")
    assert state.observation(0)["posts"] == ["3C", "9D", "KH"]
    assert state.observation(0)["gap"] == 1
    assert [str(a) for a in state.legal_actions()] == ["pass", "bet 1", "bet 2"]


def test_second_bet_is_at_least_the_ante_at_most_the_pot_and_compulsory() -> None:
    state = play(new(preset="three-posts", players=2), "3C", "5C", "9D", "KH", "bet 1", "5S")
    assert state.chips[1] == 100 and state.pot == 1
    assert state.observation(1)["gap"] == 2
    assert [str(a) for a in state.legal_actions()] == ["bet 1"]


def test_hitting_a_post_on_the_second_bet_costs_three_times() -> None:
    state = play(
        new(preset="three-posts", players=2), "3C", "5C", "9D", "KH", "bet 1", "5S", "bet 1", "KS"
    )
    assert state.chips[1] == 100 - 3 and state.pot == 4


def test_second_gap_inside_wins_one_stake() -> None:
    state = play(new(preset="three-posts", players=2), "3C", "5C", "9D", "KH", "pass")
    assert [str(a) for a in state.legal_actions()] == ["bet 1", "bet 2"]
    state = play(state, "bet 2", "JS")
    assert state.chips[1] == 101 and state.pot == 0 and state.is_terminal()


def test_a_pair_in_the_second_gap_hit_again_costs_three_times() -> None:
    # Posts 3-9-9: the second gap is a pair; the third nine hits it: three stakes.
    state = play(new(preset="three-posts", players=2), "3C", "5C", "9D", "9H", "pass")
    state = play(state, "bet 1", "9S")
    assert state.chips[1] == 99 - 3 and state.pot == 5
