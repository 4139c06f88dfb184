"""Redis between processes: forwarded commands, the bounded history, reconnection.

Two table services in one event loop share a SQLite file and the real Redis: one owns
a table, the other holds a read copy.  The copy follows every step from the published
entries and resyncs from the table's history in Redis without reading the store while
the history covers it; a gap it cannot fill from the history forces a store read.
Then, as real processes, Redis cut and restored under the second process: it reconnects
by itself, and commands sent to it reach the owner again.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.sync.client import connect

from aceydeucey.server.presence import make_presence
from aceydeucey.server.pubsub import RedisBroadcaster, history_key
from aceydeucey.server.service import TableService
from aceydeucey.server.settings import Settings
from aceydeucey.server.store import Store

from .conftest import PG_URL, REDIS_URL, pg_schema
from .proxy import TcpProxy
from .test_kills import next_move, seat_people, send
from .test_processes import free_port, receive_until, uvicorn


def service(url: str, **overrides: Any) -> TableService:
    settings = Settings(
        database_url=url, redis_url=REDIS_URL, rate_limits=False, lease_seconds=5, **overrides
    )
    return TableService(
        settings,
        Store(settings.database_url),
        RedisBroadcaster(REDIS_URL),
        make_presence(REDIS_URL),
    )


def choose(svc: TableService, table_id: str, seat: int) -> str:
    t = svc._tables[table_id]
    if t.to_roll() == seat:
        return "roll"
    return str(next(iter(t.state.legal_actions())))


async def until_seq(svc: TableService, table_id: str, seq: int) -> None:
    for _ in range(250):
        if svc._tables[table_id].seq >= seq:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the copy never reached seq {seq}")


async def history_scenario(url: str) -> None:
    owner, other = service(url), service(url, migrate=False)
    await owner.start()
    await other.start()
    try:
        t = await owner.create("backgammon", {}, ["human", "human"])
        tokens = {s: await owner.join(t.id, s, f"p{s}") for s in (0, 1)}
        copy = await other.table(t.id)
        reads: list[int] = []
        entries = other.store.entries

        async def counted(table_id: str, since: int = 0) -> Any:
            reads.append(since)
            return await entries(table_id, since)

        other.store.entries = counted  # type: ignore[method-assign]

        async def move() -> int:
            seat = t.person_to_act()
            assert seat is not None
            view = await owner.act(t.id, tokens[seat], t.seq, choose(owner, t.id, seat))
            seq: int = view["seq"]
            return seq

        for _ in range(4):  # each step reaches the copy with its entries: no store read
            await until_seq(other, t.id, await move())
        await other.refreshed(copy)
        assert copy.seq == t.seq and copy.events == t.events and reads == []

        other.broadcaster.unfollow(t.id)  # messages missed: the history fills the gap
        await asyncio.sleep(0.1)
        await move()
        await move()
        await asyncio.sleep(0.2)  # the owner publishes each step just after its commit
        assert copy.seq < t.seq
        await other.refreshed(copy)
        assert copy.seq == t.seq and copy.events == t.events and reads == []

        await move()  # a gap the history cannot fill (trimmed to the newest entry)
        await move()
        await asyncio.sleep(0.2)
        redis = owner.broadcaster._redis  # type: ignore[attr-defined]
        await redis.ltrim(history_key(t.id), -1, -1)
        await other.refreshed(copy)
        assert copy.seq == t.seq and copy.events == t.events and len(reads) == 1

        # a command sent to the other process is applied by the owner, once
        seat = t.person_to_act()
        assert seat is not None and not other.owners.owns(t.id) and owner.owners.owns(t.id)
        before, action = t.seq, choose(owner, t.id, seat)
        view = await other.act(t.id, tokens[seat], before, action)
        assert view["seq"] == t.seq > before and copy.seq == t.seq
        again = await other.act(t.id, tokens[seat], before, action)  # a retry: applied once
        assert again["duplicate"] is True and t.seq == view["seq"]
        assert [e.seq for e in t.entries] == list(range(1, t.seq + 1))
    finally:
        await other.stop()
        await owner.stop()


@pytest.mark.slow
def test_a_read_copy_follows_from_published_steps_and_the_history(tmp_path: Path) -> None:
    asyncio.run(history_scenario(f"sqlite+aiosqlite:///{tmp_path / 'tables.sqlite3'}"))


@pytest.mark.slow
def test_redis_cut_and_restored_the_process_reconnects_and_forwards_again() -> None:
    parts = urlsplit(REDIS_URL)
    with (
        pg_schema() as schema,
        TcpProxy(parts.hostname or "127.0.0.1", parts.port or 6379) as proxy,
    ):
        env = {
            "DATABASE_URL": PG_URL,
            "ACEYDEUCEY_DATABASE_SCHEMA": schema,
            "REDIS_URL": REDIS_URL,
            "ACEYDEUCEY_LEASE_SECONDS": "2",
            "ACEYDEUCEY_FORWARD_TIMEOUT": "3",
            "ACEYDEUCEY_RETRY_AFTER": "1",
            "ACEYDEUCEY_RATE_LIMITS": "0",
        }
        cut_redis = REDIS_URL.replace(parts.netloc, f"127.0.0.1:{proxy.port}", 1)
        pa, pb = free_port(), free_port()
        with (
            uvicorn(pa, env) as (a, _),
            uvicorn(pb, {**env, "REDIS_URL": cut_redis, "ACEYDEUCEY_MIGRATE": "0"}) as (b, _),
        ):
            table_id, tokens = seat_people(a, {"game": "backgammon", "seats": ["human", "human"]})
            with connect(f"ws://127.0.0.1:{pb}/ws/tables/{table_id}") as watcher:
                receive_until(watcher, 0)
                proxy.cut()
                # B cannot reach the owner: 503, nothing applied; A goes on serving
                move = next_move(a, table_id, tokens)
                assert move is not None
                refused = _eventually(
                    lambda: send(b, table_id, tokens[move[0]], move[1], move[2]),
                    lambda r: r.status_code == 503,
                    "503 from the process without Redis",
                )
                assert refused.headers["Retry-After"] == "1"
                assert httpx.get(f"{a}/api/tables/{table_id}").json()["seq"] == move[1]
                r = send(a, table_id, tokens[move[0]], move[1], move[2])
                assert r.status_code == 200, r.text
                # B's socket still sees it (B reads the store while Redis is away)
                assert receive_until(watcher, r.json()["seq"])["seq"] >= r.json()["seq"]
                proxy.restore()
                # reconnected by itself: a command sent to B reaches the owner again
                move = next_move(a, table_id, tokens)
                assert move is not None
                done = _eventually(
                    lambda: send(b, table_id, tokens[move[0]], move[1], move[2]),
                    lambda r: r.status_code == 200,
                    "B forwarding again after Redis came back",
                )
                assert done.json()["seq"] > move[1]
                assert receive_until(watcher, done.json()["seq"])["seq"] >= done.json()["seq"]
                health = httpx.get(f"{b}/health").json()
                assert health["checks"]["redis"] == "ok" and health["tables"]["owned"] == 0


def _eventually(call: Any, ok: Any, what: str, tries: int = 150) -> Any:
    """Retry as a client that honours ``Retry-After`` would (bounded, no timing asserted)."""
    got = None
    for _ in range(tries):
        got = call()
        if ok(got):
            return got
        time.sleep(0.2)
    raise AssertionError(f"never: {what} (last: {getattr(got, 'text', got)})")


async def tail_scenario(url: str) -> None:
    """Steps whose messages never reached the copy, and no step after them (a game's
    last): the copy's spectators still get them, from the history, within seconds."""
    owner, other = service(url), service(url, migrate=False)
    await owner.start()
    await other.start()
    try:
        t = await owner.create("backgammon", {}, ["human", "human"])
        tokens = {s: await owner.join(t.id, s, f"p{s}") for s in (0, 1)}
        copy = await other.table(t.id)
        watcher = await other.subscribe(copy, None, "en")
        other.broadcaster.unfollow(t.id)  # every message from here on is lost
        await asyncio.sleep(0.1)
        for _ in range(3):
            seat = t.person_to_act()
            assert seat is not None
            await owner.act(t.id, tokens[seat], t.seq, choose(owner, t.id, seat))
        await asyncio.sleep(0.2)
        assert copy.seq < t.seq  # nothing more is coming for the copy to notice a gap by
        from aceydeucey.server import service as service_module

        service_module.TAIL_SECONDS = 0.3  # (the test's monkeypatch puts it back)
        await until_seq(other, t.id, t.seq)
        seen = []
        while not watcher.queue.empty():
            message = watcher.queue.get_nowait()
            if isinstance(message, str):
                message = json.loads(message)
            if isinstance(message, dict) and message.get("type") == "state":
                seen.append(message["seq"])
        assert seen and seen[-1] == t.seq, seen
        assert copy.events == t.events
    finally:
        await other.stop()
        await owner.stop()


@pytest.mark.slow
def test_a_watched_copy_catches_up_on_steps_it_never_heard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aceydeucey.server import service as service_module

    monkeypatch.setattr(service_module, "POLL_SECONDS", 0.1)
    monkeypatch.setattr(service_module, "TAIL_SECONDS", 3600.0)  # until the moves are made
    asyncio.run(tail_scenario(f"sqlite+aiosqlite:///{tmp_path / 'tables.sqlite3'}"))
