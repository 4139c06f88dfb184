"""The ``aceydeucey`` command: play, rules, odds, analyze, replay.

Each game's commands live in their own module and register themselves here;
the CLI reaches the games only through ``load_game``, the contract and each
game's public analysis functions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from aceydeucey.cli import aces, backgammon, inbetween
from aceydeucey.cli import serve as serve_cli
from aceydeucey.cli.common import LangOption, console, fail
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.record import Record, replay

app = typer.Typer(
    name="aceydeucey",
    help="The Acey-Deucey family of games: In-Between, Acey-Deucey backgammon, Aces in the Pot.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a game in the terminal.", no_args_is_help=True)
rules_app = typer.Typer(help="Print a game's rules sheet.", no_args_is_help=True)
analyze_app = typer.Typer(help="Exact analysis of a game.", no_args_is_help=True)
app.add_typer(play_app, name="play")
app.add_typer(rules_app, name="rules")
app.add_typer(analyze_app, name="analyze")

for module in (inbetween, backgammon, aces):
    module.register(app, play_app, rules_app, analyze_app)
serve_cli.register(app)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A record saved by a game (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Re-apply every action of a record, verify it, and print the final standings."""
    try:
        record = Record.load(file)
        state = replay(record)
    except AceyDeuceyError as exc:
        fail(str(exc))
    returns = state.returns()
    standings = sorted(
        zip(record.players, returns, strict=True), key=lambda pr: pr[1], reverse=True
    )
    if as_json:
        print(
            json.dumps(
                {
                    "game": record.game,
                    "actions": len(record.actions),
                    "terminal": state.is_terminal(),
                    "players": record.players,
                    "returns": [str(r) for r in returns],
                    "standings": [{"player": p, "return": str(r)} for p, r in standings],
                }
            )
        )
        return
    pt = lang == "pt"
    verified = "verificadas" if pt else "verified"
    console.print(
        f"[bold]{record.game}[/] — {len(record.actions)} "
        f"{'ações' if pt else 'actions'} {verified}"
        + ("" if state.is_terminal() else (" (jogo inacabado)" if pt else " (game unfinished)"))
    )
    for place, (player, ret) in enumerate(standings, 1):
        value = f"{float(ret):+.4g}" if ret.denominator != 1 else f"{int(ret):+d}"
        exact = f" ({ret})" if ret.denominator != 1 else ""
        console.print(f"{place}. {player}: {value}{exact}")


def main() -> None:
    app()
