"""What every part of the table service shares: the process's tables, their sockets,
its store, pub/sub and presence, and its background tasks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from aceydeucey.server.errors import is_outage
from aceydeucey.server.live import LiveTable
from aceydeucey.server.logs import fault
from aceydeucey.server.presence import MemoryPresence, Presence
from aceydeucey.server.pubsub import Broadcaster, Hub, LocalBroadcaster
from aceydeucey.server.settings import Settings
from aceydeucey.server.store import Store

__all__ = ["ServiceBase"]


class ServiceBase:
    """The state the parts of ``TableService`` share, and the helpers all of them use."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        broadcaster: Broadcaster | None = None,
        presence: Presence | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.store = store
        self.broadcaster = broadcaster or LocalBroadcaster()
        self.presence = presence or MemoryPresence(clock)
        self.hub = Hub()
        self.clock = clock
        self._tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_report)
        return task

    def _forget_if_done(self, t: LiveTable) -> None:
        """Drop a finished table nobody watches from memory (the store rebuilds it on demand)."""
        if t.over and not self.hub.subscribers(t.id) and self._tables.get(t.id) is t:
            del self._tables[t.id]
            self._loading.pop(t.id, None)
            self.presence.forget(t.id)
            self.broadcaster.unfollow(t.id)

    def evict_idle(self, idle_seconds: float) -> list[str]:
        """Drop from memory the tables untouched for ``idle_seconds`` that need nothing
        from this process: no socket, no automatic step running, no turn timer, no
        request holding the lock.  The store rebuilds each on its next touch."""
        now = time.monotonic()
        gone = []
        for table_id, t in list(self._tables.items()):
            busy = (
                self.hub.subscribers(table_id)
                or t.lock.locked()
                or t.timer is not None
                or (t.runner is not None and not t.runner.done())
            )
            if not busy and now - t.touched >= idle_seconds:
                del self._tables[table_id]
                self._loading.pop(table_id, None)
                self.presence.forget(table_id)
                self.broadcaster.unfollow(table_id)
                gone.append(table_id)
        return gone

    def _cancel_timer(self, t: LiveTable) -> None:
        if t.timer is not None and t.timer is not asyncio.current_task():
            t.timer.cancel()
        t.timer, t.deadline = None, None


def _report(task: asyncio.Task[Any]) -> None:
    """A background task's failure as one log line (a driver's message holds SQL values)."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        fault("store_unavailable" if is_outage(exc) else "unexpected", exc)
