"""The samplers of positions the networks misread (aceydeucey.backgammon.misread)."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon import pubeval
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.misread import KINDS, crashed_position, positions, prime_position


@settings(max_examples=200)
@given(st.integers(0, 2**32 - 1))
def test_every_draw_is_a_well_formed_late_hit(seed: int) -> None:
    position = crashed_position(np.random.default_rng(seed))
    position.validate()  # 15 checkers a side, 24 points
    assert 4 <= position.off[0] <= CHECKERS - 1
    back = sum(n for n in position.points[18:] if n > 0)
    assert position.bar[0] + back >= 1 and position.bar[0] <= 2 and back <= 3
    assert not pubeval.is_race(position)  # X must still come past O's checkers
    o_home = [-n for n in position.points[18:] if n < 0]
    assert 2 <= sum(n >= 2 for n in o_home) <= 6  # two to six points made
    assert position.off[1] <= 3 and position.bar[1] == 0
    own_home = sum(n for n in position.points[:6] if n > 0)
    assert own_home == CHECKERS - position.off[0] - position.bar[0] - back


def test_the_same_seed_draws_the_same_positions() -> None:
    def draw(seed: int) -> list[object]:
        rng = np.random.default_rng(seed)
        return [crashed_position(rng) for _ in range(20)]

    assert draw(5) == draw(5)
    assert draw(5) != draw(6)


def test_the_draws_cover_the_kinds_the_networks_misread() -> None:
    rng = np.random.default_rng(0)
    drawn = [crashed_position(rng) for _ in range(1_000)]
    assert {p.bar[0] for p in drawn} == {0, 1, 2}
    assert {p.off[0] for p in drawn} == set(range(4, CHECKERS))
    assert any(
        p.off[0] >= 12 and p.bar[0] and sum(n < -1 for n in p.points[18:]) >= 4 for p in drawn
    )
    assert any(any(n < 0 for n in p.points[:6]) for p in drawn)  # an anchor in X's board


def test_positions_turns_every_other_draw_to_the_other_side() -> None:
    rng = np.random.default_rng(3)
    drawn = [crashed_position(rng) for _ in range(6)]
    got = positions("crashed", 6, 3)
    assert got[0::2] == drawn[0::2]
    assert got[1::2] == [p.flip() for p in drawn[1::2]]
    assert all(p.off[1] >= 4 and p.off[0] <= 3 for p in got[1::2])  # the hit side waits


def _primes(position: Position, side: int) -> list[range]:
    """The runs of four or more points in a row that ``side`` (0: X, 1: O) holds with two
    checkers or more, in X's point numbers."""
    sign = 1 if side == 0 else -1
    held = [sign * n >= 2 for n in position.points]
    runs, start = [], None
    for i, h in enumerate([*held, False]):
        if h and start is None:
            start = i
        elif not h and start is not None:
            if i - start >= 4:
                runs.append(range(start + 1, i + 1))
            start = None
    return runs


@settings(max_examples=200)
@given(st.integers(0, 2**32 - 1))
@example(276702125)  # X's spares lengthen its prime to its 12-point
def test_every_draw_is_a_prime_against_a_prime_with_checkers_behind_each(seed: int) -> None:
    position = prime_position(np.random.default_rng(seed))
    position.validate()
    assert position.off == (0, 0) and position.bar[1] == 0
    # four points or more of each prime where it was drawn (spares may lengthen it)
    x_primes = [r for r in _primes(position, 0) if 2 <= r.start <= 8]
    o_primes = [r for r in _primes(position, 1) if 17 <= r.stop - 1 <= 24]
    assert x_primes and o_primes
    # behind O's prime: X's checkers above it, or on the bar; behind X's: O's below it
    o_top = max(r.stop - 1 for r in o_primes)
    x_bottom = min(r.start for r in x_primes)
    assert position.bar[0] + sum(n for n in position.points[o_top:] if n > 0) >= 1
    assert sum(-n for n in position.points[: x_bottom - 1] if n < 0) >= 1
    assert not pubeval.is_race(position)


def test_the_prime_draws_vary_in_length_and_timing() -> None:
    rng = np.random.default_rng(1)
    drawn = [prime_position(rng) for _ in range(500)]
    lengths = {max(len(r) for r in _primes(p, 0)) for p in drawn}
    assert {4, 5, 6} <= lengths
    pips = [p.pip_counts()[0] - p.pip_counts()[1] for p in drawn]
    assert min(pips) < -20 and max(pips) > 20  # either side may lead the race
    assert any(p.bar[0] for p in drawn)


def test_every_kind_draws_from_its_seed_alone() -> None:
    for kind in KINDS:
        assert positions(kind, 10, 4) == positions(kind, 10, 4)
        assert positions(kind, 10, 4) != positions(kind, 10, 5)
