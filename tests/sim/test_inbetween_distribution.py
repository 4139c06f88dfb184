"""The simulator and the reference engine agree in distribution (the random strategy too).

The engine plays a few hundred sessions through the core ``Table`` (chance from
``Seeded``, the agents of ``inbetween.bots`` and ``inbetween.strategies``); the simulator
plays many more with its own generator.  Means must agree within four combined standard
errors, and the sessions' outcome categories (how the session ended, which strategy won)
pass a chi-square test of homogeneity.  Seeds are fixed, so the test is deterministic.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import ENDINGS, STRATEGY_NAMES, play_sessions
from tests.sim.engine import EngineSession, play

ENGINE_SESSIONS = 800
SIM_SESSIONS = 200_000
STRATEGIES = ("random", "ev", "kelly", "cautious")


def chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution (Wilson-Hilferty's normal approximation)."""
    if df <= 0:
        return 1.0
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def homogeneity(a: np.ndarray, b: np.ndarray) -> float:
    """The p-value of a chi-square test that counts ``a`` and ``b`` share one distribution."""
    keep = (a + b) > 0
    table = np.vstack([a[keep], b[keep]]).astype(float)
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / table.sum()
    stat = float(((table - expected) ** 2 / expected).sum())
    return chi2_sf(stat, table.shape[1] - 1)


def close(a: np.ndarray, b: np.ndarray, sigmas: float = 4.0) -> bool:
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    return abs(a.mean() - b.mean()) <= sigmas * se + 1e-12


def category(chips: np.ndarray, seat_strategy: np.ndarray, ended: int) -> int:
    """One session's outcome: its ending and the winner's strategy (a tie: its own)."""
    best = np.flatnonzero(chips == chips.max())
    who = len(STRATEGIES) if best.size > 1 else int(seat_strategy[best[0]])
    return ended * (len(STRATEGIES) + 1) + who


@functools.cache
def engine_sessions() -> list[EngineSession]:
    rules = Rules.resolve(players=4)
    return [play(rules, STRATEGIES, g, seed=5) for g in range(ENGINE_SESSIONS)]


@pytest.mark.slow
def test_engine_and_simulator_agree_in_distribution() -> None:
    rules = Rules.resolve(players=4)
    n = rules.players
    sim = play_sessions(rules, STRATEGIES, SIM_SESSIONS, seed=11)
    engine = engine_sessions()
    e_chips = np.array([e.chips for e in engine])
    e_pot = np.array([e.pot for e in engine])
    e_hands = np.array([e.hands for e in engine])
    e_tally = np.array([e.tally for e in engine])
    e_seats = (np.arange(n)[None, :] + np.arange(ENGINE_SESSIONS)[:, None]) % n

    assert close(e_hands, sim.hands)
    e_bal = e_chips + e_pot[:, None] / n
    s_bal = sim.balances()
    for i, name in enumerate(STRATEGIES):
        assert name in STRATEGY_NAMES
        assert close(e_bal[e_seats == i], s_bal[sim.seat_strategy == i]), name
        for k in range(4):  # passes, inside, outside, post per seat-session
            assert close(e_tally[e_seats == i][:, k], sim.tally[sim.seat_strategy == i][:, k]), (
                name,
                k,
            )
    size = len(ENDINGS) * (len(STRATEGIES) + 1)
    e_cat = [category(e_chips[g], e_seats[g], engine[g].ended) for g in range(ENGINE_SESSIONS)]
    s_cat = [category(sim.chips[g], sim.seat_strategy[g], int(sim.ended[g])) for g in range(20_000)]
    p = homogeneity(np.bincount(e_cat, minlength=size), np.bincount(s_cat, minlength=size))
    assert p > 0.001, p


@pytest.mark.slow
def test_the_comparison_sees_a_rule_change() -> None:
    """The same comparison against a simulator playing other rules (posts cost 3) fails:
    the random seats' balances and bets tell the two apart."""
    n = 4
    other = play_sessions(Rules.resolve(players=n, post_multiplier=3), STRATEGIES, 50_000)
    engine = engine_sessions()
    e_chips = np.array([e.chips for e in engine])
    e_bal = e_chips + np.array([e.pot for e in engine])[:, None] / n
    e_seats = (np.arange(n)[None, :] + np.arange(ENGINE_SESSIONS)[:, None]) % n
    random = STRATEGIES.index("random")
    assert not close(e_bal[e_seats == random], other.balances()[other.seat_strategy == random])


def test_chi_square_detects_a_difference() -> None:
    """The homogeneity test is not vacuous: shifted counts fail it."""
    a = np.array([300, 200, 100])
    assert homogeneity(a, a * 50) > 0.5
    assert homogeneity(a, np.array([200, 200, 200]) * 50) < 1e-6


def test_random_strategy_is_uniform_over_the_legal_actions() -> None:
    """In the first hand of a two-seat guide session (pot 2, 100 chips) a random seat
    passes with chance 1/3 (its legal actions: pass, bet 1, bet 2)."""
    rules = Rules.resolve(players=2, rounds=1)
    sim = play_sessions(rules, ("random", "random"), 50_000, seed=3, rotate=False)
    first_seat = sim.tally[:, 1, :]  # seat 1 acts first (the dealer is seat 0)
    passed = first_seat[:, 0].mean()
    assert abs(passed - 1 / 3) < 4 * math.sqrt(2 / 9 / sim.sessions)
