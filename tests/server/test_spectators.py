"""Spectators of a table owned by another process, as real processes (PostgreSQL, Redis).

Two servers; every table is created and played through A (its owner), while a crowd of
spectators watches through B, which holds only a read copy fed by Redis.  Each
spectator must receive every entry of the game in order, and its end.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import random
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from .conftest import pg_schema
from .test_kills import GAMES
from .test_owners import env_for
from .test_processes import free_port, uvicorn

#: Spectators per table, all on the process that does not own it (enough of them that
#: their sockets, presence and resyncs need more Redis connections than one pool's default).
WATCHERS = 60


async def _person(url: str, seat: int) -> int:
    """Play the seat's turns as fast as the server answers; the final seq."""
    rng = random.Random(seat)
    async with connect(url, max_size=2**22) as ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message.get("type") != "state":
                continue
            if message["status"] == "over":
                return int(message["seq"])
            legal = message["observation"].get("legal_actions") or []
            if message.get("to_act") == seat and legal:
                act = {"type": "act", "seq": message["seq"], "action": rng.choice(legal)}
                await ws.send(json.dumps(act))


async def _watch(url: str, ready: asyncio.Event, seen: list[int], ends: list[int]) -> None:
    """Every entry's seq the spectator is shown, from its first state to the end."""
    async with connect(url, max_size=2**22) as ws:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message.get("type") != "state":
                continue
            if not seen:
                seen.append(int(message["seq"]))  # the state it joined at
                ready.set()
            else:
                seen.extend(int(e["seq"]) for e in message.get("events") or [])
            if message["status"] == "over":
                ends.append(int(message["seq"]))
                return


async def _crowd(a: str, b: str, tables: list[tuple[str, dict[int, str]]]) -> list[str]:
    wa, wb = a.replace("http://", "ws://"), b.replace("http://", "ws://")
    watches: list[tuple[str, list[int], list[int]]] = []
    waiting = []
    people = []
    for table_id, _ in tables:
        for _ in range(WATCHERS):
            ready = asyncio.Event()
            seen: list[int] = []
            ends: list[int] = []
            watches.append((table_id, seen, ends))
            waiting.append(ready)
            people.append(_watch(f"{wb}/ws/tables/{table_id}", ready, seen, ends))
    watchers = [asyncio.create_task(w) for w in people]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in waiting)), 120)
    finals = await asyncio.wait_for(
        asyncio.gather(
            *(
                _person(f"{wa}/ws/tables/{table_id}?token={token}", seat)
                for table_id, tokens in tables
                for seat, token in tokens.items()
            )
        ),
        300,
    )
    await asyncio.wait_for(asyncio.gather(*watchers, return_exceptions=True), 120)
    final_of: dict[str, int] = {}
    i = 0
    for table_id, tokens in tables:
        final_of[table_id] = max(finals[i : i + len(tokens)])
        i += len(tokens)
    problems = []
    for table_id, seen, ends in watches:
        final = final_of[table_id]
        expected = list(range(seen[0], final + 1)) if seen else []
        got = seen[:1] + sorted(set(seen[1:]))
        if not ends or got != expected:
            problems.append(f"{table_id}: saw up to {max(seen or [0])} of {final}, end {ends}")
    return problems


@pytest.mark.slow
def test_spectators_on_the_other_process_receive_every_state() -> None:
    with pg_schema() as schema:
        env = env_for(schema)
        pa, pb = free_port(), free_port()
        with (
            uvicorn(pa, env) as (a, _),
            uvicorn(pb, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (b, _),
        ):
            tables = []
            for body in GAMES:
                r = httpx.post(f"{a}/api/tables", json=body, timeout=30)
                assert r.status_code == 201, r.text
                table_id = r.json()["id"]
                humans = [i for i, kind in enumerate(body["seats"]) if kind == "human"]
                tokens: dict[int, Any] = {}
                for s in humans:
                    r = httpx.post(
                        f"{a}/api/tables/{table_id}/seats/{s}", json={"name": f"p{s}"}, timeout=30
                    )
                    tokens[s] = r.json()["token"]
                tables.append((table_id, tokens))
            assert httpx.get(f"{b}/health").json()["tables"]["owned"] == 0
            # on a thread of its own: a browser test's event loop may be running on this one
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                problems = pool.submit(asyncio.run, _crowd(a, b, tables)).result()
            assert problems == [], problems[:5]
            # B never took a table over: every spectator was fed through Redis
            assert httpx.get(f"{b}/health").json()["tables"]["owned"] == 0
