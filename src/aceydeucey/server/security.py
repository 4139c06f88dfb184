"""The browser-facing guards: the Origin rule, security headers and the seat cookie.

- **Origin**: a state-changing request (any method but GET, HEAD and OPTIONS) and a
  WebSocket handshake that carry an ``Origin`` must come from the server's own origin
  (its ``Host``) or one of ``Settings.allowed_origins``; others are refused with 403
  ``server.origin_refused`` (a socket gets the error frame and close code 4403).
  Without ``Origin`` a request comes from a program, not a browser (browsers send it
  on every such request) and passes, unless its ``Referer`` names a foreign origin;
  the seat cookie is ``SameSite=Strict`` besides, so another site's page never
  sends it.
- **Headers** on every HTTP answer: a Content-Security-Policy that allows only this
  origin's scripts, styles and sockets (no inline script), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: same-origin``.  The API
  docs pages (``/docs``, ``/redoc``) load FastAPI's Swagger UI and keep its own policy.
- **The seat cookie** ``seat_<table id>``: set by the server (``HttpOnly``,
  ``SameSite=Strict``, ``Secure`` behind HTTPS), never by a script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from aceydeucey.server.errors import ServerError, error_body, pick_lang

__all__ = [
    "CSP",
    "SAFE_METHODS",
    "SEAT_COOKIE_AGE",
    "BrowserGuard",
    "clear_seat_cookie",
    "json_too_deep",
    "origin_allowed",
    "seat_cookie_name",
    "set_seat_cookie",
]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SEAT_COOKIE_AGE = 60 * 60 * 24 * 30

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
#: FastAPI's interactive docs load Swagger UI and ReDoc from a CDN with an inline script.
DOCS_CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "font-src 'self' https://fonts.gstatic.com",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "frame-ancestors 'none'",
    ]
)
DOCS_PATHS = ("/docs", "/redoc")

_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]


def seat_cookie_name(table_id: str) -> str:
    return f"seat_{table_id}"


def set_seat_cookie(response: Response, table_id: str, token: str, *, secure: bool) -> None:
    """Hold the seat's token in a cookie no script can read."""
    response.set_cookie(
        seat_cookie_name(table_id),
        token,
        max_age=SEAT_COOKIE_AGE,
        path="/",
        httponly=True,
        samesite="strict",
        secure=secure,
    )


def clear_seat_cookie(response: Response, table_id: str, *, secure: bool) -> None:
    response.delete_cookie(
        seat_cookie_name(table_id), path="/", httponly=True, samesite="strict", secure=secure
    )


def _origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url`` in lower case, or ``None`` when it has none."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https", "ws", "wss") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def origin_allowed(origin: str, host: str | None, allowed: Iterable[str]) -> bool:
    """Whether a browser's ``Origin`` may act here: the server's own host (http or
    https: a proxy may end TLS in front of it), or one of the allowed origins."""
    found = _origin_of(origin)
    if found is None:
        return False  # "null" (a sandboxed frame, a file) and anything unreadable
    if found in {a.lower().rstrip("/") for a in allowed}:
        return True
    scheme, _, netloc = found.partition("://")
    return bool(host) and scheme in ("http", "https") and netloc == str(host).lower()


def _has_bearer(conn: HTTPConnection) -> bool:
    scheme, _, value = conn.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and bool(value.strip())


def _forged(conn: HTTPConnection, allowed: Iterable[str]) -> bool:
    origin = conn.headers.get("origin")
    if origin is not None:
        return not origin_allowed(origin, conn.headers.get("host"), allowed)
    if _has_bearer(conn):
        return False
    referer = conn.headers.get("referer")
    if referer is not None:
        return not origin_allowed(referer, conn.headers.get("host"), allowed)
    return False  # a program (browsers send Origin on these requests)


class BrowserGuard:
    """ASGI middleware: the Origin rule for state changes and sockets, and the headers."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            conn = HTTPConnection(scope)
            if _forged(conn, self.allowed):
                await self._refuse_socket(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        policy = DOCS_CSP if path.startswith(DOCS_PATHS) else CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for key, value in [*_HEADERS, (b"content-security-policy", policy.encode())]:
                    if key not in present:
                        headers.append((key, value))
                message = {**message, "headers": headers}
            await send(message)

        conn = HTTPConnection(scope)
        if str(scope.get("method", "GET")).upper() not in SAFE_METHODS and _forged(
            conn, self.allowed
        ):
            lang = _lang(conn)
            error = ServerError(403, "server.origin_refused")
            response = JSONResponse(error_body(error, lang), status_code=403)
            await response(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    async def _refuse_socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        lang = _lang(HTTPConnection(scope))
        error = ServerError(403, "server.origin_refused")
        await send({"type": "websocket.accept"})
        await send(
            {
                "type": "websocket.send",
                "text": json.dumps({"type": "error", **error_body(error, lang)}),
            }
        )
        await send({"type": "websocket.close", "code": 4403})


def _lang(conn: HTTPConnection) -> str:
    return pick_lang(
        conn.query_params.get("lang"),
        conn.cookies.get("lang"),
        conn.headers.get("accept-language"),
    )


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"?')
_KEEP = bytes(range(256)).translate(None, b"[]{}")


def json_too_deep(data: bytes | str, limit: int) -> bool:
    """Whether JSON text nests arrays and objects more than ``limit`` deep (strings are
    skipped; not a validation: a text this accepts may still not be JSON).

    >>> json_too_deep(b'{"a": [[1], "[[[["]}', 3)
    False
    >>> json_too_deep(b'{"a": [[1], "[[[["]}', 2)
    True
    >>> json_too_deep("[" * 10_000, 32)
    True
    """
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    brackets = _STRING.sub(b"", raw).translate(None, _KEEP)
    depth = 0
    for byte in brackets:
        if byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False
