"""The guide preset (seed 000, seed 003 in Portuguese): every line of it, one test per rule."""

from __future__ import annotations

from fractions import Fraction

import pytest

from aceydeucey.core.game import CHANCE, TERMINAL
from aceydeucey.locale import render_error
from tests.inbetween.inbetween_helpers import new, play

# First cards for seats 2..9 and 0 that stay clear of the example's posts and third cards.
FILLER = ["2D", "3D", "5D", "6D", "7D", "8D", "TD", "JD", "KD"]
# The example's pot of 10: the guide seats at most 8, so five players ante 2 each.
EXAMPLE = {"players": 5, "ante": 2}
FILL = FILLER[:4]  # first cards of seats 2, 3, 4 and 0


def test_worked_example_inside_wins_one_stake() -> None:
    # Seed 000 §07: posts 4♣ and Q♦, stake 2, pot 10; the 9♥ is strictly between:
    # the player gains 2 and the pot falls to 8.  Five players ante 2 each: pot 10.
    state = new(**EXAMPLE)
    assert state.pot == 10
    state = play(state, "4C", *FILL, "QD", "bet 2")
    after = play(state, "9H")
    assert after.chips[1] == 98 + 2
    assert after.pot == 8
    assert after.observation(1)["last_event"]["outcome"] == "inside"


def test_worked_example_post_loses_two_stakes() -> None:
    # Seed 000 §07: had the Q♠ come, its rank hits a post: lose 4, the pot becomes 14.
    state = play(new(**EXAMPLE), "4C", *FILL, "QD", "bet 2", "QS")
    assert state.chips[1] == 98 - 4
    assert state.pot == 14


def test_outside_loses_one_stake() -> None:
    # §04: a third card outside the posts loses one stake (the K is above the Q).
    state = play(new(**EXAMPLE), "4C", *FILL, "QD", "bet 2", "KH")
    assert state.chips[1] == 98 - 2
    assert state.pot == 12


def test_suits_never_matter() -> None:
    # §02/§07: the 9 of any suit is inside 4-Q, the Q of any suit is a post.
    for third, delta in (("9C", 2), ("9S", 2), ("QH", -4), ("QC", -4)):
        state = play(new(**EXAMPLE), "4C", *FILL, "QD", "bet 2", third)
        assert state.chips[1] == 98 + delta


def test_everyone_including_the_dealer_antes_one() -> None:
    # §02: 100 chips each, ante 1 before each round, the dealer too.
    state = new(players=5)
    assert state.chips == (99,) * 5
    assert state.pot == 5


def test_first_cards_go_round_from_the_dealers_left_dealer_last() -> None:
    # §03: one face-up card to everyone, starting at the dealer's left, dealer (seat 0) last.
    state = new(players=3)
    assert state.current_player() == CHANCE
    state = play(state, "5C")
    assert state.observation(0)["first_cards"] == [None, "5C", None]
    state = play(state, "6C", "7C")
    assert state.observation(2)["first_cards"] == ["7C", "5C", "6C"]


def test_second_card_comes_at_the_players_turn_never_in_advance() -> None:
    # §03: seat 1 gets its second card and decides before seat 2 gets a second card.
    state = play(new(players=3), "5C", "6C", "7C", "KD")
    assert state.current_player() == 1
    assert state.observation(2)["posts"] == ["5C", "KD"]
    state = play(state, "pass")
    assert state.current_player() == CHANCE
    assert state.to_act == 2
    assert state.observation(0)["posts"] == ["6C"]


def test_legal_actions_are_pass_and_every_stake_up_to_the_cap() -> None:
    # §04: a whole-chip stake from 1 to the pot, also at most half one's chips.
    state = play(new(players=8, starting_chips=10), "2C", *FILLER[:6], "KC", "AD")
    # Pot 8 (eight antes), chips 9: half rounded down is 4.
    assert [str(a) for a in state.legal_actions()] == ["pass"] + [f"bet {n}" for n in (1, 2, 3, 4)]
    state = play(new(players=3), "2C", "3C", "4C", "AD")
    # Pot 3, chips 99: the pot is the limit.
    assert [str(a) for a in state.legal_actions()] == ["pass", "bet 1", "bet 2", "bet 3"]


def test_no_affordable_stake_leaves_only_pass() -> None:
    # §04: "If no stake is affordable, pass": one chip cannot cover a double loss.
    state = play(new(players=3, starting_chips=2), "2C", "3C", "4C", "AD")
    assert state.chips[1] == 1
    assert [str(a) for a in state.legal_actions()] == ["pass"]


def test_passing_costs_nothing_and_deals_no_third_card() -> None:
    state = play(new(players=3), "2C", "3C", "4C", "AD", "pass")
    assert state.chips == (99, 99, 99) and state.pot == 3
    assert state.to_act == 2 and state.observation(0)["posts"] == ["3C"]  # seat 2's first card


def test_aces_are_always_high_and_cannot_be_called_low() -> None:
    # §03: an ace first card is above the K; no "ace low" is offered.
    state = play(new(players=2), "AC", "5C", "2D")
    assert "ace low" not in [str(a) for a in state.legal_actions()]
    state = play(state, "bet 1", "AH")  # an ace third card hits the ace post
    assert state.chips[1] == 99 - 2


def test_pairs_and_adjacent_posts_may_be_bet_or_passed_no_automatic_payout() -> None:
    # §04: equal or adjacent posts have no automatic payout; betting them simply loses.
    pair = play(new(players=2), "7C", "5C", "7D")
    assert [str(a) for a in pair.legal_actions()] == ["pass", "bet 1", "bet 2"]
    assert play(pair, "bet 1", "7H").chips[1] == 99 - 2
    adjacent = play(new(players=2), "7C", "5C", "8D")
    assert play(adjacent, "bet 1", "2H").chips[1] == 99 - 1


def test_used_cards_stay_out_for_the_round() -> None:
    # §05: the dealt cards do not come back during the round.
    state = play(new(players=2), "7C", "5C", "8D", "pass")
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 49
    assert all(p == Fraction(1, 49) for p in outcomes.values())
    assert not {"7C", "5C", "8D"} & {str(c) for c in outcomes}


def test_after_the_dealers_turn_deck_is_reshuffled_and_deal_passes_left() -> None:
    # §05: after the dealer's turn the deck is collected, the deal passes left, reshuffle.
    state = play(new(players=2), "7C", "5C", "8D", "pass", "9D", "pass")
    assert state.round == 2 and state.dealer == 1
    assert len(state.chance_outcomes()) == 52
    assert state.chips == (98, 98) and state.pot == 4
    state = play(state, "2C")  # the dealer is seat 1 now: seat 0 is first
    assert state.observation(0)["first_cards"] == ["2C", None]


def test_a_bet_that_empties_the_pot_ends_the_session_at_once() -> None:
    # §06: pot 2; seat 1 stakes 2 on 2-A and the 7 comes: the pot is empty, the session ends
    # before the dealer's turn.
    state = play(new(players=2), "2C", "3C", "AC", "bet 2", "7H")
    assert state.current_player() == TERMINAL
    assert state.pot == 0
    assert state.returns() == (Fraction(-1), Fraction(1))
    assert state.winners() == (1,)


def test_session_ends_after_three_complete_rounds_and_ties_share_victory() -> None:
    # §02/§06: at most 3 complete rounds; the pot of 6 splits 3 and 3; equal balances share.
    state = new(players=2)
    for _ in range(3):
        assert not state.is_terminal()
        state = play(state, "2C", "3C", "4C", "pass", "5C", "pass")
    assert state.is_terminal()
    assert state.round == 3 and state.pot == 6 and state.chips == (97, 97)
    assert state.returns() == (Fraction(0), Fraction(0))
    assert state.winners() == (0, 1)
    obs = state.observation(0)
    assert obs["outcome"]["winners"] == [0, 1] and obs["outcome"]["returns"] == ["0", "0"]
    assert obs["outcome"]["termination"] == "session.rounds_played"
    assert obs["outcome"]["params"] == {"count": 3}


def test_unpayable_ante_ends_the_session_before_new_contributions() -> None:
    # §06: 4 chips each.  Round 1: seat 1 stakes 1 on 3-K and hits the K post (-2);
    # round 2 takes its last chip; before round 3 it cannot ante: stop and split the pot.
    state = play(new(players=2, starting_chips=4), "3C", "5C", "KD", "bet 1", "KH", "9C", "pass")
    assert state.chips == (2, 0) and state.pot == 6
    state = play(state, "2C", "3D", "AD", "pass", "4H", "pass")
    assert state.is_terminal()
    assert state.termination() == ("session.cannot_ante", {"seat": 1, "ante": 1})
    assert render_error(*state.termination()) == "seat 2 cannot pay the ante of 1"  # from 1
    assert render_error(*state.termination(), "pt") == "o lugar 2 não pode pagar o ante de 1"
    assert state.pot == 6 and state.chips == (2, 0)  # nobody paid the third ante
    assert state.returns() == (Fraction(5 - 4), Fraction(3 - 4))


def test_remaining_pot_divides_equally_in_exact_fractions() -> None:
    # §06: one round of three players; seat 1 hits a post (-2): pot 5 splits 5/3 each.
    state = play(
        new(players=3, rounds=1), "2C", "3C", "4C", "AD", "bet 1", "AH", "5D", "pass", "6D", "pass"
    )
    assert state.is_terminal() and state.pot == 5
    third = Fraction(5, 3)
    assert state.returns() == (99 + third - 100, 97 + third - 100, 99 + third - 100)
    assert sum(state.returns()) == 0
    assert state.winners() == (0, 2)


def test_two_to_eight_players_and_a_52_card_deck() -> None:
    # §02: the deck is 52 cards without jokers.
    state = new(players=8)
    assert len(state.chance_outcomes()) == 52
    assert sum(p for _, p in state.chance_outcomes()) == 1


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_observation_never_shows_the_deck(seat: int) -> None:
    state = play(new(players=3), "2C", "3C", "4C")
    obs = state.observation(seat)
    assert "deck" not in obs and "dealt" not in obs
    assert obs["seen"] == ["2C", "3C", "4C"]


class Script:
    """A seat that plays the given decisions in order."""

    def __init__(self, *decisions: str) -> None:
        self.decisions = list(decisions)

    def act(self, observation: dict[str, object]) -> str:
        return self.decisions.pop(0)


def test_worked_example_at_a_table_with_a_stacked_deck() -> None:
    # Seed 000 §07 again, run by a Table with the deck stacked: 4♣ to seat 1, fillers, Q♦,
    # then 9♥.  The record replays to the same state.
    from aceydeucey import Stacked, Table, replay

    state = new(**EXAMPLE)
    agents = [Script() for _ in range(5)]
    agents[1] = Script("bet 2")
    table = Table(state.game, agents, chance=Stacked(["4C", *FILL, "QD", "9H"]))
    for _ in range(len(FILL) + 4):
        table.step()
    after = table.state
    assert after.chips[1] == 100 and after.pot == 8  # type: ignore[attr-defined]
    assert table.record.actions[-2:] == ["bet 2", "9H"]
    assert replay(table.record) == after


def test_a_finished_players_cards_are_discarded_waiting_first_cards_stay() -> None:
    # §05: "Discard a finished player's cards without touching first cards of players still
    # waiting."
    state = play(new(players=3), "5C", "6C", "7C", "KD", "pass")
    assert state.observation(0)["first_cards"] == ["7C", None, "6C"]
