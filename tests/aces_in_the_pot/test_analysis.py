"""The exact solution, checked by hand, against the engine, and against simulation."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from aceydeucey import load_game
from aceydeucey.aces_in_the_pot.analysis import (
    finish_attempt_rolls,
    finish_success,
    finish_win_probabilities,
    solve,
)
from aceydeucey.aces_in_the_pot.chain import THROW_CLASSES, build_chain
from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
from aceydeucey.aces_in_the_pot.rules import AcesRules
from aceydeucey.aces_in_the_pot.settle import Position, advance
from aceydeucey.aces_in_the_pot.simulate import simulate


# -- the finish by hand ------------------------------------------------------------
def test_the_finish_alone_is_a_geometric_series_round_the_table() -> None:
    # A throw shows no six with probability 25/36 (5 faces of 6 on each die), so an attempt
    # of three throws succeeds with s = (25/36)^3 = 15625/46656.  The first holder wins on
    # the first try (s), or everybody fails once and it comes back ((1-s)^N s), and so on:
    #   P(first holder wins) = s (1 + (1-s)^N + (1-s)^2N + ...) = s / (1 - (1-s)^N).
    # The seat j places further left needs j failures first: s (1-s)^j / (1 - (1-s)^N).
    s = Fraction(15625, 46656)
    assert finish_success(3) == s
    for n in (3, 4, 7):
        expected = [s * (1 - s) ** j / (1 - (1 - s) ** n) for j in range(n)]
        assert list(finish_win_probabilities(n)) == expected
        assert sum(expected) == 1
    # An attempt throws once, a second time after a clean first (25/36), a third time after
    # two clean ones: 1 + 25/36 + 625/1296 = 2821/1296 throws on average.
    assert finish_attempt_rolls(3) == Fraction(2821, 1296)


def test_the_finish_formula_matches_the_engine() -> None:
    # Solve the finish of the engine itself (states: holder h, roll k) as a linear system.
    n = 4
    game = load_game("aces-in-the-pot", players=n)
    assert isinstance(game, AcesInThePotGame)
    index = {(h, k): i for i, (h, k) in enumerate((h, k) for h in range(n) for k in (1, 2, 3))}
    a = np.eye(len(index))
    b = np.zeros((len(index), n))
    for (h, k), i in index.items():
        chips = tuple(1 if s == h else 0 for s in range(n))
        state = game.state_at(chips, 2 * n - 1, h, phase="finish", roll_number=k)
        for roll, p in state.chance_outcomes():
            nxt = state.apply(roll)
            assert isinstance(nxt, AcesInThePotState)
            if nxt.is_terminal():
                assert nxt.winner is not None
                b[i, nxt.winner] += float(p)
            else:
                assert nxt.holder is not None and nxt.roll_number is not None
                a[i, index[nxt.holder, nxt.roll_number]] -= float(p)
    x = np.linalg.solve(a, b)
    assert np.allclose(x[index[0, 1]], [float(p) for p in finish_win_probabilities(n)], atol=1e-13)


# -- the whole game against the engine ------------------------------------------------
def engine_solution(rules: AcesRules) -> tuple[np.ndarray, float]:
    """Win probabilities and expected throws from seat 0's first turn, by the engine alone.

    Every state reachable through ``apply`` is enumerated and the absorbing chain solved
    with a dense float linear system: no code of the analysis module is used.
    """
    game = load_game("aces-in-the-pot", **rules.to_dict())
    assert isinstance(game, AcesInThePotGame)
    start = game.first_turn(0)
    index: dict[AcesInThePotState, int] = {start: 0}
    order = [start]
    edges: list[list[tuple[int, float]]] = []
    wins: list[list[tuple[int, float]]] = []
    for state in order:
        out: list[tuple[int, float]] = []
        won: list[tuple[int, float]] = []
        for roll, p in state.chance_outcomes():
            nxt = state.apply(roll)
            assert isinstance(nxt, AcesInThePotState)
            if nxt.is_terminal():
                assert nxt.winner is not None
                won.append((nxt.winner, float(p)))
                continue
            if nxt not in index:
                index[nxt] = len(order)
                order.append(nxt)
            out.append((index[nxt], float(p)))
        edges.append(out)
        wins.append(won)
    size = len(order)
    n = rules.players
    a = np.eye(size)
    b = np.zeros((size, n + 1))
    for i in range(size):
        for j, q in edges[i]:
            a[i, j] -= q
        for w, q in wins[i]:
            b[i, w] += q
        b[i, n] = 1.0  # one throw from every state
    x = np.linalg.solve(a, b)
    return x[0, :n], float(x[0, n])


@pytest.mark.parametrize("finish", ["last-chip", "one-holder"])
def test_the_exact_solution_matches_the_engine_for_three_players(finish: str) -> None:
    rules = AcesRules.resolve(players=3, finish=finish)
    solution = solve(rules, exact=True)
    assert solution.win_probability_exact is not None
    assert sum(solution.win_probability_exact) == 1
    wins, rolls = engine_solution(rules)
    assert np.allclose(wins, [float(p) for p in solution.win_probability_exact], atol=1e-12)
    assert solution.expected_rolls_exact is not None
    assert math.isclose(rolls, float(solution.expected_rolls_exact), rel_tol=1e-12)


@pytest.mark.slow
def test_the_float_solution_matches_the_engine_for_four_players_and_two_finish_rolls() -> None:
    rules = AcesRules.resolve(players=4, finish_rolls=2)
    solution = solve(rules, exact=False)
    wins, rolls = engine_solution(rules)
    assert np.allclose(wins, solution.win_probability, atol=1e-12)
    assert math.isclose(rolls, solution.expected_rolls, rel_tol=1e-12)


@pytest.mark.parametrize("finish", ["last-chip", "one-holder"])
def test_exact_and_float_agree_to_1e12(finish: str) -> None:
    rules = AcesRules.resolve(players=3, finish=finish)
    exact, floats = solve(rules, exact=True), solve(rules, exact=False)
    assert exact.win_probability_exact is not None
    for p, q in zip(exact.win_probability_exact, floats.win_probability, strict=True):
        assert abs(float(p) - q) < 1e-12
    for a, b in (
        (exact.expected_rolls_exact, floats.expected_rolls),
        (exact.expected_turns_exact, floats.expected_turns),
        (exact.first_holder_wins_exact, floats.first_holder_wins),
    ):
        assert a is not None and abs(float(a) - b) < 1e-12 * max(1.0, b)


@pytest.mark.slow
@pytest.mark.parametrize("finish", ["last-chip", "one-holder"])
def test_the_compiled_kernel_agrees_with_the_fractions(
    finish: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Large levels are swept by a numba kernel; force it on every level of a small table.
    from aceydeucey.aces_in_the_pot import analysis

    assert analysis._gauss_seidel_kernel() is not None
    monkeypatch.setattr(analysis, "_COMPILED_FROM", 1)
    rules = AcesRules.resolve(players=3, finish=finish)
    compiled, exact = solve(rules, exact=False), solve(rules, exact=True)
    assert exact.win_probability_exact is not None and exact.expected_rolls_exact is not None
    for p, q in zip(exact.win_probability_exact, compiled.win_probability, strict=True):
        assert abs(float(p) - q) < 1e-12
    assert abs(float(exact.expected_rolls_exact) - compiled.expected_rolls) < 1e-11


def test_last_chip_first_holder_probability_is_the_finish_formula() -> None:
    # With the default finish the first holder's chance does not depend on how the finish
    # was reached: it is the geometric series of the finish alone.
    solution = solve(AcesRules.resolve(players=3), exact=True)
    assert solution.first_holder_wins_exact == finish_win_probabilities(3)[0]


def test_throws_minus_turns_is_the_finish_surplus_with_the_default_finish() -> None:
    # Every play throw is one turn; a finish attempt is one turn of 1 + q + q^2 throws on
    # average (q = 25/36), and 1/s attempts are made (s = q^3).  So the difference between
    # expected throws and turns is (2821/1296 - 1) / (15625/46656) = 3.5136, whatever N.
    surplus = (Fraction(2821, 1296) - 1) / Fraction(15625, 46656)
    assert surplus == Fraction("3.5136")
    solution = solve(AcesRules.resolve(players=3), exact=True)
    assert solution.expected_rolls_exact is not None and solution.expected_turns_exact is not None
    assert solution.expected_rolls_exact - solution.expected_turns_exact == surplus
    floats = solve(AcesRules.resolve(players=5), exact=False)
    assert abs(floats.expected_rolls - floats.expected_turns - 3.5136) < 1e-12


def test_the_length_distribution_is_consistent_with_the_expectation() -> None:
    solution = solve(AcesRules.resolve(players=4), exact=False)
    pmf = np.array(solution.length_pmf)
    assert 1 - 1e-6 <= pmf.sum() <= 1 + 1e-12
    assert abs(float((np.arange(len(pmf)) * pmf).sum()) - solution.expected_rolls) < 1e-2
    cdf = np.cumsum(pmf)
    assert cdf[solution.median_rolls] >= 0.5 > cdf[solution.median_rolls - 1]
    assert cdf[solution.p90_rolls] >= 0.9 > cdf[solution.p90_rolls - 1]
    # The shortest game with four players: seven of the eight chips must reach the pot, at
    # most two per throw, so four throws (1-1, 1-1, 1-1, 1-x) before three finish throws.
    assert pmf[:7].sum() == 0 and pmf[7] > 0


# -- the chain against the rules ---------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("finish", ["last-chip", "one-holder"])
def test_every_chain_transition_is_the_engine_rule(players: int, finish: str) -> None:
    rules = AcesRules.resolve(players=players, finish=finish)
    chain = build_chain(rules)
    for i in range(chain.size):
        chips = tuple(int(c) for c in chain.chips[i])
        pot = rules.total_chips - sum(chips)
        for c, (aces, sixes, _) in enumerate(THROW_CLASSES):
            step = advance(
                Position(chips, pot, "play", 0), aces, sixes, finish=finish, finish_rolls=3
            )
            new = step.position
            off = int(chain.offset[c, i])
            assert new.roller == off
            if new.phase == "finish":
                assert int(chain.kind[c, i]) == (0 if sum(new.chips) == 1 else 2)
                assert int(chain.fin[c, i]) == sum(new.chips)
            else:
                assert int(chain.kind[c, i]) == 1
                seen = new.chips[off:] + new.chips[:off]
                assert tuple(int(v) for v in chain.chips[chain.target[c, i]]) == seen


# -- simulation -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "finish", "seed"), [(3, "last-chip", 11), (4, "one-holder", 12)]
)
def test_the_solution_agrees_with_100000_simulated_games(
    players: int, finish: str, seed: int
) -> None:
    rules = AcesRules.resolve(players=players, finish=finish)
    solution = solve(rules)
    games = 100_000
    sim = simulate(rules, games, seed=seed)
    for p, won in zip(solution.win_probability, sim.wins, strict=True):
        assert abs(won / games - p) < 3 * math.sqrt(p * (1 - p) / games)
    means = ((sim.rolls, solution.expected_rolls), (sim.turns, solution.expected_turns))
    for values, mean in means:
        assert abs(values.mean() - mean) < 3 * values.std() / math.sqrt(games)
    p = solution.first_holder_wins
    assert abs(sim.first_holder_won / games - p) < 3 * math.sqrt(p * (1 - p) / games)
    assert abs(float(np.median(sim.rolls)) - solution.median_rolls) <= 1
    assert abs(float(np.quantile(sim.rolls, 0.9)) - solution.p90_rolls) <= 1
