"""Exact bear-off databases: one side's race home, and both sides' for small positions.

**One-sided.**  For every position of up to :data:`MAX_CHECKERS` checkers on the six
home points (``C(21, 6) = 54,264`` of them with 15), the distribution of the number of
turns its side needs to bear them all off, when each turn's play is the one that
needs fewest turns on average, together with the checkers expected to be left after
each number of turns and the chance that none is off yet (for gammons).  Two races
are independent, so the cubeless value of a race in which both sides are home follows
from the two sides' entries exactly (:func:`race_value`): the side on roll, needing
``n`` turns, wins when the other needs ``n`` or more.

**Two-sided.**  For both sides of up to a few checkers, the exact chance that the
side on roll wins with best play *for winning* (the one-sided policy minimises the
turns, which is not always the same play).

**One source for each rule.**  Nothing here knows how checkers move or how a turn
goes on: the plays come from the engine's move generator
(:func:`aceydeucey.backgammon.generate.legal_plays`) and what follows a play (the
turn ends, the 1-2's double is named, the complement, another roll in the same turn)
from the one turn step (:class:`aceydeucey.backgammon.turn.TurnSteps`).  So the tables
are exact for every reading of the rules the engine plays: higher-die or exact-count
bear-off, Acey-Deucey's 1-2 (the 1 and the 2, then a double named or rolled, then
another roll), extra rolls after doubles, the complement.  One reading cannot have a
one-sided table: where dice the mover cannot use pass to the opponent
(``unplayable_remainder="to_opponent"``), the two races are not independent; it is
refused (``bg.bearoff.not_independent``).

Tables are built by ``aceydeucey bearoff build`` (or on first use) and kept in the
user's data folder, one file per reading of the rules (the key is a digest of the
parameters the move generator and the turn step read).  Turn counts are kept up to
:data:`MAX_TURNS`; the tail beyond it (only exact-count bear-off, where a roll may be
unplayable, reaches it, with a chance below 1e-9) is folded into the last bucket.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from aceydeucey.backgammon.bearoff_turns import (
    AGAIN,
    AVG,
    END,
    MAX,
    MAX_CHECKERS,
    ROLLS,
    TURN,
    Counts,
    HomeTurns,
    Tree,
    bearoff_key,
    checkers_choose,
    checkers_error,
    flatten,
    home_counts,
    positions,
)
from aceydeucey.backgammon.bearoff_two import (
    TWO_SIDED_CHECKERS,
    TwoSided,
    build_two_sided,
    exact_turns,
    two_sided,
)
from aceydeucey.backgammon.board import CHECKERS
from aceydeucey.backgammon.rules import BackgammonRules

__all__ = [
    "MAX_CHECKERS",
    "MAX_TURNS",
    "TWO_SIDED_CHECKERS",
    "OneSided",
    "RaceValue",
    "TwoSided",
    "bearoff_key",
    "board_counts",
    "build_one_sided",
    "build_two_sided",
    "checkers_choose",
    "checkers_error",
    "exact_turns",
    "home_counts",
    "load_one_sided",
    "one_sided",
    "one_sided_path",
    "race_rows",
    "race_value",
    "save_one_sided",
    "two_sided",
]

#: Turn counts kept per position (the last bucket holds the rest).
MAX_TURNS = 64
#: how a roll's best branch leaves the position: changed, a pass, or a roll to take again
_MOVED, _PASS, _AGAIN = 0, 1, 2

# -- one-sided -------------------------------------------------------------------------------


@dataclass(frozen=True)
class OneSided:
    """A one-sided table: for each home position (``index``), ``turns[i, n]`` the chance
    of needing exactly ``n`` turns, ``left[i, k]`` the checkers expected to be left after
    ``k`` turns, ``none_off[i, k]`` the chance that no checker is off after ``k`` turns
    (of a position with all the side's checkers), and ``mean[i]`` the expected turns."""

    index: dict[Counts, int]
    turns: np.ndarray[Any, np.dtype[np.float64]]
    left: np.ndarray[Any, np.dtype[np.float64]]
    none_off: np.ndarray[Any, np.dtype[np.float64]]
    mean: np.ndarray[Any, np.dtype[np.float64]]

    def row(self, counts: tuple[int, ...]) -> int:
        return self.index[counts]  # type: ignore[index]

    def __contains__(self, counts: object) -> bool:
        return counts in self.index


def build_one_sided(
    rules: BackgammonRules,
    max_checkers: int = MAX_CHECKERS,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> OneSided:
    """Compute the one-sided table of ``rules`` (see the module docstring)."""
    bearoff_key(rules)  # refuses a reading with no one-sided table
    if not 1 <= max_checkers <= MAX_CHECKERS:
        raise checkers_error(max_checkers)
    turns = HomeTurns(rules)
    order = positions(max_checkers)
    index = {c: i for i, c in enumerate(order)}
    size, width = len(order), MAX_TURNS
    dist = np.zeros((size, width))
    left = np.zeros((size, width))
    none_off = np.zeros((size, width))
    mean = np.zeros(size)
    dist[0, 0] = 1.0  # nothing left: no turn needed
    for i, counts in enumerate(order[1:], start=1):
        n_checkers = sum(counts)
        # per roll: (chance, expected further turns, turns-after distribution, left, none-off)
        e_rest = 0.0
        d = np.zeros(width)
        lt = np.zeros(width)
        no = np.zeros(width)
        # chance of a roll that ends the turn where it began (a pass), and of one that
        # gives another roll of the same turn where it began (doubles that cannot be played
        # but earn a roll all the same): the second is a roll taken again
        passes = again = 0.0
        for high, low, weight in ROLLS:
            p = weight / 36
            tree = flatten(turns.roll(counts, high, low))
            value, stays, chosen = _choose(tree, counts, index, mean)
            if stays == _PASS:
                passes += p
            elif stays == _AGAIN:
                again += p
            else:
                td, tl, tn = _arrays(chosen, index, dist, left, none_off)
                e_rest += p * value
                d += p * td
                lt += p * tl
                no += p * tn
        # E = 1 + e_rest + passes E + again (E - 1)
        mean[i] = (1 + e_rest - again) / (1 - passes - again)
        # the turn counts: this turn, then the turns after it (shifted by one), with a pass
        # costing a turn and a roll taken again none
        row = np.zeros(width)
        left_row = np.zeros(width)
        none_row = np.zeros(width)
        left_row[0] = n_checkers
        none_row[0] = 1.0 if n_checkers == CHECKERS else 0.0
        for k in range(1, width):
            row[k] = (d[k - 1] + passes * row[k - 1]) / (1 - again)
            left_row[k] = (lt[k - 1] + passes * left_row[k - 1]) / (1 - again)
            none_row[k] = (no[k - 1] + passes * none_row[k - 1]) / (1 - again)
        row[-1] += 1.0 - row.sum()  # the tail beyond MAX_TURNS
        dist[i], left[i], none_off[i] = row, left_row, none_row
        if progress is not None and (i % 512 == 0 or i == size - 1):
            progress(i + 1, size)
    return OneSided(index, dist, left, none_off, mean)


def _choose(
    tree: Tree, start: tuple[int, ...], index: dict[Counts, int], mean: np.ndarray[Any, Any]
) -> tuple[float, int, Tree]:
    """The branch of a roll's tree that needs fewest turns on average: (the expected turns
    after this one, :data:`_MOVED` or :data:`_PASS` / :data:`_AGAIN` when nothing could be
    played, the tree with each choice made)."""
    kind = tree[0]
    if kind == END:
        return 0.0, _MOVED, tree
    if kind in (TURN, AGAIN) and tree[1] == start:
        return 0.0, _PASS if kind == TURN else _AGAIN, tree
    if kind == TURN:
        return float(mean[index[tree[1]]]), _MOVED, tree
    if kind == AGAIN:  # the same turn goes on: one turn fewer after this one
        return float(mean[index[tree[1]]]) - 1.0, _MOVED, tree
    kids = [_choose(k, start, index, mean) for k in tree[1]]
    if kind == MAX:  # fewest expected turns (ties: the first, in the generator's order)
        return min(kids, key=lambda k: (k[1] != _MOVED, k[0]))
    # AVG: a rolled double, each value 1/6 (something was played before it)
    if any(k[1] != _MOVED for k in kids):
        raise AssertionError("a rolled double that leaves the position unchanged")
    return sum(k[0] for k in kids) / 6, _MOVED, (AVG, tuple(k[2] for k in kids))


def _arrays(
    chosen: Tree,
    index: dict[Counts, int],
    dist: np.ndarray[Any, Any],
    left: np.ndarray[Any, Any],
    none_off: np.ndarray[Any, Any],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """For a tree with its choices made (:func:`_choose`): the distribution of turns after
    this one, the checkers left after k more turns, the chance none is off after k more."""
    width = dist.shape[1]
    kind = chosen[0]
    if kind == END:
        zero = np.zeros(width)
        zero[0] = 1.0
        return zero, np.zeros(width), np.zeros(width)
    if kind == TURN:
        j = index[chosen[1]]
        return dist[j], left[j], none_off[j]
    if kind == AGAIN:  # one turn fewer after this one
        j = index[chosen[1]]
        shifted = np.zeros(width)
        shifted[:-1] = dist[j][1:]
        return (
            shifted,
            np.concatenate([left[j][1:], left[j][-1:]]),
            np.concatenate([none_off[j][1:], none_off[j][-1:]]),
        )
    parts = [_arrays(k, index, dist, left, none_off) for k in chosen[1]]  # AVG
    return (
        np.sum([p[0] for p in parts], axis=0) / 6,
        np.sum([p[1] for p in parts], axis=0) / 6,
        np.sum([p[2] for p in parts], axis=0) / 6,
    )


# -- the cache in the user's data folder -----------------------------------------------------


def _folder() -> Path:
    override = os.environ.get("ACEYDEUCEY_BEAROFF_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_path

    return user_data_path("aceydeucey") / "bearoff"


def one_sided_path(rules: BackgammonRules, max_checkers: int = MAX_CHECKERS) -> Path:
    return _folder() / f"one-sided-{bearoff_key(rules)}-{max_checkers}.npz"


def save_one_sided(table: OneSided, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    order = np.array(sorted(table.index, key=table.index.__getitem__), dtype=np.int8)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez_compressed(
        tmp,
        order=order,
        turns=table.turns.astype(np.float32),
        left=table.left.astype(np.float32),
        none_off=table.none_off.astype(np.float32),
        mean=table.mean,
    )
    os.replace(tmp, path)


def load_one_sided(path: Path) -> OneSided:
    with np.load(path) as data:
        order = [tuple(int(x) for x in row) for row in data["order"]]
        return OneSided(
            {c: i for i, c in enumerate(order)},  # type: ignore[misc]
            data["turns"].astype(np.float64),
            data["left"].astype(np.float64),
            data["none_off"].astype(np.float64),
            data["mean"],
        )


_LOADED: dict[tuple[str, int], OneSided] = {}


def one_sided(
    rules: BackgammonRules,
    max_checkers: int = MAX_CHECKERS,
    *,
    build: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> OneSided | None:
    """The one-sided table of ``rules``: from memory, the data folder, or built and saved
    there (unless ``build`` is false: then ``None`` when it is not built yet)."""
    key = (bearoff_key(rules), max_checkers)
    table = _LOADED.get(key)
    if table is not None:
        return table
    path = one_sided_path(rules, max_checkers)
    if path.exists():
        table = load_one_sided(path)
    elif build:
        table = build_one_sided(rules, max_checkers, progress=progress)
        save_one_sided(table, path)
    else:
        return None
    _LOADED[key] = table
    return table


# -- values of races ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RaceValue:
    """A race's cubeless value for the side on roll: the chance to win, to win a gammon
    and to lose one, and the points expected to be won and lost under per-checker
    scoring (one point a checker the loser has left)."""

    win: float
    win_gammon: float
    lose_gammon: float
    points_won: float
    points_lost: float

    @property
    def points(self) -> float:
        """Points a game under per-checker scoring."""
        return self.points_won - self.points_lost


def race_value(table: OneSided, mover: tuple[int, ...], other: tuple[int, ...]) -> RaceValue:
    """The race's value when the side on roll has ``mover`` home and the other side
    ``other`` (both in ``table``): independent races, the mover first."""
    a, b = table.row(mover), table.row(other)
    pa, pb = table.turns[a], table.turns[b]
    # the mover wins needing n turns when the other needs n or more
    b_at_least = np.concatenate([[1.0], 1.0 - np.cumsum(pb)[:-1]])  # P(T_b >= n)
    win = float(np.dot(pa, b_at_least))
    # the mover finishing at its n-th turn meets the other after n - 1 turns
    lb = np.concatenate([[table.left[b][0]], table.left[b][:-1]])
    nb = np.concatenate([[table.none_off[b][0]], table.none_off[b][:-1]])
    # the other finishing at its m-th turn meets the mover after m turns
    return RaceValue(
        win=win,
        win_gammon=float(np.dot(pa, nb)),
        lose_gammon=float(np.dot(pb, table.none_off[a])),
        points_won=float(np.dot(pa, lb)),
        points_lost=float(np.dot(pb, table.left[a])),
    )


def race_rows(boards: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.intp]]:
    """The rows of kernel boards (``(n, 32)``, see :mod:`.kernel`) that are races with both
    sides home and neither finished: the tables' positions."""
    b = np.asarray(boards)
    mine_out = (b[:, 6:24] > 0).any(axis=1)
    theirs_out = (b[:, 0:18] < 0).any(axis=1)
    held = b[:, 24:28].any(axis=1)
    done = (b[:, 28] == CHECKERS) | (b[:, 29] == CHECKERS)
    rows: np.ndarray[Any, np.dtype[np.intp]] = np.flatnonzero(
        ~(mine_out | theirs_out | held | done)
    )
    return rows


def board_counts(board: np.ndarray[Any, Any]) -> tuple[Counts, Counts]:
    """(the side on roll's, the other side's) checkers on their points 1..6 of a race board."""
    mine = tuple(int(max(n, 0)) for n in board[:6])
    theirs = tuple(int(max(-board[23 - i], 0)) for i in range(6))
    return mine, theirs  # type: ignore[return-value]
