"""Shared pieces of the terminal front end: the --lang option, the console, errors."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer
from rich.console import Console

from aceydeucey.locale import LANGS, default_lang

__all__ = ["LangOption", "console", "fail", "resolve_lang"]

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def _check_lang(value: str | None) -> str:
    lang = value or default_lang()
    if lang not in LANGS:
        raise typer.BadParameter(f"unknown language {lang!r}; accepted: {', '.join(LANGS)}")
    return lang


#: ``--lang en|pt``: every terminal command takes it; the default follows the locale.
LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="Language of the output: en or pt (default: from the environment's locale).",
        callback=_check_lang,
        show_default=False,
    ),
]


def resolve_lang(value: str | None) -> str:
    return _check_lang(value)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print a clear error (no traceback) and exit with ``code``."""
    err_console.print(f"[bold red]error:[/] {message}")
    raise typer.Exit(code)
