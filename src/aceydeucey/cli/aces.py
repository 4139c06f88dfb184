"""Terminal commands of Aces in the Pot: ``play``, ``rules`` and ``analyze aces-in-the-pot``.

The commands build the game with ``load_game``, let a session of tables
(:mod:`aceydeucey.core.session`) run it, and narrate each observation's ``last_event``;
all rules live in the engine.  A person holds a seat (``--seat``, default 1) and
throws their own dice: when ``chance_actor()`` is their seat the dice wait for Enter.
``--watch`` leaves every seat to the dice.  Ctrl-C (or ``q`` at the prompt) stops: every
finished game's record is kept and the interrupted one is saved unfinished, to be
continued with ``--resume RECORD``.
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
    OptionsOption,
    check_record_path,
    console,
    default_record_path,
    end_of_input,
    fail,
    fail_error,
    os_reason,
    parse_options,
    player_names,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import load_game
from aceydeucey.extras import require
from aceydeucey.locale import t

if TYPE_CHECKING:
    from aceydeucey.core.chance import ChanceSource
    from aceydeucey.core.game import Action, Game, State
    from aceydeucey.core.record import Record
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


PlayersOption = Annotated[
    int | None, typer.Option("--players", "-n", help="Number of players (3-12; default 4).")
]
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
    typer.Option("--first-roller", help="Seat (0-based) that throws first, without a roll-off."),
]


def register(app: typer.Typer, play: typer.Typer, rules: typer.Typer, analyze: typer.Typer) -> None:
    """Add this game's commands to the app's groups."""
    play.command(GAME_ID)(play_command)
    rules.command(GAME_ID)(rules_command)
    analyze.command(GAME_ID)(analyze_command)


def _game(
    lang: str,
    pairs: list[str] | None,
    *,
    preset: str | None = None,
    players: int | None = None,
    finish: Finish | None = None,
    chips: int | None = None,
    rolls: int | None = None,
    first_roller: int | None = None,
) -> Game:
    """The game from ``-o key=value`` pairs and the named options (which win)."""
    from aceydeucey.aces_in_the_pot.rules import AcesRules

    options: dict[str, Any] = parse_options(AcesRules, pairs, lang)
    named = {
        "preset": preset,
        "players": players,
        "finish": finish.value if finish is not None else None,
        "starting_chips": chips,
        "finish_rolls": rolls,
        "first_roller": first_roller,
    }
    options.update({k: v for k, v in named.items() if v is not None})
    try:
        return load_game(GAME_ID, **options)
    except AceyDeuceyError as exc:
        fail_error(exc, lang)


# -- play -----------------------------------------------------------------------
def play_command(
    players: PlayersOption = None,
    seat: Annotated[
        int, typer.Option("--seat", help="Your seat, counted from 1 (you throw with Enter).")
    ] = 1,
    watch: Annotated[
        bool, typer.Option("--watch", help="Nobody plays: watch the dice at every seat.")
    ] = False,
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
        bool, typer.Option("--json", help="No narration, nobody at the table: the tally as JSON.")
    ] = False,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="Where to save the record (default: under records/)."),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Continue the unfinished game saved in this record."),
    ] = None,
    preset: PresetOption = None,
    finish: FinishOption = None,
    starting_chips: ChipsOption = None,
    finish_rolls: RollsOption = None,
    option: OptionsOption = None,
    lang: LangOption = None,
) -> None:
    """Play Aces in the Pot: one game, a session (--games K) or a match (--first-to N).

    You hold a seat and throw your own dice (Enter to roll, q to stop); the other seats
    throw by themselves.  --watch leaves every seat to the dice.  Ctrl-C stops: finished
    games are saved, the interrupted one too, to continue with --resume.
    """
    from aceydeucey.core.chance import Seeded, SystemChance
    from aceydeucey.core.record import Record, replay
    from aceydeucey.core.session import Session

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("cli", key, language, **values)

    if games is not None and first_to is not None:
        fail(say("error.games_and_first_to"), lang=language)
    if games is not None and games < 1:
        fail(say("error.games_at_least", games=games), lang=language)
    if first_to is not None and first_to < 1:
        fail(say("error.first_to_at_least", target=first_to), lang=language)
    resumed: Record | None = None
    if resume is not None:
        if games is not None or first_to is not None:
            fail(say("error.resume_one_game"), lang=language)
        try:
            resumed = Record.load(resume)
            if resumed.game != GAME_ID:
                fail(say("error.resume_other_game", game=resumed.game), lang=language)
            if replay(resumed).is_terminal():
                fail(say("error.resume_finished", path=str(resume)), lang=language)
            game = resumed.make_game()
        except AceyDeuceyError as exc:
            fail_error(exc, language)
    else:
        game = _game(
            language,
            option,
            preset=preset,
            players=players,
            finish=finish,
            chips=starting_chips,
            rolls=finish_rolls,
        )
    games = 1 if games is None and first_to is None else games
    seats = game.num_players
    humans: tuple[int, ...] = ()
    if not (watch or as_json):
        if not 1 <= seat <= seats:
            fail(say("error.seat_range", seat=seat, seats=seats), lang=language)
        humans = (seat - 1,)
    names = player_names(seats, humans, "random", language)
    many = first_to is not None or (games is not None and games > 1)
    check_record_path(_record_path(record, 1, many), language)

    base: ChanceSource = Seeded(seed) if seed is not None else SystemChance()
    pause = 0.35 if speed is Speed.normal and not as_json else 0.0
    narrator = _Narrator(game, names, language, games, first_to, pause=pause, humans=humans)
    chance = _Throws(base, humans, narrator)
    try:
        session = Session(game, names, first_to, start.value)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    stopped = input_ended = False
    try:
        session.play(
            games,
            chance=chance,
            listeners=[] if as_json else [narrator],
            resume=resumed,
        )
    except (KeyboardInterrupt, _Stop) as stop:
        stopped = True
        input_ended = isinstance(stop, _Stop) and stop.input_ended
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    unfinished = session.unfinished() if stopped else None
    if stopped and not as_json:
        console.print()
        console.print(f"[bold]{say('stopped')}[/]")
    paths = []
    saved = [*session.records, *([unfinished] if unfinished is not None else [])]
    for number, rec in enumerate(saved, 1):
        path = _record_path(record, number, many)
        try:
            path = rec.save(path) if record is not None else rec.save_new(path)
        except OSError as exc:
            reason = os_reason(exc, language)
            fail(say("error.record_unwritable", path=str(path), reason=reason), lang=language)
        paths.append(str(path))
        if not as_json:
            key = "record.unfinished" if rec is unfinished else "record.saved"
            console.print(say(key, path=str(path)))
    if as_json:
        tally = session.to_dict()
        tally["pots"] = tally.pop("wins")
        tally["first_rollers"] = tally.pop("starters")
        records = paths[: session.games]
        print(
            json.dumps(
                {
                    **tally,
                    "records": records,
                    "unfinished": paths[-1] if unfinished is not None else None,
                }
            )
        )
        return
    if many and session.games:
        _print_tally(session, names, language, stopped=stopped)
    if input_ended:
        end_of_input(paths[-1], language)


class _Stop(Exception):
    """The person at the table stopped the game (q, or the end of input)."""

    def __init__(self, *, input_ended: bool = False) -> None:
        super().__init__()
        self.input_ended = input_ended  # the input closed: the command exits 1


class _Throws:
    """The chance source, waiting for a person's Enter when their seat throws.

    The outcome is still chance's (drawn after the gesture, from the given source), so a
    seeded game throws the same dice whether a person or nobody holds the seat.
    """

    def __init__(self, chance: ChanceSource, humans: tuple[int, ...], narrator: _Narrator):
        self.chance = chance
        self.humans = humans
        self.narrator = narrator

    def choose(self, state: State) -> Action:
        actor = state.chance_actor()
        if actor is not None and actor in self.humans:
            self.narrator.ask_to_throw(state, actor)
        return self.chance.choose(state)


def _print_tally(session: Session, names: list[str], lang: str, *, stopped: bool = False) -> None:
    table = RichTable(title=t("aces", "tally.title", lang))
    table.add_column(t("aces", "analysis.seat", lang))
    table.add_column("#", justify="right")
    for name, pots in zip(names, session.wins, strict=True):
        table.add_row(name, str(pots))
    console.print(table)
    winner = session.winner
    if stopped:  # an interrupted session has no winner, only leaders so far
        leading = ", ".join(names[s] for s in session.leaders())
        console.print(t("aces", "tally.stopped", lang, count=session.games, names=leading))
    elif winner is not None:
        console.print(
            "[bold green]"
            + t("aces", "tally.winner", lang, name=names[winner], count=session.wins[winner])
            + "[/]"
        )
    else:
        tied = ", ".join(names[s] for s in session.leaders())
        console.print(t("aces", "tally.tie", lang, names=tied))


def _record_path(record: Path | None, number: int, many: bool) -> Path:
    if record is None:
        return default_record_path(GAME_ID, f"-{number}" if many else "")
    if not many:
        return record
    return record.with_name(f"{record.stem}-{number}{record.suffix or '.json'}")


class _Narrator:
    """A Table listener that prints each throw's event, from the public observation."""

    def __init__(
        self,
        game: Game,
        names: list[str],
        lang: str,
        games: int | None,
        first_to: int | None,
        pause: float,
        humans: tuple[int, ...] = (),
    ) -> None:
        self.game = game
        self.names = names
        self.lang = lang
        self.games = games
        self.first_to = first_to
        self.pause = pause
        self.humans = humans
        self.number = 0
        self.started = False

    def say(self, key: str, **values: Any) -> str:
        return t("aces", key, self.lang, **values)

    def say_of(self, key: str, seat: int, **values: Any) -> str:
        """A line about ``seat`` (its name in ``name``), worded for "You" when it is the
        person at the table."""
        if seat in self.humans and len(self.humans) == 1:
            key += ".you"
        return self.say(key, name=self.names[seat], **values)

    def ask_to_throw(self, state: State, seat: int) -> None:
        """The person's seat throws: show the table and wait for Enter (q stops)."""
        view = state.observation(seat)
        if not self.started:
            self._opening(view)
        key = "prompt.rolloff" if view["phase"] == "roll-off" else "prompt.throw"
        if view["phase"] == "finish":
            key = "prompt.finish"
        prompt = self.say(
            key, name=self.names[seat], number=view["roll_number"], rolls=view["finish_rolls"]
        )
        try:
            text = console.input(f"[bold cyan]{prompt}[/] ")
        except EOFError:
            raise _Stop(input_ended=True) from None
        if text.strip().lower() in ("q", "quit", "exit", "sair"):
            raise _Stop

    def _opening(self, view: dict[str, Any]) -> None:
        """The header of a game, before its first throw."""
        self.started = True
        self.number += 1
        if self.first_to is not None:
            console.rule(self.say("game.header.match", number=self.number, target=self.first_to))
        elif self.games is not None and self.games > 1:
            console.rule(self.say("game.header", number=self.number, games=self.games))
        if view["last_event"] is not None:  # a resumed game
            console.print(f"[bold]{self.say('resumed')}[/]")
            self._show_table(view)
        elif view["phase"] == "play":  # no roll-off: the rules name the first roller
            console.print(f"[bold]{self.say_of('start.fixed', view['roller'])}[/]")
            self._show_table(view)

    def __call__(self, before: State, action: Any, after: State) -> None:
        if not self.started:
            self._opening(before.observation(None))
        view = after.observation(None)
        event = view["last_event"]
        if event is None:  # pragma: no cover - every transition records its event
            return
        kind = event["kind"]
        seat = event["seat"]
        if event["phase"] == "roll-off":
            console.print(self.say_of("rolloff.die", seat, die=event["action"].split()[-1]))
            if kind == "roll-off-tie":
                tied = ", ".join(self.names[s] for s in event["tied"])
                console.print(self.say("rolloff.tie", names=tied))
            elif kind == "roll-off-won":
                console.print(f"[bold]{self.say_of('rolloff.won', event['next_seat'])}[/]")
                self._show_table(view)
        elif event["phase"] == "play":
            console.print(
                f"{self.say_of('throw', seat, roll=event['action'])}: {self._moves(event)}"
            )
            if event["skipped"]:
                skipped = ", ".join(self.names[s] for s in event["skipped"])
                console.print(f"  [dim]{self.say('skipped', names=skipped)}[/]")
            self._show_table(view)
            if kind == "finish-start":
                line = self.say_of(
                    "finish.start", event["next_seat"], rolls=view["finish_rolls"], pot=view["pot"]
                )
                console.print(f"[bold yellow]{line}[/]")
        else:
            rolls = view["finish_rolls"]
            number = event["roll_number"]
            head = self.say_of(
                "throw.finish", seat, roll=event["action"], number=number, rolls=rolls
            )
            nxt = self.names[event["next_seat"]] if event["next_seat"] is not None else ""
            if kind == "finish-continue":
                tail = self.say("finish.clean", count=rolls - number)
            elif kind == "finish-pass":
                tail = self.say("finish.pass", name=nxt)
            elif kind == "back-to-play":
                tail = self.say("finish.back", name=nxt)
            else:
                tail = "[bold green]" + self.say_of("win", seat, pot=view["pot"]) + "[/]"
            console.print(f"{head}: {tail}")
            if kind == "back-to-play":
                self._show_table(view)
        if after.is_terminal():
            self.started = False
        elif self.pause and event["seat"] not in self.humans:
            time.sleep(self.pause)

    def _moves(self, event: dict[str, Any]) -> str:
        parts = []
        if event["to_pot"]:
            parts.append(self.say("move.pot", count=event["to_pot"]))
        if event["to_left"]:
            left = self.names[(event["seat"] + 1) % len(self.names)]
            parts.append(self.say("move.left", count=event["to_left"], name=left))
        if event["kept"]:
            parts.append(self.say("move.kept"))
        if event["unpaid"]:
            parts.append(self.say("move.unpaid", count=event["unpaid"]))
        return ", ".join(parts) if parts else self.say("move.nothing")

    def _show_table(self, view: dict[str, Any]) -> None:
        seats = "  ".join(
            f"{name}: {'●' * chips if chips else '-'}"
            for name, chips in zip(self.names, view["chips"], strict=True)
        )
        console.print(f"  [dim]{self.say('table', pot=view['pot'], seats=seats)}[/]")


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
    game = _game(
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
    game = _game(
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
