"""The online tables: throughput and latency of a real server over WebSockets on loopback.

For each store (SQLite in a temporary file; PostgreSQL from
``ACEYDEUCEY_BENCH_DATABASE_URL``, default ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``,
in a schema of its own dropped afterwards) one ``uvicorn`` process serves
``TABLES`` concurrent tables for ``SECONDS`` seconds: half In-Between (two scripted
clients and an ``ev`` bot), half Acey-Deucey backgammon (a scripted client against the
``greedy`` bot).  Each scripted client holds its seat's WebSocket and plays the first
legal action as soon as its turn comes; a finished game is replaced by a new table.

Printed per store: actions per second (the clients' own, and every entry the server
appended: chance's draws and the bots' moves included), and the p50/p99 latency from
an action sent on the socket to the observation of its result received on it.
Usage: ``python benchmarks/bench_server.py [TABLES] [SECONDS]``.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

SRC = str(Path(__file__).resolve().parent.parent / "src")
PG_URL = os.environ.get(
    "ACEYDEUCEY_BENCH_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
TABLES = 8
SECONDS = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.games = 0
        self.server_entries = 0


async def client(ws_url: str, seat: int, stats: Stats, stop: float) -> None:
    """One scripted seat: act on every turn, time each action until its state arrives."""
    async with connect(ws_url, max_size=2**22) as ws:
        sent_at: float | None = None
        sent_seq = -1
        while time.perf_counter() < stop:
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.05, stop - time.perf_counter())
                )
            except TimeoutError:
                return
            message = json.loads(raw)
            if message["type"] != "state":
                continue
            if sent_at is not None and message["seq"] > sent_seq:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["status"] == "over":
                return
            obs = message["observation"]
            if (
                sent_at is None
                and message["to_act"] == seat
                and (obs["legal_actions"] or message["to_roll"] == seat)
            ):
                action = "roll" if message["to_roll"] == seat else obs["legal_actions"][0]
                sent_seq = message["seq"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "seq": sent_seq, "action": action}))


async def table_loop(base: str, port: int, index: int, stats: Stats, stop: float) -> None:
    """Keep one table busy: create it, seat the scripted clients, replace it when over."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.perf_counter() < stop:
            if index % 2 == 0:
                body = {
                    "game": "inbetween",
                    "options": {"preset": "guide", "players": 3},
                    "seats": ["human", "human", "bot:ev"],
                }
                people = [0, 1]
            else:
                body = {"game": "backgammon", "seats": ["human", "bot:greedy"]}
                people = [0]
            table_id = (await http.post("/api/tables", json=body)).json()["id"]
            tokens = {}
            for s in people:
                r = await http.post(f"/api/tables/{table_id}/seats/{s}", json={"name": f"c{s}"})
                tokens[s] = r.json()["token"]
            url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}?token="
            await asyncio.gather(*(client(url + tokens[s], s, stats, stop) for s in people))
            view = (await http.get(f"/api/tables/{table_id}")).json()
            stats.server_entries += view["seq"]
            stats.games += view["status"] == "over"


def start_server(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "uvicorn", "--factory", "aceydeucey.server.app:factory"]
    args += ["--port", str(port), "--no-access-log", "--log-level", "warning"]
    proc = subprocess.Popen(args, env={**os.environ, "PYTHONPATH": SRC, **env})
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("server never answered")


def measure(name: str, env: dict[str, str], tables: int, seconds: float) -> bool:
    port = free_port()
    try:
        # scripted clients act as fast as the server answers, from one address
        quick = {"REDIS_URL": "", "ACEYDEUCEY_BOT_DELAY": "0", "ACEYDEUCEY_RATE_LIMITS": "0"}
        proc = start_server(port, {**quick, **env})
    except RuntimeError as exc:
        print(f"{name}: unavailable ({exc})")
        return False
    stats = Stats()
    try:
        start = time.perf_counter()
        stop = start + seconds
        base = f"http://127.0.0.1:{port}"

        async def run() -> None:
            await asyncio.gather(*(table_loop(base, port, i, stats, stop) for i in range(tables)))

        asyncio.run(run())
        elapsed = time.perf_counter() - start
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
    lat = sorted(stats.latencies)
    if not lat:
        print(f"{name}: no actions completed")
        return False
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    print(
        f"{name}: {tables} tables, {elapsed:.1f} s: {len(lat) / elapsed:.0f} client actions/s "
        f"({stats.server_entries / elapsed:.0f} log entries/s with chance and bots), "
        f"latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, {stats.games} games finished"
    )
    return True


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def main(argv: list[str]) -> int:
    tables = int(argv[0]) if argv else TABLES
    seconds = float(argv[1]) if len(argv) > 1 else SECONDS
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}"
        ok &= measure("sqlite", {"DATABASE_URL": url}, tables, seconds)
    schema = f"bench_{secrets.token_hex(4)}"
    try:
        asyncio.run(_pg(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:
        print(f"postgresql: unavailable ({type(exc).__name__}: {exc})")
        return 1
    try:
        env = {"DATABASE_URL": PG_URL, "ACEYDEUCEY_DATABASE_SCHEMA": schema}
        ok &= measure("postgresql", env, tables, seconds)
    finally:
        asyncio.run(_pg(f'DROP SCHEMA "{schema}" CASCADE'))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
