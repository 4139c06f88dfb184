"""Terminal commands of backgammon: ``play backgammon`` and ``rules backgammon``.

``play backgammon`` seats a human (seat 0) against a bot, two humans at one
terminal (``--hot-seat``) or two bots (``--watch``) at a core ``Table``; the
board is drawn from the seat's observation and plays are typed in the
engine's notation (``24/18 13/11``, ``bar/22``, ``in/22``, ``6/off``,
``pass``) or by their number in the list; after a 1-2 a bare number names the
double (``6`` is ``double 6``).  At the prompt ``?`` or ``list`` shows the
legal plays one per line, numbered; ``q``/``quit`` (any case, or end of
input, or Ctrl-C) stops; the record is saved either way and ``--resume
RECORD`` continues it.  ``--speed fast|normal`` sets the pause after a bot's
play.  Players are named "You", "Player 1"/"Player 2" (hot seat) and "Bot 1
(greedy)"; engine errors are shown in the player's language.
"""

from __future__ import annotations

import textwrap
import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from aceydeucey.cli.analyze_bg import analyze_backgammon
from aceydeucey.cli.backgammon_cube import CUBE_PHASES, cube_flag_options, cube_prompt, cube_word
from aceydeucey.cli.common import (
    LangOption,
    OptionsOption,
    check_record_path,
    console,
    default_record_path,
    end_of_input,
    error_text,
    fail,
    os_reason,
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
    analyze.command("backgammon")(analyze_backgammon)


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


class Speed(StrEnum):
    fast = "fast"
    normal = "normal"


class Cube(StrEnum):
    none = "none"
    money = "money"
    match = "match"


#: seconds of pause after a bot's play at ``--speed normal`` (none at ``fast``)
PAUSE = 0.35

#: what a human types to stop (any case)
QUIT_WORDS = ("q", "quit", "exit", "sair")
#: what a human types to list the legal plays
LIST_WORDS = ("?", "list", "help")
#: At most this many plays per ``?`` (a double's turn can have a hundred).
PAGE = 20


def play_backgammon(
    variant: VariantOption = None,
    bot: Annotated[
        str,
        typer.Option(
            "--bot", help="The opponent: net, net2, net3, greedy, pubeval (classic only) or random."
        ),
    ] = "greedy",
    hot_seat: Annotated[
        bool, typer.Option("--hot-seat", help="Two humans take turns at this terminal.")
    ] = False,
    watch: Annotated[bool, typer.Option("--watch", help="Watch two bots (--bot) play.")] = False,
    speed: Annotated[
        Speed, typer.Option("--speed", help="normal pauses after each bot's play; fast does not.")
    ] = Speed.normal,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed the dice (and bots) to replay a game.")
    ] = None,
    option: OptionsOption = None,
    cube: Annotated[
        Cube | None,
        typer.Option(
            "--cube",
            help="The doubling cube: none, money (each game for its stakes) or match.",
        ),
    ] = None,
    match: Annotated[
        int | None,
        typer.Option(
            "--match",
            min=1,
            help="Play a match to this many points, with the cube unless --cube none.",
        ),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Where to save the record (default records/backgammon-<time>.json)."
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help="Continue the unfinished game saved in this record."),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play Acey-Deucey or another backgammon variant in the terminal.

    At the prompt type a play in the notation (24/18 13/11, 24/18/11, bar/22,
    in/22, 6/off, pass) or its number from the list; after a 1-2 name the double
    (6 or double 6).  With the cube (--cube money, --match 5) answer d(ouble) or
    r(oll) before rolling, and t(ake), d(rop) or b(eaver) when doubled.  ? lists
    the legal plays, numbered; q or quit stops (the record is saved either way,
    and --resume RECORD continues it).
    """
    from aceydeucey.backgammon.bots import BOTS
    from aceydeucey.core.chance import ChanceSource, Seeded, SystemChance
    from aceydeucey.core.record import Record, replay
    from aceydeucey.core.table import Agent, Table

    language = resolve_lang(lang)
    if hot_seat and watch:
        fail(t_(language, "error_hot_seat_watch"), lang=language)
    if bot not in BOTS:
        fail(t_(language, "error_unknown_bot", bot=bot, accepted=", ".join(BOTS)), lang=language)
    resumed: Record | None = None
    flags = cube_flag_options(None if cube is None else cube.value, match)
    given = {pair.split("=", 1)[0].strip() for pair in option or ()}
    for key in flags.keys() & given:  # one option set twice: say which
        fail(t_(language, "error_flag_and_option", option=key), lang=language)
    if resume is not None:
        if variant is not None or option or flags:
            fail(t_(language, "error_resume_options"), lang=language)
        try:
            resumed = Record.load(resume)
            if resumed.game != "backgammon":
                fail(t_(language, "error_resume_other_game", game=resumed.game), lang=language)
            if replay(resumed).is_terminal():
                fail(t_(language, "error_resume_finished", path=str(resume)), lang=language)
            game = resumed.make_game()
        except AceyDeuceyError as exc:
            fail(exc.render(language), lang=language)
    else:
        pairs = [*(option or ()), *(f"{key}={value}" for key, value in flags.items())]
        game = _load(variant, pairs, language)

    def make_bot(index: int) -> Any:
        return BOTS[bot](seed=None if seed is None else seed * 2 + index)

    agents: list[Agent]
    humans: tuple[int, ...]
    if watch:
        humans = ()
        agents = [make_bot(0), make_bot(1)]
    elif hot_seat:
        humans = (0, 1)
    else:
        humans = (0,)
    names = player_names(humans, bot, language)
    if not watch:
        agents = [
            HumanAgent(language, names) if seat in humans else make_bot(seat) for seat in (0, 1)
        ]
    path = record or default_record_path("backgammon")
    check_record_path(path, language)

    chance: ChanceSource = Seeded(seed) if seed is not None else SystemChance()
    pause = PAUSE if speed is Speed.normal else 0.0
    narrator = Narrator(language, names, humans, pause=pause)
    table = Table(game, agents, chance=chance, names=names, listeners=[narrator])
    if resumed is not None:
        table.state = replay(resumed)
        table.record.actions = list(resumed.actions)
        console.print(t_(language, "resumed", path=str(resume), count=len(resumed.actions)))
    stopped = input_ended = False
    try:
        table.play()
    except (_Stop, KeyboardInterrupt) as stop:
        stopped = True
        input_ended = isinstance(stop, _Stop) and stop.input_ended
        table.record.finish(table.state)
    final = table.state
    if stopped:
        console.print()
        console.print(t_(language, "stopped"))
    else:
        narrator.show(final, seat=humans[0] if humans else 0)
        console.print(_result_line(final, language, names, you=narrator.you))
    try:
        saved = table.record.save(path) if record else table.record.save_new(path)
    except OSError as exc:
        reason = os_reason(exc, language)
        fail(t_(language, "error_save", path=str(path), reason=reason), lang=language)
    console.print(t_(language, "record_saved", path=str(saved)))
    if input_ended:
        end_of_input(saved, language)
    if stopped:
        console.print(t_(language, "resume_hint", path=str(saved)))


def player_names(humans: tuple[int, ...], bot: str, lang: str) -> list[str]:
    """One naming for every game: "You" (or "Player N" when two people play) and
    "Bot N (strategy)", bots counted from 1 in seat order."""
    names: list[str] = []
    bots = 0
    for seat in (0, 1):
        if seat in humans:
            if len(humans) == 1:
                names.append(t_(lang, "you"))
            else:
                names.append(t_(lang, "player_name", n=humans.index(seat) + 1))
        else:
            bots += 1
            names.append(t_(lang, "bot_name", n=bots, bot=bot))
    return names


class HumanAgent:
    """A human at the terminal: shows the board, reads a play, explains a refusal."""

    def __init__(self, lang: str, names: list[str]) -> None:
        self.lang = lang
        self.names = names
        self._asked_again = False  # after a refusal the board is not drawn again
        self._listed = 0

    def act(self, observation: dict[str, Any]) -> str:
        from aceydeucey.cli.backgammon_render import render

        legal: list[str] = observation["legal_actions"]
        self._listed = 0  # plays listed so far by ? at this prompt
        if not self._asked_again:
            console.print(render(observation, lang=self.lang, names=self.names))
        self._asked_again = False
        if legal == ["pass"]:
            console.print(t_(self.lang, "no_play"))
            return "pass"
        naming = observation["phase"] == "double"
        name = self.names[observation["seat"]]
        if observation["phase"] in CUBE_PHASES:
            return self.answer_cube(observation, name)
        if naming:
            prompt = t_(self.lang, "prompt_double", name=name)
        else:
            prompt = t_(self.lang, "prompt", name=name)
        while True:
            try:
                text = console.input(prompt, markup=False)
            except EOFError:
                raise _Stop(input_ended=True) from None
            text = text.strip()
            word = text.lower()
            if word in LIST_WORDS:
                self.show_list(legal, naming)
                continue
            if word in QUIT_WORDS:
                raise _Stop
            if not text:  # a re-ask always says why: here, what may be typed
                console.print(t_(self.lang, "double_list" if naming else "legal_list_hint"))
                continue
            if naming:  # after a 1-2 a number names the double: 4, double 4 (dupla 4)
                named = _named_double(text)
                if named is None:
                    console.print(t_(self.lang, "double_by_number", text=text), markup=False)
                    continue
                return named
            if text.isdigit():
                number = int(text)
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                console.print(t_(self.lang, "bad_number", number=number, count=len(legal)))
                continue
            return text

    def answer_cube(self, observation: dict[str, Any], name: str) -> str:
        """Double or roll; take, drop or beaver: asked until one of them is named."""
        legal: list[str] = observation["legal_actions"]
        phase = observation["phase"]
        prompt = cube_prompt(observation, name, self.lang)
        while True:
            try:
                text = console.input(prompt, markup=False).strip()
            except EOFError:
                raise _Stop(input_ended=True) from None
            if text.lower() in QUIT_WORDS:
                raise _Stop
            action = cube_word(text, phase, legal)
            if action is not None:
                return action
            key = "cube_help" if phase == "cube" else "take_help"
            if "beaver" in legal:
                key = "take_help_beaver"
            shown = t_(self.lang, key)
            if text and text.lower() not in LIST_WORDS:
                shown = t_(self.lang, "cube_not_an_answer", text=text) + " " + shown
            console.print(shown, markup=False)

    def show_list(self, legal: list[str], naming: bool) -> None:
        """The legal actions one per line, numbered (after a 1-2: the doubles to name).

        A long list comes a page of ``PAGE`` plays at a time: each ``?`` at the same
        prompt shows the next page, then starts again from the first.
        """
        if naming:
            console.print(t_(self.lang, "double_list"), markup=False)
            return
        start = self._listed if self._listed < len(legal) else 0
        end = min(start + PAGE, len(legal))
        self._listed = end
        if len(legal) <= PAGE:
            console.print(t_(self.lang, "legal_list", count=len(legal)), markup=False)
        else:
            head = t_(self.lang, "legal_list_page", first=start + 1, last=end, count=len(legal))
            console.print(head, markup=False)
        width = len(str(len(legal)))
        for number in range(start + 1, end + 1):
            console.print(f"  {number:>{width}}. {legal[number - 1]}", markup=False)
        if end < len(legal):
            console.print(t_(self.lang, "legal_list_more", count=len(legal) - end), markup=False)
        console.print(t_(self.lang, "legal_list_hint"), markup=False)

    def rejected(self, choice: Action | str, error: Exception) -> None:
        from rich.text import Text

        console.print(Text.assemble(("✗ ", "bold red"), _render_error(error, self.lang)))
        console.print(t_(self.lang, "try_again"))
        self._asked_again = True


class Narrator:
    """A table listener: says what happened; draws the board after a bot's play in --watch."""

    def __init__(
        self, lang: str, names: list[str], humans: tuple[int, ...], *, pause: float = 0.0
    ) -> None:
        self.lang = lang
        self.names = names
        self.humans = humans
        self.pause = pause
        #: the seat said as "you" (one person against a bot): its sentences take "you" forms
        self.you = humans[0] if len(humans) == 1 else None

    def __call__(self, before: State, action: Action, after: State) -> None:
        event = after.observation(0).get("last_event") or {}
        if event.get("kind") == "cube" and event.get("action") == "roll":
            return  # not doubling is said by the roll that follows
        console.print(self.line(before, action, after), markup=False)
        seat = before.current_player()
        if seat < 0 or seat in self.humans:
            return
        if self.pause:
            time.sleep(self.pause)
        if self.humans or after.is_terminal():
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
        if event.get("kind") == "game_over":  # a game of a match ended: its last move, the score
            ended = self.event_line(seat, action, event.get("last") or {})
            return ended + " " + self.game_won(event)
        return self.event_line(seat, action, event)

    def event_line(self, seat: int, action: Action, event: dict[str, Any]) -> str:
        """One sentence for a player's action and the event it made."""
        if event.get("kind") == "double":
            return t_(self.lang, "named_double", name=self.names[seat], value=event["value"])
        if event.get("kind") == "cube":
            word = str(event.get("action"))
            who = self.names[seat] if 0 <= seat < len(self.names) else ""
            cube = int(event.get("cube") or 1)
            # a double offers twice the cube, which stays as it was until taken
            key = f"cube_{word}" + ("_you" if seat == self.you else "")
            return t_(self.lang, key, name=who, cube=2 * cube if word == "double" else cube)
        if str(action) == "pass":  # no legal play: said in words, not as the notation
            return t_(self.lang, "played_pass", name=self.names[seat])
        return t_(self.lang, "played", name=self.names[seat], play=str(action))

    def game_won(self, event: dict[str, Any]) -> str:
        """The sentence of a game of a match won, with the score."""
        a, b = (int(n) for n in event["score"])
        winner = int(event["seat"])
        return t_(
            self.lang,
            "game_won_you" if winner == self.you else "game_won",
            name=self.names[winner],
            count=int(event["points"]),
            a=self.names[0],
            x=a,
            b=self.names[1],
            y=b,
        )

    def show(self, state: State, *, seat: int) -> None:
        from aceydeucey.cli.backgammon_render import render

        console.print(render(state.observation(seat), lang=self.lang, names=self.names))


# -- helpers ----------------------------------------------------------------------------------


class _Stop(Exception):
    """The human stopped the game (quit or end of input)."""

    def __init__(self, *, input_ended: bool = False) -> None:
        super().__init__()
        self.input_ended = input_ended  # the input closed: the command exits 1


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
        fail(error_text(exc, lang), lang=lang)


def _result_line(state: State, lang: str, names: list[str], *, you: int | None = None) -> str:
    """Who won, with the points and how they were counted (said once, at the end); the
    seat ``you`` (one person against a bot) is said in the second person."""
    outcome = state.outcome()
    assert outcome is not None
    params = dict(outcome.params)
    winner = params["winner"]
    return t_(
        lang,
        "result_you" if winner == you else "result",
        name=names[winner],
        count=params["points"],
        how=t_(lang, f"result_{params['result']}"),
    )


def _named_double(text: str) -> str | None:
    """The double a 1-2's player names: ``4``, ``double 4`` or ``dupla 4`` → ``double 4``;
    anything else (a move, a number outside 1–6) → ``None``.

    >>> _named_double("4"), _named_double("Dupla 6"), _named_double("13/7"), _named_double("7")
    ('double 4', 'double 6', None, None)
    """
    words = text.lower().split()
    if len(words) == 2 and words[0] in ("double", "dupla"):
        words = words[1:]
    if len(words) == 1 and words[0] in ("1", "2", "3", "4", "5", "6"):
        return f"double {words[0]}"
    return None


def _render_error(error: Exception, lang: str) -> str:
    return error.render(lang) if isinstance(error, AceyDeuceyError) else str(error)
