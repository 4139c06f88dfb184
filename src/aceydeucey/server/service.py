"""The table service: tables as ordered logs of actions, played through the game contract.

A table's truth is its log (``store.Entry``): every action in order, chance's
included, plus the table-level events the engines do not model (a resignation, a
claim, a seat handed to a bot).  The service keeps a live copy of each table it
serves (the state after replaying the log) and, for every request that changes a
table, under the table's lock:

1. validates the action against the live state in memory (``State.apply``, the
   engine's own checks and messages) and works out the automatic steps after it
   (chance's draws, bots' moves) up to the next person's turn;
2. appends the whole step in one INSERT at ``seq + 1`` onwards, a short transaction
   with no engine work in it; the primary key ``(table_id, seq)`` refuses a second
   writer, whose request then reloads and answers 409 (or, for a bot's or chance's
   step, tries again);
3. only after the commit, updates the live state and pushes the step once per
   audience (each connected seat its own ``observation(seat)``, spectators
   ``observation(None)``, each serialised once) and tells the other processes
   (``pubsub``).

Chance is drawn by the fairness module (``server/fairness.py``): the table's secret
server seed is committed to when the table is created, the seat on the dealer's
right cuts, and the seed is revealed in the record once the game is over.  When the
engine says a seat throws the dice (``State.chance_actor``) and a person holds that
seat, the service waits for the seat's ``roll``; other chance steps and bots' moves
follow at once.  Bots act through the same path as people.

The server knows the games only through ``load_game`` and the contract.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from aceydeucey.server.chat import Chat
from aceydeucey.server.live import LiveTable, SeatInfo, hash_token, observe
from aceydeucey.server.lobby import LOBBY_IDLE_SECONDS
from aceydeucey.server.pubsub import LocalBroadcaster, Subscriber

__all__ = [
    "LOBBY_IDLE_SECONDS",
    "LiveTable",
    "SeatInfo",
    "TableService",
    "hash_token",
    "observe",
]

log = logging.getLogger("aceydeucey.server")

#: Seconds between reads of the store while Redis is down (tables with sockets here).
POLL_SECONDS = 1.0
#: A table untouched this long, needing nothing from this process, leaves its memory.
IDLE_SECONDS = 600.0


class TableService(Chat):
    """Creates, loads, plays and pushes tables; one per application (``app.state.service``).

    Built of parts, each in its own module and each on the ones before it:
    ``base`` (what they share), ``views``, ``tablelog`` (the log reducer), ``runner``
    (chance, bots, timers), ``commands``, ``lobby`` and ``chat``; this class adds the
    life cycle, the sockets and the messages from other processes.
    """

    async def start(self) -> None:
        if self.settings.migrate:
            await self.store.migrate()
        await self.presence.start()
        self.broadcaster.on_connect(self._catch_up_all)
        await self.broadcaster.start(self._on_remote)
        if not isinstance(self.broadcaster, LocalBroadcaster):
            self._spawn(self._poll_while_unheard())
        self._spawn(self._evict_idle_tables())
        # serve at once: tables load on first touch; the playing ones are resumed (their
        # bots and timers) in the background rather than before the first request
        self._spawn(self._resume_playing())

    async def _poll_while_unheard(self) -> None:
        """While the other processes cannot be heard (Redis down), read the tables this
        process holds sockets for from the store, so their sockets still see every move."""
        while not self._stopping:
            await asyncio.sleep(POLL_SECONDS)
            if self.broadcaster.connected:
                continue
            for t in list(self._tables.values()):
                if self.hub.subscribers(t.id):
                    try:
                        await self._catch_up(t)
                    except Exception as exc:  # the store is down too: the next round
                        log.warning("table %s: catch-up failed (%s)", t.id, type(exc).__name__)

    async def _evict_idle_tables(self) -> None:
        """Tables leave memory after ``IDLE_SECONDS`` untouched (see ``evict_idle``)."""
        while not self._stopping:
            await asyncio.sleep(IDLE_SECONDS / 4)
            self.evict_idle(IDLE_SECONDS)

    async def _catch_up_all(self) -> None:
        """Heard again (Redis back): whatever was missed meanwhile, for every table held."""
        for t in list(self._tables.values()):
            try:
                await self._catch_up(t)
            except Exception as exc:
                log.warning("table %s: catch-up failed (%s)", t.id, type(exc).__name__)

    async def _resume_playing(self) -> None:
        for table_id in await self.store.table_ids(status=["playing"]):
            if self._stopping:
                return
            try:
                t = await self.table(table_id)
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                continue
            self._after_change(t)

    async def stop(self) -> None:
        self._stopping = True
        for t in self._tables.values():
            for task in (t.timer, t.runner):
                if task is not None:
                    task.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        for t in self._tables.values():
            for sub in self.hub.subscribers(t.id):
                sub.close()
        await self.broadcaster.stop()
        await self.presence.stop()
        await self.store.close()

    async def subscribe(self, t: LiveTable, seat: int | None, lang: str) -> Subscriber:
        sub = Subscriber(seat, lang)
        sub.conn = self.presence.new_id()
        self.hub.join(t.id, sub)
        await self.presence.join(t.id, sub.conn, seat)
        await self.presence.refresh(t.id)
        if seat is not None:
            t.last_seen[seat] = self.clock()
            self._push_seats(t)
            self._spawn(self.broadcaster.publish({"table": t.id, "presence": True}))
        return sub

    async def unsubscribe(self, t: LiveTable, sub: Subscriber) -> None:
        self.hub.leave(t.id, sub)
        if sub.seat is not None:
            t.last_seen[sub.seat] = self.clock()
        try:
            await self.presence.leave(t.id, sub.conn, sub.seat)
        finally:
            if sub.seat is not None:
                self._push_seats(t)
                self._spawn(self.broadcaster.publish({"table": t.id, "presence": True}))
            self._forget_if_done(t)

    async def _on_remote(self, message: dict[str, Any]) -> None:
        """Another process changed a table: catch up if this process holds it."""
        table_id = message.get("table")
        t = self._tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            return
        if "chat" in message and isinstance(message["chat"], dict):
            self._push_chat(t, message["chat"])
            return
        if message.get("presence"):  # a seat's socket opened or closed in another process
            await self.presence.refresh(t.id)
            self._push_seats(t)
            return
        async with t.lock:
            if message.get("seats"):
                await self._refresh_row(t)
                self._load_seats(t, await self.store.load_seats(t.id))
                self._push_seats(t)
            await self._catch_up(t)
            self._after_change(t)
