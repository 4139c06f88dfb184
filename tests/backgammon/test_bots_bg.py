"""The backgammon bots: the heuristic, the greedy choice, and the double named after a 1-2."""

from __future__ import annotations

from typing import Any

import pytest

from aceydeucey.backgammon import generate
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.bots import (
    BOTS,
    GreedyBot,
    RandomBot,
    evaluate,
    listed_results,
    pip_counts,
    play_result,
    position_of,
    shots,
)
from aceydeucey.backgammon.moves import legal_plays
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.chance import Seeded
from aceydeucey.core.registry import load_game
from aceydeucey.core.table import Table


def board(points: dict[int, int]) -> tuple[int, ...]:
    cells = [0] * 24
    for point, count in points.items():
        cells[point - 1] = count
    return tuple(cells)


def observation_for(position: Position, dice: tuple[int, ...], **rules: Any) -> dict[str, Any]:
    """An observation whose legal actions come from the engine's generator."""
    game_rules = BackgammonRules.resolve(**rules)
    plays = legal_plays(position, dice, game_rules)
    return {
        "points": list(position.points),
        "bar": list(position.bar),
        "unentered": list(position.unentered),
        "off": list(position.off),
        "dice": list(dice),
        "seat": 0,
        "current_player": 0,
        "variant": game_rules.variant,
        "rules": game_rules.to_dict(),
        "legal_actions": [str(p) for p in plays],
    }


@pytest.mark.parametrize(
    ("distance", "rolls"),
    # The textbook table of direct and indirect shots (no points in the way), out of 36.
    [
        (1, 11),
        (2, 12),
        (3, 14),
        (4, 15),
        (5, 15),
        (6, 17),
        (7, 6),
        (8, 6),
        (9, 5),
        (10, 3),
        (11, 2),
        (12, 3),
        (15, 1),
        (16, 1),
        (18, 1),
        (20, 1),
        (24, 1),
        (13, 0),
        (14, 0),
    ],
)
def test_shots_at_a_blot_by_distance(distance: int, rolls: int) -> None:
    assert shots(1 << distance) == rolls


def test_two_shooters_hit_on_the_union_of_their_rolls() -> None:
    # Shooters 1 and 2 away: rolls with a 1 or a 2, or 1-1: 20 of 36.
    assert shots((1 << 1) | (1 << 2)) == 20


def test_pip_counts_count_bar_and_unentered_as_25() -> None:
    points = board({6: 2, 24: -1})
    # The opposing checker on our 24-point is on its own 1-point: one pip from home.
    assert pip_counts(points, (1, 0), (2, 3)) == (12 + 25 + 50, 1 + 75)


def test_a_pip_lead_is_better() -> None:
    ahead = board({5: 2, 20: -2})
    behind = board({10: 2, 20: -2})
    assert evaluate(ahead) > evaluate(behind)


def test_a_blot_in_front_of_an_opposing_checker_costs() -> None:
    # Own checkers on 9 and 8 (two blots) vs a made point on 8 with the same pips + 1:
    # the opponent's checker on our 3-point shoots at both blots.
    blots = board({9: 1, 7: 1, 3: -1, 20: -1})
    made = board({8: 2, 3: -1, 20: -1})
    assert evaluate(made) > evaluate(blots)


def test_a_blot_no_one_can_reach_is_safe() -> None:
    # The only opposing checker is past the blot: the blot costs nothing extra.
    blot = board({9: 1, 12: -1})
    assert evaluate(blot) == pytest.approx(float(pip_counts(blot, (0, 0), (0, 0))[1] - 9))


def test_home_points_and_primes_are_valued() -> None:
    prime = board({7: 2, 6: 2, 5: 2, 4: 2, 24: -8})
    scattered = board({13: 2, 11: 2, 4: 2, 2: 2, 24: -8})  # same pips (44)
    assert evaluate(prime) > evaluate(scattered)


def test_everything_borne_off_is_a_win() -> None:
    assert evaluate(board({20: -15}), off=(15, 0)) > 1e5


def test_play_result_applies_the_written_steps() -> None:
    position = Position(board({13: 2, 8: 1, 5: -1, 24: -1}), (0, 0), (13, 13), (0, 0))
    after = play_result(position, "13/5* in/22")
    assert after.points[4] == 1 and after.bar == (0, 1)
    assert after.points[21] == 1 and after.unentered == (12, 13)
    assert play_result(position, "pass") == position


def test_greedy_hits_a_far_advanced_blot() -> None:
    # 3-1 with an opposing blot on our 20-point (its own 5-point: a hit costs it 20 pips):
    # 23/20* 21/20 hits and makes the point; the bot takes it.
    position = Position(board({23: 1, 21: 2, 13: 5, 6: 5, 20: -1, 22: -14}), (0, 0), (2, 0), (0, 0))
    obs = observation_for(position, (3, 1))
    choice = GreedyBot().act(obs)
    after = play_result(position, choice)
    assert after.bar[1] == 1 and after.points[19] >= 2, choice


def test_greedy_names_the_double_that_wins_the_race() -> None:
    # After a 1-2, four checkers left on the 6-point: only double 6 bears them all off.
    position = Position(board({6: 4, 19: -15}), (0, 0), (0, 0), (11, 0))
    obs = observation_for(position, (1, 2))
    obs["legal_actions"] = [f"double {n}" for n in range(1, 7)]
    assert GreedyBot().act(obs) == "double 6"


def test_greedy_prefers_a_fully_playable_double() -> None:
    # With the opponent holding our 18..13 points behind a lone checker on 24, sixes cannot
    # move the 24-point checker; the bot should not name a double it mostly cannot play
    # when another, fully played, keeps its position as good.
    position = Position(
        board({24: 1, 4: 2, 3: 2, 18: -2, 17: -2, 16: -2, 15: -2, 14: -2, 13: -2}),
        (0, 0),
        (0, 3),
        (10, 0),
    )
    obs = observation_for(position, (1, 2))
    obs["legal_actions"] = [f"double {n}" for n in range(1, 7)]
    assert GreedyBot().act(obs) != "double 6"


def test_greedy_reads_only_the_observation() -> None:
    position = Position(board({6: 3, 8: 2, 13: 4, 12: -3}), (0, 0), (6, 15), (0, 0))
    obs = observation_for(position, (6, 5))
    assert position_of(obs) == position
    assert GreedyBot().act(obs) in obs["legal_actions"]


@pytest.mark.parametrize(
    "options",
    [{"variant": "classic"}, {"variant": "acey-deucey"}, {"bearoff_rule": "exact_only"}],
)
def test_the_listed_results_are_the_results_of_the_listed_texts(options: dict[str, Any]) -> None:
    # the greedy bot reads each play's result from the compiled generator instead of
    # parsing its text: over seeded random games, every listed play's result must be the
    # position its text leads to, and every legal text must be found
    generate.warm_up()
    game = load_game("backgammon", **options)
    checked = 0
    for seed in range(6):
        table = Table(game, [RandomBot(seed), RandomBot(seed + 50)], chance=Seeded(seed))
        state = table.state
        while not state.is_terminal():
            seat = state.current_player()
            if seat >= 0 and state.phase == "play":
                obs = state.observation(seat)
                position = position_of(obs)
                results = listed_results(obs, position, game.rules)
                moving = [t for t in obs["legal_actions"] if t != "pass"]
                assert set(results) == set(moving)
                for text in moving:
                    assert results[text] == play_result(position, text), text
                checked += len(moving)
            table.step()
            state = table.state
    assert checked > 500


def test_a_single_legal_action_is_played_at_once() -> None:
    obs = {"legal_actions": ["pass"]}
    assert GreedyBot().act(obs) == "pass"
    assert RandomBot(1).act(obs) == "pass"


def test_random_bot_is_reproducible_and_uses_every_option() -> None:
    obs = {"legal_actions": ["a", "b", "c"]}
    first = [RandomBot(7).act(obs) for _ in range(3)]
    bot = RandomBot(7)
    assert [bot.act(obs) for _ in range(1)] == first[:1]
    chosen = {bot.act(obs) for _ in range(60)}
    assert chosen == {"a", "b", "c"}


def test_bots_refuse_an_observation_without_actions() -> None:
    for cls in BOTS.values():
        with pytest.raises(ValueError, match="no legal actions"):
            cls().act({"legal_actions": []})


def greedy_wins(variant: str, games: int) -> tuple[int, int]:
    """(games GreedyBot won, points it netted) against RandomBot, seats alternating."""
    game = load_game("backgammon", variant=variant)
    wins = points = 0
    for index in range(games):
        seat = index % 2
        agents: list[Any] = [None, None]
        agents[seat] = GreedyBot()
        agents[1 - seat] = RandomBot(1000 + index)
        table = Table(game, agents, chance=Seeded(index))
        table.play()
        result = table.state.returns()[seat]
        wins += result > 0
        points += int(result)
    return wins, points


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_greedy_beats_random(variant: str) -> None:
    # 40 seeded games, GreedyBot on each seat half the time.  Two random players would win
    # about 20 each; 32 or more happens by chance less than once in 10,000 matches.
    wins, points = greedy_wins(variant, 40)
    assert wins >= 32, (wins, points)
    assert points > 0


def test_greedy_bot_learns_house_rules_when_seated() -> None:
    # Observations no longer carry the rules: the table seats the bot with its game, so it
    # plays under the table's rules, not its variant's defaults.
    from aceydeucey.core.registry import load_game
    from aceydeucey.core.table import seat_agent

    game = load_game("backgammon", bearoff_rule="exact_only", acey_chain_limit=1)
    obs = game.new_initial_state().observation(0)
    assert "rules" not in obs
    bot = GreedyBot()
    assert bot.rules is None
    seat_agent(bot, game, 0)
    assert bot.rules == game.rules


def test_each_observation_gets_its_own_play_steps() -> None:
    # the die-by-die steps are worked out once per state and shared by its observations:
    # a caller changing one observation's mapping must leave the next observation whole
    game = load_game("backgammon", variant="classic")
    table = Table(game, [RandomBot(1), RandomBot(2)], chance=Seeded(3))
    state = table.state
    while state.phase != "play" or not state.plays[0].moves:
        table.step()
        state = table.state
    first = state.observation(state.mover)["play_steps"]
    assert first and set(first) <= set(state.observation(state.mover)["legal_actions"])
    expected = {text: [dict(step) for step in steps] for text, steps in first.items()}
    first.clear()
    assert state.observation(state.mover)["play_steps"] == expected
