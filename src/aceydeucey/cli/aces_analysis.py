"""Aces in the Pot's ``rules`` and ``analyze aces-in-the-pot`` commands: the rules sheet,
and the game's exact solution (each seat's chance to win, the tables of values).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table as RichTable

from aceydeucey.cli.common import (
    LangOption,
    OptionsOption,
    console,
    fail,
    fail_error,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.extras import require
from aceydeucey.locale import t

if TYPE_CHECKING:
    pass
from aceydeucey.cli.aces_options import (
    ChipsOption,
    FinishOption,
    FirstRollerOption,
    PlayersOption,
    PresetOption,
    RollsOption,
    game_of,
)

__all__ = ["analyze_command", "rules_command"]


# -- rules ----------------------------------------------------------------------
def rules_command(
    preset: PresetOption = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Players.")] = None,
    finish: FinishOption = None,
    starting_chips: ChipsOption = None,
    finish_rolls: RollsOption = None,
    first_roller: FirstRollerOption = None,
    option: OptionsOption = None,
    lang: LangOption = None,
) -> None:
    """Print the rules sheet of Aces in the Pot (from the resolved rules)."""
    from aceydeucey.aces_in_the_pot.rules import AcesRules
    from aceydeucey.aces_in_the_pot.sheet import rules_sheet

    language = resolve_lang(lang)
    game = game_of(
        language,
        option,
        preset=preset,
        players=players,
        finish=finish,
        chips=starting_chips,
        rolls=finish_rolls,
        first_roller=first_roller,
    )
    assert isinstance(game.rules, AcesRules)
    console.print(rules_sheet(game.rules, language), markup=False)


# -- analyze ----------------------------------------------------------------------
def analyze_command(
    players: PlayersOption = None,
    finish: FinishOption = None,
    starting_chips: ChipsOption = None,
    finish_rolls: RollsOption = None,
    preset: PresetOption = None,
    first_roller: FirstRollerOption = None,
    option: OptionsOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the figures as JSON (exact fractions kept).")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Save a PNG chart to this file.")
    ] = None,
    exact: Annotated[
        bool | None,
        typer.Option(
            "--exact/--float",
            help="--exact: solve in fractions and show them in the table (up to 4 players); "
            "--float: solve in floats. Default: fractions up to 3 players, decimals shown.",
            show_default=False,
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Solve Aces in the Pot exactly: each seat's chance of the pot and the game's length."""
    from aceydeucey.aces_in_the_pot.analysis import solve
    from aceydeucey.aces_in_the_pot.rules import AcesRules

    language = resolve_lang(lang)
    game = game_of(
        language,
        option,
        preset=preset,
        players=players,
        finish=finish,
        chips=starting_chips,
        rolls=finish_rolls,
        first_roller=first_roller,
    )
    rules = game.rules
    assert isinstance(rules, AcesRules)
    if exact and game.num_players > 4:
        fail(t("cli", "error.exact_players", language, players=game.num_players), lang=language)
    try:
        if plot is not None:
            require("matplotlib", "--plot")
        solution = solve(rules, exact=exact)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    if plot is not None:
        from aceydeucey.cli.aces_plot import plot_solution

        plot_solution(solution, plot, language)
    if as_json:
        data = solution.to_dict()
        if plot is not None:
            data["plot"] = str(plot)
        print(json.dumps(data))
        return

    def say(key: str, **values: Any) -> str:
        return t("aces", key, language, **values)

    console.print(
        say(
            "analysis.title",
            players=rules.players,
            finish=rules.finish,
            chips=rules.starting_chips,
            first=(rules.first_roller or 0) + 1,
        ),
        style="bold",
    )
    shown_exact = bool(exact) and solution.win_probability_exact is not None
    table = RichTable()
    table.add_column(say("analysis.seat"), justify="right")
    table.add_column(say("analysis.win"), justify="right")
    if shown_exact:
        table.add_column(say("analysis.exact"), overflow="fold")
    for seat, p in enumerate(solution.win_probability):
        row = [str(seat + 1), _decimal(p, language)]
        if shown_exact and solution.win_probability_exact is not None:
            row.append(str(solution.win_probability_exact[seat]))
        table.add_row(*row)
    console.print(table)
    console.print(
        say("analysis.rolls", rolls=solution.expected_rolls, turns=solution.expected_turns)
    )
    console.print(say("analysis.length", median=solution.median_rolls, p90=solution.p90_rolls))
    console.print(say("analysis.first", first=solution.first_holder_wins))
    method = say("analysis.fractions") if solution.exact else say("analysis.floats")
    console.print(say("analysis.states", states=solution.states, method=method))
    if plot is not None:
        console.print(say("analysis.plot", path=plot))


def _decimal(p: float, lang: str) -> str:
    """A probability with 6 decimals, in the language's notation (a comma in pt)."""
    text = f"{float(p):.6f}"
    return text.replace(".", ",") if lang == "pt" else text
