"""``aceydeucey bearoff``: build the exact bear-off tables, and read a race from them.

``build`` computes the one-sided table of a variant's rules (with ``-o`` options: every
reading the engine plays, exact-count bear-off included) into the user's data folder,
once; the ``net`` and ``net2`` bots use it from then on for races with both sides home.
``race MOVER OTHER`` gives such a race's exact cubeless value, each side written as six
counts of checkers on its points 1 to 6 (``3,3,3,2,2,2``).  Texts come from the
``bearoff`` catalog.
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

from aceydeucey.cli.common import (
    LangOption,
    OptionsOption,
    console,
    decimal_text,
    fail,
    fail_error,
    parse_options,
    progress_bar,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

__all__ = ["bearoff_app"]

bearoff_app = typer.Typer(
    help="Exact bear-off tables: build them, read a race.", no_args_is_help=True
)

VariantOption = Annotated[str, typer.Option("--variant", help="Rules variant.")]


def _rules(variant: str, option: list[str] | None, lang: str) -> Any:
    from aceydeucey.backgammon.rules import BackgammonRules

    try:
        return BackgammonRules.resolve(
            variant=variant, **parse_options(BackgammonRules, option, lang)
        )
    except AceyDeuceyError as exc:
        fail_error(exc, lang)


def _counts(text: str, lang: str) -> tuple[int, ...]:
    from aceydeucey.backgammon.bearoff import MAX_CHECKERS

    parts = text.replace(" ", "").split(",")
    try:
        counts = tuple(int(p) for p in parts)
    except ValueError:
        counts = ()
    if len(counts) != 6 or min(counts) < 0 or not 0 < sum(counts) <= MAX_CHECKERS:
        fail(t("bearoff", "error.counts", lang, text=text), lang=lang)
    return counts


@bearoff_app.command("build")
def build_command(
    variant: VariantOption = "acey-deucey",
    option: OptionsOption = None,
    checkers: Annotated[
        int, typer.Option("--checkers", help="Most checkers a side (15: every position).")
    ] = 15,
    lang: LangOption = None,
) -> None:
    """Build the one-sided bear-off table of these rules (once; kept in the data folder)."""
    from aceydeucey.backgammon import bearoff

    language = resolve_lang(lang)
    rules = _rules(variant, option, language)
    try:
        if not 1 <= checkers <= bearoff.MAX_CHECKERS:
            raise bearoff.checkers_error(checkers)
        path = bearoff.one_sided_path(rules, checkers)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    if path.exists():
        console.print(t("bearoff", "already", language, path=path), markup=False)
        return
    start = time.perf_counter()
    _table(rules, checkers, variant, language)
    seconds = decimal_text(time.perf_counter() - start, language, 1)
    console.print(t("bearoff", "built", language, path=path, seconds=seconds), markup=False)


def _table(rules: Any, checkers: int, variant: str, language: str) -> Any:
    """The one-sided table, built with a progress bar when it is not built yet."""
    from aceydeucey.backgammon import bearoff, generate

    table = bearoff.one_sided(rules, checkers, build=False)
    if table is not None:
        return table
    generate.warm_up()
    total = bearoff.checkers_choose(checkers)
    label = t("bearoff", "building", language, variant=variant, positions=total)
    console.print(label, markup=False)
    with progress_bar(label) as bar:
        task = bar.add_task(label, total=total)
        return bearoff.one_sided(
            rules, checkers, progress=lambda done, _total: bar.update(task, completed=done)
        )


@bearoff_app.command("race")
def race_command(
    mover: Annotated[str, typer.Argument(help="The side on roll: six counts, points 1 to 6.")],
    other: Annotated[str, typer.Argument(help="The other side: six counts, points 1 to 6.")],
    variant: VariantOption = "acey-deucey",
    option: OptionsOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the values as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """The exact value of a race with both sides home (builds the table if needed)."""
    from aceydeucey.backgammon import bearoff

    language = resolve_lang(lang)
    rules = _rules(variant, option, language)
    a, b = _counts(mover, language), _counts(other, language)
    try:
        table = _table(rules, bearoff.MAX_CHECKERS, variant, language)
        value = bearoff.race_value(table, a, b)
        two = None
        if max(sum(a), sum(b)) <= bearoff.TWO_SIDED_CHECKERS:
            two = bearoff.two_sided(rules).chance(a, b)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    turns = (float(table.mean[table.row(a)]), float(table.mean[table.row(b)]))
    if as_json:
        data = {
            "variant": variant,
            "mover": list(a),
            "other": list(b),
            "turns": list(turns),
            "win": value.win,
            "win_gammon": value.win_gammon,
            "lose_gammon": value.lose_gammon,
            "points": value.points,
            "two_sided_win": two,
        }
        print(json.dumps(data))
        return

    def share(x: float) -> str:
        return decimal_text(100 * x, language, 2) + "%"

    def say(key: str, **values: Any) -> str:
        return t("bearoff", key, language, **values)

    console.print(say("race.title", variant=variant, mover=mover, other=other), markup=False)
    console.print(
        say(
            "race.turns",
            mover=decimal_text(turns[0], language, 3),
            other=decimal_text(turns[1], language, 3),
        ),
        markup=False,
    )
    console.print(say("race.win", win=share(value.win)), markup=False)
    if rules.scoring == "per_checker":
        console.print(
            say("race.points", points=decimal_text(value.points, language, 3, sign=True)),
            markup=False,
        )
    elif rules.scoring == "gammons":
        console.print(
            say("race.gammons", won=share(value.win_gammon), lost=share(value.lose_gammon)),
            markup=False,
        )
    if two is not None:
        console.print(say("race.two_sided", win=share(two)), markup=False)
