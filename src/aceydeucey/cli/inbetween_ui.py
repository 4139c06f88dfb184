"""Rich renderables for In-Between (the terminal), built from observations and odds only.

The views live by concept: cards and numbers in ``inbetween_text``, the event log in
``inbetween_events``, the coach (odds and advice) in ``inbetween_coach``; this module holds
the table and the standings and gathers every view under one name.

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

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from aceydeucey.cli.inbetween_coach import (
    advice_text,
    bet_label,
    bet_text,
    decision_view,
    house_edge_view,
    kelly_text,
    odds_text,
    spread_table_view,
)
from aceydeucey.cli.inbetween_events import event_text
from aceydeucey.cli.inbetween_text import (
    _DOMAIN,
    _exact,
    card_text,
    cards_text,
    compact_actions,
    fraction_text,
    number_text,
    pot_split_text,
    seen_text,
)
from aceydeucey.locale import t

__all__ = [
    "advice_text",
    "bet_label",
    "bet_text",
    "card_text",
    "cards_text",
    "compact_actions",
    "decision_view",
    "event_text",
    "final_view",
    "fraction_text",
    "house_edge_view",
    "kelly_text",
    "number_text",
    "odds_text",
    "seen_text",
    "spread_table_view",
    "standings_view",
    "table_view",
]


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


def final_view(
    returns: Sequence[str | Fraction],
    winners: Sequence[int],
    names: Sequence[str],
    chips: Sequence[int],
    lang: str,
    *,
    starting_chips: int | None = None,
    unfinished: bool = False,
    pot_shares: Sequence[str | Fraction] | None = None,
) -> Panel:
    """The final standings: each seat's chips, exact net result, and who wins
    (``unfinished``: the standings so far of a stopped game, titled so).

    With ``starting_chips``, a column shows each seat's share of the pot left over
    (net result + starting chips - chips), when anyone has one; ``pot_shares`` (the
    observation's, once the session is over) adds the sentence that says who took the
    pot left over and why the results are not whole chips.
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
    split = pot_split_text(pot_shares, names, lang) if pot_shares else ""
    body: Table | Group = Group(grid, Text(""), Text(split)) if split else grid
    return Panel(body, title=title, title_align="left", expand=False)


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
