"""The JSON routes: health, the games, the lobby and the tables (create, view, seats,
sessions, actions, the record and events, chat, resign, claim, rematch).

Every error answers ``{"error": {"code", "params", "message"}}`` with the message in
the request's language (``?lang=``, the ``lang`` cookie, or ``Accept-Language``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import JSONResponse

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.server.bodies import Act, ChatLine, Claim, CreateTable, JoinSeat
from aceydeucey.server.errors import (
    ServerError,
    error_body,
    headers_of,
    is_outage,
    status_of,
    unavailable,
)
from aceydeucey.server.jsontext import JSONText
from aceydeucey.server.logs import fault
from aceydeucey.server.routing import (
    READS,
    WRITES,
    Service,
    TableId,
    Token,
    address_of,
    answers,
    describe_games,
    from_page,
    limits_of,
    log_action,
    request_lang,
    settings_of,
    token_guard,
)
from aceydeucey.server.security import clear_seat_cookie, set_seat_cookie
from aceydeucey.server.service import TableService, hash_token

__all__ = ["router"]

router = APIRouter()


@router.get("/health", tags=["operations"], responses=answers(503))
async def health(
    request: Request,
    service: Service,
) -> JSONResponse:
    """Whether the store (and Redis, when used) answer: 200, else 503 naming what failed."""
    settings = settings_of(request)
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
        return JSONText(
            {**error_body(error, request_lang(request)), "checks": checks},
            status_code=503,
            headers={"Retry-After": str(settings.retry_after)},
        )
    return JSONText({"status": "ok", "checks": checks, **service.ownership()})


async def _ping_store(service: TableService) -> None:
    await service.store.ping()


@router.get("/api/games", tags=["games"])
async def list_games(request: Request) -> JSONResponse:
    """Each game's presets (or variants), options and bot strategies, in your language."""
    return JSONText({"games": describe_games(request_lang(request))})


@router.get("/api/tables", tags=["tables"], responses=answers(503))
async def lobby(
    request: Request,
    service: Service,
) -> JSONResponse:
    """The lobby: public tables still open or playing (each with its ``claim_after``), and
    the server's shortest ``claim_after``."""
    return JSONText(
        {
            "tables": await service.lobby(),
            "min_claim_after": settings_of(request).min_claim_after,
        }
    )


@router.post(
    "/api/tables", status_code=201, tags=["tables"], responses=answers(400, 403, 413, 429, 503)
)
async def create_table(
    request: Request,
    body: CreateTable,
    service: Service,
) -> JSONResponse:
    """Create a table; ``invite`` is the link that seats friends at a private table."""
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
        hints=body.hints,
    )
    invite = _invite_url(request, t.id, t.config.get("invite"))
    return JSONText({"id": t.id, "invite": invite, "table": service.table_view(t)}, status_code=201)


@router.get("/api/tables/{table_id}", tags=["tables"], responses=answers(400, 403, 404, 429, 503))
async def get_table(
    request: Request,
    table_id: TableId,
    service: Service,
    token: Token,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """The table and your seat's observation (the public one without a token)."""
    async with token_guard(request, table_id, token):
        t, seat = await service.seat_of(table_id, token)
    await service.refreshed(t)
    return JSONText(service.view(t, seat))


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
    service: Service,
    invite: Annotated[
        str | None, Query(max_length=64, description="A private table's invite secret.")
    ] = None,
) -> JSONResponse:
    """Take a seat with a nickname: the answer's ``token`` is the seat's only key (a
    browser's page, which sends ``Origin``, gets it as well in an ``HttpOnly`` cookie,
    ``seat_<table id>``)."""
    await limits_of(request).hit("join", address_of(request))
    token = await service.join(table_id, seat, body.name, body.cut, invite)
    response = JSONText({"token": token, "seat": seat})
    if from_page(request):
        set_seat_cookie(response, table_id, token, secure=settings_of(request).secure_cookies)
    return response


@router.post("/api/tables/{table_id}/session", tags=["seats"], responses=WRITES)
async def open_session(
    request: Request,
    table_id: TableId,
    service: Service,
    token: Token,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """Hold a seat in this browser: the Bearer token (a seat's link) becomes the seat's
    ``HttpOnly`` cookie.  Answers the seat."""
    async with token_guard(request, table_id, token):
        _, seat = await service.seat_of(table_id, token)
    if seat is None or token is None:
        raise ServerError(403, "server.token_missing")
    response = JSONText({"seat": seat})
    set_seat_cookie(response, table_id, token, secure=settings_of(request).secure_cookies)
    return response


@router.delete("/api/tables/{table_id}/session", tags=["seats"], responses=answers(400, 403))
async def close_session(request: Request, table_id: TableId) -> JSONResponse:
    """Forget the seat's cookie in this browser (the seat itself stays taken)."""
    response = JSONText({"seat": None})
    clear_seat_cookie(response, table_id, secure=settings_of(request).secure_cookies)
    return response


@router.post("/api/tables/{table_id}/actions", tags=["play"], responses=WRITES)
async def act(
    request: Request,
    table_id: TableId,
    body: Act,
    service: Service,
    token: Token,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """Play an action at ``seq`` (``roll`` throws the dice when the throw is yours)."""
    start = time.perf_counter()
    limits, key = limits_of(request), hash_token(token) if token else address_of(request)
    try:
        await limits.check("act", key)
        async with token_guard(request, table_id, token):
            view = await service.act(table_id, token, body.seq, body.action)
    except AceyDeuceyError as exc:
        log_action(table_id, start, exc.code, None)
        if exc.code != "server.rate_limited":
            await limits.hit("act", key)  # refused actions are what a flood is made of
        if body.id is None:
            raise
        answer = JSONText(
            {**error_body(exc, request_lang(request)), "id": body.id},
            status_code=status_of(exc),
            headers=headers_of(exc),
        )
        return answer
    except Exception as exc:
        log_action(table_id, start, "unavailable" if is_outage(exc) else "failed", None)
        raise
    log_action(table_id, start, "duplicate" if view.get("duplicate") else "ok", view)
    if body.id is not None:
        view = {**view, "id": body.id}
    return JSONText(view)


@router.get("/api/tables/{table_id}/record", tags=["tables"], responses=answers(400, 404, 409, 503))
async def record(
    request: Request,
    table_id: TableId,
    service: Service,
) -> JSONResponse:
    """The record (JSON record format); the server seed is in it once the game is over."""
    t = await service.refreshed(await service.table(table_id))
    return JSONText(service.record(t).to_dict())


@router.get("/api/tables/{table_id}/events", tags=["tables"], responses=READS)
async def events(
    request: Request,
    table_id: TableId,
    service: Service,
    since: Annotated[int, Query(ge=0)] = 0,
) -> JSONResponse:
    """The public log after ``since``: who acted, their decision, the public event."""
    t = await service.refreshed(await service.table(table_id))
    return JSONText({"seq": t.seq, "events": service.events_since(t, since)})


@router.get("/api/tables/{table_id}/chat", tags=["chat"], responses=READS)
async def chat_lines(
    request: Request,
    table_id: TableId,
    service: Service,
    since: Annotated[int, Query(ge=0)] = 0,
) -> JSONResponse:
    t = await service.table(table_id)
    return JSONText({"chat": await service.store.chat_since(t.id, since)})


@router.post("/api/tables/{table_id}/chat", tags=["chat"], responses=WRITES)
async def chat(
    request: Request,
    table_id: TableId,
    body: ChatLine,
    service: Service,
    token: Token,
) -> JSONResponse:
    """Say something at the table (seated players; short and rate-limited)."""
    await limits_of(request).hit("message", hash_token(token) if token else address_of(request))
    async with token_guard(request, table_id, token):
        line = await service.chat(table_id, token, body.text)
    return JSONText(line)


@router.post("/api/tables/{table_id}/resign", tags=["play"], responses=WRITES)
async def resign(
    request: Request,
    table_id: TableId,
    service: Service,
    token: Token,
) -> JSONResponse:
    """Resign a two-seat game (backgammon): the opponent wins; the record says who resigned."""
    async with token_guard(request, table_id, token):
        view = await service.resign(table_id, token)
    return JSONText(view)


@router.post("/api/tables/{table_id}/claim", tags=["play"], responses=WRITES)
async def claim(
    request: Request,
    table_id: TableId,
    body: Claim,
    service: Service,
    token: Token,
) -> JSONResponse:
    """After an opponent has been away ``claim_after`` seconds: claim the game, or seat a bot."""
    async with token_guard(request, table_id, token):
        view = await service.claim(table_id, token, body.seat, body.mode)
    return JSONText(view)


@router.post("/api/tables/{table_id}/rematch", tags=["tables"], responses=WRITES)
async def rematch(
    request: Request,
    table_id: TableId,
    service: Service,
    token: Token,
) -> JSONResponse:
    """A new table like this finished one; you keep your seat (a new token, also set as
    the new table's seat cookie)."""
    async with token_guard(request, table_id, token):
        found = await service.rematch(table_id, token)
    invite = _invite_url(request, found["id"], found.pop("secret", None))
    response = JSONText({**found, "invite": invite})
    if found.get("token") and from_page(request):
        set_seat_cookie(
            response, found["id"], found["token"], secure=settings_of(request).secure_cookies
        )
    return response
