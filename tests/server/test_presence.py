"""Presence: the in-memory and the Redis implementations agree; with Redis, every process
sees every other's sockets (claims and the lobby's spectators across real processes).

The Redis tests use the real Redis at ``ACEYDEUCEY_TEST_REDIS_URL`` with a key prefix
of their own, removed afterwards; without Redis they fail, never skip.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import redis.asyncio as redis
from websockets.sync.client import connect

from aceydeucey.server.presence import MemoryPresence, Presence, RedisPresence

from .conftest import PG_URL, REDIS_URL, pg_schema
from .test_processes import bearer, free_port, receive_until, uvicorn


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _cleanup(prefix: str) -> None:
    r = redis.Redis.from_url(REDIS_URL)
    try:
        keys = [k async for k in r.scan_iter(match=f"{prefix}:*")]
        if keys:
            await r.delete(*keys)
    finally:
        await r.aclose()


Factory = Callable[..., Awaitable[Presence]]


async def _with(kind: str, body: Callable[[Factory], Awaitable[None]]) -> None:
    prefix = f"test-presence-{secrets.token_hex(6)}"
    made: list[Presence] = []

    async def make(clock: Clock, **kwargs: Any) -> Presence:
        p: Presence
        if kind == "memory":
            p = MemoryPresence(clock)
        else:
            p = RedisPresence(REDIS_URL, prefix=prefix, clock=clock, **kwargs)
        await p.start()  # Redis absent: this raises, and the test fails
        made.append(p)
        return p

    try:
        await body(make)
    finally:
        for p in made:
            await p.stop()
        if kind == "redis":
            await _cleanup(prefix)


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_one_process_sockets_requests_and_spectators(kind: str) -> None:
    async def body(make: Factory) -> None:
        clock = Clock()
        p = await make(clock, interval=3600)
        assert await p.away("t1", 0) is None  # never seen
        a, b = p.new_id(), p.new_id()
        assert a != b
        await p.join("t1", a, 0)
        clock.now = 1500
        assert await p.away("t1", 0) == 0.0  # a socket holds it, however old
        assert await p.away("t1", 1) is None
        await p.leave("t1", a, 0)
        clock.now = 1530
        assert await p.away("t1", 0) == 30.0  # away since the socket closed
        await p.seen("t1", 0)  # a request with the seat's token
        clock.now = 1540
        assert await p.away("t1", 0) == 10.0
        # two sockets for one seat: it stays present until both close
        c, d = p.new_id(), p.new_id()
        await p.join("t1", c, 1)
        await p.join("t1", d, 1)
        await p.leave("t1", c, 1)
        assert await p.away("t1", 1) == 0.0
        await p.leave("t1", d, 1)
        clock.now = 1545
        assert await p.away("t1", 1) == 5.0
        # spectators per table
        w1, w2, w3 = p.new_id(), p.new_id(), p.new_id()
        await p.join("t1", w1, None)
        await p.join("t1", w2, None)
        await p.join("t2", w3, None)
        assert await p.spectators(["t1", "t2", "t3"]) == {"t1": 2, "t2": 1, "t3": 0}
        await p.leave("t1", w1, None)
        assert await p.spectators(["t1", "t2"]) == {"t1": 1, "t2": 1}
        assert await p.away("t1", 0) == 15.0  # spectators are nobody's seat
        # what other processes hold: nothing, seen from the only process
        assert (await p.refresh("t1")).spectators == 0 and not p.remote("t1").seats

    asyncio.run(_with(kind, body))


def test_redis_processes_see_each_other() -> None:
    async def body(make: Factory) -> None:
        clock = Clock()
        a = await make(clock, interval=3600)
        b = await make(clock, interval=3600)
        conn = a.new_id()
        await a.join("t", conn, 1)
        clock.now = 1005
        assert await b.away("t", 1) == 0.0
        watcher = b.new_id()
        await b.join("t", watcher, None)
        await a.join("t", a.new_id(), None)
        assert await a.spectators(["t"]) == await b.spectators(["t"]) == {"t": 2}
        seen_by_b = await b.refresh("t")
        assert seen_by_b.seats == {1} and seen_by_b.spectators == 1 and b.remote("t") == seen_by_b
        seen_by_a = await a.refresh("t")
        assert seen_by_a.seats == set() and seen_by_a.spectators == 1
        await a.leave("t", conn, 1)
        clock.now = 1025
        assert await b.away("t", 1) == 20.0
        assert (await b.refresh("t")).seats == set()

    asyncio.run(_with("redis", body))


def test_redis_entries_of_a_dead_process_expire() -> None:
    async def body(make: Factory) -> None:
        clock = Clock()
        dead = await make(clock, interval=3600, ttl=15)  # its heartbeat never comes
        alive = await make(clock, interval=3600, ttl=15)
        await dead.join("t", dead.new_id(), 0)
        await dead.join("t", dead.new_id(), None)
        clock.now = 1010
        assert await alive.away("t", 0) == 0.0
        assert await alive.spectators(["t"]) == {"t": 1}
        clock.now = 1016  # past the ttl: the socket no longer counts as open
        assert await alive.away("t", 0) == 16.0  # away since its last heartbeat
        assert await alive.spectators(["t"]) == {"t": 0}
        assert (await alive.refresh("t")).seats == set()

    asyncio.run(_with("redis", body))


def test_redis_heartbeat_keeps_open_sockets_alive() -> None:
    async def body(make: Factory) -> None:
        clock = Clock()
        holder = await make(clock, interval=0.05, ttl=15)
        other = await make(clock, interval=3600, ttl=15)
        await holder.join("t", holder.new_id(), 0)
        await holder.join("t", holder.new_id(), None)
        clock.now = 2000  # far past the ttl: only a heartbeat at this time makes it open
        for _ in range(200):
            if await other.away("t", 0) == 0.0:
                break
            await asyncio.sleep(0.02)
        assert await other.away("t", 0) == 0.0
        assert await other.spectators(["t"]) == {"t": 1}

    asyncio.run(_with("redis", body))


def test_redis_last_seen_only_moves_forward() -> None:
    async def body(make: Factory) -> None:
        clock = Clock(2000)
        ahead = await make(clock, interval=3600)
        await ahead.seen("t", 0)
        behind_clock = Clock(1500)
        behind = await make(behind_clock, interval=3600)
        await behind.seen("t", 0)  # an older sighting does not replace a newer one
        clock.now = 2010
        assert await ahead.away("t", 0) == 10.0

    asyncio.run(_with("redis", body))


def test_redis_presence_unreachable_starts_and_degrades() -> None:
    # Redis down: the process starts; a seat whose presence cannot be read counts as
    # present (nobody claims it wrongly), and the lobby counts this process's spectators
    async def body() -> None:
        p = RedisPresence("redis://127.0.0.1:1/0")
        await p.start()
        await p.join("t", "c1", None)
        assert await p.away("t", 0) == 0.0
        assert await p.spectators(["t"]) == {"t": 1}
        await p.stop()

    asyncio.run(body())


def _until(check: Callable[[], Any], what: str, seconds: float = 30) -> Any:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"never: {what}")


def _spectators(base: str, table_id: str) -> int:
    lobby = httpx.get(f"{base}/api/tables").json()["tables"]
    return int(next(t["spectators"] for t in lobby if t["id"] == table_id))


@pytest.mark.slow
def test_presence_is_shared_by_two_processes() -> None:
    with pg_schema() as schema:
        env = {
            "DATABASE_URL": PG_URL,
            "ACEYDEUCEY_DATABASE_SCHEMA": schema,
            "REDIS_URL": REDIS_URL,
            "ACEYDEUCEY_MIN_CLAIM_AFTER": "0",  # claims after 2 s, below the default floor
        }
        pa, pb = free_port(), free_port()
        with uvicorn(pa, env) as (a, _), uvicorn(pb, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (b, _):
            claim_after = 2
            table_id = httpx.post(
                f"{a}/api/tables",
                json={
                    "game": "backgammon",
                    "seats": ["human", "human"],
                    "claim_after": claim_after,
                },
            ).json()["id"]
            claimer = httpx.post(f"{b}/api/tables/{table_id}/seats/0", json={"name": "B"}).json()
            away = httpx.post(f"{a}/api/tables/{table_id}/seats/1", json={"name": "A"}).json()
            assert claimer["seat"] == 0 and away["seat"] == 1

            def claim() -> httpx.Response:
                return httpx.post(
                    f"{b}/api/tables/{table_id}/claim",
                    json={"seat": 1, "mode": "win"},
                    headers=bearer(claimer["token"]),
                )

            base_ws = f"ws://127.0.0.1:{{}}/ws/tables/{table_id}"
            with (
                connect(base_ws.format(pa) + f"?token={away['token']}") as player,
                connect(base_ws.format(pa)) as watcher_a,
                connect(base_ws.format(pb)) as watcher_b,
            ):
                for ws in (player, watcher_a, watcher_b):
                    receive_until(ws, 0)
                # the lobby counts the spectators of both processes, from either
                _until(lambda: _spectators(a, table_id) == 2, "2 spectators on A")
                _until(lambda: _spectators(b, table_id) == 2, "2 spectators on B")
                # B's view shows the player that A holds as connected, and both watchers
                view_b = _until(
                    lambda: (
                        v
                        if (v := httpx.get(f"{b}/api/tables/{table_id}").json())["seats"][1][
                            "connected"
                        ]
                        else None
                    ),
                    "seat 1 connected in B's view",
                )
                assert view_b["spectators"] == 2
                # long past claim_after, over more than one heartbeat, with no request from
                # the player: connected to A, the seat is not claimable through B
                end = time.monotonic() + claim_after + 6
                while time.monotonic() < end:
                    r = claim()
                    assert r.status_code == 409, r.text
                    assert r.json()["error"]["code"] == "server.claim_too_soon"
                    time.sleep(0.5)
                watcher_b.close()
                _until(lambda: _spectators(a, table_id) == 1, "1 spectator on A")
                _until(lambda: _spectators(b, table_id) == 1, "1 spectator on B")
                player.close()
                # once the player has gone for claim_after, B lets the opponent claim
                r = _until(lambda: r if (r := claim()).status_code == 200 else None, "claim")
                assert r.json()["ended"]["termination"] == "claimed"
                assert r.json()["status"] == "over"
            record = httpx.get(f"{a}/api/tables/{table_id}/record").json()
            assert record["result"]["termination"] == "ending.claimed"
            assert record["result"]["terminal"] is True
