"""Match IDs are GNU Backgammon's: over random states of random matches and money games
(the cube at every value and owner, doubles pending, the Crawford game, dice in hand,
games over), the engine's ``match_id()`` equals ``gnubg.matchid`` of the same cube
and position facts, reads back to the same fields, and a state made from the Position
ID and the Match ID has both IDs again.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import aceydeucey
from aceydeucey.backgammon import match_id
from aceydeucey.backgammon.turn import CF_CRAWFORD, CF_DROPPED
from aceydeucey.core.errors import ArgumentError

gnubg = pytest.importorskip("gnubg")

OPTION_SETS = (
    {"variant": "classic", "cube": "match", "match_length": 5},
    {"variant": "classic", "cube": "match", "match_length": 3, "crawford": False},
    {"variant": "classic", "cube": "money", "max_cube": 64},
    {"variant": "longgammon", "cube": "match", "match_length": 7},
)


def random_states(options: dict[str, Any], count: int, seed: int) -> list[Any]:
    """States of random matches: every cube decision, some rolls, some plays, the ends."""
    game = aceydeucey.load_game("backgammon", **options)
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            if state.phase in ("cube", "take") or rng.random() < 0.08:
                states.append(state)
            # doubles are taken more often than dropped, so that cubes grow
            legal = [str(a) for a in state.legal_actions()]
            take = state.phase == "take" and rng.random() < 0.8
            text = "take" if take else rng.choice(legal)
            state = state.apply(text)
        if state.is_terminal():
            states.append(state)
    return states


def gnubg_match_id(state: Any) -> str:
    """gnubg's own Match ID of the state's facts, read from the state field by field."""
    rules = state.game.rules
    over = state.phase == "over"
    on_roll = 1 - state.winner if over else state.mover
    turn = 1 - state.mover if state.phase == "take" else on_roll
    game_state = (4 if state.cube_flags & CF_DROPPED else 2) if over else 1
    dice = (state.dice[0], state.dice[-1]) if state.phase == "play" else (0, 0)
    cube = gnubg.cubeinfo(
        state.cube,
        state.cube_owner,
        on_roll,
        rules.match_length or 0,
        tuple(state.match.score),
        int(bool(state.cube_flags & CF_CRAWFORD)),
        0,
    )
    cube["jacoby"] = int(rules.jacoby)
    pos = gnubg.posinfo(turn, 0, int(state.phase == "take"), game_state, dice)
    return str(gnubg.matchid(cube, pos))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_match_ids_equal_gnubgs(options: dict[str, Any]) -> None:
    states = random_states(options, 150, seed=len(str(options)))
    kinds = {s.phase for s in states}
    assert {"cube", "take", "play", "over"} <= kinds  # every situation met
    assert any(s.cube >= 4 for s in states)
    compared = 0
    for state in states:
        ours = state.match_id()
        assert match_id.encode(match_id.decode(ours)) == ours
        length = state.game.rules.match_length
        if length is not None and max(state.match.score) >= length:
            continue  # a match won: gnubg's cubeinfo refuses a score past the length
        assert ours == gnubg_match_id(state), (state.state_id(), state.phase)
        compared += 1
    assert compared >= 140


def test_a_crawford_game_and_a_score_reach_the_id() -> None:
    # a 3-point match: seat 0 wins the first game by a drop of a 2-cube (2 points: 2-0),
    # so the next game is the Crawford game, where nobody may double
    game = aceydeucey.load_game("backgammon", variant="classic", cube="match", match_length=3)
    state = game.new_initial_state().apply("opening 3-1").apply("8/5 6/5")
    state = state.apply("double").apply("take")  # seat 1 doubles, seat 0 takes: cube 2, 0's
    assert state.cube == 2 and state.cube_owner == 0
    state = state.apply("6-5").apply("24/18 18/13").apply("double").apply("drop")
    assert state.match.score == (2, 0) and state.phase == "opening"
    fields = match_id.decode(state.match_id())
    assert (fields.crawford, fields.score0, fields.score1, fields.cube_log) == (1, 2, 0, 0)
    assert fields.match_length == 3
    assert state.match_id() == gnubg_match_id(state)


def test_a_state_from_the_two_ids_gives_them_back() -> None:
    for options in OPTION_SETS[:3]:
        game = aceydeucey.load_game("backgammon", **options)
        for state in random_states(options, 60, seed=7):
            if state.is_terminal() or state.phase == "opening":
                continue
            if state.phase == "play" and len(state.dice) not in (2, 4):
                continue
            made = game.new_state(position_id=state.position_id(), match_id=state.match_id())
            assert made.match_id() == state.match_id()
            assert made.position_id() == state.position_id()
            assert made.legal_actions() == state.legal_actions()


def test_gnubgs_ids_read_here() -> None:
    # money play, cube 4 owned by player 1, player 0 on roll with 5-3 (gnubg's encoding)
    cube = gnubg.cubeinfo(4, 1, 0, 0, (0, 0), 0, 0)
    text = str(gnubg.matchid(cube, gnubg.posinfo(0, 0, 0, 1, (5, 3))))
    fields = match_id.decode(text)
    assert (fields.cube_log, fields.owner, fields.on_roll, fields.die0, fields.die1) == (
        2,
        1,
        0,
        5,
        3,
    )
    game = aceydeucey.load_game("backgammon", variant="classic", cube="money")
    state = game.new_state(position_id="4HPwATDgc/ABMA", match_id=text)
    assert (state.phase, state.cube, state.cube_owner, state.dice) == ("play", 4, 1, (5, 3))


@pytest.mark.parametrize("text", ["", "MAEAAAAAAAA", "MAEAAAAAAAA!", "////////////"])
def test_a_malformed_match_id_is_refused_with_a_code(text: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        match_id.decode(text)
    assert caught.value.code == "bg.match_id.bad"
