"""``aceydeucey tournament GAME``: a round robin of bots, with confidence intervals.

Every listed bot plays every other one ``--games`` games, in pairs with the
seats swapped and, by default, duplicate chance (both games of a pair see the
same dice from each seat; see :mod:`aceydeucey.sim.tournament`).  The table shows
each match from the side of the bot listed first: points per game, its standard
error and 95 % interval, and the games won and lost; then each bot's totals.
``--json`` prints ``{"games": N, "results": [{"bot", "opponent", "points_per_game",
"stderr", "wins", ...}, ...], ...}`` instead.  Works for any game of two seats
(a game with a ``players`` option is set to two).

Texts come from the ``tournament`` catalog (English and Portuguese); errors are
the engine's coded errors, rendered in the user's language.
"""

from __future__ import annotations

import json
import math
import time
from typing import Annotated, Any

import typer

from aceydeucey.cli.common import (
    FiguresJsonOption,
    LangOption,
    OptionsOption,
    RayOption,
    RunSeedOption,
    WorkersOption,
    console,
    count_text,
    decimal_text,
    fail_error,
    fitted_table,
    parse_options,
    progress_bar,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError, ArgumentError
from aceydeucey.locale import t
from aceydeucey.sim.parallel import check_workers

__all__ = ["tournament_command"]


def tournament_command(
    game_id: Annotated[
        str, typer.Argument(metavar="GAME", help="A game of two seats: backgammon or inbetween.")
    ],
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Two bots or more, comma-separated, e.g. greedy,random (backgammon) or "
            "ev,kelly,random (inbetween); an unknown name lists the game's bots.",
            show_default=False,
        ),
    ] = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "--preset",
            help="The game's variant or preset (backgammon: acey-deucey, classic, ...).",
            show_default=False,
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", help="Games of each match (even: played in pairs).")
    ] = 100,
    seed: RunSeedOption = 0,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="Both games of a pair see the same dice from each seat.",
        ),
    ] = True,
    option: OptionsOption = None,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    as_json: FiguresJsonOption = False,
    lang: LangOption = None,
) -> None:
    """Round robin of bots: points per game with 95 % intervals, games won."""
    from aceydeucey.core.registry import game_class, load_game
    from aceydeucey.sim.tournament import entrant, round_robin, standings

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("tournament", key, language, **values)

    # not required by Typer: its "Missing option" would be English on any screen
    names = [name.strip() for name in (bots or "").split(",") if name.strip()]
    try:
        rules_class = game_class(game_id).rules_class
        options = parse_options(rules_class, option, language)
        if variant is not None:
            options[rules_class.PRESET_KEY] = variant
        if "players" in rules_class.option_names() and "players" not in options:
            fewest = load_game(game_id, **options).info.min_players
            if fewest > 2:  # Aces in the Pot: three seats or more
                raise ArgumentError("tournament.two_seats", game=game_id, seats=fewest)
            options["players"] = 2
        game = load_game(game_id, **options)
        check_workers(workers, ray)
        entrants = [entrant(game_id, name) for name in names]
        began = time.perf_counter()
        matches = len(names) * (len(names) - 1) // 2
        with progress_bar(say("progress"), as_json) as bar:
            task = bar.add_task("", total=matches * games)
            results = round_robin(
                game,
                entrants,
                games,
                seed=seed,
                duplicate=duplicate,
                workers=workers,
                ray=ray,
                on_games=lambda n: bar.advance(task, n),
            )
        seconds = time.perf_counter() - began
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    table_rows = standings(results)
    preset = getattr(game.rules, rules_class.PRESET_KEY, None)
    if as_json:
        data = {
            "game": game_id,
            rules_class.PRESET_KEY: preset,
            "bots": names,
            "games": games,
            "seed": seed,
            "duplicate": duplicate,
            "seconds": seconds,
            "results": [r.to_dict() for r in results],
            "standings": [s.to_dict() for s in table_rows],
        }
        print(json.dumps(data))
        return
    console.print(
        say(
            "title",
            game=game_id,
            preset=preset,
            bots=len(names),
            games=count_text(games, language),
            seed=seed,
        ),
        style="bold",
        markup=False,
    )
    console.print(say("duplicate" if duplicate else "independent"), markup=False)
    drawn = any(r.draws for r in results)
    won = say("col.won_drawn" if drawn else "col.won")

    def record(wins: int, losses: int, games_played: int) -> str:
        draws = games_played - wins - losses
        return f"{wins}–{losses}" + (f"–{draws}" if drawn else "")

    # every match has --games games (the title says so): no column for it
    rows = [
        (
            r.bot,
            r.opponent,
            decimal_text(r.points_per_game, language, 3, sign=True) + _stderr(r.stderr, language),
            _interval(r.ci95, language),
            record(r.wins, r.losses, r.games),
        )
        for r in results
    ]
    headers = [say(key) for key in ("col.bot", "col.opponent", "col.ppg", "col.ci")]
    console.print(fitted_table([*headers, won], rows, left=2))
    standing_rows = [
        (
            s.bot,
            count_text(s.games, language),
            decimal_text(s.points_per_game, language, 3, sign=True),
            record(s.wins, s.losses, s.games),
        )
        for s in table_rows
    ]
    standing_table = fitted_table(
        [say("col.bot"), say("col.games"), say("col.ppg"), won], standing_rows, left=1
    )
    standing_table.title = say("standings")
    console.print(standing_table)
    console.print(say("note"), markup=False)
    played = count_text(sum(r.games for r in results), language)
    console.print(
        say("seconds", games=played, seconds=decimal_text(seconds, language, 1)), markup=False
    )


def _stderr(value: float, lang: str) -> str:
    return "" if math.isnan(value) else f" ± {decimal_text(value, lang, 3)}"


def _interval(bounds: tuple[float, float], lang: str) -> str:
    low, high = bounds
    if math.isnan(low):
        return "-"
    return f"{decimal_text(low, lang, 3, sign=True)} … {decimal_text(high, lang, 3, sign=True)}"
