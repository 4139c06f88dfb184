"""The JSON API and the WebSocket protocol (documented in ``docs/server.md``).

Every error answers ``{"error": {"code", "params", "message"}}`` with the message in
the request's language (``?lang=``, the ``lang`` cookie, or ``Accept-Language``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Header, Path, Query, Request, WebSocket
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import bot_names, game_class, game_ids
from aceydeucey.server.errors import (
    ErrorBody,
    ServerError,
    error_body,
    is_outage,
    pick_lang,
    unavailable,
)
from aceydeucey.server.logs import action_log, fault, log_json
from aceydeucey.server.ratelimit import RateLimits
from aceydeucey.server.security import (
    clear_seat_cookie,
    json_too_deep,
    seat_cookie_name,
    set_seat_cookie,
)
from aceydeucey.server.service import TableService, hash_token
from aceydeucey.server.settings import Settings

__all__ = [
    "Act",
    "ChatLine",
    "Claim",
    "CreateTable",
    "JoinSeat",
    "WrongTokens",
    "describe_games",
    "documented_openapi",
    "request_lang",
    "router",
    "service_of",
    "token_of",
]

router = APIRouter()

TableId = Annotated[
    str,
    Path(max_length=64, pattern=r"^[A-Za-z0-9_-]+$", description="The table's id (its invite)."),
]

#: The UI catalog domain of each game (option help in the player's language, where given).
UI_DOMAINS = {"inbetween": "inbetween", "backgammon": "backgammon", "aces-in-the-pot": "aces"}


# -- request bodies -------------------------------------------------------------------------
class CreateTable(BaseModel):
    """A new table: the game, its options (a preset plus overrides), who sits where."""

    game: str = Field(
        examples=["inbetween"], max_length=40, json_schema_extra={"enum": list(game_ids())}
    )
    options: dict[str, Any] = Field(
        default_factory=dict, examples=[{"preset": "guide", "players": 3}]
    )
    seats: list[str] | None = Field(
        default=None,
        description='One per seat: "human", "bot" (the default strategy) or "bot:NAME".',
        examples=[["human", "human", "bot:ev"]],
        max_length=16,
    )
    public: bool = Field(True, description="Listed in the lobby; private tables by invite only.")
    turn_seconds: int | None = Field(
        None, ge=5, le=86400, description="Turn timer per action (none: no timer)."
    )
    on_timeout: Literal["pass", "bot"] = Field(
        "pass",
        description="When the timer runs out: the seat passes (where it can) or a bot plays.",
    )
    claim_after: float | None = Field(
        None,
        ge=0,
        le=86400,
        description="Seconds away before an opponent may claim the seat (the server's "
        "minimum, 15 s by default, and up; none: the server's default).",
    )


class JoinSeat(BaseModel):
    name: str = Field(examples=["Ana"], min_length=1, max_length=64)
    cut: str | None = Field(
        None,
        max_length=256,
        description="Your cut (any text), when you hold the seat on the dealer's right.",
    )


class Act(BaseModel):
    action: str = Field(examples=["bet 2"], min_length=1, max_length=200)
    seq: int = Field(ge=0, description="The table's seq the action answers (from the last view).")


class Claim(BaseModel):
    seat: int = Field(ge=0, le=64, description="The absent opponent's seat.")
    mode: Literal["win", "bot"] = Field(
        "bot", description='"win": end the game as won (two seats); "bot": a bot takes the seat.'
    )


class ChatLine(BaseModel):
    text: str = Field(min_length=1, max_length=2000, examples=["good luck!"])


# -- helpers for the pages ------------------------------------------------------------------
def service_of(request: Request | WebSocket) -> TableService:
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


def _json_default(value: Any) -> Any:
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return str(value)


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=_json_default))


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
                "options": _jsonable(dict(p.options)),
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


def limits_of(conn: Request | WebSocket) -> RateLimits:
    limits: RateLimits = conn.app.state.limits
    return limits


def settings_of(conn: Request | WebSocket) -> Settings:
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


def _from_page(request: Request) -> bool:
    """Whether a browser's page sent the request (browsers send ``Origin`` on a POST;
    the guard has already refused foreign ones): pages get the seat as a cookie,
    programs keep the token they are given."""
    return request.headers.get("origin") is not None


def _log_action(table_id: str, start: float, outcome: str, view: dict[str, Any] | None) -> None:
    log_json(
        action_log,
        "action",
        table=table_id[:64],
        seat=view.get("you") if view else None,
        seq=view.get("seq") if view else None,
        latency_ms=round((time.perf_counter() - start) * 1000, 2),
        outcome=outcome,
    )


# -- routes -----------------------------------------------------------------------------------
@router.get("/health", tags=["operations"], responses=answers(503))
async def health(request: Request) -> JSONResponse:
    """Whether the store (and Redis, when used) answer: 200, else 503 naming what failed."""
    settings = settings_of(request)
    service = service_of(request)
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(_ping_store(service), 3)
        checks["store"] = "ok"
    except Exception as exc:
        fault("health_store", exc)
        checks["store"] = "unavailable"
    if settings.redis_url:
        try:
            redis = getattr(request.app.state, "health_redis", None)
            if redis is None:
                from redis.asyncio import from_url

                redis = request.app.state.health_redis = from_url(
                    settings.redis_url, socket_timeout=3, socket_connect_timeout=3
                )
            await asyncio.wait_for(redis.ping(), 3)
            checks["redis"] = "ok"
        except Exception as exc:
            fault("health_redis", exc)
            checks["redis"] = "unavailable"
    else:
        checks["redis"] = "off"
    if "unavailable" in checks.values():
        error = unavailable(settings.retry_after)
        return JSONResponse(
            {**error_body(error, request_lang(request)), "checks": checks},
            status_code=503,
            headers={"Retry-After": str(settings.retry_after)},
        )
    return JSONResponse({"status": "ok", "checks": checks})


async def _ping_store(service: TableService) -> None:
    import sqlalchemy as sa

    async with service.store.engine.connect() as conn:
        await conn.execute(sa.text("SELECT 1"))


@router.get("/api/games", tags=["games"])
async def list_games(request: Request) -> JSONResponse:
    """Each game's presets (or variants), options and bot strategies, in your language."""
    return JSONResponse({"games": describe_games(request_lang(request))})


@router.get("/api/tables", tags=["tables"], responses=answers(503))
async def lobby(request: Request) -> JSONResponse:
    """The lobby: public tables still open or playing (each with its ``claim_after``), and
    the server's shortest ``claim_after``."""
    return JSONResponse(
        {
            "tables": _jsonable(await service_of(request).lobby()),
            "min_claim_after": settings_of(request).min_claim_after,
        }
    )


@router.post(
    "/api/tables", status_code=201, tags=["tables"], responses=answers(400, 403, 413, 429, 503)
)
async def create_table(request: Request, body: CreateTable) -> JSONResponse:
    """Create a table; ``invite`` is the link that seats friends at a private table."""
    service = service_of(request)
    least = settings_of(request).min_claim_after
    if body.claim_after is not None and body.claim_after < least:
        raise ServerError(400, "server.claim_after_min", least=least, given=body.claim_after)
    await limits_of(request).hit("create", address_of(request))
    t = await service.create(
        body.game,
        body.options,
        body.seats,
        public=body.public,
        turn_seconds=body.turn_seconds,
        on_timeout=body.on_timeout,
        claim_after=body.claim_after,
    )
    invite = _invite_url(request, t.id, t.config.get("invite"))
    return JSONResponse(
        {"id": t.id, "invite": invite, "table": _jsonable(service.table_view(t))}, status_code=201
    )


@router.get("/api/tables/{table_id}", tags=["tables"], responses=answers(400, 403, 404, 429, 503))
async def get_table(
    request: Request,
    table_id: TableId,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """The table and your seat's observation (the public one without a token)."""
    service = service_of(request)
    token = token_of(request, table_id)
    async with token_guard(request, table_id, token):
        t, seat = await service.seat_of(table_id, token)
    await service.refreshed(t)
    return JSONResponse(_jsonable(service.view(t, seat)))


def _invite_url(request: Request, table_id: str, secret: str | None) -> str:
    """The table's link; a private table's carries the secret its seats need."""
    url = f"{str(request.base_url).rstrip('/')}/tables/{table_id}"
    return f"{url}?invite={secret}" if secret else url


@router.post("/api/tables/{table_id}/seats/{seat}", tags=["seats"], responses=WRITES)
async def join(
    request: Request,
    table_id: TableId,
    seat: Annotated[int, Path(ge=0, le=64)],
    body: JoinSeat,
    invite: Annotated[
        str | None, Query(max_length=64, description="A private table's invite secret.")
    ] = None,
) -> JSONResponse:
    """Take a seat with a nickname: the answer's ``token`` is the seat's only key (a
    browser's page, which sends ``Origin``, gets it as well in an ``HttpOnly`` cookie,
    ``seat_<table id>``)."""
    await limits_of(request).hit("join", address_of(request))
    token = await service_of(request).join(table_id, seat, body.name, body.cut, invite)
    response = JSONResponse({"token": token, "seat": seat})
    if _from_page(request):
        set_seat_cookie(response, table_id, token, secure=settings_of(request).secure_cookies)
    return response


@router.post("/api/tables/{table_id}/session", tags=["seats"], responses=WRITES)
async def open_session(
    request: Request,
    table_id: TableId,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """Hold a seat in this browser: the Bearer token (a seat's link) becomes the seat's
    ``HttpOnly`` cookie.  Answers the seat."""
    token = token_of(request, table_id)
    async with token_guard(request, table_id, token):
        _, seat = await service_of(request).seat_of(table_id, token)
    if seat is None or token is None:
        raise ServerError(403, "server.token_missing")
    response = JSONResponse({"seat": seat})
    set_seat_cookie(response, table_id, token, secure=settings_of(request).secure_cookies)
    return response


@router.delete("/api/tables/{table_id}/session", tags=["seats"], responses=answers(400, 403))
async def close_session(request: Request, table_id: TableId) -> JSONResponse:
    """Forget the seat's cookie in this browser (the seat itself stays taken)."""
    response = JSONResponse({"seat": None})
    clear_seat_cookie(response, table_id, secure=settings_of(request).secure_cookies)
    return response


@router.post("/api/tables/{table_id}/actions", tags=["play"], responses=WRITES)
async def act(
    request: Request,
    table_id: TableId,
    body: Act,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """Play an action at ``seq`` (``roll`` throws the dice when the throw is yours)."""
    start = time.perf_counter()
    token = token_of(request, table_id)
    limits, key = limits_of(request), hash_token(token) if token else address_of(request)
    try:
        await limits.check("act", key)
        async with token_guard(request, table_id, token):
            view = await service_of(request).act(table_id, token, body.seq, body.action)
    except AceyDeuceyError as exc:
        _log_action(table_id, start, exc.code, None)
        if exc.code != "server.rate_limited":
            await limits.hit("act", key)  # refused actions are what a flood is made of
        raise
    except Exception as exc:
        _log_action(table_id, start, "unavailable" if is_outage(exc) else "failed", None)
        raise
    _log_action(table_id, start, "duplicate" if view.get("duplicate") else "ok", view)
    return JSONResponse(_jsonable(view))


@router.get("/api/tables/{table_id}/record", tags=["tables"], responses=answers(400, 404, 409, 503))
async def record(request: Request, table_id: TableId) -> JSONResponse:
    """The record (JSON record format); the server seed is in it once the game is over."""
    service = service_of(request)
    t = await service.refreshed(await service.table(table_id))
    return JSONResponse(service.record(t).to_dict())


@router.get("/api/tables/{table_id}/events", tags=["tables"], responses=READS)
async def events(
    request: Request, table_id: TableId, since: Annotated[int, Query(ge=0)] = 0
) -> JSONResponse:
    """The public log after ``since``: who acted, their decision, the public event."""
    service = service_of(request)
    t = await service.refreshed(await service.table(table_id))
    return JSONResponse({"seq": t.seq, "events": _jsonable(service.events_since(t, since))})


@router.get("/api/tables/{table_id}/chat", tags=["chat"], responses=READS)
async def chat_lines(
    request: Request, table_id: TableId, since: Annotated[int, Query(ge=0)] = 0
) -> JSONResponse:
    service = service_of(request)
    t = await service.table(table_id)
    return JSONResponse({"chat": await service.store.chat_since(t.id, since)})


@router.post("/api/tables/{table_id}/chat", tags=["chat"], responses=WRITES)
async def chat(request: Request, table_id: TableId, body: ChatLine) -> JSONResponse:
    """Say something at the table (seated players; short and rate-limited)."""
    token = token_of(request, table_id)
    await limits_of(request).hit("message", hash_token(token) if token else address_of(request))
    async with token_guard(request, table_id, token):
        line = await service_of(request).chat(table_id, token, body.text)
    return JSONResponse(line)


@router.post("/api/tables/{table_id}/resign", tags=["play"], responses=WRITES)
async def resign(request: Request, table_id: TableId) -> JSONResponse:
    """Resign a two-seat game (backgammon): the opponent wins; the record says who resigned."""
    token = token_of(request, table_id)
    async with token_guard(request, table_id, token):
        view = await service_of(request).resign(table_id, token)
    return JSONResponse(_jsonable(view))


@router.post("/api/tables/{table_id}/claim", tags=["play"], responses=WRITES)
async def claim(request: Request, table_id: TableId, body: Claim) -> JSONResponse:
    """After an opponent has been away ``claim_after`` seconds: claim the game, or seat a bot."""
    token = token_of(request, table_id)
    async with token_guard(request, table_id, token):
        view = await service_of(request).claim(table_id, token, body.seat, body.mode)
    return JSONResponse(_jsonable(view))


@router.post("/api/tables/{table_id}/rematch", tags=["tables"], responses=WRITES)
async def rematch(request: Request, table_id: TableId) -> JSONResponse:
    """A new table like this finished one; you keep your seat (a new token, also set as
    the new table's seat cookie)."""
    token = token_of(request, table_id)
    async with token_guard(request, table_id, token):
        found = await service_of(request).rematch(table_id, token)
    invite = _invite_url(request, found["id"], found.pop("secret", None))
    response = JSONResponse({**found, "invite": invite})
    if found.get("token") and _from_page(request):
        set_seat_cookie(
            response, found["id"], found["token"], secure=settings_of(request).secure_cookies
        )
    return response


# -- the WebSocket ------------------------------------------------------------------------------
@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    websocket: WebSocket,
    table_id: str,
    token: str | None = None,
    since: int | None = None,
) -> None:
    """Pushes ``{"type": "state", ...}`` after every change; accepts ``act``, ``chat``,
    ``resync`` and ``ping`` messages (see docs/server.md).  The seat is the ``token``
    parameter, else the seat cookie."""
    service = service_of(websocket)
    lang = request_lang(websocket)
    table_id = table_id[:64]
    token = token or websocket.cookies.get(seat_cookie_name(table_id)) or None
    await websocket.accept()

    async def refuse(exc: AceyDeuceyError, status: int) -> None:
        await websocket.send_json({"type": "error", **error_body(exc, lang)})
        await websocket.close(code=4000 + status)

    try:
        async with token_guard(websocket, table_id, token):
            t, seat = await service.seat_of(table_id, token)
    except AceyDeuceyError as exc:
        await refuse(exc, exc.status if isinstance(exc, ServerError) else 400)
        return
    except Exception as exc:
        if not is_outage(exc):
            fault("unexpected", exc, path="/ws/tables/{table_id}")
            await refuse(ServerError(500, "server.internal"), 500)
            return
        fault("store_unavailable", exc, path="/ws/tables/{table_id}")
        await refuse(unavailable(service.settings.retry_after), 503)
        return
    sub = await service.subscribe(t, seat, lang)
    sender = asyncio.create_task(_send_loop(websocket, sub))
    key = f"socket:{id(sub)}"
    try:
        try:
            await service.refreshed(t)
            _resync(service, t, sub, since)
        except Exception as exc:
            _fault_frame(service, sub, exc, None, lang)
        while True:
            raw = await websocket.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None and raw.get("bytes") is not None:
                text = raw["bytes"].decode("utf-8", "replace")
            await _handle(service, limits_of(websocket), key, t, sub, token, text or "", lang)
            if sender.done():
                break
    except WebSocketDisconnect:
        pass
    finally:
        sub.close()
        with contextlib.suppress(Exception):
            await service.unsubscribe(t, sub)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(sender, 5)
        if websocket.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(code=1000 if not sub.overflowed else 4008)


def _resync(service: TableService, t: Any, sub: Any, since: int | None) -> None:
    if since is not None and since < t.seq:
        sub.send({"type": "events", "since": since, "events": service.events_since(t, since)})
    sub.send(_jsonable(service.state_message(t, sub.seat)))


async def _send_loop(websocket: WebSocket, sub: Any) -> None:
    while True:
        message = await sub.queue.get()
        if message is None:
            return
        text = message if isinstance(message, str) else json.dumps(message, default=_json_default)
        try:
            await websocket.send_text(text)
        except Exception:
            return


def _fault_frame(
    service: TableService,
    sub: Any,
    exc: Exception,
    about: str | None,
    lang: str,
    extra: dict[str, Any] | None = None,
) -> None:
    """An error frame for a failure outside the error tree: 503 when the store is out of
    reach, else 500; one log line either way."""
    if is_outage(exc):
        fault("store_unavailable", exc, path="/ws/tables/{table_id}", message=about)
        error = unavailable(service.settings.retry_after)
    else:
        fault("unexpected", exc, path="/ws/tables/{table_id}", message=about)
        error = ServerError(500, "server.internal")
    sub.send({"type": "error", "about": about, **(extra or {}), **error_body(error, lang)})


async def _handle(
    service: TableService,
    limits: RateLimits,
    key: str,
    t: Any,
    sub: Any,
    token: str | None,
    text: str,
    lang: str,
) -> None:
    client_id: str | int | None = None

    def fail(exc: AceyDeuceyError, about: str | None) -> None:
        answer = {"type": "error", "about": about, "seq": t.seq, **error_body(exc, lang)}
        if client_id is not None:
            answer["id"] = client_id
        sub.send(answer)

    settings = service.settings
    try:
        await limits.hit("message", key)
    except ServerError as exc:
        fail(exc, None)
        return
    if len(text.encode("utf-8", "replace")) > settings.max_message:
        fail(ServerError(413, "server.message_too_large", limit=settings.max_message), None)
        return
    if json_too_deep(text, settings.max_json_depth):
        fail(ServerError(400, "server.json_too_deep", limit=settings.max_json_depth), None)
        return
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        fail(ServerError(400, "server.bad_json"), None)
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        fail(ServerError(400, "server.bad_message"), None)
        return
    kind = message["type"][:20]
    start = time.perf_counter()
    given = message.get("id")  # the client's own id for this message, echoed in the answer
    if (isinstance(given, str) and len(given) <= 64) or (
        isinstance(given, int) and not isinstance(given, bool) and abs(given) < 2**53
    ):
        client_id = given
    try:
        if given is not None and client_id is None:
            raise ServerError(400, "server.bad_message")
        if kind == "act":
            seq, action = message.get("seq"), message.get("action")
            if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(action, str):
                raise ServerError(400, "server.bad_message")
            await limits.check("act", key)
            try:
                view = await service.act(t.id, token, seq, action)
            except AceyDeuceyError as exc:
                _log_action(t.id, start, exc.code, None)
                await limits.hit("act", key)
                raise
            _log_action(t.id, start, "duplicate" if view.get("duplicate") else "ok", view)
            ack = {"type": "ack", "seq": view["seq"], "duplicate": view.get("duplicate", False)}
            if client_id is not None:
                ack["id"] = client_id
            sub.send(ack)
        elif kind == "resync":
            seq = message.get("seq")
            await service.refreshed(t)
            _resync(
                service,
                t,
                sub,
                seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
            )
        elif kind == "chat":
            body = message.get("text")
            if not isinstance(body, str):
                raise ServerError(400, "server.bad_message")
            await service.chat(t.id, token, body)
        elif kind == "ping":
            sub.send({"type": "pong", "seq": t.seq})
        else:
            raise ServerError(400, "server.bad_message")
    except AceyDeuceyError as exc:
        fail(exc, kind)
    except Exception as exc:
        if kind == "act":
            _log_action(t.id, start, "unavailable" if is_outage(exc) else "failed", None)
        extra: dict[str, Any] = {"seq": t.seq}
        if client_id is not None:
            extra["id"] = client_id
        _fault_frame(service, sub, exc, kind, lang, extra)
