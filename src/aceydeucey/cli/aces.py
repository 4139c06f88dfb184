"""Terminal commands of Aces in the Pot: ``play``, ``rules`` and ``analyze aces-in-the-pot``.

The commands build the game with ``load_game``, let a ``Table`` (through
:func:`aceydeucey.aces_in_the_pot.session.play_session`) run it, and narrate
each state's ``last_event``; all rules live in the engine.
"""

from __future__ import annotations

import json
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table as RichTable

from aceydeucey.cli.common import (
    LangOption,
    console,
    default_record_path,
    fail,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import load_game
from aceydeucey.locale import t

if TYPE_CHECKING:
    from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
    from aceydeucey.core.session import Session

GAME_ID = "aces-in-the-pot"


class Speed(StrEnum):
    fast = "fast"
    normal = "normal"


class Finish(StrEnum):
    last_chip = "last-chip"
    one_holder = "one-holder"


class Start(StrEnum):
    roll_off = "roll-off"
    rotate = "rotate"


PlayersOption = Annotated[int, typer.Option("--players", "-n", help="Number of players (3-12).")]
FinishOption = Annotated[
    Finish | None, typer.Option("--finish", help="When the finish starts (default: the preset's).")
]
ChipsOption = Annotated[
    int | None, typer.Option("--starting-chips", help="Chips each player starts with.")
]
RollsOption = Annotated[
    int | None, typer.Option("--finish-rolls", help="Rolls without a six needed to win.")
]
PresetOption = Annotated[str | None, typer.Option("--preset", help="seed or one-holder.")]
FirstRollerOption = Annotated[
    int | None,
    typer.Option("--first-roller", help="Seat that throws first, without a roll-off."),
]


def register(app: typer.Typer, play: typer.Typer, rules: typer.Typer, analyze: typer.Typer) -> None:
    """Add this game's commands to the app's groups."""
    play.command(GAME_ID)(play_command)
    rules.command(GAME_ID)(rules_command)
    analyze.command(GAME_ID)(analyze_command)


def _game(
    preset: str | None,
    players: int | None,
    finish: Finish | None,
    chips: int | None,
    rolls: int | None,
    first_roller: int | None = None,
) -> AcesInThePotGame:
    options: dict[str, Any] = {}
    if first_roller is not None:
        options["first_roller"] = first_roller
    if preset is not None:
        options["preset"] = preset
    if players is not None:
        options["players"] = players
    if finish is not None:
        options["finish"] = finish.value
    if chips is not None:
        options["starting_chips"] = chips
    if rolls is not None:
        options["finish_rolls"] = rolls
    try:
        game = load_game(GAME_ID, **options)
    except AceyDeuceyError as exc:
        fail(str(exc))
    from aceydeucey.aces_in_the_pot.game import AcesInThePotGame

    assert isinstance(game, AcesInThePotGame)
    return game


# -- play -----------------------------------------------------------------------
def play_command(
    players: PlayersOption = 4,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for reproducible dice.")] = None,
    speed: Annotated[Speed, typer.Option("--speed", help="normal pauses between rolls.")] = (
        Speed.normal
    ),
    games: Annotated[
        int | None, typer.Option("--games", help="Games in the session (tally); default 1.")
    ] = None,
    first_to: Annotated[
        int | None,
        typer.Option("--first-to", help="Play a match until a seat has won this many pots."),
    ] = None,
    start: Annotated[
        Start,
        typer.Option("--start", help="Who starts each game: roll-off, or rotate to the left."),
    ] = Start.roll_off,
    as_json: Annotated[
        bool, typer.Option("--json", help="No narration: print the tally as JSON.")
    ] = False,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="Where to save the record (default: under records/)."),
    ] = None,
    preset: PresetOption = None,
    finish: FinishOption = None,
    starting_chips: ChipsOption = None,
    finish_rolls: RollsOption = None,
    lang: LangOption = None,
) -> None:
    """Watch a game, a session (--games K) or a match (--first-to N) of Aces in the Pot.

    The dice do all the playing.
    """
    from aceydeucey.core.chance import Seeded, SystemChance
    from aceydeucey.core.session import play_session

    language = resolve_lang(lang)
    if games is not None and first_to is not None:
        fail("give either --games K or --first-to N, not both")
    if games is not None and games < 1:
        fail(f"--games must be at least 1, not {games}")
    if first_to is not None and first_to < 1:
        fail(f"--first-to must be at least 1, not {first_to}")
    if games is None and first_to is None:
        games = 1
    game = _game(preset, players, finish, starting_chips, finish_rolls)
    names = [t("aces", "seat.name", language, seat=i) for i in range(game.num_players)]
    chance = Seeded(seed) if seed is not None else SystemChance()
    pause = 0.35 if speed is Speed.normal and not as_json else 0
    narrator = _Narrator(game, names, language, games, first_to, pause=pause)
    try:
        session = play_session(
            game,
            games,
            first_to=first_to,
            start=start.value,
            chance=chance,
            names=names,
            listeners=[] if as_json else [narrator],
        )
    except AceyDeuceyError as exc:
        fail(str(exc))
    paths = []
    for number, rec in enumerate(session.records, 1):
        path = _record_path(record, number, session.games)
        rec.save(path)
        paths.append(str(path))
        if not as_json:
            console.print(t("aces", "record.saved", language, path=path))
    if as_json:
        tally = session.to_dict()
        tally["pots"] = tally.pop("wins")
        tally["first_rollers"] = tally.pop("starters")
        print(json.dumps({**tally, "records": paths}))
        return
    if session.games > 1 or first_to is not None:
        _print_tally(session, names, language)


def _print_tally(session: Session, names: list[str], lang: str) -> None:
    table = RichTable(title=t("aces", "tally.title", lang))
    table.add_column(t("aces", "analysis.seat", lang))
    table.add_column("#", justify="right")
    for name, pots in zip(names, session.wins, strict=True):
        table.add_row(name, str(pots))
    console.print(table)
    winner = session.winner
    if winner is not None:
        console.print(
            "[bold green]"
            + t("aces", "tally.winner", lang, name=names[winner], pots=session.wins[winner])
            + "[/]"
        )
    else:
        tied = ", ".join(names[s] for s in session.leaders())
        console.print(t("aces", "tally.tie", lang, names=tied))


def _record_path(record: Path | None, number: int, games: int) -> Path:
    if record is None:
        return default_record_path(GAME_ID, f"-{number}" if games > 1 else "")
    if games == 1:
        return record
    return record.with_name(f"{record.stem}-{number}{record.suffix or '.json'}")


class _Narrator:
    """A Table listener that prints each chance action's event."""

    def __init__(
        self,
        game: AcesInThePotGame,
        names: list[str],
        lang: str,
        games: int | None,
        first_to: int | None,
        pause: float,
    ) -> None:
        self.game = game
        self.names = names
        self.lang = lang
        self.games = games
        self.first_to = first_to
        self.pause = pause
        self.number = 0

    def say(self, key: str, **values: Any) -> str:
        return t("aces", key, self.lang, **values)

    def __call__(self, before: Any, action: Any, after: Any) -> None:
        if before.last_event is None:  # the first action of a game
            self.number += 1
            if self.first_to is not None:
                console.rule(
                    self.say("game.header.match", number=self.number, target=self.first_to)
                )
            elif self.games is not None and self.games > 1:
                console.rule(self.say("game.header", number=self.number, games=self.games))
            if before.phase == "play":  # no roll-off: the rules name the first roller
                console.print(f"[bold]{self.say('start.fixed', name=self.names[before.roller])}[/]")
                self._show_table(before)
        event = after.last_event
        if event is None:  # pragma: no cover - every transition records its event
            return
        name = self.names[event.seat]
        if event.phase == "roll-off":
            console.print(self.say("rolloff.die", name=name, die=event.action.split()[-1]))
            if event.kind == "roll-off-tie":
                tied = ", ".join(self.names[s] for s in event.tied)
                console.print(self.say("rolloff.tie", names=tied))
            elif event.kind == "roll-off-won":
                first = self.names[event.next_seat]
                console.print(f"[bold]{self.say('rolloff.won', name=first)}[/]")
                self._show_table(after)
            return
        if event.phase == "play":
            console.print(
                f"{self.say('throw', name=name, roll=event.action)}: {self._moves(event)}"
            )
            if event.skipped:
                skipped = ", ".join(self.names[s] for s in event.skipped)
                console.print(f"  [dim]{self.say('skipped', names=skipped)}[/]")
            self._show_table(after)
            if event.kind == "finish-start":
                holder = self.names[event.next_seat]
                console.print(
                    "[bold yellow]"
                    + self.say(
                        "finish.start",
                        name=holder,
                        rolls=self.game.rules.finish_rolls,
                        pot=after.pot,
                    )
                    + "[/]"
                )
        else:
            rolls = self.game.rules.finish_rolls
            head = self.say(
                "throw.finish", name=name, roll=event.action, number=event.roll_number, rolls=rolls
            )
            nxt = self.names[event.next_seat] if event.next_seat is not None else ""
            tail = {
                "finish-continue": lambda: self.say("finish.clean", left=rolls - event.roll_number),
                "finish-pass": lambda: self.say("finish.pass", name=nxt),
                "back-to-play": lambda: self.say("finish.back", name=nxt),
                "win": lambda: "[bold green]" + self.say("win", name=name, pot=after.pot) + "[/]",
            }[event.kind]()
            console.print(f"{head}: {tail}")
            if event.kind == "back-to-play":
                self._show_table(after)
        if self.pause:
            time.sleep(self.pause)

    def _moves(self, event: Any) -> str:
        parts = []
        if event.to_pot:
            parts.append(self.say("move.pot", count=event.to_pot))
        if event.to_left:
            left = self.names[(event.seat + 1) % len(self.names)]
            parts.append(self.say("move.left", count=event.to_left, name=left))
        if event.kept:
            parts.append(self.say("move.kept"))
        if event.unpaid:
            parts.append(self.say("move.unpaid", count=event.unpaid))
        return ", ".join(parts) if parts else self.say("move.nothing")

    def _show_table(self, state: AcesInThePotState) -> None:
        seats = "  ".join(
            f"{name}: {'●' * chips if chips else '-'}"
            for name, chips in zip(self.names, state.chips, strict=True)
        )
        console.print(f"  [dim]{self.say('table', pot=state.pot, seats=seats)}[/]")


# -- rules ----------------------------------------------------------------------
def rules_command(
    preset: PresetOption = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Players.")] = None,
    finish: FinishOption = None,
    starting_chips: ChipsOption = None,
    finish_rolls: RollsOption = None,
    first_roller: FirstRollerOption = None,
    lang: LangOption = None,
) -> None:
    """Print the rules sheet of Aces in the Pot (from the resolved rules)."""
    from aceydeucey.aces_in_the_pot.sheet import rules_sheet

    game = _game(preset, players, finish, starting_chips, finish_rolls, first_roller)
    console.print(rules_sheet(game.rules, resolve_lang(lang)), markup=False)


# -- analyze ----------------------------------------------------------------------
def analyze_command(
    players: PlayersOption = 4,
    finish: FinishOption = None,
    starting_chips: ChipsOption = None,
    finish_rolls: RollsOption = None,
    preset: PresetOption = None,
    first_roller: FirstRollerOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Save a PNG chart to this file.")
    ] = None,
    exact: Annotated[
        bool | None,
        typer.Option(
            "--exact/--float",
            help="Exact fractions (default up to 3 players; slow beyond 4) or floats.",
            show_default=False,
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Solve Aces in the Pot exactly: each seat's chance of the pot and the game's length."""
    from aceydeucey.aces_in_the_pot.analysis import solve

    language = resolve_lang(lang)
    game = _game(preset, players, finish, starting_chips, finish_rolls, first_roller)
    if exact and game.num_players > 4:
        fail(
            f"exact fractions are offered up to 4 players (--players {game.num_players} would "
            "take too long); use --float"
        )
    try:
        solution = solve(game.rules, exact=exact)
    except AceyDeuceyError as exc:
        fail(str(exc))
    if plot is not None:
        from aceydeucey.aces_in_the_pot.plot import plot_solution

        plot_solution(solution, plot, language)
    if as_json:
        data = solution.to_dict()
        if plot is not None:
            data["plot"] = str(plot)
        print(json.dumps(data))
        return

    def say(key: str, **values: Any) -> str:
        return t("aces", key, language, **values)

    rules = game.rules
    console.print(
        say(
            "analysis.title",
            players=rules.players,
            finish=rules.finish,
            chips=rules.starting_chips,
            first=rules.first_roller or 0,
        ),
        style="bold",
    )
    table = RichTable()
    table.add_column(say("analysis.seat"), justify="right")
    table.add_column(say("analysis.win"), justify="right")
    if solution.win_probability_exact is not None:
        table.add_column(say("analysis.exact"), overflow="fold")
    for seat, p in enumerate(solution.win_probability):
        row = [str(seat), f"{p:.12f}"]
        if solution.win_probability_exact is not None:
            row.append(str(solution.win_probability_exact[seat]))
        table.add_row(*row)
    console.print(table)
    console.print(
        say("analysis.rolls", rolls=solution.expected_rolls, turns=solution.expected_turns)
    )
    console.print(say("analysis.length", median=solution.median_rolls, p90=solution.p90_rolls))
    console.print(say("analysis.first", first=solution.first_holder_wins))
    method = "fractions" if solution.exact else "floats"
    console.print(say("analysis.states", states=solution.states, method=method))
    if plot is not None:
        console.print(say("analysis.plot", path=plot))
