"""PostgreSQL and Redis going away and coming back, through a TCP proxy the tests cut.

While the store is away every request that needs it answers 503 with ``Retry-After``
and the coded error body (sockets get an error frame and stay open), each failure is
one JSON log line without a traceback or SQL; once it is back, play resumes where it
stood, and a table whose bot was about to move when the store went away moves on by
itself (no table frozen).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from starlette.testclient import TestClient

from aceydeucey.server.app import create_app
from aceydeucey.server.settings import Settings

from .conftest import PG_URL, REDIS_URL, bearer, pg_schema, ready_to_move, seat, settle, view
from .proxy import TcpProxy
from .test_websocket import until


def _through(url: str, proxy: TcpProxy) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{proxy.port}"
    return url.replace(parts.netloc, f"{netloc[0]}@{host}" if len(netloc) == 2 else host, 1)


@pytest.fixture
def store_proxy() -> Iterator[tuple[TcpProxy, Settings]]:
    """A proxy in front of PostgreSQL, and settings whose store goes through it."""
    parts = urlsplit(PG_URL)
    with pg_schema() as schema, TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432) as p:
        settings = Settings(
            database_url=_through(PG_URL, p),
            database_schema=schema,
            rate_limits=False,
            retry_after=1,
        )
        yield p, settings


def _eventually(call: Any, ok: Any, what: str, tries: int = 100) -> Any:
    """Retry as a client that honours ``Retry-After`` would (bounded, no timing asserted)."""
    for _ in range(tries):
        got = call()
        if ok(got):
            return got
        time.sleep(0.1)
    raise AssertionError(f"never: {what}")


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    out = []
    for record in caplog.records:
        if not record.name.startswith("aceydeucey"):
            continue
        assert record.exc_info is None and record.exc_text is None, record.getMessage()
        out.append(json.loads(record.getMessage()))
    return out


def test_a_store_outage_answers_503_and_play_resumes_after(
    store_proxy: tuple[TcpProxy, Settings], caplog: pytest.LogCaptureFixture
) -> None:
    proxy, settings = store_proxy
    with TestClient(create_app(settings)) as c:
        made = c.post("/api/tables", json={"game": "backgammon", "seats": ["human", "human"]})
        table_id = made.json()["id"]
        tokens = {0: seat(c, table_id, 0), 1: seat(c, table_id, 1)}
        v = ready_to_move(c, table_id, tokens)
        who = v["to_act"]
        legal = view(c, table_id, tokens[who])["observation"]["legal_actions"]
        with c.websocket_connect(f"/ws/tables/{table_id}?token={tokens[who]}") as ws:
            until(ws, "state")
            caplog.clear()
            with caplog.at_level(logging.INFO, logger="aceydeucey"):
                proxy.cut()
                down = c.post(
                    f"/api/tables/{table_id}/actions?lang=pt",
                    json={"action": legal[0], "seq": v["seq"]},
                    headers=bearer(tokens[who]),
                )
                assert down.status_code == 503, down.text
                assert down.headers["retry-after"] == "1"
                error = down.json()["error"]
                assert (
                    error["code"] == "server.unavailable"
                    and "nada foi alterado" in error["message"]
                )
                # one process is its tables' only writer: a table it holds is read from
                # memory, unchanged by the refused action; the lobby needs the store
                held = c.get(f"/api/tables/{table_id}", headers=bearer(tokens[who]))
                assert held.status_code == 200 and held.json()["seq"] == v["seq"]
                log = c.get(f"/api/tables/{table_id}/events")
                assert log.status_code == 200 and log.json()["seq"] == v["seq"]
                r = c.get("/api/tables")
                assert r.status_code == 503 and r.json()["error"]["code"] == "server.unavailable"
                health = c.get("/health")
                assert health.status_code == 503
                assert health.json()["checks"] == {"store": "unavailable", "redis": "off"}
                ws.send_json({"type": "act", "seq": v["seq"], "action": legal[0]})
                frame = until(ws, "error")
                assert frame["about"] == "act" and frame["error"]["code"] == "server.unavailable"
                ws.send_json({"type": "ping"})
                assert until(ws, "pong")["seq"] == v["seq"]  # the socket stays open
            lines = _lines(caplog)
            faults = [line for line in lines if line["event"] == "store_unavailable"]
            assert len(faults) >= 3 and all(set(f) >= {"error", "at"} for f in faults)
            text = "\n".join(r.getMessage() for r in caplog.records)
            for secret in (
                "Traceback",
                "SELECT",
                "INSERT",
                "parameters",
                tokens[who],
                table_id + "'",
            ):
                assert secret not in text
            proxy.restore()
            up = _eventually(
                lambda: c.post(
                    f"/api/tables/{table_id}/actions",
                    json={"action": legal[0], "seq": v["seq"]},
                    headers=bearer(tokens[who]),
                ),
                lambda r: r.status_code != 503,
                "the store back",
            )
            assert up.status_code == 200 and up.json()["seq"] > v["seq"]
            assert until(ws, "state", seq=up.json()["seq"])["you"] == who
        assert c.get("/health").json()["checks"]["store"] == "ok"
        # nothing was applied twice or lost: the log is whole, one entry per seq
        events = c.get(f"/api/tables/{table_id}/events").json()
        assert [e["seq"] for e in events["events"]] == list(range(1, events["seq"] + 1))
        moves = [e for e in events["events"] if e["kind"] == "move"]
        assert [m["action"] for m in moves][-1] == legal[0] and len(moves) == 1


def test_a_bot_about_to_move_when_the_store_goes_moves_once_it_is_back(
    store_proxy: tuple[TcpProxy, Settings],
) -> None:
    proxy, settings = store_proxy
    settings.bot_delay = 0.4  # the bot's move comes after the person's answer
    with TestClient(create_app(settings)) as c:
        made = c.post("/api/tables", json={"game": "backgammon", "seats": ["human", "bot:greedy"]})
        table_id = made.json()["id"]
        tokens = {0: seat(c, table_id, 0)}
        waited = 0  # outages met by a bot about to move
        for _ in range(8):
            v = ready_to_move(c, table_id, tokens)
            if v["status"] == "over" or waited == 3:
                break
            legal = view(c, table_id, tokens[0])["observation"]["legal_actions"]
            r = c.post(
                f"/api/tables/{table_id}/actions",
                json={"action": legal[0], "seq": v["seq"]},
                headers=bearer(tokens[0]),
            )
            assert r.status_code == 200
            if r.json()["status"] == "over":
                break
            if r.json()["to_act"] is not None:  # the bot's roll left it no move: no bot turn
                continue
            waited += 1
            proxy.cut()  # before the bot's move: its runner meets the outage
            time.sleep(1.5)
            assert c.get("/api/tables").status_code == 503  # the store is away
            held = c.get(f"/api/tables/{table_id}")  # read from memory: the bot waits
            assert held.status_code == 200 and held.json()["seq"] == r.json()["seq"]
            proxy.restore()
            after = _eventually(
                lambda: c.get(f"/api/tables/{table_id}"),
                lambda got: (
                    got.status_code == 200
                    and (got.json()["to_act"] == 0 or got.json()["status"] == "over")
                ),
                "the bot moved after the outage",
            )
            assert after.json()["seq"] > r.json()["seq"]
        assert waited > 0
        events = c.get(f"/api/tables/{table_id}/events").json()
        assert [e["seq"] for e in events["events"]] == list(range(1, events["seq"] + 1))
        assert any(e["kind"] == "bot" for e in events["events"])
        settle(c, table_id)


def test_health_says_when_redis_is_away() -> None:
    parts = urlsplit(REDIS_URL)
    with TcpProxy(parts.hostname or "127.0.0.1", parts.port or 6379) as proxy:
        settings = Settings(
            database_url="sqlite+aiosqlite://", redis_url=_through(REDIS_URL, proxy)
        )
        settings.migrate = True
        app = create_app(settings)
        with TestClient(app) as c:
            assert c.get("/health").json()["checks"]["redis"] == "ok"
            proxy.cut()
            down = c.get("/health")
            assert down.status_code == 503 and down.headers["retry-after"]
            assert down.json()["checks"]["redis"] == "unavailable"
            assert down.json()["error"]["code"] == "server.unavailable"
            proxy.restore()
            _eventually(lambda: c.get("/health"), lambda r: r.status_code == 200, "redis back")


def test_a_turn_timer_that_runs_out_while_the_store_is_away_fires_once_it_is_back(
    store_proxy: tuple[TcpProxy, Settings], caplog: pytest.LogCaptureFixture
) -> None:
    proxy, settings = store_proxy
    with TestClient(create_app(settings)) as c:
        made = c.post(
            "/api/tables",
            json={
                "game": "backgammon",
                "seats": ["human", "human"],
                "turn_seconds": 5,
                "on_timeout": "bot",
            },
        )
        table_id = made.json()["id"]
        tokens = {0: seat(c, table_id, 0), 1: seat(c, table_id, 1)}
        v = ready_to_move(c, table_id, tokens)
        with caplog.at_level(logging.INFO, logger="aceydeucey"):
            proxy.cut()
            time.sleep(6.5)  # the timer runs out (5 s) while the store is away
            proxy.restore()
        assert any(line.get("table") == table_id for line in _lines(caplog))  # one JSON line each
        after = _eventually(
            lambda: c.get(f"/api/tables/{table_id}/events"),
            lambda r: (
                r.status_code == 200 and any(e["kind"] == "timeout" for e in r.json()["events"])
            ),
            "the timer's move",
        )
        timed = [e for e in after.json()["events"] if e["kind"] == "timeout"]
        assert len(timed) == 1 and timed[0]["seq"] == v["seq"] + 1
