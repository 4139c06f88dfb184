"""People read seats counted from 1 in every outcome and refusal that names one."""

from __future__ import annotations

import pytest

from aceydeucey.locale import render_error


@pytest.mark.parametrize("lang", ["en", "pt"])
@pytest.mark.parametrize(
    ("code", "params"),
    [
        (
            "race.borne_off",
            {"winner": 0, "points": "1", "result_name": "single game"},
        ),
        (
            "race.match_won",
            {"winner": 0, "final": "5-2", "match_length": 5},
        ),
        ("cube.dropped", {"winner": 0, "points": "2"}),
    ],
)
def test_a_winner_is_read_from_seat_one(code: str, params: dict[str, object], lang: str) -> None:
    text = render_error(code, params, lang)
    assert " 1 " in f" {text} ", text
    assert " 0 " not in f" {text} ", text
    assert render_error(code, {**params, "winner": 1}, lang).count(" 2 ") == 1


def test_the_cube_owner_is_read_from_seat_one() -> None:
    text = render_error("bg.cube.not_yours", {"action": "double", "owner": 1}, "en")
    assert "seat 2" in text, text


def test_the_params_keep_the_engine_count() -> None:
    params = {"winner": 0, "points": "1", "result_name": "gammon"}
    render_error("race.borne_off", params, "en")
    assert params == {"winner": 0, "points": "1", "result_name": "gammon"}
