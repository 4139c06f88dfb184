"""The terminal as a user meets it (issue 8): a person at the table, Ctrl-C, records,
resuming, help screens, decimals in the analysis, one naming of players, both languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey import Record, load_game, replay
from aceydeucey.cli import aces_table
from aceydeucey.cli.app import app
from aceydeucey.core.chance import Seeded
from aceydeucey.core.session import play_session

runner = CliRunner()
PLAY = ["play", "aces-in-the-pot", "-n", "3", "--seed", "1"]


def flat(text: str) -> str:
    return " ".join(text.split())  # the console wraps long lines


def game_lengths(seed: int, games: int) -> list[int]:
    session = play_session(load_game("aces-in-the-pot", players=3), games, chance=Seeded(seed))
    return [len(r.actions) for r in session.records]


class CtrlC:
    """``time.sleep`` that raises KeyboardInterrupt at its ``at``-th call (Ctrl-C)."""

    def __init__(self, at: int) -> None:
        self.calls = 0
        self.at = at

    def __call__(self, seconds: float) -> None:
        self.calls += 1
        if self.calls == self.at:
            raise KeyboardInterrupt


def test_ctrl_c_in_a_session_keeps_finished_games_and_saves_the_interrupted_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _, _ = game_lengths(1, 3)
    # The narrator pauses after every throw but a game's last: game 1 makes first - 1
    # pauses; Ctrl-C comes at the third pause of game 2 (3 actions of it recorded).
    monkeypatch.setattr(aces_table.time, "sleep", CtrlC(first - 1 + 3))
    out = tmp_path / "s.json"
    result = runner.invoke(
        app, [*PLAY, "--watch", "--games", "3", "--lang", "en", "--record", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    text = flat(result.stdout)
    assert "Stopped." in text and "Unfinished game saved" in text
    assert "Stopped after 1 game; most pots so far" in text and "wins the match" not in text
    done, cut = Record.load(tmp_path / "s-1.json"), Record.load(tmp_path / "s-2.json")
    assert replay(done).is_terminal() and len(done.actions) == first
    assert cut.result is not None and cut.result["terminal"] is False
    assert len(cut.actions) == 3 and not replay(cut).is_terminal()
    assert not (tmp_path / "s-3.json").exists()
    # --resume continues the interrupted game to its end, from its record.
    resumed = tmp_path / "r.json"
    again = runner.invoke(
        app,
        [
            "play",
            "aces-in-the-pot",
            "--watch",
            "--speed",
            "fast",
            "--resume",
            str(cut_path := tmp_path / "s-2.json"),
            "--record",
            str(resumed),
        ],
    )
    assert again.exit_code == 0, again.output
    assert "continues from its record" in again.stdout
    final = Record.load(resumed)
    assert final.actions[:3] == Record.load(cut_path).actions
    assert replay(final).is_terminal()
    # A finished game cannot be resumed; the message says so, in Portuguese too.
    refused = runner.invoke(
        app, ["play", "aces-in-the-pot", "--resume", str(resumed), "--lang", "pt"]
    )
    assert refused.exit_code == 2 and "já terminou" in flat(refused.output)


def test_an_unwritable_record_path_is_refused_before_the_first_throw(tmp_path: Path) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder")
    for target, lang, words in [
        (blocker / "game.json", "en", "cannot save the record"),
        (tmp_path, "en", "it is a folder"),
        (blocker / "game.json", "pt", "não é possível guardar o registo"),
    ]:
        result = runner.invoke(
            app, [*PLAY, "--watch", "--speed", "fast", "--record", str(target), "--lang", lang]
        )
        assert result.exit_code == 2
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert words in flat(result.output)
        assert "die" not in result.stdout and "dado" not in result.stdout  # nothing was played


def test_a_person_holds_a_seat_and_throws_with_enter(tmp_path: Path) -> None:
    mine, watched = tmp_path / "mine.json", tmp_path / "watched.json"
    result = runner.invoke(
        app,
        [*PLAY, "--seat", "2", "--speed", "fast", "--lang", "en", "--record", str(mine)],
        input="\n" * 500,
    )
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "You: your die for the roll-off. Press Enter" in text
    assert "You: your throw. Press Enter to roll both dice" in text
    assert "Bot 1 (random)" in text and "Bot 2 (random)" in text  # seats 1 and 3
    # The dice are chance's, drawn after the gesture: the same seed throws the same game.
    runner.invoke(app, [*PLAY, "--watch", "--speed", "fast", "--record", str(watched)])
    assert Record.load(mine).actions == Record.load(watched).actions
    assert Record.load(mine).players == ["Bot 1 (random)", "You", "Bot 2 (random)"]


def test_q_at_the_prompt_stops_and_saves_the_game_unfinished_in_portuguese(
    tmp_path: Path,
) -> None:
    out = tmp_path / "g.json"
    result = runner.invoke(
        app, [*PLAY, "--speed", "fast", "--lang", "pt", "--record", str(out)], input="\n\nq\n"
    )
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "Você: o seu dado do sorteio inicial" in text
    assert "Parado." in text and "Jogo inacabado guardado" in text
    record = Record.load(out)
    assert record.result is not None and record.result["terminal"] is False
    assert 2 <= len(record.actions) < 10


def test_a_seat_outside_the_table_is_refused() -> None:
    result = runner.invoke(app, [*PLAY, "--seat", "4"])
    assert result.exit_code == 2 and "seats are 1 to 3" in flat(result.output)


def test_analyze_shows_decimals_by_default_and_fractions_with_exact_or_json() -> None:
    plain = runner.invoke(app, ["analyze", "aces-in-the-pot", "-n", "3"])
    assert plain.exit_code == 0, plain.output
    assert not re.search(r"\d{15,}", plain.stdout)  # no 150-digit fractions
    assert re.search(r"│\s+1 │ 0\.\d{6} │", plain.stdout)  # seats counted from 1
    exact = runner.invoke(app, ["analyze", "aces-in-the-pot", "-n", "3", "--exact"])
    assert re.search(r"\d{15,}/", exact.stdout.replace("\n", "").replace("│", ""))
    data = json.loads(
        runner.invoke(app, ["analyze", "aces-in-the-pot", "-n", "3", "--json"]).stdout
    )
    assert data["exact"] and all("/" in p for p in data["win_probability"])
    pt = runner.invoke(app, ["analyze", "aces-in-the-pot", "-n", "3", "--lang", "pt"])
    assert re.search(r"│\s+1 │\s+0,\d{6} │", pt.stdout)


def test_rules_take_dash_o_options_like_the_other_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the game played saves its record under records/ here
    result = runner.invoke(app, ["rules", "aces-in-the-pot", "-o", "finish_rolls=4"])
    assert result.exit_code == 0, result.output
    assert "up to 4 rolls" in flat(result.stdout)
    played = runner.invoke(
        app, [*PLAY, "--watch", "--speed", "fast", "-o", "finish_rolls=1", "--json"]
    )
    assert played.exit_code == 0, played.output
    bad = runner.invoke(app, ["rules", "aces-in-the-pot", "-o", "first_roller=9", "--lang", "pt"])
    assert bad.exit_code == 2 and "não é um lugar" in flat(bad.output)
    assert "Traceback" not in bad.output


def test_version_and_help_screens_without_bool_after_flags() -> None:
    version = runner.invoke(app, ["--version"])
    assert version.exit_code == 0 and re.fullmatch(r"aceydeucey \d+\.\d+\.\d+\S*\n", version.stdout)
    for args in (
        ["play", "aces-in-the-pot", "--help"],
        ["analyze", "aces-in-the-pot", "--help"],
        ["replay", "--help"],
        ["--help"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        assert "<bool>" not in result.stdout, args
    assert "<int>" in runner.invoke(app, ["play", "aces-in-the-pot", "--help"]).stdout


def test_the_person_holding_the_finish_is_told_what_a_clean_roll_means(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the game saves its record under records/ here
    # Seed 7 at 3 seats: seat 1 holds the first finish attempt (the playthrough shows it).
    result = runner.invoke(
        app,
        ["play", "aces-in-the-pot", "-n", "3", "--seed", "7", "--speed", "fast", "--seat", "1"],
        input="\n" * 100,
    )
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "You: finish roll 1 of 3, no six wins the pot. Press Enter" in text
    assert re.search(r"You roll \d-\d \(finish roll 1 of 3\)", text)  # worded for "You"


def test_one_naming_of_players() -> None:
    from aceydeucey.cli.common import player_names

    assert player_names(3, (0,), "random", "en") == ["You", "Bot 1 (random)", "Bot 2 (random)"]
    assert player_names(3, (1,), "ev", "pt") == ["Bot 1 (ev)", "Você", "Bot 2 (ev)"]
    assert player_names(2, (0, 1), "random", "en") == ["Player 1", "Player 2"]


def test_replay_speaks_portuguese(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    runner.invoke(app, [*PLAY, "--watch", "--speed", "fast", "--record", str(out)])
    result = runner.invoke(app, ["replay", str(out), "--lang", "pt"])
    assert result.exit_code == 0, result.output
    assert "ações verificadas" in result.stdout and "1. Bot" in result.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    refused = runner.invoke(app, ["replay", str(broken), "--lang", "pt"])
    assert refused.exit_code == 2 and "erro:" in refused.output


def test_end_of_input_saves_the_game_unfinished_and_fails(tmp_path: Path) -> None:
    # The input closes at a throw: the game is saved unfinished and the command exits 1
    # saying so (a quit, by contrast, is the player's choice and exits 0).
    out = tmp_path / "g.json"
    result = runner.invoke(
        app, [*PLAY, "--speed", "fast", "--lang", "pt", "--record", str(out)], input="\n\n"
    )
    assert result.exit_code == 1, result.output
    assert "a entrada acabou antes do jogo" in flat(result.output)
    assert not replay(Record.load(out)).is_terminal()
