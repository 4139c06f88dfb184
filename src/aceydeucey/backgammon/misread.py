"""Positions the 0-ply networks misread, drawn for training and for the cube benchmark.

Self-play seldom reaches some kinds of position, and a network trained by it reads them
badly (docs/bots.md, "A runaway cube" and "Prime against prime"):

- ``crashed``, a side hit late (:func:`crashed_position`): a side that has borne off most
  of its checkers is hit, and stands on the bar against a made home board while the
  other side still has all its checkers to bring home.  The networks rate the side with
  the checkers off far too high, and a cube decision built on that rating redoubles into
  a take.
- ``primes``, prime against prime (:func:`prime_position`): each side holds a prime of
  four to six points with one to three of the other's checkers behind it.  Who wins is a
  matter of timing (who must break their prime first), which a 0-ply network does not see.

:func:`positions` draws either kind, every other one with the other side on roll, for
``scripts/lookahead_targets.py misread`` (labels by rollouts) and
``benchmarks/bench_cube.py`` (the kinds ``crashed`` and ``primes``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aceydeucey.backgammon.board import CHECKERS, Position

__all__ = ["KINDS", "crashed_position", "positions", "prime_position"]

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


def prime_position(rng: Any) -> Position:
    """A random position of prime against prime, seen from X's side, X on roll.

    X holds a prime of four to six points (two or three checkers each) with its top on
    its 11-point or lower and its bottom on its 2-point or higher; one to three of O's
    checkers stand behind it, on X's points below the prime.  O holds the same kind of
    prime on X's 14- to 23-points, with one to three of X's checkers behind it (on X's
    points above it, one in eight of them on the bar).  Each side's other checkers stand
    anywhere it may go before the other's prime (X: below O's prime, O: above X's), so the
    timing varies: spares far back can wait, spares already home force a prime to break.
    ``rng`` is a :class:`numpy.random.Generator`.
    """
    while True:
        x_len, o_len = int(rng.integers(4, 7)), int(rng.integers(4, 7))
        x_low = int(rng.integers(2, 13 - x_len))  # the top on 11 or lower
        o_low = int(rng.integers(14, 25 - o_len))  # the top on 23 or lower
        own = {p: 2 + int(rng.random() < 0.3) for p in range(x_low, x_low + x_len)}
        opp = {p: 2 + int(rng.random() < 0.3) for p in range(o_low, o_low + o_len)}
        bar = 0
        for _ in range(int(rng.integers(1, 4))):  # X's checkers behind O's prime
            if rng.random() < 0.125:
                bar += 1
            else:
                p = int(rng.integers(o_low + o_len, 25))
                own[p] = own.get(p, 0) + 1
        for _ in range(int(rng.integers(1, 4))):  # O's behind X's
            p = int(rng.integers(1, x_low))
            opp[p] = opp.get(p, 0) + 1
        x_left = CHECKERS - sum(own.values()) - bar
        o_left = CHECKERS - sum(opp.values())
        if min(x_left, o_left) < 0:
            continue
        x_room = [p for p in range(1, o_low) if p not in opp]
        for _ in range(x_left):
            p = int(rng.choice(x_room))
            own[p] = own.get(p, 0) + 1
        o_room = [p for p in range(x_low + x_len, 25) if p not in own]
        for _ in range(o_left):
            p = int(rng.choice(o_room))
            opp[p] = opp.get(p, 0) + 1
        return Position.build(own, opp, bar=(bar, 0))


KINDS: dict[str, Callable[[Any], Position]] = {
    "crashed": crashed_position,
    "primes": prime_position,
}


def positions(kind: str, count: int, seed: int) -> list[Position]:
    """``count`` draws of the ``kind``'s sampler (a key of :data:`KINDS`) from ``seed``,
    every other one flipped (the other side on roll), so both sides of such a position
    are seen."""
    import numpy as np

    rng = np.random.default_rng(seed)
    drawn = [KINDS[kind](rng) for _ in range(count)]
    return [p.flip() if i % 2 else p for i, p in enumerate(drawn)]
