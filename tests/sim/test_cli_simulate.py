"""``aceydeucey simulate inbetween`` and ``simulate aces-in-the-pot`` through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from aceydeucey.cli.app import app

runner = CliRunner()


def _ib(*args: str) -> list[str]:
    return ["simulate", "inbetween", *args]


@pytest.mark.slow
def test_inbetween_json_has_sessions_hands_seconds_and_rates_summing_to_one() -> None:
    result = runner.invoke(
        app, _ib("--strategies", "ev,kelly,random", "--sessions", "3000", "--json")
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["sessions"] == 3000
    assert data["hands"] > 3000 and data["seconds"] > 0
    rows = {r["strategy"]: r for r in data["results"]}
    assert set(rows) == {"ev", "kelly", "random"}
    assert sum(r["win_rate"] for r in rows.values()) == pytest.approx(1)
    for r in rows.values():
        low, high = r["win_ci95"]
        assert low < r["win_rate"] < high
    assert rows["ev"]["mean_balance"] > rows["random"]["mean_balance"]
    assert sum(data["endings"].values()) == 3000
    again = runner.invoke(
        app, _ib("--strategies", "ev,kelly,random", "--sessions", "3000", "--json")
    )
    assert json.loads(again.stdout)["results"] == data["results"]  # same seed, same figures
    other = runner.invoke(app, _ib("--sessions", "3000", "--seed", "9", "--json"))
    assert json.loads(other.stdout)["results"] != data["results"]


def test_inbetween_win_interval_stays_within_zero_and_one() -> None:
    # 20 sessions: random wins 1/10 of its seats, where the normal approximation's
    # half-width (0.13) is wider than the rate; a win rate's interval ends at 0
    result = runner.invoke(app, _ib("--sessions", "20", "--json"))
    assert result.exit_code == 0, result.output
    rows = {r["strategy"]: r for r in json.loads(result.stdout)["results"]}
    assert rows["random"]["win_rate"] < 0.2
    for r in rows.values():
        low, high = r["win_ci95"]
        assert 0 <= low <= r["win_rate"] <= high <= 1


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Win rate", "95 % interval", "hands/s"]),
        ("pt", ["Estratégia", "mãos/s", "Mãos"]),
    ],
)
def test_inbetween_table_in_both_languages(lang: str, words: list[str]) -> None:
    result = runner.invoke(
        app, _ib("--strategies", "cautious,ev,random,kelly", "--sessions", "2000", "--lang", lang)
    )
    assert result.exit_code == 0, result.output
    shown = " ".join(result.stdout.split())  # the console wraps long lines
    for word in words:
        assert word in shown
    assert "cautious" in result.stdout
    assert "…" not in result.stdout  # no figure or header cut at 80 columns
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


@pytest.mark.slow
def test_inbetween_plot_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "balances.png"
    result = runner.invoke(app, _ib("--sessions", "2000", "--plot", str(path), "--json"))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads(result.stdout)["plot"] == str(path)


@pytest.mark.parametrize(
    ("args", "en", "pt"),
    [
        (["--strategies", "ev,wizard"], "unknown strategy 'wizard'", "estratégia desconhecida"),
        (["--preset", "nonesuch"], "nonesuch", "nonesuch"),
        (["--sessions", "0"], "at least 1", "pelo menos 1"),
        (["--strategies", "ev"], "one strategy per seat, two or more", "duas ou mais"),
        (["--strategies", ","], "got 0", "foram dadas 0"),
        (["--workers", "0"], "--workers must be", "--workers tem de ser"),
        (["--workers", "2", "--ray", "local"], "not both", "não ambos"),
        (["-o", "rounds"], "--option expects key=value", "--option espera chave=valor"),
        (["--plot", "/no/such/folder/x.png"], "no such file or folder", "não existe"),
    ],
)
def test_inbetween_bad_input_is_a_precise_error_in_the_language(
    args: list[str], en: str, pt: str
) -> None:
    for lang, text in (("en", en), ("pt", pt)):
        result = runner.invoke(app, _ib(*args, "--lang", lang))
        assert result.exit_code == 2, result.output
        assert text in " ".join(result.output.split())  # the console wraps long lines
        assert result.output.startswith("erro:" if lang == "pt" else "error:")
        assert "Traceback" not in result.output and "Invalid value" not in result.output


@pytest.mark.parametrize(
    ("preset", "engine"),
    [("banker", False), ("three-posts", False), ("sheets", False), ("red-dog", False)],
)
def test_inbetween_plays_every_preset(preset: str, engine: bool) -> None:
    """No preset is refused, and the compiled kernel plays every one."""
    result = runner.invoke(app, _ib("--preset", preset, "--sessions", "4", "--json"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["engine"] is engine and data["hands"] > 0
    assert data["hands_per_second"] == data["hands"] / data["seconds"]
    assert sum(data["endings"].values()) == 4


def test_inbetween_names_the_engine_path_in_the_language() -> None:
    for lang, text in (("en", "played by the engine itself"), ("pt", "jogadas pelo próprio motor")):
        args = ("--preset", "sheets", "--option", "passed_card=next-post", "--sessions", "2")
        result = runner.invoke(app, _ib(*args, "--lang", lang))
        assert result.exit_code == 0, result.output
        shown = " ".join(result.stdout.split())
        assert text in shown and "passed_card=next-post" in shown
    result = runner.invoke(app, _ib("--preset", "sheets", "--sessions", "2"))
    assert "played by the engine itself" not in " ".join(result.stdout.split())


def _cropped(text: str) -> list[str]:
    """The lines of a table that do not end in its right border (cut at 80 columns)."""
    borders = "┓┃┫┩│┤┘"
    return [line for line in text.splitlines() if line[:1] in "┏┃┡│└" and line[-1] not in borders]


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_inbetween_table_keeps_its_right_edge_at_80_columns(lang: str) -> None:
    """Counts of 5 digits and the Portuguese headers once pushed the edge off the screen."""
    args = _ib("--strategies", "ev,kelly,cautious", "--sessions", "20000", "--lang", lang)
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "┃" in result.stdout and not _cropped(result.stdout)
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


def test_inbetween_speed_line_tells_the_wall_time_from_the_simulators() -> None:
    """The rate is the kernel's; the line says so beside the whole run's time."""
    for lang, words in (("en", "; the simulator itself:"), ("pt", "; o próprio simulador:")):
        result = runner.invoke(app, _ib("--sessions", "500", "--lang", lang))
        assert result.exit_code == 0, result.output
        assert words in " ".join(result.stdout.split())


def test_ray_help_names_the_extra_to_install() -> None:
    """Rich read ``[ray]`` in the help as markup and dropped it."""
    result = runner.invoke(app, _ib("--help"))
    assert "aceydeucey[ray]" in "".join(result.output.split())


@pytest.mark.slow
def test_ray_auto_without_a_cluster_is_our_message_not_rays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ray's own text speaks of an ``--address`` flag these commands do not have."""
    ray = pytest.importorskip("ray")
    from aceydeucey.core.errors import ArgumentError
    from aceydeucey.sim.parallel import run_jobs

    def no_cluster(*_args: object, **_kwargs: object) -> None:
        raise ConnectionError("Could not find any running Ray instance. Set `--address`.")

    monkeypatch.setattr(ray, "init", no_cluster)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    with pytest.raises(ArgumentError) as refused:
        run_jobs(abs, 1, seed=0, ray="auto")
    assert refused.value.code == "parallel.ray_none_running"
    assert "--address" not in refused.value.render("pt")
    assert "ray start --head" in refused.value.render("pt")


def test_inbetween_free_options_change_the_game() -> None:
    base = runner.invoke(app, _ib("--sessions", "2000", "--json"))
    more = runner.invoke(app, _ib("--sessions", "2000", "-o", "rounds=6", "--json"))
    assert more.exit_code == 0, more.output
    assert json.loads(more.stdout)["hands"] > json.loads(base.stdout)["hands"]
    win = runner.invoke(app, _ib("--sessions", "2000", "-o", "pairs=win", "--json"))
    assert win.exit_code == 0, win.output  # a rule the guide's kernel once refused
    assert json.loads(win.stdout)["results"] != json.loads(base.stdout)["results"]


def test_inbetween_plot_path_checked_before_the_run(tmp_path: Path) -> None:
    result = runner.invoke(app, _ib("--plot", str(tmp_path), "--lang", "pt"))
    assert result.exit_code == 2
    assert "não foi possível escrever o gráfico" in result.output


def test_aces_json_beside_the_exact_solution() -> None:
    result = runner.invoke(
        app, ["simulate", "aces-in-the-pot", "--players", "3", "--games", "20000", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["games"] == 20000 and len(data["seats"]) == 3
    assert sum(s["wins"] for s in data["seats"]) == 20000
    for s in data["seats"]:
        assert abs(s["z"]) < 4  # fixed seed: the simulation agrees with the exact rate
        assert 0 < s["exact"] < 1
    assert data["agree"] is True


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Simulated", "Exact", "standard errors"]),
        ("pt", ["Simulado", "Exato", "erros-padrão"]),
    ],
)
def test_aces_table_in_both_languages(lang: str, words: list[str]) -> None:
    result = runner.invoke(
        app, ["simulate", "aces-in-the-pot", "--players", "4", "--games", "5000", "--lang", lang]
    )
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.stdout
    assert "…" not in result.stdout


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_aces_bad_input(lang: str) -> None:
    few = runner.invoke(app, ["simulate", "aces-in-the-pot", "--players", "1", "--lang", lang])
    assert few.exit_code == 2 and "Traceback" not in few.output
    idle = runner.invoke(app, ["simulate", "aces-in-the-pot", "--workers", "0", "--lang", lang])
    assert idle.exit_code == 2 and "Invalid value" not in idle.output
    assert ("tem de ser um número inteiro" if lang == "pt" else "whole number") in idle.output
    none = runner.invoke(app, ["simulate", "aces-in-the-pot", "--games", "0", "--lang", lang])
    assert none.exit_code == 2
    assert ("pelo menos 1" if lang == "pt" else "at least 1") in none.output


@pytest.mark.slow
def test_inbetween_results_do_not_depend_on_the_workers() -> None:
    from aceydeucey.sim.inbetween_runs import JOB_SESSIONS

    args = _ib("--strategies", "ev,random,cautious", "--sessions", str(2 * JOB_SESSIONS))
    one = runner.invoke(app, [*args, "--seed", "4", "--json"])
    two = runner.invoke(app, [*args, "--seed", "4", "--workers", "2", "--json"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert b["workers"] == 2
    for key in ("sessions", "hands", "results", "endings"):
        assert a[key] == b[key], key


def test_inbetween_rules_past_the_chip_limit_are_a_coded_error() -> None:
    """The rule set that once looped in the kernel (tests/sim/test_inbetween_guards.py)."""
    options = [
        "stake_cap=none",
        "rounds=30",
        "post_multiplier=4",
        "starting_chips=300",
        "ante=4",
        "ante_each_round=false",
    ]
    args = _ib("--strategies", "random,ev,kelly", "--seed", "304", "--sessions", "20000")
    for o in options:
        args += ["-o", o]
    for lang, text in (("en", "64-bit integers"), ("pt", "inteiros de 64 bits")):
        result = runner.invoke(app, [*args, "--lang", lang])
        assert result.exit_code == 2, result.output
        shown = " ".join(result.output.split())  # the console wraps long lines
        assert text in shown and "stake_cap=none" in shown
        assert "Traceback" not in shown


@pytest.mark.slow
def test_aces_results_do_not_depend_on_the_workers() -> None:
    from aceydeucey.sim.aces import JOB_GAMES

    args = ["simulate", "aces-in-the-pot", "--players", "4", "--games", str(2 * JOB_GAMES)]
    one = runner.invoke(app, [*args, "--json"])
    two = runner.invoke(app, [*args, "--workers", "2", "--json"])
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout)["seats"] == json.loads(two.stdout)["seats"]


def test_aces_three_players_beside_exact_fractions() -> None:
    from fractions import Fraction

    result = runner.invoke(
        app, ["simulate", "aces-in-the-pot", "--players", "3", "--games", "30000", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["exact_solution"] is True
    exact = [Fraction(s["exact_fraction"]) for s in data["seats"]]
    assert sum(exact) == 1
    for s, p in zip(data["seats"], exact, strict=True):
        assert s["exact"] == pytest.approx(float(p))
        low, high = s["ci95"]
        assert low < s["simulated"] < high


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_aces_table_too_large_to_solve_shows_the_simulation_alone(lang: str) -> None:
    args = ["simulate", "aces-in-the-pot", "--players", "12", "--games", "3000"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert data["solved"] is False and data["agree"] is None
    assert all(s["exact"] is None for s in data["seats"])
    assert sum(s["wins"] for s in data["seats"]) == 3000
    shown = runner.invoke(app, [*args, "--lang", lang])
    assert shown.exit_code == 0, shown.output
    assert ("No exact column" if lang == "en" else "Sem a coluna exata") in shown.stdout


def test_plot_axis_names_its_unit_with_the_right_plural() -> None:
    """The y axis once read "per bin of width 1" (no unit), then "of 1 chips"."""
    from aceydeucey.locale import t

    assert "of 1 chip " in t("simulate", "ib.plot_y", "en", count=1)
    assert "of 3 chips " in t("simulate", "ib.plot_y", "en", count=3)
    assert "de 1 ficha " in t("simulate", "ib.plot_y", "pt", count=1)
    assert "de 3 fichas " in t("simulate", "ib.plot_y", "pt", count=3)


def test_plot_legend_labels_the_interval_and_the_standard_error_apart() -> None:
    # One "±" for a 95 % interval and for a standard error read as one thing: each is named.
    from aceydeucey.locale import t

    for lang, interval, error in (
        ("en", "95 % interval ± 2.1", "standard error 0.35"),
        ("pt", "intervalo de 95 % ± 2,1", "erro-padrão 0,35"),
    ):
        ci, se = ("2.1", "0.35") if lang == "en" else ("2,1", "0,35")
        label = t(
            "simulate", "ib.plot_label", lang, strategy="ev", win="40", ci=ci, mean="99", se=se
        )
        assert interval in label and error in label and label.count("±") == 1
        assert "±" not in t("simulate", "ib.plot_means", lang)
