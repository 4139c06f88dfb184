"""Kelly's criterion (``inbetween.kelly``) against independent computations.

The whole stake is checked against a brute-force search over every legal stake of the
expected log balance in floats (``math.log``), the fraction against the closed forms
(the guide's quadratic, Red Dog's two outcomes) and the log's derivative; the ``kelly``
strategy against the same search over the cards it has not seen, counted by hand.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.cards import Card, deck
from aceydeucey.core import Seeded
from aceydeucey.inbetween.kelly import kelly, kelly_fraction, kelly_stake
from aceydeucey.inbetween.strategies import KellyBot


def log_growth(weights: dict[int, int], wealth: int, stake: int, pass_cost: int = 0) -> float:
    """Expected log of the balance after ``stake`` (0: a pass costing ``pass_cost``)."""
    total = sum(weights.values())
    if stake == 0:
        end = wealth - pass_cost
        return math.log(end) if end > 0 else -math.inf
    value = 0.0
    for m, n in weights.items():
        end = wealth + m * stake
        if n and end <= 0:
            return -math.inf
        if n:
            value += n / total * math.log(end)
    return value


outcome_weights = st.fixed_dictionaries(
    {"inside": st.integers(0, 60), "outside": st.integers(0, 60), "post": st.integers(0, 12)}
)


@settings(max_examples=300, deadline=None)
@given(
    counts=outcome_weights,
    post_cost=st.integers(1, 3),
    wealth=st.integers(1, 400),
    low=st.integers(1, 6),
    span=st.integers(0, 300),
    can_pass=st.booleans(),
    pass_cost=st.sampled_from([0, 0, 1]),
)
def test_the_stake_maximises_expected_log_balance_over_the_legal_stakes(
    counts: dict[str, int],
    post_cost: int,
    wealth: int,
    low: int,
    span: int,
    can_pass: bool,
    pass_cost: int,
) -> None:
    weights = {1: counts["inside"], -1: counts["outside"], -post_cost: counts["post"]}
    if post_cost == 1:
        weights = {1: counts["inside"], -1: counts["outside"] + counts["post"]}
    if not sum(weights.values()):
        return
    high = low + span
    stake = kelly_stake(weights, wealth, low=low, high=high, can_pass=can_pass, pass_cost=pass_cost)
    legal = ([0] if can_pass else []) + list(range(low, high + 1))
    assert stake in legal
    growth = {s: log_growth(weights, wealth, s, pass_cost) for s in legal}
    best = max(growth.values())
    if best == -math.inf:  # every legal stake can ruin: the smallest
        assert stake == min(legal)
        return
    assert growth[stake] >= best - 1e-12 * max(1.0, abs(best))


@settings(max_examples=200, deadline=None)
@given(counts=outcome_weights, chips=st.integers(1, 500))
@example(counts={"inside": 3, "outside": 1, "post": 0}, chips=10)  # f* = 1/2: 1 - 2 f* = 0
def test_the_guide_fraction_is_the_smaller_root_of_its_quadratic(
    counts: dict[str, int], chips: int
) -> None:
    """+1/-1/-2 at p, q, r: the log's derivative is 0 where 2f^2 + (q - 3p) f + ev = 0."""
    inside, outside, post = counts["inside"], counts["outside"], counts["post"]
    total = inside + outside + post
    if not total:
        return
    exact, fraction = kelly_fraction({1: inside, -1: outside, -2: post})
    p, q = Fraction(inside, total), Fraction(outside, total)
    ev = p - q - 2 * Fraction(post, total)
    if ev <= 0:
        assert (exact, fraction) == (0, 0.0)
        assert kelly_stake({1: inside, -1: outside, -2: post}, chips) == 0
        return
    if not outside and not post:
        assert fraction == math.inf and exact is None
        return
    if post:
        b = float(q - 3 * p)
        expected = (-b - math.sqrt(b * b - 8 * float(ev))) / 4
    else:
        expected = float(p - q)  # even money: f* = p - q
    assert math.isclose(fraction, expected, rel_tol=1e-9, abs_tol=1e-12)
    if exact is not None:  # exact only where it is: the derivative vanishes exactly there
        assert float(exact) == fraction
        slope = sum(
            Fraction(n * m) / (1 + m * exact)
            for m, n in {1: inside, -1: outside, -2: post}.items()
            if n  # an outcome that cannot happen adds nothing (and may sit at 1 + m f = 0)
        )
        assert slope == 0
    # the whole stake is the floor of f* x chips or the next one up (the log is concave)
    stake = kelly_stake({1: inside, -1: outside, -2: post}, chips)
    assert math.floor(fraction * chips - 1e-9) <= stake <= math.floor(fraction * chips) + 1


@given(
    pays=st.integers(1, 11),
    win=st.integers(1, 40),
    lose=st.integers(1, 400),
)
def test_two_outcomes_give_an_exact_fraction(pays: int, win: int, lose: int) -> None:
    """Red Dog: +a at p, -1 at q: f* = (a p - q) / (a (p + q)), a Fraction."""
    exact, fraction = kelly_fraction({pays: win, -1: lose, 0: 7})  # a push does not matter
    expected = Fraction(pays * win - lose, pays * (win + lose))
    if expected <= 0:
        assert exact == 0
    else:
        assert exact == expected and fraction == float(expected)


def test_examples_where_floor_and_ceiling_differ() -> None:
    # 32 inside, 12 outside, 6 posts: f* = 0.1095..., so 10.95 chips of 100: 11 beats 10.
    weights = {1: 32, -1: 12, -2: 6}
    assert kelly_stake(weights, 100) == 11
    assert log_growth(weights, 100, 11) > log_growth(weights, 100, 10)
    # 28/10/6: f* = 1/11 exactly (a square discriminant); 9.09 chips: 9 beats 10.
    assert kelly_fraction({1: 28, -1: 10, -2: 6})[0] == Fraction(1, 11)
    assert kelly_stake({1: 28, -1: 10, -2: 6}, 100) == 9
    # Limits clamp it; a forced bet below the optimum takes the smallest stake; a pass that
    # forfeits an ante is weighed against the stake.
    assert kelly_stake(weights, 100, low=1, high=5) == 5
    assert kelly_stake({1: 1, -1: 3}, 100, low=2, high=9, can_pass=False) == 2
    assert kelly_stake({1: 1, -1: 3}, 100, low=2, high=9, can_pass=True) == 0
    answer = kelly(weights, 100, low=1, high=50)
    assert (answer.stake, answer.wealth, answer.exact) == (11, 100, None)


def _unseen(observation: dict[str, Any]) -> Counter[int]:
    """The ranks of the cards the seat has not seen, counted card by card."""
    left = Counter(card.rank for card in deck(int(observation["decks"])))
    for text in observation["seen"]:
        left[Card.from_text(text).rank] -= 1
    return left


def test_the_kelly_bot_stakes_the_growth_optimal_legal_bet() -> None:
    """At guide tables, every bet or pass of ``kelly`` maximises the expected log of its
    chips over its legal stakes, by the cards it has not seen (counted here)."""
    game = aceydeucey.load_game("inbetween", players=3, starting_chips=60)
    checked = 0
    for seed in range(12):
        bots = [KellyBot(i) for i in range(3)]
        for i, bot in enumerate(bots):
            bot.seated(game, i)
        state, chance = game.new_initial_state(), Seeded(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
                continue
            seat = state.current_player()
            obs = state.observation(seat)
            action = bots[seat].act(obs)
            bets = [int(a.split()[1]) for a in obs["legal_actions"] if a.startswith("bet ")]
            if bets and len(obs["posts"]) == 2:
                left = _unseen(obs)
                low, high = sorted(Card.from_text(c).rank for c in obs["posts"])
                inside = sum(n for r, n in left.items() if low < r < high)
                post = left[low] + (left[high] if high != low else 0)
                outside = sum(left.values()) - inside - post
                weights = {1: inside, -1: outside, -2: post}
                chips = obs["chips"][seat]
                legal = [0, *bets]
                growth = {s: log_growth(weights, chips, s) for s in legal}
                stake = 0 if action == "pass" else int(action.split()[1])
                assert growth[stake] >= max(growth.values()) - 1e-12, (obs["posts"], action)
                checked += 1
            state = state.apply(action)
    assert checked > 30
