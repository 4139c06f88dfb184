"""The doubling cube and match play, rule by rule (sources in ``backgammon.rules``).

Money play and matches: who may double and when, take, drop, beaver, the Jacoby rule,
``max_cube``, gammons times the cube, the Crawford game and post-Crawford doubling,
the score and the end of a match; every refusal coded in both languages; and
properties over random matches under random cube options.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.bots import GreedyBot
from aceydeucey.backgammon.cube import default_cube_choice
from aceydeucey.backgammon.match_id import MatchFields, encode
from aceydeucey.core.errors import IllegalActionError, RulesError
from aceydeucey.core.record import Record, replay
from aceydeucey.locale import option_label, render_error


def game(**options: Any) -> Any:
    return aceydeucey.load_game("backgammon", **{"variant": "classic", **options})


def words(state: Any) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def refusal(state: Any, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        state.apply(text)
    error = caught.value
    for lang in ("en", "pt"):  # both catalogs hold the code
        assert render_error(error.code, error.params, lang) != error.code
    return error


def opened(g: Any) -> Any:
    """Seat 0 wins the roll-off with 3-1 and makes its 5-point: seat 1 is to roll.
    ``g`` is a game, or a state at a game's roll-off (a match's next game)."""
    state = g.new_initial_state() if hasattr(g, "new_initial_state") else g
    return state.apply("opening 3-1").apply("8/5 6/5")


# -- options ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"cube": "money", "match_length": 5}, ("match_length", "cube")),
        ({"cube": "match", "match_length": 5, "beavers": True}, ("beavers", "cube")),
        ({"cube": "match", "match_length": 5, "jacoby": True}, ("jacoby", "cube")),
        ({"cube": "money", "crawford": True}, ("crawford", "cube")),
        ({"crawford": False}, ("crawford", "cube")),
        ({"max_cube": 64}, ("max_cube", "cube")),
    ],
)
def test_contradictory_cube_options_are_refused_naming_both(
    options: dict[str, Any], names: tuple[str, str]
) -> None:
    with pytest.raises(RulesError) as caught:
        game(**options)
    assert caught.value.code == "bg.rules.cube_contradiction"
    text = caught.value.render("pt")
    assert caught.value.params["options"] == list(names)
    assert all(option_label("backgammon", n, "pt") in text for n in names)


def test_a_match_needs_its_length_and_the_cube_limit_a_power_of_two() -> None:
    with pytest.raises(RulesError) as caught:
        game(cube="match")
    assert caught.value.code == "bg.rules.match_needs_length"
    with pytest.raises(RulesError) as caught:
        game(cube="money", max_cube=48)
    assert caught.value.code == "bg.rules.max_cube_power"


def test_acey_deucey_keeps_no_cube_by_default_and_may_take_one() -> None:
    # seed 002: "The doubling cube is not used in acey-deucey"; betting777 and LEE use one
    assert aceydeucey.load_game("backgammon").rules.cube == "none"
    for variant in ("classic", "longgammon", "dutch"):
        assert aceydeucey.load_game("backgammon", variant=variant).rules.cube == "none"
    aceydeucey.load_game("backgammon", cube="money")  # allowed


# -- no cube: today's flow ----------------------------------------------------------


def test_without_a_cube_the_turn_starts_with_the_roll_and_double_is_refused() -> None:
    state = opened(game())
    assert state.phase == "roll" and state.is_chance_node()
    assert refusal(state, "double").code == "bg.cube.no_cube"
    assert "cube" not in state.observation(None)


# -- money play ------------------------------------------------------------------------


def test_before_rolling_the_player_may_double_or_roll_but_not_on_the_first_turn() -> None:
    g = game(cube="money")
    first = g.new_initial_state().apply("opening 3-1")
    assert first.phase == "play"  # the opening roll is played at once
    state = opened(g)
    assert (state.phase, state.current_player(), words(state)) == ("cube", 1, ["double", "roll"])
    obs = state.observation(1)
    assert obs["may_double"] is True and obs["cube"] == 1 and obs["cube_owner"] is None
    assert obs["legal_actions"] == ["double", "roll"]
    assert state.apply("roll").is_chance_node()


def test_a_taken_double_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    state = opened(game(cube="money")).apply("double")
    assert (state.phase, state.current_player(), words(state)) == ("take", 0, ["take", "drop"])
    offer = state.observation(None)["cube_offer"]
    assert offer == {"seat": 1, "value": 2, "beaver": False}
    assert refusal(state, "roll").code == "bg.cube.not_now"
    assert refusal(state, "beaver").code == "bg.cube.no_beaver"
    state = state.apply("take")
    assert (state.cube, state.cube_owner, state.phase) == (2, 0, "roll")
    # the doubler (seat 1) plays on; at seat 1's next turn it may not double: the cube is 0's
    state = state.apply("6-5").apply("24/18 18/13")
    assert state.phase == "cube" and state.mover == 0  # the owner may redouble
    state = state.apply("roll").apply("2-1").apply("13/11 6/5")
    assert state.phase == "roll" and state.mover == 1
    assert refusal(state, "double").code == "bg.cube.not_yours"


def test_a_dropped_double_ends_the_game_at_the_cube_before_the_double() -> None:
    state = opened(game(cube="money")).apply("double").apply("drop")
    assert state.is_terminal() and state.winner == 1
    assert state.returns() == (-1, 1)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "cube.dropped"
    assert dict(outcome.params)["points"] == 1
    # a redouble to 4 dropped costs 2
    state = opened(game(cube="money")).apply("double").apply("take")
    state = state.apply("6-5").apply("24/18 18/13").apply("double").apply("drop")
    assert state.winner == 0 and state.returns() == (2, -2)


def last_checker(cube_log: int, owner: int, **options: Any) -> Any:
    """Seat 0 on roll with 6-5 and one checker left on its 1-point; seat 1 has borne
    none off and has all 15 on seat 0's 13-point (a gammon, not a backgammon)."""
    points = [0] * 24
    points[0] = 1
    points[12] = -CHECKERS
    position = Position(tuple(points), (0, 0), (0, 0), (CHECKERS - 1, 0))
    fields = MatchFields(cube_log, owner, 0, 0, 1, 0, 0, 0, 6, 5, 0, 0, 0, 1)
    return game(cube="money", **options).new_state(position=position, match_id=encode(fields))


def test_gammons_multiply_the_cube_and_the_jacoby_rule_needs_the_cube_turned() -> None:
    assert last_checker(1, 1).apply("1/off").returns() == (4, -4)  # gammon x 2
    assert last_checker(2, 0).apply("1/off").returns() == (8, -8)  # gammon x 4
    # Jacoby: centred cube, the gammon counts as a single game; turned, it counts
    assert last_checker(0, 3, jacoby=True).apply("1/off").returns() == (1, -1)
    assert last_checker(1, 1, jacoby=True).apply("1/off").returns() == (4, -4)
    assert last_checker(0, 3).apply("1/off").returns() == (2, -2)


def test_a_beaver_takes_and_redoubles_keeping_the_cube() -> None:
    state = opened(game(cube="money", beavers=True)).apply("double")
    assert words(state) == ["take", "drop", "beaver"]
    state = state.apply("beaver")
    assert (state.cube, state.cube_owner, state.phase, state.mover) == (4, 0, "roll", 1)
    # the player beavered rolls on and may not redouble
    state = state.apply("6-5").apply("24/18 18/13")
    assert state.phase == "cube" and state.mover == 0
    state = state.apply("roll").apply("2-1").apply("13/11 6/5")
    assert refusal(state, "double").code == "bg.cube.not_yours"


def test_max_cube_stops_doubling_and_beavers_past_it() -> None:
    state = opened(game(cube="money", beavers=True, max_cube=2)).apply("double")
    assert words(state) == ["take", "drop"]  # a beaver would reach 4
    assert refusal(state, "beaver").code == "bg.cube.max"
    state = state.apply("take").apply("6-5").apply("24/18 18/13")
    assert state.phase == "roll"  # the owner may not double past 2: no cube decision
    assert refusal(state, "double").code == "bg.cube.max"


def test_double_in_the_middle_of_a_turn_is_refused() -> None:
    state = opened(game(cube="money")).apply("roll").apply("6-5")
    assert refusal(state, "double").code == "bg.cube.not_now"
    assert refusal(state, "take").code == "bg.cube.not_now"


# -- matches ---------------------------------------------------------------------------


def won_game(state: Any, doubles: int = 0) -> Any:
    """From a cube decision: ``doubles`` doubles taken in turn (each followed by a 6-5
    run), then a double dropped: the last doubler wins the cube before that double."""
    for _ in range(doubles):
        state = state.apply("double").apply("take").apply("6-5").apply("24/18 18/13")
    return state.apply("double").apply("drop")


def test_a_match_is_a_session_of_games_with_a_score() -> None:
    g = game(cube="match", match_length=3)
    state = won_game(opened(g))  # seat 1 doubles, seat 0 drops: 1 point to seat 1
    assert (state.phase, state.match.score, state.cube) == ("opening", (0, 1), 1)
    obs = state.observation(0)
    assert obs["match_score"] == [0, 1] and obs["match_length"] == 3
    assert obs["last_event"]["kind"] == "game_over" and obs["last_event"]["points"] == 1
    assert obs["games"] == [{"winner": 1, "points": 1, "result": "dropped"}]
    assert state.returns() == (0, 0) and not state.is_terminal()


def test_the_crawford_game_has_no_doubling_and_post_crawford_doubling_is_as_usual() -> None:
    g = game(cube="match", match_length=3)
    # seat 1 doubles, seat 0 takes and later redoubles to 4, seat 1 drops: 2-0, match point
    state = won_game(opened(g), doubles=1)
    assert state.match.score == (2, 0)
    crawford = opened(state)
    assert crawford.observation(None)["crawford"] is True
    assert crawford.phase == "roll"  # nobody may double in the Crawford game
    assert refusal(crawford, "double").code == "bg.cube.crawford"
    # the Crawford game played out by random plays: never a cube decision in it
    rng = random.Random(3)
    while crawford.match.score == (2, 0) and not crawford.is_terminal():
        assert crawford.phase not in ("cube", "take")
        crawford = crawford.apply(rng.choice(list(crawford.legal_actions())))
    if not crawford.is_terminal():  # seat 1 won the Crawford game: post-Crawford
        after = opened(crawford)
        assert after.observation(None)["post_crawford"] is True
        assert after.phase == "cube"


def test_without_the_crawford_rule_match_point_does_not_stop_the_cube() -> None:
    state = won_game(opened(game(cube="match", match_length=3, crawford=False)), doubles=1)
    assert state.match.score == (2, 0)
    assert opened(state).phase == "cube"


def test_the_match_ends_when_a_player_has_the_points_and_returns_plus_minus_one() -> None:
    g = game(cube="match", match_length=2)
    state = won_game(opened(g), doubles=1)  # seat 0 wins 2 points: the match
    assert state.is_terminal() and state.returns() == (1, -1)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "race.match_won"
    params = dict(outcome.params)
    assert params["score"] == [2, 0] and params["match_length"] == 2
    assert "2-0" in render_error(outcome.termination, params, "pt")


# -- bots and fast paths -----------------------------------------------------------------


def test_the_default_cube_policy_never_doubles_and_always_takes() -> None:
    assert default_cube_choice(["double", "roll"]) == "roll"
    assert default_cube_choice(["take", "drop", "beaver"]) == "take"
    assert default_cube_choice(["8/5 6/5", "13/10 13/9"]) is None
    bot = GreedyBot()
    state = opened(game(cube="money")).apply("double")
    assert bot.act(state.observation(0)) == "take"


def test_a_table_of_bots_plays_a_match_to_its_end() -> None:
    from aceydeucey.core.chance import Seeded
    from aceydeucey.core.table import Table

    g = game(cube="match", match_length=3)
    table = Table(g, [GreedyBot(), GreedyBot()], chance=Seeded(5))
    record = table.play()
    assert table.state.is_terminal() and sorted(table.state.returns()) == [-1, 1]
    assert replay(record) == table.state


@pytest.mark.slow
def test_the_random_playouts_play_the_cube_phase_as_never_double() -> None:
    from aceydeucey.sim.backgammon import simulate

    summary = simulate("classic", games=50, seed=1, cube="money")
    plain = simulate("classic", games=50, seed=1)
    assert summary.wins == plain.wins and summary.points == plain.points


# -- properties ------------------------------------------------------------------------

CUBE_OPTIONS = st.one_of(
    st.fixed_dictionaries(
        {
            "cube": st.just("money"),
            "beavers": st.booleans(),
            "jacoby": st.booleans(),
            "max_cube": st.sampled_from([None, 2, 8, 64]),
        }
    ),
    st.fixed_dictionaries(
        {
            "cube": st.just("match"),
            "match_length": st.integers(1, 5),
            "crawford": st.sampled_from([None, False]),
            "max_cube": st.sampled_from([None, 4]),
        }
    ),
)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(CUBE_OPTIONS, st.sampled_from(["classic", "acey-deucey", "dutch"]), st.integers(0, 9999))
def test_random_matches_keep_the_cube_and_the_score_honest(
    options: dict[str, Any], variant: str, seed: int
) -> None:
    g = aceydeucey.load_game("backgammon", variant=variant, **options)
    rules = g.rules
    rng = random.Random(seed)
    state = g.new_initial_state()
    record = Record.start(g, ["A", "B"])
    steps = 0
    while not state.is_terminal() and steps < 3000:
        legal = [str(a) for a in state.legal_actions()]
        text = rng.choice(legal)
        if state.phase == "take" and rng.random() < 0.7:
            text = "take"
        record.actions.append(text)
        state = state.apply(text)
        steps += 1
        # checkers conserved; the cube a power of two up to its limit
        for side in (0, 1):
            assert state.position.count(side) == CHECKERS
        assert state.cube & (state.cube - 1) == 0 and 1 <= state.cube <= rules.cube_limit
        # the score is exactly what the finished games won
        assert sum(state.match.score) == sum(points for _, points, _ in state.match.games)
        if state.phase == "take":
            assert state.current_player() == 1 - state.mover
    record.finish(state)
    again = replay(record)
    assert again == state and again.state_id() == state.state_id()
    if state.is_terminal() and rules.is_match:
        length = rules.match_length
        assert length is not None and max(state.match.score) >= length > min(state.match.score)
        assert sorted(state.returns()) == [-1, 1]


# -- runners: the cube's "roll" is the throw's gesture -----------------------------------


def test_a_roll_chosen_at_the_cube_is_thrown_without_a_second_gesture() -> None:
    """A runner that waits for a person's "roll" before drawing the dice must not wait
    again after that person chose "roll" at the cube; after a double and a take the
    doubler's throw is still its own gesture."""
    from aceydeucey.core.table import next_step

    everyone_throws = lambda seat: True  # noqa: E731
    state = opened(game(cube="money"))
    assert state.phase == "cube" and words(state) == ["double", "roll"]
    rolled = state.apply("roll")
    assert rolled.is_chance_node() and rolled.chance_actor() == 1
    assert next_step(rolled, everyone_throws).kind == "chance"
    taken = state.apply("double").apply("take")
    assert taken.is_chance_node() and taken.chance_actor() == 1
    assert next_step(taken, everyone_throws).kind == "throw"
    # without a cube the throw is the person's gesture, as before
    plain = opened(game())
    assert next_step(plain, everyone_throws).kind == "throw"
