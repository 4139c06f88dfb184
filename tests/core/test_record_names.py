"""Two games started within the same second in one folder keep two records.

A game chooses its default record name (``records/<game>-<time>.json``) when it starts;
another game started in the same second chooses the same name before either has saved.
Records sent to a default name are created exclusively (``Record.save_new``): the second
gets the next free name and nothing is overwritten.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey.cli import aces
from aceydeucey.cli.app import app
from aceydeucey.core import Record

runner = CliRunner()


def _record(n: int) -> Record:
    return Record(game="aces-in-the-pot", rules={}, players=[f"p{n}"], actions=[str(n)])


def test_save_new_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "records" / "game.json"
    first = _record(1).save_new(path)
    second = _record(2).save_new(path)
    third = _record(3).save_new(path)
    assert [first.name, second.name, third.name] == ["game.json", "game-2.json", "game-3.json"]
    for n, saved in enumerate((first, second, third), 1):
        assert json.loads(saved.read_text())["players"] == [f"p{n}"]


def test_records_saved_at_once_to_one_name_all_survive(tmp_path: Path) -> None:
    path = tmp_path / "same.json"
    start = threading.Barrier(8)
    saved: list[Path] = []

    def save(n: int) -> None:
        start.wait()
        saved.append(_record(n).save_new(path))

    threads = [threading.Thread(target=save, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(saved)) == 8
    players = sorted(json.loads(p.read_text())["players"][0] for p in saved)
    assert players == [f"p{n}" for n in range(8)]


def test_two_games_that_chose_the_same_name_keep_two_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = ["play", "aces-in-the-pot", "--watch", "--speed", "fast", "-n", "3"]
    monkeypatch.chdir(tmp_path)
    # both games start within the same second: both are given the same default name
    same = Path("records") / "aces-in-the-pot-20261201-120000.json"
    monkeypatch.setattr(aces, "default_record_path", lambda *args, **kw: same)
    outputs = []
    for seed in ("1", "2"):
        result = runner.invoke(app, [*command, "--seed", seed, "--lang", "en"])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    saved = [tmp_path / same, tmp_path / "records" / (same.stem + "-2.json")]
    assert sorted((tmp_path / "records").glob("*.json")) == sorted(saved)
    first, second = (Record.load(p) for p in saved)
    assert first.actions != second.actions  # two different games, neither overwritten
    assert same.stem + "-2.json" in outputs[1].replace("\n", "")
