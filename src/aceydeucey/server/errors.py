"""The server's own errors (codes in the ``server_errors`` catalog) and their HTTP status.

Every error a client sees is ``{"error": {"code", "params", "message"}}`` with the
message in the request's language; engine errors keep their own codes.
"""

from __future__ import annotations

from typing import Any

from aceydeucey.core.errors import (
    AceyDeuceyError,
    OutOfTurnError,
)
from aceydeucey.locale import LANGS, negotiate

__all__ = ["ServerError", "error_body", "pick_lang", "status_of"]


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


def status_of(error: AceyDeuceyError) -> int:
    """The HTTP status of an error: the server's own, 403 out of turn, else 400."""
    if isinstance(error, ServerError):
        return error.status
    if isinstance(error, OutOfTurnError):
        return 403
    return 400


def error_body(error: AceyDeuceyError, lang: str) -> dict[str, Any]:
    return {"error": error.to_dict(lang)}


def pick_lang(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The request's language: ``?lang=``, else the ``lang`` cookie, else ``Accept-Language``."""
    for choice in (query, cookie):
        if choice in LANGS:
            return choice
    return negotiate(accept_language)
