"""Rate limits (the ``limits`` library): in memory, or in Redis shared by every process
(tables made and seats taken; the per-socket, per-seat and wrong-token counters are
checked on every request and stay in each process's memory).

Each limit is a ``limits`` expression from the settings (``"30/minute"``) and a key:

- ``create``, ``join``: per client address (tables made, seats taken);
- ``act``: refused actions (stale, illegal, out of turn), per socket and per seat over
  HTTP (a player's accepted actions are paced by the game itself);
- ``message``: every socket message, and chat lines over HTTP per seat;
- ``wrong_token``: per client address, counted on each refused token; once spent, a
  token is refused before it is looked up.

A limit reached answers 429 ``server.rate_limited`` with ``Retry-After``.  When the
Redis holding the counters cannot be reached the limits let requests through (and say
so in one log line): losing the counters must not take the tables down.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter

from aceydeucey.server.errors import ServerError, is_outage
from aceydeucey.server.logs import fault
from aceydeucey.server.settings import Settings

__all__ = ["KINDS", "SHARED", "RateLimits"]

KINDS = ("create", "join", "act", "message", "wrong_token")
#: Counted in Redis (with ``--redis``) so every process shares them; the others are
#: counted where they are checked, on every request, so they stay in this process's
#: memory (a socket lives in one process; a flood of wrong tokens or refused actions
#: spread over N processes meets N times the limit, and costs no Redis round trip).
SHARED = frozenset({"create", "join"})


class RateLimits:
    """The server's limits; ``await limits.hit(kind, key)`` counts one and may raise 429."""

    def __init__(self, settings: Settings) -> None:
        self.enabled = settings.rate_limits
        self.items: dict[str, RateLimitItem] = {
            kind: parse(getattr(settings, f"rate_{kind}")) for kind in KINDS
        }
        self.storage: Storage
        if settings.redis_url:
            from limits.storage import storage_from_string

            url = settings.redis_url
            found = storage_from_string(
                url if url.startswith("async+") else f"async+{url}", implementation="redispy"
            )
            assert isinstance(found, Storage)
            self.storage = found
        else:
            self.storage = MemoryStorage()
        self.limiter = FixedWindowRateLimiter(self.storage)
        self.local = FixedWindowRateLimiter(MemoryStorage())
        self._warned = 0.0

    def _refuse(self, kind: str, reset: float) -> ServerError:
        item = self.items[kind]
        wait = max(1, math.ceil(reset - time.time()))
        return ServerError(
            429,
            "server.rate_limited",
            count=item.amount,
            seconds=item.get_expiry(),
            retry_after=wait,
        )

    async def hit(self, kind: str, key: str) -> None:
        """Count one ``kind`` for ``key``; 429 when the limit is already reached."""
        await self._apply(kind, key, count=True)

    async def check(self, kind: str, key: str) -> None:
        """429 when ``key`` has no ``kind`` left, without counting one."""
        await self._apply(kind, key, count=False)

    async def _apply(self, kind: str, key: str, *, count: bool) -> None:
        if not self.enabled:
            return
        item = self.items[kind]
        limiter = self.limiter if kind in SHARED else self.local
        try:
            allowed = limiter.hit if count else limiter.test
            if await allowed(item, kind, key):
                return
            stats = await limiter.get_window_stats(item, kind, key)
        except Exception as exc:
            self._storage_failed(exc)
            return
        raise self._refuse(kind, stats.reset_time)

    def _storage_failed(self, exc: Exception) -> None:
        if not is_outage(exc):
            raise exc
        now = time.monotonic()
        if now - self._warned > 30:  # one line per half minute, not one per request
            self._warned = now
            fault("rate_limits_unavailable", exc)
