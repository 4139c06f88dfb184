"""``aceydeucey hint backgammon``: the trained network's ranking of the plays of a roll.

The position is a GNU Backgammon Position ID (14 characters; the second half is
the side on roll, checkers it does not place are borne off) or, for positions
with checkers not yet entered (Acey-Deucey), the game's state ID (``BG1-...``,
:meth:`~aceydeucey.backgammon.game.BackgammonState.state_id`), which also
carries the dice in hand and the 1-2 bonus.  The plays are ranked by equity for
the side on roll at ``--ply 0``, ``2`` or ``3`` (see :mod:`aceydeucey.backgammon.evaluator`);
after a 1-2 under Acey-Deucey rules (or a state ID waiting for the double) the
six doubles to name follow, each worth its best play, from the position after
the best 1-2 play.  ``--json`` prints ``{"plays": [{"play", "equity", ...}],
"doubles": [...]}`` best first.  Texts come from the ``hint`` catalog.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table as RichTable

from aceydeucey.cli.common import (
    LangOption,
    console,
    decimal_text,
    fail,
    fail_error,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

__all__ = ["hint_app"]

hint_app = typer.Typer(help="Rank the legal plays of a position.", no_args_is_help=True)

#: Plays shown in the table (``--json`` lists them all).
SHOWN = 12


def _share(value: float, lang: str) -> str:
    text = f"{100 * value:.1f}%"
    return text.replace(".", ",") if lang == "pt" else text


@hint_app.command("backgammon")
def backgammon_command(
    position: Annotated[
        str,
        typer.Option(
            "--position", help="GNU Backgammon Position ID, or the game's state ID (BG1-...)."
        ),
    ],
    dice: Annotated[
        str | None,
        typer.Option("--dice", help="The roll, e.g. 3-1 (a state ID may carry its own dice)."),
    ] = None,
    variant: Annotated[str, typer.Option("--variant", help="Rules variant.")] = "acey-deucey",
    ply: Annotated[
        int, typer.Option("--ply", help="Look-ahead: 0, 2 or 3 (the deepest, the default).")
    ] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print the ranking as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Rank the legal plays of a roll by the trained network's equity."""
    from aceydeucey.backgammon.board import Position
    from aceydeucey.backgammon.evaluator import Choice, Evaluator
    from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
    from aceydeucey.backgammon.notation import Roll, parse_action_text
    from aceydeucey.backgammon.rules import BackgammonRules

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("hint", key, language, **values)

    if ply not in (0, 2, 3):
        fail(say("error.ply", ply=ply), lang=language)
    try:
        rules = BackgammonRules.resolve(variant=variant)
        chain = 0
        hand: tuple[int, ...] | None = None
        kind = "roll"
        naming = False
        if position.strip().startswith("BG1-"):
            state = BackgammonState.from_state_id(BackgammonGame(rules), position)
            if state.phase not in ("roll", "play", "double"):
                fail(say("error.phase", phase=state.phase), lang=language)
            pos = state.position
            chain = state.chain
            naming = state.phase == "double"
            if state.phase == "play":
                hand, kind = state.dice, state.kind
        else:
            pos = Position.from_position_id(position)
        if dice is not None:
            try:
                roll = parse_action_text(dice)
            except AceyDeuceyError as exc:
                if exc.code == "bg.syntax.dice":  # a roll with a die out of range
                    raise
                roll = None  # not a roll at all (it reads as a move, or nothing)
            if not isinstance(roll, Roll):
                fail(say("error.dice", dice=dice), lang=language)
            hand, kind, naming = roll.dice, "roll", False
        elif hand is None and not naming:
            fail(say("error.no_dice"), lang=language)
        evaluator = Evaluator(rules)
    except AceyDeuceyError as exc:
        fail_error(exc, language)

    plays: list[Choice] = []
    doubles: list[Choice] = []
    after = pos
    if hand is not None:
        plays = evaluator.rank_plays(pos, hand, kind=kind, chain=chain, ply=ply)
        best = plays[0]
        _, pending = evaluator.next_turn(
            kind, hand, len(hand) - len(best.play.unused) if best.play else 0, chain
        )
        if pending and best.play is not None:
            naming, after, chain = True, best.play.result, chain + 1
    if naming:
        doubles = evaluator.rank_doubles(after, chain=chain, ply=ply)
    labels = evaluator.spec.labels

    if as_json:
        data: dict[str, Any] = {
            "variant": variant,
            "position": position,
            "dice": list(hand) if hand is not None else [],
            "ply": ply,
            "plays": [
                {"play": c.text, "equity": c.equity, **dict(zip(labels, c.outputs, strict=True))}
                for c in plays
            ],
        }
        if naming:
            data["doubles"] = [
                {
                    "double": c.double,
                    "equity": c.equity,
                    "play": str(c.play) if c.play is not None else "",
                    **dict(zip(labels, c.outputs, strict=True)),
                }
                for c in doubles
            ]
        print(json.dumps(data))
        return

    console.print(
        say(
            "title",
            variant=variant,
            dice="-".join(map(str, hand)) if hand else "-",
            ply=ply,
            pips=f"{pos.pip_counts()[0]}/{pos.pip_counts()[1]}",
        ),
        style="bold",
        markup=False,
    )
    columns = [say("col.rank"), say("col.play"), say("col.equity"), say("col.win")]
    extra = [label for label in labels[1:] if evaluator.spec.name == "gammons"]
    if plays:
        top = plays[0].equity
        rows = []
        for rank, c in enumerate(plays[:SHOWN], 1):
            gap = "" if rank == 1 else f"\n({decimal_text(c.equity - top, language, 3, sign=True)})"
            rows.append(
                [
                    str(rank),
                    c.text,
                    decimal_text(c.equity, language, 3, sign=True) + gap,
                    _share(c.outputs[0], language),
                    *(_share(c.outputs[labels.index(label)], language) for label in extra),
                ]
            )
        headers = columns + [say(f"col.{label}") for label in extra]
        table = RichTable(box=box.SIMPLE_HEAD, pad_edge=False)
        for i, name in enumerate(headers):
            # A header of several words takes a line per word and each column is exactly
            # as wide as its longest line: the table fits, and no header is cut ("Backgam…").
            lines = [*name.split(), *(part for row in rows for part in row[i].split("\n"))]
            table.add_column(
                "\n".join(name.split()),
                justify="left" if i == 1 else "right",
                width=None if i == 1 else max(len(line) for line in lines),
                no_wrap=i != 1,  # only a long play wraps, at its spaces
            )
        for row in rows:
            table.add_row(*row)
        console.print(table)
        if len(plays) > SHOWN:
            console.print(say("more", count=len(plays) - SHOWN), markup=False)
    if naming:
        console.print(say("doubles_title"), style="bold", markup=False)
        table = RichTable()
        for i, name in enumerate((say("col.rank"), say("col.double"), say("col.equity"),
                                  say("col.best_play"))):  # fmt: skip
            table.add_column(name, justify="left" if i == 3 else "right")
        for rank, c in enumerate(doubles, 1):
            shown = str(c.play) if c.play is not None else ""
            table.add_row(
                str(rank), str(c.double), decimal_text(c.equity, language, 3, sign=True), shown
            )
        console.print(table)
    console.print(say("note." + evaluator.spec.name), markup=False)
