"""JSON text for the wire, the logs and the store, written in one place.

orjson writes it (about ten times faster than the standard library's encoder on a state
message, and the server writes one for every audience of every step); the standard
library's encoder takes over for the values orjson refuses (an integer beyond 64 bits).
Tuples and sets go out as lists, non-string keys as their text, and anything else JSON
has no form for (a ``Fraction``, a ``Path``) as its ``str``.
"""

from __future__ import annotations

import json
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


def loads(text: str | bytes) -> Any:
    """Parse JSON text (``ValueError`` when it is not JSON)."""
    return orjson.loads(text)


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON values (lists, dicts, strings, numbers), as a client reads it."""
    return orjson.loads(dumps_bytes(value))


class JSONText(JSONResponse):
    """A JSON response written by :func:`dumps_bytes` (Starlette's own writes with the
    standard library's encoder and knows no tuple, set or ``Fraction``)."""

    def render(self, content: Any) -> bytes:
        return dumps_bytes(content)
