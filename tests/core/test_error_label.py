"""Every refusal on a Portuguese screen starts with "erro:", not the English label.

Several commands once passed the message in Portuguese but left ``fail`` to print its
English "error:" before it; ``fail`` now requires the language.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from aceydeucey.cli.app import app

runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [
        ["play", "inbetween", "--bot", "wizard"],
        ["play", "inbetween", "--players", "3", "--bots", "7"],
        ["play", "backgammon", "--bot", "wizard"],
        ["play", "backgammon", "--hot-seat", "--watch"],
        ["play", "backgammon", "-o", "nonesuch=1"],
        ["simulate", "inbetween", "-o", "rounds"],
    ],
)
def test_a_refusal_in_portuguese_has_the_portuguese_label(args: list[str]) -> None:
    result = runner.invoke(app, [*args, "--lang", "pt"], input="")
    assert result.exit_code == 2, result.output
    assert result.output.startswith("erro: "), result.output
    english = runner.invoke(app, [*args, "--lang", "en"], input="")
    assert english.output.startswith("error: "), english.output
