"""A Portuguese sweep of the terminal's play: every kind of prompt and refusal of the three
games, driven by seeded games in ``--lang pt``, shows no text from the catalogs' English side.

Each game is played through a script that meets every prompt kind with the odds (``?``),
an empty answer, words that are no action, refused actions and then legal ones; the whole
output is checked against every English message of the catalogs the terminal speaks from
(each message's literal text between its placeholders) that the Portuguese side does not
share (names such as "Red Dog" or "Kelly" are the same in both).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey.cli.app import app
from aceydeucey.cli.common import console
from tests.english import english_only

runner = CliRunner()

#: The catalogs the terminal's play speaks from (its own, the games', their errors).
DOMAINS = (
    "cli",
    "inbetween",
    "backgammon",
    "aces",
    "errors",
    "inbetween_errors",
    "backgammon_errors",
    "aces_errors",
)


def english_in(output: str) -> list[str]:
    # The options line echoes the command line's own key=value pairs, as typed.
    shown = [line for line in output.splitlines() if not line.startswith("opções: ")]
    text = " ".join(" ".join(shown).split())
    return [
        fragment
        for fragment in english_only(DOMAINS)
        if re.search(rf"(?<![\w-]){re.escape(fragment)}(?![\w-])", text)
    ]


def test_the_sweep_catches_english() -> None:
    # The check itself: an English screen is caught, a Portuguese one is not.
    assert "Your turn" in english_in("Round 1 Your turn. Legal: pass, bet 1–4")
    assert english_in("Volta 1 A sua vez. Possível: passar, apostar 1–4") == []
    assert english_in("Não aceite: bet 99: no máximo 4") == ["bet"]
    assert english_in("Não aceite: stay: só no Red Dog") == ["stay"]


def play(args: list[str], lines: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(console, "width", 160)
    result = runner.invoke(app, [*args, "--lang", "pt"], input="\n".join(lines) + "\n")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1), result.output  # finished, or the script ran out
    return result.output


#: Each In-Between prompt meets: the odds, an empty answer, no action, a refused stake, a
#: refused call, then each legal kind of answer in turn (pass; stay; an ace call; a call
#: on a pair; the smallest bet where passing is refused).
IB_SCRIPT = [
    "?",
    "",
    "talvez",
    "apostar x",
    "apostar 999",
    "bet 999",
    "acima 1",
    "higher 1",
    "manter",
    "5H",
    "passar",
    "ás baixo",
    "manter",
    "aces low",
    "acima 1",
    "apostar 1",
]

#: The guide's game in the fast lane; every other preset and option set (several seconds
#: each) in the full suite.
IB_GAMES = [
    ["--preset", "guide", "-o", "rounds=2"],
    *(
        pytest.param(options, marks=pytest.mark.slow)
        for options in (
            ["--preset", "sheets", "-o", "rounds=2"],
            ["--preset", "red-dog", "-o", "rounds=2"],
            ["--preset", "three-posts", "-o", "rounds=2"],
            ["--preset", "guide", "-o", "aces=first-card", "-o", "pairs=split", "-o", "rounds=2"],
            ["--preset", "guide", "-o", "aces=dealer-declares", "-o", "rounds=2"],
        )
    ),
]


def _ib_id(options: list[str]) -> str:
    return "-".join(options[1::2])


@pytest.mark.parametrize("options", IB_GAMES, ids=_ib_id)
def test_inbetween_in_portuguese_has_no_english(
    options: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(
        [
            "play",
            "inbetween",
            "--seed",
            "5",
            "--players",
            "3",
            "--record",
            str(tmp_path / "r.json"),
            *options,
        ],
        IB_SCRIPT * 40,
        monkeypatch,
    )
    assert "A sua ação" in out and "Não aceite" in out  # prompts and refusals were met
    assert english_in(out) == []


def test_backgammon_in_portuguese_has_no_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A play: the list, an empty answer, a word, a number past the list, a move that is no
    # play, then the first play; after a 1-2 the same answers meet the double's prompt.
    script = ["?", "", "talvez", "99", "13/7", "1"]
    out = play(
        [
            "play",
            "backgammon",
            "--seed",
            "4",
            "--speed",
            "fast",
            "--record",
            str(tmp_path / "b.json"),
        ],
        script * 150,
        monkeypatch,
    )
    assert "a sua jogada" in out and "Tente outra vez" in out
    assert "jogou o 1-2: escolha uma dupla" in out  # the named double's prompt was met
    assert english_in(out) == []


@pytest.mark.parametrize(
    "options", [[], ["--games", "2"], ["--first-to", "2"]], ids=["one", "games", "match"]
)
def test_aces_in_the_pot_in_portuguese_has_no_english(
    options: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(
        [
            "play",
            "aces-in-the-pot",
            "-n",
            "3",
            "--seed",
            "2",
            "--speed",
            "fast",
            "--record",
            str(tmp_path / "a.json"),
            *options,
        ],
        ["", "talvez"] * 300,
        monkeypatch,
    )
    assert "Prima Enter" in out
    assert english_in(out) == []
