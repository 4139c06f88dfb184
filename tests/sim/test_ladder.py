"""The bot ladder: Elo fitted to games won and lost, and the command that writes it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from aceydeucey.cli.app import app
from aceydeucey.cli.ladder import END, START
from aceydeucey.sim import ladder
from aceydeucey.sim.ladder import ELO, Rung, ratings, rung_bots
from aceydeucey.sim.tournament import MatchResult, Tally


def match(bot: str, opponent: str, wins: int, losses: int, draws: int = 0) -> MatchResult:
    games = wins + losses + draws
    return MatchResult(bot, opponent, Tally(pairs=games // 2, games=games, wins=wins,
                                            losses=losses))  # fmt: skip


def expected(diff: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def test_the_fit_recovers_the_ratings_the_games_were_drawn_from() -> None:
    true = {"random": 0.0, "greedy": 300.0, "net": 550.0, "net2": 600.0}
    n = 200_000
    results = []
    names = list(true)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            wins = round(n * expected(true[a] - true[b]))
            results.append(match(a, b, wins, n - wins))
    fit = {r.bot: r for r in ratings(results)}
    for name, elo in true.items():
        assert fit[name].elo == pytest.approx(elo, abs=1.0), name
    assert fit["random"].elo == 0.0
    assert [r.bot for r in ratings(results)] == ["net2", "net", "greedy", "random"]
    # the errors are measured from the best measured bot: the one whose games are closest
    against = {r.against for r in fit.values()}
    assert len(against) == 1 and fit[against.pop()].stderr == 0.0
    assert sorted(r.stderr > 0 for r in fit.values()) == [False, True, True, True]
    assert all(r.stderr < 5 for r in fit.values())


def test_errors_are_measured_from_the_best_measured_bot_not_from_random_play() -> None:
    # random loses every game: its own place is rough, the others' differences are not
    results = [
        match("net", "random", 200, 0), match("greedy", "random", 199, 1),
        match("net", "greedy", 130, 70),
    ]  # fmt: skip
    fit = {r.bot: r for r in ratings(results)}
    assert {r.against for r in fit.values()} == {"greedy"}
    assert fit["random"].elo == 0.0 and fit["greedy"].stderr == 0.0
    assert fit["net"].stderr < fit["random"].stderr / 3
    same = {r.bot: r for r in ratings(results, against="random")}
    assert same["net"].elo == pytest.approx(fit["net"].elo)  # the errors move, not the fit
    assert same["net"].stderr > 2 * fit["net"].stderr


def test_two_bots_have_the_logistic_rating_and_its_textbook_error() -> None:
    # 600 wins in 1,000 games, plus the prior's two drawn games: 601 of 1,002
    [a, b] = ratings([match("a", "b", 600, 400)])
    p = 601 / 1002
    assert a.elo - b.elo == pytest.approx(400 * math.log10(p / (1 - p)), abs=1e-6)
    assert (a.bot, a.elo, a.stderr) == ("a", 0.0, 0.0)  # no random: the first bot met
    assert b.stderr == pytest.approx(ELO / math.sqrt(1002 * p * (1 - p)), rel=1e-6)


def test_a_bot_that_won_every_game_is_rated_finitely_and_draws_count_half() -> None:
    [top, bottom] = ratings([match("net", "random", 100, 0)])
    assert top.bot == "net" and math.isfinite(top.elo) and top.elo > 500
    even = ratings([match("x", "random", 10, 10, 80)])
    assert all(r.elo == pytest.approx(0.0, abs=1e-9) for r in even)
    assert bottom.losses == 100 and top.wins == 100


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 10)),
                min_size=3, max_size=3))  # fmt: skip
def test_the_fit_does_not_depend_on_the_side_or_order_a_match_is_told_from(
    counts: list[tuple[int, int, int]],
) -> None:
    pairs = [("random", "a"), ("a", "b"), ("random", "b")]
    results = [match(x, y, *c) for (x, y), c in zip(pairs, counts, strict=True)]
    flipped = [r.reversed() for r in reversed(results)]
    one = {r.bot: r.elo for r in ratings(results)}
    other = {r.bot: r.elo for r in ratings(flipped)}
    assert one.keys() == other.keys()
    for name in one:
        assert one[name] == pytest.approx(other[name], abs=1e-6)
    # a bot's rating rises with its wins, everything else kept
    more = [match("random", "a", *counts[0][:1], counts[0][1] + 5, counts[0][2]), *results[1:]]
    assert {r.bot: r.elo for r in ratings(more)}["a"] > one["a"]


def test_each_rung_rates_the_bots_that_play_its_rules() -> None:
    acey = [e.name for e in rung_bots(Rung("backgammon", {"variant": "acey-deucey"}))]
    classic = [e.name for e in rung_bots(Rung("backgammon", {"variant": "classic"}))]
    assert "pubeval" in classic and "pubeval" not in acey
    assert {"random", "greedy", "net", "net2"} <= set(acey)


runner = CliRunner()


@pytest.fixture
def small_ladder(monkeypatch: pytest.MonkeyPatch) -> None:
    rung = Rung("backgammon", {"variant": "classic"}, ("greedy", "random"))
    monkeypatch.setattr(ladder, "LADDER", (rung,))


@pytest.mark.usefixtures("small_ladder")
def test_the_command_writes_only_between_its_markers(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\nbefore\n{START}\nold table\n{END}\nafter\n", encoding="utf-8")
    result = runner.invoke(app, ["ladder", "--games", "2", "--write", str(readme)])
    assert result.exit_code == 0, result.output
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\nbefore\n" + START + "\n") and text.endswith(
        END + "\nafter\n"
    )
    assert "old table" not in text and "| backgammon (variant=classic) | 1 |" in text
    assert "greedy" in text and "random" in text
    # a second run replaces its own section, keeping one
    assert runner.invoke(app, ["ladder", "--games", "2", "--write", str(readme)]).exit_code == 0
    assert readme.read_text(encoding="utf-8").count(START) == 1


@pytest.mark.usefixtures("small_ladder")
def test_the_command_refuses_a_file_without_markers_and_prints_json(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("no section here\n", encoding="utf-8")
    result = runner.invoke(app, ["ladder", "--games", "2", "--write", str(readme), "--lang", "pt"])
    assert result.exit_code == 2 and "não tem secção" in " ".join(result.output.split())
    assert readme.read_text(encoding="utf-8") == "no section here\n"
    result = runner.invoke(app, ["ladder", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    [rung] = data["rungs"]
    assert [r["bot"] for r in rung["ratings"]][-1] == "random"
    assert sum(r["games"] for r in rung["ratings"]) == 4  # 2 games, seen from both sides
