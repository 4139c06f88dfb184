"""``aceydeucey simulate``: many games at once, the figures with their confidence intervals.

- ``simulate inbetween``: whole In-Between sessions on the vectorised simulator
  (``aceydeucey.sim.inbetween``), one strategy per seat, seats rotating every session:
  win rates with 95 % intervals, mean final balances, a chart of the balances.
- ``simulate aces-in-the-pot``: the batch simulator of Aces in the Pot
  (``aces_in_the_pot.simulate``) beside the exact solution (``aces_in_the_pot.analysis``),
  seat by seat: a cross-check anyone can run.

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
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table as RichTable

from aceydeucey.cli.common import (
    LangOption,
    OptionsOption,
    console,
    err_console,
    fail,
    fail_error,
    parse_options,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

__all__ = ["simulate_app"]

simulate_app = typer.Typer(
    help="Simulate many games at once and show the figures with confidence intervals.",
    no_args_is_help=True,
)

#: Sessions (or games) per step of the progress bar.
CHUNK = 200_000
#: Sessions per step when a seat searches (``session``: about a millisecond a session).
SEARCH_CHUNK = 2_000


def _number(value: float, lang: str, digits: int = 4) -> str:
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "pt" else text


def _count(value: int, lang: str) -> str:
    text = f"{value:,}"
    return text.replace(",", "\u00a0") if lang == "pt" else text


def _progress(label: str, quiet: bool) -> Progress:
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=quiet,
    )


# -- In-Between ---------------------------------------------------------------------------
@simulate_app.command("inbetween")
def inbetween_command(
    preset: Annotated[
        str, typer.Option("--preset", help="Rule preset (the simulator plays guide rules).")
    ] = "guide",
    strategies: Annotated[
        str,
        typer.Option(
            "--strategies",
            help="One strategy per seat, comma-separated: random, ev, kelly, cautious, session.",
        ),
    ] = "ev,kelly,random",
    sessions: Annotated[int, typer.Option("--sessions", help="Sessions to play.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the run (reproducible).")] = 0,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Save a PNG of the balance distributions.")
    ] = None,
    option: OptionsOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Play many In-Between sessions: win rates (95 % intervals) and final balances."""
    from aceydeucey.inbetween.rules import Rules
    from aceydeucey.sim.inbetween import ENDINGS, Accumulator, check_supported, play_sessions

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("simulate", key, language, **values)

    if sessions < 1:
        fail(say("error.sessions", value=sessions), lang=language)
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    options = parse_options(Rules, option, language)
    options.setdefault("players", max(len(names), 1))
    try:
        rules = Rules.resolve(preset=preset, **options)
        check_supported(rules)
        play_sessions(rules, names, 1, seed=seed)  # validates the names and compiles
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    if plot is not None:
        _check_writable(plot, language)
    acc = Accumulator(names, keep_balances=plot is not None)
    began = time.perf_counter()
    with _progress(say("progress"), as_json) as bar:
        task = bar.add_task("", total=sessions)
        done = 0
        step = SEARCH_CHUNK if "session" in names else CHUNK
        while done < sessions:
            size = min(step, sessions - done)
            acc.add(play_sessions(rules, names, size, seed=seed, first=done))
            done += size
            bar.update(task, completed=done)
    seconds = time.perf_counter() - began
    stats = acc.stats()
    endings = {code: int(k) for code, k in zip(ENDINGS, acc.ended, strict=True)}
    if plot is not None:
        _plot_balances(acc, rules.starting_chips, preset, sessions, plot, language)
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
        sessions=_count(sessions, language),
        players=rules.players,
        strategies=", ".join(names),
        seed=seed,
    )
    console.print(title, style="bold", markup=False)
    console.print(say("ib.rotation"), markup=False)
    table = RichTable()
    for key in ("ib.strategy", "ib.win", "ib.ci", "ib.balance", "ib.hands", "ib.bets"):
        table.add_column(say(key), justify="left" if key == "ib.strategy" else "right")
    for s in stats:
        low, high = s.win_rate - s.win_ci, s.win_rate + s.win_ci
        bets = sum(s.outcomes[1:])
        won = _number(s.outcomes[1] / bets, language, 3) if bets else "-"
        table.add_row(
            s.strategy,
            _number(s.win_rate, language),
            f"{_number(low, language)}–{_number(high, language)}",
            f"{_number(s.mean_balance, language, 2)}±{_number(s.balance_stderr, language, 3)}",
            _count(s.hands, language),
            won,
        )
    console.print(table)
    console.print(say("ib.win_note"), markup=False)
    console.print(
        say(
            "ib.endings",
            rounds=_count(endings[ENDINGS[0]], language),
            pot=_count(endings[ENDINGS[1]], language),
            ante=_count(endings[ENDINGS[2]], language),
        ),
        markup=False,
    )
    rate = acc.hands / acc.seconds if acc.seconds > 0 else 0.0
    console.print(
        say(
            "ib.speed",
            hands=_count(acc.hands, language),
            seconds=_number(seconds, language, 2),
            rate=_count(round(rate), language),
        ),
        markup=False,
    )
    if plot is not None:
        console.print(say("ib.plot", path=str(plot)), markup=False)


def _check_writable(path: Path, lang: str) -> None:
    """Refuse, before the run, a plot path that cannot be written."""
    existed = path.exists()
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "Is a directory")
        with path.open("ab"):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        fail(t("simulate", "error.plot", lang, path=str(path), reason=reason), lang=lang)
    if not existed:
        path.unlink()


def _plot_balances(acc: Any, start: int, preset: str, sessions: int, path: Path, lang: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5), dpi=110)
    parts = [acc.balance_counts(i) for i in range(len(acc.strategies))]
    low = min(float(v.min()) for v, _ in parts if v.size)
    high = max(float(v.max()) for v, _ in parts if v.size)
    bins = np.linspace(math.floor(low), math.ceil(high) + 1, 80).tolist()
    for name, (values, counts) in zip(acc.strategies, parts, strict=True):
        weights = counts / max(int(counts.sum()), 1)
        ax.hist(values, bins=bins, weights=weights, histtype="step", linewidth=1.6, label=name)
    ax.axvline(start, color="grey", linestyle=":", label=t("simulate", "ib.plot_start", lang))
    ax.set_yscale("log")
    shown = f"{sessions:,}".replace(",", "\u00a0") if lang == "pt" else f"{sessions:,}"
    ax.set_title(t("simulate", "ib.plot_title", lang, preset=preset, sessions=shown))
    ax.set_xlabel(t("simulate", "ib.plot_x", lang))
    ax.set_ylabel(t("simulate", "ib.plot_y", lang))
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)


# -- Aces in the Pot ----------------------------------------------------------------------
@simulate_app.command("aces-in-the-pot")
def aces_command(
    players: Annotated[int, typer.Option("--players", help="Players at the table.")] = 4,
    games: Annotated[int, typer.Option("--games", help="Games to simulate.")] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the run (reproducible).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Simulated win rates per seat beside the exact solution, with 95 % intervals."""
    from aceydeucey.aces_in_the_pot.analysis import solve
    from aceydeucey.aces_in_the_pot.rules import AcesRules
    from aceydeucey.aces_in_the_pot.simulate import simulate

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("simulate", key, language, **values)

    if games < 1:
        fail(say("error.games", value=games), lang=language)
    try:
        rules = AcesRules.resolve(players=players)
        solution = solve(rules, exact=False)
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    wins = np.zeros(rules.players, dtype=np.int64)
    began = time.perf_counter()
    with _progress(say("progress"), as_json) as bar:
        task = bar.add_task("", total=games)
        done = 0
        chunk = 0
        while done < games:
            size = min(CHUNK, games - done)
            child = int(np.random.SeedSequence([seed, chunk]).generate_state(1)[0])
            result = simulate(rules, size, seed=child)
            wins += np.array(result.wins, dtype=np.int64)
            done += size
            chunk += 1
            bar.update(task, completed=done)
    seconds = time.perf_counter() - began
    rows: list[dict[str, Any]] = []
    seat_rates: list[tuple[float, float, float, float, float]] = []
    for seat in range(rules.players):
        p = float(wins[seat] / games)
        exact = float(solution.win_probability[seat])
        se = math.sqrt(exact * (1 - exact) / games)  # under the exact rate: the test's scale
        half = 1.959964 * math.sqrt(max(p * (1 - p), 0.0) / games)
        z = (p - exact) / se if se > 0 else 0.0
        seat_rates.append((p, p - half, p + half, exact, z))
        rows.append(
            {
                "seat": seat + 1,
                "wins": int(wins[seat]),
                "simulated": p,
                "ci95": [p - half, p + half],
                "exact": exact,
                "z": z,
            }
        )
    off = [seat + 1 for seat, r in enumerate(seat_rates) if abs(r[4]) > 3]
    if as_json:
        data = {
            "game": "aces-in-the-pot",
            "players": rules.players,
            "games": games,
            "seed": seed,
            "seconds": seconds,
            "seats": rows,
            "agree": not off,
        }
        print(json.dumps(data))
        return
    title = say("aces.title", players=rules.players, games=_count(games, language), seed=seed)
    console.print(title, style="bold", markup=False)
    console.print(say("aces.first"), markup=False)
    table = RichTable()
    for key in ("aces.seat", "aces.simulated", "aces.ci", "aces.exact", "aces.z"):
        table.add_column(say(key), justify="right")
    for seat, (p, low, high, exact, z) in enumerate(seat_rates):
        table.add_row(
            str(seat + 1),
            _number(p, language),
            f"{_number(low, language)}–{_number(high, language)}",
            _number(exact, language, 6),
            f"{z:+.2f}".replace(".", ",") if language == "pt" else f"{z:+.2f}",
        )
    console.print(table)
    if off:
        console.print(say("aces.disagree", seats=", ".join(map(str, off))), markup=False)
    else:
        console.print(say("aces.agree"), markup=False)
    console.print(
        say("aces.speed", games=_count(games, language), seconds=_number(seconds, language, 2)),
        markup=False,
    )
