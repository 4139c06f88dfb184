"""``aceydeucey simulate``: many games at once, the figures with their confidence intervals.

- ``simulate inbetween``: whole In-Between sessions on the vectorised simulator
  (``aceydeucey.sim.inbetween``, run by ``sim.inbetween_runs``), one strategy per seat,
  seats rotating every session: win rates with 95 % intervals, mean final balances, a
  chart of the balances.
- ``simulate aces-in-the-pot``: the batch simulator of Aces in the Pot (run by
  ``sim.aces``) beside the exact solution (``aces_in_the_pot.analysis``), seat by seat:
  a cross-check anyone can run.

Both take ``--workers N`` (local processes) and ``--ray ADDRESS`` (``sim.parallel``); the
figures are the same for any number of workers, only the time changes.

Texts come from the ``simulate`` catalog (English and Portuguese).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from rich.table import Table as RichTable

from aceydeucey.cli.common import (
    FiguresJsonOption,
    LangOption,
    OptionsOption,
    RayOption,
    RunSeedOption,
    WorkersOption,
    console,
    count_text,
    decimal_text,
    fail,
    fail_error,
    fitted_table,
    os_reason,
    parse_options,
    progress_bar,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.extras import require
from aceydeucey.locale import t
from aceydeucey.sim.parallel import check_workers

__all__ = ["simulate_app"]

simulate_app = typer.Typer(
    help="Simulate many games at once and show the figures with confidence intervals.",
    no_args_is_help=True,
)


# -- In-Between ---------------------------------------------------------------------------
@simulate_app.command("inbetween")
def inbetween_command(
    preset: Annotated[
        str,
        typer.Option(
            "--preset",
            help="Rule preset: guide, banker, three-posts, sheets, red-dog.",
        ),
    ] = "guide",
    strategies: Annotated[
        str,
        typer.Option(
            "--strategies",
            help="One strategy per seat, comma-separated: random, ev, kelly, cautious, session.",
        ),
    ] = "ev,kelly,random",
    sessions: Annotated[int, typer.Option("--sessions", help="Sessions to play.")] = 100_000,
    seed: RunSeedOption = 0,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Save a PNG of the balance distributions.")
    ] = None,
    option: OptionsOption = None,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    as_json: FiguresJsonOption = False,
    lang: LangOption = None,
) -> None:
    """Play many In-Between sessions: win rates (95 % intervals) and final balances."""
    import numba

    from aceydeucey import kernels
    from aceydeucey.inbetween.rules import Rules
    from aceydeucey.sim.inbetween import ENDINGS, kernel_plays
    from aceydeucey.sim.inbetween_params import kernel_refusal
    from aceydeucey.sim.inbetween_runs import prepare, simulate

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("simulate", key, language, **values)

    if sessions < 1:
        fail(say("error.sessions", value=sessions), lang=language)
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    options = parse_options(Rules, option, language)
    if len(names) < 2 and "players" not in options:
        fail(say("error.strategies", count=len(names)), lang=language)
    try:
        check_workers(workers, ray)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    options.setdefault("players", max(len(names), 1))
    if plot is not None:
        _check_writable(plot, language)
    try:
        rules = Rules.resolve(preset=preset, **options)
        kernels.build("inbetween", lang=language)  # first run: compiles, saying so
        prepare(rules, names, seed)  # loads the compiled kernel before the clock starts
        began = time.perf_counter()
        with progress_bar(say("progress"), as_json) as bar:
            task = bar.add_task("", total=sessions)
            acc = simulate(
                rules,
                names,
                sessions,
                seed=seed,
                keep_balances=plot is not None,
                workers=workers,
                ray=ray,
                on_sessions=lambda k: bar.advance(task, k),
            )
        seconds = time.perf_counter() - began
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    stats = acc.stats()
    endings = acc.endings()
    if plot is not None:
        _plot_balances(acc, stats, rules.starting_chips, preset, sessions, plot, language)
    if as_json:
        data: dict[str, Any] = {
            "game": "inbetween",
            "preset": preset,
            "players": rules.players,
            "strategies": names,
            "seed": seed,
            "sessions": sessions,
            "hands": acc.hands,
            "seconds": seconds,
            "kernel_seconds": acc.seconds,
            "hands_per_second": acc.hands / seconds if seconds > 0 else 0.0,
            "threads": numba.get_num_threads(),
            "engine": not kernel_plays(rules),
            "workers": workers,
            "ray": ray,
            "results": [s.to_dict() for s in stats],
            "endings": endings,
        }
        if plot is not None:
            data["plot"] = str(plot)
        print(json.dumps(data))
        return
    title = say(
        "ib.title",
        preset=preset,
        sessions=count_text(sessions, language),
        players=rules.players,
        strategies=", ".join(names),
        seed=seed,
    )
    console.print(title, style="bold", markup=False)
    console.print(say("ib.rotation"), markup=False)
    refused = kernel_refusal(rules)
    if refused is not None:
        console.print(say("ib.path", option="=".join(refused)), markup=False)
    rows = []
    for s in stats:
        low, high = s.win_interval
        bets = sum(s.outcomes[1:])
        rows.append(
            (
                s.strategy,
                decimal_text(s.win_rate, language, 4),
                f"{decimal_text(low, language, 4)}–{decimal_text(high, language, 4)}",
                decimal_text(s.mean_balance, language, 2)
                + "±"
                + decimal_text(s.balance_stderr, language, 3),
                count_text(s.hands, language),
                decimal_text(s.outcomes[1] / bets, language, 3) if bets else "-",
            )
        )
    keys = ("ib.strategy", "ib.win", "ib.ci", "ib.balance", "ib.hands", "ib.bets")
    console.print(fitted_table([say(key) for key in keys], rows, left=1))
    console.print(say("ib.win_note"), markup=False)
    console.print(
        say(
            "ib.endings",
            rounds=count_text(endings[ENDINGS[0]], language),
            pot=count_text(endings[ENDINGS[1]], language),
            ante=count_text(endings[ENDINGS[2]], language),
        ),
        markup=False,
    )
    more = [
        say(f"ib.end.{code}", count=count_text(count, language))
        for code, count in endings.items()
        if count and code not in ENDINGS[:3]
    ]
    if more:
        console.print(say("ib.endings_more", endings=", ".join(more)), markup=False)
    rate = acc.hands / seconds if seconds > 0 else 0.0
    console.print(
        say(
            "ib.speed",
            hands=count_text(acc.hands, language),
            seconds=decimal_text(seconds, language, 2),
            kernel=decimal_text(acc.seconds, language, 2),
            rate=count_text(round(rate), language),
        ),
        markup=False,
    )
    if plot is not None:
        console.print(say("ib.plot", path=str(plot)), markup=False)


def _check_writable(path: Path, lang: str) -> None:
    """Refuse, before the run, a plot path that cannot be written (or matplotlib missing)."""
    try:
        require("matplotlib", "--plot")
    except AceyDeuceyError as exc:
        fail_error(exc, lang)
    existed = path.exists()
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        with path.open("ab"):
            pass
    except OSError as exc:
        reason = os_reason(exc, lang)
        fail(t("simulate", "error.plot", lang, path=str(path), reason=reason), lang=lang)
    if not existed:
        path.unlink()


def _plot_balances(
    acc: Any, stats: list[Any], start: int, preset: str, sessions: int, path: Path, lang: str
) -> None:
    """Each strategy's final balances as a step histogram (log scale), its mean dashed.

    A balance is a multiple of ``1 / players`` (chips plus a share of the pot): the bins
    are a whole number of chips wide and their edges fall between those values, so every
    bin holds as many possible balances (no comb of empty and full bins).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5), dpi=110, layout="constrained")
    parts = [acc.balance_counts(i) for i in range(len(acc.strategies))]
    low = min(float(v.min()) for v, _ in parts if v.size)
    high = max(float(v.max()) for v, _ in parts if v.size)
    width = max(1, math.ceil((high - low) / 90))
    half = 0.5 / max(acc.players, 1)
    edges = np.arange(math.floor(low) - half, high + width, width).tolist()
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    by_name = {st.strategy: st for st in stats}
    for i, (name, (values, counts)) in enumerate(zip(acc.strategies, parts, strict=True)):
        colour = colours[i % len(colours)]
        st = by_name[name]
        label = t(
            "simulate",
            "ib.plot_label",
            lang,
            strategy=name,
            win=decimal_text(100 * st.win_rate, lang, 1),
            ci=decimal_text(100 * st.win_ci, lang, 1),
            mean=decimal_text(st.mean_balance, lang, 1),
            se=decimal_text(st.balance_stderr, lang, 2),
        )
        weights = counts / max(int(counts.sum()), 1)
        ax.hist(
            values,
            bins=edges,
            weights=weights,
            histtype="step",
            linewidth=1.5,
            color=colour,
            label=label,
        )
        ax.axvline(st.mean_balance, color=colour, linestyle="--", linewidth=1, alpha=0.8)
    means = t("simulate", "ib.plot_means", lang)
    ax.plot([], [], color="grey", linestyle="--", linewidth=1, label=means)  # legend only
    ax.axvline(start, color="grey", linestyle=":", label=t("simulate", "ib.plot_start", lang))
    ax.set_yscale("log")
    ax.set_title(
        t("simulate", "ib.plot_title", lang, preset=preset, sessions=count_text(sessions, lang))
    )
    ax.set_xlabel(t("simulate", "ib.plot_x", lang))
    ax.set_ylabel(t("simulate", "ib.plot_y", lang, count=width))
    ax.grid(True, which="major", axis="both", alpha=0.25)
    # below the axes, where it hides no bin
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2, fontsize="small")
    fig.savefig(path, format="png", bbox_inches="tight")
    plt.close(fig)


# -- Aces in the Pot ----------------------------------------------------------------------
@simulate_app.command("aces-in-the-pot")
def aces_command(
    players: Annotated[int, typer.Option("--players", help="Players at the table.")] = 4,
    games: Annotated[int, typer.Option("--games", help="Games to simulate.")] = 100_000,
    seed: RunSeedOption = 0,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    as_json: FiguresJsonOption = False,
    lang: LangOption = None,
) -> None:
    """Simulated win rates per seat beside the exact solution, with 95 % intervals."""
    from aceydeucey.aces_in_the_pot.analysis import Solution, solve
    from aceydeucey.aces_in_the_pot.rules import AcesRules
    from aceydeucey.core.errors import RulesError
    from aceydeucey.sim.aces import simulate_wins

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("simulate", key, language, **values)

    if games < 1:
        fail(say("error.games", value=games), lang=language)
    try:
        check_workers(workers, ray)
        rules = AcesRules.resolve(players=players)
        solution: Solution | None = None
        unsolved: RulesError | None = None
        try:
            solution = solve(rules)
        except RulesError as exc:
            if exc.code != "aces.too_many_states":
                raise
            unsolved = exc  # too large to solve: the simulation alone, and why
        began = time.perf_counter()
        with progress_bar(say("progress"), as_json) as bar:
            task = bar.add_task("", total=games)
            wins = simulate_wins(
                rules,
                games,
                seed=seed,
                workers=workers,
                ray=ray,
                on_games=lambda k: bar.advance(task, k),
            )
        seconds = time.perf_counter() - began
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    rows: list[dict[str, Any]] = []
    for seat in range(rules.players):
        p = wins[seat] / games
        half = 1.959964 * math.sqrt(max(p * (1 - p), 0.0) / games)
        row: dict[str, Any] = {
            "seat": seat + 1,
            "wins": wins[seat],
            "simulated": p,
            "ci95": [p - half, p + half],
            "exact": None,
            "z": None,
        }
        if solution is not None:
            exact = float(solution.win_probability[seat])
            se = math.sqrt(exact * (1 - exact) / games)  # under the exact rate: the test's
            row["exact"] = exact
            row["z"] = (p - exact) / se if se > 0 else 0.0
            if solution.win_probability_exact is not None:
                row["exact_fraction"] = str(solution.win_probability_exact[seat])
        rows.append(row)
    off = [r["seat"] for r in rows if r["z"] is not None and abs(r["z"]) > 3]
    if as_json:
        data = {
            "game": "aces-in-the-pot",
            "players": rules.players,
            "games": games,
            "seed": seed,
            "seconds": seconds,
            "workers": workers,
            "ray": ray,
            "solved": solution is not None,
            "exact_solution": solution is not None and solution.exact,
            "seats": rows,
            "agree": not off if solution is not None else None,
        }
        print(json.dumps(data))
        return
    title = say("aces.title", players=rules.players, games=count_text(games, language), seed=seed)
    console.print(title, style="bold", markup=False)
    console.print(say("aces.first"), markup=False)
    table = RichTable()
    for key in ("aces.seat", "aces.simulated", "aces.ci", "aces.exact", "aces.z"):
        table.add_column(say(key), justify="right")
    for r in rows:
        low, high = r["ci95"]
        z = "–" if r["z"] is None else f"{r['z']:+.2f}"
        table.add_row(
            str(r["seat"]),
            decimal_text(r["simulated"], language, 4),
            f"{decimal_text(low, language, 4)}–{decimal_text(high, language, 4)}",
            "–" if r["exact"] is None else decimal_text(r["exact"], language, 6),
            z.replace(".", ",") if language == "pt" else z,
        )
    console.print(table)
    if unsolved is not None:
        console.print(say("aces.unsolved", reason=unsolved.render(language)), markup=False)
    elif solution is not None:
        console.print(say("aces.fractions" if solution.exact else "aces.float"), markup=False)
        if off:
            console.print(say("aces.disagree", seats=", ".join(map(str, off))), markup=False)
        else:
            console.print(say("aces.agree"), markup=False)
    console.print(
        say(
            "aces.speed",
            games=count_text(games, language),
            seconds=decimal_text(seconds, language, 2),
        ),
        markup=False,
    )
