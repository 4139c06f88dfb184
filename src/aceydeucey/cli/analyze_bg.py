"""``aceydeucey analyze backgammon RECORD``: every decision's equity lost and every roll's luck.

The record is replayed and rated by :func:`aceydeucey.backgammon.analysis.analyze`
(the trained network at ``--ply 0``, ``2`` or ``3``): one line per decision with the play
made, the best one, the equity lost and its mark (doubtful, error, blunder), then
each player's error rate, loss per game and luck.  ``--json`` prints
:meth:`~aceydeucey.backgammon.analysis.Analysis.to_json` (schema in docs/bots.md).
Texts come from the ``analysis`` catalog.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from aceydeucey.cli.common import (
    LangOption,
    console,
    decimal_text,
    fail,
    fail_error,
    fitted_table,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

__all__ = ["analyze_backgammon"]


def analyze_backgammon(
    record_file: Annotated[Path, typer.Argument(help="A backgammon record (JSON).")],
    ply: Annotated[
        int, typer.Option("--ply", help="Look-ahead: 0, 2 or 3 (the deepest, the default).")
    ] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Rate every decision of a backgammon record: best play, equity lost, luck."""
    from aceydeucey.backgammon.analysis import analyze
    from aceydeucey.core.record import Record

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("analysis", key, language, **values)

    if ply not in (0, 2, 3):
        fail(say("error.ply", ply=ply), lang=language)
    try:
        record = Record.load(record_file)
        if record.game != "backgammon":
            fail(say("error.game", game=record.game), lang=language)
        result = analyze(record, ply)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    if as_json:
        print(json.dumps(result.to_json()))
        return

    def num(value: float) -> str:
        return decimal_text(value, language, 3)

    names = {p.seat: p.player for p in result.players}
    console.print(
        say(
            "title",
            variant=result.variant,
            ply=ply,
            decisions=len(result.decisions),
            rolls=len(result.rolls),
        ),
        style="bold",
        markup=False,
    )
    rows = [
        [
            str(d.index + 1),
            names.get(d.seat, str(d.seat + 1)),
            say(f"kind.{d.kind}"),
            d.played,
            "" if d.loss == 0 else d.best,
            num(d.loss),
            say(f"mark.{d.mark}") if d.mark else "",
        ]
        for d in result.decisions
    ]
    headers = [
        say(f"col.{c}") for c in ("move", "player", "kind", "played", "best", "loss", "mark")
    ]
    console.print(fitted_table(headers, rows, left=5))
    unit = say(f"unit.{result.unit}")
    console.print(say("summary", unit=unit, count=result.games), style="bold", markup=False)
    for p in result.players:
        line = say(
            "player_line",
            player=p.player,
            decisions=p.decisions,
            loss=num(p.loss),
            rate=decimal_text(p.error_rate, language, 1),
            per_game=num(p.loss_per_game),
            blunders=p.marks["blunder"],
            errors=p.marks["error"],
            doubtful=p.marks["doubtful"],
            luck=decimal_text(p.luck, language, 3, sign=True),
            rolls=p.rolls,
        )
        console.print(line, markup=False)
    console.print(say("note", unit=unit), markup=False)
