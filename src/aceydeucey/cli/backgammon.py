"""Terminal commands of backgammon: ``play backgammon`` and ``rules backgammon``.

``play backgammon`` seats a human (seat 0) against a bot, two humans at one
terminal (``--hot-seat``) or two bots (``--watch``) at a core ``Table``; the
board is drawn from the seat's observation and plays are typed in the
engine's notation (``24/18 13/11``, ``bar/22``, ``in/22``, ``6/off``,
``pass``, ``double 6``).  At the prompt ``?`` or ``list`` shows the legal
plays, ``quit`` (or end of input) stops; the record is saved either way.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from aceydeucey.cli.common import (
    LangOption,
    OptionsOption,
    console,
    default_record_path,
    fail,
    parse_options,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError

if TYPE_CHECKING:
    from aceydeucey.core.game import Action, Game, State

__all__ = ["HumanAgent", "register"]

_DOMAIN = "backgammon"

VariantOption = Annotated[
    str | None,
    typer.Option("--variant", help="acey-deucey (default), classic, longgammon or dutch."),
]


def register(app: typer.Typer, play: typer.Typer, rules: typer.Typer, analyze: typer.Typer) -> None:
    """Add this game's commands to the app's groups."""
    play.command("backgammon")(play_backgammon)
    rules.command("backgammon")(rules_backgammon)


# -- rules ------------------------------------------------------------------------------------


def rules_backgammon(
    variant: VariantOption = None,
    option: OptionsOption = None,
    list_options: Annotated[
        bool,
        typer.Option("--list-options", help="List every option with its accepted values."),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Print the rules sheet of a variant with its options, in English or Portuguese."""
    from aceydeucey.backgammon.sheet import rules_sheet

    language = resolve_lang(lang)
    game = _load(variant, option, language)
    if list_options:
        _print_options(game.rules)
        return
    console.print(rules_sheet(game.rules, language), markup=False)


def _print_options(rules: Any) -> None:
    """Each option: its value here, what it accepts, what it does, where it comes from."""
    for name, meta in rules.option_help().items():
        if name == rules.PRESET_KEY:
            continue
        if meta.get("choices"):
            accepted = " | ".join(str(c) for c in meta["choices"])
        elif isinstance(meta["default"], bool):
            accepted = "true | false"
        else:
            accepted = f"none | {meta.get('min')}..{meta.get('max')}"
        value = getattr(rules, name)
        shown = (
            "none" if value is None else str(value).lower() if isinstance(value, bool) else value
        )
        console.print(f"{name} = {shown}    [{accepted}]", markup=False)
        about = f"{meta.get('help', '')} ({meta.get('source', '')})"
        console.print(
            textwrap.fill(about, 78, initial_indent="    ", subsequent_indent="    "),
            markup=False,
        )


# -- play -------------------------------------------------------------------------------------


def play_backgammon(
    variant: VariantOption = None,
    bot: Annotated[str, typer.Option("--bot", help="The opponent: random or greedy.")] = "greedy",
    hot_seat: Annotated[
        bool, typer.Option("--hot-seat", help="Two humans take turns at this terminal.")
    ] = False,
    watch: Annotated[bool, typer.Option("--watch", help="Watch two bots (--bot) play.")] = False,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed the dice (and bots) to replay a game.")
    ] = None,
    option: OptionsOption = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Where to save the record (default records/backgammon-<time>.json)."
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play Acey-Deucey or another backgammon variant in the terminal.

    At the prompt type a play in the notation (24/18 13/11, 24/18/11, bar/22,
    in/22, 6/off, pass; double 6 after a 1-2), ? or list for the legal plays,
    quit to stop (the record is saved either way).
    """
    from aceydeucey.backgammon.bots import BOTS
    from aceydeucey.core.chance import ChanceSource, Seeded, SystemChance
    from aceydeucey.core.table import Agent, Table

    language = resolve_lang(lang)
    if hot_seat and watch:
        fail("--hot-seat and --watch exclude each other: choose one")
    if bot not in BOTS:
        fail(f"unknown bot {bot!r}; accepted: {', '.join(BOTS)}")
    game = _load(variant, option, language)

    def make_bot(index: int) -> Any:
        return BOTS[bot](seed=None if seed is None else seed * 2 + index)

    agents: list[Agent]
    if watch:
        agents = [make_bot(0), make_bot(1)]
        names = [f"bot:{bot}-1", f"bot:{bot}-2"]
        humans: tuple[int, ...] = ()
    elif hot_seat:
        names = [t_(language, "player_name", n=1), t_(language, "player_name", n=2)]
        agents = [HumanAgent(language, names), HumanAgent(language, names)]
        humans = (0, 1)
    else:
        names = [t_(language, "you"), f"bot:{bot}"]
        agents = [HumanAgent(language, names), make_bot(1)]
        humans = (0,)

    chance: ChanceSource = Seeded(seed) if seed is not None else SystemChance()
    narrator = Narrator(language, names, humans)
    table = Table(game, agents, chance=chance, names=names, listeners=[narrator])
    path = record or default_record_path("backgammon")
    stopped = False
    try:
        table.play()
    except _Stop:
        stopped = True
        table.record.finish(table.state)
    final = table.state
    if stopped:
        console.print(t_(language, "stopped"))
    else:
        narrator.show(final, seat=humans[0] if humans else 0)
        console.print(_result_line(final, language, names))
    try:
        saved = table.record.save(path)
    except OSError as exc:
        fail(f"cannot save the record to {path}: {exc.strerror}")
    console.print(t_(language, "record_saved", path=str(saved)))


class HumanAgent:
    """A human at the terminal: shows the board, reads a play, explains a refusal."""

    def __init__(self, lang: str, names: list[str]) -> None:
        self.lang = lang
        self.names = names
        self._asked_again = False  # after a refusal the board is not drawn again

    def act(self, observation: dict[str, Any]) -> str:
        from aceydeucey.cli.backgammon_render import render

        legal: list[str] = observation["legal_actions"]
        if not self._asked_again:
            console.print(render(observation, lang=self.lang, names=self.names))
        self._asked_again = False
        if legal == ["pass"]:
            console.print(t_(self.lang, "no_play"))
            return "pass"
        while True:
            try:
                prompt = t_(self.lang, "prompt", name=self.names[observation["seat"]])
                text = console.input(prompt, markup=False)
            except (EOFError, KeyboardInterrupt):
                console.print()
                raise _Stop from None
            text = text.strip()
            if text in ("?", "list", "help"):
                from rich.columns import Columns
                from rich.text import Text

                console.print(t_(self.lang, "legal_list", count=len(legal)), markup=False)
                console.print(Columns([Text(play) for play in legal], padding=(0, 3)))
                continue
            if text in ("quit", "exit"):
                raise _Stop
            if text:
                return text

    def rejected(self, choice: Action | str, error: Exception) -> None:
        from rich.text import Text

        console.print(Text.assemble(("✗ ", "bold red"), _render_error(error, self.lang)))
        console.print(t_(self.lang, "try_again"))
        self._asked_again = True


class Narrator:
    """A table listener: says what happened; draws the board after a bot's play in --watch."""

    def __init__(self, lang: str, names: list[str], humans: tuple[int, ...]) -> None:
        self.lang = lang
        self.names = names
        self.humans = humans

    def __call__(self, before: State, action: Action, after: State) -> None:
        console.print(self.line(before, action, after), markup=False)
        if before.current_player() < 0 or self.humans or after.is_terminal():
            return
        if after.observation(0).get("phase") != "double":
            self.show(after, seat=0)

    def line(self, before: State, action: Action, after: State) -> str:
        """One sentence saying what ``action`` did."""
        seat = before.current_player()
        event = after.observation(0).get("last_event") or {}
        if event.get("kind") == "opening":
            die0, die1 = event["dice"]
            return t_(
                self.lang,
                "opening",
                a=self.names[0],
                x=die0,
                b=self.names[1],
                y=die1,
                first=self.names[event["first"]],
            )
        if seat < 0:
            mover = after.current_player()
            if event.get("kind") == "double":
                return t_(self.lang, "double_rolled", value=event["value"])
            if 0 <= mover < len(self.names):
                return t_(self.lang, "rolled", name=self.names[mover], dice=str(action))
            return t_(self.lang, "rolled_plain", dice=str(action))
        if event.get("kind") == "double":
            return t_(self.lang, "named_double", name=self.names[seat], value=event["value"])
        return t_(self.lang, "played", name=self.names[seat], play=str(action))

    def show(self, state: State, *, seat: int) -> None:
        from aceydeucey.cli.backgammon_render import render

        console.print(render(state.observation(seat), lang=self.lang, names=self.names))


# -- helpers ----------------------------------------------------------------------------------


class _Stop(Exception):
    """The human stopped the game (quit or end of input)."""


def t_(lang: str, key: str, **values: Any) -> str:
    from aceydeucey.locale import t

    return t(_DOMAIN, key, lang, **values)


def _load(variant: str | None, pairs: list[str] | None, lang: str) -> Game:
    from aceydeucey.backgammon.rules import BackgammonRules
    from aceydeucey.core.registry import load_game

    options = parse_options(BackgammonRules, pairs, lang)
    if variant is not None:
        options["variant"] = variant
    try:
        return load_game("backgammon", **options)
    except AceyDeuceyError as exc:
        fail(str(exc))


def _result_line(state: State, lang: str, names: list[str]) -> str:
    returns = state.returns()
    winner = max(range(len(returns)), key=lambda i: returns[i])
    points = returns[winner]
    key = "result_one" if points == 1 else "result"
    return t_(lang, key, name=names[winner], points=str(points))


def _render_error(error: Exception, lang: str) -> str:
    return error.render(lang) if isinstance(error, AceyDeuceyError) else str(error)
