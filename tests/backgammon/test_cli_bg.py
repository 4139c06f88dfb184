"""The terminal front end of backgammon: rules sheets, watched games, human input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey.backgammon.rules import VARIANTS, BackgammonRules
from aceydeucey.cli.app import app
from aceydeucey.core.chance import Seeded
from aceydeucey.core.record import Record, replay
from aceydeucey.core.registry import load_game
from aceydeucey.locale import t

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    args = (*args, "--speed", "fast") if args[:1] == ("play",) else args
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.output


# -- rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_rules_sheet_in_both_languages_for_every_variant(variant: str) -> None:
    code_en, en = run("rules", "backgammon", "--variant", variant, "--lang", "en")
    code_pt, pt = run("rules", "backgammon", "--variant", variant, "--lang", "pt")
    assert code_en == 0 and code_pt == 0
    # the variant by the lobby's name for it, not its id
    assert f"Rules: {t('web', f'preset.backgammon.{variant}', 'en')}" in en
    assert f"Regras: {t('web', f'preset.backgammon.{variant}', 'pt')}" in pt
    assert "Scoring" in en and "Pontuação" in pt


def test_rules_sheet_follows_the_options() -> None:
    # Exact bear-off replaces the higher-die rule and is listed among the changed options.
    _, plain = run("rules", "backgammon", "--lang", "en")
    code, changed = run(
        "rules", "backgammon", "--lang", "en", "--option", "bearoff_rule=exact_only"
    )
    assert code == 0
    assert "Only exact numbers bear off" in changed and "Only exact numbers" not in plain
    assert "bearoff_rule" not in changed and "exact_only" not in changed  # in words
    _, limited = run("rules", "backgammon", "--lang", "pt", "-o", "acey_chain_limit=2")
    assert "No máximo 2" in limited


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "no_such=1"], "no_such"),
        (["--option", "bearoff_rule=sometimes"], "bearoff_rule"),
        (["--option", "justtext"], "key=value"),
        (["--variant", "chess"], "chess"),
        (["--variant", "classic", "--option", "entry_gate=six"], "entry_gate"),
    ],
)
def test_bad_rules_are_refused_with_the_reason(args: list[str], message: str) -> None:
    code, output = run("rules", "backgammon", *args)
    assert code == 2
    assert message in output


# -- watched games ------------------------------------------------------------------------------


def test_watched_game_plays_to_the_end_and_its_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, output = run("play", "backgammon", "--watch", "--seed", "1", "--record", str(path))
    assert code == 0, output
    assert "Opening roll-off" in output and "wins" in output
    assert str(path) in output.replace("\n", "")
    code, verified = run("replay", str(path), "--json")
    assert code == 0
    summary = json.loads(verified)
    assert summary["terminal"] is True
    record = json.loads(path.read_text())
    assert summary["returns"] == record["result"]["returns"]
    # Under Acey-Deucey scoring the winner takes one point per checker the loser has left.
    assert sorted(int(r) for r in summary["returns"])[1] > 0


def test_watched_games_are_reproducible_by_seed(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    for path in (first, second):
        run(
            "play",
            "backgammon",
            "--watch",
            "--seed",
            "4",
            "--variant",
            "classic",
            "--record",
            str(path),
        )
    assert json.loads(first.read_text())["actions"] == json.loads(second.read_text())["actions"]
    assert json.loads(first.read_text())["rules"]["variant"] == "classic"


def test_watched_game_in_portuguese(tmp_path: Path) -> None:
    code, output = run(
        "play",
        "backgammon",
        "--watch",
        "--bot",
        "random",
        "--seed",
        "2",
        "--lang",
        "pt",
        "--variant",
        "classic",
        "--record",
        str(tmp_path / "r.json"),
    )
    assert code == 0
    assert "Sorteio inicial" in output and "vence" in output and "Registo guardado" in output


def test_default_record_path_is_under_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = run("play", "backgammon", "--watch", "--seed", "3", "--variant", "classic")
    assert code == 0
    saved = list((tmp_path / "records").glob("backgammon-*.json"))
    assert len(saved) == 1
    assert saved[0].name in output.replace("\n", "")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--watch", "--hot-seat"], "exclude"),
        (["--bot", "oracle"], "oracle"),
    ],
)
def test_bad_play_options_are_refused(args: list[str], message: str) -> None:
    code, output = run("play", "backgammon", *args)
    assert code == 2 and message in output


# -- humans -------------------------------------------------------------------------------------


def first_decision(seed: int) -> tuple[int, list[str]]:
    """The seat to act and its legal plays after the seeded opening (chance only)."""
    state = load_game("backgammon").new_initial_state()
    chance = Seeded(seed)
    while state.is_chance_node():
        state = state.apply(chance.choose(state))
    return state.current_player(), [str(a) for a in state.legal_actions()]


def test_hot_seat_rejects_an_illegal_play_then_lists_and_accepts_a_legal_one(
    tmp_path: Path,
) -> None:
    # At the first turn of Acey-Deucey nothing is on the board yet: 13/7 has no checker
    # to move.  The player is told why and asked again, lists the plays, and enters one;
    # end of input at the next prompt stops the game and keeps the record.
    seat, legal = first_decision(7)
    path = tmp_path / "hot.json"
    code, output = run(
        "play",
        "backgammon",
        "--hot-seat",
        "--seed",
        "7",
        "--record",
        str(path),
        stdin=f"13/7\nlist\n{legal[0]}\n",
    )
    assert code == 1, output  # the input ended before the game: saved, and a failure
    assert "13/7: no checker on point 13" in output
    assert "Try again" in output
    listed = output.split(f"Legal plays ({len(legal)}):", 1)
    assert len(listed) == 2
    shown = listed[1].split("Game stopped")[0]
    assert all(play in shown for play in legal)
    assert "Game stopped before the end" in output
    record = Record.load(path)
    assert legal[0] in record.actions
    state = replay(record)
    assert not state.is_terminal()
    assert state.current_player() in (-1, 1 - seat)  # the other player's roll or turn


def test_a_syntax_error_is_explained(tmp_path: Path) -> None:
    code, output = run(
        "play",
        "backgammon",
        "--hot-seat",
        "--seed",
        "7",
        "--record",
        str(tmp_path / "s.json"),
        stdin="25/20\nquit\n",
    )
    assert code == 0
    assert "not on the board" in output


def test_human_against_bot_end_of_input_saves_unfinished_and_fails(tmp_path: Path) -> None:
    path = tmp_path / "partial.json"
    code, output = run("play", "backgammon", "--seed", "5", "--record", str(path), stdin="")
    assert code == 1, output
    assert "Game stopped" in output and "input ended before the game did" in output
    record = Record.load(path)
    assert record.players == ["You", "Bot 1 (greedy)"]
    assert not replay(record).is_terminal()


def test_an_unwritable_record_path_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, output = run(
        "play", "backgammon", "--watch", "--seed", "1", "--record", str(blocker / "r.json")
    )
    assert code == 2
    assert "cannot save the record" in output
    assert "Opening roll-off" not in output  # refused before play started


def test_list_options_shows_every_option_with_its_value_here() -> None:
    code, output = run("rules", "backgammon", "--variant", "classic", "--list-options")
    assert code == 0
    for name in BackgammonRules.option_names():
        assert f"{name} = " in output
    assert "start = standard" in output and "acey_deucey = false" in output


@pytest.mark.parametrize("variant", ["longgammon", "dutch"])
def test_other_variants_play_to_the_end_and_replay(variant: str, tmp_path: Path) -> None:
    path = tmp_path / f"{variant}.json"
    code, output = run(
        "play", "backgammon", "--watch", "--variant", variant, "--seed", "2", "--record", str(path)
    )
    assert code == 0, output
    state = replay(Record.load(path))
    assert state.is_terminal()
    assert Record.load(path).rules["variant"] == variant


# -- the prompt: quitting, numbers, the named double, the result said once ---------------------


def human_at(observation: dict[str, object], inputs: list[str], monkeypatch, lang="en"):  # type: ignore[no-untyped-def]
    """Run a HumanAgent's act on ``observation`` with typed ``inputs``; (answer, prompts)."""
    from aceydeucey.cli import backgammon as cli

    typed = iter(inputs)
    prompts: list[str] = []

    def fake_input(prompt: str = "", **_: object) -> str:
        prompts.append(prompt)
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(cli.console, "input", fake_input)
    agent = cli.HumanAgent(lang, ["You", "Bot 1 (greedy)"])
    return agent.act(observation), prompts  # type: ignore[arg-type]


def play_observation() -> dict[str, object]:
    from aceydeucey.backgammon.board import Position
    from aceydeucey.backgammon.game import BackgammonGame

    game = load_game("backgammon", variant="classic")
    assert isinstance(game, BackgammonGame)
    position = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    return game.new_state(position=position, dice=(6, 5)).observation(0)


@pytest.mark.parametrize("word", ["q", "Q", "quit", "QUIT", "Exit"])
def test_q_and_quit_stop_in_any_case(word: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from aceydeucey.cli import backgammon as cli

    with pytest.raises(cli._Stop):
        human_at(play_observation(), [word], monkeypatch)


def test_question_mark_lists_the_plays_numbered_and_a_number_picks_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    obs = play_observation()
    legal = obs["legal_actions"]
    assert isinstance(legal, list)
    answer, _ = human_at(obs, ["?", "3"], monkeypatch)
    assert answer == legal[2]
    shown = capsys.readouterr().out
    for number, play in enumerate(legal, 1):
        assert f"{number}. {play}\n" in shown  # one per line
    answer, _ = human_at(obs, [str(len(legal) + 1), "1"], monkeypatch)
    assert answer == legal[0]
    assert f"numbered 1 to {len(legal)}" in capsys.readouterr().out


def test_question_mark_pages_a_long_list_of_plays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Doubles from the opening position have dozens of plays: ? shows them a page at a
    # time, says how many are left, and the next ? shows the next page.
    from aceydeucey.backgammon.board import Position
    from aceydeucey.backgammon.game import BackgammonGame
    from aceydeucey.cli.backgammon import PAGE

    game = load_game("backgammon", variant="classic")
    assert isinstance(game, BackgammonGame)
    position = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    obs = game.new_state(position=position, dice=(1, 1)).observation(0)
    legal = obs["legal_actions"]
    assert isinstance(legal, list) and len(legal) > 2 * PAGE
    answer, _ = human_at(obs, ["?", "?", str(PAGE + 3)], monkeypatch)
    assert answer == legal[PAGE + 2]
    shown = capsys.readouterr().out
    assert f"Legal plays 1 to {PAGE} of {len(legal)}:" in shown
    assert f"Legal plays {PAGE + 1} to {2 * PAGE} of {len(legal)}:" in shown
    assert f"… {len(legal) - PAGE} more: ? shows the next ones." in shown
    numbered = re.findall(r"^\s+(\d+)\. ", shown, flags=re.MULTILINE)
    assert [int(n) for n in numbered] == list(range(1, 2 * PAGE + 1))


def test_after_a_1_2_a_number_names_the_double_and_the_prompt_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from aceydeucey.backgammon.board import Position
    from aceydeucey.backgammon.game import BackgammonGame

    game = load_game("backgammon", start="standard")
    assert isinstance(game, BackgammonGame)
    position = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    state = game.new_state(position=position, dice=(2, 1)).apply("13/11 6/5")
    assert state.phase == "double"
    answer, prompts = human_at(state.observation(0), ["6"], monkeypatch)
    assert answer == "double 6"
    assert "name a double" in prompts[0] and "roll again" in prompts[0]
    _, prompts = human_at(state.observation(0), ["6"], monkeypatch, lang="pt")
    assert "escolha uma dupla" in prompts[0] and "lança outra vez" in prompts[0]
    assert state.apply(answer).dice == (6, 6, 6, 6)


def test_naming_a_double_answers_a_move_or_a_bad_number_with_how_to_name_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # After a 1-2 a move (13/7) or a number outside 1-6 is not a move-syntax error: the
    # player is told that a double is named by its number, and asked again.
    from aceydeucey.backgammon.board import Position
    from aceydeucey.backgammon.game import BackgammonGame

    game = load_game("backgammon", start="standard")
    assert isinstance(game, BackgammonGame)
    position = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    obs = game.new_state(position=position, dice=(2, 1)).apply("13/11 6/5").observation(0)
    answer, prompts = human_at(obs, ["13/7", "7", "", "double 4"], monkeypatch)
    assert answer == "double 4" and len(prompts) == 4
    shown = capsys.readouterr().out
    assert "'13/7' does not name a double: a double is named by its number, 1 to 6" in shown
    assert "'7' does not name a double" in shown
    assert "Name the double to play: 1, 2, 3, 4, 5 or 6" in shown  # the empty answer
    assert "not a move" not in shown
    answer, _ = human_at(obs, ["13/7", "dupla 5"], monkeypatch, lang="pt")
    assert answer == "double 5"
    shown = capsys.readouterr().out
    assert "'13/7' não escolhe uma dupla: a dupla escolhe-se pelo seu número, de 1 a 6" in shown


def test_the_winner_is_said_once(tmp_path: Path) -> None:
    code, output = run(
        "play", "backgammon", "--watch", "--seed", "1", "--record", str(tmp_path / "w.json")
    )
    assert code == 0
    assert output.count("wins") == 1
    assert "Game over." in output
    assert "Bot 1 (greedy)" in output and "Bot 2 (greedy)" in output


def test_speed_takes_fast_or_normal() -> None:
    result = runner.invoke(app, ["play", "backgammon", "--watch", "--speed", "slow"])
    assert result.exit_code == 2
    assert "slow" in result.output


def test_an_engine_error_is_shown_in_portuguese(tmp_path: Path) -> None:
    code, output = run(
        "play",
        "backgammon",
        "--hot-seat",
        "--seed",
        "7",
        "--lang",
        "pt",
        "--record",
        str(tmp_path / "pt.json"),
        stdin="13/7\n25/20\nq\n",
    )
    assert code == 0
    assert "13/7: não tem pedras na casa 13" in output
    assert "a casa 25 não existe" in output
    assert "no checker" not in output and "not on the board" not in output


def test_resume_continues_an_unfinished_game(tmp_path: Path) -> None:
    _, legal = first_decision(7)
    path = tmp_path / "first.json"
    code, _ = run(
        "play", "backgammon", "--hot-seat", "--seed", "7", "--record", str(path), stdin="1\n"
    )
    assert code == 1  # input ended: saved unfinished
    before = Record.load(path)
    assert legal[0] in before.actions and not replay(before).is_terminal()
    later = tmp_path / "second.json"
    code, output = run(
        "play",
        "backgammon",
        "--hot-seat",
        "--resume",
        str(path),
        "--record",
        str(later),
        stdin="1\n1\n",
    )
    assert code == 1, output  # two plays, then the input ends: saved unfinished
    assert "Continuing the game" in output
    after = Record.load(later)
    assert after.actions[: len(before.actions)] == before.actions
    assert len(after.actions) > len(before.actions)
    assert after.rules == before.rules
    replay(after)  # the continued record replays


def test_resume_refuses_a_finished_game_and_other_options(tmp_path: Path) -> None:
    done = tmp_path / "done.json"
    run("play", "backgammon", "--watch", "--seed", "1", "--record", str(done))
    code, output = run("play", "backgammon", "--resume", str(done))
    assert code == 2 and "already over" in output
    code, output = run("play", "backgammon", "--resume", str(done), "--variant", "classic")
    assert code == 2 and "--variant" in output


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Bot 2 (net) doubles to 2.", "Bot 1 (net) takes: the cube is at 2.",
                "Match to 3: Bot 1 (net) 0, Bot 2 (net) 0.", "Cube 2, Bot 1 (net)'s.")),
        ("pt", ("Bot 2 (net) dobra para 2.", "Bot 1 (net) aceita: o cubo fica a 2.",
                "Partida a 3: Bot 1 (net) 0, Bot 2 (net) 0.", "Cubo a 2, do lado de Bot 1 (net).")),
    ],
)  # fmt: skip
def test_a_watched_match_with_the_cube_says_each_cube_action_and_the_score(
    lang: str, words: tuple[str, ...], tmp_path: Path
) -> None:
    # a seed whose match (with the shipped classic network) holds a double and a take
    code, output = run(
        "play", "backgammon", "--watch", "--bot", "net", "--seed", "2", "--variant", "classic",
        "-o", "cube=match", "-o", "match_length=3", "--lang", lang,
        "--record", str(tmp_path / "m.json"),
    )  # fmt: skip
    assert code == 0, output
    for text in words:
        assert text in output
    # not doubling is said by the roll that follows, not by a line of its own
    assert "without doubling" not in output and "sem dobrar" not in output
    assert "played double" not in output and "played take" not in output
