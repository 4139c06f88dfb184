"""``aceydeucey export RECORD`` and ``aceydeucey import FILE.mat``: matches as ``.mat``.

``export`` replays and verifies a backgammon record, then writes its match as the
``.mat`` text GNU Backgammon and eXtreme Gammon read (to ``--output`` or the screen);
``import`` reads a ``.mat`` file into a record (JSON), which replays and verifies.
The format and its limits are :mod:`aceydeucey.backgammon.matfile`'s.  Exit codes: 0
done, 2 the file cannot be read or holds a match the engine refuses.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from aceydeucey.cli.common import LangOption, console, fail_error, resolve_lang
from aceydeucey.core.errors import AceyDeuceyError, RecordError
from aceydeucey.core.record import Record, replay
from aceydeucey.locale import t

__all__ = ["export_command", "import_command", "register"]

OutputOption = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write to this file (default: the screen).")
]


def export_command(
    file: Annotated[Path, typer.Argument(help="A backgammon record (JSON).")],
    output: OutputOption = None,
    lang: LangOption = None,
) -> None:
    """Write a backgammon record's match as a .mat file (GNU Backgammon, eXtreme Gammon)."""
    from aceydeucey.backgammon.matfile import export_mat

    language = resolve_lang(lang)
    try:
        record = Record.load(file)
        replay(record)
        text = export_mat(record)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    _write(text, output, language)


def import_command(
    file: Annotated[Path, typer.Argument(help="A .mat file (GNU Backgammon, eXtreme Gammon).")],
    output: OutputOption = None,
    lang: LangOption = None,
) -> None:
    """Read a .mat match into a record (JSON) that replays and verifies."""
    from aceydeucey.backgammon.matfile import import_mat

    language = resolve_lang(lang)
    try:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            detail = getattr(exc, "strerror", None) or type(exc).__name__
            raise RecordError("record.unreadable", path=str(file), detail=detail) from None
        record = import_mat(text)
        replay(record)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    _write(record.to_json() + "\n", output, language)


def _write(text: str, output: Path | None, lang: str) -> None:
    if output is None:
        print(text, end="")
        return
    output.write_text(text, encoding="utf-8")
    console.print(t("cli", "matfile.written", lang, path=str(output)), markup=False)


def register(app: typer.Typer) -> None:
    app.command("export")(export_command)
    app.command("import")(import_command)
