"""The backgammon tables' own routes: the record as a ``.mat`` file, and a seat's hint.

``GET /api/tables/{id}/record.mat`` answers the table's record (the one
``/record`` answers, on the same conditions) as the ``.mat`` text GNU Backgammon
and eXtreme Gammon read (:mod:`aceydeucey.backgammon.matfile`), as a download.  A
game or variant the format cannot hold is refused with a coded 400
(``server.mat_game``, ``bg.mat.variant``); the table's ``record_formats`` (in its
view) says beforehand whether ``mat`` is one of its downloads.

``GET /api/tables/{id}/hint`` answers the seat's best action as the 3-ply analysis
ranks it (:func:`aceydeucey.backgammon.analysis.suggest`) and its equity, only at a
table whose creator allowed hints (``hints``), only to the seat whose decision it is
(a checker play, a double to name, a cube action).
"""

from __future__ import annotations

import asyncio
import threading
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from aceydeucey.core.game import Game
from aceydeucey.core.record import Record
from aceydeucey.server.errors import ServerError
from aceydeucey.server.routing import (
    Service,
    TableId,
    Token,
    address_of,
    answers,
    limits_of,
    token_guard,
)
from aceydeucey.server.service import hash_token

__all__ = ["HINT_PHASES", "mat_text", "router"]

router = APIRouter()

#: The phases in which a backgammon seat decides (a hint can be asked for).
HINT_PHASES = frozenset({"play", "double", "cube", "take"})
#: One evaluator at a time (they share their network's buffers).
_evaluating = threading.Lock()

_MAT_OK = {
    "description": "The record as a .mat file (a download).",
    "content": {"text/plain": {"schema": {"type": "string"}}},
    "headers": {
        "Content-Disposition": {
            "description": 'attachment; filename="backgammon-ID.mat"',
            "schema": {"type": "string"},
        }
    },
}


def mat_text(record: Record) -> str:
    """The ``.mat`` text of a table's record (400 for a game a .mat cannot hold)."""
    from aceydeucey.backgammon.matfile import export_mat

    if record.game != "backgammon":
        raise ServerError(400, "server.mat_game", game=record.game)
    return export_mat(record)  # bg.mat.variant (400) for a variant it cannot hold


@router.get(
    "/api/tables/{table_id}/record.mat",
    tags=["tables"],
    response_class=Response,  # the 200 is plain text, the refusals JSON: each documented
    responses={200: _MAT_OK, **answers(400, 404, 409, 503)},
)
async def record_mat(request: Request, table_id: TableId, service: Service) -> PlainTextResponse:
    """The record as a ``.mat`` file (classic backgammon, any cube; on the conditions of
    ``/record``): 400 for a game or variant the format cannot hold."""
    t = await service.refreshed(await service.table(table_id))
    record = service.record(t)
    text = await asyncio.to_thread(mat_text, record)
    name = f"{t.game.game_id}-{t.id}.mat"
    return PlainTextResponse(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


#: The hint's look-ahead: the strongest the evaluator has (3-ply; about 0.3 s a decision at
#: p99, in a thread while the kernel releases the interpreter's lock: docs/bots.md "3-ply").
HINT_PLY = 3


@lru_cache(maxsize=8)
def _evaluator(rules: Any) -> Any:
    from aceydeucey.backgammon.evaluator import Evaluator

    return Evaluator(rules)


def _suggest(game: Game, observation: dict[str, Any]) -> dict[str, Any]:
    from aceydeucey.backgammon.analysis import suggest

    with _evaluating:
        found = suggest(_evaluator(game.rules), observation, ply=HINT_PLY)
    return {
        "kind": found.kind,
        "action": found.action,
        "equity": round(found.equity, 4),
        "choices": found.choices,
        "ply": HINT_PLY,
    }


@router.get(
    "/api/tables/{table_id}/hint",
    tags=["play"],
    responses=answers(400, 403, 404, 409, 429, 503),
)
async def hint(request: Request, table_id: TableId, service: Service, token: Token) -> JSONResponse:
    """The best action for your seat as the 3-ply analysis ranks it, with its equity
    (``kind``: ``play``, ``named_double``, ``cube`` or ``take``; ``action`` in the
    game's notation; ``seq``: the table's seq it answers).  Only at a table created with
    ``hints``, with the seat's token, when the decision is the seat's: 403
    ``server.token_missing`` without a token, 403 ``server.hints_off`` at a table
    without hints, 409 ``server.hint_not_your_turn`` otherwise."""
    limits = limits_of(request)
    key = hash_token(token) if token else address_of(request)
    await limits.hit("act", key)  # a hint costs the server a ranking: paced as actions are
    async with token_guard(request, table_id, token):
        t, seat = await service.seat_of(table_id, token)
    await service.refreshed(t)
    if seat is None:
        raise ServerError(403, "server.token_missing")
    if not t.config.get("hints"):
        raise ServerError(403, "server.hints_off")
    if t.over:
        raise ServerError(409, "server.table_over")
    observation = service.observation(t, seat)
    if (
        t.person_to_act() != seat
        or t.to_roll() is not None
        or observation.get("phase") not in HINT_PHASES
        or not observation.get("legal_actions")
    ):
        raise ServerError(409, "server.hint_not_your_turn")
    seq = t.seq
    found = await asyncio.to_thread(_suggest, t.game, observation)
    return JSONResponse({"seq": seq, "seat": seat, **found})
