"""The server's JSON text (server/jsontext.py): what goes out reads back as the standard
library's encoder would have written it, for every value the server sends."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aceydeucey.server.jsontext import JSONText, default, dumps, jsonable, loads


def standard(value: Any) -> Any:
    """What the standard library's encoder made of ``value``, read back."""
    return json.loads(json.dumps(value, default=default))


class Suit(enum.StrEnum):
    HEARTS = "hearts"


class Level(enum.IntEnum):
    HIGH = 3


@dataclasses.dataclass
class Point:
    x: int


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.tuples(children, children)
        | st.dictionaries(st.text(max_size=5) | st.integers(-5, 5), children, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_every_json_value_reads_back_as_the_standard_encoder_wrote_it(value: Any) -> None:
    # integers past 64 bits included: orjson refuses them, the standard encoder takes over
    assert loads(dumps(value)) == standard(value)
    assert jsonable(value) == standard(value)


def test_integers_past_64_bits_read_back_exactly() -> None:
    # orjson alone reads these as floats: -9223372036854775809 became -9.223372036854776e18
    for value in (-(2**63) - 1, 2**64, -(2**70), [2**64 + 1, "x"], {"n": 10**30}):
        assert loads(dumps(value)) == value
        assert jsonable(value) == value
    assert loads('{"s":"1234567890123456789"}') == {"s": "1234567890123456789"}


def test_text_nested_too_deep_is_refused_as_not_json() -> None:
    for text in ("[" * 100_000 + "]" * 100_000, "[" * 100_000 + "12345678901234567890"):
        with pytest.raises(ValueError):
            loads(text)


def test_values_json_has_no_form_for_go_out_as_the_standard_encoder_had_them() -> None:
    moment = datetime.datetime(2026, 12, 6, 4, 0, tzinfo=datetime.UTC)
    value = {
        "share": Fraction(1, 3),
        "path": Path("records/game.json"),
        "set": {2},
        "frozen": frozenset({"a"}),
        "suit": Suit.HEARTS,
        "level": Level.HIGH,
        "point": Point(1),
        "when": moment,
        1: "an int key",
    }
    assert jsonable(value) == standard(value)
    assert jsonable(value)["point"] == "Point(x=1)"  # as before: its text, not its fields
    assert jsonable(value)["when"] == str(moment)


def test_text_is_compact_and_unicode_stays_readable() -> None:
    text = dumps({"name": "Ação", "seats": (0, 1)})
    assert text == '{"name":"Ação","seats":[0,1]}'


def test_a_response_renders_with_the_same_encoder() -> None:
    response = JSONText({"pot": Fraction(5, 2), "seats": (0, 1), "big": 2**80})
    assert json.loads(response.body) == {"pot": "5/2", "seats": [0, 1], "big": 2**80}
    assert response.headers["content-type"] == "application/json"


def test_not_json_is_a_value_error() -> None:
    for text in ("{", "nan", "[1,]", "\ufeff"):
        try:
            loads(text)
        except ValueError:
            continue
        raise AssertionError(f"{text!r} was read as JSON")
