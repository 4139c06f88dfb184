"""Real server processes on loopback: two servers sharing tables through PostgreSQL and
Redis, and ``aceydeucey serve`` killed and restarted mid-game.

These need PostgreSQL and Redis (see conftest); without them they fail, never skip.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import PG_URL, REDIS_URL, pg_schema

SRC = str(Path(__file__).resolve().parents[2] / "src")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_ready(base: str, proc: subprocess.Popen[bytes], tries: int = 300) -> None:
    for _ in range(tries):
        if proc.poll() is not None:
            out = proc.stdout.read().decode() if proc.stdout else ""
            raise AssertionError(f"server exited with {proc.returncode}:\n{out}")
        try:
            if httpx.get(f"{base}/api/games", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"server at {base} never answered")


@contextmanager
def server(
    args: list[str], env: dict[str, str], port: int
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    full_env = {**os.environ, "PYTHONPATH": SRC, **env}
    # the server's output goes to a file (read afterwards through its own handle): a pipe
    # nobody drains fills up with the JSON request lines and blocks the server mid-request
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "serve.log"
        with path.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, *args], env=full_env, stdout=out, stderr=subprocess.STDOUT
            )
        proc.stdout = path.open("rb")
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(base, proc)
            yield base, proc
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def uvicorn(port: int, env: dict[str, str]) -> Any:
    args = ["-m", "uvicorn", "--factory", "aceydeucey.server.app:factory", "--port", str(port)]
    return server(args, env, port)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def settle(base: str, table_id: str) -> dict[str, Any]:
    for _ in range(600):
        v: dict[str, Any] = httpx.get(f"{base}/api/tables/{table_id}").json()
        if v["status"] != "playing" or v["to_act"] is not None:
            return v
        time.sleep(0.02)
    raise AssertionError("the table never waited for a person")


def receive_until(ws: Any, seq: int) -> dict[str, Any]:
    for _ in range(500):
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if message["type"] == "state" and message["seq"] >= seq:
            return message
    raise AssertionError(f"no state at seq {seq}")


def act(base: str, table_id: str, token: str) -> dict[str, Any]:
    v = httpx.get(f"{base}/api/tables/{table_id}", headers=bearer(token)).json()
    action = "roll" if v["to_roll"] == v["you"] else v["observation"]["legal_actions"][0]
    r = httpx.post(
        f"{base}/api/tables/{table_id}/actions",
        json={"action": action, "seq": v["seq"]},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.mark.slow
def test_two_processes_share_a_table_through_redis() -> None:
    with pg_schema() as schema:
        env = {
            "DATABASE_URL": PG_URL,
            "ACEYDEUCEY_DATABASE_SCHEMA": schema,
            "REDIS_URL": REDIS_URL,
        }
        pa, pb = free_port(), free_port()
        with uvicorn(pa, env) as (a, _), uvicorn(pb, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (b, _):
            table_id = httpx.post(
                f"{a}/api/tables", json={"game": "backgammon", "seats": ["human", "human"]}
            ).json()["id"]
            tokens = {
                0: httpx.post(f"{a}/api/tables/{table_id}/seats/0", json={"name": "A"}).json()[
                    "token"
                ],
                1: httpx.post(f"{b}/api/tables/{table_id}/seats/1", json={"name": "B"}).json()[
                    "token"
                ],
            }
            with (
                connect(f"ws://127.0.0.1:{pb}/ws/tables/{table_id}?token={tokens[1]}") as on_b,
                connect(f"ws://127.0.0.1:{pa}/ws/tables/{table_id}?token={tokens[0]}") as on_a,
            ):
                receive_until(on_b, 0)
                receive_until(on_a, 0)
                for _ in range(4):
                    v = settle(a, table_id)
                    who = v["to_act"]
                    done = act(a if who == 0 else b, table_id, tokens[who])
                    # the action sent to one process reaches the socket held by the other
                    far = on_b if who == 0 else on_a
                    pushed = receive_until(far, done["seq"])
                    assert pushed["seq"] >= done["seq"]
                    assert pushed["observation"]["seat"] == 1 - who
                # two processes racing for one seq: the unique constraint lets one win
                v = settle(a, table_id)
                who = v["to_act"]
                while v["to_roll"] == who:  # the dice are the mover's to throw: throw them first
                    act(a, table_id, tokens[who])
                    v = settle(a, table_id)
                    who = v["to_act"]
                legal = httpx.get(f"{a}/api/tables/{table_id}", headers=bearer(tokens[who])).json()
                choices = legal["observation"]["legal_actions"] * 2
                answers: list[int] = []

                def send(base: str, action: str) -> None:
                    r = httpx.post(
                        f"{base}/api/tables/{table_id}/actions",
                        json={"action": action, "seq": v["seq"]},
                        headers=bearer(tokens[who]),
                    )
                    answers.append(r.status_code if not r.json().get("duplicate") else 208)

                threads = [
                    threading.Thread(target=send, args=(a, choices[0])),
                    threading.Thread(target=send, args=(b, choices[1])),
                ]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
                assert answers.count(200) == 1 and sorted(answers)[1] in (208, 409)
                events = httpx.get(f"{b}/api/tables/{table_id}/events?since={v['seq']}").json()
                assert next(e["seq"] for e in events["events"]) == v["seq"] + 1
                assert (
                    sum(
                        1
                        for e in events["events"]
                        if e["kind"] == "move" and e["seq"] == v["seq"] + 1
                    )
                    == 1
                )
                assert (
                    httpx.get(f"{a}/api/tables/{table_id}").json()["seq"]
                    == httpx.get(f"{b}/api/tables/{table_id}").json()["seq"]
                )


@pytest.mark.slow
def test_serve_killed_mid_game_loses_nothing(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite+aiosqlite:///{tmp_path / 'serve.sqlite3'}"
    args = ["-m", "aceydeucey", "serve", "--port", str(port), "--database", db, "--bot-delay", "0"]
    with server(args, {"REDIS_URL": ""}, port) as (base, proc):
        table_id = httpx.post(
            f"{base}/api/tables", json={"game": "backgammon", "seats": ["human", "bot:greedy"]}
        ).json()["id"]
        token = httpx.post(f"{base}/api/tables/{table_id}/seats/0", json={"name": "Ana"}).json()[
            "token"
        ]
        for _ in range(3):
            settle(base, table_id)
            act(base, table_id, token)
        before = httpx.get(f"{base}/api/tables/{table_id}", headers=bearer(token)).json()
        events = httpx.get(f"{base}/api/tables/{table_id}/events").json()
        before_actions = [e["action"] for e in events["events"] if e["kind"] in ("move", "bot")]
        proc.kill()  # no clean shutdown
        proc.wait()
        printed = proc.stdout.read().decode() if proc.stdout else ""
        assert f"http://127.0.0.1:{port}/" in printed
        assert token not in printed
    with server(args, {"REDIS_URL": ""}, port) as (base, proc):
        after = httpx.get(f"{base}/api/tables/{table_id}", headers=bearer(token)).json()
        assert {k: v for k, v in after.items() if k != "deadline"} == {
            k: v for k, v in before.items() if k != "deadline"
        }
        assert httpx.get(f"{base}/api/tables/{table_id}/events").json() == events
        with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}?token={token}") as ws:
            assert json.loads(ws.recv(timeout=30))["seq"] == before["seq"]
        settle(base, table_id)
        act(base, table_id, token)
        r = httpx.post(f"{base}/api/tables/{table_id}/resign", headers=bearer(token))
        assert r.status_code == 200 and r.json()["status"] == "over"
        record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
        assert record["result"]["termination"] == "ending.resigned"
        played = [a for a in record["actions"]]
        assert all(a in played for a in before_actions)
    log = proc.stdout.read().decode() if proc.stdout else ""
    assert "/ws/tables/" in log and token not in log and "token=***" in log


@pytest.mark.slow
def test_workers_need_redis() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "aceydeucey", "serve", "--workers", "2"],
        env={**os.environ, "PYTHONPATH": SRC, "REDIS_URL": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "Redis" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("url", ["postgresql+asyncpg://nobody@127.0.0.1:1/none"])
def test_an_unreachable_database_is_a_clear_error(url: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "aceydeucey", "serve", "--database", url],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "cannot open or migrate" in result.stderr
    assert "Traceback" not in result.stderr
