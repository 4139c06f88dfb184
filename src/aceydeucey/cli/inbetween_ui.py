"""Rich renderables for In-Between (the terminal), built from observations and odds only.

Nothing here reads a game state: every view takes the JSON-ready
``observation(seat)`` (see ``inbetween.game``), so the terminal shows exactly
what the seat may see.  Cards are written with their suit symbols (``4♣``,
``Q♦``), red suits in red; a card the seat may not see is ``▒▒``.

Views:

- :func:`card_text` / :func:`cards_text`: one card, or a row of cards.
- :func:`table_view`: the whole table (round, dealer, pot, bank, every balance,
  first cards, the posts of the player to act).
- :func:`compact_actions`: the legal actions in short form (``pass, bet 1–5``).
- :func:`odds_text`: inside / outside / post probabilities and EV per chip.
- :func:`decision_view`: the odds of the decision at hand (``odds.decision_odds`` or
  ``odds.posts_odds``): every stake's outcomes and EV per chip, and each legal action's
  exact value.
- :func:`advice_text`: a stake's limits, its best stake by EV and Kelly's fraction and stake.
- :func:`spread_table_view`, :func:`house_edge_view`: ``odds --table`` and ``--house-edge``.
- :func:`number_text`: a decimal in the language's style (``0,120`` in Portuguese).
- :func:`seen_text`: every card seen this shuffle, grouped by rank when there are many.
- :func:`event_text`: one line narrating ``last_event``.
- :func:`final_view`: the final standings (returns and winners).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from aceydeucey.cards import Card, rank_name
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.inbetween.kelly import kelly_fraction
from aceydeucey.inbetween.odds import BetOdds, DecisionOdds, stake_action
from aceydeucey.inbetween.spreads import HouseEdge, SpreadRow
from aceydeucey.locale import error_domain as _error_domain
from aceydeucey.locale import render_error, t

__all__ = [
    "advice_text",
    "card_text",
    "cards_text",
    "compact_actions",
    "decision_view",
    "event_text",
    "final_view",
    "fraction_text",
    "house_edge_view",
    "number_text",
    "odds_text",
    "seen_text",
    "spread_table_view",
    "standings_view",
    "table_view",
]

_DOMAIN = "inbetween"
_HIDDEN = "▒▒"


def card_text(card: str | None) -> Text:
    """One card with its suit symbol, red suits in red; ``None`` is a hidden card."""
    if card is None:
        return Text(_HIDDEN, style="dim")
    try:
        parsed = Card.from_text(card)
    except AceyDeuceyError:
        return Text(card, style="bold")
    return Text(parsed.symbol(), style="bold red" if parsed.is_red else "bold")


def cards_text(cards: Sequence[str | None], sep: str = " ") -> Text:
    """A row of cards (see :func:`card_text`); an empty row is ``—``."""
    if not cards:
        return Text("—", style="dim")
    return Text(sep).join(card_text(c) for c in cards)


def compact_actions(actions: Sequence[str]) -> str:
    """Legal actions in short form: runs of ``bet 1`` … ``bet 5`` become ``bet 1–5``.

    >>> compact_actions(["pass", "bet 1", "bet 2", "bet 3", "higher 1", "higher 2"])
    'pass, bet 1–3, higher 1–2'
    >>> compact_actions(["stay", "raise 2", "raise 4"])
    'stay, raise 2, raise 4'
    """
    # Each verb with an amount keeps its spans of consecutive amounts, in first-seen order.
    runs: dict[str, list[list[int]]] = {}
    order: list[str] = []
    for action in actions:
        match = re.fullmatch(r"(.*\D) (\d+)", action)
        if match is None:
            order.append(action)
            continue
        verb, amount = match.group(1), int(match.group(2))
        if verb not in runs:
            runs[verb] = []
            order.append(verb)
        spans = runs[verb]
        if spans and spans[-1][1] + 1 == amount:
            spans[-1][1] = amount
        else:
            spans.append([amount, amount])
    parts: list[str] = []
    for item in order:
        if item not in runs:
            parts.append(item)
            continue
        parts.extend(f"{item} {lo}" if lo == hi else f"{item} {lo}–{hi}" for lo, hi in runs[item])
    return ", ".join(parts)


def seen_text(cards: Sequence[str], *, group_above: int = 12) -> Text:
    """Every seen card; more than ``group_above`` are grouped by rank (``5 ♥♠  Q ♣``).

    >>> seen_text(["5H", "QC", "5S"]).plain
    '5♥ Q♣ 5♠'
    >>> seen_text(["5H", "QC", "5S"], group_above=2).plain
    '5 ♥♠  Q ♣'
    """
    if len(cards) <= group_above:
        return cards_text(cards)
    by_rank: dict[int, list[Card]] = {}
    for text in cards:
        try:
            card = Card.from_text(text)
        except AceyDeuceyError:
            continue
        by_rank.setdefault(card.rank, []).append(card)
    out = Text()
    for i, rank in enumerate(sorted(by_rank)):
        if i:
            out.append("  ")
        out.append(rank_name(rank) + " ", style="bold")
        for card in by_rank[rank]:
            out.append(card.symbol()[-1], style="bold red" if card.is_red else "bold")
    return out


def number_text(value: float, lang: str, *, digits: int = 3, percent: bool = False) -> str:
    """A decimal as ``lang`` writes it: ``+0.120`` / ``+0,120``; ``56.0%`` / ``56,0%``.

    >>> number_text(0.12, "en"), number_text(0.12, "pt")
    ('+0.120', '+0,120')
    >>> number_text(0.56, "pt", digits=1, percent=True)
    '56,0%'

    """
    if percent:
        return t(_DOMAIN, "num.percent", lang, value=float(value) * 100, digits=digits)
    return t(_DOMAIN, "num.signed", lang, value=float(value), digits=digits)


def fraction_text(value: Fraction | str, *, percent: bool = False, lang: str = "en") -> str:
    """An exact fraction with a decimal aside: ``"-8/25 (-0.320)"`` or ``"8/25 (32.0%)"``.

    >>> fraction_text("8/25", percent=True), fraction_text("-8/25"), fraction_text("3")
    ('8/25 (32.0%)', '-8/25 (-0.320)', '3')
    >>> fraction_text("8/25", percent=True, lang="pt")
    '8/25 (32,0%)'
    """
    frac = Fraction(value)
    if frac.denominator == 1:
        return str(frac.numerator)
    approx = number_text(float(frac), lang, digits=1 if percent else 3, percent=percent)
    return f"{frac} ({approx})"


def odds_text(
    inside: Fraction, outside: Fraction, post: Fraction, ev_per_chip: Fraction, lang: str
) -> Text:
    """The odds line: probabilities of inside / outside / post and EV of one chip."""
    line = Text()
    title = t(_DOMAIN, "ui.odds_title", lang)
    line.append(title + "  ", style="bold cyan")
    for i, (key, value, style) in enumerate(
        (
            ("ui.inside", inside, "green"),
            ("ui.outside", outside, "yellow"),
            ("ui.post", post, "red"),
        )
    ):
        if i:
            line.append(" · ", style="dim")
        line.append(t(_DOMAIN, key, lang) + " ", style=style)
        line.append(fraction_text(value, percent=True, lang=lang))
    line.append("\n" + " " * (len(title) + 2))
    line.append(t(_DOMAIN, "ui.ev_per_chip", lang) + " ", style="bold")
    ev = Fraction(ev_per_chip)
    line.append(_signed(ev, lang), style="green" if ev > 0 else "red" if ev < 0 else "")
    return line


def table_view(
    observation: Mapping[str, Any],
    names: Sequence[str],
    lang: str,
    *,
    mark_seat: bool = True,
) -> Panel:
    """The table as the observing seat sees it: pot, balances, cards, posts, whose turn.

    ``mark_seat`` labels the observing seat "(you)" (off when watching bots).
    """
    obs = observation
    chips: list[int] = list(obs.get("chips") or [])
    dealer = obs.get("dealer")
    to_act = obs.get("to_act")
    first_cards: list[str | None] = list(obs.get("first_cards") or [None] * len(chips))
    seat = obs.get("seat")

    house = obs.get("bank") is not None
    bets: list[int] = list(obs.get("bets") or [])
    head = Text()
    if obs.get("round") is not None:
        head.append(t(_DOMAIN, "ui.round", lang, round=obs["round"]) + "   ", style="bold")
    if house:
        head.append(t(_DOMAIN, "ui.bank", lang) + " ", style="bold")
        head.append(str(obs["bank"]), style="bold yellow")
    else:
        head.append(t(_DOMAIN, "ui.pot", lang) + " ", style="bold")
        head.append(str(obs.get("pot", 0)), style="bold yellow")

    grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False)
    grid.add_column("")
    grid.add_column(t(_DOMAIN, "ui.player", lang))
    grid.add_column(t(_DOMAIN, "ui.chips", lang), justify="right")
    if bets:
        grid.add_column(t(_DOMAIN, "ui.bet", lang), justify="right")
    if not house:
        grid.add_column(t(_DOMAIN, "ui.first_card", lang))
    for i, balance in enumerate(chips):
        marks = "▶" if i == to_act else " "
        name = names[i] if i < len(names) else f"seat {i}"
        label = Text(name, style="bold" if i == seat else "")
        if i == seat and mark_seat and name != t(_DOMAIN, "ui.you", lang):
            label.append(" (" + t(_DOMAIN, "ui.you_mark", lang) + ")", style="bold")
        if i == dealer:
            label.append(" (" + t(_DOMAIN, "ui.dealer", lang) + ")", style="dim")
        row: list[str | Text] = [marks, label, str(balance)]
        if bets:
            row.append(str(bets[i]) if i < len(bets) else "")
        if not house:
            first = first_cards[i] if i < len(first_cards) else None
            row.append(card_text(first) if first else Text(""))
        grid.add_row(*row)

    parts: list[RenderableType] = [head, grid]
    posts: list[str] = list(obs.get("posts") or [])
    if posts:
        line = Text(t(_DOMAIN, "ui.posts", lang) + "  ", style="bold")
        line.append_text(cards_text(posts, "  "))
        if obs.get("ace_low"):
            line.append("  (" + t(_DOMAIN, "ui.ace_low", lang) + ")", style="dim")
        parts.append(line)
    hand: list[str] = list(obs.get("hand") or [])
    if hand and hand != posts:
        line = Text(t(_DOMAIN, "ui.your_hand", lang) + "  ", style="bold")
        line.append_text(cards_text(hand, "  "))
        parts.append(line)
    if obs.get("min_stake") is not None and obs.get("max_stake") is not None:
        low, high = obs["min_stake"], obs["max_stake"]
        if low == high:  # "from 1 to 1 chips" read oddly (Red Dog's raise of 1)
            stakes = t(_DOMAIN, "ui.stake_one", lang, count=high)
        else:
            stakes = t(_DOMAIN, "ui.stake_range", lang, min=low, count=high)
        parts.append(Text(stakes, style="dim"))
    seen: list[str] = list(obs.get("seen") or [])
    if seen:
        line = Text(t(_DOMAIN, "ui.seen", lang, count=len(seen)) + "  ", style="dim")
        line.append_text(seen_text(seen))
        parts.append(line)
    return Panel(Group(*parts), title="In-Between", title_align="left", expand=False)


def event_text(
    event: Mapping[str, Any] | None,
    names: Sequence[str],
    lang: str,
    *,
    posts: Sequence[str] = (),
    house: bool = False,
    you: int | None = None,
) -> Text | None:
    """One line narrating an observation's ``last_event`` (``None`` when there is none).

    Known kinds have a message ``event.<kind>`` in the catalog; an unknown kind is
    shown as its fields, so a new engine event is never lost.  ``posts`` (the
    observation's posts) completes a ``post`` event with all the posts in play;
    ``house`` (a Red Dog table: no pot, the house deals) shortens the round line;
    ``you`` is the seat of the player at the screen, addressed in the second person.
    """
    if not event:
        return None
    kind = str(event.get("kind", ""))
    values = {k.replace("-", "_"): v for k, v in event.items() if k != "kind"}
    values["who"] = _name(event.get("seat"), names)
    values["dealer_name"] = _name(event.get("dealer"), names)
    delta = _num(event.get("delta"))
    values["gain"] = abs(delta)
    line = Text("• ", style="dim")
    if kind == "settle":
        return _settle_text(line, event, values, names, lang)
    key = "event." + kind.replace("-", "_")
    if kind == "post" and event.get("seat") is None:
        key = "event.post_common"
    elif kind == "ace":
        key = "event.ace_low" if event.get("low") else "event.ace_high"
    elif kind == "aces":
        key = "event.aces_low" if event.get("low") else "event.aces_high"
    elif kind == "bet" and event.get("call") in ("higher", "lower"):
        key = f"event.bet_{event['call']}"
    elif kind == "pass" and event.get("forfeit"):
        key = "event.pass_forfeit"
    elif kind == "push" and event.get("seat") is None:
        key = "event.push_all"
    elif kind == "round" and house:
        key = "event.round_house"
    elif kind == "dealer-takes" and not event.get("amount"):
        key = "event.dealer_takes_nothing"  # not "takes the 0 left"
    elif kind == "tie":
        values["who"] = ", ".join(_name(s, names) for s in event.get("seats") or [])
    elif kind == "over":
        reason = _reason(event, lang)
        if reason is None:
            # An engine reason without a code is English text: other languages omit it.
            reason = str(event.get("reason", ""))
            if lang != "en" or not reason:
                key = "event.over_plain"
        values["reason"] = reason
    # The seat an event is about, or the dealer of a new round, addressed as "you".
    about = event.get("dealer") if kind == "round" and not house else event.get("seat")
    if you is not None and about == you and not isinstance(you, bool):
        try:
            t(_DOMAIN, key + "_you", lang)
            key += "_you"
        except KeyError:
            pass
    try:
        message = t(_DOMAIN, key, lang, **values)
    except KeyError:
        detail = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
        line.append(f"{kind} {detail}".strip())
        return line
    line.append(message, style="red" if delta < 0 else "green" if delta > 0 else "")
    cards: list[str] = []
    for field in ("card", "posts"):
        value = event.get(field)
        if isinstance(value, str):
            cards.append(value)
        elif isinstance(value, list):
            cards.extend(str(c) for c in value)
    if cards:
        line.append(" ")
        line.append_text(cards_text(cards))
    if (kind == "spread" or (kind == "post" and event.get("seat") is not None)) and len(posts) >= 2:
        line.append("  (" + t(_DOMAIN, "ui.posts_inline", lang) + " ", style="dim")
        line.append_text(cards_text(list(posts)))
        line.append(")", style="dim")
    if event.get("replenished"):
        line.append(" " + t(_DOMAIN, "event.replenished", lang, amount=event["replenished"]))
    return line


def _settle_text(
    line: Text,
    event: Mapping[str, Any],
    values: dict[str, Any],
    names: Sequence[str],
    lang: str,
) -> Text:
    """``settle``: the third card, its outcome, and the chips that moved."""
    outcome = str(event.get("outcome", ""))
    if event.get("seat") is not None:
        line.append(t(_DOMAIN, "event.settle", lang, who=values["who"]) + " ")
    else:
        line.append(t(_DOMAIN, "event.settle_all", lang) + " ")
    third = event.get("third")
    if third:
        line.append_text(card_text(str(third)))
        line.append(" ")
    deltas: list[int] = []
    if isinstance(event.get("deltas"), list):
        deltas = [_num(d) for d in event["deltas"]]
    delta = _num(event.get("delta"))
    mood = delta if event.get("seat") is not None else sum(deltas)
    line.append(
        _maybe(f"outcome.{outcome}", lang, outcome),
        style="green" if mood > 0 else "red" if mood < 0 else "",
    )
    if event.get("seat") is not None:
        line.append(f" ({delta:+d})")
    elif deltas:
        moved = [f"{_name(i, names)} {d:+d}" for i, d in enumerate(deltas) if d]
        if moved:
            line.append(" (" + ", ".join(moved) + ")")
    if event.get("pot") is not None:
        line.append("  " + t(_DOMAIN, "ui.pot", lang) + f" {event['pot']}", style="dim")
    if event.get("replenished"):
        line.append(" " + t(_DOMAIN, "event.replenished", lang, amount=event["replenished"]))
    return line


def _reason(event: Mapping[str, Any], lang: str) -> str | None:
    """Why the session ended, in ``lang``: a termination code rendered from its catalog.

    The reason is the event's ``{"code", "params"}`` message, or the outcome's
    ``termination`` code and ``params``; None when there is no code (legacy text).
    """
    reason = event.get("reason")
    if isinstance(reason, dict) and isinstance(reason.get("code"), str):
        params = reason.get("params")
        if _error_domain(reason["code"]) is not None:
            return render_error(reason["code"], params if isinstance(params, dict) else {}, lang)
    for key in ("termination", "code", "reason"):
        code = event.get(key)
        if isinstance(code, str) and _error_domain(code) is not None:
            params = event.get("params")
            return render_error(code, params if isinstance(params, dict) else {}, lang)
    return None


def _name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return "" if seat is None else str(seat)


def final_view(
    returns: Sequence[str | Fraction],
    winners: Sequence[int],
    names: Sequence[str],
    chips: Sequence[int],
    lang: str,
    *,
    starting_chips: int | None = None,
    unfinished: bool = False,
) -> Panel:
    """The final standings: each seat's chips, exact net result, and who wins
    (``unfinished``: the standings so far of a stopped game, titled so).

    With ``starting_chips``, a column shows each seat's share of the pot left over
    (net result + starting chips - chips), when anyone has one.
    """
    values = [Fraction(r) for r in returns]
    shares: list[Fraction] = []
    if starting_chips is not None and len(chips) == len(values):
        shares = [v + starting_chips - c for v, c in zip(values, chips, strict=True)]
        if not any(shares):
            shares = []
    grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False)
    grid.add_column(t(_DOMAIN, "ui.player", lang))
    grid.add_column(t(_DOMAIN, "ui.chips", lang), justify="right")
    if shares:
        grid.add_column(t(_DOMAIN, "ui.pot_share", lang), justify="right")
    grid.add_column(t(_DOMAIN, "ui.result", lang), justify="right")
    grid.add_column("")
    for i, value in enumerate(values):
        star = "★ " + t(_DOMAIN, "ui.winner", lang) if i in winners else ""
        row: list[str | Text] = [
            names[i] if i < len(names) else f"seat {i}",
            str(chips[i]) if i < len(chips) else "",
        ]
        if shares:
            row.append(_exact(shares[i], signed=False, lang=lang))
        row.append(
            Text(
                _exact(value, signed=True, lang=lang),
                style="green" if value > 0 else "red" if value < 0 else "",
            )
        )
        row.append(Text(star, style="bold yellow"))
        grid.add_row(*row)
    title = t(_DOMAIN, "ui.so_far" if unfinished else "ui.final", lang)
    return Panel(grid, title=title, title_align="left", expand=False)


def standings_view(
    totals: Sequence[Fraction], names: Sequence[str], lang: str, *, sessions: int
) -> Panel:
    """Each seat's net chips over several sessions, best first."""
    grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False)
    grid.add_column(t(_DOMAIN, "ui.player", lang))
    grid.add_column(t(_DOMAIN, "ui.result", lang), justify="right")
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    for i in order:
        value = totals[i]
        style = "green" if value > 0 else "red" if value < 0 else ""
        name = names[i] if i < len(names) else str(i + 1)
        grid.add_row(name, Text(_exact(value, signed=True, lang=lang), style=style))
    title = t(_DOMAIN, "ui.standings", lang, sessions=sessions)
    return Panel(grid, title=title, title_align="left", expand=False)


def _exact(value: Fraction, *, signed: bool, lang: str = "en") -> str:
    """``+3``, ``0``, ``-3/2 (-1.50)``: exact, with a decimal aside for fractions."""
    sign = "+" if signed and value > 0 else ""
    if value.denominator == 1:
        return f"{sign}{value.numerator}"
    return f"{sign}{value} ({number_text(float(value), lang, digits=2).lstrip('+')})"


def _maybe(key: str, lang: str, fallback: str) -> str:
    try:
        return t(_DOMAIN, key, lang)
    except KeyError:
        return fallback


def _num(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


# -- the odds of the decision at hand -------------------------------------------


def _signed(value: Fraction, lang: str = "en") -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return f"{value.numerator:+d}" if value else "0"
    return f"{'+' if value > 0 else ''}{value} ({number_text(float(value), lang)})"


def bet_label(bet: BetOdds, lang: str) -> str:
    """What a stake is on: ``Bet between 4 and Q``, ``Higher than 7``, ``Gap 2: 9 to K``."""
    a, b = (rank_name(r) for r in sorted(bet.posts))
    text = t(_DOMAIN, f"odds.label.{bet.action}", lang, a=a, b=b)
    if bet.gap is not None:
        text = t(_DOMAIN, "odds.gap", lang, gap=bet.gap, bet=text)
    if bet.after is not None:
        call = t(_DOMAIN, "cmd." + bet.after.replace(" ", "_"), lang)
        text = t(_DOMAIN, "odds.after", lang, call=call, bet=text)
    return text


def bet_text(bet: BetOdds, lang: str) -> Text:
    """One stake: its label, each outcome's chance and stakes paid, and the EV per chip."""
    line = Text(bet_label(bet, lang), style="bold")
    for name, stakes, chance in bet.outcomes:
        line.append("\n  ")
        word = t(_DOMAIN, f"odds.outcome.{name}", lang)
        style = "green" if stakes > 0 else "red" if stakes < 0 else ""
        line.append(word + " ", style=style)
        line.append(fraction_text(chance, percent=True, lang=lang))
        line.append(
            "  " + t(_DOMAIN, "odds.pays", lang, stakes=f"{stakes:+d}" if stakes else "0"),
            style="dim",
        )
    line.append("\n  " + t(_DOMAIN, "ui.ev_per_chip", lang) + " ", style="bold")
    ev = bet.ev_per_chip
    line.append(_signed(ev, lang), style="green" if ev > 0 else "red" if ev < 0 else "")
    return line


def decision_view(
    odds: DecisionOdds,
    lang: str,
    *,
    word: Any = None,
    params: Mapping[str, Any] | None = None,
) -> Group:
    """The decision at hand: its kind, each stake's odds, each legal action's value.

    ``word`` turns a canonical action into the player's words (default: unchanged);
    ``params`` fill the sentences of hands that play themselves (``pair_win``, ``ante``).
    """
    show = word if word is not None else (lambda text: text)
    parts: list[RenderableType] = [
        Text(
            t(_DOMAIN, f"odds.decision.{odds.decision}", lang, **dict(params or {})),
            style="bold cyan",
        )
    ]
    if odds.forced:
        parts.append(Text(t(_DOMAIN, "odds.forced", lang), style="yellow"))
    for bet in odds.bets:
        parts.append(bet_text(bet, lang))
        if bet.advice is not None:
            parts.append(advice_text(bet, lang, word=show))
    if odds.values:
        values = dict(odds.values)
        best = max(values, key=lambda a: (values[a], -_amount(a)))
        runs: dict[str, list[int]] = {}
        line = Text(t(_DOMAIN, "odds.values", lang) + " ", style="bold")
        items: list[str] = []
        for action in values:
            verb, _, amount = action.rpartition(" ")
            if amount.isdigit():
                if verb not in runs:
                    runs[verb] = []
                    items.append(verb)
                runs[verb].append(int(amount))
            else:
                items.append(action)
        shown: list[str] = []
        for item in items:
            if item in runs:
                amounts = runs[item]
                lo, hi = min(amounts), max(amounts)
                span = f"{show(item)} {lo}" if lo == hi else f"{show(item)} {lo}–{hi}"
                low_value = _signed(values[f"{item} {lo}"], lang)
                high_value = _signed(values[f"{item} {hi}"], lang)
                span_values = low_value if lo == hi else f"{low_value} … {high_value}"
                shown.append(f"{span}: {span_values}")
            else:
                shown.append(f"{show(item)} {_signed(values[item], lang)}")
        line.append(" · ".join(shown))
        parts.append(line)
        # A stake's advice may already name the best action ("Most chips on average").
        advised = {
            stake_action(bet, bet.advice.best)
            for bet in odds.bets
            if bet.advice is not None and bet.advice.limits
        }
        if best not in advised:
            parts.append(
                Text(
                    t(
                        _DOMAIN,
                        "odds.best",
                        lang,
                        action=show(best),
                        value=_signed(values[best], lang),
                    ),
                    style="bold green" if values[best] > 0 else "bold",
                )
            )
    return Group(*parts)


def kelly_text(fraction: float, exact: Fraction | None, lang: str) -> str:
    """Kelly's fraction: exact with its percentage (``1/11 (9.1%)``) or ``≈ 10.95%``."""
    if exact is not None:
        return fraction_text(exact, percent=True, lang=lang)
    return t(_DOMAIN, "num.approx", lang, value=number_text(fraction, lang, digits=2, percent=True))


def advice_text(bet: BetOdds, lang: str, *, word: Any = None) -> Text:
    """A stake's advice: the limits and balance, the stake of most expected chips and
    Kelly's fraction and stake (``odds.StakeAdvice``)."""
    show = word if word is not None else (lambda text: text)
    advice = bet.advice
    assert advice is not None
    line = Text("  ")
    if advice.limits is None:
        line.append(t(_DOMAIN, "odds.advice.no_stake", lang, balance=advice.wealth), style="dim")
        return line
    low, high = advice.limits
    if bet.action == "raise":
        text = t(
            _DOMAIN,
            "odds.advice.limits_raise",
            lang,
            riding=advice.riding,
            most=high - advice.riding,
            balance=advice.wealth,
        )
    else:
        text = t(_DOMAIN, "odds.advice.limits", lang, low=low, high=high, balance=advice.wealth)
    line.append(text, style="dim")
    best = stake_action(bet, advice.best)
    line.append("\n  ")
    line.append(
        t(
            _DOMAIN,
            "odds.advice.best",
            lang,
            action=show(best),
            value=_signed(advice.best_value, lang),
        )
    )
    kelly = advice.kelly
    action = show(stake_action(bet, kelly.stake))
    value = _signed(advice.kelly_value, lang)
    line.append("\n  ")
    if kelly.fraction == math.inf:
        line.append(t(_DOMAIN, "odds.advice.kelly_no_loss", lang, action=action, value=value))
    elif kelly.fraction <= 0:
        line.append(t(_DOMAIN, "odds.advice.kelly_unfavourable", lang, action=action, value=value))
    else:
        fraction = kelly_text(kelly.fraction, kelly.exact, lang)
        line.append(
            t(
                _DOMAIN,
                "odds.advice.kelly",
                lang,
                fraction=fraction,
                balance=kelly.wealth,
                action=action,
                value=value,
            ),
            style="bold",
        )
    return line


def spread_table_view(rows: Sequence[SpreadRow], rules: Any, lang: str) -> Table:
    """``odds --table``: every spread with a full shoe (``spreads.spread_table``).

    Exact fractions (``--json`` has the same): the chance of the posts, of winning (inside,
    a won call, trips), of a post, of losing otherwise and, where a hand can push, of a
    push; the pays, the EV per chip, Kelly's fraction and the play of most chips.  A
    called pair has a line per call.
    """
    title = t(_DOMAIN, "odds.spreads.title", lang, count=rules.decks, preset=rules.preset)
    calls = any(len(row.odds.bets) > 1 for row in rows)
    pushes = any(m == 0 for row in rows for bet in row.odds.bets for _, m, _ in bet.outcomes)
    keys = ["spread", "frequency", *(["call"] if calls else []), "win", "post", "lose"]
    keys += [*(["push"] if pushes else []), "pays", "ev", "kelly", "play"]
    grid = Table(
        title=title,
        title_justify="left",
        header_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    for key in keys:
        justify = "left" if key in ("spread", "call", "play") else "right"
        grid.add_column(
            t(_DOMAIN, f"odds.col.{key}", lang),
            justify=justify,  # type: ignore[arg-type]
            no_wrap=key != "play",
        )
    for row in rows:
        if row.spread is None:
            label = (
                t(_DOMAIN, "odds.spread.pair", lang)
                if row.pair is None
                else t(_DOMAIN, "odds.spread.pair_rank", lang, rank=rank_name(row.pair))
            )
        else:
            label = str(row.spread)
        head = [label, str(row.frequency)]
        if not row.odds.bets:
            short = t(_DOMAIN, f"odds.short.{row.odds.decision}", lang)
            grid.add_row(*head, *(short if k == "play" else "" for k in keys[2:]))
            continue
        for i, bet in enumerate(row.odds.bets):
            win = sum((p for _, m, p in bet.outcomes if m > 0), Fraction(0))
            post = bet.chance("post")
            push = sum((p for _, m, p in bet.outcomes if m == 0), Fraction(0))
            pays = max((m for _, m, _ in bet.outcomes), default=0)
            exact, fraction = kelly_fraction(bet.multiples())
            ev = bet.ev_per_chip
            if row.odds.decision not in ("bet", "raise"):
                kelly = "—"  # the hand plays itself: nothing to stake
            elif 0 < fraction < math.inf:
                kelly = number_text(fraction, lang, digits=1, percent=True)
                kelly = kelly if exact is not None else t(_DOMAIN, "num.approx", lang, value=kelly)
            else:
                kelly = "0" if fraction == 0 else "∞"
            cells: dict[str, str | Text] = {
                "call": t(_DOMAIN, f"cmd.{bet.action}", lang) if len(row.odds.bets) > 1 else "",
                "win": str(win),
                "post": str(post),
                "lose": str(1 - win - post - push),
                "push": str(push),
                "pays": f"{pays}:1" if pays > 0 else "—",
                "ev": Text(
                    f"{'+' if ev > 0 else ''}{ev}",
                    style="green" if ev > 0 else "red" if ev < 0 else "",
                ),
                "kelly": kelly,
                "play": t(_DOMAIN, "odds.play." + _best_play(row.odds.decision, ev), lang),
            }
            grid.add_row(*(head if i == 0 else ["", ""]), *(cells[k] for k in keys[2:]))
    return grid


def _best_play(decision: str, ev: Fraction) -> str:
    """The play of most expected chips on a row of the spread table."""
    if decision == "raise":
        return "raise" if ev > 0 else "stay"
    if decision == "bet":
        return "bet_most" if ev > 0 else "pass"
    return "none"


def house_edge_view(edge: HouseEdge, lang: str) -> Table:
    """``odds --house-edge``: Red Dog's exact house edge and element of risk."""
    grid = Table(title=t(_DOMAIN, "odds.house.title", lang), title_justify="left")
    grid.add_column("")
    grid.add_column("", justify="right")

    def exact(value: Fraction, percent: bool) -> str:
        return f"{value} ({number_text(float(value), lang, digits=4, percent=percent).lstrip('+')})"

    spreads = ", ".join(str(s) for s in edge.raise_spreads) or "—"
    for key, value in (
        ("decks", str(edge.decks)),
        ("edge", exact(edge.house_edge, True)),
        ("risk", exact(edge.element_of_risk, True)),
        ("average", exact(edge.average_bet, False)),
        ("raise", spreads),
    ):
        grid.add_row(t(_DOMAIN, f"odds.house.{key}", lang), value)
    grid.show_header = False
    return grid


def _amount(action: str) -> int:
    _, _, amount = action.rpartition(" ")
    return int(amount) if amount.isdigit() else 0
