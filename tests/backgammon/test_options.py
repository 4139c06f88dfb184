"""Each rule option of the backgammon family, one test per option (sources in docs/backgammon.md).

Boards in comments are drawn from the side on roll (X); O is the opponent.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
from aceydeucey.core.errors import RulesError
from aceydeucey.core.game import CHANCE
from aceydeucey.core.registry import load_game
from aceydeucey.locale import option_label
from tests.backgammon.bg_helpers import play, texts


def game(**options: Any) -> BackgammonGame:
    made = load_game("backgammon", **options)
    assert isinstance(made, BackgammonGame)
    return made


def at(g: BackgammonGame, position: Position, dice: tuple[int, int]) -> BackgammonState:
    return g.new_state(position=position, dice=dice)


FRESH = Position.build({}, {}, unentered=(15, 15))


# -- variants -----------------------------------------------------------------------


def test_classic_starts_from_the_usual_position_and_plays_the_opening_dice() -> None:
    # Classic: 2 on 24, 5 on 13, 3 on 8, 5 on 6 each; the roll-off winner plays those dice.
    classic = game(variant="classic")
    start = classic.new_initial_state()
    assert start.position.pip_counts() == (167, 167)
    assert start.position_id() == "4HPwATDgc/ABMA"  # gnubg's documented starting ID
    after = play(start, "opening 3-5")
    assert after.current_player() == 1 and after.dice == (5, 3)
    assert "13/10 13/8" in texts(after)


def test_longgammon_puts_all_fifteen_on_the_24_point() -> None:
    # Seed 002 LongGammon: all 15 on "point 1" counted along the checkers' path = our 24.
    start = game(variant="longgammon").new_initial_state().position
    assert start.points[23] == 15 and start.points[0] == -15
    assert start.pip_counts() == (360, 360)


def test_dutch_enters_all_before_moving_and_hits_only_after_reaching_home() -> None:
    #  24 23 22 21 20 19
    #   .  .  .  .  . X1      X: one checker on 19, 14 in; O: 15 in
    # Dutch: 6-5 may only enter (in/20 in/19), never move the checker on 19.
    dutch = game(variant="dutch")
    position = Position.build({19: 1}, {}, unentered=(14, 15))
    assert texts(at(dutch, position, (6, 5))) == {"in/20 in/19"}
    #  19 18 17 16 15 14          1..6
    #  X15 .  .  .  .  O1         .  (no X checker home)
    # All in, O's blot on 14, no X checker home yet: 19/14* is refused (14 counts as closed).
    blot = Position.build({19: 15}, {14: 1}, unentered=(0, 14))
    assert not any("*" in t for t in texts(at(dutch, blot, (5, 3))))
    # With a checker already home (on 4), the same hit is allowed.
    homed = Position.build({19: 14, 4: 1}, {14: 1}, unentered=(0, 14))
    assert any(t.startswith("19/14*") for t in texts(at(dutch, homed, (5, 3))))


# -- turn and opening options ------------------------------------------------------------


def test_opening_reroll_both_dice_vs_use_opening_dice() -> None:
    # BKGM: the roll-off winner rolls both dice again (so doubles or 1-2 may open).
    after = play(game().new_initial_state(), "opening 6-2")
    assert after.current_player() == CHANCE and after.mover == 0
    used = play(game(opening="use_opening_dice").new_initial_state(), "opening 6-2")
    assert used.current_player() == 0 and used.dice == (6, 2)


def test_opening_outcomes_are_the_30_unequal_pairs() -> None:
    outcomes = game().new_initial_state().chance_outcomes()
    assert len(outcomes) == 30 and sum(p for _, p in outcomes) == 1
    assert {str(a) for a, _ in outcomes} >= {"opening 6-5", "opening 5-6", "opening 2-1"}


def test_entry_gate_doubles_or_acey() -> None:
    # WIKI-2008/LEE: no checker enters until a double or 1-2 is rolled; then play is free.
    g = game(entry_gate="doubles_or_acey")
    state = play(g.new_initial_state(), "opening 5-3", "5-3")
    assert texts(state) == {"pass"}
    state = play(state, "pass", "4-4")  # seat 1 qualifies
    assert "in/21(4)" in texts(state)
    state = play(state, "in/21(4)", "6-5")  # seat 0 still waiting
    assert texts(state) == {"pass"}
    state = play(state, "pass", "6-5")  # seat 1, gate passed: free play
    assert texts(state) != {"pass"}


def test_entry_gate_doubles_only_refuses_one_two() -> None:
    g = game(entry_gate="doubles_only")
    state = play(g.new_initial_state(), "opening 5-3", "2-1")
    assert texts(state) == {"pass"}
    assert play(state, "pass").mover == 1  # no bonus for an unplayed 1-2


def test_entry_gate_six() -> None:
    # Osneller's family rule: a 6 is needed to bring the first checker in.
    g = game(entry_gate="six")
    assert texts(play(g.new_initial_state(), "opening 5-3", "5-3")) == {"pass"}
    assert "in/19 in/22" not in texts(play(g.new_initial_state(), "opening 5-3", "6-3"))
    assert "in/22 in/19" in texts(play(g.new_initial_state(), "opening 5-3", "6-3"))


def test_bar_reentry_gate() -> None:
    #  24 23 22 21 20 19   13
    #   .  .  .  .  .  .   X2     X: one on the bar, 2 on 13, 12 in; O: 15 in
    # LEE: a hit checker re-enters only with doubles or 1-2: 6-5 is lost, 3-3 enters.
    g = game(bar_reentry_gate="doubles_or_acey")
    position = Position.build({13: 2}, {}, bar=(1, 0), unentered=(12, 15))
    assert texts(at(g, position, (6, 5))) == {"pass"}
    assert "bar/22 13/10 13/7" in texts(at(g, position, (3, 3)))
    assert texts(at(game(), position, (6, 5))) != {"pass"}


def test_must_enter_all_before_moving_any_entered() -> None:
    #  24 23 22 21 20 19
    #   .  .  .  .  . X1      X: one on 19, 14 in
    # WIKI-2008: while X has checkers to enter, 6-5 may not move the checker on 19.
    g = game(must_enter_all_before="moving_any_entered")
    position = Position.build({19: 1}, {}, unentered=(14, 15))
    assert texts(at(g, position, (6, 5))) == {"in/20 in/19"}
    assert "19/8" in texts(at(game(), position, (6, 5)))


def test_must_enter_all_before_passing_the_opponents_12_point() -> None:
    #  14 13 | 12 11 10
    #  X1  . |  .  .  .       X: one on 14, 14 in
    # GALT: while checkers wait to enter, none may pass the opponent's 12-point (our 13).
    g = game(must_enter_all_before="passing_opp_12pt")
    position = Position.build({14: 1}, {}, unentered=(14, 15))
    allowed = texts(at(g, position, (3, 1)))
    assert "in/22 14/13" in allowed
    assert not any(t.startswith("14/11") or t.startswith("14/10") for t in allowed)
    entered = Position.build({14: 1}, {}, unentered=(0, 15), off=(14, 0))
    assert "14/10" in texts(at(g, entered, (3, 1)))


def test_natural_doubles_extra_roll() -> None:
    # GALT/LEE: doubles fully played earn another roll; WIKI: always; BKGM: never.
    #  13 12 11 10  9  8  7
    #  X2  .  .  .  .  .  .    X: 2 on 13, 13 in; 3-3 plays 13/10(2) 10/7(2) in full
    position = Position.build({13: 2}, {}, unentered=(13, 15))
    for setting, again in (("none", False), ("if_fully_played", True), ("always", True)):
        after = play(
            at(game(natural_doubles_extra_roll=setting), position, (3, 3)), "13/10(2) 10/7(2)"
        )
        assert (after.mover == 0) is again, setting
    #  22 | 13 12 11 10  9  8  7
    #  O2 | X1  .  .  .  .  .  O2   X: 1 on 13, 14 in; O closes 22 (no entering with 3) and 7
    # Only one 3 is playable (13/10; 10/7 and entering are closed): not fully played.
    blocked = Position.build({13: 1}, {7: 2, 22: 2}, unentered=(14, 11))
    partial = at(game(natural_doubles_extra_roll="if_fully_played"), blocked, (3, 3))
    assert texts(partial) == {"13/10"}
    assert play(partial, "13/10").mover == 1
    always = at(game(natural_doubles_extra_roll="always"), blocked, (3, 3))
    assert play(always, "13/10").mover == 0


def test_doubles_plus_complement() -> None:
    # ITAVLI European: 3-3 fully played is followed by 4-4 (3 + 4 = 7).
    #  X: 2 on 13, 13 in (as above); 13/7(2) uses all four 3s.
    position = Position.build({13: 2}, {}, unentered=(13, 15))
    after = play(at(game(doubles_plus_complement=True), position, (3, 3)), "13/7(2)")
    assert after.current_player() == 0 and after.dice == (4, 4, 4, 4)
    assert after.kind == "complement"


def test_acey_requires_both_played_false_grants_the_double_anyway() -> None:
    #  24 23 22
    #  O2  . O2      X: 15 in. Only the 2 of the 1-2 can be played (as in BKGM's example).
    position = Position.build({}, {24: 2, 22: 2}, unentered=(15, 11))
    after = play(at(game(acey_requires_both_played=False), position, (2, 1)), "in/23")
    assert after.phase == "double" and after.current_player() == 0


def test_acey_doubles_rolled_is_a_chance_node() -> None:
    # link-csere: the double after a 1-2 is rolled on one die.
    after = play(at(game(acey_doubles_choice="rolled"), FRESH, (2, 1)), "in/24 in/23")
    assert after.current_player() == CHANCE
    assert [(str(a), p) for a, p in after.chance_outcomes()] == [
        (f"double {d}", Fraction(1, 6)) for d in range(6, 0, -1)
    ]


def test_acey_reroll_without_full_doubles() -> None:
    # bgammon's behaviour: a partly played named double still earns the roll.
    #  24 23 22 21 20 19 18 17 ... 8
    #   .  .  .  .  X3 O2 O2 O2    O2    X: 3 on 20, 12 in: after in/24 in/23 only three 6s
    position = Position.build({20: 3}, {19: 2, 18: 2, 17: 2, 8: 2}, unentered=(12, 7))
    g = game(acey_reroll_requires_full_doubles=False)
    after = play(at(g, position, (2, 1)), "in/24 in/23", "double 6", "20/14(3)")
    assert after.phase == "roll" and after.mover == 0


def test_unplayable_remainder_goes_to_the_opponent() -> None:
    #  24 23 22
    #  O2  . O2      X: 15 in. LEE: the 1 that X cannot play is played by O before O's roll.
    position = Position.build({}, {24: 2, 22: 2}, unentered=(15, 11))
    g = game(unplayable_remainder="to_opponent")
    after = play(at(g, position, (2, 1)), "in/23")
    assert after.current_player() == 1 and after.dice == (1,) and after.kind == "remainder"
    rolled = play(after, str(after.legal_actions()[0]))
    assert rolled.current_player() == CHANCE and rolled.mover == 1


def test_acey_chain_limit() -> None:
    # From the fresh off-board start, with a limit of 1, a second 1-2 in the same turn is an
    # ordinary roll: no double to name, the turn passes.
    g = game(acey_chain_limit=1)
    state = play(at(g, FRESH, (2, 1)), "in/24 in/23", "double 6", "in/19(4)", "2-1")
    after = play(state, "in/24 in/23")
    assert after.mover == 1


def test_bearoff_exact_only() -> None:
    #   6  5  4  3  2  1
    #   .  .  .  . X1  .      X: 1 on 2, 14 off; O: 15 on our 20
    # GALT/LEE/bgammon: a 6 cannot bear off from the 2-point.
    position = Position.build({2: 1}, {20: 15})
    assert "2/off" in texts(at(game(), position, (6, 5)))
    assert texts(at(game(bearoff_rule="exact_only"), position, (6, 5))) == {"pass"}


def test_home_board_frozen() -> None:
    #   6   5  4  3  2  1
    #  X2 X13  .  .  .  .     X: all home; 4-3 cannot bear off (6 is higher than 4)
    # LEE: checkers in the home board do not move within it.
    position = Position.build({6: 2, 5: 13}, {20: 15})
    assert "6/3 6/2" in texts(at(game(), position, (4, 3)))
    assert texts(at(game(home_board_frozen=True), position, (4, 3))) == {"pass"}


# -- validation ----------------------------------------------------------------------


def test_contradictory_options_are_rejected_naming_both() -> None:
    for options, names in (
        ({"variant": "classic", "entry_gate": "six"}, ["entry_gate", "start"]),
        (
            {"start": "standard", "must_enter_all_before": "moving_any_entered"},
            ["must_enter_all_before", "start"],
        ),
        ({"acey_deucey": False, "acey_chain_limit": 2}, ["acey_chain_limit", "acey_deucey"]),
        (
            {"unplayable_remainder": "to_opponent", "must_use_max_dice": False},
            ["unplayable_remainder", "must_use_max_dice"],
        ),
    ):
        with pytest.raises(RulesError) as err:
            game(**options)
        assert err.value.params["options"] == names
        text = str(err.value)
        assert all(option_label("backgammon", n) in text for n in names), text


def test_unknown_variant_and_option_are_rejected_listing_accepted_names() -> None:
    with pytest.raises(
        RulesError, match=r"has no “hyper”; choose one of: Acey-Deucey backgammon, Classic"
    ):
        game(variant="hyper")
    with pytest.raises(RulesError, match=r"has no option 'doubling'.*Roll to enter"):
        game(doubling=True)
    with pytest.raises(RulesError, match=r"“Roll to enter” cannot be “seven”.*A six"):
        game(entry_gate="seven")


def test_acey_deucey_off_makes_one_two_an_ordinary_roll() -> None:
    # Without the bonus (classic, Dutch), a played 1-2 simply ends the turn.
    after = play(at(game(acey_deucey=False), FRESH, (2, 1)), "in/24 in/23")
    assert after.phase == "roll" and after.mover == 1


def test_must_use_max_dice_off_allows_playing_one_die() -> None:
    #  13
    #  X1      X: one checker on 13, 14 in; 6-5 may be played in part when not forced.
    position = Position.build({13: 1}, {}, unentered=(14, 15))
    forced = texts(at(game(), position, (6, 5)))
    free = texts(at(game(must_use_max_dice=False), position, (6, 5)))
    assert "13/7" not in forced and {"13/7", "13/8", "in/19", "in/20"} <= free
    assert forced < free and "pass" not in free
