"""The doubling cube at the terminal: ``--cube`` and ``--match``, and a person answering
double / roll and take / drop / beaver in either language."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey.cli.app import app
from aceydeucey.core.chance import Seeded
from aceydeucey.core.game import State
from aceydeucey.core.record import Record, replay
from aceydeucey.core.registry import load_game

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, ["play", "backgammon", *args, "--speed", "fast"], input=stdin)
    return result.exit_code, result.output


def to_first_cube(seed: int, **rules: object) -> tuple[State, list[str]]:
    """The seeded game up to its first cube decision, each person's first listed play
    made on the way: the state there and the answers typed to reach it."""
    state = load_game("backgammon", variant="classic", **rules).new_initial_state()
    chance = Seeded(seed)
    typed: list[str] = []
    while state.phase_name() != "cube":
        if state.is_chance_node():
            state = state.apply(chance.choose(state))
        else:
            typed.append("1")
            state = state.apply(state.legal_actions()[0])
    return state, typed


@pytest.mark.parametrize(
    ("lang", "double", "take", "words"),
    [
        ("en", "d", "t",
         ("d doubles to 2", "t takes", "doubles to 2.", "takes: the cube is at 2.")),
        ("pt", "dobrar", "a",
         ("d dobra para 2", "a aceita", "dobra para 2.", "aceita: o cubo fica a 2.")),
    ],
)  # fmt: skip
def test_a_person_doubles_and_the_other_takes(
    lang: str, double: str, take: str, words: tuple[str, ...], tmp_path: Path
) -> None:
    _, typed = to_first_cube(5, cube="money")
    path = tmp_path / "cube.json"
    code, output = run(
        "--hot-seat", "--variant", "classic", "--cube", "money", "--seed", "5",
        "--lang", lang, "--record", str(path),
        stdin="\n".join([*typed, double, take]) + "\n",
    )  # fmt: skip
    assert code == 1, output  # the input ends after the take: saved unfinished
    for text in words:
        assert text in output
    record = Record.load(path)
    assert record.rules["cube"] == "money"
    at = record.actions.index("double")
    assert record.actions[at + 1] == "take"  # then chance rolls for the doubler
    state = replay(record)
    assert state.observation(None)["cube"] == 2 and not state.is_terminal()


def test_a_drop_ends_the_game_at_the_cubes_value(tmp_path: Path) -> None:
    _, typed = to_first_cube(5, cube="money")
    path = tmp_path / "drop.json"
    code, output = run(
        "--hot-seat", "--variant", "classic", "--cube", "money", "--seed", "5",
        "--record", str(path), stdin="\n".join([*typed, "double", "drop"]) + "\n",
    )  # fmt: skip
    assert code == 0, output  # the game is over: nothing more is asked
    assert "drops" in output and "wins 1 point (a dropped double)." in output
    state = replay(Record.load(path))
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and dict(outcome.params)["points"] == 1


def test_a_wrong_answer_is_explained_and_asked_again(tmp_path: Path) -> None:
    _, typed = to_first_cube(5, cube="money")
    code, output = run(
        "--hot-seat", "--variant", "classic", "--cube", "money", "--seed", "5",
        "--record", str(tmp_path / "r.json"),
        stdin="\n".join([*typed, "13/7", "?", "r"]) + "\n",
    )  # fmt: skip
    assert code == 1, output
    assert "13/7: not an answer to the cube. Answer d (double) or r (roll)." in output
    assert "roll" in Record.load(tmp_path / "r.json").actions


def test_match_flag_plays_a_match_with_the_cube(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    code, output = run(
        "--watch", "--bot", "greedy", "--variant", "classic", "--match", "3", "--seed", "1",
        "--record", str(path),
    )  # fmt: skip
    assert code == 0, output
    assert "Match to 3" in output
    record = Record.load(path)
    assert record.rules["cube"] == "match" and record.rules["match_length"] == 3
    outcome = replay(record).outcome()
    assert outcome is not None
    final = dict(outcome.params)["final"]  # "x-y", the winner's score at least 3
    assert max(int(n) for n in str(final).split("-")) >= 3


def test_match_without_the_cube(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    code, output = run(
        "--watch", "--bot", "greedy", "--variant", "classic", "--match", "1", "--cube", "none",
        "--seed", "2", "--record", str(path),
    )  # fmt: skip
    assert code == 0, output
    record = Record.load(path)
    assert record.rules["cube"] == "none" and record.rules["match_length"] == 1
    assert not {"double", "take", "drop"} & set(record.actions)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cube", "money", "-o", "cube=none"], "--cube and --match set the option cube"),
        (["--match", "5", "-o", "match_length=3"], "option match_length"),
        (["--cube", "sometimes"], "sometimes"),
        (["--match", "0"], "--match"),
        (["--cube", "money", "--match", "5"], "match"),
    ],
)
def test_contradictory_cube_flags_are_refused(args: list[str], message: str) -> None:
    code, output = run("--watch", "--variant", "classic", *args)
    assert code == 2, output
    assert message in output


def test_resume_refuses_the_cube_flags(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    run("--hot-seat", "--seed", "7", "--record", str(path), stdin="1\n")
    code, output = run("--resume", str(path), "--match", "3")
    assert code == 2 and "--match" in output


def test_one_person_is_said_as_you(tmp_path: Path) -> None:
    # seed 11: the bot wins the roll-off, so the person's first turn starts at the cube
    code, output = run(
        "--variant", "classic", "--cube", "money", "--seed", "11", "--bot", "greedy",
        "--record", str(tmp_path / "you.json"), stdin="d\n",
    )  # fmt: skip
    assert code == 1, output
    assert "You double to 2." in output and "You doubles" not in output
    assert "Bot 1 (greedy) takes: the cube is at 2." in output


@pytest.mark.parametrize(
    ("lang", "you", "other"),
    [
        ("en", "You win 1 point (a dropped double).", "Ana wins 1 point (a dropped double)."),
        ("pt", "Você vence por 1 ponto (dobra recusada).",
         "Ana vence por 1 ponto (dobra recusada)."),
    ],
)  # fmt: skip
def test_the_result_is_said_to_you_or_of_the_winner(lang: str, you: str, other: str) -> None:
    from aceydeucey.cli.backgammon import _result_line

    state, _ = to_first_cube(5, cube="money")
    doubler = state.current_player()
    state = state.apply(state.parse_action("double"))
    state = state.apply(state.parse_action("drop"))
    assert state.is_terminal()
    names = ["Ana", "Ana"]
    assert _result_line(state, lang, names, you=doubler) == you
    assert _result_line(state, lang, names, you=1 - doubler) == other
    assert _result_line(state, lang, names) == other
