"""JSON text for the wire, the logs and the store, written in one place.

orjson writes it (about ten times faster than the standard library's encoder on a state
message, and the server writes one for every audience of every step); the standard
library's encoder takes over for the values orjson refuses (an integer beyond 64 bits).
Tuples and sets go out as lists, non-string keys as their text, and anything else JSON
has no form for (a ``Fraction``, a ``Path``) as its ``str``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from starlette.responses import JSONResponse

__all__ = ["JSONText", "default", "dumps", "dumps_bytes", "jsonable", "loads"]

#: dataclasses and datetimes go to ``default`` (their text), as with the standard encoder
_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)


def default(value: Any) -> Any:
    """What a value JSON has no form for becomes: sets as lists, the rest as text."""
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return str(value)


def dumps_bytes(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON."""
    try:
        return orjson.dumps(value, default=default, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):  # an integer past 64 bits, a deep value
        return json.dumps(
            value, default=default, separators=(",", ":"), ensure_ascii=False
        ).encode()


def dumps(value: Any) -> str:
    """``value`` as compact JSON text."""
    return dumps_bytes(value).decode()


#: a run of 19 digits or more: an integer orjson may read as a float (past 64 bits)
_LONG_DIGITS = re.compile(rb"[0-9]{19}")


def loads(text: str | bytes) -> Any:
    """Parse JSON text (``ValueError`` when it is not JSON).

    orjson reads an integer past 64 bits as a float, losing its digits; text that may
    hold one (a run of 19 digits, in a number or a string) is read by the standard
    library's parser, which keeps every integer exact.
    """
    data = text.encode() if isinstance(text, str) else text
    if _LONG_DIGITS.search(data) is None:
        return orjson.loads(data)
    try:
        return json.loads(data)
    except RecursionError:  # nested deeper than the interpreter's stack: not JSON we read
        raise ValueError("JSON nested too deep") from None


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON values (lists, dicts, strings, numbers), as a client reads it."""
    return loads(dumps_bytes(value))


class JSONText(JSONResponse):
    """A JSON response written by :func:`dumps_bytes` (Starlette's own writes with the
    standard library's encoder and knows no tuple, set or ``Fraction``)."""

    def render(self, content: Any) -> bytes:
        return dumps_bytes(content)
