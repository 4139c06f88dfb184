"""The sampler of positions of a side hit late (aceydeucey.backgammon.crashed)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon import pubeval
from aceydeucey.backgammon.board import CHECKERS
from aceydeucey.backgammon.crashed import crashed_position, crashed_positions


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


def test_crashed_positions_turns_every_other_draw_to_the_other_side() -> None:
    rng = np.random.default_rng(3)
    drawn = [crashed_position(rng) for _ in range(6)]
    got = crashed_positions(6, 3)
    assert got[0::2] == drawn[0::2]
    assert got[1::2] == [p.flip() for p in drawn[1::2]]
    assert all(p.off[1] >= 4 and p.off[0] <= 3 for p in got[1::2])  # the hit side waits
