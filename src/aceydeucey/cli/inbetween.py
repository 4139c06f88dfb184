"""Terminal commands of In-Between: ``play inbetween``, ``rules inbetween`` and ``odds``.

The commands are thin: they resolve the rules with the engine's ``Rules``, build the game
with ``load_game``, run it on the core ``Table`` and render observations with
:mod:`aceydeucey.cli.inbetween_ui`; the person's seat, the bots and the narrator are
:mod:`.inbetween_seats`', the player's words :mod:`.inbetween_words`', ``odds`` is
:mod:`.inbetween_odds`.  They hold no rules: the odds of the decision at hand
and each stake's advice, the best stake and Kelly's (``odds``, and ``?`` in play), come
from ``inbetween.odds`` (``posts_odds``, ``decision_odds``), the function the bots use;
``odds --table`` and ``odds --house-edge`` from ``inbetween.spreads``.

``--option key=value`` (repeatable) passes any rule option, read by the option's type; the
engine validates it and its message reaches the user in the chosen language.

In play, the player may type the canonical actions (``pass``, ``bet 2``, ``higher 1``,
``ace low``, ...) or their Portuguese words (``passar``, ``apostar 2``, ``acima 1``,
``ás baixo``, ...): they are translated here, at the edge, into canonical action text.
"""

from __future__ import annotations

from fractions import Fraction
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
    os_reason,
    parse_options,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.rules import option_in_words
from aceydeucey.inbetween.rules import InBetweenRules
from aceydeucey.locale import t

if TYPE_CHECKING:
    from aceydeucey.core.game import State
    from aceydeucey.core.record import Record
from aceydeucey.cli.inbetween_odds import odds_command
from aceydeucey.cli.inbetween_options import DOMAIN, PresetOption, fail_engine, resolve_rules
from aceydeucey.cli.inbetween_seats import HumanAgent, Narrator, QuitGame, make_bot
from aceydeucey.cli.inbetween_words import canonical_action, localized_action, plain_words

__all__ = [
    "HumanAgent",
    "Narrator",
    "canonical_action",
    "localized_action",
    "record_path_after",
    "register",
]


def register(app: typer.Typer, play: typer.Typer, rules: typer.Typer, analyze: typer.Typer) -> None:
    """Add In-Between's commands to the app's groups."""
    play.command("inbetween")(play_inbetween)
    rules.command("inbetween")(rules_inbetween)
    app.command("odds")(odds_command)


# -- rules ----------------------------------------------------------------------


def rules_inbetween(
    preset: PresetOption = None,
    option: OptionsOption = None,
    lang: LangOption = None,
) -> None:
    """Print the In-Between rules sheet for the resolved options."""
    from aceydeucey.inbetween.sheet import rules_sheet

    lang = resolve_lang(lang)
    rules = resolve_rules(preset, parse_options(InBetweenRules, option, lang), lang)
    console.print(rules_sheet(rules, lang), markup=False)


# -- play -----------------------------------------------------------------------


def play_inbetween(
    preset: PresetOption = None,
    players: Annotated[
        int | None,
        typer.Option("--players", metavar="N", help="Number of seats (default: the preset's)."),
    ] = None,
    bots: Annotated[
        int | None,
        typer.Option(
            "--bots", metavar="N", help="Bot seats (default players-1; = players to watch bots)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", metavar="N", help="Reproducible shuffles (default: OS randomness)."),
    ] = None,
    bot: Annotated[
        str,
        typer.Option(
            "--bot", metavar="KIND", help="Bot kind: random, ev, kelly, cautious or session."
        ),
    ] = "ev",
    option: OptionsOption = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", metavar="FILE", help="Where to save the record (default records/...)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume", metavar="RECORD", help="Continue the unfinished game of a saved record."
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play In-Between in the terminal: you take the first seat, bots take the others."""
    from aceydeucey.cli.inbetween_ui import final_view, standings_view
    from aceydeucey.core.chance import Seeded, SystemChance
    from aceydeucey.core.registry import load_game
    from aceydeucey.core.table import Table
    from aceydeucey.sim.inbetween_bots import ALL_BOTS as BOTS

    lang = resolve_lang(lang)
    resumed: tuple[Record, State] | None = None
    if resume is not None:
        if preset is not None or option or players is not None:
            fail(t(DOMAIN, "ui.resume_rules", lang), lang=lang)
        resumed = _load_resume(resume, lang)
        game = resumed[0].make_game()
    else:
        options = parse_options(InBetweenRules, option, lang)
        if players is not None:
            options["players"] = players
        chosen = resolve_rules(preset, options, lang)
        try:
            game = load_game("inbetween", **chosen.to_dict())
        except AceyDeuceyError as exc:
            fail_engine(exc, lang)
    rules: Any = game.rules
    n = game.num_players
    bot_seats = n - 1 if bots is None else bots
    if not 0 <= bot_seats <= n:
        fail(t(DOMAIN, "error.bots_range", lang, players=n, bots=bot_seats), lang=lang)
    if bot not in BOTS:
        fail(t(DOMAIN, "error.unknown_bot", lang, bot=bot, accepted=", ".join(BOTS)), lang=lang)
    path = record or default_record_path("inbetween")
    check_record_path(path, lang)
    humans = n - bot_seats
    names = seat_names(humans, n, bot, lang)
    agents: list[Any] = [
        HumanAgent(names, lang, console)
        if i < humans
        else make_bot(bot, None if seed is None else seed * 1000 + i)
        for i in range(n)
    ]
    viewer = 0 if humans else None
    narrator = Narrator(names, lang, console, viewer=viewer)
    chance = Seeded(seed) if seed is not None else SystemChance()
    console.print(
        t(DOMAIN, "ui.welcome", lang, preset=preset_name(rules.preset, lang)), style="bold"
    )
    changes = rules.changes()
    if changes:
        shown = "; ".join(option_in_words(rules, k, lang) for k, _ in changes)
        console.print(t(DOMAIN, "ui.options", lang, changes=shown), style="dim")
    if seed is not None:
        console.print(t(DOMAIN, "ui.seed", lang, seed=seed), style="dim")
    tally = [Fraction(0)] * n
    sessions = 0
    while True:
        table = Table(game, agents, chance=chance, names=names, listeners=[narrator])
        if resumed is not None:
            table.state = resumed[1]
            table.record.actions = list(resumed[0].actions)
            console.print(
                t(DOMAIN, "ui.resumed", lang, path=str(resume), count=len(resumed[0].actions))
            )
            resumed = None
        narrator.show(table.state)
        stopped = False
        input_ended = False
        try:
            result = table.play()
        except QuitGame as stop:
            stopped = True
            input_ended = stop.input_ended
            table.record.finish(table.state)
            result = table.record
        final: State = table.state
        if stopped:
            console.print(t(DOMAIN, "ui.quit", lang), style="yellow")
        obs = final.observation(0)
        outcome = obs.get("outcome") or {}
        returns = [
            Fraction(r) for r in (outcome.get("returns") or obs.get("returns") or final.returns())
        ]
        winners = list(outcome.get("winners") or obs.get("winners") or [])
        if not winners and final.is_terminal():  # an unfinished game has no winner yet
            best = max(returns)
            winners = [i for i, r in enumerate(returns) if r == best]
        start = rules.starting_chips if rules.banking == "shared" else None
        chips = list(obs.get("chips") or [])
        console.print(
            final_view(
                returns,
                winners,
                names,
                chips,
                lang,
                starting_chips=start,
                unfinished=stopped,
                pot_shares=obs.get("pot_shares"),
            )
        )
        sessions += 1
        tally = [a + b for a, b in zip(tally, returns, strict=True)]
        if sessions > 1:
            console.print(standings_view(tally, names, lang, sessions=sessions))
        saved = _save(result, path, lang, fresh=record is None)
        console.print(t(DOMAIN, "ui.record_saved", lang, path=str(saved)))
        if input_ended:
            end_of_input(saved, lang)
        if stopped or not humans:
            return
        answer = _ask_again(lang)
        if answer == "n":
            return
        if answer == "r":
            tally, sessions = [Fraction(0)] * n, 0
        path = record_path_after(record, sessions + 1)
        check_record_path(path, lang)


def preset_name(preset: str, lang: str) -> str:
    """A preset as players call it (``guide`` → ``do guia`` in "regras do guia"); a preset
    without a name in the catalog keeps its id."""
    try:
        return t(DOMAIN, f"ui.preset.{preset}", lang)
    except KeyError:
        return preset


def seat_names(humans: int, seats: int, bot: str, lang: str) -> list[str]:
    """One naming everywhere: "You" (or "Player 1", "Player 2" with several people), then
    "Bot 1 (ev)", "Bot 2 (ev)", ...: people and bots each counted from 1."""
    names = []
    for i in range(seats):
        if i < humans:
            names.append(
                t(DOMAIN, "ui.you", lang)
                if humans == 1
                else t(DOMAIN, "ui.player_n", lang, n=i + 1)
            )
        else:
            names.append(t(DOMAIN, "ui.bot_name", lang, n=i - humans + 1, kind=bot))
    return names


def record_path_after(record: Path | None, session: int) -> Path:
    """The record of a later session: ``--record`` with ``-2``, ``-3``..., else a new default."""
    if record is None:
        return default_record_path("inbetween")
    if record.exists() and not record.is_file():  # a device such as /dev/null: keep it
        return record
    return record.with_name(f"{record.stem}-{session}{record.suffix}")


def _ask_again(lang: str) -> str:
    console.print(t(DOMAIN, "ui.again", lang), style="bold")
    while True:
        try:
            text = console.input(f"[bold cyan]{t(DOMAIN, 'ui.again_prompt', lang)}:[/] ")
        except EOFError:
            console.print()
            return "n"
        choice = plain_words(text)[:1]
        if choice in ("c", "r", "n", "q", "s"):
            return "n" if choice in ("q", "s") else choice
        console.print(t(DOMAIN, "ui.again", lang), style="yellow")  # asked again: the choices


def _save(result: Record, path: Path, lang: str, *, fresh: bool) -> Path:
    """Write the record: to a new file for a default name (never over another game's)."""
    try:
        return result.save_new(path) if fresh else result.save(path)
    except OSError as exc:
        reason = os_reason(exc, lang)
        fail(t(DOMAIN, "ui.record_unwritable", lang, path=str(path), reason=reason), lang=lang)


def _load_resume(path: Path, lang: str) -> tuple[Record, State]:
    from aceydeucey.core.record import Record, replay

    try:
        record = Record.load(path)
        if record.game != "inbetween":
            fail(t(DOMAIN, "ui.resume_bad", lang, path=str(path), reason=record.game), lang=lang)
        state = replay(record)
    except AceyDeuceyError as exc:
        fail(t(DOMAIN, "ui.resume_bad", lang, path=str(path), reason=exc.render(lang)), lang=lang)
    if state.is_terminal():
        fail(t(DOMAIN, "ui.resume_finished", lang, path=str(path)), lang=lang)
    return record, state
