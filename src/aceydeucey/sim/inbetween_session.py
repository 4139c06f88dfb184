"""The ``session`` strategy's search: the stake that best keeps one ahead at the end.

In a guide session the winner holds the most chips at the end.  The strategy does not
maximise its expected chips, as ``ev`` does.  At each decision it values every candidate
(a pass, and up to ``STAKES`` stakes spread over the allowed range) by its chance of
finishing with the highest balance:

* the third card's three outcomes (inside, outside, a post) come with their exact chances
  over the stock (the cards unseen, all face up in a guide session);
* the chance of winning after each outcome is estimated by ``ROLLOUTS`` playouts of the
  rest of the session.  In a playout every seat, this one included, plays ``ev``, and the
  unseen cards are shuffled again: the search never reads the deck's order.  Every
  candidate is valued on the same playouts (common random numbers), so the comparison
  between candidates is much less noisy than each value.

This is one step of policy improvement over ``ev`` by rollouts, as Tesauro and Galperin
did for backgammon ("On-line policy improvement using Monte-Carlo search", NIPS 1996).
Two approximations: the playouts do not remove the third card from the stock, and the
opponents are assumed to play ``ev``.  The playouts' seed is a function of the decision's
public facts, so the kernel and the agent (``sim.inbetween_bots.SessionBot``) decide
alike.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from aceydeucey.sim.inbetween_rng import CHIP_LIMIT, _below, _mix, _seed

__all__ = ["ROLLOUTS", "STAKES", "session_stake"]

#: Playouts per decision (each values every candidate).
ROLLOUTS = 64
#: Most stakes considered besides a pass (evenly spread from the least to the most).
STAKES = 6

IntArray = npt.NDArray[np.int64]
# P (the rules, as ints): players, ante, ante_every, rounds, decks, post multiple, cap,
# min_ante, first_limit
_N, _ANTE, _EVERY, _ROUNDS, _DECKS, _K, _CAP, _MINANTE, _FIRST = range(9)


@njit(inline="always")
def _limits(
    p: IntArray, limits: IntArray, rnd: int, pot: int, have: int
) -> tuple[int, int]:  # pragma: no cover - compiled
    low = p[_ANTE] if p[_MINANTE] else 1
    high = pot
    if rnd == 1 and p[_FIRST] == 1:
        high = min(high, pot // 2)
    elif rnd == 1 and p[_FIRST] == 2:
        high = min(high, p[_ANTE])
    if rnd <= limits.shape[0]:
        high = min(high, limits[rnd - 1])
    if p[_CAP] == 0:
        high = min(high, max(have, 0) // p[_K])
    elif p[_CAP] == 1:
        high = min(high, max(have, 0))
    return max(low, 1), high


@njit(inline="always")
def _ev_stake(
    cnt: IntArray, total: int, lo: int, hi: int, k: int, low: int, high: int
) -> int:  # pragma: no cover - compiled
    if high < low:
        return 0
    ins = 0
    for r in range(lo + 1, hi):
        ins += cnt[r]
    post = cnt[lo] if lo == hi else cnt[lo] + cnt[hi]
    out = total - ins - post
    return high if ins - out - k * post > 0 else 0


@njit(cache=True)
def _finish(  # pragma: no cover - compiled
    state: np.uint64,
    chips: IntArray,
    pot: int,
    rnd: int,
    dealer: int,
    k0: int,
    first: IntArray,
    cnt: IntArray,
    deck: IntArray,
    p: IntArray,
    limits: IntArray,
) -> int:
    """Play the session on from hand ``k0`` of round ``rnd`` with every seat ``ev``;
    ``chips`` ends as the final chips.  ``cnt``: the stock by rank (changed)."""
    n = p[_N]
    k = p[_K]
    size = 52 * p[_DECKS]
    m = 0
    for r in range(2, 15):
        for _ in range(cnt[r]):
            deck[m] = r
            m += 1
    pos = 0
    start = k0
    while True:
        for kk in range(start, n):
            seat = (dealer + 1 + kk) % n
            a = first[seat]
            state, j = _below(state, m - pos)
            j += pos
            c = deck[j]
            deck[j] = deck[pos]
            deck[pos] = c
            pos += 1
            cnt[c] -= 1
            lo = min(a, c)
            hi = max(a, c)
            low, high = _limits(p, limits, rnd, pot, chips[seat])
            stake = _ev_stake(cnt, m - pos, lo, hi, k, low, high)
            if stake == 0:
                continue
            state, j = _below(state, m - pos)
            j += pos
            t = deck[j]
            deck[j] = deck[pos]
            deck[pos] = t
            pos += 1
            cnt[t] -= 1
            mult = 1 if lo < t < hi else (-k if t in (lo, hi) else -1)
            chips[seat] += mult * stake
            pot -= mult * stake
            if pot <= 0 or pot > CHIP_LIMIT or abs(chips[seat]) > CHIP_LIMIT:
                return pot  # the end, or the simulator's limit: the playout stops there
        dealer = (dealer + 1) % n
        if rnd >= p[_ROUNDS]:
            return pot
        ante = p[_ANTE]
        if ante > 0 and (p[_EVERY] or rnd == 0):
            for s in range(n):
                if chips[s] < ante:
                    return pot
            for s in range(n):
                chips[s] -= ante
            pot += ante * n
        rnd += 1
        m = size
        for i in range(size):
            deck[i] = i // (4 * p[_DECKS]) + 2
        for r in range(2, 15):
            cnt[r] = 4 * p[_DECKS]
        pos = 0
        for kk in range(n):
            seat = (dealer + 1 + kk) % n
            state, j = _below(state, m - pos)
            j += pos
            c = deck[j]
            deck[j] = deck[pos]
            deck[pos] = c
            pos += 1  # noqa: SIM113 - compiled: no enumerate
            cnt[c] -= 1
            first[seat] = c
        start = 0


@njit(inline="always")
def _credit(chips: IntArray, me: int) -> float:  # pragma: no cover - compiled
    best = chips[0]
    for c in chips:
        best = max(best, c)
    if chips[me] < best:
        return 0.0
    ties = 0
    for c in chips:
        ties += c == best
    return 1.0 / ties


@njit(cache=True)
def _session_stake(  # pragma: no cover - compiled
    chips: IntArray,
    pot: int,
    rnd: int,
    dealer: int,
    k: int,
    me: int,
    first: IntArray,
    cnt: IntArray,
    lo: int,
    hi: int,
    low: int,
    high: int,
    p: IntArray,
    limits: IntArray,
) -> int:
    """The stake (0: a pass) of the seat ``me``, ``k``-th in the order of round ``rnd``,
    on posts ``lo``-``hi``, with the stock ``cnt`` (by rank)."""
    if high < low:
        return 0
    n = p[_N]
    mult_post = p[_K]
    span = high - low + 1
    count = min(span, STAKES)
    stakes = np.empty(count, np.int64)
    for i in range(count):
        stakes[i] = low + (span - 1) * i // max(count - 1, 1) if count > 1 else high
    total = 0
    for r in range(2, 15):
        total += cnt[r]
    ins = 0
    for r in range(lo + 1, hi):
        ins += cnt[r]
    post = cnt[lo] if lo == hi else cnt[lo] + cnt[hi]
    out = total - ins - post
    chances = np.array([ins / total, out / total, post / total])
    multiples = np.array([1, -1, -mult_post])
    seed = np.uint64(rnd * 1000003 + k * 10007 + pot * 101 + lo * 17 + hi)
    seed = _mix(seed + np.uint64(chips[me] * 7919 + me))
    values = np.zeros(count + 1)
    work = np.empty(n, np.int64)
    wcnt = np.empty(15, np.int64)
    wfirst = np.empty(n, np.int64)
    deck = np.empty(52 * p[_DECKS], np.int64)
    for j in range(ROLLOUTS):
        rs = _seed(seed, j)
        work[:] = chips
        wcnt[:] = cnt
        wfirst[:] = first
        _finish(rs, work, pot, rnd, dealer, k + 1, wfirst, wcnt, deck, p, limits)
        values[0] += _credit(work, me)
        for i in range(count):
            s = stakes[i]
            for o in range(3):
                if chances[o] == 0.0:
                    continue
                work[:] = chips
                work[me] += multiples[o] * s
                left = pot - multiples[o] * s
                if left > 0:
                    wcnt[:] = cnt
                    wfirst[:] = first
                    _finish(rs, work, left, rnd, dealer, k + 1, wfirst, wcnt, deck, p, limits)
                values[1 + i] += chances[o] * _credit(work, me)
    best = 0
    for i in range(1, count + 1):
        if values[i] > values[best] + 1e-12:
            best = i
    return 0 if best == 0 else int(stakes[best - 1])


def session_stake(
    chips: IntArray,
    pot: int,
    rnd: int,
    dealer: int,
    k: int,
    me: int,
    first: IntArray,
    cnt: IntArray,
    posts: tuple[int, int],
    stakes: tuple[int, int],
    params: IntArray,
    limits: IntArray,
) -> int:
    """The ``session`` decision from Python (the agent): a stake, or 0 for a pass."""
    lo, hi = min(posts), max(posts)
    return int(
        _session_stake(
            chips, pot, rnd, dealer, k, me, first, cnt, lo, hi, stakes[0], stakes[1], params, limits
        )
    )
