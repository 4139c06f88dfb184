"""Redis pub/sub between processes: one channel per table, heard only by the processes
that hold the table; a process starts while Redis is unreachable."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from aceydeucey.server.pubsub import RedisBroadcaster

from .conftest import REDIS_URL


def test_a_process_hears_only_the_tables_it_holds() -> None:
    async def body() -> None:
        heard: list[dict[str, Any]] = []

        async def handler(message: dict[str, Any]) -> None:
            heard.append(message)

        async def nothing(message: dict[str, Any]) -> None:
            return None

        held, other = f"t-{secrets.token_hex(4)}", f"t-{secrets.token_hex(4)}"
        a, b = RedisBroadcaster(REDIS_URL), RedisBroadcaster(REDIS_URL)
        await a.start(handler)
        await b.start(nothing)
        try:
            assert a.connected and b.connected
            a.follow(held)
            for _ in range(100):  # the subscription is made in the background
                await b.publish({"table": held, "seq": 0})
                await asyncio.sleep(0.02)
                if heard:
                    break
            heard.clear()
            await b.publish({"table": other, "seq": 1})
            await b.publish({"table": held, "seq": 2})
            await a.publish({"table": held, "seq": 3})  # its own: ignored
            for _ in range(100):
                if heard:
                    break
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.2)
            assert [(m["table"], m["seq"]) for m in heard] == [(held, 2)]
            a.unfollow(held)
            await asyncio.sleep(0.2)
            heard.clear()
            await b.publish({"table": held, "seq": 4})
            await asyncio.sleep(0.3)
            assert heard == []
        finally:
            await a.stop()
            await b.stop()

    asyncio.run(body())


def test_a_broadcaster_starts_while_redis_is_unreachable() -> None:
    async def body() -> None:
        async def nothing(message: dict[str, Any]) -> None:
            return None

        down = RedisBroadcaster("redis://127.0.0.1:1/0")
        await down.start(nothing)  # no exception: it retries in the background
        assert not down.connected
        await down.publish({"table": "t", "seq": 1})  # dropped quietly
        await down.stop()

    asyncio.run(body())


def test_a_crowd_of_steps_at_once_is_published_and_kept_every_one() -> None:
    """More steps in flight than a Redis connection pool's default size (100): each is
    published and kept in its table's history (none refused for want of a connection)."""

    async def body() -> None:
        async def nothing(message: dict[str, Any]) -> None:
            return None

        a = RedisBroadcaster(REDIS_URL)
        await a.start(nothing)
        ids = [f"crowd-{secrets.token_hex(4)}" for _ in range(400)]
        try:
            entry = {"seq": 1, "kind": "move", "seat": 0, "text": "pass", "data": None, "at": 0}
            await asyncio.gather(*(a.publish_step(t, 1, [entry]) for t in ids))
            kept = await asyncio.gather(*(a.history(t) for t in ids))
            assert sum(1 for h in kept if h) == len(ids)
        finally:
            await a.stop()

    asyncio.run(body())
