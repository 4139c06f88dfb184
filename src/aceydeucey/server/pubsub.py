"""Table events between processes: in-process listeners, and Redis pub/sub across processes.

A process that appends to a table's log publishes ``{"table": id, "seq": n}`` (or a
chat line, or ``{"seats": true}``) on the table's own channel; every *other* process
that holds the table (each subscribes to the tables it holds, and only those)
reloads the new entries from the database and pushes them.  The message
only says that something changed: the database stays the one truth, so a lost
message costs nothing but a delay (the next one, or a client's resync, catches up).

Each process also listens on its own channel (``aceydeucey:proc:{id}``): the owner of
a table (``owners.py``) receives there the commands other processes forward to it
(``request``) and answers each on the asker's channel.  Every step an owner appends
is published with its entries and kept in a bounded history per table (a capped
Redis list, ``HISTORY`` entries): a process that missed a message, or a client that
resyncs, reads what it lacks there, and reads the store only when the history does
not reach back far enough (a gap).

While Redis is down a process keeps serving: it starts without it, retries with
backoff, and meanwhile the service polls the database for the tables it holds
sockets for; once connected again it catches up every table it holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from aceydeucey.server.jsontext import dumps, loads

__all__ = [
    "HISTORY",
    "Broadcaster",
    "Hub",
    "LocalBroadcaster",
    "OwnerGone",
    "RedisBroadcaster",
    "Subscriber",
    "make_broadcaster",
]

log = logging.getLogger("aceydeucey.server")

#: Called with each message published by another process.
Handler = Callable[[dict[str, Any]], Awaitable[None]]
#: Called with each command another process forwards here; returns the answer.
Responder = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
#: Entries kept per table in Redis for resyncs (older ones are read from the store).
HISTORY = 256


class OwnerGone(Exception):
    """No process listens on the owner's channel (it died): its lease will expire."""


CHANNEL = "aceydeucey:tables"
#: Each process's own channel is ``PROCESS_CHANNEL:{its id}``.
PROCESS_CHANNEL = "aceydeucey:proc"
#: A table's history leaves Redis this long after its last step (seconds).
HISTORY_SECONDS = 3600
#: Redis connections per client (each process has two: events, presence), and the
#: seconds a command waits for one when all are busy.
POOL_SIZE = 64
POOL_WAIT = 10.0
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

    async def publish_step(self, table_id: str, seq: int, entries: list[dict[str, Any]]) -> None:
        """Tell the other processes of a step (its entries in the message), and keep the
        entries in the table's bounded history."""
        await self.publish({"table": table_id, "seq": seq, "entries": entries})

    async def history(self, table_id: str) -> list[dict[str, Any]]:
        """The table's latest entries as published (oldest first; none kept here)."""
        return []

    async def last_seq(self, table_id: str) -> int | None:
        """The seq of the table's last published entry (``None``: none kept here)."""
        return None

    def on_request(self, responder: Responder) -> None:
        """Answer the commands other processes forward to this one."""

    async def request(self, owner: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a command to the process ``owner`` and wait for its answer (alone, there
        is no other process: ``OwnerGone``)."""
        raise OwnerGone(owner)


class LocalBroadcaster(Broadcaster):
    """One process: nothing to carry."""


class RedisBroadcaster(Broadcaster):
    """Redis pub/sub, one channel per table (``aceydeucey:tables:{id}``): a process
    subscribes to the tables it holds only; each process ignores its own messages."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self.url = url
        self._redis = redis.Redis(connection_pool=redis_pool(url))
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._warned = False
        self._following: set[str] = set()
        self._pubsub: Any = None
        self._changes: set[asyncio.Task[Any]] = set()
        self._responder: Responder | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._serial = 0

    @property
    def inbox(self) -> str:
        """This process's own channel (forwarded commands and their answers)."""
        return f"{PROCESS_CHANNEL}:{self.origin}"

    def on_request(self, responder: Responder) -> None:
        self._responder = responder

    async def request(self, owner: str, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        if not self.connected:
            raise ConnectionError("redis unreachable")
        self._serial += 1
        rid = f"{self.origin}:{self._serial}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        try:
            payload = dumps({"rid": rid, "from": self.origin, "command": message})
            heard = await self._redis.publish(f"{PROCESS_CHANNEL}:{owner}", payload)
            if not heard:
                raise OwnerGone(owner)
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(rid, None)

    async def _answer(self, message: dict[str, Any]) -> None:
        responder, asker = self._responder, message.get("from")
        command = message.get("command")
        if responder is None or not isinstance(asker, str) or not isinstance(command, dict):
            return
        answer = await responder(command)
        reply = dumps({"reply": message.get("rid"), "answer": answer})
        try:
            await self._redis.publish(f"{PROCESS_CHANNEL}:{asker}", reply)
        except Exception as exc:  # the asker times out and answers 503
            log.warning("redis reply failed: %s", type(exc).__name__)

    def _on_inbox(self, message: dict[str, Any]) -> None:
        rid = message.get("reply")
        if isinstance(rid, str):
            future = self._waiting.get(rid)
            answer = message.get("answer")
            if future is not None and not future.done() and isinstance(answer, dict):
                future.set_result(answer)
            return
        if "command" in message:
            task = asyncio.create_task(self._answer(message))
            self._changes.add(task)
            task.add_done_callback(self._changes.discard)

    async def publish_step(self, table_id: str, seq: int, entries: list[dict[str, Any]]) -> None:
        if not self.connected:  # peers poll the database meanwhile
            return
        payload = dumps({"table": table_id, "seq": seq, "entries": entries, "origin": self.origin})
        key = history_key(table_id)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.rpush(key, *(dumps(e) for e in entries))
                pipe.ltrim(key, -HISTORY, -1)
                pipe.expire(key, HISTORY_SECONDS)
                pipe.publish(channel(table_id), payload)
                await pipe.execute()
        except Exception as exc:  # the database holds the truth; peers resync later
            log.warning("redis publish failed: %s", type(exc).__name__)

    async def last_seq(self, table_id: str) -> int | None:
        raw = await self._redis.lindex(history_key(table_id), -1)
        if raw is None:
            return None
        with contextlib.suppress(ValueError, TypeError):
            seq = loads(raw).get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool):
                return seq
        return None

    async def history(self, table_id: str) -> list[dict[str, Any]]:
        raw = await self._redis.lrange(history_key(table_id), 0, -1)
        out = []
        for item in raw:
            with contextlib.suppress(ValueError, TypeError):
                entry = loads(item)
                if isinstance(entry, dict):
                    out.append(entry)
        return out

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
        payload = dumps({**message, "origin": self.origin})
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
                await pubsub.subscribe(CHANNEL, self.inbox, *(channel(t) for t in self._following))
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
                        message = loads(raw["data"])
                    except (ValueError, TypeError):
                        continue
                    if not isinstance(message, dict):
                        continue
                    if _text(raw.get("channel")) == self.inbox:
                        self._on_inbox(message)
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


def history_key(table_id: str) -> str:
    """The Redis list of a table's latest entries."""
    return f"aceydeucey:history:{table_id}"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def redis_pool(url: str) -> Any:
    """A Redis connection pool that waits for a free connection (up to ``POOL_WAIT``
    seconds) instead of refusing a command: a crowd of sockets puts more commands in
    flight at once than any fixed pool holds, and a refused publish is a step the
    other processes never hear of."""
    import redis.asyncio as redis

    return redis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=POOL_WAIT)


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
