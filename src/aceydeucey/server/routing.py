"""What the routes share: the request's service, settings, limits, language and seat
token (plain functions, and the FastAPI dependencies the routes declare), the statuses
every route documents, the wrong-token guard, the action log line and JSON helpers.
"""

from __future__ import annotations

import collections
import contextlib
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path, Request, WebSocket
from fastapi.openapi.utils import get_openapi
from starlette.requests import HTTPConnection

from aceydeucey.core.registry import bot_names, game_class, game_ids
from aceydeucey.server.errors import ErrorBody, ServerError, pick_lang
from aceydeucey.server.jsontext import jsonable
from aceydeucey.server.logs import action_log, log_json
from aceydeucey.server.ratelimit import RateLimits
from aceydeucey.server.service import TableService, hash_token
from aceydeucey.server.settings import Settings

__all__ = [
    "READS",
    "WRITES",
    "Limits",
    "Service",
    "SettingsOf",
    "TableId",
    "Token",
    "WrongTokens",
    "address_of",
    "answers",
    "describe_games",
    "documented_openapi",
    "from_page",
    "limits_of",
    "log_action",
    "request_lang",
    "service_of",
    "settings_of",
    "token_guard",
    "token_of",
]

TableId = Annotated[
    str,
    Path(max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="The table's id (its invite)."),
]


# -- helpers for the pages ------------------------------------------------------------------
def service_of(request: HTTPConnection) -> TableService:
    """The table service of the application serving this request."""
    service: TableService = request.app.state.service
    return service


def request_lang(request: Request | WebSocket) -> str:
    """The request's language: ``?lang=``, the ``lang`` cookie, else ``Accept-Language``."""
    return pick_lang(
        request.query_params.get("lang"),
        request.cookies.get("lang"),
        request.headers.get("accept-language"),
    )


def token_of(request: Request | WebSocket, table_id: str) -> str | None:
    """The seat token: ``Authorization: Bearer``, else the ``seat_<table id>`` cookie."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(f"seat_{table_id}")


def describe_games(lang: str) -> list[dict[str, Any]]:
    """Every game: presets, every option (type, choices, default, help, source), bots."""
    out = []
    for game_id in game_ids():
        rules_class = game_class(game_id).rules_class
        key = rules_class.PRESET_KEY
        # one describer (core.options): types, choices from the Literal, range, default,
        # JSON schema; help lines and preset summaries in the reader's language
        options = rules_class.describe_options(game_id, lang)
        summaries = {p["name"]: p["summary"] for p in rules_class.describe_presets(game_id, lang)}
        presets = [
            {
                "name": p.name,
                "summary": summaries.get(p.name, p.summary),
                "source": p.source,
                "options": jsonable(dict(p.options)),
            }
            for p in rules_class.PRESETS.values()
        ]
        out.append(
            {
                "id": game_id,
                "preset_key": key,
                "default_preset": rules_class.DEFAULT_PRESET,
                "presets": presets,
                "options": options,
                "bots": bot_names(game_id),
            }
        )
    return out


# -- what every route may answer ----------------------------------------------------------
STATUS_TEXT = {
    400: "Bad input: a field, an option, an action the rules refuse, JSON nested too deep.",
    403: "No seat token, a wrong one, not your turn, or a foreign Origin.",
    404: "No such table or seat.",
    409: "The table moved on (stale seq), the seat is taken, the game is over or waiting.",
    413: "The body (or a chat line) is too large.",
    429: "Too many requests: wait ``Retry-After`` seconds.",
    503: "The store (or Redis) cannot be reached: nothing changed; retry after ``Retry-After``.",
}


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error statuses a route answers, each with the error body's schema."""
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        entry: dict[str, Any] = {"model": ErrorBody, "description": STATUS_TEXT[status]}
        if status in (429, 503):
            entry["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait before trying again.",
                    "schema": {"type": "integer"},
                }
            }
        out[status] = entry
    return out


#: A route that reads a table; one that changes it (body, token, Origin, limits).
READS = answers(400, 404, 503)
WRITES = answers(400, 403, 404, 409, 413, 429, 503)


def documented_openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, without FastAPI's 422 (this server answers bad input with
    400 and the error body, which every route documents)."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    for item in schema.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict):
                operation.get("responses", {}).pop("422", None)
    components = schema.get("components", {}).get("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    app.openapi_schema = schema
    return schema


# -- tokens, limits, logs ------------------------------------------------------------------------
class WrongTokens:
    """Tokens a table refused after looking in the store: refused again at once, with no
    store read (a token is a fresh random secret: one found wrong stays wrong)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._seen: collections.OrderedDict[tuple[str, str], None] = collections.OrderedDict()

    def known(self, table_id: str, token: str) -> bool:
        return (table_id, hash_token(token)) in self._seen

    def add(self, table_id: str, token: str) -> None:
        self._seen[(table_id, hash_token(token))] = None
        while len(self._seen) > self.size:
            self._seen.popitem(last=False)


def limits_of(conn: HTTPConnection) -> RateLimits:
    limits: RateLimits = conn.app.state.limits
    return limits


def settings_of(conn: HTTPConnection) -> Settings:
    settings: Settings = conn.app.state.settings
    return settings


def address_of(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "-"


@contextlib.asynccontextmanager
async def token_guard(
    conn: Request | WebSocket, table_id: str, token: str | None
) -> AsyncIterator[None]:
    """Refuse a token already found wrong without a lookup; count each wrong token
    against the client's address (``wrong_token`` limit, checked before the lookup)."""
    if not token:
        yield
        return
    limits, wrong, address = limits_of(conn), conn.app.state.wrong_tokens, address_of(conn)
    if wrong.known(table_id, token):
        await limits.hit("wrong_token", address)
        raise ServerError(403, "server.token_wrong")
    await limits.check("wrong_token", address)
    try:
        yield
    except ServerError as exc:
        if exc.code == "server.token_wrong":
            wrong.add(table_id, token)
            await limits.hit("wrong_token", address)
        raise


def from_page(request: Request) -> bool:
    """Whether a browser's page sent the request (browsers send ``Origin`` on a POST;
    the guard has already refused foreign ones): pages get the seat as a cookie,
    programs keep the token they are given."""
    return request.headers.get("origin") is not None


def log_action(table_id: str, start: float, outcome: str, view: dict[str, Any] | None) -> None:
    log_json(
        action_log,
        "action",
        table=table_id[:64],
        seat=view.get("you") if view else None,
        seq=view.get("seq") if view else None,
        latency_ms=round((time.perf_counter() - start) * 1000, 2),
        outcome=outcome,
    )


# -- the routes' dependencies ---------------------------------------------------------------------
def _seat_token(request: Request, table_id: TableId) -> str | None:
    return token_of(request, table_id)


#: The application's table service, its settings and rate limits, and the request's seat
#: token (``Authorization: Bearer``, else the table's seat cookie), as route parameters.
Service = Annotated[TableService, Depends(service_of)]
SettingsOf = Annotated[Settings, Depends(settings_of)]
Limits = Annotated[RateLimits, Depends(limits_of)]
Token = Annotated[str | None, Depends(_seat_token)]
