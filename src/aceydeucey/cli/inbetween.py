"""Terminal commands of In-Between: ``play inbetween``, ``rules inbetween`` and ``odds``.

The commands are thin: they resolve the rules with the engine's ``Rules``,
parse cards and actions with the engine's parsers, run the game on the core
``Table`` and render observations with :mod:`aceydeucey.inbetween.ui`.

``--option key=value`` (repeatable) passes any rule option; values are read as
``int`` when they look like one, ``true``/``false`` as booleans, a comma list of
whole numbers as a tuple (``spread_pays=6,4,2,1``), anything else as text.  The
engine validates them and its message reaches the user.
"""

from __future__ import annotations

import json
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
from aceydeucey.inbetween.rules import InBetweenRules
from aceydeucey.locale import t

if TYPE_CHECKING:
    from fractions import Fraction

    from rich.console import Console

    from aceydeucey.core.game import Action, State

__all__ = ["register"]

_DOMAIN = "inbetween"

PresetOption = Annotated[
    str | None,
    typer.Option("--preset", help="Rules preset: guide (default), banker, sheets, red-dog, ..."),
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
    rules = _resolve_rules(preset, parse_options(InBetweenRules, option, lang))
    console.print(rules_sheet(rules, lang), markup=False)


# -- odds -----------------------------------------------------------------------


def odds_command(
    posts: Annotated[
        list[str], typer.Argument(help="The two posts, e.g. 4C QD.", metavar="POST POST")
    ],
    seen: Annotated[
        str | None,
        typer.Option("--seen", help="Cards already seen this shuffle, e.g. 5H,5S,QS."),
    ] = None,
    preset: PresetOption = None,
    decks: Annotated[int | None, typer.Option("--decks", help="Number of decks.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the four fractions as JSON.")
    ] = False,
    option: OptionsOption = None,
    lang: LangOption = None,
) -> None:
    """Exact odds of the third card against two posts, and the EV of one chip staked."""
    from aceydeucey.cards import Card, parse_cards

    lang = resolve_lang(lang)
    options = parse_options(InBetweenRules, option, lang)
    if decks is not None:
        options["decks"] = decks
    rules = _resolve_rules(preset, options)
    if len(posts) != 2:
        fail(f"odds needs exactly two posts, got {len(posts)}: {' '.join(posts) or 'none'}")
    try:
        cards = [Card.from_text(p) for p in posts]
        seen_cards = parse_cards(seen) if seen else []
        result = _post_odds(cards[0], cards[1], seen_cards, rules)
    except AceyDeuceyError as exc:
        fail(str(exc))
    inside, outside, post, ev = result
    if as_json:
        print(
            json.dumps(
                {
                    "inside": str(inside),
                    "outside": str(outside),
                    "post": str(post),
                    "ev_per_chip": str(ev),
                }
            )
        )
        return
    from rich.text import Text

    from aceydeucey.inbetween.ui import cards_text, odds_text

    head = Text(t(_DOMAIN, "ui.posts", lang) + "  ", style="bold")
    head.append_text(cards_text([str(c) for c in cards], "  "))
    if seen_cards:
        head.append("   " + t(_DOMAIN, "ui.seen", lang, count=len(seen_cards)) + " ")
        head.append_text(cards_text([str(c) for c in seen_cards]))
    console.print(head)
    console.print(odds_text(inside, outside, post, ev, lang))


# -- play -----------------------------------------------------------------------


def play_inbetween(
    preset: PresetOption = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Number of seats (default: the preset's).")
    ] = None,
    bots: Annotated[
        int | None,
        typer.Option("--bots", help="Bot seats (default players-1; = players to watch bots)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Reproducible shuffles (default: OS randomness).")
    ] = None,
    bot: Annotated[str, typer.Option("--bot", help="Bot kind: random or ev.")] = "ev",
    option: OptionsOption = None,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="Where to save the record (default records/...)."),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play In-Between in the terminal: you are seat 0, bots take the other seats."""
    from aceydeucey.core.chance import Seeded, SystemChance
    from aceydeucey.core.table import Table
    from aceydeucey.inbetween.bots import BOTS
    from aceydeucey.inbetween.ui import final_view

    lang = resolve_lang(lang)
    options = parse_options(InBetweenRules, option, lang)
    if players is not None:
        options["players"] = players
    rules = _resolve_rules(preset, options)
    game = _make_game(rules)
    n = game.num_players
    bot_seats = n - 1 if bots is None else bots
    if not 0 <= bot_seats <= n:
        fail(t(_DOMAIN, "error.bots_range", lang, players=n, bots=bot_seats))
    if bot not in BOTS:
        fail(t(_DOMAIN, "error.unknown_bot", lang, bot=bot, accepted=", ".join(BOTS)))
    humans = n - bot_seats
    names = [
        t(_DOMAIN, "ui.you", lang, n=i)
        if i < humans
        else t(_DOMAIN, "ui.bot_name", lang, n=i, kind=bot)
        for i in range(n)
    ]
    # Humans take the first seats (the human is seat 0), bots the rest.
    agents: list[Any] = []
    for i in range(n):
        if i < humans:
            agents.append(HumanAgent(i, names, lang, console, rules))
        else:
            agents.append(make_bot(bot, None if seed is None else seed * 1000 + i))
    viewer = 0 if humans else None
    narrator = Narrator(names, lang, console, viewer=viewer)
    chance = Seeded(seed) if seed is not None else SystemChance()
    table = Table(game, agents, chance=chance, names=names, listeners=[narrator])
    console.print(t(_DOMAIN, "ui.welcome", lang, rules=rules.describe()), style="bold")
    if seed is not None:
        console.print(t(_DOMAIN, "ui.seed", lang, seed=seed), style="dim")
    narrator.show(table.state)
    stopped = False
    try:
        result = table.play()
    except QuitGame:
        stopped = True
        table.record.finish(table.state)
        result = table.record
    final: State = table.state
    if stopped:
        console.print(t(_DOMAIN, "ui.quit", lang), style="yellow")
    else:
        obs = final.observation(0)
        outcome = obs.get("outcome") or {}
        returns = outcome.get("returns") or [str(r) for r in final.returns()]
        winners = outcome.get("winners") or []
        start = rules.starting_chips if rules.banking == "shared" else None
        chips = obs.get("chips") or []
        console.print(final_view(returns, winners, names, chips, lang, starting_chips=start))
    path = record or default_record_path("inbetween")
    saved = result.save(path)
    console.print(t(_DOMAIN, "ui.record_saved", lang, path=str(saved)))


# -- seats and narration -------------------------------------------------------


class QuitGame(Exception):
    """The human typed ``quit`` (or input ended): stop and save what was played."""


class HumanAgent:
    """A seat played from the terminal: shows the table, prompts, re-prompts on bad input.

    Typing ``odds`` or ``?`` shows the odds of the current posts (from the
    observation's posts and seen cards); ``quit`` stops the game.
    """

    name = "human"

    def __init__(self, seat: int, names: list[str], lang: str, out: Console, rules: Any) -> None:
        self.seat = seat
        self.names = names
        self.lang = lang
        self.out = out
        self.rules = rules
        self._shown: dict[str, Any] | None = None

    def act(self, observation: dict[str, Any]) -> str:
        from aceydeucey.inbetween.ui import compact_actions, table_view

        if observation != self._shown:
            self._shown = observation
            self.out.print(table_view(observation, self.names, self.lang))
            legal = list(observation["legal_actions"])
            self.out.print(
                t(_DOMAIN, "ui.your_turn", self.lang, actions=compact_actions(legal)),
                style="bold",
            )
        while True:
            try:
                text = self.out.input(f"[bold cyan]{t(_DOMAIN, 'ui.prompt', self.lang)}:[/] ")
            except EOFError:
                self.out.print()
                raise QuitGame from None
            text = text.strip()
            if text.lower() in ("odds", "?"):
                self.show_odds(observation)
                continue
            if text.lower() in ("quit", "exit", "q"):
                raise QuitGame
            if text:
                return text

    def rejected(self, choice: Any, error: Exception) -> None:
        self.out.print(t(_DOMAIN, "ui.rejected", self.lang, reason=str(error)), style="red")

    def show_odds(self, observation: dict[str, Any]) -> None:
        """Odds of the posts in play, from the observation's posts and seen cards."""
        from rich.text import Text

        from aceydeucey.cards import Card
        from aceydeucey.inbetween.ui import odds_text

        posts = [Card.from_text(c) for c in observation.get("posts") or []]
        gap = int(observation.get("gap") or 1)
        pair = posts[gap - 1 : gap + 1]
        if len(pair) < 2:
            self.out.print(t(_DOMAIN, "ui.no_odds", self.lang), style="yellow")
            return
        # ``seen`` holds the posts too; the odds want the other cards only.
        seen = [Card.from_text(c) for c in observation.get("seen") or []]
        for post in pair:
            if post in seen:
                seen.remove(post)
        legal = observation.get("legal_actions") or []
        calls = [c for c in ("higher", "lower") if any(a.startswith(c) for a in legal)]
        for call in calls or ["between"]:
            try:
                inside, outside, post_p, ev = _post_odds(
                    pair[0],
                    pair[1],
                    seen,
                    self.rules,
                    ace_low=bool(observation.get("ace_low")),
                    call=call,
                )
            except (AceyDeuceyError, ValueError) as exc:
                self.out.print(str(exc), style="red")
                return
            if call != "between":
                self.out.print(Text(call, style="bold"))
            self.out.print(odds_text(inside, outside, post_p, ev, self.lang))


def make_bot(kind: str, seed: int | None) -> Any:
    """A bot of ``kind`` (a key of ``inbetween.bots.BOTS``), seeded when it takes a seed."""
    from aceydeucey.inbetween.bots import BOTS

    cls = BOTS[kind]
    try:
        return cls(seed)
    except TypeError:
        return cls()


class Narrator:
    """A table listener: one line per event, and the table at each new round."""

    def __init__(self, names: list[str], lang: str, out: Console, *, viewer: int | None) -> None:
        self.names = names
        self.lang = lang
        self.out = out
        self.viewer = viewer
        self._round: Any = None

    def __call__(self, before: State, action: Action, after: State) -> None:

        from aceydeucey.inbetween.ui import event_text, table_view

        obs = after.observation(self.viewer if self.viewer is not None else 0)
        event = obs.get("last_event")
        # The transition's own event first, then what followed it automatically
        # (a new round, a refilled pot, the end of the session).
        events = [event, *event.get("after", [])] if event else []
        for each in events:
            line = event_text(
                each,
                self.names,
                self.lang,
                posts=obs.get("posts") or (),
                house=obs.get("bank") is not None,
            )
            if line is not None:
                self.out.print(line)
        if self.viewer is None and obs.get("round") != self._round and not after.is_terminal():
            self._round = obs.get("round")
            self.out.print(table_view(obs, self.names, self.lang, mark_seat=False))

    def show(self, state: State) -> None:
        """Print the table as the viewer (or, watching bots, seat 0) sees it."""
        from aceydeucey.inbetween.ui import table_view

        obs = state.observation(self.viewer if self.viewer is not None else 0)
        self._round = obs.get("round")
        self.out.print(table_view(obs, self.names, self.lang, mark_seat=self.viewer is not None))


# -- helpers --------------------------------------------------------------------


def _resolve_rules(preset: str | None, options: dict[str, Any]) -> Any:
    from aceydeucey.inbetween.rules import Rules

    try:
        return Rules.resolve(preset=preset, **options)
    except AceyDeuceyError as exc:
        fail(str(exc))
    except TypeError as exc:  # a dataclass refusing an argument
        fail(str(exc))


def _make_game(rules: Any) -> Any:
    from aceydeucey.inbetween.game import InBetweenGame

    try:
        return InBetweenGame(rules)
    except AceyDeuceyError as exc:
        fail(str(exc))


def _post_odds(
    first: Any,
    second: Any,
    seen: list[Any],
    rules: Any,
    *,
    ace_low: bool = False,
    call: str = "between",
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    from aceydeucey.inbetween.odds import post_odds

    result = post_odds(
        first,
        second,
        seen,
        decks=rules.decks,
        ace_low=ace_low,
        rules=rules,
        call=call,  # type: ignore[arg-type]
    )
    return result.inside, result.outside, result.post, result.ev_per_chip
