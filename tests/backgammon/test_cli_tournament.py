"""``aceydeucey tournament``: the round robin's table, its JSON, and its errors in en and pt."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from aceydeucey.cli.app import app
from aceydeucey.core.registry import load_game
from aceydeucey.sim.tournament import entrant, round_robin

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["tournament", *args])
    return result.exit_code, result.output


def test_json_lists_every_match_with_its_figures() -> None:
    code, out = run(
        "backgammon", "--variant", "classic", "--bots", "pubeval,greedy,random",
        "--games", "4", "--seed", "3", "--json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert data["games"] == 4 and data["variant"] == "classic" and data["duplicate"] is True
    pairs = [(r["bot"], r["opponent"]) for r in data["results"]]
    assert pairs == [("pubeval", "greedy"), ("pubeval", "random"), ("greedy", "random")]
    for result in data["results"]:
        assert set(result) >= {"bot", "opponent", "points_per_game", "stderr", "wins"}
        assert result["wins"] + result["losses"] + result["draws"] == 4
    # The same figures as the runner's, from the same seed.
    game = load_game("backgammon", variant="classic")
    names = [entrant("backgammon", n) for n in ("pubeval", "greedy", "random")]
    expected = round_robin(game, names, 4, seed=3)
    assert data["results"] == [json.loads(json.dumps(r.to_dict())) for r in expected]


def test_the_table_in_english_and_portuguese() -> None:
    args = ("backgammon", "--variant", "classic", "--bots", "greedy,random", "--games", "4")
    code, en = run(*args, "--lang", "en")
    assert code == 0, en
    assert "Round robin: backgammon (classic)" in en and "Points/game" in en
    assert "95 % interval" in en and "Standings" in en and "greedy" in en
    assert "4 games in" in en
    code, pt = run(*args, "--lang", "pt")
    assert code == 0, pt
    assert "Todos contra todos" in pt and "Pontos/jogo" in pt and "Classificação" in pt


def test_independent_dice_are_said_and_change_the_games() -> None:
    args = ("backgammon", "--variant", "classic", "--bots", "pubeval,random", "--games", "4")
    _, same = run(*args, "--json")
    code, other = run(*args, "--no-duplicate", "--json")
    assert code == 0
    assert json.loads(other)["duplicate"] is False
    assert json.loads(other)["results"] != json.loads(same)["results"]
    _, text = run(*args, "--no-duplicate", "--lang", "en")
    assert "Independent chance" in text


def test_workers_give_the_same_json() -> None:
    args = ("backgammon", "--variant", "classic", "--bots", "greedy,random", "--games", "4")
    _, alone = run(*args, "--json")
    code, spread = run(*args, "--json", "--workers", "2")
    assert code == 0
    assert json.loads(spread)["results"] == json.loads(alone)["results"]


def test_an_unknown_bot_is_a_clear_error_in_both_languages() -> None:
    code, en = run("backgammon", "--bots", "greedy,nett", "--lang", "en")
    assert code == 2 and "no bot 'nett' for backgammon" in en and "Traceback" not in en
    code, pt = run("backgammon", "--bots", "greedy,nett", "--lang", "pt")
    assert code == 2 and "não há bot 'nett'" in pt


def test_a_bot_that_does_not_play_the_variant_is_refused() -> None:
    code, en = run("backgammon", "--bots", "pubeval,greedy", "--games", "2", "--lang", "en")
    assert code == 2 and "classic backgammon only" in en and "variant acey-deucey" in en
    code, pt = run("backgammon", "--bots", "pubeval,greedy", "--games", "2", "--lang", "pt")
    assert code == 2 and "só joga gamão clássico" in pt


def test_bad_counts_are_refused() -> None:
    code, out = run("backgammon", "--bots", "greedy,random", "--games", "3", "--lang", "en")
    assert code == 2 and "even number" in out
    code, out = run("backgammon", "--bots", "greedy", "--lang", "pt")
    assert code == 2 and "dois bots ou mais" in out
    code, out = run("inbetween", "--lang", "pt")  # no --bots: our message, not Typer's
    assert code == 2 and "dois bots ou mais" in out and "Missing option" not in out
    code, out = run("chess", "--bots", "a,b", "--lang", "en")
    assert code == 2 and "chess" in out


@pytest.mark.slow
def test_the_table_keeps_its_right_edge_and_counts_the_draws() -> None:
    """Five In-Between bots in Portuguese once cut the won-lost header and wrapped the cells;
    the standings left out the draws, so won and lost did not add up to the games."""
    args = ("inbetween", "--bots", "ev,kelly,random,cautious,session", "--games", "20")
    code, out = run(*args, "--lang", "pt")
    assert code == 0, out
    table = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]
    assert table and all(line[-1] in "┓┃┩│┘" for line in table)
    assert all(len(line) <= 80 for line in out.splitlines())
    data = json.loads(run(*args, "--json")[1])
    for standing in data["standings"]:
        bot = standing["bot"]
        drawn = sum(r["draws"] for r in data["results"] if bot in (r["bot"], r["opponent"]))
        cell = f"{standing['wins']}–{standing['losses']}–{drawn}"
        assert any(line.startswith(f"│ {bot} ") and cell in line for line in table), cell
    assert "Sorte duplicada" in out and "200 jogos em" in out


def test_a_house_game_or_a_game_of_three_seats_is_refused_in_the_language() -> None:
    """Red Dog's seats play the house: the opponent's points were once made up as the
    negative of the bot's. Aces in the Pot needs three seats, not players=2."""
    code, out = run("inbetween", "--bots", "ev,kelly", "--preset", "red-dog", "--lang", "pt")
    assert code == 2 and "contra a casa" in out and out.startswith("erro:")
    code, out = run("aces-in-the-pot", "--bots", "random,random", "--lang", "en")
    assert code == 2 and "a tournament seats two bots" in out and "3 seats" in out
    code, out = run("inbetween", "--bots", "ev,kelly", "--workers", "0", "--lang", "pt")
    assert code == 2 and "--workers tem de ser" in out and "Invalid value" not in out


def test_in_between_plays_a_tournament_of_two_seats() -> None:
    code, out = run("inbetween", "--bots", "ev,random", "--games", "4", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["preset"] == "guide" and data["results"][0]["games"] == 4
