"""Positions of a side hit late: many checkers off, one or two on the bar or back.

A 0-ply network trained by self-play seldom plays a back game, so it seldom sees the
positions one leads to: a side that has borne off most of its checkers is hit, and
stands on the bar against a made home board while the other side still has all its
checkers to bring home.  The networks misread them (docs/bots.md, "A runaway cube"):
they rate the side with the checkers off far too high, and a cube decision built on
that rating redoubles into a take.  :func:`crashed_position` draws such positions for
training (``scripts/lookahead_targets.py crashed``) and for the cube benchmark
(``benchmarks/bench_cube.py``), both through :func:`crashed_positions`.
"""

from __future__ import annotations

from typing import Any

from aceydeucey.backgammon.board import CHECKERS, Position

__all__ = ["crashed_position", "crashed_positions"]

_OUTER = (13, 14, 15, 16, 17, 18, 18, 17, 16, 10, 8)  # where O's other checkers stand


def crashed_position(rng: Any) -> Position:
    """A random position of a side hit late (X), seen from X's side, X on roll.

    X has 4 to 14 checkers off, up to two on the bar and up to three back in the
    opponent's home board (at least one of the two), the rest in its own home board.
    The opponent (O) has two to six points of its home board made (two or three checkers
    each), in two draws of five an anchor of two in X's home board, the rest in its
    outer boards, mostly near home, and in one draw of five one to three checkers off.
    ``rng`` is a :class:`numpy.random.Generator`; ``position.flip()`` gives the same
    position with O on roll.
    """
    while True:
        off = int(rng.integers(4, CHECKERS))
        rest = CHECKERS - off
        bar = int(rng.choice([0, 1, 1, 1, 2])) if rest > 1 else 1
        back = int(rng.integers(0 if bar else 1, min(rest - bar, 3) + 1)) if rest > bar else 0
        made = int(rng.integers(2, 7))
        opp: dict[int, int] = {
            int(p): 2 + int(rng.random() < 0.25)
            for p in rng.choice(range(19, 25), made, replace=False)
        }
        free = [p for p in range(19, 25) if p not in opp]
        if back and not free:
            continue
        own: dict[int, int] = {}
        for _ in range(back):
            p = int(rng.choice(free))
            own[p] = own.get(p, 0) + 1
        anchor = int(rng.integers(1, 7)) if rng.random() < 0.4 else 0
        for _ in range(rest - bar - back):
            p = int(rng.choice([q for q in range(1, 7) if q != anchor]))
            own[p] = own.get(p, 0) + 1
        if anchor:
            opp[anchor] = 2
        left = CHECKERS - sum(opp.values())
        if rng.random() < 0.2:
            left -= int(rng.integers(1, 4))
        if left < 0:
            continue
        for _ in range(left):
            p = int(rng.choice(_OUTER))
            opp[p] = opp.get(p, 0) + 1
        return Position.build(own, opp, bar=(bar, 0))


def crashed_positions(count: int, seed: int) -> list[Position]:
    """``count`` draws of :func:`crashed_position` from ``seed``, every other one flipped
    (the other side on roll), so both sides of such a position are seen."""
    import numpy as np

    rng = np.random.default_rng(seed)
    drawn = [crashed_position(rng) for _ in range(count)]
    return [p.flip() if i % 2 else p for i, p in enumerate(drawn)]
