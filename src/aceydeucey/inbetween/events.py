"""Events: what a transition did, in the one shape of every game (``{"kind": ...}``).

A state holds the event of the transition that led to it as a hashable tuple of
``(field, value)`` pairs (lists become tuples), and what followed automatically in the
same transition (the next player's turn, a refilled pot, the next round's antes, the end)
as a tuple of further events: ``event_view()`` shows them under ``"after"``, in order.
A card dealt face down names no card (``hand``; ``post`` with ``face_down`` after a redeal
of a hidden hand).  A field whose value is a catalog message (the end's ``reason``) is a
``Message``, shown as ``{"code", "params"}`` so that front ends render it in their language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Event", "Message", "event", "event_dict"]

Event = tuple[tuple[str, Any], ...]


@dataclass(frozen=True, slots=True)
class Message:
    """A catalog code with its params, as an event field (hashable); JSON: ``{code, params}``."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def event(kind: str, /, **fields: Any) -> Event:
    """A hashable event (lists become tuples)."""
    return (
        ("kind", kind),
        *((k, tuple(v) if isinstance(v, list) else v) for k, v in fields.items()),
    )


def event_dict(ev: Event) -> dict[str, Any]:
    """The JSON-ready form of an event (tuples become lists, messages ``{code, params}``)."""
    return {k: _json(v) for k, v in ev}


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    if isinstance(value, Message):
        return value.to_dict()
    return value
