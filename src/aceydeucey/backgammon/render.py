"""A plain-text board of a backgammon state (``str(state)``): the mover's side, X is seat 0.

The terminal's own renderer (Rich) lives in :mod:`aceydeucey.cli`; this one is the
state's ``__str__``, for logs, doctests and debugging.
"""

from __future__ import annotations

from typing import Any, Protocol

from aceydeucey.backgammon.board import Position

__all__ = ["render_ascii"]


class Drawn(Protocol):
    """What the board is drawn from: a backgammon state (the game module is not imported
    here, so that this module and the state's do not import each other)."""

    @property
    def game(self) -> Any: ...
    @property
    def phase(self) -> str: ...
    @property
    def mover(self) -> int: ...
    @property
    def position(self) -> Position: ...
    @property
    def dice(self) -> tuple[int, ...]: ...
    @property
    def kind(self) -> str: ...
    @property
    def winner(self) -> int: ...
    def points_won(self) -> int: ...


def render_ascii(state: Drawn) -> str:
    """A plain-text board from the mover's side: X is seat 0, O is seat 1."""
    pos = state.position
    marks = ("X", "O") if state.mover == 0 else ("O", "X")

    def cell(point: int) -> str:
        n = pos.points[point - 1]
        if n == 0:
            return "  ."
        return f"{marks[0] if n > 0 else marks[1]}{abs(n):>2}"

    top = " ".join(f"{p:>3}" for p in range(13, 25))
    bottom = " ".join(f"{p:>3}" for p in range(12, 0, -1))
    rules = state.game.rules
    lines = [
        f"backgammon ({rules.variant})  seat {state.mover} ({marks[0]}) moves from 24 to 1",
        " " + top,
        " " + " ".join(cell(p) for p in range(13, 25)),
        " " + " ".join(cell(p) for p in range(12, 0, -1)),
        " " + bottom,
    ]
    pips = pos.pip_counts()
    lines.append(
        f"bar {marks[0]}{pos.bar[0]} {marks[1]}{pos.bar[1]}   "
        f"unentered {marks[0]}{pos.unentered[0]} {marks[1]}{pos.unentered[1]}   "
        f"off {marks[0]}{pos.off[0]} {marks[1]}{pos.off[1]}   "
        f"pips {marks[0]}{pips[0]} {marks[1]}{pips[1]}"
    )
    if state.phase == "play":
        lines.append(f"to play: {'-'.join(map(str, state.dice))} ({state.kind})")
    elif state.phase == "double":
        lines.append("to choose: the double after the 1-2")
    elif state.phase == "over":
        lines.append(f"game over: seat {state.winner} wins {state.points_won()}")
    else:
        lines.append(f"next: {state.phase}")
    return "\n".join(lines)
