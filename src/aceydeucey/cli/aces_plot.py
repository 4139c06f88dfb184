"""A PNG chart of a solution: win probability by seat and the game-length distribution.

Matplotlib (Agg backend) is imported only when a chart is drawn.
"""

from __future__ import annotations

from pathlib import Path

from aceydeucey.aces_in_the_pot.analysis import Solution
from aceydeucey.locale import t

__all__ = ["plot_solution"]


def plot_solution(solution: Solution, path: str | Path, lang: str = "en") -> Path:
    """Draw ``solution`` to ``path`` (PNG) and return the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def say(key: str, **values: object) -> str:
        return t("aces", key, lang, **values)

    rules = solution.rules
    n = rules.players
    fig, (wins, length) = plt.subplots(1, 2, figsize=(11, 4.2), constrained_layout=True)
    fig.suptitle(
        say(
            "analysis.title",
            players=n,
            finish=rules.finish,
            chips=rules.starting_chips,
            first=rules.first_roller or 0,
        )
    )
    seats = list(range(n))
    bars = wins.bar(seats, solution.win_probability, color="#3b6ea8")
    wins.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"1/{n}")
    wins.bar_label(bars, labels=[f"{p:.4f}" for p in solution.win_probability], fontsize=8)
    wins.set_title(say("plot.wins", first=solution.rules.first_roller or 0))
    wins.set_xlabel(say("plot.seat"))
    wins.set_ylabel(say("plot.probability"))
    wins.set_xticks(seats)
    low = min(solution.win_probability)
    high = max(solution.win_probability)
    wins.set_ylim(max(0.0, low - (high - low) * 1.5 - 0.01), high + (high - low) * 0.8 + 0.01)
    wins.legend(loc="lower right")

    pmf = solution.length_pmf
    cut = min(len(pmf), int(solution.p90_rolls * 2.2) + 1)
    length.bar(range(cut), pmf[:cut], width=1.0, color="#a8623b")
    for value, style, label in (
        (solution.expected_rolls, "-", say("plot.mean", value=solution.expected_rolls)),
        (solution.median_rolls, "--", say("plot.median", value=solution.median_rolls)),
        (solution.p90_rolls, ":", say("plot.p90", value=solution.p90_rolls)),
    ):
        length.axvline(value, color="black", linestyle=style, linewidth=1, label=label)
    length.set_title(say("plot.length"))
    length.set_xlabel(say("plot.throws"))
    length.set_ylabel(say("plot.probability"))
    length.legend()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
