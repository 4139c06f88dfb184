"""The play generator the game uses: one entry point, on the fast core when it can.

:func:`legal_plays` has the signature and the results of
:func:`aceydeucey.backgammon.moves.legal_plays` (the readable reference): the
same distinct resulting positions, each once, ``[pass]`` when nothing can be
played.  It runs the Numba kernel of :mod:`aceydeucey.backgammon.kernel` for
every rule set except ``must_use_max_dice=False`` (free choice of how many
dice to play), which goes to the reference, as do hands of more than four dice
(the kernel plays up to four).

The kernel (and Numba, NumPy) is not imported with this module: the reference
engine and everything above it load without Numba.  On the first call, when
Numba's cache holds the kernel (:func:`aceydeucey.kernels.ready`), it is loaded
at once, in about a second, in the calling thread (a loading thread would
starve behind a busy caller).  After a fresh install it is not there yet: the
first call starts its compilation in a separate process
(:func:`aceydeucey.kernels.request`, which says so on the terminal), and until
that is done the reference generator answers (the same plays in the same
order, so the first move never waits); the calls look every quarter second
whether the build is finished and then load the kernel.  The build writes the
cache whatever this process does, so the next process starts on the kernel.
:func:`warm_up` loads (or compiles) the kernel now (benchmarks, simulators,
the build process itself), :func:`warm_up_in_background` starts the loading
early, and :func:`kernel_ready` says whether it is done.  Without Numba the
reference serves for good.

The kernel's work space is per thread, so threads may generate plays at once.
The plays it returns are lazy: a play keeps a row of the kernel's output and
builds its ``result`` :class:`Position` and its ``moves`` only when asked, so
listing a roll's 20 plays costs little more than the kernel (each play is made
by a C-level constructor, no Python code per play).  :func:`flipped_result`
and :func:`play_ends_game` read a play's row directly, for the game's
transition.  They behave as
ordinary :class:`Play` values (equal when their results are, same hash), and
the returned list answers ``play in plays`` for its own plays at once.
``tests/backgammon/test_fast.py`` holds the two generators to agreement.
"""

from __future__ import annotations

import struct
import threading
import time
from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, overload

from aceydeucey.backgammon import moves
from aceydeucey.backgammon.board import CHECKERS, Position, make_position
from aceydeucey.backgammon.notation import Move, Play, format_moves, point_text
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import ArgumentError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "fast_params",
    "flipped_board_of",
    "flipped_result",
    "is_fast",
    "kernel_ready",
    "legal_plays",
    "listed_play_facts",
    "packed_rows",
    "play_ends_game",
    "to_board",
    "warm_up",
    "warm_up_in_background",
]

#: Layout of a kernel row (``kernel.SLOTS``, ``kernel.ROW``...), fixed by the kernel and
#: checked against it when it loads: this module reads rows without importing it.
SLOTS = 32
ROW = 80
ROW_FLIPPED = 32
ROW_PATH = 64
ROW_HIGH = 76


def legal_plays(
    position: Position | None,
    dice: Sequence[int],
    rules: BackgammonRules,
    *,
    may_enter: bool = True,
    may_reenter: bool = True,
    board: bytes | None = None,
) -> Sequence[Play]:
    """Every legal play of ``dice`` from ``position`` (see ``moves.legal_plays``).

    ``board``, when given, is the same position as the kernel's 32 bytes (see
    :func:`result_board`): the state keeps it, so that it need not be packed again;
    ``position`` may then be ``None`` (it is built only when needed).
    """
    if board is None:
        board = board_of(_required(position))
    return board_plays(board, tuple(dice), rules, may_enter, may_reenter, position)


def board_plays(
    board: bytes,
    dice: tuple[int, ...],
    rules: BackgammonRules,
    may_enter: bool,
    may_reenter: bool,
    position: Position | None = None,
) -> Sequence[Play]:
    """:func:`legal_plays` from the kernel's board of a state (positional: the hot path).

    ``position``, when known, is the board's :class:`Position` (a pass keeps it).
    """
    if not _KERNEL:
        return _reference(position, board, dice, rules, may_enter, may_reenter)
    entry = _RULES.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _rules_entry(rules)
    hand = entry[2].get(dice)
    if hand is None:
        hand = _kernel_hand(entry, dice)
        if hand is None:  # free choice of dice, or more dice than the kernel takes
            return _reference(position, board, dice, rules, may_enter, may_reenter)
    ordered = hand[0]
    if not ordered or not may_enter or (board[_BAR_SLOT] and not may_reenter):
        return [_pass(position, board, ordered)]
    try:
        buf, head, rows = _LOCAL.space
    except AttributeError:
        buf, head, rows = _LOCAL.space = _packed_space()
    # the kernel's one argument: the board, then the dice and the parameters, in its header
    head[:SLOTS] = board
    head[SLOTS:_HEAD_END] = hand[1]
    n, used = _KERNEL[0](buf)
    if n < 0:
        raise RuntimeError("fast move generation overflowed its result table")
    if used == 0:
        return [_pass(position, board, ordered)]
    return _Plays(rows[: n * ROW].tobytes(), n, hand[2][used])


def _reference(
    position: Position | None,
    board: bytes,
    dice: Sequence[int],
    rules: BackgammonRules,
    may_enter: bool,
    may_reenter: bool,
) -> Sequence[Play]:
    """The reference generator: for free choice of dice, more than four dice, and until the
    kernel is loaded (looked after from here, every quarter second at most: see
    :func:`warm_up_in_background`)."""
    if not _KERNEL and rules.must_use_max_dice:
        now = _monotonic()
        if now >= _NEXT_LOOK[0]:
            _NEXT_LOOK[0] = now + _LOOK_EVERY
            warm_up_in_background()
    _check_hand(dice)
    if position is None:
        position = position_of_board(board)
    return moves.legal_plays(position, dice, rules, may_enter=may_enter, may_reenter=may_reenter)


def flipped_result(play: Play) -> Position:
    """``play.result.flip()``: the position after ``play`` from the other side."""
    if not isinstance(play, _FastPlay):
        return play.result.flip()
    data = play[0].data
    start = play[1] * ROW
    points = _POINTS(data[start : start + 24][::-1].translate(_NEGATED))
    v = _COUNTS(data, start + 24)  # bar, unentered, off: (mover, opponent) each
    return make_position(points, _PAIRS[v[1]][v[0]], _PAIRS[v[3]][v[2]], _PAIRS[v[5]][v[4]])


def result_board(play: Play) -> bytes | None:
    """The kernel's board (32 bytes) after ``play``, from the mover's side; ``None`` for a
    play the kernel did not make."""
    if not isinstance(play, _FastPlay):
        return None
    start = play[1] * ROW
    data: bytes = play[0].data
    return data[start : start + SLOTS]


def packed_rows(plays: Sequence[Play]) -> bytes | None:
    """The kernel's rows of a roll's plays (:data:`.kernel.ROW` bytes each, in the plays'
    order: the board after the play, the same from the other side, the moves), or ``None``
    for plays the kernel did not make."""
    return plays.data if isinstance(plays, _Plays) else None


def flipped_board(play: Play) -> bytes | None:
    """:func:`result_board` from the other side (the opponent on roll next)."""
    if not isinstance(play, _FastPlay):
        return None
    data: bytes = play[0].data
    start = play[1] * ROW + ROW_FLIPPED
    return data[start : start + SLOTS]


def play_facts(play: Play) -> tuple[bool, tuple[int, ...], bytes | None]:
    """``(play_ends_game(play), play.unused, flipped_board(play))`` in one call."""
    facts = listed_play_facts(play[0], play) if isinstance(play, _FastPlay) else None
    if facts is None:
        return play.result.off[0] == CHECKERS, play.unused, None
    return facts


def listed_play_facts(
    plays: Sequence[Play] | _Rows, play: object
) -> tuple[bool, tuple[int, ...], bytes] | None:
    """:func:`play_facts` of ``play`` if it is one of the kernel's ``plays`` as listed (the
    state's own list, whose indexing made it), else ``None``: the membership test and the
    facts of the hot path in one call."""
    if not isinstance(play, _FastPlay):
        return None
    batch: _Rows = play[0]
    data: bytes = batch.data
    either = batch.unused
    if batch is not (plays.rows if type(plays) is _Plays else plays):
        return None
    start = play[1] * ROW
    unused = either[0] if data[start + ROW_HIGH] else either[1]
    flipped = start + ROW_FLIPPED
    return data[start + _OFF_SLOT] == CHECKERS, unused, data[flipped : flipped + SLOTS]


def flipped_board_of(board: bytes) -> bytes:
    """The kernel's board ``board`` (32 bytes) seen from the other side."""
    return board[23::-1].translate(_NEGATED) + bytes(
        (board[25], board[24], board[27], board[26], board[29], board[28], 0, 0)
    )


def board_of(position: Position) -> bytes:
    """The kernel's board of ``position`` as 32 bytes."""
    data = bytearray(SLOTS)
    _PACK_INTO(data, 0, *position.points, *position.bar, *position.unentered, *position.off, 0, 0)
    return bytes(data)


def position_of_board(board: bytes) -> Position:
    """The :class:`Position` of a kernel board (32 bytes)."""
    v = _BOARD_ROW(board, 0)
    return make_position(v[:24], _PAIRS[v[24]][v[25]], _PAIRS[v[26]][v[27]], _PAIRS[v[28]][v[29]])


def _pass(position: Position | None, board: bytes | None, dice: tuple[int, ...]) -> Play:
    if position is None:
        position = position_of_board(_required(board))
    return Play((), position, dice)


def _required(value: Any) -> Any:
    if value is None:
        raise ArgumentError("bg.new_state.needs_position")
    return value


def play_ends_game(play: Play) -> bool:
    """Whether ``play`` bears off the mover's last checker."""
    if not isinstance(play, _FastPlay):
        return play.result.off[0] == CHECKERS
    off: int = play[0].data[play[1] * ROW + _OFF_SLOT]
    return off == CHECKERS


def is_fast(rules: BackgammonRules) -> bool:
    """Whether :func:`legal_plays` runs on the fast core for these rules."""
    return rules.must_use_max_dice


def to_board(position: Position) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The kernel's board (see :mod:`~aceydeucey.backgammon.kernel`) of a position."""
    import numpy as np

    data = bytearray(SLOTS)
    _PACK_INTO(data, 0, *position.points, *position.bar, *position.unentered, *position.off, 0, 0)
    return np.frombuffer(data, dtype=np.int8)


def fast_params(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The kernel's move-generation parameters for ``rules``."""
    from aceydeucey.backgammon.kernel import move_params_of

    return move_params_of(rules)


def kernel_ready() -> bool:
    """Whether the kernel is loaded (compiled, or read from Numba's cache)."""
    return bool(_KERNEL)


def warm_up() -> bool:
    """Load the kernel and run it once (compiling it if no cache holds it yet).

    ``False`` when Numba cannot be imported: :func:`legal_plays` then runs the reference.
    """
    if _KERNEL:
        return True
    with _LOADING:
        if _KERNEL:
            return True
        if _NO_KERNEL:
            return False
        try:
            from aceydeucey.backgammon import kernel
        except ImportError:
            _NO_KERNEL.append(True)
            return False

        layout = (kernel.SLOTS, kernel.ROW, kernel.ROW_FLIPPED, kernel.ROW_PATH, kernel.ROW_HIGH)
        assert layout == (SLOTS, ROW, ROW_FLIPPED, ROW_PATH, ROW_HIGH)
        assert (kernel.HEAD_DICE, kernel.HEAD_PARAMS) == (SLOTS, _HEAD)
        assert _HEAD_END - _HEAD == kernel.N_PARAMS
        buf, head, _ = _packed_space(kernel)
        head[:SLOTS] = board_of(Position((0,) * 23 + (15,), (0, 0), (0, 0), (0, 0)))
        head[SLOTS:_HEAD] = bytes((2, 1, 0, 0))
        kernel.generate_packed(buf)
        _KERNEL.append(kernel.generate_packed)
    return True


def warm_up_in_background() -> threading.Thread | None:
    """Have the kernel loaded without making the caller wait for a compilation.

    When Numba's cache holds it, it is loaded now, in this thread (about a second). Else
    its build starts in a separate process (once, said on the terminal) and later calls
    load it once the build is done; meanwhile :func:`legal_plays` runs the reference,
    which gives the same plays in the same order.  Only if that process fails is the
    kernel compiled here, in a daemon thread (returned; ``None`` otherwise).
    """
    if _KERNEL or _NO_KERNEL:
        return None
    from aceydeucey import kernels

    _STARTED[:] = [True]
    status = kernels.request("backgammon")
    if status == "ready":
        warm_up()
    elif status == "unavailable":
        _NO_KERNEL[:] = [True]
    elif status == "failed":
        with _LOADING:
            if _KERNEL or _THREAD:
                return None
            thread = threading.Thread(target=warm_up, name="backgammon-kernel", daemon=True)
            _THREAD.append(thread)
        thread.start()
        return thread
    return None


# -- lazy plays -------------------------------------------------------------------


class _FastPlay(tuple["_Rows", int], Play):
    """A :class:`Play` whose moves and result are built from the batch on first use.

    It is the pair ``(rows, row)`` underneath (the roll's :class:`_Rows`), so that a
    roll's plays are made without running any Python code per play; the pair is not
    part of its behaviour as a play (equality, hash, text, ``repr``, pickling, no
    ordering).
    """

    # built by tuple's constructor alone: Play's dataclass __init__ is not run
    __init__ = object.__init__

    @property
    def result(self) -> Position:
        cached: Position | None = self.__dict__.get("_result")
        if cached is None:
            v = _BOARD_ROW(self[0].data, self[1] * ROW)
            cached = make_position(v[:24], v[24:26], v[26:28], v[28:30])
            self.__dict__["_result"] = cached
        return cached

    @property
    def moves(self) -> tuple[Move, ...]:
        cached: tuple[Move, ...] | None = self.__dict__.get("_moves")
        if cached is None:
            path = _PATH_ROW(self[0].data, self[1] * ROW + ROW_PATH)
            cached = tuple(
                _MOVES[path[k]][path[k + 1]][path[k + 2]] for k in range(0, 12, 3) if path[k]
            )
            self.__dict__["_moves"] = cached
        return cached

    def __str__(self) -> str:
        data = self[0].data
        start = self[1] * ROW + ROW_PATH
        path = _PATH_ROW(data, start)
        if not path[6]:  # one or two moves: written directly
            return _short_text(path)
        key = data[start : start + 12]
        text = _TEXTS.get(key)
        if text is None:
            text = format_moves(self.moves)
            if len(_TEXTS) >= 100_000:
                _TEXTS.clear()
            _TEXTS[key] = text
        return text

    @property
    def unused(self) -> tuple[int, ...]:
        batch = self[0]
        high = batch.data[self[1] * ROW + ROW_HIGH]
        return batch.unused[0] if high else batch.unused[1]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _FastPlay) and other[0] is self[0]:
            return bool(other[1] == self[1])
        return isinstance(other, Play) and other.result == self.result

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.result)

    def _unordered(self, other: object) -> Any:
        return NotImplemented

    __lt__ = __le__ = __gt__ = __ge__ = _unordered

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.moves, self.result, self.unused))

    def __repr__(self) -> str:
        return f"Play(moves={self.moves!r}, result={self.result!r}, unused={self.unused!r})"


class _Rows:
    """One roll's packed rows (the kernel's output) and the dice its plays leave unplayed:
    what each :class:`_FastPlay` reads.  The plays' list (:class:`_Plays`) refers to it and
    it refers to nothing, so a roll's plays make no reference cycle: they are freed as soon
    as their state is, not left for the collector (they were most of a busy server's
    cyclic garbage)."""

    __slots__ = ("data", "unused")

    def __init__(self, data: bytes, unused: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        self.data = data
        #: dice left unplayed: (if the higher die was used, otherwise)
        self.unused = unused


class _Plays(Sequence[Play]):
    """The plays of one roll: the kernel's output (``n`` packed rows), made lazily.

    Indexing makes only the play asked for (a :class:`_FastPlay`: the roll's rows and a
    row number).  A read-only sequence (``len``, indexing and slices, iteration, ``in``,
    ``index``, equal to any sequence of the same plays); ``play in plays`` is immediate
    for its own plays.  Iterating (or slicing) makes every play once and keeps them.
    """

    __slots__ = ("_items", "n", "rows")

    def __init__(
        self, data: bytes, n: int, unused: tuple[tuple[int, ...], tuple[int, ...]]
    ) -> None:
        self.rows = _Rows(data, unused)
        self.n = n
        self._items: list[Play] | None = None

    @property
    def data(self) -> bytes:
        """The packed rows (:data:`.kernel.ROW` bytes a play)."""
        return self.rows.data

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, index: int) -> Play: ...

    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...

    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        items = self._items
        if items is None:
            if type(index) is int:
                n = self.n
                if -n <= index < n:
                    play: Play = _FastPlay((self.rows, index % n))
                    return play
                raise IndexError("play index out of range")
            items = self._all()
        return items[index]

    def _all(self) -> list[Play]:
        items = self._items
        if items is None:
            n = self.n
            items = self._items = list(
                map(_FastPlay, zip(repeat(self.rows, n), range(n), strict=True))
            )
        return items

    def __iter__(self) -> Iterator[Play]:
        return iter(self._all())

    def __contains__(self, item: object) -> bool:
        if isinstance(item, _FastPlay) and item[0] is self.rows:
            return True
        return item in self._all()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Plays | list | tuple):
            return self._all() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._all())


# -- caches and helpers -------------------------------------------------------------

#: per thread: the kernel's buffer and views of it (``space``, see :func:`_packed_space`)
_LOCAL = threading.local()
#: byte translation table of negation (two's complement)
_NEGATED = bytes(-i & 0xFF for i in range(256))
_POINTS = struct.Struct("24b").unpack
_COUNTS = struct.Struct("6b").unpack_from
#: the kernel's ``generate_packed`` once loaded (see :func:`warm_up`); empty before
_KERNEL: list[Any] = []
_LOADING = threading.Lock()
#: holds ``True`` once the kernel was found unloadable (no Numba): the reference serves
_NO_KERNEL: list[bool] = []
#: holds ``True`` once loading the kernel has been asked for
_STARTED: list[bool] = []
#: the thread compiling the kernel here, when its build process failed
_THREAD: list[threading.Thread] = []
#: when the reference next looks whether the kernel can be loaded (monotonic seconds)
_NEXT_LOOK = [0.0]
_LOOK_EVERY = 0.25
_monotonic = time.monotonic
#: every pair of checker counts, shared: _PAIRS[a][b] == (a, b)
_PAIRS = [[(a, b) for b in range(CHECKERS + 1)] for a in range(CHECKERS + 1)]
#: byte of the mover's borne-off count in a kernel row, and of its checkers on the bar
_OFF_SLOT = 28
_BAR_SLOT = 24


_PACK_INTO = struct.Struct(f"{SLOTS}b").pack_into
_BOARD_ROW = struct.Struct("30b").unpack_from
_PATH_ROW = struct.Struct("12b").unpack_from
#: bytes of the one-buffer kernel's header: the board (``SLOTS``), the dice up to
#: ``_HEAD``, the parameters up to ``_HEAD_END`` (``kernel.HEAD_*``, checked on loading)
_HEAD = SLOTS + 4
_HEAD_END = _HEAD + 7
#: a hand of dice for the kernel: (the dice high to low, the header's bytes after the
#: board, and the dice left unplayed by a play of ``used`` dice, indexed by ``used``:
#: (if it used the higher die, otherwise))
_Hand = tuple[tuple[int, ...], bytes, list[tuple[tuple[int, ...], tuple[int, ...]]]]
#: per rules object (by id): (the rules, the kernel's parameters, the hands seen)
_RulesEntry = tuple[
    BackgammonRules, "np.ndarray[Any, np.dtype[np.int64]]", dict[tuple[int, ...], _Hand]
]
_RULES: dict[int, _RulesEntry] = {}
#: hands of dice already checked, each with its dice ordered high to low
_CHECKED: dict[tuple[int, ...], tuple[int, ...]] = {}
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


def _packed_space(
    kernel: Any = None,
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], memoryview, memoryview]:
    """A buffer for the one-buffer kernel, with views of its header and its rows as bytes
    (one per thread: ``_LOCAL.space``)."""
    if kernel is None:
        from aceydeucey.backgammon import kernel
    buf = kernel.packed_buffer()
    data = memoryview(buf).cast("B")
    return buf, data[:_HEAD_END], data[kernel.B_ROWS * 8 :]


def _params(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The kernel's parameters of ``rules`` (made once per rules object)."""
    entry = _RULES.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _rules_entry(rules)
    return entry[1]


def _rules_entry(rules: BackgammonRules) -> _RulesEntry:
    """``_RULES``' entry of ``rules``, made now."""
    if len(_RULES) >= 256:
        _RULES.clear()
    entry: _RulesEntry = (rules, fast_params(rules), {})
    _RULES[id(rules)] = entry
    return entry


def _kernel_hand(entry: _RulesEntry, dice: tuple[int, ...]) -> _Hand | None:
    """The hand of ``dice`` under ``entry``'s rules, kept; ``None`` where the kernel does not
    serve: free choice of how many dice to play, or more than four dice."""
    ordered = _check_hand(dice)
    if not entry[0].must_use_max_dice or len(ordered) > 4:
        return None
    header = bytes(ordered).ljust(4, b"\0") + bytes(int(p) for p in entry[1])
    unused = [_unused_of(ordered, used) for used in range(len(ordered) + 1)]
    hand = (ordered, header, unused)
    if len(entry[2]) < 4096:
        entry[2][dice] = hand
    return hand


def _check_hand(dice: Sequence[int]) -> tuple[int, ...]:
    """``dice`` ordered high to low; ArgumentError unless they are a hand of dice."""
    key = tuple(dice)
    ordered = _CHECKED.get(key)
    if ordered is not None:
        return ordered
    for die in key:
        if isinstance(die, bool) or not hasattr(die, "__index__") or not 1 <= die <= 6:
            raise ArgumentError("bg.dice.bad_die", die=repr(die))
    ordered = tuple(sorted((int(die) for die in key), reverse=True))
    if len(set(ordered)) > 2 or (len(set(ordered)) == 2 and len(ordered) != 2):
        raise ArgumentError("bg.dice.bad_hand", dice=repr(key))
    if len(_CHECKED) < 4096:
        _CHECKED[key] = ordered
    return ordered


def _unused_of(dice: tuple[int, ...], used: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if used >= len(dice):
        return (), ()
    if len(dice) == 2 and dice[0] != dice[1]:
        return (dice[1],), (dice[0],)
    rest = dice[used:]
    return rest, rest
