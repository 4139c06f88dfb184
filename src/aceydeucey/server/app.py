"""The application factory: ``create_app(settings) -> FastAPI``.

``uvicorn --factory aceydeucey.server.app:factory`` builds one from the environment
(``DATABASE_URL``, ``REDIS_URL``), which is how ``aceydeucey serve --workers N``
starts each worker.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.server.api import request_lang, router
from aceydeucey.server.errors import ServerError, error_body, status_of
from aceydeucey.server.presence import make_presence
from aceydeucey.server.pubsub import make_broadcaster
from aceydeucey.server.service import TableService
from aceydeucey.server.settings import Settings
from aceydeucey.server.store import Store

__all__ = ["STATIC", "RedactTokens", "create_app", "factory", "install_log_filter"]

log = logging.getLogger("aceydeucey.server")

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

_SECRET = re.compile(r"((?:token|seed|server_seed|cut|invite)=)[^&\s\"']+", re.IGNORECASE)
_BEARER = re.compile(r"(Bearer\s+)\S+", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every ``token=...`` (and seed, cut) and Bearer value replaced by ``***``."""
    return _BEARER.sub(r"\1***", _SECRET.sub(r"\1***", text))


class RedactTokens(logging.Filter):
    """A log filter that takes tokens and seeds out of every record (uvicorn's access log
    prints query strings, and ``/ws/tables/...?token=...`` is one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if record.args:
            if isinstance(record.args, dict):
                record.args = {
                    k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
                }
            else:
                record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install_log_filter() -> None:
    """Put the redacting filter on uvicorn's loggers and this server's (once)."""
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn", "aceydeucey.server"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
        for handler in logger.handlers:
            if not any(isinstance(f, RedactTokens) for f in handler.filters):
                handler.addFilter(RedactTokens())


class LimitBody:
    """Refuse request bodies over the limit with 413: ``limit`` bytes for the JSON API,
    ``upload_limit`` for the pages (a record uploaded to the replay viewer)."""

    def __init__(self, app: ASGIApp, limit: int, upload_limit: int) -> None:
        self.app = app
        self.api_limit = limit
        self.upload_limit = upload_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        limit = self.api_limit if path.startswith("/api/") else self.upload_limit
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, send, limit)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await self._refuse(scope, send, limit)

    async def _refuse(self, scope: Scope, send: Send, limit: int) -> None:
        request = Request(scope)
        exc = ServerError(413, "server.body_too_large", limit=limit)
        response = JSONResponse(error_body(exc, request_lang(request)), status_code=413)
        await response(scope, _no_receive, send)


class _TooLarge(Exception):
    pass


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def validation_error(problem: Any) -> ServerError:
    """A request-model error as a catalog message (the model's own text kept as ``detail``)."""
    where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body") or "body"
    kind = str(problem.get("type", ""))
    ctx = problem.get("ctx") or {}
    detail = str(problem.get("msg", ""))
    if kind == "missing":
        return ServerError(400, "server.field_missing", field=where)
    if kind == "string_too_long":
        return ServerError(400, "server.field_too_long", field=where, limit=ctx.get("max_length"))
    if kind == "string_too_short":
        return ServerError(400, "server.field_too_short", field=where, limit=ctx.get("min_length"))
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bound = next((ctx[k] for k in ("ge", "le", "gt", "lt") if k in ctx), "")
        return ServerError(400, "server.field_range", field=where, bound=str(bound), detail=detail)
    if kind == "literal_error":
        return ServerError(
            400, "server.field_choice", field=where, accepted=str(ctx.get("expected", ""))
        )
    return ServerError(400, "server.bad_request", field=where, problem=detail)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server: the JSON API, the WebSocket, the pages and their static files."""
    settings = settings or Settings.from_env()
    install_log_filter()
    store = Store(settings.database_url, schema=settings.database_schema)
    service = TableService(
        settings, store, make_broadcaster(settings.redis_url), make_presence(settings.redis_url)
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(
        title="aceydeucey",
        summary="Online tables for In-Between, Acey-Deucey backgammon and Aces in the Pot.",
        version="1",
        lifespan=lifespan,
        docs_url="/docs",
    )
    app.state.service = service
    app.state.settings = settings

    @app.exception_handler(AceyDeuceyError)
    async def engine_error(request: Request, exc: AceyDeuceyError) -> JSONResponse:
        return JSONResponse(error_body(exc, request_lang(request)), status_code=status_of(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            error = ServerError(400, "server.bad_json")
        else:
            error = validation_error(errors[0] if errors else {})
        return JSONResponse(error_body(error, request_lang(request)), status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and _wants_page(request):
            from aceydeucey.server.pages import not_found_page

            return not_found_page(request)
        code = {404: "server.not_found", 405: "server.method"}.get(exc.status_code, "server.http")
        error = ServerError(exc.status_code, code, status=exc.status_code)
        return JSONResponse(
            error_body(error, request_lang(request)),
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected %s on %s", type(exc).__name__, redact(request.url.path))
        error = ServerError(500, "server.internal")
        return JSONResponse(error_body(error, request_lang(request)), status_code=500)

    app.include_router(router)
    from aceydeucey.server import pages

    app.include_router(pages.router)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(LimitBody, limit=settings.max_body, upload_limit=settings.max_upload)
    return app


def _wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, a socket or a static file)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/", "/static/")):
        return False
    return "text/html" in request.headers.get("accept", "")


def factory() -> FastAPI:
    """For ``uvicorn --factory``: the app from the environment's settings."""
    return create_app(Settings.from_env())
