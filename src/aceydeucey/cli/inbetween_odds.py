"""In-Between's ``odds`` command: the odds of a decision and each stake's advice, the best
stake and Kelly's (``inbetween.odds``), the spreads' table and the house edge
(``inbetween.spreads``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from aceydeucey.cli.common import (
    LangOption,
    OptionsOption,
    console,
    parse_options,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.inbetween.rules import InBetweenRules
from aceydeucey.locale import t

if TYPE_CHECKING:
    pass
from aceydeucey.cli.inbetween_options import DOMAIN, PresetOption, fail_engine, resolve_rules
from aceydeucey.cli.inbetween_words import localized_action

__all__ = ["odds_command"]


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
    rules = resolve_rules(preset, options, lang)
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
        fail_engine(exc, lang)
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

    head = Text(t(DOMAIN, "ui.posts", lang) + "  ", style="bold")
    head.append_text(cards_text([str(c) for c in posts], "  "))
    if seen_cards:
        head.append("   " + t(DOMAIN, "ui.seen", lang, count=len(seen_cards)) + " ")
        head.append_text(seen_text([str(c) for c in seen_cards]))
    console.print(head)
    if house:
        line = t(DOMAIN, "odds.table_line_house", lang, balance=chips, ante=rules.ante)
    else:
        line = t(DOMAIN, "odds.table_line", lang, balance=chips, pot=pot, round=round_number)
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
