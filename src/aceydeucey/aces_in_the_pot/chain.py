"""The Markov chain of Aces in the Pot, built for the exact solution.

A *play state* is the chips per seat seen from the roller: ``chips[0]`` is the
roller's, ``chips[1]`` the left neighbour's, and so on round the table (the pot
is what is missing from the total, so it is not stored).  Rotating every state
to the roller's seat divides the number of states by the number of players.

For each play state and each of the six classes of throw that matter
(:data:`THROW_CLASSES`: how many aces and sixes it shows), :func:`build_chain`
records where the throw leads:

- ``kind 1``: another play state ``target``, whose roller sits ``offset`` seats
  to the left of the old one;
- ``kind 0``: the finish with a single chip, held ``offset`` seats to the left;
- ``kind 2``: the finish (``one-holder`` only) with ``fin`` > 1 chips in one hand.

The throw is settled with the same rules as :func:`aceydeucey.aces_in_the_pot.settle.advance`,
vectorised over all states at once; the tests compare the two on every state of
small tables.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt

from aceydeucey.aces_in_the_pot.rules import AcesRules
from aceydeucey.core.errors import ArgumentError, RulesError

__all__ = ["MAX_STATES", "THROW_CLASSES", "Chain", "build_chain", "count_states"]

#: (aces, sixes, probability) of the six kinds of throw: 16 blanks, 8 single sixes,
#: 6-6, 8 single aces, 6-1 (two ways) and 1-1, out of 36.
THROW_CLASSES: tuple[tuple[int, int, Fraction], ...] = (
    (0, 0, Fraction(16, 36)),
    (0, 1, Fraction(8, 36)),
    (0, 2, Fraction(1, 36)),
    (1, 0, Fraction(8, 36)),
    (1, 1, Fraction(2, 36)),
    (2, 0, Fraction(1, 36)),
)

#: Refuse chains larger than this (memory and time grow with it).
MAX_STATES = 3_000_000

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Chain:
    """The play states of one rule set and where each class of throw takes them."""

    rules: AcesRules
    chips: IntArray  # (S, N) chips seen from the roller, sorted by level then code
    level: IntArray  # (S,) chips in play
    kind: IntArray  # (6, S) 0 finish with one chip, 1 play state, 2 finish with several
    target: IntArray  # (6, S) play state index for kind 1 (0 elsewhere)
    offset: IntArray  # (6, S) seats from the old roller to the new roller / holder
    fin: IntArray  # (6, S) chips of the finish holder for kinds 0 and 2 (0 elsewhere)
    level_start: dict[int, int]  # level -> first index
    level_stop: dict[int, int]  # level -> one past the last index
    start: int  # index of the opening position (everyone holds starting_chips)
    after_six: dict[int, int]  # fin chips c >= 2 -> index of (1, 0, ..., 0, c - 1)
    sorted_codes: IntArray  # state codes in increasing order (for lookups)
    code_order: IntArray  # state index of each sorted code

    @property
    def size(self) -> int:
        return int(self.chips.shape[0])

    def index(self, chips: tuple[int, ...]) -> int:
        """The index of the play state with these chips (roller first)."""
        code = _codes(np.array([chips], dtype=np.int64), self.rules.total_chips)[0]
        pos = int(np.searchsorted(self.sorted_codes, code))
        if pos >= self.size or self.sorted_codes[pos] != code:
            raise ArgumentError("aces.not_a_play_state", chips=repr(chips))
        return int(self.code_order[pos])


def count_states(rules: AcesRules) -> int:
    """An upper bound on the play states (compositions of at most the total chips)."""
    n, total = rules.players, rules.total_chips
    return comb(total + n, n)


def build_chain(rules: AcesRules) -> Chain:
    """Every play state of ``rules`` and its transitions (vectorised with NumPy)."""
    if count_states(rules) > MAX_STATES:
        raise RulesError(
            "aces.too_many_states",
            players=rules.players,
            chips=rules.starting_chips,
            states=count_states(rules),
            limit=MAX_STATES,
        )
    n, total = rules.players, rules.total_chips
    chips = _play_states(n, total, rules.finish)
    level = chips.sum(axis=1)
    codes = _codes(chips, total)
    order = np.lexsort((codes, level))
    chips, level, codes = chips[order], level[order], codes[order]
    code_order = np.argsort(codes, kind="stable")
    sorted_codes = codes[code_order]

    def lookup(rows: IntArray) -> IntArray:
        c = _codes(rows, total)
        pos = np.searchsorted(sorted_codes, c)
        pos = np.minimum(pos, len(sorted_codes) - 1)
        if not np.all(sorted_codes[pos] == c):
            raise AssertionError("a throw led outside the enumerated play states")
        return code_order[pos].astype(np.int64)

    s = chips.shape[0]
    kind = np.zeros((6, s), dtype=np.int64)
    target = np.zeros((6, s), dtype=np.int64)
    offset = np.zeros((6, s), dtype=np.int64)
    fin = np.zeros((6, s), dtype=np.int64)
    for c, (aces, sixes, _) in enumerate(THROW_CLASSES):
        k, t, o, f = _settle_all(chips, level, aces, sixes, rules.finish, lookup)
        kind[c], target[c], offset[c], fin[c] = k, t, o, f

    levels = [int(v) for v in np.unique(level)]
    starts = {lv: int(np.searchsorted(level, lv, side="left")) for lv in levels}
    stops = {lv: int(np.searchsorted(level, lv, side="right")) for lv in levels}
    after_six: dict[int, int] = {}
    if rules.finish == "one-holder":
        for c in range(2, total + 1):
            row = np.zeros((1, n), dtype=np.int64)
            row[0, 0], row[0, n - 1] = 1, c - 1
            after_six[c] = int(lookup(row)[0])
    start_row = np.full((1, n), rules.starting_chips, dtype=np.int64)
    return Chain(
        rules, chips, level, kind, target, offset, fin, starts, stops,
        int(lookup(start_row)[0]), after_six, sorted_codes, code_order,
    )  # fmt: skip


# -- helpers ------------------------------------------------------------------
def _codes(rows: IntArray, total: int) -> IntArray:
    base = np.int64(total + 1)
    weights = base ** np.arange(rows.shape[1], dtype=np.int64)
    codes: IntArray = (rows * weights).sum(axis=1)
    return codes


def _play_states(n: int, total: int, finish: str) -> IntArray:
    """Chips (roller first) of every state in which someone throws in normal play."""
    bars = np.array(list(combinations(range(total + n), n)), dtype=np.int64)
    parts = np.diff(bars, axis=1, prepend=-1) - 1
    level = parts.sum(axis=1)
    holders = (parts > 0).sum(axis=1)
    keep = parts[:, 0] >= 1
    keep &= level >= 2 if finish == "last-chip" else holders >= 2
    return np.ascontiguousarray(parts[keep])


def _settle_all(
    chips: IntArray,
    level: IntArray,
    aces: int,
    sixes: int,
    finish: str,
    lookup: Callable[[IntArray], IntArray],
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    n = chips.shape[1]
    held = chips[:, 0]
    to_pot = np.minimum(np.minimum(aces, held), level - 1)
    kept = np.minimum(aces, held) - to_pot
    to_left = np.minimum(sixes, held - to_pot - kept)
    new = chips.copy()
    new[:, 0] -= to_pot + to_left
    new[:, 1] += to_left
    in_play = level - to_pot
    has = new > 0
    finishing = in_play == 1 if finish == "last-chip" else has.sum(axis=1) == 1
    rest = has[:, 1:]
    next_seat = np.where(rest.any(axis=1), rest.argmax(axis=1) + 1, 0)
    off = np.where(finishing, has.argmax(axis=1), next_seat).astype(np.int64)
    kind = np.where(finishing, np.where(in_play == 1, 0, 2), 1).astype(np.int64)
    fin = np.where(finishing, in_play, 0).astype(np.int64)
    target = np.zeros(chips.shape[0], dtype=np.int64)
    play = ~finishing
    if play.any():
        idx = (np.arange(n)[None, :] + off[play][:, None]) % n
        rotated = np.take_along_axis(new[play], idx, axis=1)
        target[play] = lookup(rotated)
    return kind, target, off, fin
