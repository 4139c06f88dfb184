"""One test per option (seeds 001, 002 and SOURCES.md), each on top of the guide or a preset."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.inbetween.inbetween_helpers import new, play


def test_players_and_starting_chips_and_ante() -> None:
    state = new(players=3, starting_chips=50, ante=2)
    assert state.chips == (48, 48, 48) and state.pot == 6


def test_dealer_option_names_the_first_dealer() -> None:
    state = play(new(players=3, dealer=2), "5C")
    assert state.observation(0)["first_cards"] == ["5C", None, None]  # seat 0 is on 2's left


def test_dealer_by_draw_highest_deals_ties_redraw_among_the_tied() -> None:
    # Seed 001/002: draw cards, highest deals; our rule: the tied seats draw again.
    state = new(players=3, dealer="draw")
    assert state.observation(0)["phase"] == "draw" and state.pot == 0
    state = play(state, "5C", "KD", "KH")
    assert state.contenders == (1, 2) and state.is_chance_node()
    state = play(state, "3C", "9S")
    assert state.dealer == 2 and state.pot == 3
    assert len(state.chance_outcomes()) == 52  # reshuffled after the draw
    state = play(state, "4D")
    assert state.observation(0)["first_cards"] == ["4D", None, None]


def test_rounds_option() -> None:
    state = play(new(players=2, rounds=1), "2C", "3C", "4C", "pass", "5C", "pass")
    assert state.is_terminal() and state.round == 1


def test_two_decks_let_the_same_card_come_twice() -> None:
    state = play(new(players=2, decks=2), "4C")
    outcomes = dict((str(a), p) for a, p in state.chance_outcomes())
    assert outcomes["4C"] == Fraction(1, 103) and outcomes["5C"] == Fraction(2, 103)
    state = play(state, "5C", "4C")
    assert [str(c) for c in state.posts] == ["4C", "4C"]


def test_low_ace_a_first_card_ace_may_be_called_low() -> None:
    # Seed 001 "Low Ace" and seed 002 "Aces": a first-post ace is called high or low.
    state = play(new(players=2, aces="first-card"), "AC", "5C")
    assert [str(a) for a in state.legal_actions()] == ["ace high", "ace low"]
    low = play(state, "ace low", "KD")
    assert low.observation(1)["ace_low"] is True
    assert play(low, "bet 1", "2H").chips[1] == 100  # 2 is between a low ace and K
    high = play(state, "ace high", "KD")
    assert play(high, "bet 1", "2H").chips[1] == 98  # K-A are neighbours: outside


def test_second_card_ace_is_always_high() -> None:
    state = play(new(players=2, aces="first-card"), "KC", "5C", "AD")
    assert next(str(a) for a in state.legal_actions()) == "pass"
    assert play(state, "bet 1", "2H").chips[1] == 98


def test_first_card_ace_called_after_both_cards_when_dealt_together() -> None:
    state = play(new(preset="sheets", players=2, aces="first-card"), "AC", "2D")
    assert [str(a) for a in state.legal_actions()] == ["ace high", "ace low"]


def test_post_multiplier_sets_the_post_loss_and_the_stake_cap() -> None:
    state = play(new(players=2, post_multiplier=3, starting_chips=10, ante=1), "4C", "5C", "QD")
    assert str(state.legal_actions()[-1]) == "bet 2"  # pot 2; 9 // 3 = 3
    assert play(state, "bet 2", "QS").chips[1] == 9 - 6


def test_adjacent_lose_takes_the_ante() -> None:
    state = play(new(players=2, adjacent="lose"), "5C", "2D", "6D")
    assert state.chips[1] == 98 and state.pot == 3 and state.to_act == 0


def test_adjacent_push_returns_the_ante() -> None:
    state = play(new(players=2, adjacent="push"), "5C", "2D", "6D")
    assert state.chips[1] == 100 and state.pot == 1


def test_adjacent_redeal() -> None:
    state = play(new(players=2, adjacent="redeal"), "5C", "2D", "6D")
    assert state.posts == () and state.to_act == 1 and state.is_chance_node()


def test_pairs_win_pays_pair_win_chips_bicycle() -> None:
    state = play(new(players=3, pairs="win", pair_win=2), "7C", "2D", "3D", "7D")
    assert state.chips[1] == 101 and state.pot == 1


def test_pairs_push_returns_the_ante() -> None:
    state = play(new(players=2, pairs="push"), "7C", "2D", "7D")
    assert state.chips[1] == 100 and state.pot == 1


def test_pairs_redeal_replaces_identical_posts() -> None:
    state = play(new(players=2, pairs="redeal"), "7C", "2D", "7D")
    assert state.posts == () and state.is_chance_node()


def test_pairs_split_with_an_extra_ante_plays_two_hands() -> None:
    state = play(new(players=2, pairs="split"), "7C", "2D", "7D")
    assert "split" in [str(a) for a in state.legal_actions()]
    state = play(state, "split")
    assert state.chips[1] == 98 and state.pot == 3 and [str(c) for c in state.posts] == ["7C"]
    state = play(state, "2H", "bet 1", "5S")  # hand 1: 7-2, the 5 is inside
    assert state.chips[1] == 99 and [str(c) for c in state.posts] == ["7D"]
    state = play(state, "KS", "bet 1", "AS")  # hand 2: 7-K, the ace is outside
    assert state.chips[1] == 98 and state.to_act == 0


def test_pair_match_multiplier() -> None:
    state = play(new(preset="sheets", players=2, pair_match_multiplier=3), "7C", "7D")
    assert play(state, "higher 1", "7H").chips[1] == 99 - 3


def test_ace_pair_costs_four_times_seed_002() -> None:
    state = play(
        new(preset="sheets", players=2, ace_pair_multiplier=4, starting_chips=20), "AC", "AD"
    )
    assert [str(a) for a in state.legal_actions()][-1] == "lower 2"  # 19 // 4 = 4, pot 2
    assert play(state, "lower 1", "AH").chips[1] == 19 - 4


def test_ace_third_card_against_a_pair_loses_seed_002() -> None:
    state = play(new(preset="sheets", players=2, ace_third_loses=True), "7C", "7D", "higher 1")
    assert play(state, "AH").chips[1] == 98
    plain = play(new(preset="sheets", players=2), "7C", "7D", "higher 1", "AH")
    assert plain.chips[1] == 100


def test_stake_cap_chips_allows_debt() -> None:
    state = play(new(players=2, stake_cap="chips", starting_chips=3, ante=1), "4C", "2D", "QD")
    assert str(state.legal_actions()[-1]) == "bet 2"  # pot 2, chips 2
    assert play(state, "bet 2", "QS").chips[1] == 2 - 4  # a debt of 2


def test_stake_cap_none_only_the_pot_limits() -> None:
    state = play(new(players=3, stake_cap="none", starting_chips=2), "4C", "2D", "3D", "QD")
    assert str(state.legal_actions()[-1]) == "bet 3"


def test_min_stake_equal_to_the_ante() -> None:
    state = play(new(players=4, ante=2), "4C", "2D", "3D", "5D", "QD")
    assert [str(a) for a in state.legal_actions()][:2] == ["pass", "bet 1"]
    state = play(new(players=4, ante=2, min_stake="ante"), "4C", "2D", "3D", "5D", "QD")
    assert [str(a) for a in state.legal_actions()][:2] == ["pass", "bet 2"]


def test_first_round_limit_half_pot() -> None:
    state = play(new(players=4, first_round_limit="half-pot"), "2C", "3D", "4D", "5D", "AD")
    assert str(state.legal_actions()[-1]) == "bet 2"


def test_round_limits_escalate_round_by_round_then_the_pot() -> None:
    # Shemitz (SOURCES.md): 25c in the first round, 50c in the second, then "pot it".
    # Two players, 100 chips, ante 1: the pot is 2 in round 1, 4 in round 2, 6 in round 3.
    state = new(players=2, round_limits=(1, 3), starting_chips=100)
    state = play(state, "2C", "3D", "AD")  # round 1, seat 1 holds 2C AD
    assert str(state.legal_actions()[-1]) == "bet 1"
    with pytest.raises(ValueError, match="bet 2: at most 1, the round-1 limit of 1"):
        state.apply("bet 2")
    state = play(state, "pass", "AH", "pass")  # seat 0 (the dealer) passes too
    assert state.round == 2 and state.pot == 4
    state = play(state, "2S", "3S", "KS")
    assert str(state.legal_actions()[-1]) == "bet 3"
    state = play(state, "pass", "KH", "pass")
    assert state.round == 3 and state.pot == 6
    state = play(state, "2H", "3H", "KC")
    assert str(state.legal_actions()[-1]) == "bet 6"  # past the listed rounds: the pot


def test_round_limits_must_be_positive() -> None:
    with pytest.raises(
        ValueError, match="“Limits by round”: every limit must be at least 1 \\(they were 2, 0\\)"
    ):
        new(round_limits=(2, 0))


def test_ante_to_play_a_pass_forfeits_the_ante() -> None:
    state = play(new(players=2, ante_to_play=True), "2C", "3D", "AD", "pass")
    assert state.chips[1] == 98 and state.pot == 3
    state = play(new(players=2, ante_to_play=True), "2C", "3D", "AD", "bet 1", "7H")
    assert state.chips[1] == 100


def test_ante_each_round_false_antes_only_once() -> None:
    state = play(new(players=2, ante_each_round=False), "2C", "3C", "4C", "pass", "5C", "pass")
    assert state.round == 2 and state.pot == 2


def test_hidden_cards_are_face_down_and_a_pass_folds_unseen() -> None:
    state = new(players=2, hidden=True, deal="both-around")
    state = play(state, "2C", "3C", "AD", "KD")  # seat 1: 2C AD; seat 0: 3C KD
    assert state.observation(1)["hand"] == ["2C", "AD"]
    assert state.observation(0)["hand"] == ["3C", "KD"]
    assert state.observation(0)["posts"] == [] and state.observation(0)["seen"] == []
    folded = play(state, "pass")
    assert folded.observation(1)["seen"] == []
    shown = play(state, "bet 1")
    assert shown.observation(0)["seen"] == ["2C", "AD"]


def test_empty_pot_replenish_option() -> None:
    state = play(new(players=2, empty_pot="replenish"), "2C", "3C", "AC", "bet 2", "7H")
    assert not state.is_terminal() and state.pot == 2 and state.chips == (98, 100)


def test_dealer_plays_false_in_a_shared_pot() -> None:
    state = play(new(players=3, dealer_plays=False), "2C", "3C")
    assert state.to_act == 1 and state.first[0] is None


def test_reshuffle_deck_out_keeps_dealing_from_the_rest() -> None:
    state = play(new(players=2, reshuffle="deck-out"), "2C", "3C", "4C", "pass", "5C", "pass")
    assert state.round == 2 and len(state.chance_outcomes()) == 52 - 4


def test_reshuffle_when_the_deck_runs_out_mid_round_keeps_table_cards_out() -> None:
    # Three players pass for 8 rounds (48 cards); in round 9 the three first cards and one
    # second card use the last four, so the next second card comes from the discards,
    # less the two first cards still waiting on the table.
    state = new(players=3, reshuffle="deck-out", rounds=100)
    cards = _deck_text()
    for r in range(8):
        c = cards[6 * r : 6 * r + 6]
        state = play(state, c[0], c[1], c[2], c[3], "pass", c[4], "pass", c[5], "pass")
    assert state.round == 9 and len(state.chance_outcomes()) == 4
    state = play(state, *cards[48:52], "pass")
    outcomes = {str(a) for a, _ in state.chance_outcomes()}
    waiting = {cards[49], cards[50]}
    assert len(outcomes) == 50 and not outcomes & waiting
    state = play(state, cards[0])
    assert state.deck_outs == 1 and state.observation(0)["seen"] == [cards[49], cards[50], cards[0]]


def _deck_text() -> list[str]:
    return [r + s for r in "23456789TJQKA" for s in "CDHS"]


class Passer:
    """Always passes."""

    def act(self, observation: dict[str, object]) -> str:
        return "pass"


def test_twice_through_ends_after_the_second_run_out() -> None:
    # Seed 001 "Twice through the deck": no reshuffle between rounds; when the deck runs out
    # for the second time the round is finished, then the game ends.
    from aceydeucey import Seeded, Table

    state = new(players=3, reshuffle="twice-through", rounds=1000)
    table = Table(state.game, [Passer() for _ in range(3)], chance=Seeded(5))
    table.play()
    final = table.state
    assert final.is_terminal()
    assert final.termination() == ("session.deck_out_twice", {})  # type: ignore[attr-defined]
    assert final.deck_outs == 2  # type: ignore[attr-defined]
    assert 104 // 6 <= final.round <= 104 // 6 + 1  # type: ignore[attr-defined]


def test_spread_and_trips_pays_options() -> None:
    state = play(new(preset="red-dog", players=1, rounds=1, trips_pays=5), "8C", "8D", "8H")
    assert state.chips == (105,)
    state = play(new(preset="red-dog", players=1, rounds=1, spread_pays=(9, 4, 2, 1)), "4C", "6D")
    assert play(state, "stay", "5H").chips == (109,)


@pytest.mark.parametrize("bank", [12, 30])
def test_bank_is_the_dealers_opening_pot(bank: int) -> None:
    assert new(preset="banker", players=2, bank=bank).pot == bank
