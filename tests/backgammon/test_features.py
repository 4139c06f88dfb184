"""The hand-crafted figures of encodings 2 and 3 (:mod:`aceydeucey.backgammon.features`)
against a brute-force reference written from their definitions, on hand-made and random
boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon.board import off_board_start, standard_start
from aceydeucey.backgammon.features import (
    N_EXTRA,
    N_EXTRA_3,
    NAMES,
    NAMES_3,
    PER_SIDE,
    PER_SIDE_3,
)
from aceydeucey.backgammon.generate import to_board
from aceydeucey.backgammon.kernel import flip_board
from aceydeucey.backgammon.net import N_INPUTS, N_INPUTS_OF, encode

from .test_net import sample_boards

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]  # the 36 ordered rolls


# -- the reference ---------------------------------------------------------------------------


def sides(board: np.ndarray) -> tuple[list[int], list[int]]:
    """(side to act, opponent): checkers by own point 1..24, [25] bar + unentered."""
    me = [0] * 26
    them = [0] * 26
    for p in range(1, 25):
        me[p] = max(int(board[p - 1]), 0)
        them[p] = max(-int(board[24 - p]), 0)
    me[25] = int(board[24]) + int(board[26])
    them[25] = int(board[25]) + int(board[27])
    return me, them


def most_pips_lost(x: list[int], y: list[int], dice: tuple[int, ...]) -> int:
    """Every way ``Y`` can play ``dice`` (in any order, checker by checker, bar first,
    never landing on a point ``X`` made, bearing off left out): the most pips a blot of
    ``X`` it lands on loses (its ``Y`` point), 0 if it lands on none."""
    best = 0
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def go(ys: tuple[int, ...], left: tuple[int, ...]) -> None:
        nonlocal best
        if not left or (ys, left) in seen:
            return
        seen.add((ys, left))
        for d in sorted(set(left)):
            rest = list(left)
            rest.remove(d)
            sources = [25] if ys[25] > 0 else [q for q in range(1, 25) if ys[q] > 0]
            for q in sources:
                t = q - d
                if t < 1 or x[25 - t] >= 2:
                    continue
                if x[25 - t] == 1:
                    best = max(best, t)
                moved = list(ys)
                moved[q] -= 1
                moved[t] += 1
                go(tuple(moved), tuple(sorted(rest)))

    go(tuple(y), tuple(sorted(dice)))
    return best


def made(y: list[int], s: int) -> bool:
    return 1 <= s <= 24 and y[25 - s] >= 2


def escapes(y: list[int], p: int) -> int:
    """Ordered rolls letting a checker on point p move d1 + d2 past Y's made points."""
    return sum(
        not made(y, p - a - b) and (not made(y, p - a) or not made(y, p - b)) for a, b in ROLLS
    )


def reference(x: list[int], y: list[int]) -> list[float]:
    """The figures of side x against y, straight from the definitions."""
    lost = [most_pips_lost(x, y, (a,) * 4 if a == b else (a, b)) for a, b in ROLLS]
    on_board = [p for p in range(1, 26) if x[p] > 0]
    rear = max(on_board, default=0)
    runs = "".join("1" if x[p] >= 2 else "0" for p in range(1, 25)).split("0")
    closed = sum(y[q] >= 2 for q in range(1, 7))
    theirs = [q for q in range(1, 26) if y[q] > 0]
    m = 25 - max(theirs, default=0)
    return [
        sum(v > 0 for v in lost) / 36,
        sum(lost) / (36 * 24),
        escapes(y, rear) / 36 if rear else 0.0,
        (36 - min(escapes(y, p) for p in range(16, 25))) / 36,
        min(max(len(r) for r in runs), 6) / 6,
        sum(x[p] >= 2 for p in range(1, 7)) / 6,
        (closed / 6) ** 2 if x[25] else 0.0,
        sum(x[p] * (p - m) for p in range(m + 1, 26)) / 152,
    ]


def reference_3(x: list[int], y: list[int]) -> list[float]:
    """Encoding 3's figures of side x against y, straight from the definitions."""
    spare = [x[25]] + [x[p] - 2 if x[p] >= 2 else x[p] for p in range(1, 25)]
    made_points = [p for p in range(1, 25) if x[p] >= 2]
    ahead = [p for p in made_points if p >= 13]
    theirs = [q for q in range(1, 26) if y[q] > 0]
    m = 25 - max(theirs, default=0)
    return [
        sum((p - 1) * spare[p % 25] for p in range(1, 26)) / 100,
        max(made_points, default=0) / 24,
        (25 - min(ahead)) / 12 if ahead else 0.0,
        sum(x[p] * (p - 6) * escapes(y, p) for p in range(7, 26)) / 3600,
        sum(p * x[p] for p in range(1, m)) / 100,
        sum(x[p] >= 2 for p in range(19, 25)) / 6,
        sum(x[19:26]) / 15,
    ]


def figures(board: np.ndarray, flip: bool = False) -> np.ndarray:
    """Encoding 2's figures of ``board`` (side to act's, then its opponent's)."""
    x = encode(board, flips=flip, encoding=2)[0]
    assert x.shape == (N_INPUTS_OF[2],)
    return x[N_INPUTS:]


def figures_3(board: np.ndarray, flip: bool = False) -> np.ndarray:
    """The figures encoding 3 adds (side to act's, then its opponent's); its first inputs
    are encoding 2's, unchanged."""
    x = encode(board, flips=flip, encoding=3)[0]
    assert x.shape == (N_INPUTS_OF[3],) and N_INPUTS_OF[3] == N_INPUTS_OF[2] + N_EXTRA_3
    assert np.array_equal(x[: N_INPUTS_OF[2]], encode(board, flips=flip, encoding=2)[0])
    return x[N_INPUTS_OF[2] :]


def check(board: np.ndarray) -> None:
    me, them = sides(board)
    want = reference(me, them) + reference(them, me)
    np.testing.assert_allclose(figures(board), want, rtol=0, atol=1e-12)
    want_3 = reference_3(me, them) + reference_3(them, me)
    np.testing.assert_allclose(figures_3(board), want_3, rtol=0, atol=1e-12)


# -- boards ----------------------------------------------------------------------------------


def board_of(mine: dict[int, int], theirs: dict[int, int], bar: tuple[int, int] = (0, 0)):
    """A kernel board: ``mine`` by my points, ``theirs`` by *their* points; the rest off."""
    board = np.zeros(32, dtype=np.int8)
    for p, n in mine.items():
        board[p - 1] = n
    for q, n in theirs.items():
        assert board[24 - q] == 0
        board[24 - q] = -n
    board[24], board[25] = bar
    board[28] = 15 - sum(mine.values()) - bar[0]
    board[29] = 15 - sum(theirs.values()) - bar[1]
    return board


@st.composite
def random_boards(draw: st.DrawFn) -> np.ndarray:
    """Fifteen checkers a side, each on a point, the bar or off (points never shared)."""
    board = np.zeros(32, dtype=np.int8)
    for side, sign in ((0, 1), (1, -1)):
        spots = draw(st.lists(st.integers(0, 27), min_size=15, max_size=15))
        for s in spots:
            if s < 24:
                p = s if side == 0 else 23 - s
                if board[p] * sign < 0:
                    s = 24  # taken by the other side: to the bar
                else:
                    board[p] += sign
                    continue
            board[24 + side if s < 26 else 28 + side] += 1
    return board


def test_the_starting_position_by_hand() -> None:
    f = figures(to_board(standard_start()))
    mine = dict(zip(NAMES, f[:PER_SIDE], strict=True))
    assert f[PER_SIDE:].tolist() == f[:PER_SIDE].tolist()  # the same for both sides
    assert mine["shots"] == mine["pip_loss"] == 0  # no blots
    # the back checkers on 24 move d1 + d2 unless landing on the opponent's 6, 8 or 13
    # point (my 19, 17, 12): 5 pips (4-1, 3-2), 7 (6-1, 5-2, 4-3), 12 (6-6) are 11 rolls;
    # and 5-5 lands on 14 only through 19: 36 - 11 - 1 = 24
    assert mine["back_escapes"] == pytest.approx(24 / 36)
    assert escapes(sides(to_board(standard_start()))[1], 24) == 24
    assert mine["prime"] == 1 / 6 and mine["home"] == 1 / 6
    assert mine["dance"] == 0 and mine["break_contact"] == 1.0  # 152 pips by definition
    g = figures_3(to_board(standard_start()))
    assert g[PER_SIDE_3:].tolist() == g[:PER_SIDE_3].tolist()
    mine_3 = dict(zip(NAMES_3, g[:PER_SIDE_3], strict=True))
    # spares: three on the 13 (12 pips each), one on the 8 (7), three on the 6 (5 each)
    assert mine_3["timing"] == pytest.approx((3 * 12 + 7 + 3 * 5) / 100)
    assert mine_3["back_anchor"] == 1.0  # the 24-point
    assert mine_3["forward_anchor"] == 1.0  # the midpoint, 13: the most advanced there is
    assert mine_3["free_pips"] == 0  # no checker is past the opponent's back checkers
    assert mine_3["anchors"] == 1 / 6 and mine_3["back_checkers"] == 2 / 15
    # outside home: the 24 (18 pips from home, 24 escaping rolls), 13 (7) and 8 (2)
    them = sides(to_board(standard_start()))[1]
    assert mine_3["mobility"] == pytest.approx(
        (2 * 18 * 24 + 5 * 7 * escapes(them, 13) + 3 * 2 * escapes(them, 8)) / 3600
    )
    check(to_board(standard_start()))


def test_a_lone_blot_in_direct_range() -> None:
    # my blot on my 10 (their 15); one of theirs on their 19, 4 pips away, nothing between
    board = board_of({10: 1, 1: 5}, {19: 1})
    f = figures(board)
    # hitting 4 pips: any 4 (11 rolls), 3-1 (2), 2-2 (1), 1-1 (1): 15 rolls, 15 pips lost
    assert f[0] == pytest.approx(15 / 36)
    assert f[1] == pytest.approx(15 * 15 / (36 * 24))
    check(board)


def test_a_made_point_blocks_the_indirect_shot() -> None:
    # my blot on my 16 (their 9), theirs on their 17: 8 pips; I hold my 12 and 14 (their
    # 13 and 11)
    board = board_of({16: 1, 12: 2, 14: 2, 1: 5}, {17: 1})
    me, them = sides(board)
    assert most_pips_lost(me, them, (6, 2)) == 9  # through their 15 (open), not 11
    assert most_pips_lost(me, them, (5, 3)) == 9  # through their 12 or 14
    assert most_pips_lost(me, them, (4, 4, 4, 4)) == 0  # through their 13: made
    assert most_pips_lost(me, them, (2, 2, 2, 2)) == 0  # 15, then 13: made
    f = figures(board)
    # 6-2, 5-3 (2 each), 8 pips; nothing else reaches: 4 rolls
    assert f[0] == pytest.approx(4 / 36)
    check(board)


def test_entering_from_the_bar_comes_first() -> None:
    # my blots on my 3 (their 22) and my 12 (their 13); theirs on their 17, 4 pips from 13
    board = board_of({3: 1, 12: 1, 6: 3}, {17: 2}, bar=(0, 2))
    me, them = sides(board)
    # two on the bar: both dice enter; they hit only by entering on my 3
    assert most_pips_lost(me, them, (3, 1)) == 22
    assert most_pips_lost(me, them, (4, 1)) == 0
    check(board)
    # one on the bar: it enters with the 1 and the 4 is free to hit on my 12
    board = board_of({3: 1, 12: 1, 6: 3}, {17: 2}, bar=(0, 1))
    me, them = sides(board)
    assert most_pips_lost(me, them, (4, 1)) == 13
    # 6-4: the 6 cannot enter (my 6 is made), so the 4 enters and the 6 is free: no hit
    assert most_pips_lost(me, them, (6, 4)) == 0
    check(board)


def test_a_closed_board_makes_dancing_certain() -> None:
    board = board_of({8: 1, 13: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, bar=(1, 0))
    f = figures(board)
    assert f[6] == 1.0  # I dance with every roll
    assert f[2] == 0.0  # ... and my checker on the bar moves nowhere
    assert f[PER_SIDE + 4] == 1.0 and f[PER_SIDE + 5] == 1.0  # their six-prime, home
    check(board)


def test_acey_deucey_unentered_checkers_count_like_the_bar() -> None:
    board = to_board(off_board_start())
    f = figures(board)
    assert f.shape == (N_EXTRA,)
    assert f[2] == 1.0 and f[7] == pytest.approx(15 * 25 / 152)
    check(board)


@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_game_positions_match_the_reference(variant: str) -> None:
    for board in sample_boards(variant, 7)[::4]:
        check(board)


@settings(max_examples=150, deadline=None)
@given(random_boards())
def test_random_positions_match_the_reference(board: np.ndarray) -> None:
    check(board)


@settings(max_examples=40, deadline=None)
@given(random_boards(), st.integers(0, 1))
def test_flipped_board_gives_the_same_inputs(board: np.ndarray, pending: int) -> None:
    for encoding in (2, 3):
        assert np.array_equal(
            encode(board, flips=True, pendings=pending, encoding=encoding),
            encode(flip_board(board), pendings=pending, encoding=encoding),
        )
    # and the opponent's figures are the side to act's of the turned board
    f = figures(board)
    g = figures(flip_board(board))
    assert np.array_equal(f[:PER_SIDE], g[PER_SIDE:])
    assert np.array_equal(f[PER_SIDE:], g[:PER_SIDE])
    f3 = figures_3(board)
    g3 = figures_3(flip_board(board))
    assert np.array_equal(f3[:PER_SIDE_3], g3[PER_SIDE_3:])
    assert np.array_equal(f3[PER_SIDE_3:], g3[:PER_SIDE_3])
