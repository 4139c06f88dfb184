"""One entry of a table's log (:class:`Entry`), and the refusal of a sequence number
another writer took first (:class:`SeqTaken`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Entry", "SeqTaken"]


@dataclass(frozen=True)
class Entry:
    """One entry of a table's log.

    ``kind`` is ``chance`` (chance's outcome; ``seat`` is the seat that rolled, or
    ``None`` for a deal), ``move`` (a person's action), ``bot`` (a bot's action for
    its seat), ``timeout`` (the action taken when a seat's turn timer ran out), or a
    table-level event that the engine does not model: ``resign``, ``claim``,
    ``handover`` (a seat handed to a bot).  Engine actions hold their canonical text.
    """

    seq: int
    kind: str
    seat: int | None
    text: str
    data: dict[str, Any] | None = None
    at: float = 0.0

    ENGINE_KINDS = frozenset({"chance", "move", "bot", "timeout"})

    @property
    def is_action(self) -> bool:
        return self.kind in self.ENGINE_KINDS

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (the form published to the other processes)."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "text": self.text,
            "data": self.data,
            "at": self.at,
        }

    @classmethod
    def from_dict(cls, value: Any) -> Entry | None:
        """An entry as ``to_dict`` wrote it, or ``None`` for anything else."""
        if not isinstance(value, dict):
            return None
        seq, kind, seat, text = (value.get(k) for k in ("seq", "kind", "seat", "text"))
        data, at = value.get("data"), value.get("at", 0.0)
        if not isinstance(seq, int) or not isinstance(kind, str) or not isinstance(text, str):
            return None
        if seat is not None and not isinstance(seat, int):
            return None
        if data is not None and not isinstance(data, dict):
            return None
        return cls(seq, kind, seat, text, data, float(at) if isinstance(at, int | float) else 0.0)


class SeqTaken(Exception):
    """Another writer appended at this sequence number first."""
