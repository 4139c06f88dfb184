"""Table events between processes: in-process listeners, and Redis pub/sub across processes.

A process that appends to a table's log publishes ``{"table": id, "seq": n}`` (or a
chat line, or ``{"seats": true}``) on the table's own channel; every *other* process
that holds the table (each subscribes to the tables it holds, and only those)
reloads the new entries from the database and pushes them.  The message
only says that something changed: the database stays the one truth, so a lost
message costs nothing but a delay (the next one, or a client's resync, catches up).

While Redis is down a process keeps serving: it starts without it, retries with
backoff, and meanwhile the service polls the database for the tables it holds
sockets for; once connected again it catches up every table it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = [
    "Broadcaster",
    "Hub",
    "LocalBroadcaster",
    "RedisBroadcaster",
    "Subscriber",
    "make_broadcaster",
]

log = logging.getLogger("aceydeucey.server")

#: Called with each message published by another process.
Handler = Callable[[dict[str, Any]], Awaitable[None]]

CHANNEL = "aceydeucey:tables"
#: Seconds between attempts to reach Redis again: first, and at most (doubling).
BACKOFF = (0.5, 10.0)


class Broadcaster:
    """Carries table events to the other processes (none in this base: a single process)."""

    def __init__(self) -> None:
        self.origin = secrets.token_hex(8)
        self._handler: Handler | None = None
        #: called each time the connection to the other processes is (re)made
        self._on_connect: Callable[[], Awaitable[None]] | None = None

    @property
    def connected(self) -> bool:
        """Whether the other processes hear this one (always, alone)."""
        return True

    async def start(self, handler: Handler) -> None:
        self._handler = handler

    def on_connect(self, callback: Callable[[], Awaitable[None]]) -> None:
        self._on_connect = callback

    def follow(self, table_id: str) -> None:
        """Hear the other processes' events for a table this process now holds."""

    def unfollow(self, table_id: str) -> None:
        """No longer hear a table this process has let go of."""

    async def stop(self) -> None:
        self._handler = None

    async def publish(self, message: dict[str, Any]) -> None:
        """Tell the other processes; this process's own sockets are served directly."""


class LocalBroadcaster(Broadcaster):
    """One process: nothing to carry."""


class RedisBroadcaster(Broadcaster):
    """Redis pub/sub, one channel per table (``aceydeucey:tables:{id}``): a process
    subscribes to the tables it holds only; each process ignores its own messages."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self.url = url
        self._redis = redis.Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._warned = False
        self._following: set[str] = set()
        self._pubsub: Any = None
        self._changes: set[asyncio.Task[Any]] = set()

    async def start(self, handler: Handler) -> None:
        """Subscribe in the background: a process starts (and serves its own tables)
        while Redis is down, and connects when Redis comes back, with backoff."""
        await super().start(handler)
        self._task = asyncio.create_task(self._listen())
        with contextlib.suppress(TimeoutError):  # connected at once when Redis is up
            await asyncio.wait_for(self._ready.wait(), 2)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()
        await super().stop()

    @property
    def connected(self) -> bool:
        return self._ready.is_set()

    def follow(self, table_id: str) -> None:
        if table_id not in self._following:
            self._following.add(table_id)
            self._change("subscribe", table_id)

    def unfollow(self, table_id: str) -> None:
        if table_id in self._following:
            self._following.discard(table_id)
            self._change("unsubscribe", table_id)

    def _change(self, verb: str, table_id: str) -> None:
        pubsub = self._pubsub
        if pubsub is None or not self.connected:
            return  # (re)subscribed on connecting

        async def change() -> None:
            try:
                await getattr(pubsub, verb)(channel(table_id))
            except Exception as exc:  # reconnecting subscribes to every table held
                log.warning("redis %s failed: %s", verb, type(exc).__name__)

        task = asyncio.create_task(change())
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)

    async def publish(self, message: dict[str, Any]) -> None:
        if not self.connected:  # peers poll the database meanwhile
            return
        payload = json.dumps({**message, "origin": self.origin})
        try:
            table_id = message.get("table")
            await self._redis.publish(
                channel(table_id) if isinstance(table_id, str) else CHANNEL, payload
            )
        except Exception as exc:  # the database holds the truth; peers resync later
            log.warning("redis publish failed: %s", type(exc).__name__)

    async def _listen(self) -> None:
        delay = BACKOFF[0]
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(CHANNEL, *(channel(t) for t in self._following))
                self._pubsub = pubsub
                self._ready.set()
                if self._warned:
                    log.warning("redis subscription restored")
                    self._warned = False
                delay = BACKOFF[0]
                if self._on_connect is not None:
                    await self._on_connect()
                async for raw in pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    try:
                        message = json.loads(raw["data"])
                    except (ValueError, TypeError):
                        continue
                    if message.get("origin") == self.origin or self._handler is None:
                        continue
                    try:
                        await self._handler(message)
                    except Exception:
                        log.exception("table event from redis failed")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._ready.clear()
                self._pubsub = None
                if not self._warned:  # one line per outage, not one per retry
                    log.warning("redis unreachable (%s); retrying", type(exc).__name__)
                    self._warned = True
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF[1])


def channel(table_id: str) -> str:
    """A table's own channel."""
    return f"{CHANNEL}:{table_id}"


def make_broadcaster(redis_url: str | None) -> Broadcaster:
    return RedisBroadcaster(redis_url) if redis_url else LocalBroadcaster()


class Subscriber:
    """One socket's outbox: messages queue here and a sender task writes them in order.

    A socket that falls ``limit`` messages behind is dropped (``overflowed``); its client
    reconnects and resyncs from its last ``seq``.
    """

    def __init__(self, seat: int | None, lang: str, limit: int = 512) -> None:
        self.seat = seat
        self.lang = lang
        #: a message, or its JSON text when serialised once for several sockets
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(limit)
        self.overflowed = False
        #: the socket's id in ``presence``
        self.conn = ""

    def send(self, message: dict[str, Any] | str) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)


class Hub:
    """The in-process broadcaster: the sockets of each table held by this process."""

    def __init__(self) -> None:
        self._tables: dict[str, set[Subscriber]] = {}

    def join(self, table_id: str, sub: Subscriber) -> None:
        self._tables.setdefault(table_id, set()).add(sub)

    def leave(self, table_id: str, sub: Subscriber) -> None:
        subs = self._tables.get(table_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._tables[table_id]

    def subscribers(self, table_id: str) -> list[Subscriber]:
        return list(self._tables.get(table_id, ()))

    def count(self, table_id: str, seat: int | None) -> int:
        return sum(1 for s in self._tables.get(table_id, ()) if s.seat == seat)
