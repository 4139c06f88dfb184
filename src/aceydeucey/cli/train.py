"""``aceydeucey train backgammon``: TD(λ) self-play training of the evaluator, and
``aceydeucey train average``: checkpoints of one network averaged into one.

The training itself is :func:`aceydeucey.sim.td.train` (reproducible from its
seed, resumable from any checkpoint); this command shows a progress bar, saves
a checkpoint after every block of games, and after each block measures the
network against ``greedy`` through the game contract (duplicate dice, on
``--workers`` processes or Ray), printing the points per game with their
standard error as it goes.  Texts come from the ``train`` catalog.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Annotated, Any

import typer

from aceydeucey.cli.common import (
    LangOption,
    OptionsOption,
    RayOption,
    WorkersOption,
    check_record_path,
    console,
    count_text,
    decimal_text,
    fail,
    fail_error,
    parse_options,
    progress_bar,
    resolve_lang,
)
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

__all__ = ["train_app"]

train_app = typer.Typer(help="Train a game's evaluator by self-play.", no_args_is_help=True)


@train_app.command("backgammon")
def backgammon_command(
    variant: Annotated[str, typer.Option("--variant", help="Rules variant.")] = "acey-deucey",
    games: Annotated[
        int, typer.Option("--games", help="Self-play games to train (more, when resuming).")
    ] = 100_000,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the run (default 1; a resumed run keeps its own)."),
    ] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Go on from this checkpoint.")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Checkpoint to write (default: the resumed file, else <variant>.npz)."
        ),
    ] = None,
    eval_every: Annotated[
        int,
        typer.Option(
            "--eval-every", help="Save and measure against greedy every this many games (0: never)."
        ),
    ] = 10_000,
    eval_games: Annotated[
        int, typer.Option("--eval-games", help="Games of each measurement (in duplicate pairs).")
    ] = 100,
    hidden: Annotated[
        int | None,
        typer.Option(
            "--hidden",
            help="Hidden units of a fresh network (default 128); with --resume, the network"
            " is grown to this many (it plays as before, then learns to use the new units).",
            min=4,
            max=1024,
        ),
    ] = None,
    encoding: Annotated[
        int | None,
        typer.Option(
            "--encoding",
            help="Input encoding: 1 the raw board (a fresh run's default), 2 with the"
            " hand-crafted figures, 3 with more of them; with --resume, a network of an"
            " earlier encoding is widened to it (it plays as before, then learns the new"
            " inputs).",
        ),
    ] = None,
    lam: Annotated[
        float | None, typer.Option("--lambda", help="TD(λ) trace decay (default 0.7).")
    ] = None,
    alpha0: Annotated[
        float | None,
        typer.Option("--alpha0", help="Learning rate at game 0 (default 0.1)."),
    ] = None,
    alpha_min: Annotated[
        float | None, typer.Option("--alpha-min", help="Lowest learning rate (default 0.01).")
    ] = None,
    tau: Annotated[
        float | None,
        typer.Option(
            "--tau", help="Games over which the rate decays: alpha0 / sqrt(1 + g / tau) (10000)."
        ),
    ] = None,
    threads: Annotated[
        int,
        typer.Option(
            "--threads",
            help="Train on this many threads at once, one set of weights (about that many"
            " times the games on as many cores; such a run is not reproducible bit for bit).",
            min=1,
            max=64,
        ),
    ] = 1,
    option: OptionsOption = None,
    workers: WorkersOption = 1,
    ray: RayOption = None,
    lang: LangOption = None,
) -> None:
    """Train the backgammon network by TD(λ) self-play, measuring it against greedy.

    The learning options set a fresh run's schedule; given with --resume they change it
    from that game on (recorded in the checkpoint's history). Rule options (-o) set the
    reading the games are played under; the checkpoint records them, and the bots choose
    a network trained for a table's reading.
    """
    from aceydeucey.backgammon.bots import NetBot
    from aceydeucey.backgammon.game import BackgammonGame
    from aceydeucey.backgammon.rules import BackgammonRules
    from aceydeucey.sim.td import Hyper, train
    from aceydeucey.sim.tournament import Entrant, entrant, play_match

    language = resolve_lang(lang)

    def say(key: str, **values: Any) -> str:
        return t("train", key, language, **values)

    if games < 1:
        fail(say("error.games", value=games), lang=language)
    if eval_every < 0 or eval_games < 0:
        fail(say("error.eval", every=eval_every, games=eval_games), lang=language)
    if resume is not None and seed is not None:
        fail(say("error.seed_with_resume"), lang=language)
    if encoding is not None and encoding not in (1, 2, 3):
        fail(say("error.encoding", value=encoding), lang=language)
    learning = {"lam": lam, "alpha0": alpha0, "alpha_min": alpha_min, "tau": tau}
    given = {k: v for k, v in learning.items() if v is not None}
    if (
        any(not math.isfinite(v) or v < 0 for v in given.values())
        or given.get("lam", 0.0) > 1
        or given.get("tau") == 0
    ):
        fail(say("error.learning", values=", ".join(f"{k}={v}" for k, v in given.items())),
             lang=language)  # fmt: skip
    target = check_record_path(out or resume or Path(f"{variant}.npz"), language, kind="weights")
    run_seed = 1 if seed is None else seed
    pairs = max(1, eval_games // 2) if eval_games else 0
    block = eval_every or 5_000
    rule_options = parse_options(BackgammonRules, option, language) if option else None
    try:
        game = BackgammonGame(BackgammonRules.resolve(variant=variant, **(rule_options or {})))
    except AceyDeuceyError as exc:
        fail_error(exc, language)

    if resume is not None and (encoding is not None or hidden is not None):
        from aceydeucey.backgammon.net import Network

        try:
            resumed = Network.load(resume)
        except AceyDeuceyError as exc:
            fail_error(exc, language)
        if encoding is not None and resumed.encoding < encoding:
            console.print(
                say("widened", path=str(resume), found=resumed.encoding, encoding=encoding),
                markup=False,
            )
        if hidden is not None and resumed.hidden < hidden:
            console.print(
                say("grown", path=str(resume), found=resumed.hidden, hidden=hidden), markup=False
            )

    with progress_bar(say("progress")) as bar:
        task = bar.add_task("", total=games)

        def evaluate(done: int, net: Any, rate: float) -> dict[str, Any]:
            figures: dict[str, Any] = {}
            if not (eval_every and pairs):
                return figures
            match = play_match(
                game,
                Entrant("net", functools.partial(NetBot, network=net)),
                entrant("backgammon", "greedy"),
                2 * pairs,
                seed=run_seed * 1_000_003 + done,
                workers=workers,
                ray=ray,
            )
            figures.update(
                vs_greedy=match.points_per_game,
                vs_greedy_stderr=match.stderr,
                eval_games=match.games,
            )
            bar.console.print(
                say(
                    "eval",
                    games=count_text(done, language),
                    ppg=decimal_text(match.points_per_game, language, 2, sign=True),
                    stderr=decimal_text(match.stderr, language, 2),
                    wins=match.wins,
                    played=match.games,
                    rate=rate_text(rate, language),
                ),
                markup=False,
            )
            return figures

        try:
            net = train(
                variant,
                games,
                run_seed,
                resume=resume,
                out=target,
                hyper=Hyper(hidden=hidden or Hyper.hidden, **given),
                retune=given if resume is not None else None,
                block=block,
                on_games=lambda n: bar.update(task, completed=n),
                evaluate=evaluate,
                options=rule_options,
                encoding=encoding,
                hidden=hidden if resume is not None else None,
                threads=threads,
            )
        except AceyDeuceyError as exc:
            fail_error(exc, language)
    games_done, seconds = int(net.meta["games"]), round(float(net.meta.get("cpu_seconds", 0.0)))
    console.print(
        say(
            "done",
            games=say("done.games", count=games_done, games=count_text(games_done, language)),
            path=str(target),
            seconds=say("done.seconds", count=seconds, seconds=count_text(seconds, language)),
        ),
        markup=False,
    )


def rate_text(rate: float, lang: str) -> str:
    """Games per CPU second, rounded, with the plural the number takes.

    >>> rate_text(1.2, "en"), rate_text(1234.0, "en"), rate_text(1.4, "pt")
    ('1 game per CPU second', '1,234 games per CPU second', '1 jogo por segundo de CPU')
    """
    count = round(rate)
    return t("train", "eval_rate", lang, count=count, rate=count_text(count, lang))


@train_app.command("average")
def average_command(
    checkpoints: Annotated[
        list[Path], typer.Argument(help="Checkpoints of one network (two or more).")
    ],
    out: Annotated[Path, typer.Option("--out", help="The averaged network to write.")],
    lang: LangOption = None,
) -> None:
    """Average checkpoints of one network into one (Polyak averaging).

    The weights of the checkpoints, taken from the last stretch of a run at a low constant
    learning rate, are averaged; the result keeps the last checkpoint's training state and
    records the average in its history, so it can be played, measured or shipped like any
    checkpoint.
    """
    from aceydeucey.backgammon.net import Network, average

    language = resolve_lang(lang)
    if len(checkpoints) < 2:
        fail(t("train", "error.average_count", language, count=len(checkpoints)), lang=language)
    target = check_record_path(out, language, kind="weights")
    try:
        net = average([Network.load(path) for path in checkpoints])
    except AceyDeuceyError as exc:
        fail_error(exc, language)
    net.save(target)
    games = ", ".join(count_text(int(g), language) for g in net.meta["history"][-1]["average"])
    console.print(t("train", "average.done", language, games=games, path=str(target)), markup=False)
