"""The net bots' cube: double, take, drop and beaver from their own chances (cubeful.py)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import aceydeucey
from aceydeucey.backgammon.bots import Net2Bot, NetBot, position_of
from aceydeucey.backgammon.net import N_INPUTS, Network


def fixed_network(*outputs: float, hidden: int = 4) -> Network:
    """A network under which ``outputs`` are the chances of the side on roll as ``net``
    reads them, one roll deep: every position it evaluates after that side's play is the
    opponent's to act, so it answers every position with the other side's chances (no
    hidden weights), and each of the 21 rolls comes back to ``outputs``."""
    win, gammon, backgammon, gammon_lost, backgammon_lost = outputs
    theirs = (1 - win, gammon_lost, backgammon_lost, gammon, backgammon)
    logits = np.array([math.log(v / (1 - v)) for v in theirs])
    return Network(
        w1=np.zeros((N_INPUTS, hidden)),
        b1=np.zeros(hidden),
        w2=np.zeros((hidden, len(outputs))),
        b2=logits,
        outputs="gammons" if len(outputs) == 5 else "points",
        variant="classic",
    )


GAMMONLESS_80 = (0.8, 1e-9, 1e-9, 1e-9, 1e-9)


def cube_state(game: object, *, take: bool = False) -> object:
    state = game.new_state(position_id="4HPwATDgc/ABMA")  # type: ignore[attr-defined]
    assert state.phase == "cube", state.phase
    return state.apply("double") if take else state


def decided(bot: NetBot, game: Any, obs: dict[str, Any]) -> Any:
    from aceydeucey.backgammon.cube_policy import cube_decision

    return cube_decision(bot.evaluator(game.rules), obs, game.rules, 0, position_of(obs))


def seated(bot: NetBot, game: object, seat: int) -> NetBot:
    bot.seated(game, seat)
    return bot


def test_doubles_an_eighty_percent_gammonless_position() -> None:
    game = aceydeucey.load_game("backgammon", variant="classic", cube="money")
    state = cube_state(game)
    bot = seated(NetBot(network=fixed_network(*GAMMONLESS_80)), game, state.current_player())
    assert bot.act(state.observation(state.current_player())) == "double"


def test_drops_a_twenty_percent_position() -> None:
    # the doubler wins 80 %: the taker (20 %) is below its take point and drops
    game = aceydeucey.load_game("backgammon", variant="classic", cube="money")
    state = cube_state(game, take=True)
    assert state.phase == "take"
    seat = state.current_player()
    bot = seated(NetBot(network=fixed_network(*GAMMONLESS_80)), game, seat)
    assert bot.act(state.observation(seat)) == "drop"


def test_takes_and_does_not_double_at_even_chances() -> None:
    game = aceydeucey.load_game("backgammon", variant="classic", cube="money")
    even = fixed_network(0.5, 0.1, 0.005, 0.1, 0.005)
    state = cube_state(game)
    assert seated(NetBot(network=even), game, 0).act(state.observation(0)) == "roll"
    taking = cube_state(game, take=True)
    seat = taking.current_player()
    assert seated(NetBot(network=even), game, seat).act(taking.observation(seat)) == "take"


def test_beavers_where_allowed() -> None:
    game = aceydeucey.load_game("backgammon", variant="classic", cube="money", beavers=True)
    state = cube_state(game, take=True)
    seat = state.current_player()
    # the doubler wins only 40 %: a beaver
    weak = fixed_network(0.4, 0.05, 0.001, 0.05, 0.001)
    assert seated(NetBot(network=weak), game, seat).act(state.observation(seat)) == "beaver"


def test_too_good_to_double_plays_on() -> None:
    game = aceydeucey.load_game("backgammon", variant="classic", cube="money")
    state = cube_state(game)
    gammonish = fixed_network(0.95, 0.7, 0.01, 0.01, 0.001)
    assert seated(NetBot(network=gammonish), game, 0).act(state.observation(0)) == "roll"


def test_respects_crawford_and_the_dead_cube_of_the_leader() -> None:
    game = aceydeucey.load_game("backgammon", variant="classic", cube="match", match_length=5)
    bot = NetBot(network=fixed_network(*GAMMONLESS_80))
    bot.seated(game, 0)
    # the engine offers no double in the Crawford game; the bot then just rolls, and
    # post-Crawford the leader's cube is dead: the policy never doubles it
    crawford = {"seat": 0, "cube": 1, "cube_owner": None, "match_score": [4, 0], "crawford": True}
    post = dict(crawford, crawford=False)
    state = cube_state(aceydeucey.load_game("backgammon", variant="classic", cube="money"))
    obs = dict(state.observation(0), **crawford)
    assert not decided(bot, game, obs).may_double
    obs = dict(state.observation(0), **post)
    assert not decided(bot, game, obs).may_double
    # the trailer (1 point against 4) doubles post-Crawford at once
    trailer = dict(post, match_score=[0, 4])
    weak = NetBot(network=fixed_network(0.45, 0.1, 0.001, 0.1, 0.001))
    weak.seated(game, 0)
    obs = dict(state.observation(0), **trailer)
    assert decided(weak, game, obs).action == "double"


@pytest.mark.slow
def test_net_and_net2_play_a_money_game_with_the_cube_to_the_end() -> None:
    import random

    game = aceydeucey.load_game("backgammon", variant="classic", cube="money")
    bots = [NetBot(), Net2Bot()]
    for seat, bot in enumerate(bots):
        bot.seated(game, seat)
    rng = random.Random(3)
    state = game.new_initial_state()
    cube_actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state = state.apply(
                rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            )
            continue
        seat = state.current_player()
        action = bots[seat].act(state.observation(seat))
        cube_actions += action in ("double", "take", "drop", "beaver")
        state = state.apply(action)
    assert state.is_terminal()


@pytest.mark.slow
def test_net_cube_decisions_mostly_agree_with_gnubg(capfd: pytest.CaptureFixture[str]) -> None:
    # a small sample in the suite (a floor below the benchmark's figures, 82-99 %)
    pytest.importorskip("gnubg")
    from aceydeucey.backgammon import pubeval
    from aceydeucey.backgammon.cube_policy import probabilities
    from aceydeucey.backgammon.cubeful import cube_efficiency, decide
    from aceydeucey.backgammon.evaluator import Evaluator
    from aceydeucey.backgammon.rules import BackgammonRules
    from tests.backgammon.gnubg_cube import cube_decision, sample_positions

    evaluator = Evaluator(BackgammonRules.resolve(variant="classic"))
    positions = sample_positions(60, 23)
    agree = 0
    for position in positions:
        theirs = cube_decision(position)
        x = cube_efficiency(pubeval.is_race(position), position.pip_counts()[0])
        mine = decide(probabilities(evaluator, position, 0), x=x)
        agree += (mine.action == "double") == (theirs[0] == "double")
        agree += (mine.response == "pass") == (theirs[1] == "pass")
    capfd.readouterr()
    assert agree / (2 * len(positions)) >= 0.75
