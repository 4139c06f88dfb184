"""The application factory: ``create_app(settings) -> FastAPI``.

``uvicorn --factory aceydeucey.server.app:factory`` builds one from the environment
(``DATABASE_URL``, ``REDIS_URL``), which is how ``aceydeucey serve --workers N``
starts each worker.
"""

from __future__ import annotations

import contextlib
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
from aceydeucey.server.api import WrongTokens, documented_openapi, request_lang, router
from aceydeucey.server.errors import (
    ServerError,
    error_body,
    headers_of,
    is_outage,
    status_of,
    unavailable,
)
from aceydeucey.server.logs import AccessLog, fault, install_handler
from aceydeucey.server.presence import make_presence
from aceydeucey.server.pubsub import make_broadcaster
from aceydeucey.server.ratelimit import RateLimits
from aceydeucey.server.security import BrowserGuard, json_too_deep
from aceydeucey.server.service import TableService
from aceydeucey.server.settings import Settings
from aceydeucey.server.store import Store

__all__ = [
    "STATIC",
    "Faults",
    "LimitBody",
    "RedactTokens",
    "create_app",
    "factory",
    "install_log_filter",
]

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
    """Refuse request bodies over the limit with 413 (``limit`` bytes for the JSON API,
    ``upload_limit`` for the pages: a record uploaded to the replay viewer), whether
    the size is declared or the body comes in chunks, and JSON nested deeper than
    ``depth`` with 400, before any route parses it."""

    def __init__(self, app: ASGIApp, limit: int, upload_limit: int, depth: int) -> None:
        self.app = app
        self.api_limit = limit
        self.upload_limit = upload_limit
        self.depth = depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        limit = self.api_limit if path.startswith("/api/") else self.upload_limit
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, send, ServerError(413, "server.body_too_large", limit=limit))
            return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                await self._refuse(
                    scope, send, ServerError(413, "server.body_too_large", limit=limit)
                )
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if json_too_deep(body, self.depth):
            await self._refuse(
                scope, send, ServerError(400, "server.json_too_deep", limit=self.depth)
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send, exc: ServerError) -> None:
        request = Request(scope)
        response = JSONResponse(error_body(exc, request_lang(request)), status_code=exc.status)
        await response(scope, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


class Faults:
    """ASGI middleware: a store or Redis out of reach answers 503 with ``Retry-After``;
    any other failure 500.  Either way one log line (``logs.fault``), no traceback."""

    def __init__(self, app: ASGIApp, retry_after: int) -> None:
        self.app = app
        self.retry_after = retry_after

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            path = str(scope.get("path", ""))[:200]
            if is_outage(exc):
                fault("store_unavailable", exc, path=path)
                error = unavailable(self.retry_after)
            else:
                fault("unexpected", exc, path=path)
                error = ServerError(500, "server.internal")
            if started:
                return
            request = Request(scope)
            response = JSONResponse(
                error_body(error, request_lang(request)),
                status_code=error.status,
                headers=headers_of(error),
            )
            await response(scope, _no_receive, send)


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
    install_handler()
    store = Store(
        settings.database_url,
        schema=settings.database_schema,
        group_commits=settings.group_commits,
        group_window=settings.group_window,
    )
    service = TableService(
        settings, store, make_broadcaster(settings.redis_url), make_presence(settings.redis_url)
    )
    limits = RateLimits(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            redis = getattr(app.state, "health_redis", None)
            if redis is not None:
                with contextlib.suppress(Exception):
                    await redis.aclose()

    app = FastAPI(
        title="aceydeucey",
        summary="Online tables for In-Between, Acey-Deucey backgammon and Aces in the Pot.",
        version="1",
        lifespan=lifespan,
        docs_url="/docs",
    )
    app.state.service = service
    app.state.settings = settings
    app.state.limits = limits
    app.state.wrong_tokens = WrongTokens()

    @app.exception_handler(AceyDeuceyError)
    async def engine_error(request: Request, exc: AceyDeuceyError) -> JSONResponse:
        return JSONResponse(
            error_body(exc, request_lang(request)),
            status_code=status_of(exc),
            headers=headers_of(exc),
        )

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
        fault("unexpected", exc, path=redact(request.url.path))
        error = ServerError(500, "server.internal")
        return JSONResponse(error_body(error, request_lang(request)), status_code=500)

    app.include_router(router)
    from aceydeucey.server import analysis_page, pages

    app.include_router(pages.router)
    app.include_router(analysis_page.router)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # the last added runs first: the access log sees every answer, the guard adds its
    # headers to every answer (refusals included), then bodies are bounded, then faults
    app.add_middleware(Faults, retry_after=settings.retry_after)
    app.add_middleware(
        LimitBody,
        limit=settings.max_body,
        upload_limit=settings.max_upload,
        depth=settings.max_json_depth,
    )
    app.add_middleware(BrowserGuard, allowed_origins=settings.allowed_origins)
    app.add_middleware(AccessLog)
    app.openapi = lambda: documented_openapi(app)  # type: ignore[method-assign]
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
