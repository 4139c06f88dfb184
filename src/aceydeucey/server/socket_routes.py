"""The WebSocket protocol of a table (documented in ``docs/server.md``): state pushes,
and ``act``, ``chat``, ``resync`` and ``ping`` messages, each answered or refused with a
coded error frame."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.server.errors import ServerError, error_body, is_outage, unavailable
from aceydeucey.server.jsontext import dumps, loads
from aceydeucey.server.logs import fault
from aceydeucey.server.ratelimit import RateLimits
from aceydeucey.server.routing import (
    Service,
    limits_of,
    log_action,
    request_lang,
    token_guard,
)
from aceydeucey.server.security import json_too_deep, seat_cookie_name
from aceydeucey.server.service import TableService

__all__ = ["router"]

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    websocket: WebSocket,
    table_id: str,
    service: Service,
    token: str | None = None,
    since: int | None = None,
) -> None:
    """Pushes ``{"type": "state", ...}`` after every change; accepts ``act``, ``chat``,
    ``resync`` and ``ping`` messages (see docs/server.md).  The seat is the ``token``
    parameter, else the seat cookie."""
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
    sub.send(dumps(service.state_message(t, sub.seat)))


async def _send_loop(websocket: WebSocket, sub: Any) -> None:
    while True:
        message = await sub.queue.get()
        if message is None:
            return
        text = message if isinstance(message, str) else dumps(message)
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
        message = loads(text)
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
                view = await service.act(t.id, token, seq, action, view=False)
            except AceyDeuceyError as exc:
                log_action(t.id, start, exc.code, None)
                await limits.hit("act", key)
                raise
            log_action(t.id, start, "duplicate" if view.get("duplicate") else "ok", view)
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
            log_action(t.id, start, "unavailable" if is_outage(exc) else "failed", None)
        extra: dict[str, Any] = {"seq": t.seq}
        if client_id is not None:
            extra["id"] = client_id
        _fault_frame(service, sub, exc, kind, lang, extra)
