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

from aceydeucey.cli import aces, backgammon, inbetween, matfiles
from aceydeucey.cli import serve as serve_cli
from aceydeucey.cli import warm as warm_cli
from aceydeucey.cli.bearoff import bearoff_app
from aceydeucey.cli.common import LangOption, console, fail_error, resolve_lang
from aceydeucey.cli.hint import hint_app
from aceydeucey.cli.ladder import ladder_command
from aceydeucey.cli.simulate import simulate_app
from aceydeucey.cli.tournament import tournament_command
from aceydeucey.cli.train import train_app
from aceydeucey.cli.verify import verify_command
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.record import Record, replay
from aceydeucey.locale import default_lang, render_error, t

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
app.command("verify")(verify_command)
matfiles.register(app)
serve_cli.register(app)
warm_cli.register(app)
app.add_typer(simulate_app, name="simulate")
app.command("tournament")(tournament_command)
app.command("ladder")(ladder_command)
app.add_typer(train_app, name="train")
app.add_typer(hint_app, name="hint")
app.add_typer(bearoff_app, name="bearoff")

#: The help's panels, in the order a newcomer reads them, and the commands in each.
PANELS = {
    "Play": ("serve", "play", "rules"),
    "Odds and analysis": ("odds", "hint", "analyze", "simulate", "tournament", "ladder"),
    "Records": ("replay", "verify", "export", "import"),
    "Set-up and training": ("warm", "bearoff", "train"),
}


def _arrange_help() -> None:
    """Put every command in its panel of ``--help``, the panels in ``PANELS``' order."""
    panel_of = {name: panel for panel, names in PANELS.items() for name in names}
    rank = {name: i for i, name in enumerate(n for names in PANELS.values() for n in names)}
    for command in app.registered_commands:
        command.rich_help_panel = panel_of.get(str(command.name), "Commands")
    for group in app.registered_groups:
        group.rich_help_panel = panel_of.get(str(group.name), "Commands")
    last = len(rank)  # a command missing from PANELS is listed last (a test forbids it)
    app.registered_commands.sort(key=lambda info: rank.get(str(info.name), last))
    app.registered_groups.sort(key=lambda info: rank.get(str(info.name), last))


def version() -> str:
    """The installed version of aceydeucey (the package metadata; the source tree's
    ``__version__`` when it is not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("aceydeucey")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        import aceydeucey

        return str(getattr(aceydeucey, "__version__", "unknown"))


def _show_version(value: bool) -> None:
    if value:
        console.print(t("cli", "version", default_lang(), version=version()))
        raise typer.Exit()


@app.callback()
def main_options(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """The Acey-Deucey family of games: In-Between, Acey-Deucey backgammon, Aces in the Pot."""


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A record saved by a game (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the standings as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Re-apply every action of a record, verify it, and print the final standings."""
    language = resolve_lang(lang)
    try:
        record = Record.load(file)
        state = replay(record)
    except AceyDeuceyError as exc:
        # a record whose stated result is not what its actions give lies: exit 1, as verify
        fail_error(exc, language, 1 if exc.code == "record.result_differs" else 2)
    returns = state.returns()
    outcome = state.outcome()
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
                    "termination": None if outcome is None else str(outcome.termination),
                    "winners": [] if outcome is None else list(outcome.winners),
                    "players": record.players,
                    "returns": [str(r) for r in returns],
                    "standings": [{"player": p, "return": str(r)} for p, r in standings],
                }
            )
        )
        return
    head = t("cli", "replay.verified", language, game=record.game, count=len(record.actions))
    if not state.is_terminal():
        head += t("cli", "replay.unfinished", language)
    console.print(head, style="bold", markup=False)
    if outcome is not None:
        console.print(
            render_error(outcome.termination, dict(outcome.params), language), markup=False
        )
    for place, (player, ret) in enumerate(standings, 1):
        value = f"{float(ret):+.4g}" if ret.denominator != 1 else f"{int(ret):+d}"
        if language == "pt":
            value = value.replace(".", ",")
        exact = f" ({ret})" if ret.denominator != 1 else ""
        line = t(
            "cli", "replay.place", language, place=place, player=player, value=value, exact=exact
        )
        console.print(line, markup=False)


def main() -> None:
    """The console script (usage errors in the command line's language: ``cli.usage``)."""
    from aceydeucey.cli.usage import run

    run(app)


_arrange_help()  # every command is registered by now
