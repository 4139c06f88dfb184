"""The server's own errors (codes in the ``server_errors`` catalog) and their HTTP status.

Every error a client sees is ``{"error": {"code", "params", "message"}}`` with the
message in the request's language; engine errors keep their own codes.  An error
with a ``retry_after`` parameter (429, 503) also sends ``Retry-After``.

::

    AceyDeuceyError (ValueError)          the package's one error tree
     +-- ServerError                      status + code + params, answered as is
     +-- engine errors                    400 (403 out of turn), their own codes

Failures outside the tree: an unreachable store or Redis (:func:`is_outage`) is
answered 503 with ``server.unavailable``; anything else 500 ``server.internal``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from aceydeucey.core.errors import (
    AceyDeuceyError,
    OutOfTurnError,
)
from aceydeucey.locale import LANGS, negotiate

__all__ = [
    "ErrorBody",
    "ErrorDetail",
    "ServerError",
    "error_body",
    "headers_of",
    "is_outage",
    "pick_lang",
    "status_of",
    "unavailable",
]


class ServerError(AceyDeuceyError):
    """A request the server refuses: ``status`` is the HTTP status to answer with."""

    family = "server"

    def __init__(self, status: int, code: str, /, **params: Any) -> None:
        self.status = status
        super().__init__(code, **params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.status, self.code, self.params))


def _rebuild(status: int, code: str, params: dict[str, Any]) -> ServerError:
    return ServerError(status, code, **params)


class ErrorDetail(BaseModel):
    """One error: a stable code, the values its message is made of, the message."""

    code: str = Field(examples=["server.seq_stale"])
    params: dict[str, Any] = Field(examples=[{"seq": 3, "current": 5}])
    message: str = Field(description="In the request's language (English or Portuguese).")


class ErrorBody(BaseModel):
    """What every refused request answers (4xx, 5xx)."""

    error: ErrorDetail


def status_of(error: AceyDeuceyError) -> int:
    """The HTTP status of an error: the server's own, 403 out of turn, else 400."""
    if isinstance(error, ServerError):
        return error.status
    if isinstance(error, OutOfTurnError):
        return 403
    return 400


def headers_of(error: AceyDeuceyError) -> dict[str, str] | None:
    """``Retry-After`` for an error that says when to try again."""
    seconds = error.params.get("retry_after")
    if isinstance(seconds, int | float) and not isinstance(seconds, bool):
        return {"Retry-After": str(max(1, int(-(-seconds // 1))))}
    return None


def error_body(error: AceyDeuceyError, lang: str) -> dict[str, Any]:
    return {"error": error.to_dict(lang)}


def unavailable(retry_after: int) -> ServerError:
    """503: the store (or Redis) cannot be reached; nothing was changed."""
    return ServerError(503, "server.unavailable", retry_after=retry_after)


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` means the store or Redis is out of reach (not a bug of ours).

    SQLAlchemy's ``OperationalError`` and ``InterfaceError`` (a connection lost or
    refused), a connection it invalidated, the drivers' and Redis's connection
    errors, and the operating system's (refused, reset, timed out).
    """
    from sqlalchemy import exc as sa_exc

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, sa_exc.OperationalError | sa_exc.InterfaceError):
            return True
        if isinstance(current, sa_exc.DBAPIError) and current.connection_invalidated:
            return True
        if isinstance(current, sa_exc.TimeoutError):  # the pool waited too long
            return True
        if isinstance(current, ConnectionError | TimeoutError):
            return True
        if isinstance(current, OSError) and current.errno is not None:
            return True
        name = type(current).__module__.split(".")[0]
        if name == "redis" and type(current).__name__ in ("ConnectionError", "TimeoutError"):
            return True
        if name == "asyncpg" and (
            "Connection" in type(current).__name__
            or type(current).__name__ in ("InterfaceError", "CannotConnectNowError")
        ):
            return True
        current = current.__cause__ or current.__context__
    return False


def pick_lang(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The request's language: ``?lang=``, else the ``lang`` cookie, else ``Accept-Language``."""
    for choice in (query, cookie):
        if choice in LANGS:
            return choice
    return negotiate(accept_language)
