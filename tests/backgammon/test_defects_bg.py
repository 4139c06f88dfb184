"""Defects found by the rules audit (issue 8), each pinned by a test."""

from __future__ import annotations

import pytest

from aceydeucey.backgammon import generate, moves
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import ArgumentError, IllegalActionError
from aceydeucey.core.registry import load_game

#: these tests compare the kernel with the reference: load it first (not in the background)
generate.warm_up()


def game_of(**options: object) -> BackgammonGame:
    game = load_game("backgammon", **options)
    assert isinstance(game, BackgammonGame)
    return game


# -- positions in which a side has already borne off all 15 --------------------------------


@pytest.mark.parametrize(
    "position_id",
    ["AAAAAAAAAAAAAA", "AQAAAAAAAAAAAA"],  # both sides all off; the side on roll all off
)
def test_new_state_refuses_a_side_with_all_15_off(position_id: str) -> None:
    with pytest.raises(ArgumentError) as info:
        game_of(variant="classic").new_state(position_id=position_id)
    assert info.value.code == "bg.position.all_off"
    assert "borne off all 15" in str(info.value)
    assert "15" in info.value.render("pt")


def test_new_state_refuses_a_position_with_the_opponent_all_off() -> None:
    position = Position((1,) + (0,) * 23, (0, 0), (0, 0), (14, 15))
    with pytest.raises(ArgumentError, match="the opponent has already borne off"):
        game_of(variant="classic").new_state(position=position, dice=(3, 1))


# -- bearoff_requires_all_entered=False -----------------------------------------------------

LOOSE = BackgammonRules.resolve(bearoff_requires_all_entered=False)
HOME = Position.build({6: 12, 1: 2}, {19: 15}, unentered=(1, 0))


@pytest.mark.parametrize("generator", [moves.legal_plays, generate.legal_plays])
def test_bear_off_with_the_lower_die_then_enter_with_the_higher(generator: object) -> None:
    plays = {str(p) for p in generator(HOME, (5, 1), LOOSE)}  # type: ignore[operator]
    assert "in/20 1/off" in plays
    assert len(plays) == 5


@pytest.mark.parametrize("generator", [moves.legal_plays, generate.legal_plays])
def test_doubles_bear_off_before_entering(generator: object) -> None:
    plays = {str(p) for p in generator(HOME, (1, 1, 1, 1), LOOSE)}  # type: ignore[operator]
    # entering first puts a checker on 24, outside the home board: these six bear off first
    first_off = {
        "in/22 1/off",
        "in/23 1/off(2)",
        "in/23 6/5 1/off",
        "in/24 6/4 1/off",
        "in/24 6/5 1/off(2)",
        "in/24 6/5(2) 1/off",
    }
    assert first_off <= plays
    assert len(plays) == 23
    assert plays == {str(p) for p in moves.legal_plays(HOME, (1, 1, 1, 1), LOOSE)}


def test_the_bear_off_message_follows_the_option() -> None:
    position = Position.build({7: 1, 6: 11, 1: 2}, {19: 15}, unentered=(1, 0))
    loose = game_of(bearoff_requires_all_entered=False).new_state(position=position, dice=(6, 1))
    with pytest.raises(IllegalActionError) as info:
        loose.apply("6/off 1/off")
    assert info.value.code == "bg.step.not_home_entered"
    strict = game_of().new_state(position=HOME, dice=(6, 1))
    with pytest.raises(IllegalActionError) as info:
        strict.apply("6/off in/24")
    assert info.value.code == "bg.step.not_all_entered"
    assert "still to enter" in str(info.value)
    # with the option off the same bear-off is legal
    game_of(bearoff_requires_all_entered=False).new_state(position=HOME, dice=(6, 1)).apply(
        "6/off in/24"
    )


# -- reroll_pending after a named double ----------------------------------------------------


def named(game: BackgammonGame, position: Position, value: int) -> BackgammonState:
    return BackgammonState(game, "play", 0, position, (value,) * 4, "named")


BLOCKED = Position.build({24: 14, 13: 1}, {18: 5, 17: 5, 16: 5})


def test_reroll_pending_is_false_when_the_named_double_cannot_be_played_in_full() -> None:
    game = game_of()
    partial = named(game, BLOCKED, 6)
    assert all(p.unused for p in partial.plays)  # only 13/7/1: two of the four sixes
    assert partial.observation(0)["reroll_pending"] is False
    after = partial.apply(partial.plays[0])
    assert after.mover == 1  # indeed no reroll followed
    full = named(game, BLOCKED, 1)
    assert full.observation(0)["reroll_pending"] is True
    lenient = named(game_of(acey_reroll_requires_full_doubles=False), BLOCKED, 6)
    assert lenient.observation(0)["reroll_pending"] is True


# -- acey_requires_both_played=False when nothing of the 1-2 can be played ------------------

STUCK = Position.build({24: 15}, {23: 5, 22: 5, 21: 5})
HALF = Position.build({24: 15}, {23: 5, 21: 5, 20: 5})


def test_a_1_2_of_which_nothing_is_played_earns_nothing() -> None:
    game = game_of(start="standard", acey_requires_both_played=False)
    state = game.new_state(position=STUCK, dice=(2, 1))
    assert [str(p) for p in state.plays] == ["pass"]
    after = state.apply("pass")
    assert after.phase == "roll" and after.mover == 1


def test_a_1_2_played_in_part_earns_the_double_when_the_option_allows() -> None:
    loose = game_of(start="standard", acey_requires_both_played=False)
    after = loose.new_state(position=HALF, dice=(2, 1)).apply("24/22")
    assert after.phase == "double" and after.mover == 0
    strict = game_of(start="standard").new_state(position=HALF, dice=(2, 1)).apply("24/22")
    assert strict.phase == "roll" and strict.mover == 1
