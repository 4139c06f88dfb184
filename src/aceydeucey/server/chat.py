"""The table chat: short, rate-limited lines from seated players, pushed to the table."""

from __future__ import annotations

import collections
import logging
from typing import Any

from aceydeucey.server.base import owned
from aceydeucey.server.errors import ServerError
from aceydeucey.server.lobby import Lobby

log = logging.getLogger("aceydeucey.server")

__all__ = ["Chat"]


class Chat(Lobby):
    """The table chat (a part of ``TableService``)."""

    @owned
    async def chat(self, table_id: str, token: str | None, text: str) -> dict[str, Any]:
        t, seat = await self.seat_of(table_id, token)
        if seat is None:
            raise ServerError(403, "server.token_missing")
        text = " ".join(text.split())
        limit = self.settings.chat_max_length
        if not text:
            raise ServerError(400, "server.chat_empty")
        if len(text) > limit:
            raise ServerError(413, "server.chat_too_long", limit=limit, length=len(text))
        now = self.clock()
        times = t.chat_times.setdefault(seat, collections.deque())
        while times and now - times[0] > self.settings.chat_window:
            times.popleft()
        if len(times) >= self.settings.chat_burst:
            raise ServerError(
                429,
                "server.chat_rate",
                count=self.settings.chat_burst,
                seconds=int(self.settings.chat_window),
            )
        times.append(now)
        line = await self.store.add_chat(t.id, seat, t.seats[seat].name or "", text)
        self._push_chat(t, line)
        self._spawn(self.broadcaster.publish({"table": t.id, "chat": line}))
        return line
