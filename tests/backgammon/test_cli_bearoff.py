"""``aceydeucey bearoff``: build a table into the data folder, read races from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey.cli.app import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ACEYDEUCEY_BEAROFF_DIR", str(tmp_path))
    from aceydeucey.backgammon import bearoff

    monkeypatch.setattr(bearoff, "_LOADED", {})
    return tmp_path


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_build_writes_the_table_once(data_folder: Path) -> None:
    code, out = run("bearoff", "build", "--variant", "classic", "--checkers", "3")
    assert code == 0, out
    files = list(data_folder.glob("one-sided-*-3.npz"))
    assert len(files) == 1
    assert "ready" in out
    code, out = run("bearoff", "build", "--variant", "classic", "--checkers", "3")
    assert code == 0 and "already built" in out


def test_build_refuses_a_reading_without_a_one_sided_table_in_portuguese() -> None:
    code, out = run(
        "bearoff", "build", "-o", "unplayable_remainder=to_opponent", "--checkers", "2",
        "--lang", "pt",
    )  # fmt: skip
    assert code == 2
    assert "corridas independentes" in out


def test_build_refuses_a_size_out_of_range() -> None:
    code, out = run("bearoff", "build", "--checkers", "16")
    assert code == 2 and "from 1 to 15 checkers" in out


@pytest.mark.slow
def test_race_json_is_the_table_value(data_folder: Path) -> None:
    from aceydeucey.backgammon import bearoff
    from aceydeucey.backgammon.rules import BackgammonRules

    # a full table is built on first use: fake it with a small one under the full name
    rules = BackgammonRules.resolve(variant="classic")
    small = bearoff.build_one_sided(rules, 3)
    bearoff.save_one_sided(small, bearoff.one_sided_path(rules))
    code, out = run(
        "bearoff", "race", "0,0,1,0,0,1", "1,1,0,0,0,0", "--variant", "classic", "--json"
    )
    assert code == 0, out
    data = json.loads(out)
    value = bearoff.race_value(small, (0, 0, 1, 0, 0, 1), (1, 1, 0, 0, 0, 0))
    assert data["win"] == pytest.approx(value.win)
    # two checkers against two: the two-sided table answers too, never below the policy
    assert data["two_sided_win"] >= data["win"] - 1e-6  # the saved table is float32
    assert data["turns"][1] == 1.0  # two checkers on the 1 and 2 points: off in one turn


@pytest.mark.parametrize("counts", ["1,2,3", "a,b,c,d,e,f", "0,0,0,0,0,0", "9,9,0,0,0,0"])
def test_race_refuses_counts_that_are_no_side(counts: str) -> None:
    code, out = run("bearoff", "race", counts, "1,0,0,0,0,0")
    assert code == 2
    assert "six counts of checkers" in out
