"""Terminal commands of this game (registered on the main app)."""

from __future__ import annotations

import typer


def register(
    app: typer.Typer, play: typer.Typer, rules: typer.Typer, analyze: typer.Typer
) -> None:
    """Add this game's commands to the app's groups."""
