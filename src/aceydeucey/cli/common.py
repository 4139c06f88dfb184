"""Shared pieces of the terminal front end: the --lang option, the console, errors,
player names, record paths, and how Typer shows flags in help screens."""

from __future__ import annotations

import errno
import os
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
from rich.console import Console

from aceydeucey.core.errors import AceyDeuceyError, RulesError
from aceydeucey.core.rules import RulesBase
from aceydeucey.locale import LANGS, default_lang, t

__all__ = [
    "LangOption",
    "OptionsOption",
    "RayOption",
    "WorkersOption",
    "check_record_path",
    "console",
    "default_record_path",
    "fail",
    "fail_error",
    "os_reason",
    "parse_options",
    "player_names",
    "resolve_lang",
]

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def _hide_flag_types() -> None:
    """Help screens list a plain flag (``--json``, ``--help``) without a ``<bool>`` type.

    Typer's rich help prints every option's type, a flag's too; a flag takes no value,
    so its type column stays empty (the one place every command's help goes through).
    """
    option = typer.core.TyperOption
    if getattr(option.display_type_rich, "_flags_hidden", False):
        return
    shown = option.display_type_rich

    def display_type_rich(self: typer.core.TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    display_type_rich._flags_hidden = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich  # type: ignore[method-assign]


_hide_flag_types()


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
        metavar="en|pt",
        help="Language of the output: en or pt (default: from the environment's locale).",
        callback=_check_lang,
        show_default=False,
    ),
]


def resolve_lang(value: str | None) -> str:
    return _check_lang(value)


def fail(message: str, code: int = 2, *, lang: str) -> NoReturn:
    """Print a clear error (no traceback) and exit with ``code``.

    ``lang`` is required: the label ("error:", "erro:") must be in the message's language.
    """
    err_console.print(f"[bold red]{t('cli', 'error.label', lang)}[/] ", end="")
    err_console.print(message, markup=False)
    raise typer.Exit(code)


def fail_error(error: AceyDeuceyError, lang: str, code: int = 2) -> NoReturn:
    """An engine error, rendered in ``lang`` (``err.render``), and exit."""
    fail(error.render(lang), code, lang=lang)


def player_names(seats: int, humans: tuple[int, ...], bot: str, lang: str) -> list[str]:
    """One naming for every game: "You" (or "Player N" when several people play) and
    "Bot N (strategy)", the bots counted from 1 in seat order."""
    names: list[str] = []
    bots = 0
    for seat in range(seats):
        if seat in humans:
            if len(humans) == 1:
                names.append(t("cli", "player.you", lang))
            else:
                names.append(t("cli", "player.person", lang, n=humans.index(seat) + 1))
        else:
            bots += 1
            names.append(t("cli", "player.bot", lang, n=bots, bot=bot))
    return names


#: errno → key of its reason in the ``cli`` catalog (the rest: the system's own text)
_OS_REASONS = {
    errno.ENOENT: "os.not_found",
    errno.EACCES: "os.denied",
    errno.EPERM: "os.denied",
    errno.EISDIR: "os.is_folder",
    errno.ENOTDIR: "os.not_folder",
    errno.EROFS: "os.read_only",
    errno.ENOSPC: "os.no_space",
}


def os_reason(exc: OSError, lang: str = "en") -> str:
    """Why a file could not be read or written, in ``lang`` where the cause is a common
    one (no such folder, permission denied, ...), else the system's text."""
    key = _OS_REASONS.get(exc.errno or 0)
    if key is not None:
        return t("cli", key, lang)
    return exc.strerror or type(exc).__name__


def check_record_path(path: Path, lang: str = "en", *, kind: str = "record") -> Path:
    """Refuse, before play starts, a record path that cannot be written (no traceback).

    The folder is created if needed and the file opened for writing (and removed again
    when it did not exist), so what would fail after the game fails now.  ``kind`` names
    the file in the messages (``error.<kind>_...``): ``record``, or ``weights`` (a
    network's checkpoint).
    """
    if path.is_dir():
        fail(t("cli", f"error.{kind}_is_folder", lang, path=str(path)), lang=lang)
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                text = t(
                    "cli", f"error.{kind}_parent_file", lang, path=str(path), parent=str(parent)
                )
                fail(text, lang=lang)
            break
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        reason = os_reason(exc, lang)
        fail(t("cli", f"error.{kind}_unwritable", lang, path=str(path), reason=reason), lang=lang)
    if not existed:
        os.unlink(path)
    return path


#: ``--option key=value`` (repeatable): any rule option of the game, read by its type.
OptionsOption = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="KEY=VALUE",
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
            fail(t("cli", "error.option_syntax", lang, text=pair), lang=lang)
        try:
            out[key] = rules_class.parse_option(key, value)
        except RulesError as exc:
            fail_error(exc, lang)
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


#: ``--workers N``: run a job's parts on N local processes (results do not depend on N).
WorkersOption = Annotated[
    int,
    typer.Option(
        "--workers",
        metavar="N",
        help="Run the work on this many local processes (1 or more); the results are the same "
        "for any number.",
    ),
]

#: ``--ray ADDRESS``: run the same job on a Ray cluster (the ``ray`` extra).
RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help="Run the work on Ray: 'local' starts an instance here, 'auto' joins this machine's "
        "cluster, or give a cluster address (needs pip install 'aceydeucey\\[ray]').",
        show_default=False,
    ),
]
