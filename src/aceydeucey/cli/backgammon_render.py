"""The terminal's backgammon board (Rich), drawn from an observation alone.

The board is seen from the viewer's side (the observation's seat): points
13-24 run left to right along the top, 12-1 along the bottom, the viewer's
home board (1-6) is the bottom-right quarter and the bar is the middle
column.  Seat 0's checkers are drawn ``●`` and seat 1's ``○`` whichever
side is viewing, so the two players keep their colour when a hot-seat game
turns the board round.  A point holding more than five checkers shows the
count in its fifth cell.  The panel under the board gives, for each side,
the pip count, checkers on the bar, checkers still to enter (Acey-Deucey)
and checkers borne off, then the dice and whose turn it is.

The board is 45 columns wide and the panel lines stay under 80 columns.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from aceydeucey.locale import t

__all__ = ["CHECKER", "board_text", "render", "render_plain", "status_lines"]

#: The glyph of each seat's checkers.
CHECKER = ("●", "○")
#: The style of each seat's checkers.
STYLE = ("bold red", "bold cyan")

_DOMAIN = "backgammon"
_STACK = 5  # cells per point in each half of the board
_CELL = 3  # columns per point


def render(
    observation: dict[str, Any],
    *,
    lang: str = "en",
    names: Sequence[str] = ("Player 1", "Player 2"),
) -> RenderableType:
    """The board and its status panel, from ``observation``'s seat."""
    return Group(board_text(observation, lang=lang), *status_lines(observation, lang, names))


def render_plain(
    observation: dict[str, Any],
    *,
    lang: str = "en",
    names: Sequence[str] = ("Player 1", "Player 2"),
    width: int = 80,
) -> str:
    """The same rendering as plain text (no colour), ``width`` columns wide."""
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(render(observation, lang=lang, names=names))
    return console.export_text()


def board_text(observation: dict[str, Any], *, lang: str = "en") -> Text:
    """The two-row board with point numbers, checkers and the bar."""
    seat = int(observation.get("seat") or 0)
    points: list[int] = list(observation["points"])
    if len(points) != 24:
        raise ValueError(f"an observation's 'points' must hold 24 counts, not {len(points)}")
    bar = _pair(observation.get("bar"))
    own, opp = seat, 1 - seat

    top = list(range(13, 25))  # left to right
    bottom = list(range(12, 0, -1))
    bar_label = t(_DOMAIN, "board_bar", lang)[:_CELL].upper().center(5)

    text = Text()
    text.append(" " + _numbers(top[:6]) + " " + bar_label + " " + _numbers(top[6:]) + "\n", "dim")
    text.append("┌" + "─" * 18 + "┬─────┬" + "─" * 18 + "┐\n")
    for row in range(_STACK):
        # The opponent's bar checkers sit at the top of the bar, the viewer's at the bottom.
        text.append_text(_row(points, top, row, own, bar[1], opp))
    text.append("│" + " " * 18 + "│     │" + " " * 18 + "│\n")
    for row in reversed(range(_STACK)):
        text.append_text(_row(points, bottom, row, own, bar[0], own))
    text.append("└" + "─" * 18 + "┴─────┴" + "─" * 18 + "┘\n")
    text.append(" " + _numbers(bottom[:6]) + "       " + _numbers(bottom[6:]), "dim")
    return text


def status_lines(
    observation: dict[str, Any], lang: str = "en", names: Sequence[str] = ("Player 1", "Player 2")
) -> list[Text]:
    """The panel under the board: each side's counts, the dice, whose turn it is."""
    seat = int(observation.get("seat") or 0)
    pip = _pair(observation.get("pip"))
    bar = _pair(observation.get("bar"))
    unentered = _pair(observation.get("unentered"))
    off = _pair(observation.get("off"))
    lines: list[Text] = []
    for index, who in enumerate((seat, 1 - seat)):
        line = Text(" ")
        line.append(CHECKER[who], STYLE[who])
        line.append(f" {_name(names, who):<16.16} ")
        line.append(
            t(
                _DOMAIN,
                "board_counts",
                lang,
                pip=pip[index],
                bar=bar[index],
                enter=unentered[index],
                off=off[index],
            )
        )
        lines.append(line)
    lines.extend(Text(" " + text) for text in cube_lines(observation, lang, names))
    lines.append(Text(" " + turn_line(observation, lang, names)))
    return lines


def cube_lines(
    observation: dict[str, Any], lang: str = "en", names: Sequence[str] = ("Player 1", "Player 2")
) -> list[str]:
    """The cube and the match score, where the game has them (else nothing)."""
    out: list[str] = []
    if "cube" in observation:
        owner = observation.get("cube_owner")
        whose = (
            t(_DOMAIN, "board_cube_centred", lang)
            if owner is None
            else t(_DOMAIN, "board_cube_owner", lang, name=_name(names, int(owner)))
        )
        out.append(t(_DOMAIN, "board_cube", lang, cube=observation["cube"], owner=whose))
    length = observation.get("match_length")
    if length:
        a, b = (int(n) for n in observation.get("match_score") or (0, 0))
        out.append(
            t(
                _DOMAIN,
                "board_match",
                lang,
                length=length,
                a=_name(names, 0),
                x=a,
                b=_name(names, 1),
                y=b,
            )
        )
        if observation.get("crawford"):
            out.append(t(_DOMAIN, "board_crawford", lang))
    return out


def turn_line(
    observation: dict[str, Any], lang: str = "en", names: Sequence[str] = ("Player 1", "Player 2")
) -> str:
    """One line: who is to act, with the dice, a pending named double or the result."""
    seat = int(observation.get("seat") or 0)
    if observation.get("phase") == "over":
        return t(_DOMAIN, "board_over", lang)  # the result line, said once, follows
    to_act = observation.get("current_player")
    dice = dice_text(observation.get("dice"))
    if not isinstance(to_act, int) or to_act < 0:
        mover = observation.get("mover")
        if observation.get("phase") == "roll" and mover in (0, 1):
            return t(_DOMAIN, "board_to_roll", lang, name=_name(names, mover))
        if dice:
            return t(_DOMAIN, "board_dice", lang, dice=dice)
        return t(_DOMAIN, "board_rolling", lang)
    who = _name(names, to_act if to_act in (0, 1) else seat)
    if observation.get("phase") == "cube":
        return t(_DOMAIN, "board_may_double", lang, name=who)
    if observation.get("phase") == "take":
        offer = observation.get("cube_offer") or {}
        return t(_DOMAIN, "board_take", lang, name=who, cube=offer.get("value", ""))
    if observation.get("phase") == "double" or observation.get("pending_double") is True:
        return t(_DOMAIN, "board_name_double", lang, name=who, dice="1-2")
    if dice and observation.get("dice_kind") == "named":
        return t(_DOMAIN, "board_to_play_named", lang, name=who, dice=dice)
    if dice:
        return t(_DOMAIN, "board_to_play", lang, name=who, dice=dice)
    return t(_DOMAIN, "board_to_act", lang, name=who)


def dice_text(dice: Any) -> str:
    """The dice as ``3-1`` whatever the observation's shape (text, list, ``None``)."""
    if dice is None or dice == "" or dice == []:
        return ""
    if isinstance(dice, str):
        return dice
    if isinstance(dice, list | tuple):
        values = [int(d) for d in dice]
        if len(values) == 4 and len(set(values)) == 1:
            values = values[:2]
        return "-".join(str(d) for d in sorted(values, reverse=True))
    return str(dice)


# -- helpers --------------------------------------------------------------------------------


def _numbers(points: Sequence[int]) -> str:
    return "".join(f"{p:>2} " for p in points)


def _pair(value: Any) -> tuple[int, int]:
    if value is None:
        return (0, 0)
    if isinstance(value, int):
        return (value, 0)
    first, second = value
    return (int(first), int(second))


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


def _row(
    points: Sequence[int],
    numbers: Sequence[int],
    row: int,
    own: int,
    bar_count: int,
    bar_seat: int,
) -> Text:
    """One row of cells (``row`` counted from the board's edge inwards)."""
    text = Text("│")
    for index, number in enumerate(numbers):
        if index == 6:
            text.append("│")
            text.append_text(_bar_cell(row, bar_count, bar_seat))
            text.append("│")
        text.append_text(_cell(points[number - 1], row, own))
    text.append("│\n")
    return text


def _cell(count: int, row: int, own: int) -> Text:
    seat = own if count > 0 else 1 - own
    n = abs(count)
    if n == 0 or (row >= n and not (row == _STACK - 1 and n > _STACK)):
        return Text(" " * _CELL)
    if row == _STACK - 1 and n > _STACK:
        return Text(f"{n:^{_CELL}}", STYLE[seat])
    return Text(f" {CHECKER[seat]} ", STYLE[seat])


def _bar_cell(row: int, count: int, seat: int) -> Text:
    if count == 0 or row != 0:
        return Text(" " * 5)
    return Text(f"{CHECKER[seat]}{count:>2}".center(5), STYLE[seat])
