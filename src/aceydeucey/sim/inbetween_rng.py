"""The In-Between kernels' generator and shared compiled helpers (see ``sim.inbetween``).

SplitMix64 (Steele, Lea and Flood 2014), one state per session, and exact draws below a
bound by Lemire's multiply-and-reject on 32-bit words; ``_kelly`` is
``inbetween.strategies.kelly_stake`` for the three outcomes of a guide bet, in integers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

#: The kernels count in int64 and stop a session whose pot or a seat's chips (or debt)
#: pass this: ``stake_cap="none"`` lets debts grow the pot without bound (a lost stake of
#: the whole pot doubles it, a lost post multiplies it by ``post_multiplier + 1``).  Below
#: it every product the kernels form fits in 64 bits (:func:`_kelly`'s exact test: at most
#: 8,320 times the square of one's chips, with 8 decks and a post multiplier of 10) and
#: every bound of a draw in 32 bits.
CHIP_LIMIT = 2**24

# -- the generator ------------------------------------------------------------------------
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_STREAM = np.uint64(0xD1B54A32D192ED03)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)


@njit(inline="always")
def _mix(z: np.uint64) -> np.uint64:  # pragma: no cover - compiled
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(inline="always")
def _below(state: np.uint64, bound: int) -> tuple[np.uint64, int]:  # pragma: no cover
    """(next state, a uniform integer in ``0..bound-1``) for ``1 <= bound < 2**63``.

    Below ``2**32``: Lemire's exact multiply-and-reject on 32-bit words.  That method
    holds only there: for a larger bound the product overflows and the rejection
    threshold can exceed every 32-bit word, so the loop would never end.  Larger bounds
    take :func:`_below_wide` instead.
    """
    k = np.uint64(bound)
    if k > _MASK32:
        return _below_wide(state, k)
    state = state + _GOLDEN
    m = (_mix(state) >> _S32) * k
    low = m & _MASK32
    if low < k:
        floor = (_TWO32 - k) % k
        while low < floor:
            state = state + _GOLDEN
            m = (_mix(state) >> _S32) * k
            low = m & _MASK32
    return state, int(np.int64(m >> _S32))


@njit(cache=True)
def _below_wide(state: np.uint64, k: np.uint64) -> tuple[np.uint64, int]:  # pragma: no cover
    """A draw below ``k`` (``2**32 <= k < 2**63``): a 64-bit word masked to the bits of
    ``k - 1``, rejected while it is ``k`` or more (exact; each try succeeds with chance
    above one half)."""
    mask = k - np.uint64(1)
    for shift in (1, 2, 4, 8, 16, 32):
        mask = mask | (mask >> np.uint64(shift))
    while True:
        state = state + _GOLDEN
        x = _mix(state) & mask
        if x < k:
            return state, int(np.int64(x))


@njit(inline="always")
def _seed(seed: np.uint64, g: int) -> np.uint64:  # pragma: no cover - compiled
    return _mix(_mix(seed) + np.uint64(g) * _STREAM)


@njit(inline="always")
def _kelly(ins: int, out: int, post: int, k: int, c: int) -> int:  # pragma: no cover
    """``strategies.kelly_stake`` for outcomes +1 (ins), -1 (out), -k (post) on ``c`` chips."""
    if c <= 0:
        return 0
    if out == 0 and post == 0:
        return c * 1000000
    top = (c - 1) // k if post > 0 else c - 1
    lo = 0
    hi = top
    while lo < hi:
        s = (lo + hi + 1) // 2
        lhs = ins * (c - s) * (c - k * s)
        rhs = out * (c + s) * (c - k * s) + k * post * (c + s) * (c - s)
        if lhs >= rhs:
            lo = s
        else:
            hi = s - 1
    if lo < top:  # the next stake up may grow the expected log more (it is concave)
        gain = ins * np.log((c + lo + 1) / (c + lo)) + out * np.log((c - lo - 1) / (c - lo))
        if post > 0:
            gain += post * np.log((c - k * lo - k) / (c - k * lo))
        if gain > 0:
            lo += 1
    return lo


@njit(inline="always")
def _grows(ins: int, out: int, post: int, k: int, c: int, s: int) -> bool:  # pragma: no cover
    """Whether staking ``s`` grows the expected log of ``c`` chips more than a pass."""
    if (c - k * s <= 0 and post > 0) or (c - s <= 0 and out > 0):
        return False
    g = ins * np.log((c + s) / c) + out * np.log((c - s) / c)
    if post > 0:
        g += post * np.log((c - k * s) / c)
    return bool(g > 0)
