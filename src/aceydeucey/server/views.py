"""What each audience sees: the views, the record, the public log and the pushes.

A seat sees its own ``observation(seat)``, spectators ``observation(None)``; a step is
pushed as one message per audience, serialised once and shared by its sockets.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.game import Game
from aceydeucey.core.record import Record
from aceydeucey.server.base import ServiceBase
from aceydeucey.server.errors import ServerError
from aceydeucey.server.fairness import cutting_seat
from aceydeucey.server.live import (
    ROLL,
    LiveTable,
    dumps,
    hidden_information,
    observe,
)
from aceydeucey.server.store import Entry

log = logging.getLogger("aceydeucey.server")

__all__ = ["Views", "record_formats"]


def record_formats(game: Game) -> list[str]:
    """The downloads of a table's record: ``json`` always, ``mat`` for a backgammon game
    whose rules a .mat file holds (``/record.mat``)."""
    return ["json", "mat"] if _holds_mat(game.game_id, game.rules) else ["json"]


@lru_cache(maxsize=64)
def _holds_mat(game_id: str, rules: Any) -> bool:
    if game_id != "backgammon":
        return False
    from aceydeucey.backgammon.matfile import mat_rules

    try:
        mat_rules(rules)
    except AceyDeuceyError:
        return False
    return True


class Views(ServiceBase):
    """Views and pushes (a part of ``TableService``)."""

    def seats_view(self, t: LiveTable) -> list[dict[str, Any]]:
        return [
            {
                "seat": i,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name if s.kind == "human" else f"bot:{s.bot}",
                "taken": s.taken,
                "connected": s.kind == "bot"
                or self.hub.count(t.id, i) > 0
                or i in self.presence.remote(t.id).seats,
            }
            for i, s in enumerate(t.seats)
        ]

    def observation(self, t: LiveTable, seat: int | None) -> dict[str, Any]:
        """The seat's observation, its legal actions as the table allows them: none
        unless playing, and ``roll`` when the throw of the dice is the seat's."""
        obs = observe(t.state, seat)
        if t.status != "playing":
            obs["legal_actions"] = []
        elif seat is not None and t.to_roll() == seat:
            obs["legal_actions"] = [ROLL]
        return obs

    def table_view(self, t: LiveTable) -> dict[str, Any]:
        """What every viewer may know of the table besides the observation."""
        return {
            "rules": t.game.rules.to_dict(),
            "seq": t.seq,
            **self._table_now(t),
        }

    def _table_now(self, t: LiveTable) -> dict[str, Any]:
        """The part of the table's view a state message carries (not the rules, which
        never change, nor ``seq``, which the message has already)."""
        return {
            "id": t.id,
            "game": t.game.game_id,
            "public": bool(t.row["public"]),
            "status": t.status,
            "seats": self.seats_view(t),
            "to_act": t.person_to_act(),
            "to_roll": t.to_roll(),
            "ended": t.ended,
            "turn_seconds": t.config.get("turn_seconds"),
            "on_timeout": t.config.get("on_timeout"),
            "claim_after": t.config.get("claim_after"),
            "hints": bool(t.config.get("hints")),
            "record_formats": record_formats(t.game),
            "deadline": t.deadline,
            "fairness": {
                "commitment": t.row["commitment"],
                "cutter": self.cutter(t),
                "cut": t.row.get("cut"),
            },
            "rematch": t.row.get("rematch"),
            "rematch_of": t.row.get("rematch_of"),
            "spectators": self.hub.count(t.id, None) + self.presence.remote(t.id).spectators,
        }

    def view(self, t: LiveTable, seat: int | None) -> dict[str, Any]:
        return {**self.table_view(t), "you": seat, "observation": self.observation(t, seat)}

    def record(self, t: LiveTable) -> Record:
        """The record: every action (chance's included); the seed only once it is over."""
        if not t.over and hidden_information(t.game):
            raise ServerError(409, "server.record_until_over")
        names = [
            s.name or f"seat {i}" if s.kind == "human" else f"bot:{s.bot}"
            for i, s in enumerate(t.seats)
        ]
        record = Record.start(t.game, names)
        record.actions = [e.text for e in t.entries if e.is_action]
        record.fairness = t.chance().fairness(reveal=t.over)
        record.finish(t.state)  # the result, and the ending of a resigned or claimed game
        return record

    def events_since(self, t: LiveTable, since: int) -> list[dict[str, Any]]:
        return t.events[max(0, since) :]

    def state_message(
        self,
        t: LiveTable,
        seat: int | None,
        step: list[Entry] | None = None,
        table: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The ``state`` message for one audience (a seat, or ``None``: the spectators):
        the observation after the step, ``events`` (each entry of the step as that
        audience may see it) and ``event`` (the last of them); ``table`` is the table's
        part (``_table_now``) when the caller made it once for every audience."""
        obs = self.observation(t, seat)
        if step is None:
            step = t.entries[-1:]
        events = [t.events[entry.seq - 1] for entry in step]
        return {
            "type": "state",
            "seq": t.seq,
            "observation": obs,
            "event": events[-1] if events else None,
            "events": events,
            "you": seat,
            **(self._table_now(t) if table is None else table),
        }

    def _push_step(self, t: LiveTable, step: list[Entry]) -> None:
        """One message per audience for a whole step, serialised once per audience: every
        spectator of the table (and every socket of one seat) shares the same text."""
        subs = self.hub.subscribers(t.id)
        if not subs or not step:
            return
        texts: dict[int | None, str] = {}
        table = self._table_now(t)
        for sub in subs:
            text = texts.get(sub.seat)
            if text is None:
                text = texts[sub.seat] = dumps(self.state_message(t, sub.seat, step, table))
            sub.send(text)

    def _push_seats(self, t: LiveTable) -> None:
        message = {
            "type": "seats",
            "seq": t.seq,
            "status": t.status,
            "seats": self.seats_view(t),
            "rematch": t.row.get("rematch"),
        }
        for sub in self.hub.subscribers(t.id):
            sub.send(message)

    def _push_chat(self, t: LiveTable, line: dict[str, Any]) -> None:
        for sub in self.hub.subscribers(t.id):
            sub.send({"type": "chat", **line})

    def cutter(self, t: LiveTable) -> int:
        """The seat that cuts (the dealer's right), read from the table's first state
        (once a table: it depends on the rules alone)."""
        if t.cutter is None:
            try:
                t.cutter = cutting_seat(t.game, t.game.new_initial_state())
            except Exception:  # a game whose public view is not there yet: from the options
                t.cutter = cutting_seat(t.game, None)
        return t.cutter
