"""One test per rule of seed 004 (Aces in the Pot), each situation told in its comment.

Seats are numbered clockwise; "left" of seat i is seat i + 1.  ``state_at``
sets up a position by hand: chips per seat, the pot, the seat to roll.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from aceydeucey import RulesError, load_game
from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
from aceydeucey.core.chance import Seeded, Stacked
from aceydeucey.core.session import play_session


def game(players: int = 4, **options: object) -> AcesInThePotGame:
    g = load_game("aces-in-the-pot", players=players, **options)
    assert isinstance(g, AcesInThePotGame)
    return g


def throw(state: AcesInThePotState, *rolls: str) -> AcesInThePotState:
    for roll in rolls:
        nxt = state.apply(roll)
        assert isinstance(nxt, AcesInThePotState)
        state = nxt
    return state


# -- setting up -------------------------------------------------------------------
def test_every_player_takes_two_chips_and_the_pot_starts_empty() -> None:
    # "Every player takes two chips, and the middle of the table is left clear for the pot."
    state = game(5).new_initial_state()
    assert state.chips == (2, 2, 2, 2, 2)
    assert state.pot == 0


def test_three_to_twelve_players_and_the_range_is_stated_on_both_sides() -> None:
    # "It works with three players, though four or more is better."  The range message
    # names both bounds (it once said "out of range -inf..12").
    for players in (2, 13):
        with pytest.raises(RulesError, match=r"from 3 to 12"):
            game(players)
    assert game(3).num_players == 3
    assert game(12).num_players == 12


def test_the_highest_single_die_goes_first() -> None:
    # "roll a single die each and let the highest number go first": seats roll 2, 5, 3, 1.
    state = throw(game(4).new_initial_state(), "die 2", "die 5", "die 3", "die 1")
    assert state.phase == "play"
    assert state.roller == 1


def test_ties_among_the_highest_roll_again() -> None:
    # Seats 0 and 2 both roll a 6 (seat 1 a 4): only seats 0 and 2 roll again, and seat 2's
    # 5 beats seat 0's 3, so seat 2 starts.
    state = throw(game(3).new_initial_state(), "die 6", "die 4", "die 6")
    assert state.phase == "roll-off"
    assert state.rolloff == (0, 2)
    assert state.roller == 0
    state = throw(state, "die 3", "die 5")
    assert (state.phase, state.roller) == ("play", 2)


def test_play_then_moves_to_the_left() -> None:
    # "From there play moves to the left for the rest of the game": after seat 3 of 4, seat 0.
    state = game(4).first_turn(2)
    state = throw(state, "5-3")
    assert state.roller == 3
    state = throw(state, "4-2")
    assert state.roller == 0


# -- settling a throw ------------------------------------------------------------------
def test_every_one_puts_a_chip_into_the_pot() -> None:
    # "Every one puts a chip of yours into the pot": seat 0 rolls 3-1.
    state = throw(game(4).first_turn(0), "3-1")
    assert state.chips == (1, 2, 2, 2)
    assert state.pot == 1


def test_every_six_hands_a_chip_to_the_left() -> None:
    # "Every six hands a chip to the player on your left": seat 1 rolls 6-3, seat 2 gets it.
    state = throw(game(4).first_turn(1), "6-3")
    assert state.chips == (2, 1, 3, 2)
    assert state.pot == 0


def test_nothing_happens_on_any_other_number() -> None:
    # "Nothing at all happens on any other number": 5-3 moves no chip.
    before = game(4).first_turn(0)
    after = throw(before, "5-3")
    assert after.chips == before.chips and after.pot == before.pot
    assert after.last_event is not None and after.last_event.to_pot == after.last_event.to_left == 0


def test_one_six_costs_two_chips_and_clears_out_a_two_chip_player() -> None:
    # "A roll of 1-6 costs you two chips, one to the pot and one to your neighbour, which
    # clears you out if you still had only the two you started with."
    state = throw(game(4).first_turn(0), "6-1")
    assert state.chips == (0, 3, 2, 2)
    assert state.pot == 1


def test_double_ones_put_two_chips_in_the_pot() -> None:
    # "Double ones put two chips in the pot."
    state = throw(game(4).first_turn(0), "1-1")
    assert state.chips == (0, 2, 2, 2)
    assert state.pot == 2


def test_double_sixes_send_two_chips_to_the_left() -> None:
    # "double sixes send two chips to the left."
    state = throw(game(4).first_turn(0), "6-6")
    assert state.chips == (0, 4, 2, 2)


def test_six_six_with_one_chip_hands_over_the_one_and_the_rest_is_unpaid() -> None:
    # "If you are down to a single chip when such a throw lands, you hand over the one you
    # have and the rest of the throw goes unpaid."  Seat 0 holds 1 chip and rolls 6-6.
    g = game(4)
    state = throw(g.state_at((1, 2, 2, 2), 1, 0), "6-6")
    assert state.chips == (0, 3, 2, 2)
    assert state.pot == 1
    assert state.last_event is not None and state.last_event.unpaid == 1


def test_one_one_with_one_chip_pays_one_chip_only() -> None:
    # Same sentence, double ones: seat 0 holds 1 chip and rolls 1-1: one chip to the pot.
    state = throw(game(4).state_at((1, 2, 2, 2), 1, 0), "1-1")
    assert state.chips == (0, 2, 2, 2)
    assert state.pot == 2


def test_one_chip_and_an_ace_and_a_six_sends_the_chip_to_the_pot() -> None:
    # "With one chip and a roll showing both an ace and a six, the chip goes to the pot."
    state = throw(game(4).state_at((1, 2, 2, 2), 1, 0), "6-1")
    assert state.chips == (0, 2, 2, 2)
    assert state.pot == 2


def test_an_empty_seat_is_skipped_but_keeps_its_seat() -> None:
    # "You miss your rolls while you have nothing to pay with, but you keep your seat":
    # seat 1 holds nothing, so after seat 0 rolls the dice go to seat 2.
    state = throw(game(4).state_at((2, 0, 2, 2), 2, 0), "5-4")
    assert state.roller == 2
    assert state.last_event is not None and state.last_event.skipped == (1,)


def test_a_six_from_the_right_brings_an_empty_seat_back() -> None:
    # "the player on your right can hand you a chip with their next six and put you
    # straight back in": seat 1 is empty and is skipped for a whole round; then seat 0 rolls
    # 6-2, seat 1 has a chip again and rolls next.
    state = throw(game(4).state_at((2, 0, 2, 2), 2, 0), "5-4", "3-2", "4-3")
    assert state.roller == 0 and state.chips[1] == 0
    state = throw(state, "6-2")
    assert state.chips == (1, 1, 2, 2)
    assert state.roller == 1
    assert state.last_event is not None and state.last_event.skipped == ()


def test_with_three_players_five_chips_reach_the_pot_before_the_finish() -> None:
    # "Three players hold six chips between them, and five of those have to reach the pot
    # before anyone can play for the win."  Seat 0 rolls 1-1, seat 1 3-1, seat 2 3-1: four
    # chips in the pot and play goes on (seat 0, empty, is skipped); seat 1's 4-1 makes five
    # and seat 2, holding the sixth, plays the finish.
    state = throw(game(3).first_turn(0), "1-1", "3-1", "3-1")
    assert (state.pot, state.phase, state.chips) == (4, "play", (0, 1, 1))
    assert state.roller == 1
    state = throw(state, "4-1")
    assert (state.pot, state.phase, state.holder) == (5, "finish", 2)


def test_the_last_chip_never_goes_to_the_pot() -> None:
    # "every chip but one sits in the pot, and that final chip is not allowed to follow":
    # seat 2 holds the last two chips in play and rolls 1-1: only one goes to the pot.
    state = throw(game(3).state_at((0, 0, 2), 4, 2), "1-1")
    assert state.chips == (0, 0, 1)
    assert state.pot == 5
    assert (state.phase, state.holder, state.roll_number) == ("finish", 2, 1)
    assert state.last_event is not None and state.last_event.kept == 1


def test_an_ace_and_a_six_on_the_last_two_chips_start_the_neighbours_finish() -> None:
    # The throw is settled in full before the finish starts: seat 2 holds the last two
    # chips and rolls 6-1: one to the pot, one to seat 0, who then holds the last chip.
    state = throw(game(3).state_at((0, 0, 2), 4, 2), "6-1")
    assert state.chips == (1, 0, 0)
    assert (state.phase, state.holder) == ("finish", 0)


# -- the finish -------------------------------------------------------------------
def finish_state(players: int = 4, holder: int = 0) -> AcesInThePotState:
    chips = tuple(1 if s == holder else 0 for s in range(players))
    return game(players).state_at(chips, 2 * players - 1, holder, phase="finish")


def test_three_rolls_without_a_six_win_the_pot() -> None:
    # "three rolls of both dice, and not one of them may show a six ... you win the pot,
    # which ends the game."
    state = throw(finish_state(), "5-4", "3-2", "4-4")
    assert state.is_terminal()
    assert state.winner == 0
    assert state.returns() == (Fraction(6), Fraction(-2), Fraction(-2), Fraction(-2))


def test_aces_count_for_nothing_during_the_attempt() -> None:
    # "Aces count for nothing during the attempt, so the pot is out of the picture."
    state = throw(finish_state(), "1-1")
    assert (state.pot, state.chips[0], state.roll_number) == (7, 1, 2)


def test_a_six_ends_the_attempt_and_the_chip_goes_left() -> None:
    # "A six ends the attempt there and then, and the chip and the dice go to the player on
    # your left, who tries the same three rolls."
    state = throw(finish_state(), "5-4", "6-2")
    assert state.chips == (0, 1, 0, 0)
    assert (state.holder, state.roll_number) == (1, 1)


def test_the_worked_example_falls_at_the_final_hurdle() -> None:
    # "Roll 4-2, then 5-3, then 6-1, and you fall at the final hurdle and pass the chip on."
    state = throw(finish_state(), "4-2", "5-3")
    assert state.roll_number == 3
    state = throw(state, "6-1")
    assert (state.phase, state.holder, state.pot) == ("finish", 1, 7)


def test_the_finish_passes_round_the_whole_table() -> None:
    # "Round the table it goes until somebody manages it": each of the 4 seats fails in
    # turn (seats without chips too), the chip comes back to seat 0, who then succeeds.
    state = throw(finish_state(4, holder=0), "6-3", "2-2", "6-5", "6-6", "3-2", "4-1", "6-1")
    assert (state.holder, state.roll_number) == (0, 1)
    state = throw(state, "2-1", "3-3", "5-5")
    assert state.winner == 0


def test_the_winner_collects_the_pot() -> None:
    # "the winner collects whatever has piled up in the middle": net result is the pot
    # (7 chips) plus the last chip, less the 2 the winner put in; the others lose their 2.
    state = throw(finish_state(4, holder=3), "2-2", "3-3", "4-4")
    assert state.returns() == tuple(map(Fraction, (-2, -2, -2, 6)))
    assert sum(state.returns()) == 0


# -- several games ------------------------------------------------------------------
def test_a_session_tallies_pots_and_everyone_starts_level() -> None:
    # "write down how many pots each player has won ... Everyone then begins level each time".
    session = play_session(game(3), 4, chance=Seeded(7))
    assert sum(session.wins) == 4
    assert session.games == 4
    for record in session.records:
        assert record.actions[0].startswith("die")  # every game opens with its own roll-off
        assert record.result is not None
        returns = [Fraction(r) for r in record.result["returns"]]
        assert sorted(returns) == [-2, -2, 4]


# -- the variant ---------------------------------------------------------------------
def test_one_holder_finish_starts_with_several_chips_in_one_hand() -> None:
    # Seed 004, Variants: the finish starts once only one player holds chips, even several.
    # Seat 0 hands its last chip to seat 1 (6-5) who then holds all four chips in play.
    state = throw(game(3, finish="one-holder").state_at((1, 3, 0), 2, 0), "6-5")
    assert state.chips == (0, 4, 0)
    assert (state.phase, state.holder) == ("finish", 1)


def test_one_holder_six_passes_one_chip_and_play_resumes() -> None:
    # A six in a several-chip finish: one chip and the dice go left, two players hold chips,
    # so normal play resumes with the neighbour rolling (family-games-treasurehouse reading).
    g = game(3, finish="one-holder")
    state = throw(g.state_at((0, 4, 0), 2, 1, phase="finish"), "6-2")
    assert state.chips == (0, 3, 1)
    assert (state.phase, state.roller) == ("play", 2)


def test_one_holder_clean_rolls_win_the_pot_and_the_chips_kept() -> None:
    # Three rolls without a six: the holder wins the pot and keeps the chips they hold.
    g = game(3, finish="one-holder")
    state = throw(g.state_at((0, 4, 0), 2, 1, phase="finish"), "1-1", "2-3", "5-4")
    assert state.winner == 1
    assert state.returns() == tuple(map(Fraction, (-2, 4, -2)))


def test_stacked_chance_plays_a_whole_game_through_the_table() -> None:
    # A full short game with given dice: roll-off, both sixes away, aces, the finish.
    from aceydeucey.core.agents import RandomAgent
    from aceydeucey.core.table import Table

    rolls = ["die 1", "die 6", "die 2", "1-1", "1-1", "2-1", "3-2", "4-3", "5-5"]
    table = Table(game(3), [RandomAgent()] * 3, chance=Stacked(rolls))
    record = table.play()
    # seat 1 starts: 1-1 (pot 2), seat 2 1-1 (pot 4), seat 0 2-1 (pot 5): seat 0 finishes
    assert record.result is not None
    assert record.result["returns"] == ["4", "-2", "-2"]
