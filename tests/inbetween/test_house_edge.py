"""Red Dog's exact house edge (``inbetween.spreads.house_edge``).

Checked against: a brute force over the actual cards of one and two decks written here
(every ordered pair of post cards, every third card), the figures published for the
standard 5/4/2/1 and 11 to 1 pays, every other raising policy, and a seeded Monte Carlo
of whole sessions through the engine with the ``ev`` bot (which raises exactly when the
raise gains).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import aceydeucey
from aceydeucey.cards import deck
from aceydeucey.cli.app import app
from aceydeucey.core import Seeded, Table
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.bots import ExpectedValueBot
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.spreads import house_edge, spread_table

RED_DOG = Rules.resolve(preset="red-dog")
PAYS = {1: 5, 2: 4, 3: 2}  # spread -> odds; 4 or more: even money
TRIPS = 11


def brute_force(decks: int) -> tuple[Fraction, Fraction]:
    """(house edge, average total bet) by counting every three-card deal of the shoe.

    Per spread, the raise is worth taking when the spread's total result summed over its
    deals is positive (the raise adds one more initial bet at the same odds).
    """
    cards = list(deck(decks))
    n = len(cards)
    ranks = Counter(c.rank for c in cards)
    fixed = 0  # pairs and neighbours, summed over all deals (three cards ordered)
    per_spread: dict[int, int] = Counter()
    deals_per_spread: dict[int, int] = Counter()
    for i, first in enumerate(cards):
        for j, second in enumerate(cards):
            if i == j:
                continue
            a, b = sorted((first.rank, second.rank))
            left = ranks.copy()
            left[first.rank] -= 1
            left[second.rank] -= 1
            if a == b:  # a third card of the same rank pays 11 to 1, else a push
                fixed += TRIPS * left[a]
            elif b - a == 1:
                pass  # neighbours push
            else:
                spread = b - a - 1
                pays = PAYS.get(spread, 1)
                win = sum(left[r] for r in range(a + 1, b))
                per_spread[spread] += pays * win - (n - 2 - win)
                deals_per_spread[spread] += n - 2
    deals = n * (n - 1) * (n - 2)
    total = fixed + sum(2 * v if v > 0 else v for v in per_spread.values())
    raised = sum(d for s, d in deals_per_spread.items() if per_spread[s] > 0)
    return -Fraction(total, deals), 1 + Fraction(raised, deals)


@pytest.mark.parametrize("decks", [1, 2])
def test_house_edge_equals_a_brute_force_over_the_cards(decks: int) -> None:
    edge = house_edge(RED_DOG, decks)
    expected_edge, expected_bet = brute_force(decks)
    assert edge.house_edge == expected_edge
    assert edge.average_bet == expected_bet
    assert edge.element_of_risk == expected_edge / expected_bet


# Published house edges for Red Dog with 5/4/2/1 and 11 to 1 (percent, as printed):
# oddsshark.com (Red Dog odds): 1 deck 3.15, 2 decks 3.077, 4 decks 2.88, 6 decks 2.80,
# 8 decks 2.75; online-betting-guide.co.uk: 1 deck 3.155.  winnergambling.com prints the
# element of risk as its "house edge": 1 deck 2.67, 6 decks 2.38 (Rival), 8 decks 2.34.
PUBLISHED_EDGE = {1: "3.155", 2: "3.077", 4: "2.88", 6: "2.80", 8: "2.75"}
PUBLISHED_RISK = {1: "2.67", 8: "2.34"}


@pytest.mark.parametrize("decks", sorted(PUBLISHED_EDGE))
def test_house_edge_matches_the_published_figures(decks: int) -> None:
    printed = PUBLISHED_EDGE[decks]
    half_unit = 0.5 * 10 ** -len(printed.split(".")[1])
    edge = house_edge(RED_DOG, decks)
    assert abs(float(edge.house_edge) * 100 - float(printed)) <= half_unit + 1e-12
    if decks in PUBLISHED_RISK:
        risk = PUBLISHED_RISK[decks]
        assert abs(float(edge.element_of_risk) * 100 - float(risk)) <= 0.005 + 1e-12


@pytest.mark.slow
def test_more_decks_lower_the_edge_and_raising_is_always_on_seven_or_more() -> None:
    """Every source: raise on spreads of 7 or more, whatever the number of decks; the edge
    falls as decks are added (trips become likelier)."""
    edges = [house_edge(RED_DOG, d) for d in range(1, 9)]
    assert all(e.raise_spreads == (7, 8, 9, 10, 11) for e in edges)
    values = [e.house_edge for e in edges]
    assert values == sorted(values, reverse=True) and len(set(values)) == 8
    assert all(0 < e.element_of_risk < e.house_edge for e in edges)


def test_the_wizard_of_odds_six_deck_raise_table() -> None:
    """wizardofodds.com/reddog: six decks, the probability of winning and the player's
    edge per unit bet on each spread (0.077419 / -0.535484 for spread 1, ...)."""
    published = {
        1: (0.077419, -0.535484),
        2: (0.154839, -0.225806),
        3: (0.232258, -0.303226),
        4: (0.309677, -0.380645),
        5: (0.387097, -0.225806),
        6: (0.464516, -0.070968),
        7: (0.541935, 0.083871),
        8: (0.619355, 0.238710),
        9: (0.696774, 0.393548),
    }
    rows = {r.spread: r for r in spread_table(RED_DOG.replace(decks=6))}
    for spread, (win, player_edge) in published.items():
        bet = rows[spread].odds.bets[0]
        assert round(float(bet.chance("inside")), 6) == win
        assert round(float(bet.ev_per_chip), 6) == player_edge


@pytest.mark.slow
def test_optimal_raising_beats_never_and_always_raising_exactly() -> None:
    for decks in range(1, 9):
        best = house_edge(RED_DOG, decks)
        never = house_edge(RED_DOG, decks, raise_on=())
        always = house_edge(RED_DOG, decks, raise_on=range(1, 12))
        assert best.house_edge < never.house_edge
        assert best.house_edge < always.house_edge
        assert never.average_bet == 1 and always.raise_spreads == tuple(range(1, 12))


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(raise_on=st.sets(st.integers(1, 11)), decks=st.integers(1, 8))
def test_no_raising_policy_beats_the_optimal_one(raise_on: set[int], decks: int) -> None:
    best = house_edge(RED_DOG, decks)
    other = house_edge(RED_DOG, decks, raise_on=raise_on)
    assert best.house_edge <= other.house_edge
    assert (best.house_edge == other.house_edge) == (raise_on == {7, 8, 9, 10, 11})


def test_other_payout_tables_follow_the_rules() -> None:
    # Trips at 12 to 1 lower the edge; neighbours that lose raise it; no house: refused.
    standard = house_edge(RED_DOG).house_edge
    assert house_edge(RED_DOG.replace(trips_pays=12)).house_edge < standard
    assert house_edge(RED_DOG.replace(adjacent="lose")).house_edge > standard
    with pytest.raises(ArgumentError) as err:
        house_edge(Rules.resolve())
    assert err.value.code == "ib_odds.house_edge_needs_house"


@pytest.mark.slow
def test_a_monte_carlo_through_the_engine_agrees() -> None:
    """Seeded sessions of one seat at the house, the ``ev`` bot raising when it gains:
    the mean result per hand is the exact edge's negative within four standard errors,
    and the share of hands raised is the exact one within four standard errors."""
    hands_per_session, sessions = 1000, 30
    game = aceydeucey.load_game(
        "inbetween",
        preset="red-dog",
        players=1,
        rounds=hands_per_session,
        starting_chips=10**6,
        bank=10**8,
    )
    results: list[int] = []
    raised = 0
    for seed in range(sessions):
        table = Table(game, [ExpectedValueBot()], chance=Seeded(1000 + seed))
        record = table.play()
        assert table.state.observation(0)["round"] == hands_per_session
        results.append(table.state.chips[0] - 10**6)
        raised += sum(1 for a in record.actions if str(a).startswith("raise"))
    hands = hands_per_session * sessions
    mean = sum(results) / hands
    per_session_var = sum((r - mean * hands_per_session) ** 2 for r in results) / (sessions - 1)
    stderr = math.sqrt(per_session_var / sessions) / hands_per_session
    edge = house_edge(RED_DOG)
    assert abs(mean + float(edge.house_edge)) < 4 * stderr
    p = float(edge.average_bet - 1)  # the chance of a raise
    assert abs(raised / hands - p) < 4 * math.sqrt(p * (1 - p) / hands)


runner = CliRunner()


@pytest.mark.parametrize("decks", range(1, 9))
def test_the_command_prints_the_exact_edge_as_json(decks: int) -> None:
    args = ["odds", "--preset", "red-dog", "--house-edge", "--decks", str(decks), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    edge = house_edge(RED_DOG, decks)
    assert data["decks"] == decks
    assert Fraction(data["house_edge_exact"]) == edge.house_edge
    assert Fraction(data["element_of_risk_exact"]) == edge.element_of_risk
    assert data["house_edge"] == float(edge.house_edge)
    assert data["element_of_risk"] == float(edge.element_of_risk)
    assert data["raise_spreads"] == [7, 8, 9, 10, 11]


def test_the_command_in_portuguese_and_its_errors() -> None:
    result = runner.invoke(app, ["odds", "--preset", "red-dog", "--house-edge", "--lang", "pt"])
    assert result.exit_code == 0
    assert "Vantagem da casa" in result.output and "523/16575 (3,1554%)" in result.output
    result = runner.invoke(app, ["odds", "--house-edge", "--lang", "pt"])
    assert result.exit_code == 2 and "banking=house" in result.output
    assert "precisa" in result.output
    result = runner.invoke(app, ["odds", "7C", "9D", "--preset", "red-dog", "--house-edge"])
    assert result.exit_code == 2 and "takes no posts" in result.output
