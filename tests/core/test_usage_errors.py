"""Usage errors of the command line (Typer's own) reach a Portuguese screen in Portuguese."""

from __future__ import annotations

import pytest

from aceydeucey.cli.app import app
from aceydeucey.cli.usage import run


def usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        run(app, argv)
    captured = capsys.readouterr()
    code = done.value.code
    return (code if isinstance(code, int) else 0), " ".join((captured.out + captured.err).split())


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["simulate", "inbetween", "--sessions", "abc", "--lang", "pt"],
            "erro: valor inválido para --sessions: abc (um número inteiro)",
        ),
        (
            ["play", "backgammon", "--speed=warp", "--lang", "pt"],
            "valor inválido para --speed: warp (aceites: fast, normal)",
        ),
        (["hint", "backgammon", "--dice", "3-1", "--lang", "pt"], "falta a opção --position"),
        (
            ["train", "backgammon", "--threads", "0", "--lang", "pt"],
            "valor inválido para --threads: 0 (um número de 1 a 64)",
        ),
        (
            ["play", "backgammon", "--frobnicate", "--lang", "pt"],
            "opção desconhecida: --frobnicate",
        ),
        (
            ["train", "backgammon", "--lang", "pt", "--games", "3", "extra"],
            "argumentos a mais, inesperados: extra",
        ),
        # a missing argument, by its name on the usage line (not the function's parameter)
        (["tournament", "--lang", "pt"], "falta o argumento GAME"),
        (["simulate", "chess", "--lang", "pt"], "não há o comando 'chess'"),
        (["simulate", "inbetwen", "--lang", "pt"], "(queria dizer inbetween?)"),
    ],
)
def test_usage_errors_in_portuguese(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = usage(argv, capsys)
    assert code == 2
    assert expected in text, text
    assert "Veja 'aceydeucey" in text and "--help'" in text
    for english in (
        "Invalid value",
        "Missing option",
        "No such option",
        "Got unexpected",
        "Usage:",
        "game_id",
        "No such command",
        "Did you mean",
    ):
        assert english not in text


def test_english_keeps_typers_own_screen(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = usage(["simulate", "inbetween", "--sessions", "abc", "--lang", "en"], capsys)
    assert code == 2 and "Invalid value for '--sessions'" in text


def test_exit_statuses_are_kept_in_portuguese(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = usage(["rules", "aces-in-the-pot", "--lang", "pt"], capsys)
    assert code == 0 and "Ases no Pote" in text
    code, text = usage(["simulate", "inbetween", "--sessions", "0", "--lang", "pt"], capsys)
    assert code == 2 and text.startswith("erro:")


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["tournament", "backgammon", "--lang", "pt", "--games"], "a opção --games precisa"),
        (["play", "backgammon", "--lang", "pt", "--hot-seat=1"], "a opção --hot-seat não"),
    ],
)
def test_an_option_without_its_value_or_a_flag_with_one_in_portuguese(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = usage(argv, capsys)
    assert code == 2 and text.startswith("erro:") and expected in text, text
    assert "requires an argument" not in text and "does not take a value" not in text


def test_input_ending_at_a_prompt_says_so_in_portuguese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import aceydeucey.cli.app as cli_app

    def interrupted(*args: object, **kwargs: object) -> None:
        raise EOFError  # what a prompt raises when its input ends (Click: "Aborted!")

    monkeypatch.setattr(cli_app.Record, "load", staticmethod(interrupted))
    code, text = usage(["replay", "any.json", "--lang", "pt"], capsys)
    assert code == 1 and "Interrompido." in text and "Aborted" not in text
