"""The two-sided bear-off table: the exact chance to win a small race with both sides home,
each playing to win; and the one-sided expected turns in exact fractions (a check).

Computed from the same trees of a turn as the one-sided table (:mod:`.bearoff_turns`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from aceydeucey.backgammon.bearoff_turns import (
    AGAIN,
    END,
    MAX,
    ROLLS,
    TURN,
    Counts,
    HomeTurns,
    Tree,
    bearoff_key,
    flatten,
    pips,
    positions,
)
from aceydeucey.backgammon.rules import BackgammonRules

__all__ = ["TWO_SIDED_CHECKERS", "TwoSided", "build_two_sided", "exact_turns", "two_sided"]

#: Most checkers a side of the two-sided table built by default (fast to build).
TWO_SIDED_CHECKERS = 3

# -- two-sided: exact chances with play for winning -----------------------------------------


@dataclass(frozen=True)
class TwoSided:
    """``win[i, j]``: the exact chance that the side on roll at home position ``i`` wins
    against ``j`` (indices of ``index``), each side playing to win."""

    index: dict[Counts, int]
    win: np.ndarray[Any, np.dtype[np.float64]]

    def chance(self, mover: tuple[int, ...], other: tuple[int, ...]) -> float:
        return float(self.win[self.index[mover], self.index[other]])  # type: ignore[index]


def build_two_sided(rules: BackgammonRules, max_checkers: int) -> TwoSided:
    """The two-sided table of ``rules`` for both sides of at most ``max_checkers``."""
    bearoff_key(rules)
    turns = HomeTurns(rules)
    order = positions(max_checkers)
    index = {c: i for i, c in enumerate(order)}
    trees = [
        [(flatten(turns.roll(c, h, lo)), w / 36) for h, lo, w in ROLLS] if sum(c) else []
        for c in order
    ]
    size = len(order)
    win = np.full((size, size), np.nan)
    win[0, :] = 1.0  # nothing left on roll: the game is already won (never asked)
    win[1:, 0] = 0.0
    # pairs in order of their total pips: every leaf is a pair of fewer pips, but a pass
    pairs = sorted(
        ((i, j) for i in range(1, size) for j in range(1, size)),
        key=lambda ij: pips(order[ij[0]]) + pips(order[ij[1]]),
    )
    for i, j in pairs:
        if not np.isnan(win[i, j]):
            continue
        a, pa = _two_sided_terms(trees[i], i, j, index, win)
        if pa == 0.0:
            win[i, j] = a
            continue
        # a pass hands the roll over: x = a + pa (1 - y), y = b + pb (1 - x)
        b, pb = _two_sided_terms(trees[j], j, i, index, win)
        x = (a + pa - pa * b - pa * pb) / (1 - pa * pb)
        win[i, j] = x
        win[j, i] = b + pb * (1 - x)
    return TwoSided(index, win)


def _two_sided_terms(
    rolls: list[tuple[Tree, float]],
    i: int,
    j: int,
    index: dict[Counts, int],
    win: np.ndarray[Any, Any],
) -> tuple[float, float]:
    """(the chance to win over the rolls that change the position, the chance of a pass)."""
    total = passes = again = 0.0
    for tree, p in rolls:
        value = _two_sided_value(tree, i, j, index, win)
        if value is None:
            passes += p
        elif value is _REDO:
            again += p
        else:
            total += p * float(value)
    # a roll taken again: W = total + passes (1 - W') + again W
    return total / (1 - again), passes / (1 - again)


#: a roll that gives another roll of the same turn where it began
_REDO = object()


def _two_sided_value(
    tree: Tree, i: int, j: int, index: dict[Counts, int], win: np.ndarray[Any, Any]
) -> Any:
    """The chance to win after the best branch; ``None`` for a pass, :data:`_REDO` for a
    roll to take again (nothing could be played in either case)."""
    kind = tree[0]
    if kind == END:
        return 1.0
    if kind == TURN:
        k = index[tree[1]]
        if k == i:
            return None  # the position is unchanged: a pass
        return 1.0 - float(win[j, k])
    if kind == AGAIN:
        k = index[tree[1]]
        return _REDO if k == i else float(win[k, j])
    values = [_two_sided_value(t, i, j, index, win) for t in tree[1]]
    real = [v for v in values if v is not None and v is not _REDO]
    if kind == MAX:
        return max(real) if real else values[0]
    return sum(real) / 6


@lru_cache(maxsize=8)
def _two_sided_cached(key: str, max_checkers: int, rules: BackgammonRules) -> TwoSided:
    return build_two_sided(rules, max_checkers)


def two_sided(rules: BackgammonRules, max_checkers: int = TWO_SIDED_CHECKERS) -> TwoSided:
    """The two-sided table of ``rules`` (built in memory: small positions only)."""
    return _two_sided_cached(bearoff_key(rules), max_checkers, rules)


def exact_turns(rules: BackgammonRules, counts: tuple[int, ...]) -> Fraction:
    """The expected turns of ``counts`` as an exact fraction, by the same recursion in
    rationals (small positions: a check on the floating table)."""
    turns = HomeTurns(rules)
    memo: dict[tuple[int, ...], Fraction] = {}

    def expect(c: tuple[int, ...]) -> Fraction:
        if not sum(c):
            return Fraction(0)
        known = memo.get(c)
        if known is not None:
            return known
        rest = stay = again = Fraction(0)
        for h, lo, w in ROLLS:
            p = Fraction(w, 36)
            value = best(flatten(turns.roll(c, h, lo)), c)
            if value is None:
                stay += p
            elif value is _REDO:
                again += p
            else:
                rest += p * value
        memo[c] = (1 + rest - again) / (1 - stay - again)
        return memo[c]

    def best(tree: Tree, start: tuple[int, ...]) -> Any:
        kind = tree[0]
        if kind == END:
            return Fraction(0)
        if kind in (TURN, AGAIN) and tree[1] == start:
            return None if kind == TURN else _REDO
        if kind == TURN:
            return expect(tree[1])
        if kind == AGAIN:
            return expect(tree[1]) - 1
        values = [best(t, start) for t in tree[1]]
        real = [v for v in values if v is not None and v is not _REDO]
        if kind == MAX:
            return min(real) if real else values[0]
        return sum(real, Fraction(0)) / 6

    return expect(tuple(counts))
