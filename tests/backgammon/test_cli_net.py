"""The ``hint`` and ``train`` commands."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from aceydeucey.backgammon.board import standard_start
from aceydeucey.backgammon.game import BackgammonGame
from aceydeucey.backgammon.moves import legal_plays
from aceydeucey.backgammon.net import N_INPUTS_OF, Network
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.cli.app import app

runner = CliRunner()
OPENING_ID = standard_start().position_id()  # 4HPwATDgc/ABMA


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


# -- hint -----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("ply", ["0", "2", "3"])
def test_hint_json_ranks_every_legal_play_best_first(ply: str) -> None:
    code, out = run(
        "hint", "backgammon", "--variant", "classic", "--position", OPENING_ID,
        "--dice", "3-1", "--ply", ply, "--json",
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    plays = data["plays"]
    rules = BackgammonRules.resolve(variant="classic")
    assert {p["play"] for p in plays} == {
        str(p) for p in legal_plays(standard_start(), (3, 1), rules)
    }
    if ply == "0":
        equities = [p["equity"] for p in plays]
        assert equities == sorted(equities, reverse=True)
    assert all(0.0 <= p["win"] <= 1.0 for p in plays)
    assert "doubles" not in data


@pytest.mark.slow
def test_hint_after_a_1_2_ranks_the_six_doubles() -> None:
    game = BackgammonGame(BackgammonRules.resolve(variant="acey-deucey"))
    state = game.new_initial_state().apply("opening 5-2").apply("2-1")
    code, out = run("hint", "backgammon", "--position", state.state_id(), "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["dice"] == [2, 1]
    doubles = data["doubles"]
    assert sorted(d["double"] for d in doubles) == [1, 2, 3, 4, 5, 6]
    equities = [d["equity"] for d in doubles]
    assert equities == sorted(equities, reverse=True)
    # the table in Portuguese says the same
    code, out = run("hint", "backgammon", "--position", state.state_id(), "--lang", "pt")
    assert code == 0 and "O duplo a escolher" in out and "Equidade" in out


def test_hint_table_in_english() -> None:
    code, out = run("hint", "backgammon", "--variant", "classic", "--position", OPENING_ID,
                    "--dice", "6-5")  # fmt: skip
    assert code == 0
    assert "24/13" in out and "cubeless money equity" in out


@pytest.mark.parametrize(
    ("args", "en", "pt"),
    [
        (
            ("--position", "4HPwATDgc/AB", "--dice", "3-1"),
            "not a Position ID",
            "não é um Position ID",
        ),
        (("--position", OPENING_ID, "--dice", "7-1"), "dice", "dados"),
        (("--position", OPENING_ID, "--dice", "double 3"), "not a roll", "não é um lançamento"),
        # a --dice that reads as no roll is said to be no roll, not to be a bad move
        (("--position", OPENING_ID, "--dice", "3-1-2"), "not a roll", "não é um lançamento"),
        (("--position", OPENING_ID, "--dice", "abc"), "not a roll", "não é um lançamento"),
        (("--position", OPENING_ID, "--dice", ""), "not a roll", "não é um lançamento"),
        (("--position", OPENING_ID), "--dice", "--dice"),
        (("--position", OPENING_ID, "--dice", "3-1", "--ply", "1"), "0, 2 or 3", "0, 2 ou 3"),
    ],
)
def test_hint_errors_are_coded_and_translated(args: tuple[str, ...], en: str, pt: str) -> None:
    code, out = run("hint", "backgammon", "--variant", "classic", *args, "--lang", "en")
    assert code == 2 and en in out and "Traceback" not in out
    code, out = run("hint", "backgammon", "--variant", "classic", *args, "--lang", "pt")
    assert code == 2 and pt in out


# -- train ----------------------------------------------------------------------------


@pytest.mark.slow
def test_train_measures_as_it_goes_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "net.npz"
    code, out = run(
        "train", "backgammon", "--variant", "classic", "--games", "20", "--seed", "4",
        "--hidden", "8", "--eval-every", "10", "--eval-games", "2", "--out", str(path),
    )  # fmt: skip
    assert code == 0, out
    assert out.count("vs greedy") == 2 and "20 games in all" in out
    net = Network.load(path)
    assert net.meta["games"] == 20 and net.meta["seed"] == 4 and net.hidden == 8
    assert [h["games"] for h in net.meta["history"]] == [10, 20]
    assert all(h["eval_games"] == 2 for h in net.meta["history"])
    code, out = run(
        "train", "backgammon", "--variant", "classic", "--games", "5", "--resume", str(path),
        "--eval-every", "0", "--lang", "pt",
    )  # fmt: skip
    assert code == 0, out
    assert "25 jogos ao todo" in out
    assert Network.load(path).meta["games"] == 25


def test_train_refuses_an_unwritable_checkpoint_before_training(tmp_path: Path) -> None:
    (tmp_path / "a_file").write_text("")
    for out, en, pt in (
        (tmp_path / "a_file" / "w.npz", "is a file, not a folder", "é um ficheiro"),
        (tmp_path, "it is a folder", "é uma pasta"),
    ):
        for lang, words in (("en", en), ("pt", pt)):
            code, text = run(
                "train", "backgammon", "--games", "1", "--eval-every", "0",
                "--out", str(out), "--lang", lang,
            )  # fmt: skip
            assert code == 2 and words in " ".join(text.split()), (out, lang, text)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a_file"]  # nothing written


def test_train_refuses_bad_arguments(tmp_path: Path) -> None:
    code, out = run("train", "backgammon", "--games", "0")
    assert code == 2 and "positive" in out
    code, out = run("train", "backgammon", "--lambda", "1.5", "--lang", "pt")
    assert code == 2 and "lambda entre 0 e 1" in out
    for option, value in (("--lambda", "nan"), ("--alpha0", "inf"), ("--tau", "nan")):
        # not a number, or no end: refused before any game (a NaN would train NaN weights)
        code, out = run(
            "train", "backgammon", option, value, "--games", "1",
            "--out", str(tmp_path / "nan.npz"), "--eval-every", "0",
        )  # fmt: skip
        assert code == 2 and "out of range" in out, (option, value, out)
    assert not (tmp_path / "nan.npz").exists()
    Network.initial("classic", "gammons", 4, 1).save(tmp_path / "c.npz")
    code, out = run("train", "backgammon", "--resume", str(tmp_path / "c.npz"), "--seed", "3")
    assert code == 2 and "--seed" in out
    code, out = run(
        "train", "backgammon", "--variant", "acey-deucey", "--resume", str(tmp_path / "c.npz"),
        "--lang", "pt",
    )  # fmt: skip
    assert code == 2 and "variante" in out
    code, out = run("train", "backgammon", "--variant", "chess", "--lang", "pt")
    assert code == 2 and "não tem «chess»" in out and "Traceback" not in out
    code, out = run(
        "train", "backgammon", "-o", "bearoff_rule=sideways", "--games", "1",
        "--out", str(tmp_path / "r.npz"), "--eval-every", "0",
    )  # fmt: skip
    assert code == 2 and "sideways" in out and "Traceback" not in out
    assert not (tmp_path / "r.npz").exists()


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_hint_headers_are_never_cut_on_an_80_column_screen(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aceydeucey.cli.common import console

    monkeypatch.setattr(console, "width", 80)
    code, out = run("hint", "backgammon", "--variant", "classic", "--position", OPENING_ID,
                    "--dice", "3-1", "--lang", lang)  # fmt: skip
    assert code == 0, out
    assert "…" not in out  # Rich's mark of a cut cell
    assert all(len(line) <= 80 for line in out.splitlines())
    assert out.count("Backgammon") == 2  # won and lost, whole


def test_train_speed_takes_the_plural_of_its_number() -> None:
    # "1 games per CPU second" read wrongly: the rate's words follow its number.
    from aceydeucey.cli.train import rate_text

    assert rate_text(0.8, "en") == "1 game per CPU second"
    assert rate_text(2.0, "en") == "2 games per CPU second"
    assert rate_text(1.0, "pt") == "1 jogo por segundo de CPU"
    assert rate_text(12345.0, "pt") == "12\u00a0345 jogos por segundo de CPU"


@pytest.mark.parametrize(("lang", "words"), [("en", "1 game in all;"), ("pt", "1 jogo ao todo;")])
def test_train_says_one_game_in_the_singular(tmp_path: Path, lang: str, words: str) -> None:
    code, out = run(
        "train", "backgammon", "--variant", "classic", "--games", "1", "--hidden", "4",
        "--eval-every", "0", "--out", str(tmp_path / "one.npz"), "--lang", lang,
    )  # fmt: skip
    assert code == 0 and words in " ".join(out.split()), out


# -- train average ----------------------------------------------------------------------


def _checkpoint(path: Path, seed: int, games: int, variant: str = "acey-deucey") -> Network:
    outputs = "points" if variant == "acey-deucey" else "gammons"
    net = Network.initial(variant, outputs, 8, seed)
    net.meta.update(games=games, history=[{"games": games}])
    net.save(path)
    return net


def test_train_average_writes_the_mean_of_the_checkpoints(tmp_path: Path) -> None:
    nets = [_checkpoint(tmp_path / f"c{k}.npz", k, 1000 * (k + 1)) for k in range(3)]
    out = tmp_path / "mean.npz"
    code, text = run(
        "train", "average", *(str(tmp_path / f"c{k}.npz") for k in range(3)), "--out", str(out)
    )
    assert code == 0, text
    assert "1,000, 2,000, 3,000" in text and str(out) in text.replace("\n", "")
    mean = Network.load(out)
    for name in ("w1", "b1", "w2", "b2"):
        want = sum(getattr(n, name) for n in nets) / 3
        np.testing.assert_allclose(getattr(mean, name), want, rtol=0, atol=1e-12)
    assert not np.allclose(mean.w1, nets[-1].w1)  # (a fresh network's biases are all 0)
    # the last checkpoint's training state, with the average in its history
    assert mean.meta["games"] == 3000
    assert mean.meta["history"] == [{"games": 3000}, {"average": [1000, 2000, 3000]}]
    assert mean.variant == "acey-deucey" and mean.outputs == "points"


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_train_average_refuses_other_networks_and_a_single_checkpoint(
    tmp_path: Path, lang: str
) -> None:
    ad = _checkpoint(tmp_path / "ad.npz", 1, 10)
    _checkpoint(tmp_path / "classic.npz", 2, 10, variant="classic")
    out = tmp_path / "mean.npz"
    code, text = run(
        "train", "average", str(tmp_path / "ad.npz"), str(tmp_path / "classic.npz"),
        "--out", str(out), "--lang", lang,
    )  # fmt: skip
    assert code != 0 and "Traceback" not in text and not out.exists()
    flat = " ".join(text.split())
    assert ("not checkpoints of one network" if lang == "en" else "pontos de retoma") in flat
    assert "acey-deucey, points, 8" in flat and "classic, gammons, 8" in flat
    code, text = run("train", "average", str(tmp_path / "ad.npz"), "--out", str(out))
    assert code != 0 and "two checkpoints or more" in " ".join(text.split())
    assert Network.load(tmp_path / "ad.npz").meta == ad.meta  # nothing written over


def train_on(tmp_path: Path, old: Network, lang: str, *flags: str) -> tuple[str, Network]:
    """``old`` (7 games of seed 2) saved as old.npz, resumed with ``flags`` for 3 games:
    the command's output (one line) and the network it wrote."""
    old.meta = {"games": 7, "seed": 2}
    old.save(tmp_path / "old.npz")
    code, out = run(
        "train", "backgammon", "--variant", "classic", "--resume", str(tmp_path / "old.npz"),
        *flags, "--games", "3", "--eval-every", "0",
        "--out", str(tmp_path / "new.npz"), "--lang", lang,
    )  # fmt: skip
    assert code == 0, out
    return " ".join(out.split()), Network.load(tmp_path / "new.npz")


@pytest.mark.parametrize(("lang", "words"), [("en", "widened to encoding 2"), ("pt", "alargada")])
def test_train_widens_a_network_of_encoding_1_and_goes_on(
    tmp_path: Path, lang: str, words: str
) -> None:
    out, net = train_on(
        tmp_path, Network.initial("classic", "gammons", 8, 1), lang, "--encoding", "2"
    )
    assert words in out
    assert net.encoding == 2 and net.meta["games"] == 10
    assert {"games": 7, "widened": [1, 2]} in net.meta["history"]
    assert Network.load(tmp_path / "old.npz").encoding == 1  # the original is untouched


@pytest.mark.parametrize(("lang", "words"), [("en", "grown to 12"), ("pt", "aumentada para 12")])
def test_train_grows_the_hidden_layer_of_a_resumed_network_and_goes_on(
    tmp_path: Path, lang: str, words: str
) -> None:
    old = Network.initial("classic", "gammons", 8, 1, encoding=2)
    out, net = train_on(tmp_path, old, lang, "--hidden", "12")
    assert words in out
    assert net.hidden == 12 and net.meta["games"] == 10 and net.meta["hyper"]["hidden"] == 12
    assert {"games": 7, "grown": [8, 12]} in net.meta["history"]
    assert net.w2[8:].any()  # three games of training reached the new units
    assert Network.load(tmp_path / "old.npz").hidden == 8  # the original is untouched
    for lang_, refusal in (("en", "never shrunk to 4"), ("pt", "nunca é reduzida a 4")):
        code, out = run(
            "train", "backgammon", "--variant", "classic", "--resume", str(tmp_path / "old.npz"),
            "--hidden", "4", "--games", "1", "--eval-every", "0", "--lang", lang_,
        )  # fmt: skip
        assert code == 2 and refusal in " ".join(out.split()) and "Traceback" not in out, out


def test_train_on_two_threads_records_them_and_refuses_none(tmp_path: Path) -> None:
    _, net = train_on(tmp_path, Network.initial("classic", "gammons", 8, 1), "en", "--threads", "2")
    assert net.meta["games"] == 10 and net.meta["history"][-1]["threads"] == 2
    assert not np.array_equal(net.w1, Network.load(tmp_path / "old.npz").w1)
    code, out = run("train", "backgammon", "--threads", "0")  # (in Portuguese: test_usage_errors)
    assert code == 2 and "'--threads'" in out and "Traceback" not in out, out


def test_train_refuses_an_unknown_encoding_and_narrowing(tmp_path: Path) -> None:
    for lang, words in (
        ("en", "or 3 (with more of them), not 4"),
        ("pt", "ou 3 (com mais medidas), não 4"),
    ):
        code, out = run("train", "backgammon", "--encoding", "4", "--lang", lang)
        assert code == 2 and words in " ".join(out.split()), out
    Network.initial("classic", "gammons", 4, 1, encoding=2).save(tmp_path / "c2.npz")
    for lang, words in (("en", "never narrowed"), ("pt", "nunca reduzida")):
        code, out = run(
            "train", "backgammon", "--variant", "classic", "--resume", str(tmp_path / "c2.npz"),
            "--encoding", "1", "--games", "1", "--eval-every", "0", "--lang", lang,
        )  # fmt: skip
        assert code == 2 and words in " ".join(out.split()), out


@pytest.mark.parametrize("encoding", [2, 3])
def test_a_fresh_run_of_a_later_encoding(tmp_path: Path, encoding: int) -> None:
    code, out = run(
        "train", "backgammon", "--variant", "classic", "--games", "4", "--hidden", "8",
        "--encoding", str(encoding), "--eval-every", "0", "--out", str(tmp_path / "f.npz"),
    )  # fmt: skip
    assert code == 0, out
    assert Network.load(tmp_path / "f.npz").encoding == encoding


def test_train_widens_a_network_of_encoding_2_to_3(tmp_path: Path) -> None:
    old = Network.initial("classic", "gammons", 8, 1, encoding=2)
    out, net = train_on(tmp_path, old, "en", "--encoding", "3")
    assert "widened to encoding 3" in out
    assert net.encoding == 3 and {"games": 7, "widened": [2, 3]} in net.meta["history"]
    assert net.w1[N_INPUTS_OF[2] :].any()  # three games reached the new inputs' weights
