"""Shared pieces of the terminal front end: the --lang option, the console, errors,
player names, record paths, and how Typer shows flags in help screens."""

from __future__ import annotations

import errno
import os
import textwrap
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
import typer.core
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from aceydeucey.core.errors import AceyDeuceyError, RulesError
from aceydeucey.core.rules import RulesBase
from aceydeucey.locale import LANGS, default_lang, t

__all__ = [
    "FiguresJsonOption",
    "LangOption",
    "OptionsOption",
    "RayOption",
    "RunSeedOption",
    "WorkersOption",
    "check_record_path",
    "console",
    "count_text",
    "decimal_text",
    "default_record_path",
    "end_of_input",
    "error_text",
    "fail",
    "fail_error",
    "fitted_table",
    "os_reason",
    "parse_options",
    "player_names",
    "progress_bar",
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


def end_of_input(path: Path | str, lang: str) -> NoReturn:
    """Input ended (a closed pipe, Ctrl-D) before the game did: say so and exit with 1.

    The caller has already saved the record, unfinished; the message names it and how to
    continue it, so a script driving the game sees a failure, never a clean finish.
    """
    fail(t("cli", "error.input_ended", lang, path=str(path)), code=1, lang=lang)


def error_text(error: AceyDeuceyError, lang: str) -> str:
    """An engine error as the terminal shows it: rendered in ``lang`` (``err.render``, the
    players' words the pages show too), and for a refusal of rule options the code names a
    terminal user types with ``-o key=value``: the options concerned and the accepted
    values or options, as written (``(options: starting_chips)``)."""
    text = error.render(lang)
    if not isinstance(error, RulesError):
        return text
    for key, message in (("options", "error.rule_options"), ("accepted", "error.rule_accepted")):
        names = error.params.get(key)
        if isinstance(names, list | tuple) and names:
            text += " " + t("cli", message, lang, names=", ".join(str(n) for n in names))
    return text


def fail_error(error: AceyDeuceyError, lang: str, code: int = 2) -> NoReturn:
    """An engine error, rendered for the terminal (``error_text``), and exit."""
    fail(error_text(error, lang), code, lang=lang)


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
    """``records/<game>-<time><part>.json``, with ``-2``, ``-3``... if that name is taken.

    The name is free when the game starts; another game may take it before this one ends,
    so a record sent to its default path is written with ``Record.save_new``, which
    creates the file exclusively and moves on to the next free name.
    """
    stem = f"{game_id}-{datetime.now():%Y%m%d-%H%M%S}{part}"
    path = Path("records") / f"{stem}.json"
    n = 2
    while path.exists():
        path = Path("records") / f"{stem}-{n}.json"
        n += 1
    return path


#: ``--seed S`` of a simulation or tournament run (the same seed, the same figures).
RunSeedOption = Annotated[int, typer.Option("--seed", help="Seed of the run (reproducible).")]

#: ``--json``: a command's figures as JSON instead of tables.
FiguresJsonOption = Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")]

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


# -- figures on the screen: the numbers, tables and progress bars of the commands ---------
def decimal_text(value: float, lang: str, digits: int, *, sign: bool = False) -> str:
    """A decimal with ``digits`` places as ``lang`` writes it (``0.125`` / ``0,125``).

    >>> decimal_text(0.125, "pt", 3), decimal_text(2.5, "en", 2, sign=True)
    ('0,125', '+2.50')
    """
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "pt" else text


def count_text(value: int, lang: str) -> str:
    """A whole number with its thousands marked as ``lang`` does (``12,345`` / ``12 345``)."""
    text = f"{value:,}"
    return text.replace(",", "\u00a0") if lang == "pt" else text


def progress_bar(label: str, quiet: bool = False) -> Progress:
    """A progress bar on the error stream, gone when done; none for a pipe or a file."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=quiet or not err_console.is_terminal,
    )


def fitted_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], left: int = 0, width: int | None = None
) -> RichTable:
    """A table whose figures are never cut, within ``width`` columns (the console's).

    Each column is as wide as its widest cell or its header; when that is too wide for
    the screen, the headers are wrapped by hand (longest first, never below a cell or
    a word). Rich, left to itself, keeps a long header on one line and crops the table's
    right edge instead. The first ``left`` columns are left-aligned (names), the rest
    right-aligned (figures).
    """
    cells = [max((len(row[c]) for row in rows), default=0) for c in range(len(headers))]
    floors = [
        max(cells[c], *(len(word) for word in header.split())) for c, header in enumerate(headers)
    ]
    widths = [max(cells[c], len(header)) for c, header in enumerate(headers)]
    room = (width or console.width) - (3 * len(headers) + 1)  # borders and padding
    while sum(widths) > room:
        c = max(range(len(widths)), key=lambda k: widths[k] - floors[k])
        if widths[c] == floors[c]:
            break  # nothing left to wrap: the figures keep their width
        widths[c] -= 1  # one character at a time, from the header with most to spare
    table = RichTable()
    for c, header in enumerate(headers):
        text = textwrap.fill(header, width=widths[c], break_long_words=False)
        table.add_column(text, justify="left" if c < left else "right", min_width=widths[c])
    for row in rows:
        table.add_row(*row)
    return table
