"""``aceydeucey export`` and ``aceydeucey import``: a match record to .mat and back."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

import aceydeucey
from aceydeucey.cli.app import app
from aceydeucey.core.record import Record

runner = CliRunner()


def match_record(path: Path) -> Record:
    game = aceydeucey.load_game("backgammon", variant="classic", cube="match", match_length=3)
    rng = random.Random(4)
    state = game.new_initial_state()
    record = Record.start(game, ["Ana", "Bea"])
    while not state.is_terminal():
        text = str(rng.choice(list(state.legal_actions())))
        record.actions.append(text)
        state = state.apply(text)
    record.finish(state)
    record.save(path)
    return record


def test_a_match_record_exports_to_mat_and_imports_back(tmp_path: Path) -> None:
    record = match_record(tmp_path / "match.json")
    result = runner.invoke(app, ["export", str(tmp_path / "match.json")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(" 3 point match")
    mat = tmp_path / "match.mat"
    mat.write_text(result.output, encoding="utf-8")
    out = tmp_path / "again.json"
    result = runner.invoke(app, ["import", str(mat), "-o", str(out), "--lang", "pt"])
    assert result.exit_code == 0, result.output
    assert "Escrito" in result.output
    again = json.loads(out.read_text(encoding="utf-8"))
    assert again["actions"] == record.actions and again["result"] == record.result
    result = runner.invoke(app, ["replay", str(out)])
    assert result.exit_code == 0, result.output


def test_a_file_that_is_no_mat_is_refused_in_the_users_language(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mat"
    bad.write_text("hello\n", encoding="utf-8")
    result = runner.invoke(app, ["import", str(bad), "--lang", "pt"])
    assert result.exit_code == 2
    assert "N point match" in result.output and "falta" in result.output
    acey = tmp_path / "acey.json"
    Record.start(aceydeucey.load_game("backgammon"), ["A", "B"]).save(acey)
    result = runner.invoke(app, ["export", str(acey)])
    assert result.exit_code == 2 and "classic" in result.output
