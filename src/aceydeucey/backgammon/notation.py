"""Move and play notation, both ways.

A :class:`Move` is one checker moved by one die: ``Move(src, dst, hit)``, with
points numbered 1..24 from the mover's side, ``src`` :data:`~.board.BAR` (25,
written ``bar``) or :data:`~.board.STOCK` (26, written ``in``: entering a
checker that has never been on the board, Acey-Deucey and Dutch), and ``dst``
:data:`~.board.OFF` (0, written ``off``).

A :class:`Play` is the whole use of the dice in hand: its moves and the
resulting position (still from the mover's side).  Two plays that reach the
same position are the same play: equality and hashing use the result only.

Canonical text (``str(play)``), in the style of GNU Backgammon:

* moves of one checker are chained and written ``start/end``, naming an
  intermediate point only where it hits: ``24/13``, ``24/18*/13``;
* each hit is marked ``*``: ``13/7*``;
* identical moves are counted: ``8/5(2) 6/5(2)``;
* moves are listed from the highest starting point down (``in``, then ``bar``,
  then 24..1);
* no move at all is ``pass``.

Other actions (chance's and the 1-2 bonus):

* ``3-1``: a roll of two dice, larger first (:class:`Roll`); ``6-6`` for doubles;
* ``opening 5-3``: the one-die roll-off that starts a game, seat 0's die first
  and seat 1's second (:class:`Opening`; never equal: ties are rolled again);
* ``double 6``: the double named (or rolled on one die) after a 1-2
  (:class:`DoubleChoice`);
* the doubling cube (:class:`CubeAction`): ``double`` or ``roll`` before a turn's
  roll, ``take``, ``drop`` or ``beaver`` when doubled.

Input (:func:`parse_moves`) is freer: any order, ``*`` optional, chained steps
``24/18/13``, repeats ``(2)``, ``bar``/``b``, ``in``, ``off``/``o``, any case.
It yields the literal steps written; matching them to a legal play (by
resulting position) is the move generator's business
(:func:`aceydeucey.backgammon.moves.match_play`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from aceydeucey.backgammon.board import BAR, OFF, STOCK, Position
from aceydeucey.backgammon.turn import CUBE_CHOICES
from aceydeucey.core.errors import ActionSyntaxError

__all__ = [
    "PASS_TEXT",
    "CubeAction",
    "DoubleChoice",
    "Move",
    "Opening",
    "Play",
    "Roll",
    "Steps",
    "format_moves",
    "parse_action_text",
    "parse_moves",
    "play_steps",
    "point_text",
]

#: The text of the empty play.
PASS_TEXT = "pass"


def point_text(index: int) -> str:
    """``in`` for STOCK, ``bar`` for BAR, ``off`` for OFF, else the point number."""
    return {STOCK: "in", BAR: "bar", OFF: "off"}.get(index, str(index))


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die (or, as parsed, one written step)."""

    src: int
    dst: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_text(self.src)}/{point_text(self.dst)}{'*' if self.hit else ''}"


@dataclass(frozen=True, eq=False)
class Play:
    """A whole play of the dice: moves and resulting position; equal when the results are."""

    moves: tuple[Move, ...]
    result: Position
    #: dice of the hand left unplayed (not part of equality); the game reads it to tell a
    #: fully played roll, so every generator must fill it
    unused: tuple[int, ...] = field(default=())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.result == self.result

    def __hash__(self) -> int:
        return hash(self.result)

    def __str__(self) -> str:
        return format_moves(self.moves)

    @property
    def is_pass(self) -> bool:
        return not self.moves


def format_moves(moves: tuple[Move, ...] | list[Move]) -> str:
    """Canonical text of a list of one-die moves (see the module docstring)."""
    if not moves:
        return PASS_TEXT
    ordered = sorted(moves, key=lambda m: (m.src, m.dst), reverse=True)
    chains: list[list[Move]] = []
    for move in ordered:
        for chain in chains:
            if chain[-1].dst == move.src and move.src != OFF:
                chain.append(move)
                break
        else:
            chains.append([move])
    texts: list[tuple[int, int, str]] = []
    for chain in chains:
        parts = [point_text(chain[0].src)]
        for step in chain[:-1]:
            if step.hit:
                parts.append(f"{point_text(step.dst)}*")
        last = chain[-1]
        parts.append(f"{point_text(last.dst)}{'*' if last.hit else ''}")
        texts.append((chain[0].src, last.dst, "/".join(parts)))
    texts.sort(key=lambda t: (t[0], t[1]), reverse=True)
    out: list[str] = []
    i = 0
    while i < len(texts):
        j = i
        while j + 1 < len(texts) and texts[j + 1][2] == texts[i][2]:
            j += 1
        count = j - i + 1
        out.append(texts[i][2] + (f"({count})" if count > 1 else ""))
        i = j + 1
    return " ".join(out)


_TOKEN = re.compile(r"^(?P<chain>[^()]+?)(?:\((?P<count>\d)\))?$")
_NAMES = {"bar": BAR, "b": BAR, "in": STOCK, "off": OFF, "o": OFF}


def _parse_point(text: str, *, first: bool, token: str) -> int:
    word = text.lower()
    if word in _NAMES:
        value = _NAMES[word]
        if first and value == OFF:
            raise ActionSyntaxError("bg.syntax.off_start", token=token)
        if not first and value in (BAR, STOCK):
            raise ActionSyntaxError("bg.syntax.bad_end", token=token, word=word)
        return value
    if not word.isdigit():
        raise ActionSyntaxError("bg.syntax.not_point", token=token, text=text)
    value = int(word)
    if not 1 <= value <= 24:
        raise ActionSyntaxError("bg.syntax.off_board", token=token, point=value)
    return value


def parse_moves(text: str) -> tuple[Move, ...]:
    """The steps written in ``text`` (``pass`` gives none); ActionSyntaxError if malformed.

    ``Move.hit`` is True where the text marks a hit with ``*``.
    """
    words = text.replace(",", " ").split()
    if not words:
        raise ActionSyntaxError("bg.syntax.empty")
    if len(words) == 1 and words[0].lower() == PASS_TEXT:
        return ()
    moves: list[Move] = []
    for token in words:
        match = _TOKEN.match(token)
        if match is None:
            raise ActionSyntaxError("bg.syntax.not_move", token=token)
        parts = match.group("chain").split("/")
        if len(parts) < 2 or any(not p for p in parts):
            raise ActionSyntaxError("bg.syntax.from_to", token=token)
        count = int(match.group("count") or 1)
        if count < 1 or count > 4:
            raise ActionSyntaxError("bg.syntax.repeat", token=token)
        steps: list[Move] = []
        prev: int | None = None
        for k, raw in enumerate(parts):
            hit = raw.endswith("*")
            name = raw.rstrip("*")
            if k == 0 and hit:
                raise ActionSyntaxError("bg.syntax.hit_first", token=token)
            point = _parse_point(name, first=k == 0, token=token)
            if prev is not None:
                if prev == OFF:
                    raise ActionSyntaxError("bg.syntax.after_off", token=token)
                if point != OFF and point >= min(prev, 25):
                    raise ActionSyntaxError(
                        "bg.syntax.backwards",
                        token=token,
                        start=point_text(prev),
                        end=point_text(point),
                    )
                steps.append(Move(prev, point, hit))
            prev = point
        moves.extend(steps * count)
    return tuple(moves)


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll of two dice (chance's action), written larger die first: ``3-1``."""

    high: int
    low: int

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice to play: four of a kind for doubles."""
        return (self.high,) * 4 if self.high == self.low else (self.high, self.low)


@dataclass(frozen=True, slots=True)
class Opening:
    """The roll-off: one die each, seat 0's first (``opening 5-3``); never a tie."""

    die0: int
    die1: int

    def __str__(self) -> str:
        return f"opening {self.die0}-{self.die1}"

    @property
    def first(self) -> int:
        """The seat that moves first (the higher die)."""
        return 0 if self.die0 > self.die1 else 1


@dataclass(frozen=True, slots=True)
class DoubleChoice:
    """The double played after a 1-2: ``double 6`` (named by the player or rolled)."""

    value: int

    def __str__(self) -> str:
        return f"double {self.value}"


@dataclass(frozen=True, slots=True)
class CubeAction:
    """A decision about the doubling cube, by its word: ``double`` or ``roll`` before a
    turn's roll, ``take``, ``drop`` or ``beaver`` when doubled (see :mod:`.turn`)."""

    word: str

    def __post_init__(self) -> None:
        if self.word not in CUBE_CHOICES:
            raise ActionSyntaxError("bg.syntax.cube_word", text=self.word)

    def __str__(self) -> str:
        return self.word

    @property
    def code(self) -> int:
        """The turn step's code of the choice (``CUBE_*``)."""
        return CUBE_CHOICES.index(self.word)


@dataclass(frozen=True, slots=True)
class Steps:
    """Moves as written by a player, before they are matched to a legal :class:`Play`."""

    moves: tuple[Move, ...]

    def __str__(self) -> str:
        return format_moves(self.moves)


_ROLL = re.compile(r"^([1-6])\s*-\s*([1-6])$")
_OPENING = re.compile(r"^opening\s+([1-6])\s*-\s*([1-6])$")
_DOUBLE = re.compile(r"^double\s+(\S+)$")


def parse_action_text(text: str) -> Roll | Opening | DoubleChoice | CubeAction | Steps:
    """Any backgammon action from its text (syntax only); ActionSyntaxError if malformed."""
    if not isinstance(text, str):
        raise ActionSyntaxError("bg.syntax.not_text", type=type(text).__name__)
    word = " ".join(text.strip().lower().split())
    if word in CUBE_CHOICES:
        return CubeAction(word)
    if match := _ROLL.match(word):
        a, b = int(match.group(1)), int(match.group(2))
        return Roll(max(a, b), min(a, b))
    if match := _OPENING.match(word):
        a, b = int(match.group(1)), int(match.group(2))
        if a == b:
            raise ActionSyntaxError("bg.syntax.opening_tie", text=text)
        return Opening(a, b)
    if match := _DOUBLE.match(word):
        value = match.group(1)
        if value not in ("1", "2", "3", "4", "5", "6"):
            raise ActionSyntaxError("bg.syntax.double_value", text=text)
        return DoubleChoice(int(value))
    if word.startswith("opening"):
        raise ActionSyntaxError("bg.syntax.opening_form", text=text)
    if re.match(r"^\d+\s*-\s*\d+$", word):
        raise ActionSyntaxError("bg.syntax.dice", text=text)
    return Steps(parse_moves(text))


def play_steps(play: Play, dice: tuple[int, ...]) -> list[dict[str, Any]]:
    """``play``'s moves, one die each, as JSON-ready steps with the die each one uses.

    A move onto a point uses the distance it travels (entering: ``25 - dst``); bearing
    off uses the exact die where the play used one, else the smallest higher die
    it used (a die larger than the point, under ``bearoff_rule="standard_higher"``).
    """
    left = list(dice)
    for die in play.unused:
        left.remove(die)
    dies = [
        0 if m.dst == OFF else (25 if m.src in (BAR, STOCK) else m.src) - m.dst for m in play.moves
    ]
    for die in dies:
        if die:
            left.remove(die)
    for k, move in enumerate(play.moves):
        if not dies[k]:  # bearing off
            higher = [d for d in left if d > move.src]
            dies[k] = move.src if move.src in left else min(higher or left)
            left.remove(dies[k])
    return [
        {
            "from": move.src if move.src <= 24 else point_text(move.src),
            "to": move.dst if move.dst != OFF else point_text(OFF),
            "die": die,
            "hit": move.hit,
        }
        for move, die in zip(play.moves, dies, strict=True)
    ]
