"""The JSON API and the WebSocket protocol (documented in ``docs/server.md``).

Every error answers ``{"error": {"code", "params", "message"}}`` with the message in
the request's language (``?lang=``, the ``lang`` cookie, or ``Accept-Language``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import types
import typing
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.websockets import WebSocketDisconnect, WebSocketState

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import bot_names, game_class, game_ids
from aceydeucey.server.errors import ServerError, error_body, pick_lang
from aceydeucey.server.service import TableService

__all__ = [
    "Act",
    "ChatLine",
    "Claim",
    "CreateTable",
    "JoinSeat",
    "describe_games",
    "request_lang",
    "router",
    "service_of",
    "token_of",
]

router = APIRouter()

TableId = Annotated[str, Path(max_length=64, description="The table's id (its invite).")]

#: The UI catalog domain of each game (option help in the player's language, where given).
UI_DOMAINS = {"inbetween": "inbetween", "backgammon": "backgammon", "aces-in-the-pot": "aces"}


# -- request bodies -------------------------------------------------------------------------
class CreateTable(BaseModel):
    """A new table: the game, its options (a preset plus overrides), who sits where."""

    game: str = Field(examples=["inbetween"], max_length=40)
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
        None, ge=0, le=86400, description="Seconds away before an opponent may claim the seat."
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


def _type_text(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "choice"
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = _type_text(parts[0]) if len(parts) == 1 else "|".join(map(_type_text, parts))
        return f"{inner}|none"
    if origin is tuple:
        args = typing.get_args(hint)
        return f"list[{_type_text(args[0]) if args else 'str'}]"
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    if hint is str:
        return "str"
    return getattr(hint, "__name__", str(hint))


def _choices(hint: Any, meta_choices: Any) -> list[Any] | None:
    if meta_choices is not None:
        return _jsonable(list(meta_choices))  # type: ignore[no-any-return]
    origin = typing.get_origin(hint)
    if origin is Literal:
        return list(typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            if typing.get_origin(arg) is Literal:
                found = list(typing.get_args(arg))
                return [*found, None] if type(None) in typing.get_args(hint) else found
    return None


def describe_games(lang: str) -> list[dict[str, Any]]:
    """Every game: presets, every option (type, choices, default, help, source), bots."""
    out = []
    for game_id in game_ids():
        rules_class = game_class(game_id).rules_class
        hints = typing.get_type_hints(rules_class)
        key = rules_class.PRESET_KEY
        # help lines and preset summaries in the reader's language, from the options catalog
        helps = {o["name"]: o["help"] for o in rules_class.describe_options(game_id, lang)}
        summaries = {p["name"]: p["summary"] for p in rules_class.describe_presets(game_id, lang)}
        options = []
        for f in dataclasses.fields(rules_class):  # type: ignore[arg-type]
            meta = rules_class.option_help()[f.name]
            options.append(
                {
                    "name": f.name,
                    "type": _type_text(hints[f.name]),
                    "choices": _choices(hints[f.name], meta.get("choices")),
                    "min": meta.get("min"),
                    "max": meta.get("max"),
                    "default": _jsonable(meta.get("default")),
                    "help": helps.get(f.name, str(meta.get("help", ""))),
                    "source": meta.get("source", ""),
                    "preset_key": f.name == key,
                }
            )
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


# -- routes -----------------------------------------------------------------------------------
@router.get("/api/games", tags=["games"])
async def list_games(request: Request) -> JSONResponse:
    """Each game's presets (or variants), options and bot strategies, in your language."""
    return JSONResponse({"games": describe_games(request_lang(request))})


@router.get("/api/tables", tags=["tables"])
async def lobby(request: Request) -> JSONResponse:
    """The lobby: public tables still open or playing."""
    return JSONResponse({"tables": _jsonable(await service_of(request).lobby())})


@router.post("/api/tables", status_code=201, tags=["tables"])
async def create_table(request: Request, body: CreateTable) -> JSONResponse:
    """Create a table; ``invite`` is the link that seats friends at a private table."""
    service = service_of(request)
    t = await service.create(
        body.game,
        body.options,
        body.seats,
        public=body.public,
        turn_seconds=body.turn_seconds,
        on_timeout=body.on_timeout,
        claim_after=body.claim_after,
    )
    invite = f"{str(request.base_url).rstrip('/')}/tables/{t.id}"
    return JSONResponse(
        {"id": t.id, "invite": invite, "table": _jsonable(service.table_view(t))}, status_code=201
    )


@router.get("/api/tables/{table_id}", tags=["tables"])
async def get_table(
    request: Request,
    table_id: TableId,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """The table and your seat's observation (the public one without a token)."""
    service = service_of(request)
    t, seat = await service.seat_of(table_id, token_of(request, table_id))
    await service.refreshed(t)
    return JSONResponse(_jsonable(service.view(t, seat)))


@router.post("/api/tables/{table_id}/seats/{seat}", tags=["seats"])
async def join(
    request: Request, table_id: TableId, seat: Annotated[int, Path(ge=0, le=64)], body: JoinSeat
) -> JSONResponse:
    """Take a seat with a nickname: the answer's ``token`` is the seat's only key."""
    token = await service_of(request).join(table_id, seat, body.name, body.cut)
    return JSONResponse({"token": token, "seat": seat})


@router.post("/api/tables/{table_id}/actions", tags=["play"])
async def act(
    request: Request,
    table_id: TableId,
    body: Act,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN")] = None,
) -> JSONResponse:
    """Play an action at ``seq`` (``roll`` throws the dice when the throw is yours)."""
    view = await service_of(request).act(
        table_id, token_of(request, table_id), body.seq, body.action
    )
    return JSONResponse(_jsonable(view))


@router.get("/api/tables/{table_id}/record", tags=["tables"])
async def record(request: Request, table_id: TableId) -> JSONResponse:
    """The record (JSON record format); the server seed is in it once the game is over."""
    service = service_of(request)
    t = await service.refreshed(await service.table(table_id))
    return JSONResponse(service.record(t).to_dict())


@router.get("/api/tables/{table_id}/events", tags=["tables"])
async def events(
    request: Request, table_id: TableId, since: Annotated[int, Query(ge=0)] = 0
) -> JSONResponse:
    """The public log after ``since``: who acted, their decision, the public event."""
    service = service_of(request)
    t = await service.refreshed(await service.table(table_id))
    return JSONResponse({"seq": t.seq, "events": _jsonable(service.events_since(t, since))})


@router.get("/api/tables/{table_id}/chat", tags=["chat"])
async def chat_lines(
    request: Request, table_id: TableId, since: Annotated[int, Query(ge=0)] = 0
) -> JSONResponse:
    service = service_of(request)
    t = await service.table(table_id)
    return JSONResponse({"chat": await service.store.chat_since(t.id, since)})


@router.post("/api/tables/{table_id}/chat", tags=["chat"])
async def chat(request: Request, table_id: TableId, body: ChatLine) -> JSONResponse:
    """Say something at the table (seated players; short and rate-limited)."""
    line = await service_of(request).chat(table_id, token_of(request, table_id), body.text)
    return JSONResponse(line)


@router.post("/api/tables/{table_id}/resign", tags=["play"])
async def resign(request: Request, table_id: TableId) -> JSONResponse:
    """Resign a two-seat game (backgammon): the opponent wins; the record says who resigned."""
    view = await service_of(request).resign(table_id, token_of(request, table_id))
    return JSONResponse(_jsonable(view))


@router.post("/api/tables/{table_id}/claim", tags=["play"])
async def claim(request: Request, table_id: TableId, body: Claim) -> JSONResponse:
    """After an opponent has been away ``claim_after`` seconds: claim the game, or seat a bot."""
    view = await service_of(request).claim(
        table_id, token_of(request, table_id), body.seat, body.mode
    )
    return JSONResponse(_jsonable(view))


@router.post("/api/tables/{table_id}/rematch", tags=["tables"])
async def rematch(request: Request, table_id: TableId) -> JSONResponse:
    """A new table like this finished one; you keep your seat (a new token)."""
    found = await service_of(request).rematch(table_id, token_of(request, table_id))
    invite = f"{str(request.base_url).rstrip('/')}/tables/{found['id']}"
    return JSONResponse({**found, "invite": invite})


# -- the WebSocket ------------------------------------------------------------------------------
@router.websocket("/ws/tables/{table_id}")
async def table_socket(
    websocket: WebSocket,
    table_id: str,
    token: str | None = None,
    since: int | None = None,
) -> None:
    """Pushes ``{"type": "state", ...}`` after every change; accepts ``act``, ``chat``,
    ``resync`` and ``ping`` messages (see docs/server.md)."""
    service = service_of(websocket)
    lang = request_lang(websocket)
    await websocket.accept()
    try:
        t, seat = await service.seat_of(table_id[:64], token or None)
    except AceyDeuceyError as exc:
        status = exc.status if isinstance(exc, ServerError) else 400
        await websocket.send_json({"type": "error", **error_body(exc, lang)})
        await websocket.close(code=4000 + status)
        return
    sub = await service.subscribe(t, seat, lang)
    sender = asyncio.create_task(_send_loop(websocket, sub))
    try:
        await service.refreshed(t)
        _resync(service, t, sub, since)
        while True:
            raw = await websocket.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None and raw.get("bytes") is not None:
                text = raw["bytes"].decode("utf-8", "replace")
            await _handle(service, t, sub, token, text or "", lang)
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


async def _handle(
    service: TableService, t: Any, sub: Any, token: str | None, text: str, lang: str
) -> None:
    client_id: str | int | None = None

    def fail(exc: AceyDeuceyError, about: str | None) -> None:
        answer = {"type": "error", "about": about, "seq": t.seq, **error_body(exc, lang)}
        if client_id is not None:
            answer["id"] = client_id
        sub.send(answer)

    if len(text.encode("utf-8")) > service.settings.max_message:
        fail(ServerError(413, "server.message_too_large", limit=service.settings.max_message), None)
        return
    try:
        message = json.loads(text)
    except ValueError:
        fail(ServerError(400, "server.bad_json"), None)
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        fail(ServerError(400, "server.bad_message"), None)
        return
    kind = message["type"]
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
            view = await service.act(t.id, token, seq, action)
            ack = {"type": "ack", "seq": view["seq"], "duplicate": view.get("duplicate", False)}
            if client_id is not None:
                ack["id"] = client_id
            sub.send(ack)
        elif kind == "resync":
            seq = message.get("seq")
            await service.refreshed(t)
            _resync(service, t, sub, seq if isinstance(seq, int) else None)
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
