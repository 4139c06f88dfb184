"""The server's edge, in-process: input bounds, origins, headers, the seat cookie, rate
limits, ``claim_after``'s floor, the documented statuses, health and the logs."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import aceydeucey
from aceydeucey.server.app import create_app
from aceydeucey.server.security import json_too_deep
from aceydeucey.server.settings import Settings
from aceydeucey.web import TEMPLATES

from .conftest import REDIS_URL, bearer, new_table, ready_to_move, seat, settle, view
from .test_websocket import until

JS = TEMPLATES.parent / "static" / "js"
FOREIGN = {"Origin": "https://evil.example"}
OWN = {"Origin": "http://testserver"}


@pytest.fixture
def guarded(settings_factory: Callable[..., Settings]) -> Iterator[TestClient]:
    """A client of a server with its rate limits on (small ones, to reach them)."""
    settings = settings_factory(
        rate_limits=True,
        rate_create="3/minute",
        rate_join="50/minute",
        rate_wrong_token="4/minute",
        rate_act="10/minute",
    )
    with TestClient(create_app(settings)) as c:
        yield c


def backgammon_pair(c: TestClient) -> tuple[str, dict[int, str]]:
    table_id = new_table(c, "backgammon", ["human", "human"])
    return table_id, {0: seat(c, table_id, 0), 1: seat(c, table_id, 1)}


def error_of(r: Any) -> dict[str, Any]:
    body: dict[str, Any] = r.json()
    assert set(body["error"]) == {"code", "params", "message"}, body
    return dict(body["error"])


# -- deep and large bodies ----------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/replay/steps", "/coach/inbetween", "/api/tables"])
def test_json_nested_too_deep_is_refused_before_it_is_parsed(client: TestClient, path: str) -> None:
    depth = 100_000 if not path.startswith("/api/") else 5_000  # within each body limit
    r = client.post(path, content=b"[" * depth + b"]" * depth, headers={"Accept-Language": "pt"})
    assert r.status_code == 400, r.text
    error = error_of(r)
    assert error["code"] == "server.json_too_deep" and error["params"]["limit"] == 32
    assert "aninhamento" in error["message"]


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert not json_too_deep(json.dumps({"a": "[" * 1000, "b": [[["{"]]]}), 4)
    assert json_too_deep(json.dumps({"a": [[[[[1]]]]]}), 4)
    assert not json_too_deep('{"a": "\\"[[[[[[["}', 2)


def test_a_chunked_body_over_the_limit_answers_413(client: TestClient) -> None:
    chunks = iter([b'{"game": "' + b"x" * 10_000, b"y" * 10_000 + b'"}'])
    r = client.post("/api/tables", content=chunks, headers={"Content-Type": "application/json"})
    assert r.status_code == 413, r.text
    assert error_of(r)["code"] == "server.body_too_large"


def test_a_socket_gets_an_error_frame_for_deep_json_and_stays_open(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        until(ws, "state")
        ws.send_text("[" * 2000 + "]" * 2000)
        assert until(ws, "error")["error"]["code"] == "server.json_too_deep"
        ws.send_text('{"type": "act", "seq": 0, "action": ' + "[" * 500 + "]" * 500 + "}")
        assert until(ws, "error")["error"]["code"] == "server.json_too_deep"
        ws.send_json({"type": "ping"})
        assert until(ws, "pong")["seq"] == view(client, table_id)["seq"]


# -- origins ------------------------------------------------------------------------------------
def test_a_foreign_origin_cannot_resign_with_the_seat_cookie(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    settle(client, table_id)
    client.cookies.set(f"seat_{table_id}", tokens[0])
    before = view(client, table_id)
    assert before["you"] == 0
    r = client.post(f"/api/tables/{table_id}/resign", headers=FOREIGN)
    assert r.status_code == 403 and error_of(r)["code"] == "server.origin_refused"
    assert view(client, table_id) == before
    r = client.post(f"/api/tables/{table_id}/resign", headers={"Origin": "null"})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table_id}/resign", headers={"Referer": "https://evil.example/x"})
    assert r.status_code == 403
    assert view(client, table_id) == before
    # the page's own origin may
    r = client.post(f"/api/tables/{table_id}/resign", headers=OWN)
    assert r.status_code == 200 and r.json()["ended"]["termination"] == "resigned"


def test_every_state_changing_route_refuses_a_foreign_origin(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    before = view(client, table_id)
    schema = client.get("/openapi.json").json()
    changing = [
        (method, path.replace("{table_id}", table_id).replace("{seat}", "0"))
        for path, item in schema["paths"].items()
        for method in item
        if method in ("post", "put", "patch", "delete")
    ]
    assert len(changing) >= 9
    for method, path in changing:
        r = client.request(method, path, json={}, headers={**FOREIGN, **bearer(tokens[0])})
        assert r.status_code == 403, (method, path, r.text)
        assert error_of(r)["code"] == "server.origin_refused"
    assert view(client, table_id) == before
    assert client.get("/api/tables", headers=FOREIGN).status_code == 200  # reading is fine


def test_allowed_origins_come_from_the_settings(settings_factory: Callable[..., Settings]) -> None:
    with TestClient(create_app(settings_factory(allowed_origins="https://play.example"))) as c:
        made = c.post("/api/tables", json={"game": "backgammon"}, headers=FOREIGN)
        assert made.status_code == 403
        made = c.post(
            "/api/tables", json={"game": "backgammon"}, headers={"Origin": "https://play.example"}
        )
        assert made.status_code == 201


def test_a_socket_from_a_foreign_origin_is_refused(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    path = f"/ws/tables/{table_id}?token={tokens[0]}"
    with client.websocket_connect(path, headers=FOREIGN) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"]["code"] == "server.origin_refused"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(path, headers=OWN) as ws:
        assert until(ws, "state")["you"] == 0


# -- headers and the seat cookie ----------------------------------------------------------------
def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/api/tables", "/static/js/common.js", "/nowhere"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "frame-ancestors 'none'" in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize("path", ["/", "/tables/abc", "/replay", "/rules/inbetween"])
def test_the_pages_hold_no_inline_script(client: TestClient, path: str) -> None:
    html = client.get(path).text
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert scripts
    for attrs, body in scripts:
        # a data block (application/json) is not run; anything else comes from a file
        assert 'type="application/json"' in attrs or ("src=" in attrs and not body.strip())
    assert not re.search(r"\son[a-z]+=", html)  # no inline event handlers either


def test_the_seat_cookie_is_set_by_the_server_and_hidden_from_scripts(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    r = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ana"}, headers=OWN)
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"seat_{table_id}={r.json()['token']};")
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower() and "Path=/" in cookie
    # the cookie alone holds the seat, on the API and the socket
    assert view(client, table_id)["you"] == 0
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert until(ws, "state")["you"] == 0
    # a program (no Origin) gets the token only
    other = client.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bea"})
    assert "set-cookie" not in other.headers and other.json()["token"]
    # forgetting the seat clears the cookie
    gone = client.delete(f"/api/tables/{table_id}/session", headers=OWN)
    assert gone.status_code == 200 and "Max-Age=0" in gone.headers["set-cookie"].replace(
        "max-age", "Max-Age"
    )
    assert view(client, table_id)["you"] is None
    # a seat's link (a Bearer token) becomes the cookie
    held = client.post(
        f"/api/tables/{table_id}/session", headers={**OWN, **bearer(other.json()["token"])}
    )
    assert held.status_code == 200 and held.json() == {"seat": 1}
    assert "HttpOnly" in held.headers["set-cookie"]
    assert view(client, table_id)["you"] == 1
    wrong = client.post(f"/api/tables/{table_id}/session", headers={**OWN, **bearer("x" * 43)})
    assert wrong.status_code == 403


def test_the_pages_scripts_keep_no_token() -> None:
    for path in JS.glob("*.js"):
        text = path.read_text()
        assert "document.cookie" not in text, path.name
        for call in re.findall(r"localStorage\.setItem\(([^;]*)\)", text):
            assert "token" not in call, (path.name, call)


# -- claim_after ---------------------------------------------------------------------------------
def test_claim_after_has_a_floor_and_the_lobby_shows_it(client: TestClient) -> None:
    for given in (0, 14.9):
        r = client.post("/api/tables?lang=pt", json={"game": "backgammon", "claim_after": given})
        assert r.status_code == 400
        error = error_of(r)
        assert error["code"] == "server.claim_after_min" and error["params"]["least"] == 15
        assert "pelo menos 15" in error["message"]
    table_id = new_table(client, "backgammon", ["human", "human"], claim_after=90)
    default = new_table(client, "backgammon", ["human", "human"])
    lobby = client.get("/api/tables").json()
    rows = {t["id"]: t for t in lobby["tables"]}
    assert rows[table_id]["claim_after"] == 90 and rows[default]["claim_after"] == 60
    assert lobby["min_claim_after"] == 15


def test_the_settings_refuse_a_default_below_the_floor() -> None:
    with pytest.raises(ValueError, match="claim_after"):
        Settings(database_url="sqlite+aiosqlite://", claim_after=1)


# -- rate limits ---------------------------------------------------------------------------------
def test_creating_tables_is_limited_per_address(guarded: TestClient) -> None:
    for _ in range(3):
        assert guarded.post("/api/tables", json={"game": "backgammon"}).status_code == 201
    before = {t["id"] for t in guarded.get("/api/tables").json()["tables"]}
    r = guarded.post("/api/tables", json={"game": "backgammon"})
    assert r.status_code == 429
    error = error_of(r)
    assert error["code"] == "server.rate_limited" and error["params"]["count"] == 3
    assert 1 <= int(r.headers["retry-after"]) <= 60
    assert {t["id"] for t in guarded.get("/api/tables").json()["tables"]} == before


def test_wrong_tokens_are_limited_and_cost_one_store_read(guarded: TestClient) -> None:
    service = guarded.app.state.service  # type: ignore[attr-defined]
    table_id, tokens = backgammon_pair(guarded)
    reads = 0
    load_seats = service.store.load_seats

    async def counted(table: str) -> Any:
        nonlocal reads
        reads += 1
        return await load_seats(table)

    service.store.load_seats = counted
    forged = bearer("f" * 43)
    codes = [guarded.get(f"/api/tables/{table_id}", headers=forged).status_code for _ in range(6)]
    assert codes == [403, 403, 403, 403, 429, 429]
    assert reads == 1  # the first refusal looked in the store; the rest did not
    assert guarded.get(f"/api/tables/{table_id}", headers=forged).headers["retry-after"]
    # while the window lasts, the address's tokens wait; watching needs none
    assert guarded.get(f"/api/tables/{table_id}", headers=bearer(tokens[0])).status_code == 429
    assert guarded.get(f"/api/tables/{table_id}").json()["you"] is None


def test_a_socket_flooding_refused_actions_is_slowed(guarded: TestClient) -> None:
    table_id, tokens = backgammon_pair(guarded)
    v = ready_to_move(guarded, table_id, tokens)
    with guarded.websocket_connect(f"/ws/tables/{table_id}?token={tokens[v['to_act']]}") as ws:
        until(ws, "state")
        codes = []
        for _ in range(14):
            ws.send_json({"type": "act", "seq": v["seq"] + 50, "action": "pass"})
            codes.append(until(ws, "error")["error"]["code"])
        assert codes[:10] == ["server.seq_stale"] * 10
        assert set(codes[10:]) == {"server.rate_limited"}
    assert view(guarded, table_id)["seq"] == v["seq"]


def test_rate_limits_share_redis_when_it_is_set(settings_factory: Callable[..., Settings]) -> None:
    import secrets

    settings = settings_factory(
        rate_limits=True,
        redis_url=REDIS_URL,
        rate_create=f"2/{secrets.randbelow(500) + 500} seconds",
    )
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        codes = [
            c.post("/api/tables", json={"game": "backgammon"}).status_code for c in (one, two, one)
        ]
    assert codes == [201, 201, 429]


# -- the documented statuses ---------------------------------------------------------------------
def test_openapi_documents_the_real_statuses_with_the_error_body(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    error_ref = "#/components/schemas/ErrorBody"
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            answered = operation["responses"]
            assert "422" not in answered, (method, path)
            for status, entry in answered.items():
                if int(status) >= 400:
                    ref = entry["content"]["application/json"]["schema"]["$ref"]
                    assert ref == error_ref, (method, path, status)
            if method in ("post", "delete") and path.startswith("/api/tables/{table_id}/"):
                assert {"400", "403"} <= set(answered), (method, path)
            if path == "/api/tables/{table_id}/actions":
                assert {"400", "403", "404", "409", "413", "429", "503"} <= set(answered)
                assert "Retry-After" in answered["429"]["headers"]
    game = schema["components"]["schemas"]["CreateTable"]["properties"]["game"]
    assert game["enum"] == aceydeucey.game_ids()


# -- health and logs -----------------------------------------------------------------------------
def test_health_checks_the_store(client: TestClient) -> None:
    r = client.get("/health")
    assert r.status_code == 200
    assert r.json()["status"] == "ok" and r.json()["checks"] == {"store": "ok", "redis": "off"}
    # what this process holds: alone, it owns every table it holds
    assert r.json()["engines"] in ("warm", "warming")
    assert r.json()["tables"] == {"held": 0, "owned": 0}


def test_health_checks_redis(settings_factory: Callable[..., Settings]) -> None:
    with TestClient(create_app(settings_factory(redis_url=REDIS_URL))) as c:
        assert c.get("/health").json()["checks"] == {"store": "ok", "redis": "ok"}


def test_each_action_and_request_is_one_json_line_without_secrets(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    table_id, tokens = backgammon_pair(client)
    v = ready_to_move(client, table_id, tokens)
    who = v["to_act"]
    legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="aceydeucey"):
        r = client.post(
            f"/api/tables/{table_id}/actions?token={tokens[who]}",
            json={"action": legal[0], "seq": v["seq"]},
            headers=bearer(tokens[who]),
        )
        stale = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": legal[0], "seq": v["seq"] + 50},
            headers=bearer(tokens[who]),
        )
    assert r.status_code == 200 and stale.status_code == 409
    lines = [json.loads(rec.getMessage()) for rec in caplog.records]
    actions = [line for line in lines if line["event"] == "action"]
    assert actions[0] == {
        "event": "action",
        "table": table_id,
        "seat": who,
        "seq": r.json()["seq"],
        "latency_ms": actions[0]["latency_ms"],
        "outcome": "ok",
    }
    assert actions[1]["outcome"] == "server.seq_stale"
    requests = [line for line in lines if line["event"] == "request"]
    assert [q["status"] for q in requests] == [200, 409]
    assert requests[0]["route"] == "/api/tables/{table_id}/actions"
    text = "\n".join(rec.getMessage() for rec in caplog.records)
    assert tokens[who] not in text and "token" not in text
