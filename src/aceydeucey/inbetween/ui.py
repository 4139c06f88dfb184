"""Rich renderables for In-Between, built from an observation dict only.

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
- :func:`event_text`: one line narrating ``last_event``.
- :func:`final_view`: the final standings (returns and winners).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from aceydeucey.cards import Card
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

__all__ = [
    "card_text",
    "cards_text",
    "compact_actions",
    "event_text",
    "final_view",
    "fraction_text",
    "odds_text",
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
    out: list[str] = []
    runs: dict[str, list[list[int]]] = {}
    order: list[str] = []
    for action in actions:
        match = re.fullmatch(r"(.*\D) (\d+)", action)
        if match is None:
            out.append(action)
            order.append(action)
            continue
        verb, amount = match.group(1), int(match.group(2))
        if verb not in runs:
            runs[verb] = []
            order.append(f"\0{verb}")
        spans = runs[verb]
        if spans and spans[-1][1] + 1 == amount:
            spans[-1][1] = amount
        else:
            spans.append([amount, amount])
    parts: list[str] = []
    for item in order:
        if not item.startswith("\0"):
            parts.append(item)
            continue
        verb = item[1:]
        for lo, hi in runs[verb]:
            parts.append(f"{verb} {lo}" if lo == hi else f"{verb} {lo}–{hi}")
    return ", ".join(parts)


def fraction_text(value: Fraction | str, *, percent: bool = False) -> str:
    """An exact fraction with a decimal aside: ``"8/25 (0.32)"`` or ``"8/25 (32.0%)"``."""
    frac = Fraction(value)
    if frac.denominator == 1:
        return str(frac.numerator)
    approx = f"{float(frac) * 100:.1f}%" if percent else f"{float(frac):+.3f}"
    return f"{frac} ({approx})"


def odds_text(
    inside: Fraction, outside: Fraction, post: Fraction, ev_per_chip: Fraction, lang: str
) -> Text:
    """The odds line: probabilities of inside / outside / post and EV of one chip."""
    line = Text()
    line.append(t(_DOMAIN, "ui.odds_title", lang) + "  ", style="bold cyan")
    for key, value, style in (
        ("ui.inside", inside, "green"),
        ("ui.outside", outside, "yellow"),
        ("ui.post", post, "red"),
    ):
        line.append(t(_DOMAIN, key, lang) + " ", style=style)
        line.append(fraction_text(value, percent=True) + "   ")
    line.append(t(_DOMAIN, "ui.ev_per_chip", lang) + " ", style="bold")
    ev = Fraction(ev_per_chip)
    line.append(
        str(ev) if ev.denominator == 1 else f"{ev} ({float(ev):+.3f})",
        style="green" if ev > 0 else "red" if ev < 0 else "",
    )
    return line


def table_view(observation: Mapping[str, Any], names: Sequence[str], lang: str) -> Panel:
    """The table as the observing seat sees it: pot, balances, cards, posts, whose turn."""
    obs = observation
    chips: list[int] = list(obs.get("chips") or [])
    dealer = obs.get("dealer")
    to_act = obs.get("to_act")
    first_cards: list[str | None] = list(obs.get("first_cards") or [None] * len(chips))
    seat = obs.get("seat")

    head = Text()
    if obs.get("round") is not None:
        head.append(t(_DOMAIN, "ui.round", lang, round=obs["round"]) + "   ", style="bold")
    head.append(t(_DOMAIN, "ui.pot", lang) + " ", style="bold")
    head.append(str(obs.get("pot", 0)), style="bold yellow")
    if obs.get("bank") is not None:
        head.append("   " + t(_DOMAIN, "ui.bank", lang) + " ", style="bold")
        head.append(str(obs["bank"]), style="bold yellow")

    grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False)
    grid.add_column("")
    grid.add_column(t(_DOMAIN, "ui.player", lang))
    grid.add_column(t(_DOMAIN, "ui.chips", lang), justify="right")
    grid.add_column(t(_DOMAIN, "ui.first_card", lang))
    for i, balance in enumerate(chips):
        marks = ("▶" if i == to_act else " ") + ("D" if i == dealer else " ")
        name = names[i] if i < len(names) else f"seat {i}"
        label = Text(name, style="bold" if i == seat else "")
        if i == dealer:
            label.append(" (" + t(_DOMAIN, "ui.dealer", lang) + ")", style="dim")
        first = first_cards[i] if i < len(first_cards) else None
        grid.add_row(marks, label, str(balance), card_text(first) if first else Text(""))

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
        parts.append(
            Text(
                t(_DOMAIN, "ui.stake_range", lang, min=obs["min_stake"], max=obs["max_stake"]),
                style="dim",
            )
        )
    seen: list[str] = list(obs.get("seen") or [])
    if seen:
        line = Text(t(_DOMAIN, "ui.seen", lang, count=len(seen)) + "  ", style="dim")
        line.append_text(cards_text(seen[-12:]))
        parts.append(line)
    return Panel(Group(*parts), title="In-Between", title_align="left", expand=False)


def event_text(event: Mapping[str, Any] | None, names: Sequence[str], lang: str) -> Text | None:
    """One line narrating an observation's ``last_event`` (``None`` when there is none)."""
    if not event:
        return None
    kind = str(event.get("kind", ""))
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)
    values: dict[str, Any] = {k: v for k, v in event.items() if k != "kind"}
    values["who"] = who
    line = Text("• ", style="dim")
    key = f"event.{kind}"
    if kind == "settle":
        outcome = str(event.get("outcome", ""))
        delta = event.get("delta", 0)
        line.append(t(_DOMAIN, "event.settle", lang, who=who) + " ")
        third = event.get("third")
        if third:
            line.append_text(card_text(str(third)))
            line.append(" ")
        outcome_key = f"outcome.{outcome}"
        line.append(
            _maybe(outcome_key, lang, outcome) + " ",
            style="green" if _num(delta) > 0 else "red" if _num(delta) < 0 else "",
        )
        line.append(f"({_num(delta):+d})" if isinstance(delta, int) else f"({delta})")
        return line
    cards = [v for k, v in event.items() if k in ("card", "cards", "third")]
    flat: list[str] = []
    for c in cards:
        flat.extend(c if isinstance(c, list) else [c])
    try:
        line.append(t(_DOMAIN, key, lang, **_safe(values)))
    except KeyError:
        detail = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "seat"))
        line.append(f"{who + ': ' if seat is not None else ''}{kind} {detail}".strip())
        return line
    if flat:
        line.append(" ")
        line.append_text(cards_text([str(c) for c in flat]))
    return line


def final_view(
    returns: Sequence[str | Fraction],
    winners: Sequence[int],
    names: Sequence[str],
    chips: Sequence[int],
    lang: str,
) -> Panel:
    """The final standings: each seat's chips, exact net result, and who wins."""
    grid = Table(box=None, show_header=True, header_style="dim", pad_edge=False)
    grid.add_column(t(_DOMAIN, "ui.player", lang))
    grid.add_column(t(_DOMAIN, "ui.chips", lang), justify="right")
    grid.add_column(t(_DOMAIN, "ui.result", lang), justify="right")
    grid.add_column("")
    for i, ret in enumerate(returns):
        value = Fraction(ret)
        shown = f"{value:+}" if value.denominator == 1 else f"{value} ({float(value):+.2f})"
        if value.denominator == 1:
            shown = f"{int(value):+d}"
        star = "★ " + t(_DOMAIN, "ui.winner", lang) if i in winners else ""
        grid.add_row(
            names[i] if i < len(names) else f"seat {i}",
            str(chips[i]) if i < len(chips) else "",
            Text(shown, style="green" if value > 0 else "red" if value < 0 else ""),
            Text(star, style="bold yellow"),
        )
    return Panel(grid, title=t(_DOMAIN, "ui.final", lang), title_align="left", expand=False)


def _maybe(key: str, lang: str, fallback: str) -> str:
    try:
        return t(_DOMAIN, key, lang)
    except KeyError:
        return fallback


def _num(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _safe(values: dict[str, Any]) -> dict[str, Any]:
    """Values for a message template: card strings shown with suit symbols."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        if isinstance(v, str) and len(v) == 2:
            try:
                out[k] = Card.from_text(v).symbol()
                continue
            except AceyDeuceyError:
                pass
        out[k] = v
    return out
