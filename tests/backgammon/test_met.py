"""The project's match equity table: its structure, and its distance from gnubg's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aceydeucey.backgammon.met import (
    MAX_AWAY,
    SHIPPED,
    MatchEquityTable,
    MetParameters,
    default_table,
    table_data,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import render_error

AWAY = st.integers(1, MAX_AWAY)


def test_even_scores_are_even() -> None:
    table = default_table()
    for n in range(1, MAX_AWAY + 1):
        assert table.mwc(n, n) == pytest.approx(0.5, abs=1e-9)


@given(AWAY, AWAY)
def test_the_two_sides_add_to_one(a: int, b: int) -> None:
    table = default_table()
    assert table.mwc(a, b) + table.mwc(b, a) == pytest.approx(1.0, abs=1e-9)
    assert table.mwc(a, b, post_crawford=True) + table.mwc(
        b, a, post_crawford=True
    ) == pytest.approx(1.0, abs=1e-9)


@given(st.integers(2, MAX_AWAY), AWAY)
def test_needing_fewer_points_is_better(a: int, b: int) -> None:
    table = default_table()
    assert table.mwc(a - 1, b) > table.mwc(a, b)


def test_post_crawford_recursion() -> None:
    # the trailer doubles at once: 2 points a game, 4 with a gammon, 6 with a backgammon
    table = default_table()
    p = table.params
    single = 1 - p.gammon_rate - p.backgammon_rate
    assert table.post[1] == 0.5
    assert table.post[2] == pytest.approx(0.5 - p.free_drop_2)
    three = 0.5 * (single * table.post[1] + p.gammon_rate + p.backgammon_rate)
    assert table.post[3] == pytest.approx(three)
    five = 0.5 * (single * table.post[3] + p.gammon_rate * table.post[1] + p.backgammon_rate)
    assert table.post[5] == pytest.approx(five)


def test_crawford_game_has_no_cube() -> None:
    # leader 1-away: any win takes the match; the trailer's win leads to post-Crawford
    table = default_table()
    p = table.params
    single = 1 - p.gammon_rate - p.backgammon_rate
    expected = 0.5 + 0.5 * single * (1 - table.post[1])
    assert table.mwc(1, 2) == pytest.approx(expected)


def test_the_shipped_table_is_the_computed_one() -> None:
    computed = table_data(MatchEquityTable())
    shipped = table_data(default_table())
    assert shipped == computed, f"regenerate {SHIPPED.name}: python -m aceydeucey.backgammon.met"


def test_other_parameters_give_another_table() -> None:
    gammonish = MatchEquityTable(MetParameters(gammon_rate=0.4), max_away=7)
    # more gammons help the trailer at 4-away against 2-away (a gammon is the match)
    assert gammonish.mwc(4, 2) > default_table().mwc(4, 2)


def test_out_of_range_is_a_coded_error() -> None:
    with pytest.raises(AceyDeuceyError) as caught:
        default_table().mwc(MAX_AWAY + 1, 3)
    assert caught.value.code == "bg.met.range"
    for lang in ("en", "pt"):
        text = render_error(caught.value.code, dict(caught.value.params), lang)
        assert str(MAX_AWAY) in text and "bg.met" not in text


def test_within_one_and_a_half_points_of_gnubgs_table() -> None:
    gnubg = pytest.importorskip("gnubg")
    pre, post0, post1 = gnubg.met(11)
    table = default_table()
    worst = 0.0
    for a in range(1, 12):
        for b in range(1, 12):
            worst = max(worst, abs(table.mwc(a, b) - pre[a - 1][b - 1]))
        # gnubg's post-Crawford rows: the trailer's chances a-away against 1-away
        worst = max(worst, abs(table.mwc(a, 1, post_crawford=True) - post0[a - 1]))
        worst = max(worst, abs(table.mwc(a, 1, post_crawford=True) - post1[a - 1]))
    assert worst < 0.015, worst
