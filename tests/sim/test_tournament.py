"""Matches and round robins (sim/tournament.py): figures, seeds, workers, refusals."""

from __future__ import annotations

import importlib.util
import math
import os
import statistics
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.core.errors import AceyDeuceyError, ArgumentError
from aceydeucey.core.registry import load_game
from aceydeucey.sim import tournament
from aceydeucey.sim.tournament import (
    Entrant,
    MatchResult,
    Tally,
    entrant,
    play_match,
    round_robin,
    standings,
)

CLASSIC = load_game("backgammon", variant="classic")


def bots(*names: str) -> list[Entrant]:
    return [entrant("backgammon", name) for name in names]


# -- the figures ------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=2, max_size=40))
def test_points_and_stderr_are_those_of_the_pair_means(pairs: list[tuple[int, int]]) -> None:
    tally = Tally()
    for first, second in pairs:
        points = Fraction(first + second)
        won = (first > 0) + (second > 0)
        lost = (first < 0) + (second < 0)
        tally = tally + Tally(1, 2, won, lost, points, points * points)
    result = MatchResult("a", "b", tally)
    means = [(first + second) / 2 for first, second in pairs]
    assert result.points_per_game == pytest.approx(statistics.fmean(means))
    assert result.stderr == pytest.approx(statistics.stdev(means) / math.sqrt(len(means)))
    low, high = result.ci95
    assert high - low == pytest.approx(2 * 1.959964 * result.stderr)
    assert result.wins + result.losses + result.draws == 2 * len(pairs)
    back = result.reversed()
    assert (back.bot, back.points_per_game, back.stderr) == (
        "b",
        -result.points_per_game,
        result.stderr,
    )
    assert (back.wins, back.losses) == (result.losses, result.wins)


def test_one_pair_has_no_standard_error() -> None:
    result = MatchResult("a", "b", Tally(1, 2, 1, 1, Fraction(1), Fraction(1)))
    assert math.isnan(result.stderr)
    data = result.to_dict()
    assert data["stderr"] is None and data["ci95"] is None and data["points_per_game"] == 0.5


def test_a_match_counts_every_game_once() -> None:
    result = play_match(CLASSIC, *bots("greedy", "random"), 6, seed=2)
    assert (result.bot, result.opponent, result.games) == ("greedy", "random", 6)
    assert result.wins + result.losses == 6  # backgammon has no draws
    assert result.tally.pairs == 3
    assert result.points_per_game > 0  # greedy beats random
    assert result.to_dict()["points"] == str(result.points)


# -- seeds and work ---------------------------------------------------------------------


def test_the_same_seed_gives_the_same_results_and_another_seed_others() -> None:
    first = round_robin(CLASSIC, bots("pubeval", "random"), 4, seed=9)
    assert round_robin(CLASSIC, bots("pubeval", "random"), 4, seed=9) == first
    others = [round_robin(CLASSIC, bots("pubeval", "random"), 4, seed=s) for s in (10, 11)]
    assert any(o != first for o in others)


@pytest.mark.slow
def test_a_match_does_not_depend_on_the_other_bots_or_the_job_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alone = play_match(CLASSIC, *bots("greedy", "random"), 8, seed=4)
    among = round_robin(CLASSIC, bots("pubeval", "greedy", "random"), 8, seed=4)
    assert [(r.bot, r.opponent) for r in among] == [
        ("pubeval", "greedy"),
        ("pubeval", "random"),
        ("greedy", "random"),
    ]
    assert among[2] == alone
    monkeypatch.setattr(tournament, "PAIRS_PER_JOB", 1)
    assert play_match(CLASSIC, *bots("greedy", "random"), 8, seed=4) == alone


@pytest.mark.slow
def test_local_processes_give_the_results_of_one_process() -> None:
    seen: list[int] = []
    alone = round_robin(CLASSIC, bots("pubeval", "greedy", "random"), 4, seed=6)
    spread = round_robin(
        CLASSIC, bots("pubeval", "greedy", "random"), 4, seed=6, workers=2, on_games=seen.append
    )
    assert spread == alone
    assert sum(seen) == 3 * 4


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="the ray extra is not installed (.ci/run installs it)",
)
def test_a_local_ray_instance_gives_the_results_of_one_process() -> None:
    os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
    alone = play_match(CLASSIC, *bots("greedy", "random"), 4, seed=8)
    assert play_match(CLASSIC, *bots("greedy", "random"), 4, seed=8, ray="local") == alone


def test_standings_add_up_each_bots_matches() -> None:
    results = round_robin(CLASSIC, bots("pubeval", "greedy", "random"), 4, seed=1)
    table = {s.bot: s for s in standings(results)}
    assert set(table) == {"pubeval", "greedy", "random"}
    assert all(s.games == 8 for s in table.values())
    assert sum(s.points for s in table.values()) == 0  # backgammon is zero-sum
    assert table["random"].points == -(results[1].points + results[2].points)
    assert standings(results)[-1].bot == "random"


def test_other_games_of_two_seats_play_too() -> None:
    # In-Between with two players: the same runner, the game's own strategies.
    game = load_game("inbetween", players=2)
    result = play_match(game, entrant("inbetween", "ev"), entrant("inbetween", "random"), 4)
    assert result.games == 4 and result.wins + result.losses + result.draws == 4


# -- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize("games", [0, 1, 7, -2])
def test_games_come_in_pairs(games: int) -> None:
    with pytest.raises(ArgumentError) as refused:
        round_robin(CLASSIC, bots("greedy", "random"), games)
    assert refused.value.code == "tournament.games"
    assert "par" in refused.value.render("pt")


def test_two_bots_each_named_once() -> None:
    with pytest.raises(ArgumentError, match="two bots or more"):
        round_robin(CLASSIC, bots("greedy"), 2)
    with pytest.raises(ArgumentError) as refused:
        round_robin(CLASSIC, bots("greedy", "random", "greedy"), 2)
    assert refused.value.code == "tournament.repeated"


def test_an_unknown_bot_is_refused_by_name() -> None:
    with pytest.raises(ArgumentError) as refused:
        entrant("backgammon", "nett")
    assert refused.value.code == "bot.unknown"
    assert "greedy" in refused.value.params["accepted"]


def test_a_bot_that_refuses_the_rules_stops_the_tournament_before_any_game() -> None:
    acey = load_game("backgammon")
    with pytest.raises(AceyDeuceyError) as refused:
        round_robin(acey, bots("greedy", "pubeval"), 2)
    assert refused.value.code == "bg.bot.classic_only"


def test_only_zero_sum_games() -> None:
    """Under Red Dog each seat plays the house: no match between the two bots."""
    game = load_game("inbetween", preset="red-dog", players=2)
    names = [entrant("inbetween", "ev"), entrant("inbetween", "kelly")]
    with pytest.raises(ArgumentError) as refused:
        round_robin(game, names, 2)
    assert refused.value.code == "tournament.zero_sum"


def test_only_games_of_two_seats() -> None:
    game = load_game("aces-in-the-pot", players=3)
    names = [entrant("aces-in-the-pot", "random")] * 2
    with pytest.raises(ArgumentError) as refused:
        round_robin(game, names, 2)
    assert refused.value.code == "tournament.two_seats"
    assert "3" in refused.value.render("pt")


@pytest.mark.slow
def test_a_given_network_plays_as_an_entrant() -> None:
    """The training command measures a checkpoint this way: a ``net`` built on that network."""
    import functools

    from aceydeucey.backgammon.bots import NetBot
    from aceydeucey.backgammon.net import Network

    game = load_game("backgammon", variant="classic")
    untrained = Network.initial("classic", "gammons", 4, 1)
    bot = NetBot(network=untrained)
    bot.seated(game, 0)
    assert bot.evaluator(game.rules).net is untrained  # not the shipped network
    mine = Entrant("net", functools.partial(NetBot, network=untrained))
    again = Entrant("net-copy", functools.partial(NetBot, network=untrained))
    [mirror] = round_robin(game, [mine, again], 4, seed=3)
    assert mirror.points == 0 and mirror.stderr == 0  # the same bot on duplicate dice
    [result] = round_robin(game, [mine, entrant("backgammon", "greedy")], 4, seed=3, workers=2)
    assert result == round_robin(game, [mine, entrant("backgammon", "greedy")], 4, seed=3)[0]
