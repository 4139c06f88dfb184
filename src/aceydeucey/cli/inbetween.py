"""Terminal commands of In-Between: ``play inbetween``, ``rules inbetween`` and ``odds``.

The commands are thin: they resolve the rules with the engine's ``Rules``, build the game
with ``load_game``, run it on the core ``Table`` and render observations with
:mod:`aceydeucey.cli.inbetween_ui`.  They hold no rules: the odds of the decision at hand
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

import json
import re
import unicodedata
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

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
from aceydeucey.core.errors import AceyDeuceyError, ActionSyntaxError
from aceydeucey.inbetween.rules import InBetweenRules
from aceydeucey.locale import t

if TYPE_CHECKING:
    from rich.console import Console

    from aceydeucey.core.game import Action, Game, State
    from aceydeucey.core.record import Record

__all__ = ["canonical_action", "localized_action", "register"]

_DOMAIN = "inbetween"

PresetOption = Annotated[
    str | None,
    typer.Option(
        "--preset",
        metavar="NAME",
        help="Rules preset: guide (default), banker, sheets, red-dog, three-posts.",
    ),
]


def register(app: typer.Typer, play: typer.Typer, rules: typer.Typer, analyze: typer.Typer) -> None:
    """Add In-Between's commands to the app's groups."""
    play.command("inbetween")(play_inbetween)
    rules.command("inbetween")(rules_inbetween)
    app.command("odds")(odds_command)


def _fail(exc: Exception, lang: str) -> NoReturn:
    """An engine error in the user's language (no traceback)."""
    fail(exc.render(lang) if isinstance(exc, AceyDeuceyError) else str(exc), lang=lang)


# -- rules ----------------------------------------------------------------------


def rules_inbetween(
    preset: PresetOption = None,
    option: OptionsOption = None,
    lang: LangOption = None,
) -> None:
    """Print the In-Between rules sheet for the resolved options."""
    from aceydeucey.inbetween.sheet import rules_sheet

    lang = resolve_lang(lang)
    rules = _resolve_rules(preset, parse_options(InBetweenRules, option, lang), lang)
    console.print(rules_sheet(rules, lang), markup=False)


# -- odds -----------------------------------------------------------------------


def _post_arg(metavar: str, text: str) -> Any:
    return typer.Argument(metavar=metavar, help=text, show_default=False)


#: The posts, each with its own help row (none with --table or --house-edge).
_Post1 = Annotated[str | None, _post_arg("POST1", "The first post, e.g. 4C.")]
_Post2 = Annotated[str | None, _post_arg("POST2", "The second post, e.g. QD.")]
_Post3 = Annotated[
    str | None,
    _post_arg(
        "POST3", "The third post, under three posts only. No post with --table or --house-edge."
    ),
]


def odds_command(
    post1: _Post1 = None,
    post2: _Post2 = None,
    post3: _Post3 = None,
    seen: Annotated[
        str | None,
        typer.Option("--seen", metavar="CARDS", help="Cards already seen this shuffle: 5H,5S,QS."),
    ] = None,
    call: Annotated[
        str | None,
        typer.Option(
            "--call", metavar="higher|lower", help="The call on a pair, where pairs are called."
        ),
    ] = None,
    ace: Annotated[
        str | None,
        typer.Option(
            "--ace",
            metavar="low|high",
            help="Call an ace: the first post's (aces=first-card) or the round's "
            "(aces=dealer-declares).",
        ),
    ] = None,
    balance: Annotated[
        int | None,
        typer.Option(
            "--balance",
            metavar="N",
            help="Your chips now (Red Dog: besides the ante riding); default: the starting "
            "chips. The stake advice and Kelly read it.",
        ),
    ] = None,
    pot: Annotated[
        int | None,
        typer.Option(
            "--pot",
            metavar="N",
            help="Chips in the pot; default: every seat's ante (the banker's bank).",
        ),
    ] = None,
    round_number: Annotated[
        int,
        typer.Option("--round", metavar="N", help="The round (first-round and escalating limits)."),
    ] = 1,
    table: Annotated[
        bool,
        typer.Option("--table", help="Every spread with a full deck instead of given posts."),
    ] = False,
    house_edge: Annotated[
        bool,
        typer.Option(
            "--house-edge", help="Red Dog: the exact house edge and element of risk of best play."
        ),
    ] = False,
    preset: PresetOption = None,
    decks: Annotated[
        int | None, typer.Option("--decks", metavar="N", help="Number of decks.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", metavar="", help="Print the odds as JSON (exact fractions).")
    ] = False,
    option: OptionsOption = None,
    lang: LangOption = None,
) -> None:
    """Exact odds of a decision on posts: each stake's chances and EV, the best stake, Kelly's.

    Or every spread with a full deck (--table), or Red Dog's house edge (--house-edge).
    """
    from aceydeucey.cards import Card, parse_cards
    from aceydeucey.core.errors import ArgumentError
    from aceydeucey.inbetween.odds import default_pot, posts_odds

    lang = resolve_lang(lang)
    options = parse_options(InBetweenRules, option, lang)
    if decks is not None:
        options["decks"] = decks
    rules = _resolve_rules(preset, options, lang)
    given = [p for p in (post1, post2, post3) if p is not None]
    try:
        if table and house_edge:
            raise ArgumentError("ib_odds.modes_exclusive")
        if table or house_edge:
            extras = (seen, call, ace, balance, pot)
            if given or any(x is not None for x in extras) or round_number != 1:
                raise ArgumentError(
                    "ib_odds.mode_alone", mode="--table" if table else "--house-edge"
                )
            if table:
                _print_spreads(rules, as_json, lang)
            else:
                _print_house_edge(rules, as_json, lang)
            return
        if len(given) < 2:
            raise ArgumentError("ib_odds.posts_needed")
        if pot is not None and pot < 0:
            raise ArgumentError("ib_odds.pot_negative", pot=pot)
        if round_number < 1:
            raise ArgumentError("ib_odds.round_positive", round=round_number)
        if call is not None and call not in ("higher", "lower"):
            raise ArgumentError("ib_odds.bad_call", value=call)
        if ace is not None and ace not in ("low", "high"):
            raise ArgumentError("ib_odds.bad_ace", value=ace)
        posts = [Card.from_text(p) for p in given]
        seen_cards = parse_cards(seen) if seen else []
        chips = rules.starting_chips if balance is None else balance
        odds = posts_odds(
            rules,
            posts,
            seen_cards,
            call=call,  # type: ignore[arg-type]
            ace_low=None if ace is None else ace == "low",
            chips=chips,
            pot=pot,
            round_number=round_number,
        )
    except (AceyDeuceyError, ValueError) as exc:
        _fail(exc, lang)
    house = rules.banking == "house"
    if pot is None:
        pot = default_pot(rules)
    if as_json:
        table_data: dict[str, Any] = {"balance": chips, "round": round_number}
        table_data.update({"ante": rules.ante} if house else {"pot": pot})
        print(json.dumps({**odds.to_dict(), "table": table_data}))
        return
    from rich.text import Text

    from aceydeucey.cli.inbetween_ui import cards_text, decision_view, seen_text

    head = Text(t(_DOMAIN, "ui.posts", lang) + "  ", style="bold")
    head.append_text(cards_text([str(c) for c in posts], "  "))
    if seen_cards:
        head.append("   " + t(_DOMAIN, "ui.seen", lang, count=len(seen_cards)) + " ")
        head.append_text(seen_text([str(c) for c in seen_cards]))
    console.print(head)
    if house:
        line = t(_DOMAIN, "odds.table_line_house", lang, balance=chips, ante=rules.ante)
    else:
        line = t(_DOMAIN, "odds.table_line", lang, balance=chips, pot=pot, round=round_number)
    console.print(line, style="dim")
    console.print(decision_view(odds, lang, word=lambda a: localized_action(a, lang)))


def _print_spreads(rules: Any, as_json: bool, lang: str) -> None:
    """``odds --table``: every spread from a full shoe."""
    from aceydeucey.inbetween.spreads import spread_table

    rows = spread_table(rules)
    if as_json:
        data = {
            "decks": rules.decks,
            "rows": [
                {
                    "spread": row.spread,
                    "pair": row.pair,
                    "posts": list(row.posts),
                    "frequency": str(row.frequency),
                    **row.odds.to_dict(),
                }
                for row in rows
            ],
        }
        print(json.dumps(data))
        return
    from aceydeucey.cli.inbetween_ui import spread_table_view

    console.print(spread_table_view(rows, rules, lang))


def _print_house_edge(rules: Any, as_json: bool, lang: str) -> None:
    """``odds --house-edge``: Red Dog's exact house edge for the rules' decks."""
    from aceydeucey.inbetween.spreads import house_edge

    edge = house_edge(rules)
    if as_json:
        data = {
            "decks": edge.decks,
            "house_edge": float(edge.house_edge),
            "element_of_risk": float(edge.element_of_risk),
            "house_edge_exact": str(edge.house_edge),
            "element_of_risk_exact": str(edge.element_of_risk),
            "average_bet": float(edge.average_bet),
            "average_bet_exact": str(edge.average_bet),
            "raise_spreads": list(edge.raise_spreads),
        }
        print(json.dumps(data))
        return
    from aceydeucey.cli.inbetween_ui import house_edge_view

    console.print(house_edge_view(edge, lang))


# -- words: canonical actions and the player's language --------------------------

_WORDS = ("pass", "bet", "higher", "lower", "split", "stay", "raise", "quit")
_PHRASES = ("ace low", "ace high", "aces low", "aces high")


def _plain(text: str) -> str:
    """Lower case without accents: ``Ás baixo`` → ``as baixo``."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def _aliases() -> dict[str, str]:
    """Every language's word (accents optional) → the canonical word or phrase."""
    out: dict[str, str] = {}
    for lang in ("en", "pt"):
        for word in (*_WORDS, *_PHRASES):
            out[_plain(t(_DOMAIN, "cmd." + word.replace(" ", "_"), lang))] = word
    out.update({"alta": "higher", "baixa": "lower", "mais alta": "higher", "mais baixa": "lower"})
    return out


def canonical_action(text: str) -> str:
    """The player's words as canonical action text: ``apostar 2`` → ``bet 2``.

    >>> canonical_action("Apostar 2"), canonical_action("ás baixo"), canonical_action("bet 3")
    ('bet 2', 'ace low', 'bet 3')
    """
    plain = _plain(text)
    aliases = _aliases()
    if plain in aliases:
        return aliases[plain]
    head, _, rest = plain.rpartition(" ")
    if head in aliases and rest:
        return f"{aliases[head]} {rest}"
    return text.strip()


def localized_action(action: str, lang: str) -> str:
    """A canonical action in the player's words: ``bet 2`` → ``apostar 2`` in Portuguese."""
    if action in _PHRASES or action in _WORDS:
        return t(_DOMAIN, "cmd." + action.replace(" ", "_"), lang)
    word, _, rest = action.partition(" ")
    if word in _WORDS:
        return f"{t(_DOMAIN, 'cmd.' + word, lang)} {rest}".strip()
    return action


def shown_error(error: Exception, lang: str) -> str:
    """A refusal as the player reads it: the actions it echoes in the player's words
    (``apostar 99``, not ``bet 99``), seats counted from 1 as on the screen.

    The engine's error keeps canonical actions and seats from 0 (its ``params`` are data);
    only the text shown here changes.
    """
    from aceydeucey.locale import render_error

    if not isinstance(error, AceyDeuceyError):
        return str(error)
    params = dict(error.params)
    for key, value in params.items():
        if key == "action" and isinstance(value, str):
            params[key] = localized_action(value, lang)
        elif key in ("legal", "allowed") and isinstance(value, list | tuple):
            params[key] = [localized_action(str(v), lang) for v in value]
        elif key == "seat" and isinstance(value, int) and not isinstance(value, bool):
            params[key] = value + 1
    return render_error(error.code, params, lang)


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
            fail(t(_DOMAIN, "ui.resume_rules", lang), lang=lang)
        resumed = _load_resume(resume, lang)
        game = resumed[0].make_game()
    else:
        options = parse_options(InBetweenRules, option, lang)
        if players is not None:
            options["players"] = players
        chosen = _resolve_rules(preset, options, lang)
        try:
            game = load_game("inbetween", **chosen.to_dict())
        except AceyDeuceyError as exc:
            _fail(exc, lang)
    rules: Any = game.rules
    n = game.num_players
    bot_seats = n - 1 if bots is None else bots
    if not 0 <= bot_seats <= n:
        fail(t(_DOMAIN, "error.bots_range", lang, players=n, bots=bot_seats), lang=lang)
    if bot not in BOTS:
        fail(t(_DOMAIN, "error.unknown_bot", lang, bot=bot, accepted=", ".join(BOTS)), lang=lang)
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
        t(_DOMAIN, "ui.welcome", lang, preset=preset_name(rules.preset, lang)), style="bold"
    )
    changes = rules.changes()
    if changes:
        shown = ", ".join(f"{k}={v}" for k, v in changes)
        console.print(t(_DOMAIN, "ui.options", lang, changes=shown), style="dim")
    if seed is not None:
        console.print(t(_DOMAIN, "ui.seed", lang, seed=seed), style="dim")
    tally = [Fraction(0)] * n
    sessions = 0
    while True:
        table = Table(game, agents, chance=chance, names=names, listeners=[narrator])
        if resumed is not None:
            table.state = resumed[1]
            table.record.actions = list(resumed[0].actions)
            console.print(
                t(_DOMAIN, "ui.resumed", lang, path=str(resume), count=len(resumed[0].actions))
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
            console.print(t(_DOMAIN, "ui.quit", lang), style="yellow")
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
                returns, winners, names, chips, lang, starting_chips=start, unfinished=stopped
            )
        )
        sessions += 1
        tally = [a + b for a, b in zip(tally, returns, strict=True)]
        if sessions > 1:
            console.print(standings_view(tally, names, lang, sessions=sessions))
        saved = _save(result, path, lang, fresh=record is None)
        console.print(t(_DOMAIN, "ui.record_saved", lang, path=str(saved)))
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
        return t(_DOMAIN, f"ui.preset.{preset}", lang)
    except KeyError:
        return preset


def seat_names(humans: int, seats: int, bot: str, lang: str) -> list[str]:
    """One naming everywhere: "You" (or "Player 1", "Player 2" with several people), then
    "Bot 1 (ev)", "Bot 2 (ev)", ...: people and bots each counted from 1."""
    names = []
    for i in range(seats):
        if i < humans:
            names.append(
                t(_DOMAIN, "ui.you", lang)
                if humans == 1
                else t(_DOMAIN, "ui.player_n", lang, n=i + 1)
            )
        else:
            names.append(t(_DOMAIN, "ui.bot_name", lang, n=i - humans + 1, kind=bot))
    return names


def record_path_after(record: Path | None, session: int) -> Path:
    """The record of a later session: ``--record`` with ``-2``, ``-3``..., else a new default."""
    if record is None:
        return default_record_path("inbetween")
    if record.exists() and not record.is_file():  # a device such as /dev/null: keep it
        return record
    return record.with_name(f"{record.stem}-{session}{record.suffix}")


def _ask_again(lang: str) -> str:
    console.print(t(_DOMAIN, "ui.again", lang), style="bold")
    while True:
        try:
            text = console.input(f"[bold cyan]{t(_DOMAIN, 'ui.again_prompt', lang)}:[/] ")
        except EOFError:
            console.print()
            return "n"
        choice = _plain(text)[:1]
        if choice in ("c", "r", "n", "q", "s"):
            return "n" if choice in ("q", "s") else choice
        console.print(t(_DOMAIN, "ui.again", lang), style="yellow")  # asked again: the choices


def _save(result: Record, path: Path, lang: str, *, fresh: bool) -> Path:
    """Write the record: to a new file for a default name (never over another game's)."""
    try:
        return result.save_new(path) if fresh else result.save(path)
    except OSError as exc:
        reason = os_reason(exc, lang)
        fail(t(_DOMAIN, "ui.record_unwritable", lang, path=str(path), reason=reason), lang=lang)


def _load_resume(path: Path, lang: str) -> tuple[Record, State]:
    from aceydeucey.core.record import Record, replay

    try:
        record = Record.load(path)
        if record.game != "inbetween":
            fail(t(_DOMAIN, "ui.resume_bad", lang, path=str(path), reason=record.game), lang=lang)
        state = replay(record)
    except AceyDeuceyError as exc:
        fail(t(_DOMAIN, "ui.resume_bad", lang, path=str(path), reason=exc.render(lang)), lang=lang)
    if state.is_terminal():
        fail(t(_DOMAIN, "ui.resume_finished", lang, path=str(path)), lang=lang)
    return record, state


# -- seats and narration -------------------------------------------------------


class QuitGame(Exception):
    """The human typed ``quit`` (or input ended): stop and save what was played.

    ``input_ended``: the input closed (not a choice to stop); the command then exits 1.
    """

    def __init__(self, *, input_ended: bool = False) -> None:
        super().__init__()
        self.input_ended = input_ended


_NEGATIVE = re.compile(r"^(\D+?)\s+-\d+$")


class HumanAgent:
    """A seat played from the terminal: shows the table, prompts, re-prompts on bad input.

    ``?`` (or ``odds``) shows the odds of the decision at hand from ``odds.decision_odds``;
    ``quit`` (``sair``) stops the game.  It learns the rules when seated.
    """

    name = "human"

    def __init__(self, names: list[str], lang: str, out: Console) -> None:
        self.names = names
        self.lang = lang
        self.out = out
        self.rules: Any = None
        self.seat = 0
        self._shown: dict[str, Any] | None = None
        self._obs: dict[str, Any] = {}
        self._typed = ""

    def seated(self, game: Game, seat: int) -> None:
        self.rules = game.rules
        self.seat = seat

    def legal_text(self, observation: dict[str, Any]) -> str:
        from aceydeucey.cli.inbetween_ui import compact_actions

        legal = [localized_action(a, self.lang) for a in observation.get("legal_actions") or []]
        return compact_actions(legal)

    def act(self, observation: dict[str, Any]) -> str:
        from aceydeucey.cli.inbetween_ui import table_view

        self._obs = observation
        if observation != self._shown:
            self._shown = observation
            self.out.print(table_view(observation, self.names, self.lang))
            self.show_gap(observation)
            self.out.print(
                t(_DOMAIN, "ui.your_turn", self.lang, actions=self.legal_text(observation)),
                style="bold",
            )
        while True:
            try:
                text = self.out.input(f"[bold cyan]{t(_DOMAIN, 'ui.prompt', self.lang)}:[/] ")
            except EOFError:
                self.out.print()
                raise QuitGame(input_ended=True) from None
            text = text.strip()
            plain = _plain(text)
            if plain in ("odds", "?", "probabilidades"):
                self.show_odds(observation)
                continue
            if plain in ("quit", "exit", "q", "sair"):
                raise QuitGame
            if not text:  # a re-ask always says why: here, what may be typed
                self.out.print(
                    t(_DOMAIN, "ui.your_turn", self.lang, actions=self.legal_text(observation)),
                    style="yellow",
                )
                continue
            negative = _NEGATIVE.match(text)
            if negative:
                low = observation.get("min_stake") or 1
                self.out.print(
                    t(_DOMAIN, "ui.at_least", self.lang, text=text, min=low), style="red"
                )
                continue
            self._typed = text  # a refusal echoes what was typed, not its canonical form
            return canonical_action(text)

    def show_gap(self, observation: dict[str, Any]) -> None:
        """Three posts: which gap the bet is on, and that the second bet is compulsory."""
        from aceydeucey.cards import Card

        gap = observation.get("gap")
        posts = observation.get("posts") or []
        if not gap or len(posts) < 3 or not observation.get("legal_actions"):
            return
        a, b = (Card.from_text(c).symbol() for c in posts[gap - 1 : gap + 1])
        self.out.print(t(_DOMAIN, "ui.gap", self.lang, gap=gap, a=a, b=b), style="bold")
        if "pass" not in observation["legal_actions"]:
            self.out.print(t(_DOMAIN, "ui.compulsory", self.lang), style="yellow")

    def rejected(self, choice: Any, error: Exception) -> None:
        if isinstance(error, ActionSyntaxError):
            message = t(
                _DOMAIN,
                "ui.not_understood",
                self.lang,
                text=self._typed or str(choice),
                actions=self.legal_text(self._obs),
            )
            self.out.print(message, style="red")
            return
        reason = shown_error(error, self.lang)
        self.out.print(t(_DOMAIN, "ui.rejected", self.lang, reason=reason), style="red")

    def show_odds(self, observation: dict[str, Any]) -> None:
        """The odds of the decision at hand (bets, calls, ace calls, split, Red Dog raise)."""
        from aceydeucey.cli.inbetween_ui import decision_view
        from aceydeucey.inbetween.odds import decision_odds

        try:
            odds = decision_odds(self.rules, observation)
        except (AceyDeuceyError, ValueError) as exc:
            text = exc.render(self.lang) if isinstance(exc, AceyDeuceyError) else str(exc)
            self.out.print(text, style="red")
            return
        if odds.decision == "none":
            self.out.print(t(_DOMAIN, "ui.no_odds", self.lang), style="yellow")
            return
        self.out.print(
            decision_view(odds, self.lang, word=lambda a: localized_action(a, self.lang))
        )


def make_bot(kind: str, seed: int | None) -> Any:
    """A bot of ``kind`` (a key of ``sim.inbetween_bots.ALL_BOTS``), seeded if it takes one."""
    from aceydeucey.sim.inbetween_bots import ALL_BOTS as BOTS

    cls = BOTS[kind]
    try:
        return cls(seed)
    except TypeError:
        return cls()


#: Events of a decision or its third card: under three posts, they name their gap.
_GAP_EVENTS = ("pass", "bet", "settle")


class Narrator:
    """A table listener: one line per event, and the table at each new round."""

    def __init__(self, names: list[str], lang: str, out: Console, *, viewer: int | None) -> None:
        self.names = names
        self.lang = lang
        self.out = out
        self.viewer = viewer
        self._round: Any = None

    def __call__(self, before: State, action: Action, after: State) -> None:
        from aceydeucey.cli.inbetween_ui import event_text, table_view

        obs = after.observation(self.viewer if self.viewer is not None else 0)
        event = obs.get("last_event")
        gap = self.gap_text(before)
        # The transition's own event first, then what followed it automatically
        # (a new round, a refilled pot, the end of the session).
        events = [event, *event.get("after", [])] if event else []
        outcome = obs.get("outcome")
        for each in events:
            if each.get("kind") == "over" and isinstance(outcome, dict):
                each = {**each, **outcome}
            line = event_text(
                each,
                self.names,
                self.lang,
                posts=obs.get("posts") or (),
                house=obs.get("bank") is not None,
                you=self.viewer,
            )
            if line is not None:
                if gap is not None and each is event and event.get("kind") in _GAP_EVENTS:
                    line.append("  (" + gap + ")", style="dim")
                self.out.print(line)
        if self.viewer is None and obs.get("round") != self._round and not after.is_terminal():
            self._round = obs.get("round")
            self.out.print(table_view(obs, self.names, self.lang, mark_seat=False))

    def gap_text(self, before: State) -> str | None:
        """Three posts: the gap a decision or a third card is on (``gap 2: K♣ to 10♠``)."""
        from aceydeucey.cards import Card

        obs = before.observation(self.viewer if self.viewer is not None else 0)
        gap, posts = obs.get("gap"), obs.get("posts") or []
        if not gap or len(posts) < 3:
            return None
        a, b = (Card.from_text(c).symbol() for c in posts[gap - 1 : gap + 1])
        return t(_DOMAIN, "ui.gap_inline", self.lang, gap=gap, a=a, b=b)

    def show(self, state: State) -> None:
        """Print the table as the viewer (or, watching bots, seat 0) sees it."""
        from aceydeucey.cli.inbetween_ui import table_view

        obs = state.observation(self.viewer if self.viewer is not None else 0)
        self._round = obs.get("round")
        deciding = obs.get("to_act") == self.viewer and obs.get("legal_actions")
        if self.viewer is not None and deciding:
            return  # the viewer decides now: the seat's prompt shows the table
        self.out.print(table_view(obs, self.names, self.lang, mark_seat=self.viewer is not None))


# -- helpers --------------------------------------------------------------------


def _resolve_rules(preset: str | None, options: dict[str, Any], lang: str) -> Any:
    from aceydeucey.inbetween.rules import Rules

    try:
        return Rules.resolve(preset=preset, **options)
    except AceyDeuceyError as exc:
        _fail(exc, lang)
    except TypeError as exc:  # a dataclass refusing an argument
        fail(str(exc), lang=lang)
