"""The JSON API and the WebSocket protocol (documented in ``docs/server.md``): one router
made of the table routes (:mod:`.table_routes`, backgammon's own in
:mod:`.backgammon_routes`) and the socket's (:mod:`.socket_routes`),
which share :mod:`.routing` (the service, the seat's token, the documented statuses) and
take their bodies from :mod:`.bodies`.

Every error answers ``{"error": {"code", "params", "message"}}`` with the message in
the request's language (``?lang=``, the ``lang`` cookie, or ``Accept-Language``).
"""

from __future__ import annotations

from fastapi import APIRouter

from aceydeucey.server import backgammon_routes, socket_routes, table_routes
from aceydeucey.server.bodies import Act, ChatLine, Claim, CreateTable, JoinSeat
from aceydeucey.server.routing import (
    WrongTokens,
    describe_games,
    documented_openapi,
    request_lang,
    service_of,
    token_of,
)

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
router.include_router(table_routes.router)
router.include_router(backgammon_routes.router)
router.include_router(socket_routes.router)
