"""The network's bots (``net``, ``net2``, ``net3``) and the evaluator behind them and ``hint``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from aceydeucey.backgammon.board import Position, standard_start
from aceydeucey.backgammon.bots import BOTS, Net2Bot, Net3Bot, NetBot, RandomBot
from aceydeucey.backgammon.evaluator import ROLLS, TOP_2PLY, Evaluator
from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
from aceydeucey.backgammon.net import shipped
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.chance import Seeded
from aceydeucey.core.registry import bot_names, make_bot
from aceydeucey.core.table import Table
from aceydeucey.sim.td import play_match, start_board


def test_net_bots_are_offered_everywhere_bots_are() -> None:
    assert {"net", "net2", "net3"} <= set(BOTS)
    assert {"net", "net2", "net3"} <= set(bot_names("backgammon"))
    assert isinstance(make_bot("backgammon", "net2", seed=3), Net2Bot)
    assert make_bot("backgammon", "net3", seed=3).ply == 3
    assert bot_names("backgammon")[0] == "greedy"  # the default is unchanged


def test_the_rolls_cover_all_36() -> None:
    assert len(ROLLS) == 21 and sum(w for _, _, w in ROLLS) == 36


@pytest.mark.parametrize(
    ("variant", "bot"), [("acey-deucey", NetBot), ("classic", Net2Bot), ("classic", Net3Bot)]
)
def test_a_whole_game_against_random_through_the_contract(variant: str, bot: type) -> None:
    game = BackgammonGame(BackgammonRules.resolve(variant=variant))
    table = Table(game, [bot(), RandomBot(seed=1)], chance=Seeded(5))
    table.play(max_steps=5_000)
    assert table.state.is_terminal()
    assert sum(table.state.returns()) == 0


def acey_state_at_double() -> BackgammonState:
    """An Acey-Deucey state waiting for the double after a played 1-2."""
    game = BackgammonGame(BackgammonRules.resolve(variant="acey-deucey"))
    state = game.new_initial_state().apply("opening 5-2").apply("2-1")
    state = state.apply(str(state.legal_actions()[0]))
    assert state.phase == "double"
    return state


def test_the_double_after_a_1_2_is_named_by_evaluation() -> None:
    state = acey_state_at_double()
    observation = state.observation(state.mover)
    bot = NetBot()
    bot.seated(state.game, state.mover)
    choice = bot.act(observation)
    evaluator = Evaluator(state.game.rules)
    # each double is worth its best play (the roll after it counted when all four are played)
    worth = {
        d: evaluator.rank_plays(state.position, (d,) * 4, kind="named", chain=1)[0].equity
        for d in range(1, 7)
    }
    assert choice == f"double {max(worth, key=lambda d: worth[d])}"
    ranked = evaluator.rank_doubles(state.position, chain=1)
    assert [c.double for c in ranked] == sorted(worth, key=lambda d: -worth[d])


def test_next_turn_follows_the_rules() -> None:
    acey = Evaluator(BackgammonRules.resolve(variant="acey-deucey"))
    assert acey.next_turn("roll", (2, 1), 2, 0) == (False, 1)  # name a double
    assert acey.next_turn("roll", (2, 1), 1, 0) == (True, 0)  # both dice needed
    assert acey.next_turn("named", (3, 3, 3, 3), 4, 1) == (False, 0)  # roll again
    assert acey.next_turn("named", (3, 3, 3, 3), 3, 1) == (True, 0)
    assert acey.next_turn("roll", (4, 4, 4, 4), 4, 0) == (True, 0)  # no extra roll
    limited = Evaluator(BackgammonRules.resolve(variant="acey-deucey", acey_chain_limit=1))
    assert limited.next_turn("roll", (2, 1), 2, 1) == (True, 0)
    classic = Evaluator(BackgammonRules.resolve(variant="classic"))
    assert classic.next_turn("roll", (2, 1), 2, 0) == (True, 0)


def test_two_ply_sees_the_opponents_certain_bear_off() -> None:
    """Whatever I play, the opponent bears its last checker off with any roll: 2-ply knows
    the game is lost by exactly my checkers left, while 0-ply only estimates it (an exact
    end is not blended with the 0-ply estimate)."""
    rules = BackgammonRules.resolve(variant="acey-deucey")
    evaluator = Evaluator(rules)
    assert evaluator.blend_2ply < 1.0
    # me: 15 on my 20-point, far from home; the opponent: one checker on its 1-point
    position = Position.build({20: 15}, {24: 1})
    deep = evaluator.rank_plays(position, (3, 1), ply=2)
    for choice in deep[:TOP_2PLY]:
        assert choice.equity == pytest.approx(-15.0)
        assert choice.outputs[0] == pytest.approx(0.0)


def test_two_ply_ranks_the_same_plays() -> None:
    rules = BackgammonRules.resolve(variant="classic")
    evaluator = Evaluator(rules)
    position = standard_start()
    shallow = evaluator.rank_plays(position, (6, 4))
    deep = evaluator.rank_plays(position, (6, 4), ply=2)
    assert sorted(c.text for c in shallow) == sorted(c.text for c in deep)
    equities = [c.equity for c in deep[:4]]
    assert equities == sorted(equities, reverse=True)
    assert all(math.isfinite(c.equity) for c in deep)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_shipped_network_beats_random(variant: str) -> None:
    rules = BackgammonRules.resolve(variant=variant)
    points = play_match(shipped(variant), None, rules, start_board(rules), 100, seed=17)
    pairs = points.sum(axis=1) / 2
    assert pairs.mean() - 3 * pairs.std(ddof=1) / math.sqrt(len(pairs)) > 0
    assert np.all(np.abs(points) <= (15 if variant == "acey-deucey" else 3))


def test_three_ply_sees_the_opponents_certain_bear_off() -> None:
    """As at 2-ply: the opponent's last checker goes off with any roll, so at 3-ply the
    best plays are worth exactly the loss of my 15 checkers (the look two rolls deep
    stops where the game ends)."""
    evaluator = Evaluator(BackgammonRules.resolve(variant="acey-deucey"))
    position = Position.build({20: 15}, {24: 1})
    deep = evaluator.rank_plays(position, (3, 1), ply=3)
    for choice in deep[:TOP_2PLY]:
        assert choice.equity == pytest.approx(-15.0)


@pytest.mark.parametrize("ply", [0, 2, 3])
def test_single_scoring_values_a_win_alone(ply: int) -> None:
    # the shipped classic network, used for single-game scoring, still estimates gammons;
    # a gammon then scores one point like any win, so the equity is 2 P(win) - 1
    rules = BackgammonRules.resolve(variant="classic", scoring="single")
    evaluator = Evaluator(rules)
    ranked = evaluator.rank_plays(standard_start(), (6, 4), ply=ply)
    assert any(c.outputs[1] > 0.001 for c in ranked)  # the network does see gammons
    for choice in ranked:
        assert choice.equity == pytest.approx(2 * choice.outputs[0] - 1)
    gammons = Evaluator(BackgammonRules.resolve(variant="classic"))
    best = gammons.rank_plays(standard_start(), (6, 4))[0]
    assert best.equity == pytest.approx(float(gammons.equity(np.array(best.outputs))))
