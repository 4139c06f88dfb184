"""Bot duels through the contract (the training command's measurement)."""

from __future__ import annotations

from aceydeucey.sim.duel import DuelResult, duel


def test_duel_is_seeded_duplicate_and_counts_points() -> None:
    first = duel("classic", "greedy", "random", 3, seed=11, jobs=2)
    again = duel("classic", "greedy", "random", 3, seed=11, jobs=2)
    assert first == again and first.games == 6
    assert all(1 <= abs(p) <= 3 for p in first.points)
    assert first.wins == sum(p > 0 for p in first.points)
    # the same bot on both sides of duplicate dice: every pair cancels out
    mirror = duel("classic", "greedy", "greedy", 3, seed=11)
    assert all(a + b == 0 for a, b in zip(mirror.points[::2], mirror.points[1::2], strict=True))
    assert mirror.mean == 0 and mirror.stderr == 0


def test_stderr_comes_from_the_pairs() -> None:
    result = DuelResult((3, -1, 1, 1, -2, 0))
    # pair means 1, 1, -1: sample sd 1.1547, over sqrt(3)
    assert abs(result.stderr - 2 / 3) < 1e-12
    assert abs(result.mean - 1 / 3) < 1e-12
