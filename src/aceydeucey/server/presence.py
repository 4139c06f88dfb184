"""Who is at a table: the seats' sockets and last-seen times, and the spectators.

One process keeps this in memory (``MemoryPresence``).  With Redis (``RedisPresence``)
every process writes its sockets to Redis, so that a player connected to process A
is present for process B too (a claim answered by B sees them), and the lobby
counts every process's spectators.  Per table, two sorted sets:

- ``{prefix}:conn:{table}``: one member per open socket, ``"{seat}:{id}"`` (``"w:{id}"``
  for a spectator), scored with its last heartbeat; the holding process refreshes it
  every ``interval`` seconds and removes it when the socket closes.  An entry older
  than ``ttl`` (a few intervals: its process was killed) no longer counts as open,
  its score is that seat's last sighting;
- ``{prefix}:seen:{table}``: seat -> the latest time it was seen (a socket opened or
  closed, a request with its token), only ever raised (``ZADD GT``).

A seat is *away* when no socket anywhere holds it; it has been away for the time
since the latest of those entries.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MemoryPresence", "Presence", "RedisPresence", "make_presence"]

log = logging.getLogger("aceydeucey.server")

#: Seconds between heartbeats of the open sockets (Redis).
INTERVAL = 5.0
#: A socket entry not refreshed for this long is a dead process's (Redis).
TTL = 3 * INTERVAL
#: Redis keys of a table nobody touches expire after this long.
KEY_TTL = 24 * 3600


@dataclass
class Remote:
    """What other processes hold for one table, as last read (for the synchronous views)."""

    seats: set[int] = field(default_factory=set)
    spectators: int = 0


class Presence:
    """The interface, and the one-process implementation's shared parts.

    ``join``/``leave`` a socket (``seat`` ``None``: a spectator), ``seen`` a seat's
    request; ``away(table, seat)``: ``0.0`` while some socket holds the seat, else the
    seconds since it was last seen (``None``: never seen here); ``spectators`` counts
    every process's spectator sockets; ``remote(table)`` is what other processes held
    at the last refresh (empty with one process).
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.origin = secrets.token_hex(6)
        self._count = 0
        #: this process's sockets: table -> connection id -> seat
        self._local: dict[str, dict[str, int | None]] = {}

    def new_id(self) -> str:
        self._count += 1
        return f"{self.origin}-{self._count}"

    async def start(self) -> None:
        """Nothing to start in memory."""

    async def stop(self) -> None:
        self._local.clear()

    async def join(self, table_id: str, conn: str, seat: int | None) -> None:
        self._local.setdefault(table_id, {})[conn] = seat

    async def leave(self, table_id: str, conn: str, seat: int | None) -> None:
        conns = self._local.get(table_id)
        if conns is not None:
            conns.pop(conn, None)
            if not conns:
                del self._local[table_id]

    async def seen(self, table_id: str, seat: int) -> None:
        """A request from ``seat``."""

    async def away(self, table_id: str, seat: int) -> float | None:
        raise NotImplementedError

    async def spectators(self, table_ids: Iterable[str]) -> dict[str, int]:
        raise NotImplementedError

    def remote(self, table_id: str) -> Remote:
        return Remote()

    def forget(self, table_id: str) -> None:
        """A finished table this process no longer holds: drop what is kept for it."""

    async def refresh(self, table_id: str) -> Remote:
        """Read what other processes hold now (and keep it for ``remote``)."""
        return Remote()


class MemoryPresence(Presence):
    """One process: its own sockets are everything."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self._seen: dict[str, dict[int, float]] = {}

    def _mark(self, table_id: str, seat: int) -> None:
        seen = self._seen.setdefault(table_id, {})
        seen[seat] = max(seen.get(seat, 0.0), self.clock())

    async def join(self, table_id: str, conn: str, seat: int | None) -> None:
        await super().join(table_id, conn, seat)
        if seat is not None:
            self._mark(table_id, seat)

    async def leave(self, table_id: str, conn: str, seat: int | None) -> None:
        await super().leave(table_id, conn, seat)
        if seat is not None:
            self._mark(table_id, seat)

    async def seen(self, table_id: str, seat: int) -> None:
        self._mark(table_id, seat)

    def forget(self, table_id: str) -> None:
        if table_id not in self._local:
            self._seen.pop(table_id, None)

    async def away(self, table_id: str, seat: int) -> float | None:
        if seat in self._local.get(table_id, {}).values():
            return 0.0
        last = self._seen.get(table_id, {}).get(seat)
        return None if last is None else max(0.0, self.clock() - last)

    async def spectators(self, table_ids: Iterable[str]) -> dict[str, int]:
        return {t: sum(1 for s in self._local.get(t, {}).values() if s is None) for t in table_ids}


def _member(conn: str, seat: int | None) -> str:
    return f"{'w' if seat is None else seat}:{conn}"


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class RedisPresence(Presence):
    """Every process's sockets, in Redis, refreshed by a heartbeat (see the module's notes)."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "aceydeucey",
        interval: float = INTERVAL,
        ttl: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(clock)
        import redis.asyncio as redis

        from aceydeucey.server.pubsub import redis_pool

        self._redis = redis.Redis(connection_pool=redis_pool(url))
        self.prefix = prefix
        self.interval = interval
        self.ttl = 3 * interval if ttl is None else ttl
        self._remote: dict[str, Remote] = {}
        self._task: asyncio.Task[None] | None = None

    def _conn_key(self, table_id: str) -> str:
        return f"{self.prefix}:conn:{table_id}"

    def _seen_key(self, table_id: str) -> str:
        return f"{self.prefix}:seen:{table_id}"

    async def start(self) -> None:
        """Start the heartbeat; Redis being down does not stop the process (presence
        then degrades to this process's own sockets until Redis is back)."""
        self._task = asyncio.create_task(self._heartbeat())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        with contextlib.suppress(Exception):  # this process's sockets are gone with it
            for table_id, conns in list(self._local.items()):
                for conn, seat in list(conns.items()):
                    await self.leave(table_id, conn, seat)
        await super().stop()
        await self._redis.aclose()

    async def _write(
        self, table_id: str, conn: str | None, seat: int | None, *, gone: bool
    ) -> None:
        now = self.clock()
        pipe = self._redis.pipeline(transaction=False)
        if conn is not None:
            if gone:
                pipe.zrem(self._conn_key(table_id), _member(conn, seat))
            else:
                pipe.zadd(self._conn_key(table_id), {_member(conn, seat): now})
            pipe.expire(self._conn_key(table_id), KEY_TTL)
        if seat is not None:
            pipe.zadd(self._seen_key(table_id), {str(seat): now}, gt=True)
            pipe.expire(self._seen_key(table_id), KEY_TTL)
        try:
            await pipe.execute()
        except Exception as exc:  # presence degrades to this process's view; play goes on
            log.warning("redis presence write failed: %s", type(exc).__name__)

    async def join(self, table_id: str, conn: str, seat: int | None) -> None:
        await super().join(table_id, conn, seat)
        await self._write(table_id, conn, seat, gone=False)

    async def leave(self, table_id: str, conn: str, seat: int | None) -> None:
        await super().leave(table_id, conn, seat)
        await self._write(table_id, conn, seat, gone=True)

    async def seen(self, table_id: str, seat: int) -> None:
        await self._write(table_id, None, seat, gone=False)

    async def _entries(self, table_id: str) -> tuple[list[tuple[str, float]], dict[int, float]]:
        pipe = self._redis.pipeline(transaction=False)
        pipe.zrange(self._conn_key(table_id), 0, -1, withscores=True)
        pipe.zrange(self._seen_key(table_id), 0, -1, withscores=True)
        conns, seen = await pipe.execute()
        return (
            [(_text(m), float(s)) for m, s in conns],
            {int(_text(m)): float(s) for m, s in seen},
        )

    async def away(self, table_id: str, seat: int) -> float | None:
        if seat in self._local.get(table_id, {}).values():
            return 0.0
        try:
            conns, seen = await self._entries(table_id)
        except Exception as exc:  # unknown: count the seat present, so nobody claims it wrongly
            log.warning("redis presence read failed: %s", type(exc).__name__)
            return 0.0
        now = self.clock()
        times = [seen[seat]] if seat in seen else []
        for member, at in conns:
            if member.partition(":")[0] == str(seat):
                if at >= now - self.ttl:
                    return 0.0
                times.append(at)  # a killed process's socket: the seat was there until then
        return max(0.0, now - max(times)) if times else None

    async def spectators(self, table_ids: Iterable[str]) -> dict[str, int]:
        ids = list(table_ids)
        if not ids:
            return {}
        since = self.clock() - self.ttl
        pipe = self._redis.pipeline(transaction=False)
        for table_id in ids:
            pipe.zrangebyscore(self._conn_key(table_id), since, "+inf")
        try:
            found = await pipe.execute()
        except Exception as exc:  # this process's own spectators, then
            log.warning("redis presence read failed: %s", type(exc).__name__)
            return {t: sum(1 for s in self._local.get(t, {}).values() if s is None) for t in ids}
        return {
            table_id: sum(1 for m in members if _text(m).startswith("w:"))
            for table_id, members in zip(ids, found, strict=True)
        }

    def remote(self, table_id: str) -> Remote:
        return self._remote.get(table_id, Remote())

    def forget(self, table_id: str) -> None:
        self._remote.pop(table_id, None)

    async def refresh(self, table_id: str) -> Remote:
        since = self.clock() - self.ttl
        mine = {_member(c, s) for c, s in self._local.get(table_id, {}).items()}
        remote = Remote()
        try:
            members = await self._redis.zrangebyscore(self._conn_key(table_id), since, "+inf")
        except Exception as exc:  # keep the last reading
            log.warning("redis presence read failed: %s", type(exc).__name__)
            return self.remote(table_id)
        for member in members:
            text = _text(member)
            if text in mine:
                continue
            kind = text.partition(":")[0]
            if kind == "w":
                remote.spectators += 1
            else:
                remote.seats.add(int(kind))
        if remote.seats or remote.spectators:
            self._remote[table_id] = remote
        else:
            self._remote.pop(table_id, None)
        return remote

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                now = self.clock()
                pipe = self._redis.pipeline(transaction=False)
                for table_id, conns in list(self._local.items()):
                    key = self._conn_key(table_id)
                    pipe.zadd(key, {_member(c, s): now for c, s in conns.items()})
                    pipe.expire(key, KEY_TTL)
                    # entries of long-dead processes: their seats have been away for over an hour
                    pipe.zremrangebyscore(key, "-inf", now - max(KEY_TTL / 24, 10 * self.ttl))
                await pipe.execute()
                for table_id in list(self._local):
                    await self.refresh(table_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("redis presence heartbeat failed: %s", type(exc).__name__)


def make_presence(redis_url: str | None, clock: Callable[[], float] = time.time) -> Presence:
    return RedisPresence(redis_url, clock=clock) if redis_url else MemoryPresence(clock)
