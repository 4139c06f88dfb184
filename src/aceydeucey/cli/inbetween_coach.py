"""The In-Between coach in the terminal: the odds of the decision at hand and the tables.

Built from ``odds`` results only (``decision_odds``/``posts_odds``): every stake's outcomes
and EV per chip, each legal action's exact value, a stake's limits, its best stake by EV
and Kelly's fraction and stake (``decision_view``, ``advice_text``); ``odds --table``
(``spread_table_view``) and ``--house-edge`` (``house_edge_view``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from aceydeucey.cards import rank_name
from aceydeucey.cli.inbetween_text import _DOMAIN, _signed, fraction_text, number_text
from aceydeucey.inbetween.advice import BetOdds, DecisionOdds, stake_action
from aceydeucey.inbetween.kelly import kelly_fraction
from aceydeucey.inbetween.spreads import HouseEdge, SpreadRow
from aceydeucey.locale import t

__all__ = [
    "advice_text",
    "bet_label",
    "bet_text",
    "decision_view",
    "house_edge_view",
    "kelly_text",
    "odds_text",
    "spread_table_view",
]


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
