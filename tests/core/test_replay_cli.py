"""`aceydeucey replay FILE [--json]`: verify a record and print the standings."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from aceydeucey.cli.app import app
from aceydeucey.core import Record, Stacked, Table
from aceydeucey.core.registry import register_game
from tests.core.toy import ToyGame, ToyRules

register_game("toy", "tests.core.toy:ToyGame")
runner = CliRunner()


class _Says:
    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)

    def act(self, observation: dict[str, object]) -> str:
        return self.answers.pop(0)


def _saved(tmp_path: Path) -> Path:
    game = ToyGame(ToyRules.resolve(factor=2))
    table = Table(
        game, [_Says("double"), _Says("stay")], chance=Stacked(["3"]), names=["ana", "bo"]
    )
    return table.play().save(tmp_path / "toy.json")


def test_replay_prints_standings(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(_saved(tmp_path)), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "3 actions verified" in result.output
    assert "1. ana: +12" in result.output and "2. bo: -12" in result.output


def test_replay_json(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(_saved(tmp_path)), "--json"])
    data = json.loads(result.output)
    assert data["returns"] == ["12", "-12"] and data["terminal"] is True
    assert data["standings"][0] == {"player": "ana", "return": "12"}


def test_replay_in_portuguese(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(_saved(tmp_path)), "--lang", "pt"])
    assert "3 ações verificadas" in result.output


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    data = json.loads(path.read_text())
    data["actions"][1] = "bet 5"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "action #1 'bet 5'" in result.output and "not a toy action" in result.output


def test_replay_refuses_a_missing_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_unfinished_record_is_reported(tmp_path: Path) -> None:
    game = ToyGame(ToyRules.resolve())
    record = Record.start(game, ["a", "b"])
    record.actions = ["1"]
    path = record.save(tmp_path / "partial.json")
    result = runner.invoke(app, ["replay", str(path), "--lang", "en"])
    assert result.exit_code == 0 and "game unfinished" in result.output


def test_default_record_paths_never_overwrite(tmp_path: Path, monkeypatch: object) -> None:
    from aceydeucey.cli.common import default_record_path

    monkeypatch.chdir(tmp_path)  # type: ignore[attr-defined]
    first = default_record_path("toy")
    first.parent.mkdir()
    first.write_text("{}")
    second = default_record_path("toy")
    assert second != first and second.parent == first.parent
    assert second.name.startswith(first.stem) and second.name.endswith("-2.json")
    assert default_record_path("toy", "-3").stem.endswith("-3")
