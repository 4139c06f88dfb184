"""Load on the online tables: scripted people and spectators over real WebSockets.

Real server processes (``uvicorn``) on loopback, asyncio clients, bounded in count and
time: every run stops by itself after ``--seconds`` and prints one JSON object.

Scenarios:

- ``crowd``: ``--tables`` tables (In-Between with two people and an ``ev`` bot,
  backgammon with one person against ``greedy``, Aces in the Pot with one person and
  two ``random`` bots, in turn), whose people act 0.5 to 2 s after their turn comes,
  plus spectators up to ``--sockets`` open sockets;
- ``busy``: the same tables, people acting as soon as their turn comes;
- ``ceiling``: no server: a bare loop of the same INSERTs (one per step, of three
  entries, the server's average) through the same driver (``Store.append_step``, with
  group commits unless ``ACEYDEUCEY_GROUP_COMMITS=0``), from as many concurrent writers
  as there are tables, to show how close the server comes.

Each on ``--store sqlite`` (a file in a temporary folder) or ``postgresql``
(``ACEYDEUCEY_BENCH_DATABASE_URL``, default the local ``test`` database, in a schema
of its own dropped afterwards), with ``--processes 1`` or ``2`` (two share the tables
through Redis, ``ACEYDEUCEY_BENCH_REDIS_URL``; table ``i``'s people use process
``i % 2``, its spectators the other one).  A finished game is replaced by a new table.

Figures: client actions per second; latency p50/p99 (ms) from an action sent on the
socket to the first state message showing it applied; ``errors`` (error frames other
than a stale ``seq``, sockets lost, failed requests); spectators' state messages
``delivered`` and ``missed`` (a state whose first entry is past the last one seen), and
``behind``: a spectator that left a table without its last state (a finished game's
end, or at the end of the run the seq its owner then answers); the most sockets open at
once; the servers' CPU time per client action (``server_cpu_ms_per_action``, their bot
processes included: it moves far less with other work on the machine than the
throughput does); and, after ``crowd`` and ``busy``, the store's own ceiling (``ceiling`` below, as
many writers as tables, ``--ceiling-seconds``).  The exit status is 1 when any error,
missed or behind state was counted.

Usage: ``python benchmarks/load.py busy --store sqlite --tables 20 --seconds 20``;
``python benchmarks/load.py all`` runs every scenario on every store at small sizes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import orjson
from websockets.asyncio.client import connect

#: the servers' sources (``ACEYDEUCEY_BENCH_SRC``: another checkout's, to compare two
#: versions in the same minutes with the same clients)
SRC = os.environ.get("ACEYDEUCEY_BENCH_SRC") or str(Path(__file__).resolve().parent.parent / "src")
PG_URL = os.environ.get(
    "ACEYDEUCEY_BENCH_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("ACEYDEUCEY_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
#: Seconds a spectator leaving a table waits for the states still on their way.
GRACE = 5.0

#: The tables, in turn: game, seats, the seats people hold.
TABLES: list[tuple[dict[str, Any], list[int]]] = [
    (
        {
            "game": "inbetween",
            "options": {"preset": "guide", "players": 3},
            "seats": ["human", "human", "bot:ev"],
        },
        [0, 1],
    ),
    ({"game": "backgammon", "seats": ["human", "bot:greedy"]}, [0]),
    (
        {
            "game": "aces-in-the-pot",
            "options": {"players": 3},
            "seats": ["human", "bot:random", "bot:random"],
        },
        [0],
    ),
]


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    stale: int = 0
    delivered: int = 0
    missed: int = 0
    behind: int = 0
    open_now: int = 0
    open_most: int = 0
    games: int = 0
    sockets: int = 0
    #: CPU seconds the client processes used driving the run
    cpu: float = 0.0
    problems: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.problems) < 10:
            self.problems.append(what[:200])


@dataclass
class Slot:
    """One table kept alive: its current table id (a new one once a game is over)."""

    index: int
    table_id: str = ""
    changed: asyncio.Event = field(default_factory=asyncio.Event)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


async def person(
    url: str, seat: int, pace: tuple[float, float], figures: Figures, stop: float
) -> None:
    """One scripted seat: acts on every turn after a pause drawn from ``pace``."""
    try:
        async with connect(url, max_size=2**22, open_timeout=30, proxy=None) as ws:
            figures.sockets += 1
            figures.open_now += 1
            figures.open_most = max(figures.open_most, figures.open_now)
            try:
                await _play(ws, seat, pace, figures, stop)
            finally:
                figures.open_now -= 1
    except Exception as exc:
        if time.perf_counter() < stop:
            figures.error(f"person socket: {type(exc).__name__}: {exc}")


async def _play(
    ws: Any, seat: int, pace: tuple[float, float], figures: Figures, stop: float
) -> None:
    rng = random.Random()
    sent_at: float | None = None
    sent_seq = -1
    count = 0
    while time.perf_counter() < stop:
        try:
            raw = await asyncio.wait_for(ws.recv(), max(0.05, stop - time.perf_counter()))
        except TimeoutError:
            return
        message = orjson.loads(raw)
        kind = message.get("type")
        if kind == "error":
            code = message.get("error", {}).get("code")
            if code == "server.seq_stale":
                figures.stale += 1
            else:
                figures.error(f"error frame {code}")
            sent_at = None
            continue
        if kind != "state":
            continue
        if sent_at is not None and message["seq"] > sent_seq:
            figures.latencies.append(time.perf_counter() - sent_at)
            sent_at = None
        if message.get("status") == "over":
            return
        legal = message["observation"].get("legal_actions") or []
        if message.get("to_roll") == seat and "roll" not in legal:
            legal = ["roll"]  # a server that does not offer the throw itself
        if sent_at is not None or message.get("to_act") != seat or not legal:
            continue
        if pace[1] > 0:
            await asyncio.sleep(rng.uniform(*pace))
        count += 1
        sent_seq = message["seq"]
        sent_at = time.perf_counter()
        act = {"type": "act", "seq": sent_seq, "action": rng.choice(legal), "id": count}
        await ws.send(orjson.dumps(act).decode())


async def spectator(
    base_ws: str, http: httpx.AsyncClient, slot: Slot, figures: Figures, stop: float
) -> None:
    """Watches a slot's table, following it to the next one when a game ends.

    Every table it leaves must have been shown to the end: a finished game's last state
    (``over``), or, at the end of the run, the table's seq as its owner (``http``)
    says it then; a spectator still short of it after ``GRACE`` seconds counts as
    ``behind`` (a state never delivered), as does a state whose first entry is past the
    last one seen (``missed``)."""
    # ``http``: the owner, shared by the spectators (a client each costs a TLS context)
    while time.perf_counter() < stop:
        table_id = slot.table_id
        changed = slot.changed  # set when the slot moves on from ``table_id``
        last = -1
        over = False
        try:
            async with connect(
                f"{base_ws}/ws/tables/{table_id}", open_timeout=30, proxy=None
            ) as ws:
                figures.sockets += 1
                figures.open_now += 1
                figures.open_most = max(figures.open_most, figures.open_now)
                # one receive outstanding at a time, never cancelled by a timeout: a
                # spectator wakes for a message, the slot's change or the run's end only
                receiving: asyncio.Future[Any] | None = None
                moved = asyncio.ensure_future(changed.wait())
                try:
                    target: int | None = None
                    deadline = float("inf")
                    while not over:
                        now = time.perf_counter()
                        if target is None and (now >= stop or slot.table_id != table_id):
                            # leaving: everything up to the owner's seq must arrive within
                            # GRACE of the owner's answer (every spectator asks at the end at
                            # once: the answers queue in the shared client's pool)
                            if now >= stop:
                                r = await http.get(f"/api/tables/{table_id}")
                                target = int(r.json()["seq"])
                                now = time.perf_counter()
                            else:
                                target = 1 << 62  # a finished game: its end
                            deadline = now + GRACE
                        if target is not None and (last >= target or now > deadline):
                            break
                        if receiving is None:
                            receiving = asyncio.ensure_future(ws.recv())
                        waits: set[asyncio.Future[Any]] = {receiving}
                        if target is None and not moved.done():
                            waits.add(moved)
                        timeout = (stop if target is None else deadline) - now
                        done, _ = await asyncio.wait(
                            waits, timeout=max(0.0, timeout), return_when=asyncio.FIRST_COMPLETED
                        )
                        if receiving not in done:
                            continue
                        raw = receiving.result()
                        receiving = None
                        message = orjson.loads(raw)
                        if message.get("type") != "state":
                            continue
                        figures.delivered += 1
                        events = message.get("events") or []
                        first = events[0]["seq"] if events else message["seq"]
                        if last >= 0 and first > last + 1:
                            figures.missed += 1
                        last = max(last, message["seq"])
                        over = message.get("status") == "over"
                    if not over and (target is None or last < target):
                        figures.behind += 1
                        if len(figures.problems) < 10:
                            figures.problems.append(
                                f"spectator of {table_id} stopped at seq {last}"
                                f" of {'its end' if target == 1 << 62 else target}"
                            )
                finally:
                    figures.open_now -= 1
                    moved.cancel()
                    if receiving is not None:
                        if receiving.done() and not receiving.cancelled():
                            receiving.exception()  # retrieved: a socket closed as we left
                        receiving.cancel()
        except Exception as exc:
            if time.perf_counter() < stop:
                figures.error(f"spectator socket: {type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)
        if slot.table_id == table_id and time.perf_counter() < stop:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(slot.changed.wait(), max(0.05, stop - time.perf_counter()))


async def table_loop(
    bases: list[str], slot: Slot, pace: tuple[float, float], figures: Figures, stop: float
) -> None:
    """Keep one table busy: create it, seat its people, replace it when over."""
    body, people = TABLES[slot.index % len(TABLES)]
    base = bases[slot.index % len(bases)]
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        while time.perf_counter() < stop:
            try:
                r = await http.post("/api/tables", json={**body, "public": False})
                r.raise_for_status()
                table_id = r.json()["id"]
                # a private table's seats need its invite secret (carried by its link)
                invite = parse_qs(urlsplit(r.json()["invite"]).query).get("invite", [""])[0]
                tokens = {}
                for s in people:
                    r = await http.post(
                        f"/api/tables/{table_id}/seats/{s}",
                        params={"invite": invite},
                        json={"name": f"p{s}"},
                    )
                    r.raise_for_status()
                    tokens[s] = r.json()["token"]
            except httpx.HTTPError as exc:
                figures.error(f"request: {type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)
                continue
            slot.table_id = table_id
            slot.changed.set()
            slot.changed = asyncio.Event()
            ws_base = base.replace("http://", "ws://")
            url = f"{ws_base}/ws/tables/{table_id}?token="
            await asyncio.gather(*(person(url + tokens[s], s, pace, figures, stop) for s in people))
            figures.games += 1


async def drive(
    bases: list[str],
    tables: int,
    sockets: int,
    pace: tuple[float, float],
    seconds: float,
    part: tuple[int, int] = (0, 1),
) -> tuple[Figures, float]:
    """Drive the tables (and their share of the spectators) whose index is ``part[0]``
    modulo ``part[1]``: each client process drives one part."""
    figures = Figures()
    start = time.perf_counter()
    stop = start + seconds
    cpu_start = time.process_time()
    slots = [Slot(i) for i in range(tables) if i % part[1] == part[0]]
    if not slots:
        return figures, 0.0
    tasks = [asyncio.create_task(table_loop(bases, slot, pace, figures, stop)) for slot in slots]
    people = sum(len(TABLES[i % len(TABLES)][1]) for i in range(tables))
    for _ in range(200):  # every table created before the spectators come
        if all(slot.table_id for slot in slots) or time.perf_counter() > stop:
            break
        await asyncio.sleep(0.05)
    watchers = max(0, sockets - people)
    http = {b: httpx.AsyncClient(base_url=b, timeout=30, trust_env=False) for b in bases}
    for k in range(watchers):
        if k % tables % part[1] != part[0]:
            continue
        slot = slots[k % tables // part[1]]
        other = bases[(slot.index + 1) % len(bases)].replace("http://", "ws://")
        owner = http[bases[slot.index % len(bases)]]
        tasks.append(asyncio.create_task(spectator(other, owner, slot, figures, stop)))
    await asyncio.wait(tasks, timeout=seconds + 60)
    for task in tasks:
        task.cancel()
    for client in http.values():
        await client.aclose()
    figures.cpu = time.process_time() - cpu_start
    return figures, time.perf_counter() - start


def drive_part(
    bases: list[str],
    tables: int,
    sockets: int,
    pace: tuple[float, float],
    seconds: float,
    part: tuple[int, int],
) -> tuple[Figures, float]:
    """One client process's part (``drive``), for a process pool."""
    return asyncio.run(drive(bases, tables, sockets, pace, seconds, part))


def drive_all(
    bases: list[str],
    tables: int,
    sockets: int,
    pace: tuple[float, float],
    seconds: float,
    clients: int,
) -> tuple[Figures, float]:
    """Every part in its own client process (one asyncio process cannot drive a crowd
    of sockets: its own loop would set the latency), the figures merged."""
    if clients <= 1:
        return asyncio.run(drive(bases, tables, sockets, pace, seconds))
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(clients) as pool:
        futures = [
            pool.submit(drive_part, bases, tables, sockets, pace, seconds, (k, clients))
            for k in range(clients)
        ]
        parts = [f.result() for f in futures]
    merged = Figures()
    for figures, _ in parts:
        merged.latencies += figures.latencies
        for name in ("errors", "stale", "delivered", "missed", "behind", "games", "sockets", "cpu"):
            setattr(merged, name, getattr(merged, name) + getattr(figures, name))
        merged.open_most += figures.open_most  # the parts' peaks, added: an upper bound
        merged.problems += figures.problems[: 10 - len(merged.problems)]
    return merged, max(elapsed for _, elapsed in parts)


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) used so far by process ``pid`` and its live descendants
    (a server's bot processes), read from ``/proc`` (Linux; 0 elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        here = todo.pop()
        total += used.get(here, 0.0)
        todo += [child for child, parent in parents.items() if parent == here]
    return total


def start_server(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "uvicorn", "--factory", "aceydeucey.server.app:factory"]
    profile = os.environ.get("ACEYDEUCEY_BENCH_PROFILE")  # a cProfile file per server
    if profile:
        args[1:1] = ["-m", "cProfile", "-o", f"{profile}.{port}"]
    args += ["--port", str(port), "--no-access-log", "--log-level", "warning"]
    # as ``aceydeucey serve`` runs it: no per-message deflate unless asked for
    args += ["--ws-per-message-deflate", os.environ.get("ACEYDEUCEY_WS_DEFLATE", "0")]
    # busy scripted clients from one address exceed the per-socket and creation limits
    quiet = {"ACEYDEUCEY_RATE_LIMITS": "0"}
    proc = subprocess.Popen(args, env={**os.environ, "PYTHONPATH": SRC, **quiet, **env})
    for _ in range(600):
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:  # measured from a warm server: its engines loaded (``/health``)
            health = httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).json()
            if health.get("engines", "warm") == "warm":
                return proc
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server never answered")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL.replace("postgresql+asyncpg://", "postgresql://", 1))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def store_env(store: str) -> Iterator[dict[str, str]]:
    """The environment naming a fresh store (removed afterwards)."""
    if store == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            yield {"DATABASE_URL": f"sqlite:///{Path(tmp) / 'load.sqlite3'}"}
        return
    schema = f"load_{secrets.token_hex(4)}"
    asyncio.run(_pg(f'CREATE SCHEMA "{schema}"'))
    try:
        yield {"DATABASE_URL": PG_URL, "ACEYDEUCEY_DATABASE_SCHEMA": schema}
    finally:
        asyncio.run(_pg(f'DROP SCHEMA "{schema}" CASCADE'))


def run_server_scenario(
    scenario: str,
    store: str,
    processes: int,
    tables: int,
    sockets: int,
    seconds: float,
    clients: int = 1,
) -> dict[str, Any]:
    pace = (0.5, 2.0) if scenario == "crowd" else (0.0, 0.0)
    with store_env(store) as env:
        env = {**env, "ACEYDEUCEY_BOT_DELAY": "0", "REDIS_URL": ""}
        if processes > 1:
            env["REDIS_URL"] = REDIS_URL
        procs: list[subprocess.Popen[bytes]] = []
        try:
            ports = [free_port() for _ in range(processes)]
            for i, port in enumerate(ports):
                procs.append(
                    start_server(port, env if i == 0 else {**env, "ACEYDEUCEY_MIGRATE": "0"})
                )
            bases = [f"http://127.0.0.1:{port}" for port in ports]
            cpu_before = sum(cpu_seconds(proc.pid) for proc in procs)
            figures, elapsed = drive_all(bases, tables, sockets, pace, seconds, clients)
            server_cpu = sum(cpu_seconds(proc.pid) for proc in procs) - cpu_before
        finally:
            for proc in procs:
                stop_server(proc)
    return {
        "scenario": scenario,
        "store": store,
        "processes": processes,
        "tables": tables,
        "client_processes": clients,
        "sockets_target": sockets,
        "sockets_opened": figures.sockets,
        "sockets_open_at_most": figures.open_most,
        "seconds": round(elapsed, 1),
        "actions": len(figures.latencies),
        "actions_per_s": round(len(figures.latencies) / elapsed, 1),
        "p50_ms": _round(percentile(figures.latencies, 0.5)),
        "p99_ms": _round(percentile(figures.latencies, 0.99)),
        "errors": figures.errors,
        "stale_refusals": figures.stale,
        "spectator_states_delivered": figures.delivered,
        "spectator_states_missed": figures.missed,
        "spectator_streams_behind": figures.behind,
        "games_finished": figures.games,
        # the servers' CPU time (their bot processes included) per client action: a cost
        # that other work on the machine changes far less than it changes the throughput
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_ms_per_action": _round(1000 * server_cpu / max(1, len(figures.latencies))),
        # the load's own cost on the same cores: the figures are bounded by both
        "client_cpu_ms_per_action": _round(1000 * figures.cpu / max(1, len(figures.latencies))),
        "problems": figures.problems,
        "load_average": list(os.getloadavg()),
    }


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def run_ceiling(store: str, writers: int, seconds: float) -> dict[str, Any]:
    """The store alone: concurrent writers appending steps of three entries, one INSERT
    each, through ``Store.append_step`` (the server's own path and driver)."""
    sys.path.insert(0, SRC)
    from aceydeucey.server.store import Entry, Store

    with store_env(store) as env:

        async def body() -> tuple[int, float]:
            db = Store(
                env["DATABASE_URL"],
                schema=env.get("ACEYDEUCEY_DATABASE_SCHEMA"),
                group_commits=os.environ.get("ACEYDEUCEY_GROUP_COMMITS", "1") != "0",
            )
            await db.migrate()
            ids = []
            for i in range(writers):
                table_id = f"ceiling-{i}-{secrets.token_hex(3)}"
                await db.create_table(
                    {
                        "id": table_id,
                        "game": "inbetween",
                        "options": {},
                        "rules": {},
                        "seat_kinds": [],
                        "public": False,
                        "config": {},
                        "server_seed": "00",
                        "commitment": "00",
                        "cut": None,
                        "status": "playing",
                        "rematch_of": None,
                        "rematch": None,
                        "created_at": time.time(),
                    }
                )
                ids.append(table_id)
            steps = 0
            start = time.perf_counter()
            stop = start + seconds

            async def writer(table_id: str) -> None:
                nonlocal steps
                seq = 0
                while time.perf_counter() < stop:
                    now = time.time()
                    entries = [
                        Entry(seq + 1, "move", 0, "bet 2", None, now),
                        Entry(seq + 2, "chance", None, "7C", None, now),
                        Entry(seq + 3, "bot", 1, "pass", None, now),
                    ]
                    await db.append_step(table_id, entries, over=False)
                    seq += 3
                    steps += 1

            await asyncio.gather(*(writer(t) for t in ids))
            elapsed = time.perf_counter() - start
            await db.close()
            return steps, elapsed

        steps, elapsed = asyncio.run(body())
    return {
        "scenario": "ceiling",
        "store": store,
        "writers": writers,
        "seconds": round(elapsed, 1),
        "inserts_per_s": round(steps / elapsed, 1),
        "group_commits": os.environ.get("ACEYDEUCEY_GROUP_COMMITS", "1") != "0",
        "entries_per_s": round(3 * steps / elapsed, 1),
        "load_average": list(os.getloadavg()),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=["crowd", "busy", "ceiling", "all"])
    parser.add_argument("--store", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--processes", type=int, choices=[1, 2], default=1)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--sockets", type=int, default=0, help="open sockets in all (crowd)")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--clients", type=int, default=2, help="client processes driving the sockets"
    )
    parser.add_argument(
        "--ceiling-seconds",
        type=float,
        default=5.0,
        help="crowd, busy: then the store's own ceiling for this long (0: not measured)",
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.tables > 2000 or args.sockets > 5000 or args.seconds > 600:
        parser.error("bounded: 1-2000 tables, at most 5000 sockets and 600 seconds")
    results = []
    if args.scenario == "all":
        for store, processes in (("sqlite", 1), ("postgresql", 1), ("postgresql", 2)):
            for scenario in ("crowd", "busy"):
                sockets = args.sockets or 5 * args.tables if scenario == "crowd" else 0
                results.append(
                    run_server_scenario(
                        scenario, store, processes, args.tables, sockets, args.seconds
                    )
                )
        for store in ("sqlite", "postgresql"):
            results.append(run_ceiling(store, args.tables, min(args.seconds, 10.0)))
    elif args.scenario == "ceiling":
        results.append(run_ceiling(args.store, args.tables, args.seconds))
    else:
        sockets = args.sockets if args.scenario == "crowd" else 0
        result = run_server_scenario(
            args.scenario,
            args.store,
            args.processes,
            args.tables,
            sockets,
            args.seconds,
            max(1, min(args.clients, 16)),
        )
        if args.ceiling_seconds > 0:  # the store alone, in the same run, as many writers
            ceiling = run_ceiling(args.store, args.tables, min(args.ceiling_seconds, 60.0))
            result["store_ceiling_inserts_per_s"] = ceiling["inserts_per_s"]
            result["store_ceiling"] = ceiling
        results.append(result)
    print(json.dumps(results if len(results) > 1 else results[0], indent=2))
    failed = any(
        r.get("errors") or r.get("spectator_states_missed") or r.get("spectator_streams_behind")
        for r in results
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
