"""Cubeful equity and cube decisions: textbook identities, properties, and gnubg's 0-ply."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aceydeucey.backgammon import pubeval
from aceydeucey.backgammon.cubeful import (
    CONTACT_EFFICIENCY,
    MatchStakes,
    MoneyStakes,
    Probabilities,
    cash_point,
    cube_efficiency,
    cubeful_equity,
    decide,
    take_point,
)
from aceydeucey.backgammon.met import default_table

GAMMONLESS = Probabilities(0.5)
TABLE = default_table()
X = st.floats(0.0, 1.0)


def test_dead_cube_money_take_point_is_a_quarter() -> None:
    # gammonless, dead cube: take a double with 25 % (risk 1 to win 3 more)
    assert take_point(GAMMONLESS, x=0.0) == pytest.approx(0.25)
    assert cash_point(GAMMONLESS, x=0.0) == pytest.approx(0.75)


def test_live_cube_money_take_point_is_a_fifth() -> None:
    # fully live cube (continuous model): the recube vig brings the take point to 20 %
    assert take_point(GAMMONLESS, x=1.0) == pytest.approx(0.20, abs=1e-4)
    assert cash_point(GAMMONLESS, x=1.0) == pytest.approx(0.80, abs=1e-4)


def test_gammons_raise_the_take_point() -> None:
    # the taker who loses gammons more often needs more wins to take
    risky = Probabilities(0.5, 0.0, 0.0, 0.0, 0.0)
    gammony = Probabilities(0.5, 0.25, 0.0, 0.0, 0.0)
    assert take_point(gammony, x=0.0) > take_point(risky, x=0.0)
    # dead cube: taker risks L = 1 + gammon share of A's wins; take point (L - 1/2) / (W + L)
    w_avg, l_avg = 1.0, 1.5  # A's wins are half gammons
    assert take_point(gammony, x=0.0) == pytest.approx((l_avg - 0.5) / (w_avg + l_avg))


def test_dead_cube_equity_is_the_cubeless_one() -> None:
    probs = Probabilities(0.6, 0.2, 0.01, 0.1, 0.005)
    # A owns a cube it may never turn (money, no levels): dead, so cubeless
    assert cubeful_equity(probs, owner="me", stakes=MoneyStakes(levels=0), x=0.68) == (
        pytest.approx(probs.cubeless_money())
    )


def test_doubles_an_eighty_percent_gammonless_position_and_it_is_a_pass() -> None:
    decision = decide(Probabilities(0.8), x=CONTACT_EFFICIENCY)
    assert decision.action == "double"
    assert decision.response == "pass"
    assert decision.equity == pytest.approx(1.0)


def test_drops_at_twenty_percent() -> None:
    # A at 80 %: B, with 20 %, is below its take point (21 % at x = 0.68)
    assert decide(Probabilities(0.8), x=CONTACT_EFFICIENCY).response == "pass"
    assert decide(Probabilities(0.7), x=CONTACT_EFFICIENCY).response == "take"


def test_too_good_with_many_gammons() -> None:
    decision = decide(Probabilities(0.9, 0.6), x=CONTACT_EFFICIENCY)
    assert decision.action == "too_good"
    assert decision.no_double > decision.double_pass


def test_no_double_at_even_chances_and_beaver() -> None:
    decision = decide(Probabilities(0.4), stakes=MoneyStakes(beavers=True))
    assert decision.action == "no_double"
    assert decision.response == "beaver"
    assert decide(Probabilities(0.4)).response == "take"


def test_jacoby_makes_gammons_count_only_after_the_cube_turns() -> None:
    probs = Probabilities(0.9, 0.6)
    plain = decide(probs, stakes=MoneyStakes())
    jacoby = decide(probs, stakes=MoneyStakes(jacoby=True))
    assert jacoby.no_double < plain.no_double
    assert jacoby.action == "double"  # cashing beats a gammonless play-on


def test_who_may_double() -> None:
    # the opponent's cube: A may not double; the Crawford game: nobody
    assert not decide(Probabilities(0.9), owner="opponent").may_double
    crawford = MatchStakes(3, 1, TABLE, crawford=True)
    assert not decide(Probabilities(0.9), stakes=crawford).may_double
    assert decide(Probabilities(0.9), stakes=crawford).action == "no_double"
    # post-Crawford the leader's cube is dead and the trailer's is not
    assert not decide(Probabilities(0.9), stakes=MatchStakes(1, 4, TABLE)).may_double
    assert decide(Probabilities(0.5), stakes=MatchStakes(4, 1, TABLE)).may_double


def test_match_cube_is_dead_for_a_player_who_wins_the_match_with_it() -> None:
    # 2-away holding a 2-cube: no redouble
    assert not decide(
        Probabilities(0.9), cube=2, owner="me", stakes=MatchStakes(2, 5, TABLE)
    ).may_double


def test_match_double_pass_is_the_table_value() -> None:
    decision = decide(Probabilities(0.9), stakes=MatchStakes(5, 7, TABLE))
    assert decision.double_pass == pytest.approx(default_table().mwc(4, 7))


@given(st.floats(0.01, 0.99), st.floats(0.0, 0.5), X)
def test_equity_grows_with_the_chance_of_winning(p: float, gammon: float, x: float) -> None:
    low = Probabilities(p, gammon * p)
    high = Probabilities(min(1.0, p + 0.01), gammon * min(1.0, p + 0.01))
    for owner in ("centred", "me", "opponent"):
        better = cubeful_equity(high, owner=owner, x=x)
        assert better >= cubeful_equity(low, owner=owner, x=x) - 1e-9


@given(st.floats(0.0, 1.0), X)
def test_owning_the_cube_is_worth_something(p: float, x: float) -> None:
    probs = Probabilities(p)
    me = cubeful_equity(probs, owner="me", x=x)
    centred = cubeful_equity(probs, owner="centred", x=x)
    them = cubeful_equity(probs, owner="opponent", x=x)
    assert me >= centred - 1e-9 >= them - 2e-9


@given(X)
def test_a_more_live_cube_lowers_the_take_point(x: float) -> None:
    assert take_point(GAMMONLESS, x=x) >= take_point(GAMMONLESS, x=min(1.0, x + 0.05)) - 1e-9
    assert 0.2 - 1e-4 <= take_point(GAMMONLESS, x=x) <= 0.25 + 1e-9


@given(st.floats(0.0, 1.0), st.floats(0.0, 0.6), X)
def test_decision_equity_is_the_best_of_the_doublers_choices(p: float, g: float, x: float) -> None:
    d = decide(Probabilities(p, g * p), x=x)
    assert d.equity >= d.no_double - 1e-9 or d.action != "double"
    assert d.equity == pytest.approx(max(d.no_double, d.doubled)) or d.action != "double"
    assert (d.response == "pass") == (d.double_take > d.double_pass)


def test_race_efficiency_grows_with_the_race() -> None:
    assert cube_efficiency(False) == CONTACT_EFFICIENCY
    assert cube_efficiency(True, 20) == 0.6
    assert cube_efficiency(True, 100) == pytest.approx(0.675)
    assert cube_efficiency(True, 160) == 0.7


def _agreement(count: int, seed: int, race: bool | None) -> tuple[float, float]:
    cube = pytest.importorskip("tests.backgammon.gnubg_cube")
    positions = cube.sample_positions(count, seed, race=race)
    doubles = takes = 0
    for position in positions:
        theirs = cube.cube_decision(position)
        probs = Probabilities.of(cube.gnubg_probabilities(position))
        x = cube_efficiency(pubeval.is_race(position), position.pip_counts()[0])
        mine = decide(probs, x=x)
        doubles += (mine.action == "double") == (theirs[0] == "double")
        takes += (mine.response == "pass") == (theirs[1] == "pass")
    return doubles / count, takes / count


@pytest.mark.parametrize(
    "race", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["contact", "race"]
)
def test_agrees_with_gnubg_0ply_on_its_own_probabilities(
    race: bool, capfd: pytest.CaptureFixture[str]
) -> None:
    # the model against gnubg's: same cubeless chances, money play, centred cube
    pytest.importorskip("gnubg")
    doubles, takes = _agreement(60, 17, race)
    capfd.readouterr()
    assert doubles >= 0.85 and takes >= 0.85, (doubles, takes)
