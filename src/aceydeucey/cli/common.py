"""Shared pieces of the terminal front end: the --lang option, the console, errors."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from aceydeucey.core.errors import RulesError
from aceydeucey.core.rules import RulesBase
from aceydeucey.locale import LANGS, default_lang, t

__all__ = [
    "LangOption",
    "OptionsOption",
    "console",
    "default_record_path",
    "fail",
    "parse_options",
    "resolve_lang",
]

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


#: ``--option key=value`` (repeatable): any rule option of the game, read by its type.
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="Override one rule option as key=value (repeatable), e.g. -o ante=2; "
        "see the game's rules sheet for the options.",
    ),
]


def parse_options(
    rules_class: type[RulesBase], pairs: list[str] | None, lang: str = "en"
) -> dict[str, Any]:
    """``["ante=2", "decks=2"]`` → ``{"ante": 2, "decks": 2}``, each value read by its type.

    A pair without ``=`` or an unknown option name fails with a clear message.
    """
    out: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            fail(t("cli", "error.option_syntax", lang, text=pair))
        try:
            out[key] = rules_class.parse_option(key, value)
        except RulesError as exc:
            fail(str(exc))
    return out


def default_record_path(game_id: str, part: str = "") -> Path:
    """``records/<game>-<time><part>.json``, with ``-2``, ``-3``... if that name is taken."""
    stem = f"{game_id}-{datetime.now():%Y%m%d-%H%M%S}{part}"
    path = Path("records") / f"{stem}.json"
    n = 2
    while path.exists():
        path = Path("records") / f"{stem}-{n}.json"
        n += 1
    return path
