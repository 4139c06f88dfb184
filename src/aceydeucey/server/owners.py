"""One owner per table: the process that holds a table's live state, lock, bots and timer.

With several processes (``--workers N``, or several machines on one database and
Redis) each table is owned by exactly one of them at a time, through a **lease** in
the store (``table_leases``: table, owner, expiry).  The owner renews its leases every
``lease_seconds / 3``; a process that needs a table whose lease has expired (its owner
died, or let it go) takes it over.  Other processes never change a table themselves:
they forward each command to the owner (``pubsub``: request and reply over the
owner's own Redis channel) and keep a read copy for their sockets.  The unique
``(table_id, seq)`` key of the log stays the guard: an owner that lost its lease
without knowing it (paused past the expiry) fails its next append and catches up.

A single process (no Redis) owns every table it touches, with no lease at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from aceydeucey.server.logs import fault
from aceydeucey.server.store import Store

__all__ = ["LeaseOwners", "Owners"]

log = logging.getLogger("aceydeucey.server")


class Owners:
    """A process alone: it owns every table (no lease, nothing to renew)."""

    def __init__(self, me: str) -> None:
        self.me = me

    @property
    def shared(self) -> bool:
        """Whether other processes may own tables (then commands are routed)."""
        return False

    async def start(self) -> None:
        """Begin renewing this process's leases."""

    async def stop(self) -> None:
        """Give every lease back (another process may take the tables at once)."""

    def owns(self, table_id: str) -> bool:
        """Whether this process owns the table now (no store read)."""
        return True

    async def owner(self, table_id: str) -> tuple[str, float]:
        """The table's owner (this process when it could take the lease) and until when."""
        return self.me, float("inf")

    async def release(self, table_id: str) -> None:
        """Let go of one table (it left this process's memory)."""

    async def orphans(self, *, unleased: bool = False) -> list[str]:
        """Playing tables whose owner died (and with ``unleased``, those nobody ever
        owned or that were let go of), for this process to take over."""
        return []


class LeaseOwners(Owners):
    """Leases in the store, renewed in the background (see the module's docstring)."""

    def __init__(
        self,
        me: str,
        store: Store,
        ttl: float,
        *,
        clock: Callable[[], float] = time.time,
        on_lost: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(me)
        self.store = store
        self.ttl = ttl
        self.clock = clock
        #: the tables this process owns, each with its lease's expiry as last written
        self._mine: dict[str, float] = {}
        #: other processes' leases as last read: table -> (owner, expiry)
        self._theirs: dict[str, tuple[str, float]] = {}
        self._task: asyncio.Task[None] | None = None
        self._on_lost = on_lost

    @property
    def shared(self) -> bool:
        return True

    async def start(self) -> None:
        self._task = asyncio.create_task(self._renew_forever())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        mine, self._mine = list(self._mine), {}
        with contextlib.suppress(Exception):  # the store away: the leases expire instead
            await self.store.release_leases(self.me, mine)

    def owns(self, table_id: str) -> bool:
        until = self._mine.get(table_id)
        return until is not None and self.clock() < until

    async def owner(self, table_id: str) -> tuple[str, float]:
        if self.owns(table_id):
            return self.me, self._mine[table_id]
        known = self._theirs.get(table_id)
        now = self.clock()
        if known is not None and now < known[1]:
            return known
        holder, until = await self.store.take_lease(table_id, self.me, now, self.ttl)
        if holder == self.me:
            self._mine[table_id] = until
            self._theirs.pop(table_id, None)
        else:
            self._theirs[table_id] = (holder, until)
        return holder, until

    def forget(self, table_id: str) -> None:
        """Forget what was read of another process's lease (it did not answer)."""
        self._theirs.pop(table_id, None)

    async def release(self, table_id: str) -> None:
        if self._mine.pop(table_id, None) is not None:
            await self.store.release_leases(self.me, [table_id])

    async def orphans(self, *, unleased: bool = False) -> list[str]:
        return await self.store.orphans(self.clock(), unleased=unleased)

    async def renew(self) -> None:
        """Extend every lease this process holds; drop those another process took."""
        until = self.clock() + self.ttl
        held = await self.store.renew_leases(self.me, until)
        for table_id in list(self._mine):
            if table_id in held:
                self._mine[table_id] = until
            else:  # taken over while this process was away: its bots and timer stop
                del self._mine[table_id]
                if self._on_lost is not None:
                    self._on_lost(table_id)

    async def _renew_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.renew()
            except Exception as exc:  # the store away: tried again; the leases may lapse
                fault("store_unavailable", exc, during="lease renewal")
