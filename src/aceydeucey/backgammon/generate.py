"""The play generator the game uses: one entry point, on the fast core when it can.

:func:`legal_plays` has the signature and the results of
:func:`aceydeucey.backgammon.moves.legal_plays` (the readable reference): the
same distinct resulting positions, each once, ``[pass]`` when nothing can be
played.  It runs the Numba kernel of :mod:`aceydeucey.backgammon.fast` for
every rule set except ``must_use_max_dice=False`` (free choice of how many
dice to play), which goes to the reference.

The kernel's work space is per thread, so threads may generate plays at once.
The plays it returns are lazy: a play keeps a row of the kernel's output and
builds its ``result`` :class:`Position` and its ``moves`` only when asked, so
listing a roll's 20 plays costs little more than the kernel.  They behave as
ordinary :class:`Play` values (equal when their results are, same hash), and
the returned list answers ``play in plays`` for its own plays at once.
``tests/backgammon/test_fast.py`` holds the two generators to agreement.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from aceydeucey.backgammon import fast, moves
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.notation import Move, Play, format_moves, point_text
from aceydeucey.backgammon.rules import BackgammonRules

__all__ = ["fast_params", "is_fast", "legal_plays", "to_board"]


def legal_plays(
    position: Position,
    dice: Sequence[int],
    rules: BackgammonRules,
    *,
    may_enter: bool = True,
    may_reenter: bool = True,
) -> list[Play]:
    """Every legal play of ``dice`` from ``position`` (see ``moves.legal_plays``)."""
    if not rules.must_use_max_dice:
        return moves.legal_plays(
            position, dice, rules, may_enter=may_enter, may_reenter=may_reenter
        )
    hand = _HANDS.get(tuple(dice)) if not isinstance(dice, tuple) else _HANDS.get(dice)
    if hand is None:
        hand = _hand(dice)
    ordered, dice_array = hand
    if not ordered or not may_enter or (position.bar[0] and not may_reenter):
        return [Play((), position, ordered)]
    try:
        generator, board_bytes, board = _LOCAL.tools
    except AttributeError:
        generator, board_bytes, board = _LOCAL.tools = _tools()
    _PACK_INTO(
        board_bytes, 0, *position.points, *position.bar, *position.unentered, *position.off, 0, 0
    )
    data, n, used = generator.packed(board, dice_array, _params(rules))
    if used == 0:
        return [Play((), position, ordered)]
    return _Plays(_Batch(data, n, _unused(ordered, used)))


def is_fast(rules: BackgammonRules) -> bool:
    """Whether :func:`legal_plays` runs on the fast core for these rules."""
    return rules.must_use_max_dice


def to_board(position: Position) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The fast core's board (see :mod:`~aceydeucey.backgammon.fast`) of a position."""
    data = bytearray(fast.SLOTS)
    _PACK_INTO(data, 0, *position.points, *position.bar, *position.unentered, *position.off, 0, 0)
    return np.frombuffer(data, dtype=np.int8)


def fast_params(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The fast core's move-generation parameters for ``rules``."""
    hold = {
        "nothing": fast.HOLD_NONE,
        "passing_opp_12pt": fast.HOLD_PAST_MIDPOINT,
        "moving_any_entered": fast.HOLD_ALL,
    }[rules.must_enter_all_before]
    return fast.move_params(
        bearoff_exact=rules.bearoff_rule == "exact_only",
        hold_back=hold,
        frozen_home=rules.home_board_frozen,
        bearoff_needs_entered=rules.bearoff_requires_all_entered,
        higher_die=rules.must_play_higher_die,
        hit_needs_home=rules.hit_gate == "after_home_board",
    )


# -- lazy plays -------------------------------------------------------------------


class _Batch:
    """The kernel's output for one roll (``n`` packed rows), shared by its plays."""

    __slots__ = ("data", "n", "unused")

    def __init__(
        self, data: bytes, n: int, unused: tuple[tuple[int, ...], tuple[int, ...]]
    ) -> None:
        self.data = data
        self.n = n
        #: dice left unplayed: (if the higher die was used, otherwise)
        self.unused = unused


class _FastPlay(Play):
    """A :class:`Play` whose moves and result are built from the batch on first use."""

    def __init__(self, batch: _Batch, index: int) -> None:  # no dataclass fields set here
        slots = self.__dict__
        slots["_batch"] = batch
        slots["_index"] = index

    @property
    def result(self) -> Position:
        cached: Position | None = self.__dict__.get("_result")
        if cached is None:
            v = _BOARD_ROW(self._batch.data, self._index * fast.ROW)
            cached = Position(v[:24], v[24:26], v[26:28], v[28:30])
            self.__dict__["_result"] = cached
        return cached

    @property
    def moves(self) -> tuple[Move, ...]:
        cached: tuple[Move, ...] | None = self.__dict__.get("_moves")
        if cached is None:
            path = _PATH_ROW(self._batch.data, self._index * fast.ROW + fast.ROW_PATH)
            cached = tuple(
                _MOVES[path[k]][path[k + 1]][path[k + 2]] for k in range(0, 12, 3) if path[k]
            )
            self.__dict__["_moves"] = cached
        return cached

    def __str__(self) -> str:
        start = self._index * fast.ROW + fast.ROW_PATH
        path = _PATH_ROW(self._batch.data, start)
        if not path[6]:  # one or two moves: written directly
            return _short_text(path)
        key = self._batch.data[start : start + 12]
        text = _TEXTS.get(key)
        if text is None:
            text = format_moves(self.moves)
            if len(_TEXTS) >= 100_000:
                _TEXTS.clear()
            _TEXTS[key] = text
        return text

    @property
    def unused(self) -> tuple[int, ...]:
        batch = self._batch
        high = batch.data[self._index * fast.ROW + fast.ROW_HIGH]
        return batch.unused[0] if high else batch.unused[1]

    def __eq__(self, other: object) -> bool:
        if type(other) is _FastPlay and other._batch is self._batch:
            return other._index == self._index
        return isinstance(other, Play) and other.result == self.result

    def __hash__(self) -> int:
        return hash(self.result)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.moves, self.result, self.unused))

    def __repr__(self) -> str:
        return f"Play(moves={self.moves!r}, result={self.result!r}, unused={self.unused!r})"

    _batch: _Batch
    _index: int


class _Plays(list[Play]):
    """The plays of one batch; ``play in plays`` is immediate for the batch's own plays."""

    def __init__(self, batch: _Batch) -> None:
        n = batch.n
        super().__init__(map(_FastPlay, [batch] * n, range(n)))
        self._batch = batch

    def __contains__(self, item: object) -> bool:
        if type(item) is _FastPlay and item._batch is self._batch:
            return True
        return list.__contains__(self, item)


# -- caches and helpers -------------------------------------------------------------

#: per thread: a generator (its work space) and the board buffer handed to the kernel
_LOCAL = threading.local()
_PACK_INTO = struct.Struct(f"{fast.SLOTS}b").pack_into
_BOARD_ROW = struct.Struct("30b").unpack_from
_PATH_ROW = struct.Struct("12b").unpack_from
_PARAMS: dict[int, tuple[BackgammonRules, np.ndarray[Any, np.dtype[np.int64]]]] = {}
_HANDS: dict[tuple[int, ...], tuple[tuple[int, ...], np.ndarray[Any, np.dtype[np.int64]]]] = {}
#: every Move value, shared (they are immutable): _MOVES[src][dst][hit]
_MOVES = [[[Move(src, dst, False), Move(src, dst, True)] for dst in range(25)] for src in range(27)]
#: the written name of each move location (``in``, ``bar``, ``off``, or the point)
_NAMES = [point_text(i) for i in range(27)]
#: canonical text of a kernel move sequence (its bytes), memoised
_TEXTS: dict[bytes, str] = {}


def _short_text(path: tuple[int, ...]) -> str:
    """``notation.format_moves`` of at most two moves given as (src, dst, hit) triples."""
    a = (path[0], path[1], path[2])
    b = (path[3], path[4], path[5])
    if not b[0]:
        return f"{_NAMES[a[0]]}/{_NAMES[a[1]]}{'*' if a[2] else ''}"
    if b[:2] > a[:2]:
        a, b = b, a
    if a[1] == b[0]:  # one checker moved twice: a chain, naming the middle only if it hits
        middle = f"{_NAMES[a[1]]}*/" if a[2] else ""
        return f"{_NAMES[a[0]]}/{middle}{_NAMES[b[1]]}{'*' if b[2] else ''}"
    first = f"{_NAMES[a[0]]}/{_NAMES[a[1]]}{'*' if a[2] else ''}"
    second = f"{_NAMES[b[0]]}/{_NAMES[b[1]]}{'*' if b[2] else ''}"
    return f"{first}(2)" if first == second else f"{first} {second}"


def _tools() -> tuple[fast.Generator, bytearray, np.ndarray[Any, np.dtype[np.int8]]]:
    data = bytearray(fast.SLOTS)
    return fast.Generator(), data, np.frombuffer(data, dtype=np.int8)


def _params(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    entry = _PARAMS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_PARAMS) >= 256:
            _PARAMS.clear()
        entry = (rules, fast_params(rules))
        _PARAMS[id(rules)] = entry
    return entry[1]


def _hand(dice: Sequence[int]) -> tuple[tuple[int, ...], np.ndarray[Any, np.dtype[np.int64]]]:
    key = tuple(dice)
    for die in key:
        if not isinstance(die, int | np.integer) or isinstance(die, bool) or not 1 <= die <= 6:
            raise ValueError(f"dice are numbers 1 to 6, not {die!r}")
    ordered = tuple(sorted((int(die) for die in key), reverse=True))
    if len(set(ordered)) > 2 or (len(set(ordered)) == 2 and len(ordered) != 2):
        raise ValueError(f"{key!r} is not a hand of dice: two different dice or one repeated")
    hand = (ordered, np.array(ordered, dtype=np.int64))
    if len(_HANDS) < 4096:
        _HANDS[key] = hand
    return hand


def _unused(dice: tuple[int, ...], used: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Dice left unplayed by a play using ``used`` dice: (if it used the higher, otherwise)."""
    if used >= len(dice):
        return (), ()
    if len(dice) == 2 and dice[0] != dice[1]:
        return (dice[1],), (dice[0],)
    rest = dice[used:]
    return rest, rest
