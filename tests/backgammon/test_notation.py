"""Move notation both ways, state IDs, observations, and precise errors on bad input."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon.board import BAR, OFF, STOCK, Position
from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
from aceydeucey.backgammon.notation import (
    DoubleChoice,
    Move,
    Opening,
    Roll,
    Steps,
    format_moves,
    parse_action_text,
    parse_moves,
)
from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import (
    ActionSyntaxError,
    ArgumentError,
    IllegalActionError,
    OutOfTurnError,
)
from aceydeucey.core.registry import load_game
from aceydeucey.core.table import Table

VARIANTS = ["acey-deucey", "classic", "longgammon", "dutch"]


def classic() -> BackgammonGame:
    made = load_game("backgammon", variant="classic")
    assert isinstance(made, BackgammonGame)
    return made


def acey() -> BackgammonGame:
    made = load_game("backgammon")
    assert isinstance(made, BackgammonGame)
    return made


START_ID = "4HPwATDgc/ABMA"


# -- text both ways ---------------------------------------------------------------------


def test_move_text_forms() -> None:
    assert str(Move(13, 7, True)) == "13/7*"
    assert str(Move(BAR, 22)) == "bar/22"
    assert str(Move(STOCK, 22)) == "in/22"
    assert str(Move(6, OFF)) == "6/off"
    assert parse_moves("8/5(2) 6/5(2)") == (Move(8, 5),) * 2 + (Move(6, 5),) * 2
    assert parse_moves("24/18*/13") == (Move(24, 18, True), Move(18, 13))
    assert parse_moves("BAR/22 in/20 6/OFF") == (Move(BAR, 22), Move(STOCK, 20), Move(6, OFF))
    assert parse_moves("pass") == ()


def test_canonical_play_text_chains_one_checker_and_counts_repeats() -> None:
    assert format_moves([Move(24, 18), Move(18, 13)]) == "24/13"
    assert format_moves([Move(24, 18, True), Move(18, 13)]) == "24/18*/13"
    assert format_moves([Move(6, 5), Move(8, 5), Move(6, 5), Move(8, 5)]) == "8/5(2) 6/5(2)"
    assert format_moves([]) == "pass"


def test_other_actions_text_both_ways() -> None:
    assert parse_action_text("1-3") == Roll(3, 1) and str(Roll(3, 1)) == "3-1"
    assert parse_action_text("opening 2-5") == Opening(2, 5) and Opening(2, 5).first == 1
    assert parse_action_text("Double 6") == DoubleChoice(6) and str(DoubleChoice(6)) == "double 6"
    assert parse_action_text("13/7") == Steps((Move(13, 7),))
    # repr is code that rebuilds the value
    assert eval(repr(Roll(6, 6))) == Roll(6, 6)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty move"),
        ("hello", "not a move"),
        ("13-7", "dice are 1 to 6"),
        ("13/25", "not on the board"),
        ("7/13", "backwards"),
        ("off/3", "cannot start from 'off'"),
        ("13/bar", "cannot end"),
        ("double 7", "from 1 to 6"),
        ("opening 3-3", "cannot be a tie"),
        ("8/5(9)", "repeat count must be 1 to 4"),
    ],
)
def test_malformed_text_raises_syntax_errors(text: str, message: str) -> None:
    with pytest.raises(ActionSyntaxError, match=message):
        parse_action_text(text)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), variant=st.sampled_from(VARIANTS))
def test_every_legal_play_parses_back_from_its_text(seed: int, steps: int, variant: str) -> None:
    # str(play) is canonical and parse_action is its inverse, for every legal play.
    game = load_game("backgammon", variant=variant)
    table = Table(game, [RandomAgent(seed), RandomAgent(seed + 1)], chance=Seeded(seed))
    table.play(max_steps=steps)
    state = table.state
    for play in state.legal_actions():
        assert state.parse_action(str(play)) == play
        assert len({str(p) for p in state.legal_actions()}) == len(state.legal_actions())


def test_equivalent_spellings_give_the_same_play() -> None:
    state = classic().new_state(position_id=START_ID, dice=(6, 5))
    assert state.parse_action("24/13") == state.parse_action("24/18 18/13")
    assert state.parse_action("24/18/13") == state.parse_action("24/13")
    assert state.parse_action("8/3 13/7") == state.parse_action("13/7 8/3")


def test_a_whole_move_through_a_blot_is_read_literally() -> None:
    # O has a blot on our 18: 24/18*/13 hits, 24/13 (via 19) does not.
    position = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {18: 1, 1: 14})
    state = classic().new_state(position=position, dice=(6, 5))
    hit = state.parse_action("24/18*/13")
    quiet = state.parse_action("24/13")
    assert hit != quiet
    assert isinstance(hit, type(quiet))
    assert str(hit) == "24/18*/13" and str(quiet) == "24/13"


# -- illegal plays: precise messages, state unchanged -----------------------------------------


def test_illegal_plays_name_the_problem() -> None:
    state = classic().new_state(position_id=START_ID, dice=(6, 5))
    before = state.state_id()
    with pytest.raises(IllegalActionError, match="13/7: point 7 is closed") as closed:
        closed_pos = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {7: 2, 1: 13})
        classic().new_state(position=closed_pos, dice=(6, 5)).parse_action("13/7 13/8")
    assert closed.value is not None
    with pytest.raises(IllegalActionError, match="no checker on point 9"):
        state.parse_action("9/3 9/4")
    with pytest.raises(IllegalActionError, match="you must play both dice"):
        state.parse_action("13/7")
    with pytest.raises(IllegalActionError, match="you cannot pass"):
        state.parse_action("pass")
    # 6-5 moves one checker 5, 6 or 11 pips, never 4.
    with pytest.raises(IllegalActionError, match="13/9: that is 4 pips, but the dice are 6-5"):
        state.parse_action("13/9 13/7")
    # Each step uses up its dice: after 13/7 only the 5 is left.
    with pytest.raises(IllegalActionError, match="8/2: that is 6 pips, but the dice left are 5"):
        state.parse_action("13/7 8/2")
    assert state.state_id() == before


def test_enter_from_the_bar_first() -> None:
    position = Position.build({13: 5, 8: 3, 6: 5}, {1: 15}, bar=(2, 0))
    state = classic().new_state(position=position, dice=(6, 5))
    with pytest.raises(IllegalActionError, match="enter from the bar first"):
        state.parse_action("13/7 13/8")


def test_higher_die_message() -> None:
    # Only one die can be played and it must be the 6 (see test_acey_rules for the board).
    position = Position.build(
        {20: 1}, {24: 2, 23: 2, 22: 2, 21: 2, 19: 2, 10: 2}, unentered=(14, 3)
    )
    state = acey().new_state(position=position, dice=(6, 4))
    with pytest.raises(IllegalActionError, match=r"higher die \(6\)"):
        state.parse_action("20/16")


def test_actions_out_of_phase_and_out_of_turn() -> None:
    start = acey().new_initial_state()
    with pytest.raises(IllegalActionError, match="no checkers move now"):
        start.parse_action("13/7")
    with pytest.raises(IllegalActionError, match="not a possible outcome"):
        start.apply("3-1")
    rolled = start.apply("opening 6-1")
    with pytest.raises(OutOfTurnError, match="seat 2 cannot act now"):
        rolled.apply("3-1", seat=1)
    with pytest.raises(IllegalActionError, match="no double is to be named"):
        rolled.apply("3-1").apply("double 6")


# -- IDs and observations ------------------------------------------------------------------


def test_position_id_of_the_start_and_from_id() -> None:
    assert Position.from_position_id(START_ID) == classic().start_position()
    with pytest.raises(ArgumentError, match="14 base64 characters"):
        Position.from_position_id("4HPwATDgc")


def test_state_id_round_trip_and_errors() -> None:
    state = acey().new_initial_state().apply("opening 6-1").apply("2-1")
    assert isinstance(state, BackgammonState)
    assert state.state_id().startswith("BG1-")
    assert acey().new_state(state_id=state.state_id()) == state
    with pytest.raises(ArgumentError, match="starts with 'BG1-'"):
        acey().new_state(state_id="XX")
    with pytest.raises(ArgumentError, match="wrong length"):
        acey().new_state(state_id="BG1-AAAA")


def test_observation_is_json_ready_and_from_the_seats_side() -> None:
    state = acey().new_initial_state().apply("opening 6-1").apply("6-3").apply("in/22 in/19")
    assert isinstance(state, BackgammonState)
    mover_view = state.observation(0)
    other_view = state.observation(1)
    json.dumps(mover_view)
    assert mover_view["points"][18] == 1 and other_view["points"][5] == -1
    assert mover_view["unentered"] == [13, 15] and other_view["unentered"] == [15, 13]
    assert other_view["current_player"] == -1  # the next roll is chance's
    assert mover_view["last_event"]["play"] == "in/22 in/19"
    for key in ("bar", "off", "dice", "pending_double", "reroll_pending", "pip", "seat"):
        assert key in mover_view
    assert mover_view["pip"] == [25 * 13 + 19 + 22, 25 * 15]
    assert other_view["legal_actions"] == [] and mover_view["legal_actions"] == []
    assert isinstance(str(state), str) and "unentered" in str(state)
