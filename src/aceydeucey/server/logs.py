"""Structured logs: one JSON object per line, never a token, seed or SQL parameter.

``aceydeucey.access`` writes a line per HTTP request (``{"event": "request",
"method", "route", "table", "status", "latency_ms"}``) and ``aceydeucey.actions`` a
line per action (``{"event": "action", "table", "seat", "seq", "latency_ms",
"outcome"}``); ``aceydeucey.server`` writes faults (``store_unavailable``,
``unexpected``) as one line each, without a traceback: a database driver's message
holds the statement's parameters, so only the exception's type and where it was
raised are written.
"""

from __future__ import annotations

import logging
import sys
import time
import traceback
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from aceydeucey.server.jsontext import dumps

__all__ = ["AccessLog", "access_log", "action_log", "fault", "install_handler", "log_json"]

access_log = logging.getLogger("aceydeucey.access")
action_log = logging.getLogger("aceydeucey.actions")
server_log = logging.getLogger("aceydeucey.server")


def log_json(logger: logging.Logger, event: str, level: int = logging.INFO, **fields: Any) -> None:
    """Write ``{"event": event, **fields}`` as one JSON line."""
    if logger.isEnabledFor(level):
        logger.log(level, dumps({"event": event, **fields}))


def where(exc: BaseException) -> str:
    """``module:line`` of the innermost frame of ``exc`` (no values, no message)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    return f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"


def fault(event: str, exc: BaseException, **fields: Any) -> None:
    """One line for a failure: its kind and place, never its message or traceback
    (``unexpected`` is an error; an outage, which the server rides out, a warning)."""
    log_json(
        server_log,
        event,
        logging.ERROR if event == "unexpected" else logging.WARNING,
        error=type(exc).__name__,
        at=where(exc),
        **fields,
    )


def install_handler() -> None:
    """Write the ``aceydeucey.*`` lines to stderr when nothing else collects them (under
    uvicorn the root logger has no handler; under a test runner it has one)."""
    root = logging.getLogger("aceydeucey")
    if root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    if logging.getLogger().handlers or any(getattr(h, "_aceydeucey", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler._aceydeucey = True  # type: ignore[attr-defined]
    root.addHandler(handler)


def _table_of(path: str) -> str | None:
    parts = path.split("/")
    for prefix in (["", "api", "tables"], ["", "ws", "tables"], ["", "tables"]):
        if parts[: len(prefix)] == prefix and len(parts) > len(prefix) and parts[len(prefix)]:
            return parts[len(prefix)][:64]
    return None


def _route_of(path: str, table: str | None) -> str:
    """The path with the table id replaced (the query string, which may hold a token,
    is never logged)."""
    if table is None:
        return path[:200]
    return path.replace(table, "{table_id}", 1)[:200]


class AccessLog:
    """ASGI middleware: one ``request`` line per HTTP request, when its answer is sent."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not access_log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            path = str(scope.get("path", ""))
            table = _table_of(path)
            log_json(
                access_log,
                "request",
                method=scope.get("method"),
                route=_route_of(path, table),
                table=table,
                status=status,
                latency_ms=round((time.perf_counter() - start) * 1000, 2),
            )
