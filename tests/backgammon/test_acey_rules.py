"""Acey-Deucey (BKGM, seed 002) rule by rule, each situation drawn from the mover's side.

Boards in comments show points 24..13 on the top row and 1..12 on the bottom
row, as the side on roll (X) numbers them; O is the opponent.  ``in`` is the
stock of never-entered checkers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
from aceydeucey.core.game import CHANCE, TERMINAL
from aceydeucey.core.registry import load_game
from tests.backgammon.bg_helpers import play, texts


def game(**options: Any) -> BackgammonGame:
    made = load_game("backgammon", **options)
    assert isinstance(made, BackgammonGame)
    return made


ACEY = game()


def at(position: Position, dice: tuple[int, int], g: BackgammonGame = ACEY) -> BackgammonState:
    return g.new_state(position=position, dice=dice)


# -- setup and entering ---------------------------------------------------------------


def test_all_fifteen_start_off_the_board() -> None:
    # Setup: each player starts with fifteen checkers off the board.
    start = ACEY.new_initial_state()
    assert start.position.unentered == (15, 15)
    assert all(n == 0 for n in start.position.points)
    assert start.current_player() == CHANCE


def test_entering_on_the_opponents_home_board_points_named_by_the_dice() -> None:
    # BKGM's example: 6-3 enters one checker on the opponent's 6-point (our 19) and one on
    # his 3-point (our 22); or one checker enters and moves on with the other die.
    state = at(Position.build({}, {}, unentered=(15, 15)), (6, 3))
    assert texts(state) == {"in/22 in/19", "in/16"}
    entered = state.apply("in/19 in/22")
    assert isinstance(entered, BackgammonState)
    seen_by_mover = entered.view(0)
    assert seen_by_mover.points[18] == 1 and seen_by_mover.points[21] == 1
    assert seen_by_mover.unentered == (13, 15)


def test_entering_lands_only_on_open_points_and_hits_a_blot() -> None:
    #  24 23 22 21 20 19
    #   .  .  O2 .  .  O1     X: 15 in; O holds 22 and has a blot on 19
    # Roll 6-3: the 3 cannot enter (22 is closed); the 6 enters on 19, hitting,
    # and the same checker must then play the 3 (both dice must be used).
    position = Position.build({}, {22: 2, 19: 1}, unentered=(15, 12))
    state = at(position, (6, 3))
    assert texts(state) == {"in/19*/16"}
    after = state.apply("in/19*/16")
    assert isinstance(after, BackgammonState)
    assert after.view(0).bar == (0, 1)


def test_entering_and_moving_may_be_mixed() -> None:
    # Once a checker is on the board, later rolls may move it, enter more, or both.
    position = Position.build({13: 1}, {}, unentered=(14, 15))
    state = at(position, (5, 4))
    assert {"13/4", "in/21 13/8", "in/21 in/20", "in/20 13/9"} <= texts(state)


def test_only_one_die_playable_must_be_the_higher() -> None:
    #  24 23 22 21 20 19   18 17 16 15 14 13      X: one checker on 20, 14 in
    #  O2 O2 O2 O2 X1 O2    .  .  .  .  .  .      O: closes 19, 21-24 and 10
    #   1  2  3  4  5  6    7  8  9 10 11 12
    #   .  .  .  .  .  .    .  .  . O2  .  .
    # Roll 6-4: 20/14 or 20/16 alone, never both (10 is closed): the 6 must be played.
    position = Position.build(
        {20: 1}, {24: 2, 23: 2, 22: 2, 21: 2, 19: 2, 10: 2}, unentered=(14, 3)
    )
    assert texts(at(position, (6, 4))) == {"20/14"}
    free = game(must_play_higher_die=False)
    assert texts(at(position, (6, 4), free)) == {"20/14", "20/16"}


# -- the acey-deucey (1-2) chain ----------------------------------------------------------


def test_the_whole_one_two_chain_then_a_second_one_two() -> None:
    # Play the 1 and 2, name a double and play it, roll again; a second 1-2 repeats it.
    state = play(ACEY.new_initial_state(), "opening 5-3", "2-1")
    assert state.current_player() == 0
    state = play(state, "in/24 in/23")
    assert state.phase == "double" and state.current_player() == 0
    assert texts(state) == {f"double {d}" for d in range(1, 7)}
    state = play(state, "double 6")
    assert state.dice == (6, 6, 6, 6)
    assert state.observation(0)["pending_double"] == 6
    state = play(state, "in/19(4)")
    assert state.current_player() == CHANCE and state.mover == 0  # the same player rolls again
    assert state.observation(0)["reroll_pending"] is True
    state = play(state, "2-1", "in/24 in/23")
    assert state.phase == "double" and state.chain == 2
    state = play(state, "double 5", "in/20(4)", "3-1")
    assert state.mover == 0 and state.phase == "play"
    state = play(state, "24/21 24/23")
    assert state.mover == 1 and state.chain == 0 and state.current_player() == CHANCE


def test_one_two_only_partly_playable_ends_the_turn() -> None:
    #  24 23 22 21 20 19
    #  O2  .  O2 .  .  .      X: 15 in.  The 1 cannot enter (24 closed); after the 2
    # enters on 23 the 1 cannot move it (22 closed): the 2 alone is played, no double
    # may be named and there is no new roll.
    position = Position.build({}, {24: 2, 22: 2}, unentered=(15, 11))
    state = at(position, (2, 1))
    assert texts(state) == {"in/23"}
    after = play(state, "in/23")
    assert after.phase == "roll" and after.mover == 1


def test_named_double_partly_playable_loses_the_rest_and_the_reroll() -> None:
    #  24 23 22 21 20 19   18 17 16 15 14 13
    #   .  .  .  .  X3 O2  O2 O2  .  .  .  .     X: 3 on 20, 12 in
    #   1 .. 7  8                                O: closes 19, 18, 17 and 8
    # After 1-2 (in/24 in/23), naming 6-6 allows only three 6s (20/14 x3; 14/8 is
    # closed, 24/18 and 23/17 too, entering on 19 too): the fourth 6 and the roll are lost.
    position = Position.build({20: 3}, {19: 2, 18: 2, 17: 2, 8: 2}, unentered=(12, 7))
    state = play(at(position, (2, 1)), "in/24 in/23", "double 6")
    assert texts(state) == {"20/14(3)"}
    after = play(state, "20/14(3)")
    assert after.phase == "roll" and after.mover == 1


def test_bar_checkers_enter_first_as_many_as_can_then_the_roll_is_lost() -> None:
    #  24 23 22 21 20 19        X: 2 on the bar, 5 on 13, 8 in
    #   .  .  .  O2 O2 O2       O: closes 19, 20, 21
    # Roll 6-3: one checker enters on 22; the other stays on the bar, so the 6 is lost
    # (nothing else may move while a checker is on the bar).
    position = Position.build({13: 5}, {21: 2, 20: 2, 19: 2}, bar=(2, 0), unentered=(8, 9))
    state = at(position, (6, 3))
    assert texts(state) == {"bar/22"}


def test_unentered_checkers_block_bearing_off() -> None:
    # X: 14 checkers in the home board and one never entered: no bearing off yet.
    home = {6: 4, 5: 4, 4: 3, 3: 3}
    waiting = Position.build(home, {}, unentered=(1, 15))
    assert not any("off" in t for t in texts(at(waiting, (6, 5))))
    all_in = Position.build(home, {}, unentered=(0, 15), off=(1, 0))
    assert "6/off 5/off" in texts(at(all_in, (6, 5)))
    lenient = game(bearoff_requires_all_entered=False)
    assert any("off" in t for t in texts(at(waiting, (6, 5), lenient)))


def test_loser_pays_one_point_per_checker_not_borne_off_counting_unentered() -> None:
    # X bears off the last checker; O has 4 on the board, 3 never entered, 8 off: O pays 7.
    position = Position.build({1: 1}, {20: 4}, unentered=(0, 3), off=(14, 8))
    over = play(at(position, (3, 1)), "1/off")
    assert over.current_player() == TERMINAL
    assert over.returns() == (Fraction(7), Fraction(-7))
    assert over.observation(1)["winner"] == 0


def test_scoring_options_single_and_gammons() -> None:
    # Same finish: 'single' pays 1; 'gammons' pays 1 as O has borne off checkers.
    position = Position.build({1: 1}, {20: 4}, unentered=(0, 3), off=(14, 8))
    assert play(at(position, (3, 1), game(scoring="single")), "1/off").returns()[0] == 1
    assert play(at(position, (3, 1), game(scoring="gammons")), "1/off").returns()[0] == 1
    # O has borne off nothing: a gammon (2); with checkers still unentered: backgammon (3).
    gammon = Position.build({1: 1}, {20: 15}, off=(14, 0))
    assert play(at(gammon, (3, 1), game(scoring="gammons")), "1/off").returns()[0] == 2
    back = Position.build({1: 1}, {20: 14}, unentered=(0, 1), off=(14, 0))
    assert play(at(back, (3, 1), game(scoring="gammons")), "1/off").returns()[0] == 3
