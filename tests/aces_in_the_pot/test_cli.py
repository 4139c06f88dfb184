"""The terminal commands of Aces in the Pot, run in-process with Typer's CliRunner."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey import Record, replay
from aceydeucey.cli.app import app

runner = CliRunner()


def test_analyze_json_gives_exact_fractions_summing_to_one_for_three_players() -> None:
    result = runner.invoke(app, ["analyze", "aces-in-the-pot", "--players", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 3
    exact = [Fraction(p) for p in data["win_probability"]]
    assert len(exact) == 3 and sum(exact) == 1
    assert [float(p) for p in exact] == pytest.approx(data["win_probability_float"], abs=1e-15)
    assert data["expected_rolls"] == pytest.approx(float(Fraction(data["expected_rolls_exact"])))
    assert data["median_rolls"] <= data["p90_rolls"]


def test_analyze_float_for_five_players_and_a_readable_table() -> None:
    result = runner.invoke(
        app, ["analyze", "aces-in-the-pot", "--players", "5", "--float", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["win_probability"] is None and data["exact"] is False
    assert sum(data["win_probability_float"]) == pytest.approx(1, abs=1e-12)
    text = runner.invoke(app, ["analyze", "aces-in-the-pot", "-n", "4", "--lang", "pt"])
    assert text.exit_code == 0 and "Lançamentos esperados" in text.stdout


@pytest.mark.slow
def test_analyze_plot_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "aces.png"
    result = runner.invoke(
        app, ["analyze", "aces-in-the-pot", "-n", "3", "--float", "--plot", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_analyze_refuses_two_players_and_slow_exact_requests() -> None:
    result = runner.invoke(app, ["analyze", "aces-in-the-pot", "--players", "2"])
    assert result.exit_code == 2 and "from 3 to 12" in result.output
    result = runner.invoke(app, ["analyze", "aces-in-the-pot", "--players", "6", "--exact"])
    assert result.exit_code == 2 and "--float" in result.output


def test_play_a_session_of_three_games_prints_the_tally_and_saves_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["play", "aces-in-the-pot", "--watch", "-n", "4", "--games", "3", "--seed", "1"]
    result = runner.invoke(app, [*args, "--speed", "fast", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Game 3 of 3" in result.stdout and "Pots won" in result.stdout
    # One naming of players: watching, every seat is a bot, counted from 1.
    rows = re.findall(r"│ Bot (\d) \(random\) │ (\d+) │", result.stdout)
    assert len(rows) == 4 and sum(int(won) for _, won in rows) == 3
    saved = sorted((tmp_path / "records").glob("*.json"))
    assert len(saved) == 3
    winners = []
    for path in saved:
        final = replay(Record.load(path))
        winners.append(max(range(4), key=lambda s: final.returns()[s]))
    for bot, won in rows:
        assert winners.count(int(bot) - 1) == int(won)
    again = runner.invoke(app, [*args, "--speed", "fast", "--lang", "en"])
    assert again.stdout.split("Record saved")[0] == result.stdout.split("Record saved")[0]


def test_play_one_game_in_portuguese_to_a_given_record(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    args = ["play", "aces-in-the-pot", "--watch", "-n", "3", "--seed", "5", "--speed", "fast"]
    result = runner.invoke(app, [*args, "--lang", "pt", "--record", str(out)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())  # the console wraps long lines
    assert "ganha o pote" in text and "começa o final" in text
    assert replay(Record.load(out)).is_terminal()


def test_rules_sheet_in_english_and_portuguese_follows_the_options() -> None:
    en = runner.invoke(app, ["rules", "aces-in-the-pot", "--lang", "en"])
    pt = runner.invoke(app, ["rules", "aces-in-the-pot", "--lang", "pt"])
    assert en.exit_code == 0 and pt.exit_code == 0
    assert "exactly one chip is left in play" in en.stdout
    assert "resta exatamente uma ficha em jogo" in pt.stdout
    variant = runner.invoke(
        app, ["rules", "aces-in-the-pot", "--finish", "one-holder", "--finish-rolls", "4"]
    )
    assert "only one player holds chips" in variant.stdout and "up to 4 rolls" in variant.stdout
