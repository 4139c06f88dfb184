"""Hostile input: a bounded schemathesis run against ``/openapi.json`` and Hypothesis-made
HTTP bodies and WebSocket frames (deep nesting, huge numbers, bad UTF-8, floods).

Never a 5xx, never a status the document does not list, never a traceback in the logs,
never a change to a table from a refused request, never a field another seat may not see.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    status_code_conformance,
)
from starlette.testclient import TestClient

from aceydeucey.server.app import create_app
from aceydeucey.server.settings import Settings

from .conftest import bearer, new_table, ready_to_move, seat, view
from .test_websocket import until

HEALTH = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much]


def _settings(folder: Path) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{folder / 'tables.sqlite3'}")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[TestClient]:
    """A started server (its store migrated) with its rate limits on."""
    with TestClient(create_app(_settings(tmp_path))) as c:
        yield c


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
]


@pytest.mark.slow
def test_no_request_the_document_allows_gets_a_5xx_or_an_undocumented_status(
    served: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Every operation of ``/openapi.json``, 25 generated requests each (valid and not)."""
    api = schemathesis.openapi.from_asgi("/openapi.json", served.app)
    operations = [result.ok() for result in api.get_all_operations()]
    assert len(operations) >= 15
    for operation in operations:

        @settings(max_examples=25, deadline=None, suppress_health_check=HEALTH, database=None)
        @given(case=operation.as_strategy())
        def run(case: Any) -> None:
            case.call_and_validate(checks=CHECKS)

        with caplog.at_level(logging.INFO, logger="aceydeucey"):
            run()
    assert not any(r.exc_info or r.levelno >= logging.ERROR for r in caplog.records)


# -- Hypothesis: bodies and frames no schema describes -----------------------------------------
def _deep(depth: int, leaf: str = "1") -> str:
    return "[" * depth + leaf + "]" * depth


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _as_bytes(value: Any) -> bytes:
    return json.dumps(value, default=str).encode("utf-8", "surrogatepass")


BODIES = st.one_of(
    JSONISH.map(_as_bytes),
    st.integers(min_value=33, max_value=3000).map(lambda d: _deep(d).encode()),
    st.integers(min_value=1, max_value=9).map(lambda n: ("9" * (10**n // 3 + 1)).encode()),
    st.binary(max_size=300),  # bad UTF-8 and anything else
    st.builds(
        lambda game, junk: json.dumps({"game": game, "options": junk}).encode(),
        st.sampled_from(["inbetween", "backgammon", "aces-in-the-pot", "chess"]),
        JSONISH,
    ),
)

ROUTES = [
    "/api/tables",
    "/api/tables/{id}/seats/0",
    "/api/tables/{id}/actions",
    "/api/tables/{id}/chat",
    "/api/tables/{id}/claim",
    "/api/tables/{id}/resign",
    "/api/tables/{id}/session",
    "/replay/steps",
    "/coach/inbetween",
]


@settings(max_examples=120, deadline=None, suppress_health_check=HEALTH, derandomize=True)
@given(route=st.sampled_from(ROUTES), body=BODIES)
def test_hostile_bodies_answer_a_coded_4xx_and_change_nothing(
    served: TestClient, route: str, body: bytes
) -> None:
    c = served
    table_id = getattr(c, "_table", None)
    if table_id is None:
        table_id = new_table(c, "backgammon", ["human", "human"])
        c._table, c._tokens = table_id, {0: seat(c, table_id, 0), 1: seat(c, table_id, 1)}  # type: ignore[attr-defined]
    tokens: dict[int, str] = c._tokens  # type: ignore[attr-defined]
    before = [view(c, table_id, tokens[0]), view(c, table_id, tokens[1]), view(c, table_id)]
    r = c.post(
        route.replace("{id}", table_id),
        content=body,
        headers={"Content-Type": "application/json", **bearer(tokens[0])},
    )
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        assert set(r.json()["error"]) == {"code", "params", "message"}
        after = [view(c, table_id, tokens[0]), view(c, table_id, tokens[1]), view(c, table_id)]
        assert after == before
    text = r.text
    assert tokens[1] not in text and "server_seed" not in text and "Traceback" not in text


FRAMES = st.one_of(
    JSONISH.map(lambda v: json.dumps(v, default=str)),
    st.builds(
        lambda kind, seq, action: json.dumps(
            {"type": kind, "seq": seq, "action": action, "text": action}
        ),
        st.sampled_from(["act", "chat", "resync", "ping", "nope", ""]),
        st.one_of(
            st.integers(min_value=-(10**30), max_value=10**30), st.floats(), st.text(max_size=5)
        ),
        st.one_of(st.text(max_size=30), JSONISH),
    ),
    st.integers(min_value=33, max_value=1500).map(
        lambda d: '{"type": "act", "action": ' + _deep(d) + "}"
    ),
    st.text(min_size=5000, max_size=5100),
    st.binary(max_size=200),
)


@settings(max_examples=60, deadline=None, suppress_health_check=HEALTH, derandomize=True)
@given(frames=st.lists(FRAMES, min_size=1, max_size=12))
def test_hostile_frames_get_error_frames_and_never_move_a_table(
    served: TestClient, frames: list[Any]
) -> None:
    c = served
    table_id = getattr(c, "_ws_table", None)
    if table_id is None:
        table_id = new_table(c, "backgammon", ["human", "human"])
        c._ws_table = table_id  # type: ignore[attr-defined]
        c._ws_tokens = {0: seat(c, table_id, 0), 1: seat(c, table_id, 1)}  # type: ignore[attr-defined]
    tokens: dict[int, str] = c._ws_tokens  # type: ignore[attr-defined]
    v = ready_to_move(c, table_id, tokens)
    other = 1 - v["to_act"]  # frames from the seat whose turn it is not: nothing can apply
    with c.websocket_connect(f"/ws/tables/{table_id}?token={tokens[other]}") as ws:
        until(ws, "state")
        for frame in frames:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
        ws.send_json({"type": "ping"})
        seen = []
        while True:
            message = ws.receive_json()
            seen.append(message)
            if message["type"] == "pong":
                break
        for message in seen:
            if message["type"] == "error":
                assert set(message["error"]) == {"code", "params", "message"}
                assert message["error"]["code"] != "server.internal"
            if message["type"] == "state":
                assert message["you"] == other and message["observation"]["seat"] == other
    assert view(c, table_id)["seq"] == v["seq"]


def test_a_flood_of_frames_is_slowed_not_served(served: TestClient) -> None:
    table_id = new_table(served, "backgammon", ["human", "human"])
    tokens = {0: seat(served, table_id, 0), 1: seat(served, table_id, 1)}
    with served.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        until(ws, "state")
        for _ in range(60):
            ws.send_json({"type": "ping"})
        kinds = [ws.receive_json() for _ in range(60)]
    answered = [k["type"] for k in kinds]
    assert answered.count("pong") <= 30 and "error" in answered
    limited = [k for k in kinds if k["type"] == "error"]
    assert {k["error"]["code"] for k in limited} == {"server.rate_limited"}
