"""``aceydeucey --help`` shows every command in a panel, playing first."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from aceydeucey.cli.app import PANELS, app


def test_every_command_is_in_a_panel_and_play_comes_first() -> None:
    out = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "100"}).output
    panels = re.findall(r"╭─ (.+?) ─", out)
    assert panels == ["Options", *PANELS], panels
    listed = set(re.findall(r"^│ ([a-z]+) ", out, flags=re.M))
    names = {n for group in PANELS.values() for n in group}
    assert listed == names
    assert out.index(" play ") < out.index(" odds ") < out.index(" replay ") < out.index(" warm ")
