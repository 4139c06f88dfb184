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
from aceydeucey.server.errors import is_outage
from aceydeucey.server.live import LiveTable, SeatInfo, hash_token, observe
from aceydeucey.server.lobby import LOBBY_IDLE_SECONDS
from aceydeucey.server.logs import fault
from aceydeucey.server.pubsub import LocalBroadcaster, Subscriber
from aceydeucey.server.store import Entry
from aceydeucey.server.warmup import warm_engines

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
#: how often a watched read copy is checked against its table's Redis history
TAIL_SECONDS = 2.0
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
        self.broadcaster.on_request(self._answer_forwarded)
        await self.broadcaster.start(self._on_remote)
        await self.owners.start()
        if not isinstance(self.broadcaster, LocalBroadcaster):
            self._spawn(self._poll_while_unheard())
        self._spawn(self._evict_idle_tables())
        # serve at once: tables load on first touch; the playing ones are resumed (their
        # bots and timers) in the background rather than before the first request; with
        # several processes, each takes over the tables whose owner died (lease expired)
        self._spawn(self._warm())
        if self.owners.shared:
            self._spawn(self._adopt_orphans())
        else:
            self._spawn(self._resume_playing())

    async def _warm(self) -> None:
        await asyncio.to_thread(warm_engines)
        self.warm = True

    async def _poll_while_unheard(self) -> None:
        """While the other processes cannot be heard (Redis down), read the tables this
        process holds sockets for from the store, so their sockets still see every move.

        While they can, every ``TAIL_SECONDS`` check each watched copy held here for
        another process against the last seq of its Redis history (one read a table): a
        published step this process never heard (a message lost in a burst, or sent
        while this process was subscribing) would otherwise show only at the table's next
        step, and after a game's last step there is none."""
        quiet = 0.0
        while not self._stopping:
            await asyncio.sleep(POLL_SECONDS)
            if self.broadcaster.connected:
                quiet += POLL_SECONDS
                if quiet >= TAIL_SECONDS:
                    quiet = 0.0
                    await self._check_tails()
                continue
            for t in list(self._tables.values()):
                if self.hub.subscribers(t.id):
                    try:
                        await self._catch_up(t)
                    except Exception as exc:  # the store is down too: the next round
                        log.warning("table %s: catch-up failed (%s)", t.id, type(exc).__name__)

    async def _check_tails(self) -> None:
        for t in list(self._tables.values()):
            if self.owners.owns(t.id) or not self.hub.subscribers(t.id):
                continue
            try:
                last = await self.broadcaster.last_seq(t.id)
                if last is not None and last > t.seq:
                    async with t.lock:
                        await self._sync(t, last)
                        self._after_change(t)
            except Exception as exc:  # Redis or the store away: the next round
                log.warning("table %s: tail check failed (%s)", t.id, type(exc).__name__)

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

    async def _adopt_orphans(self) -> None:
        """Every ``lease_seconds / 2``: take the playing tables whose owner died and
        resume their bots and timers here (at start-up, also those nobody owns: tables
        from before leases, or let go of when idle, which otherwise wait for a touch)."""
        first = True
        while not self._stopping:
            try:
                found = await self.owners.orphans(unleased=first)
                first = False
                for table_id in found:
                    if self._stopping:
                        return
                    if await self._owner_for(table_id) is None:
                        self._after_change(self._tables[table_id])
            except Exception as exc:  # the store away: the next round
                fault("store_unavailable" if is_outage(exc) else "unexpected", exc)
            await asyncio.sleep(self.settings.lease_seconds / 2)

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
        await self.owners.stop()
        await self.broadcaster.stop()
        if self.bot_pool is not None:
            self.bot_pool.close()
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
        clock = message.get("clock")
        if isinstance(clock, dict):  # the owner's turn timer, for the sockets here
            deadline = clock.get("deadline")
            t.deadline = float(deadline) if isinstance(deadline, int | float) else None
            for sub in self.hub.subscribers(t.id):
                sub.send(clock)
            return
        entries = message.get("entries")
        async with t.lock:
            if message.get("seats"):
                await self._refresh_row(t)
                self._load_seats(t, await self.store.load_seats(t.id))
                self._push_seats(t)
            step = [e for e in map(Entry.from_dict, entries or []) if e is not None]
            if step and step[0].seq <= t.seq + 1 <= step[-1].seq:
                self._absorb_published(t, step)  # the step itself: no store read
            elif not step or step[-1].seq > t.seq:
                await self._sync(t)  # a gap: the history, else the store
            self._after_change(t)
