"""Kelly's criterion for In-Between's bets: the growth-optimal fraction and whole stake.

A bet's outcomes are signed multiples ``m`` of the stake with their chances ``p``: ``+1``
inside, ``-1`` outside and ``-2`` on a post under the guide; Red Dog's ``+5`` ... ``+1``
against ``-1``; ``0`` a push.  Staking ``s`` chips of a balance ``W`` ends with ``W + m*s``.
Kelly's criterion stakes to maximise the expected logarithm of that balance (J. L. Kelly,
"A New Interpretation of Information Rate", Bell System Technical Journal 35, 1956).

- :func:`kelly_fraction`: the optimal fraction ``f*`` of the balance, the one root in
  ``(0, 1/worst loss)`` of ``sum(p*m / (1 + m*f)) = 0`` (the log's derivative).  Exact (a
  ``Fraction``) where it is rational: always when one multiple wins and one loses (Red
  Dog's spreads: ``f* = (a*p - b*q) / (a*b*(p + q))`` for ``+a`` at ``p`` and ``-b`` at
  ``q``), and for three multiples (the guide's +1/-1/-2, a quadratic) when the
  discriminant is a square; otherwise a float found by bisection.
- :func:`kelly_stake`: the legal whole stake (chips are whole) of highest expected log
  balance, compared exactly: ``prod((W + m*s) ** n_m)`` over the outcomes' whole weights
  ``n_m``, big integers, no rounding.  The expected log is concave in ``s``, so the
  whole optimum is the floor of ``f* * W`` or the next stake up; the limits clamp it, and a
  pass (when allowed) is taken unless the stake grows the log strictly more.  Ties go to
  the smaller stake.

The ``kelly`` strategy (``strategies.KellyBot``) and the coach (``odds``) both call these.

>>> kelly_fraction({1: 32, -1: 12, -2: 6})  # guide: 32 inside, 12 outside, 6 posts
(None, 0.10951650607479949)
>>> kelly_fraction({1: 28, -1: 10, -2: 6})[0]  # a square discriminant: exact
Fraction(1, 11)
>>> kelly_fraction({5: 4, -1: 46})  # Red Dog, spread 1, one deck: a losing bet
(Fraction(0, 1), 0.0)
>>> kelly_fraction({1: 32, -1: 18})[0]  # 32 winning cards of 50 at even money
Fraction(7, 25)
>>> kelly_stake({1: 32, -1: 18}, 100, low=1, high=50)
28
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Kelly", "kelly", "kelly_fraction", "kelly_stake"]

#: Outcomes: each signed multiple of the stake mapped to its chance or its weight (cards).
Outcomes = Mapping[int, int | Fraction]


@dataclass(frozen=True)
class Kelly:
    """Kelly's answer for one bet and one balance.

    ``fraction`` is ``f*`` as a float (``math.inf`` when no outcome loses, 0 when the bet is
    not favourable), ``exact`` the same as a ``Fraction`` where it is rational (else None),
    ``stake`` the legal whole stake of highest expected log balance (0: pass) and
    ``wealth`` the balance it grows.
    """

    fraction: float
    exact: Fraction | None
    stake: int
    wealth: int


def _weights(outcomes: Outcomes) -> dict[int, int]:
    """Whole weights proportional to the chances (zero chances dropped)."""
    chances = {m: Fraction(w) for m, w in outcomes.items() if w}
    if any(w < 0 for w in chances.values()):
        raise ValueError("an outcome's chance cannot be negative")
    scale = math.lcm(*(w.denominator for w in chances.values())) if chances else 1
    return {m: int(w * scale) for m, w in chances.items()}


def _poly_mul(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _rational_sqrt(value: Fraction) -> Fraction | None:
    """The exact square root of ``value`` when it is a rational square, else None."""
    if value < 0:
        return None
    n, d = value.numerator, value.denominator
    rn, rd = math.isqrt(n), math.isqrt(d)
    return Fraction(rn, rd) if rn * rn == n and rd * rd == d else None


def kelly_fraction(outcomes: Outcomes) -> tuple[Fraction | None, float]:
    """``(exact f* or None, f* as a float)`` for the bet's outcomes (see the module).

    0 when the bet is not favourable; ``(None, inf)`` when no outcome loses (every chip
    allowed is the answer).
    """
    weights = {m: n for m, n in _weights(outcomes).items() if m}
    if sum(m * n for m, n in weights.items()) <= 0:
        return Fraction(0), 0.0
    worst = min(weights)
    if worst >= 0:
        return None, math.inf
    # The derivative's numerator: sum_m n_m m prod_{m' != m} (1 + m' f), a polynomial.
    poly = [Fraction(0)]
    for m, n in weights.items():
        term = [Fraction(n * m)]
        for other in weights:
            if other != m:
                term = _poly_mul(term, [Fraction(1), Fraction(other)])
        poly = [
            (poly[i] if i < len(poly) else Fraction(0)) + (term[i] if i < len(term) else 0)
            for i in range(max(len(poly), len(term)))
        ]
    while len(poly) > 1 and poly[-1] == 0:
        poly.pop()
    top = Fraction(1, -worst)
    if len(poly) == 2:
        root = -poly[0] / poly[1]
        return root, float(root)
    if len(poly) == 3:
        c, b, a = poly
        disc = b * b - 4 * a * c
        exact = _rational_sqrt(disc)
        if exact is not None:
            for root in ((-b - exact) / (2 * a), (-b + exact) / (2 * a)):
                if 0 < root < top:
                    return root, float(root)
    return None, _bisect(weights, float(top))


def _bisect(weights: Mapping[int, int], top: float) -> float:
    """The root of the log's derivative in ``(0, top)`` (it decreases there), in floats."""
    lo, hi = 0.0, top
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if sum(n * m / (1 + m * mid) for m, n in weights.items()) > 0:
            lo = mid
        else:
            hi = mid
    return lo


def _growth(weights: Mapping[int, int], wealth: int, stake: int) -> int | None:
    """``prod((W + m*s) ** n)``, monotone in the expected log balance; None: ruin possible."""
    product = 1
    for m, n in weights.items():
        end = wealth + m * stake
        if end <= 0:
            return None
        product *= end**n
    return product


def _better(a: int | None, b: int | None) -> bool:
    """Whether growth ``a`` is strictly better than ``b`` (None is ruin, the worst)."""
    return a is not None and (b is None or a > b)


def kelly_stake(
    outcomes: Outcomes,
    wealth: int,
    *,
    low: int = 1,
    high: int | None = None,
    can_pass: bool = True,
    pass_cost: int = 0,
) -> int:
    """The legal whole stake of highest expected log balance (see the module).

    ``wealth`` is the balance the stake is part of; the legal stakes are ``low..high``
    (``high`` defaults to ``wealth``) and, with ``can_pass``, a pass (0) that costs
    ``pass_cost`` (an ante forfeited).  A forced bet whose every stake risks ruin takes the
    smallest.

    >>> kelly_stake({1: 32, -1: 12, -2: 6}, 100)  # f* x 100 = 10.95: 11 beats 10
    11
    >>> kelly_stake({1: 28, -1: 10, -2: 6}, 100)  # f* x 100 = 9.09: 9 beats 10
    9
    >>> kelly_stake({1: 1, -1: 1}, 100)
    0
    """
    high = wealth if high is None else high
    weights = _weights(outcomes)
    total = sum(weights.values())
    pass_growth = (wealth - pass_cost) ** total if wealth - pass_cost > 0 else None
    if high < low:
        return 0
    if wealth <= 0 or total == 0:
        return 0 if can_pass else low
    losses = [m for m in weights if m < 0]
    ev = sum(m * n for m, n in weights.items())
    if ev <= 0:
        best = 0
    elif not losses:
        best = high
    else:
        top = (wealth - 1) // -min(losses)  # the largest stake that cannot ruin

        def grows(s: int) -> bool:
            slope = sum(
                (Fraction(n * m, wealth + m * s) for m, n in weights.items() if m), Fraction(0)
            )
            return slope >= 0

        lo, hi = 0, top  # grows(0) holds (ev > 0): the largest stake where the log still grows
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if grows(mid):
                lo = mid
            else:
                hi = mid - 1
        best = lo
        if lo < top and _better(_growth(weights, wealth, lo + 1), _growth(weights, wealth, lo)):
            best = lo + 1
    stake = min(max(best, low), high)
    if can_pass and not _better(_growth(weights, wealth, stake), pass_growth):
        return 0
    return stake


def kelly(
    outcomes: Outcomes,
    wealth: int,
    *,
    low: int = 1,
    high: int | None = None,
    can_pass: bool = True,
    pass_cost: int = 0,
) -> Kelly:
    """:func:`kelly_fraction` and :func:`kelly_stake` together, as a :class:`Kelly`."""
    exact, approx = kelly_fraction(outcomes)
    stake = kelly_stake(
        outcomes, wealth, low=low, high=high, can_pass=can_pass, pass_cost=pass_cost
    )
    return Kelly(approx, exact, stake, wealth)
