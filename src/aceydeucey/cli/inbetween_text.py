"""The In-Between terminal's words for cards and numbers (Rich ``Text``), shared by its views.

Cards are written with their suit symbols (``4♣``, ``Q♦``), red suits in red; a card the
seat may not see is ``▒▒``.  Numbers follow the language's style (``0,120`` in Portuguese);
exact values are fractions with their decimal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rich.text import Text

from aceydeucey.cards import Card, rank_name
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

__all__ = [
    "card_text",
    "cards_text",
    "chips_text",
    "compact_actions",
    "fraction_text",
    "mixed",
    "number_text",
    "pot_split_text",
    "seen_text",
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


def _name(seat: Any, names: Sequence[str]) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return names[seat]
    return "" if seat is None else str(seat)


def _exact(value: Fraction, *, signed: bool, lang: str = "en") -> str:
    """``+3``, ``0``, ``-1½``: exact, whole chips where they are whole, a fraction of a
    chip as a mixed number (never ``-3/2``)."""
    return mixed(value, signed=signed)


#: The fractions with a character of their own (``½``); others are written ``2/7``.
_VULGAR = {
    (1, 2): "½", (1, 3): "⅓", (2, 3): "⅔", (1, 4): "¼", (3, 4): "¾", (1, 5): "⅕",
    (2, 5): "⅖", (3, 5): "⅗", (4, 5): "⅘", (1, 6): "⅙", (5, 6): "⅚", (1, 7): "⅐",
    (1, 8): "⅛", (3, 8): "⅜", (5, 8): "⅝", (7, 8): "⅞", (1, 9): "⅑", (1, 10): "⅒",
}  # fmt: skip


def mixed(value: Fraction | int | str, *, signed: bool = False) -> str:
    """An exact number of chips as a mixed number: ``3``, ``1½``, ``-½``, ``2 3/7``.

    >>> mixed(Fraction(3, 2)), mixed(Fraction(-1, 2), signed=True), mixed(Fraction(17, 7))
    ('1½', '-½', '2 3/7')
    """
    value = Fraction(value)
    sign = "-" if value < 0 else "+" if signed and value > 0 else ""
    whole, rest = divmod(abs(value.numerator), value.denominator)
    if not rest:
        return f"{sign}{whole}"
    glyph = _VULGAR.get((rest, value.denominator))
    part = glyph or f"{rest}/{value.denominator}"
    if not whole:
        return f"{sign}{part}"
    return f"{sign}{whole}{part}" if glyph else f"{sign}{whole} {part}"


def chips_text(value: Fraction | int | str, lang: str) -> str:
    """``1 chip``, ``3 chips``, ``1½ chips``, ``½ chip`` in ``lang``."""
    value = Fraction(value)
    word = "ui.chip_word" if abs(value) <= 1 else "ui.chips_word"
    return f"{mixed(value)} {t(_DOMAIN, word, lang)}"


def pot_split_text(shares: Sequence[Fraction | str], names: Sequence[str], lang: str) -> str:
    """Who takes the chips left in the pot at the end, and how much each: ``The session
    ended with 3 chips in the pot, split equally between Ana and Bia: 1½ chips each.``
    (empty when no chip was left)."""
    values = [Fraction(v) for v in shares]
    takers = [i for i, v in enumerate(values) if v]
    if not takers:
        return ""
    pot = chips_text(sum(values, Fraction(0)), lang)
    who = [_name(i, names) for i in takers]
    if len(who) == 1:
        return t(_DOMAIN, "ui.pot_to_one", lang, pot=pot, name=who[0])
    listed = t(_DOMAIN, "ui.names_and", lang, names=", ".join(who[:-1]), last=who[-1])
    share = chips_text(values[takers[0]], lang)
    return t(_DOMAIN, "ui.pot_split", lang, pot=pot, names=listed, share=share)


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
