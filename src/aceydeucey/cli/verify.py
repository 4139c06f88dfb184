"""``aceydeucey verify RECORD [--json] [--lang en|pt]``: is a record's dealing provably fair?

Re-derives every card and die of the record from its revealed server seed and cut
(``core.fairness.verify``, scheme in ``docs/fairness.md``) and says whether the record
matches, and where and how it does not.

Exit codes: 0 the record verifies; 1 it does not (a chance outcome differs, the seed
does not match its commitment, an action does not replay, or there is nothing to
verify: no fairness data, or the seed not revealed yet); 2 the record cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from aceydeucey.cli.common import LangOption, console, err_console, resolve_lang
from aceydeucey.core.errors import AceyDeuceyError, RecordError
from aceydeucey.core.fairness import verify
from aceydeucey.core.record import Record
from aceydeucey.locale import t

__all__ = ["verify_command"]

#: Exit statuses of ``aceydeucey verify``.
VERIFIED, NOT_VERIFIED, UNREADABLE = 0, 1, 2


def _print_json(data: dict[str, Any]) -> None:
    print(json.dumps(data, ensure_ascii=False))


def verify_command(
    file: Annotated[Path, typer.Argument(help="A record saved by a game or a server (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Re-derive every card and die of a record from its revealed seed and cut."""
    lang = resolve_lang(lang)
    try:
        record = Record.load(file)
    except AceyDeuceyError as exc:
        _refuse(exc, lang, as_json, UNREADABLE, None)
    try:
        result = verify(record)
    except RecordError as exc:
        # Nothing to verify (no fairness data, seed not revealed, unknown scheme) is a
        # record that does not verify; rules that do not build are an unreadable record.
        status = NOT_VERIFIED if exc.code.startswith("fairness.") else UNREADABLE
        _refuse(exc, lang, as_json, status, record)
    fairness = record.fairness or {}
    if as_json:
        _print_json(
            {
                "game": record.game,
                "actions": len(record.actions),
                "commitment": fairness.get("commitment"),
                "cut": fairness.get("cut"),
                **result.to_dict(lang),
            }
        )
    else:
        head = "verify.ok" if result.ok else "verify.failed"
        style = "bold green" if result.ok else "bold red"
        console.print(f"[{style}]{t('cli', head, lang, game=record.game)}[/]", soft_wrap=True)
        for line in (
            result.render(lang),
            t("cli", "verify.commitment", lang, commitment=fairness.get("commitment")),
            t("cli", "verify.cut", lang, cut=fairness.get("cut") or "-"),
        ):
            console.print(line, markup=False, soft_wrap=True)
    raise typer.Exit(VERIFIED if result.ok else NOT_VERIFIED)


def _refuse(
    exc: AceyDeuceyError, lang: str, as_json: bool, status: int, record: Record | None
) -> NoReturn:
    """Say why the record cannot be verified, in ``lang``, and exit with ``status``."""
    if as_json:
        _print_json(
            {
                "ok": False,
                "game": record.game if record is not None else None,
                "error": exc.to_dict(lang),
            }
        )
    else:
        head = "verify.cannot" if status == NOT_VERIFIED else "verify.unreadable"
        err_console.print(f"[bold red]{t('cli', head, lang)}[/]", end=" ", soft_wrap=True)
        err_console.print(exc.render(lang), markup=False, soft_wrap=True)
    raise typer.Exit(status)
