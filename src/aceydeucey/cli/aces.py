"""Terminal commands of Aces in the Pot: ``play``, ``rules`` and ``analyze aces-in-the-pot``.

The commands build the game with ``load_game``, let a session of tables
(:mod:`aceydeucey.core.session`) run it, and narrate each observation's ``last_event``;
all rules live in the engine.  A person holds a seat (``--seat``, default 1) and
throws their own dice: when ``chance_actor()`` is their seat the dice wait for Enter.
``--watch`` leaves every seat to the dice.  Ctrl-C (or ``q`` at the prompt) stops: every
finished game's record is kept and the interrupted one is saved unfinished, to be
continued with ``--resume RECORD``.

The narrator, a person's throws and the tally are :mod:`.aces_table`'s, ``rules`` and
``analyze`` :mod:`.aces_analysis`', the shared options :mod:`.aces_options`'.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

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
    player_names,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

if TYPE_CHECKING:
    from aceydeucey.core.chance import ChanceSource
    from aceydeucey.core.record import Record
from aceydeucey.cli.aces_analysis import analyze_command, rules_command
from aceydeucey.cli.aces_options import (
    GAME_ID,
    ChipsOption,
    FinishOption,
    PlayersOption,
    PresetOption,
    RollsOption,
    Speed,
    Start,
    game_of,
)
from aceydeucey.cli.aces_table import Narrator, Stop, Throws, print_tally

__all__ = ["register"]


def register(app: typer.Typer, play: typer.Typer, rules: typer.Typer, analyze: typer.Typer) -> None:
    """Add this game's commands to the app's groups."""
    play.command(GAME_ID)(play_command)
    rules.command(GAME_ID)(rules_command)
    analyze.command(GAME_ID)(analyze_command)


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
        game = game_of(
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
    narrator = Narrator(game, names, language, games, first_to, pause=pause, humans=humans)
    chance = Throws(base, humans, narrator)
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
    except (KeyboardInterrupt, Stop) as stop:
        stopped = True
        input_ended = isinstance(stop, Stop) and stop.input_ended
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
        print_tally(session, names, language, stopped=stopped)
    if input_ended:
        end_of_input(paths[-1], language)


def _record_path(record: Path | None, number: int, many: bool) -> Path:
    if record is None:
        return default_record_path(GAME_ID, f"-{number}" if many else "")
    if not many:
        return record
    return record.with_name(f"{record.stem}-{number}{record.suffix or '.json'}")
