"""The network evaluator: its encoding, its outputs from both sides, its files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon.board import off_board_start, standard_start
from aceydeucey.backgammon.generate import to_board
from aceydeucey.backgammon.kernel import flip_board, move_params_of
from aceydeucey.backgammon.net import (
    I_ANY_UNENTERED,
    I_OFF,
    I_PENDING,
    I_PIPS,
    I_RACE,
    I_UNENTERED,
    MAX_ACTIVE,
    N_INPUTS,
    N_INPUTS_OF,
    OUTPUTS,
    Network,
    encode,
    features,
    forward_sparse,
    grow,
    shipped,
    weights_path,
    widen,
)
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import ArgumentError
from aceydeucey.sim.playouts import game_params_of, trace_game


def sample_boards(variant: str, seed: int) -> np.ndarray:
    """The positions of one random game (after each play, from the mover's side)."""
    rules = BackgammonRules.resolve(variant=variant)
    start = to_board(off_board_start() if variant == "acey-deucey" else standard_start())
    _, events = trace_game(start, move_params_of(rules), game_params_of(rules), seed)
    plays = events[events[:, 0] == 3]
    return np.ascontiguousarray(plays[:, 4:], dtype=np.int8)


def test_standard_start_encoding_by_hand() -> None:
    x = encode(to_board(standard_start()))[0]
    # my 24-point holds 2: units n>=1, n>=2; my 6-point 5: all four, (5 - 3) / 2 = 1
    assert x[4 * 23 : 4 * 23 + 4].tolist() == [1, 1, 0, 0]
    assert x[4 * 5 : 4 * 5 + 4].tolist() == [1, 1, 1, 1.0]
    assert x[4 * 12 : 4 * 12 + 4].tolist() == [1, 1, 1, 1.0]
    # the opponent's, in its own numbering: the same
    assert x[96 + 4 * 23 : 96 + 4 * 23 + 4].tolist() == [1, 1, 0, 0]
    assert x[I_PIPS] == x[I_PIPS + 1] == pytest.approx(167 / 200)
    assert x[I_RACE] == 0 and x[I_PENDING] == 0 and x[I_OFF] == 0
    assert np.count_nonzero(x) == 2 * (2 + 4 + 3 + 4) + 2


def test_acey_deucey_start_counts_unentered_checkers() -> None:
    x = encode(to_board(off_board_start()), pendings=1)[0]
    assert x[I_UNENTERED] == x[I_UNENTERED + 1] == 1.0
    assert x[I_ANY_UNENTERED] == x[I_ANY_UNENTERED + 1] == 1.0
    assert x[I_PENDING] == 1.0
    assert x[I_PIPS] == pytest.approx(375 / 200)
    assert np.count_nonzero(x[:192]) == 0


def test_race_flag() -> None:
    board = np.zeros(32, dtype=np.int8)
    board[0:5] = 3  # mine on my 1..5
    board[20:24] = -3  # theirs on my 21..24 (their 1..4): no contact left
    board[29] = 3
    assert encode(board)[0, I_RACE] == 1.0
    board[10], board[29] = 1, 2  # one of mine on my 11 ...
    assert encode(board)[0, I_RACE] == 1.0
    board[23], board[5] = -2, -1  # ... and one of theirs on my 6, ahead of it: contact
    assert encode(board)[0, I_RACE] == 0.0


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["acey-deucey", "classic"]), st.integers(0, 10_000), st.integers(0, 1))
def test_flipped_encoding_is_the_encoding_of_the_flipped_board(
    variant: str, seed: int, pending: int
) -> None:
    for board in sample_boards(variant, seed)[::7]:
        assert np.array_equal(
            encode(board, flips=True, pendings=pending),
            encode(flip_board(board), pendings=pending),
        )


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000))
def test_features_are_sparse_sorted_and_match_encode(seed: int) -> None:
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    for board in sample_boards("acey-deucey", seed)[::5]:
        n = features(board, False, 0, idx, val, 1)
        assert list(idx[:n]) == sorted(set(idx[:n]))
        dense = np.zeros(N_INPUTS)
        dense[idx[:n]] = val[:n]
        assert np.array_equal(dense, encode(board)[0])


@pytest.mark.parametrize("outputs", sorted(OUTPUTS))
@pytest.mark.parametrize(("flip", "pending"), [(False, 0), (True, 0), (False, 1)])
def test_sparse_forward_agrees_with_the_dense_numpy_network(
    outputs: str, flip: bool, pending: int
) -> None:
    net = Network.initial("classic", outputs, 24, seed=3)
    net.w1 *= 20  # large enough weights that a mistake shows
    boards = sample_boards("acey-deucey", 11)
    dense = net.forward(encode(boards, flips=flip, pendings=pending))
    np.testing.assert_allclose(net.evaluate(boards, flip, pending), dense, rtol=1e-10)
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    hid = np.zeros(24)
    out = np.zeros(net.spec.size)
    n = features(boards[5], flip, pending, idx, val, 1)
    forward_sparse(idx, val, n, net.w1, net.b1, net.w2, net.b2, hid, out)
    np.testing.assert_allclose(out, dense[5], rtol=1e-10)
    assert out.min() > 0.0 and out.max() < 1.0


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(sorted(OUTPUTS)),
    st.lists(st.floats(0, 1, allow_nan=False), min_size=5, max_size=5),
)
def test_other_side_of_outputs_is_an_involution_and_negates_equity(
    name: str, values: list[float]
) -> None:
    spec = OUTPUTS[name]
    o = np.array(values[: spec.size])
    assert np.allclose(spec.flip(spec.flip(o)), o)
    assert spec.equity(spec.flip(o)) == pytest.approx(-spec.equity(o), abs=1e-12)


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    net = Network.initial("acey-deucey", "points", 16, seed=5)
    net.meta = {"games": 12, "seed": 5}
    net.save(tmp_path / "n.npz")
    back = Network.load(tmp_path / "n.npz")
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(net, name))
    assert (back.outputs, back.variant, back.meta) == ("points", "acey-deucey", net.meta)


@pytest.mark.parametrize("version", [0, 4, None, True])
def test_other_encoding_version_is_refused_with_its_code(tmp_path: Path, version: object) -> None:
    Network.initial("classic", "gammons", 8, seed=1).save(tmp_path / "n.npz")
    with np.load(tmp_path / "n.npz") as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(str(arrays["header"]))
    header["encoding_version"] = version
    arrays["header"] = np.array(json.dumps(header))
    np.savez(tmp_path / "old.npz", **arrays)
    with pytest.raises(ArgumentError) as err:
        Network.load(tmp_path / "old.npz")
    assert err.value.code == "bg.net.version"
    assert err.value.params["found"] == version
    assert err.value.params["expected"] == "1, 2, 3"
    assert "versão" in err.value.render("pt")


def test_unreadable_weights_are_refused_with_a_code(tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_bytes(b"not a zip file")
    with pytest.raises(ArgumentError) as err:
        Network.load(tmp_path / "bad.npz")
    assert err.value.code == "bg.net.file"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "bg.net.reason.missing"),  # no such file
        (b"PK\x03\x04 a broken zip", "bg.net.reason.not_weights"),
        (b"\x93NUMPY\x01\x00 a cut array", "bg.net.reason.not_weights"),
        (b"plain text, read as a pickle", "bg.net.reason.not_weights"),
    ],
)
def test_a_file_that_is_no_network_is_said_so_in_each_language(
    tmp_path: Path, content: bytes | None, reason: str
) -> None:
    path = tmp_path / "w.npz"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(ArgumentError) as err:
        Network.load(path)
    assert err.value.code == "bg.net.file"
    assert err.value.params["reason"]["code"] == reason
    pt = err.value.render("pt")
    # the reason in Portuguese, not NumPy's or the system's English (nor its advice to
    # load pickles)
    assert "pesos da rede" in pt and "pickle" not in pt and "No such" not in pt
    said = {"bg.net.reason.missing": "não existe", "bg.net.reason.not_weights": "não é um"}
    assert said[reason] in pt
    assert reason not in pt and reason not in err.value.render("en")  # catalogued


@pytest.mark.parametrize(
    ("variant", "outputs"), [("acey-deucey", "points"), ("classic", "gammons")]
)
def test_shipped_weights_load_small_and_trained(variant: str, outputs: str) -> None:
    path = weights_path(variant)
    assert path.stat().st_size < 1_000_000
    net = shipped(variant)
    assert (net.variant, net.outputs) == (variant, outputs)
    assert net.meta["games"] >= 10_000  # a trained network, not a placeholder


def test_each_reading_network_records_the_reading_it_was_trained_for() -> None:
    from aceydeucey.backgammon.net import READINGS, SHIPPED_FOR_SCORING

    for base, readings in READINGS.items():
        assert base in SHIPPED_FOR_SCORING.values()
        for name, options in readings:
            if not weights_path(name).is_file():
                continue
            net = shipped(name)
            assert net.variant == base and net.meta["options"] == options
            assert net.meta["games"] >= 10_000


def test_the_bots_take_the_network_trained_for_the_tables_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from aceydeucey.backgammon import net as net_module
    from aceydeucey.backgammon.evaluator import Evaluator

    for base in ("acey-deucey", "classic"):
        shutil.copy(weights_path(base), tmp_path / f"{base}.npz")
    reading = Network.initial("acey-deucey", "points", 4, 9)
    reading.meta = {"games": 10_000, "options": {"bearoff_rule": "exact_only"}}
    reading.save(tmp_path / "acey-deucey-exact-count.npz")
    monkeypatch.setattr(net_module, "WEIGHTS_DIR", tmp_path)
    net_module.shipped.cache_clear()
    try:
        exact = BackgammonRules.resolve(variant="acey-deucey", bearoff_rule="exact_only")
        default = BackgammonRules.resolve(variant="acey-deucey")
        classic = BackgammonRules.resolve(variant="classic")
        assert Evaluator(exact).net.hidden == 4  # the reading's network
        assert Evaluator(default).net.hidden == shipped("acey-deucey").hidden != 4
        assert Evaluator(classic).net.variant == "classic"
        (tmp_path / "acey-deucey-exact-count.npz").unlink()
        net_module.shipped.cache_clear()
        assert Evaluator(exact).net.variant == "acey-deucey"  # absent: the base network
        assert Evaluator(exact).net.hidden != 4
    finally:
        net_module.shipped.cache_clear()


# -- encoding 2 and the networks of encoding 1 --------------------------------------------

#: Outputs of the shipped networks of encoding 1 (Acey-Deucey's) and of the encoder on
#: sample boards of both variants, as the code of encoding 1 alone computed them (before
#: encoding 2 existed): they must not move.
V1_REFERENCE = Path(__file__).parent / "data" / "v1_evaluations.npz"


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_encoding_1_networks_evaluate_exactly_as_before(variant: str) -> None:
    from aceydeucey.backgammon.evaluator import Evaluator

    with np.load(V1_REFERENCE) as data:
        ref = {k: data[k] for k in data.files if k.startswith(variant + ".")}
    boards = ref[f"{variant}.boards"]
    for name in ("acey-deucey", "acey-deucey-exact-count"):
        net = shipped(name)
        assert net.encoding == 1
        for flip in (0, 1):
            for pending in (0, 1):
                got = net.evaluate(boards, bool(flip), pending)
                assert np.array_equal(got, ref[f"{variant}.{name}.{flip}{pending}"])
    n = 40
    got = encode(boards[:n], flips=np.arange(n) % 2, pendings=(np.arange(n) // 2) % 2)
    assert np.array_equal(got, ref[f"{variant}.encode"])
    if variant == "acey-deucey":  # the 2-ply kernel on Acey-Deucey's shipped network
        ev = Evaluator(BackgammonRules.resolve(variant=variant))
        ev.bearoff = None  # the network alone, as the reference was computed
        assert np.array_equal(ev.best_replies(boards[::10], "roll", 0), ref[f"{variant}.replies"])


@pytest.mark.parametrize("encoding", [2, 3])
def test_each_encoding_extends_the_one_before(encoding: int) -> None:
    boards = sample_boards("classic", 3)
    before = N_INPUTS_OF[encoding - 1]
    for flip in (False, True):
        one = encode(boards, flips=flip, encoding=encoding - 1)
        two = encode(boards, flips=flip, encoding=encoding)
        assert one.shape[1] == before and two.shape[1] == N_INPUTS_OF[encoding]
        assert np.array_equal(two[:, :before], one)
        assert np.count_nonzero(two[:, before:]) > 0


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("encoding", [2, 3])
def test_sparse_features_match_encode_and_the_dense_network(flip: bool, encoding: int) -> None:
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    boards = sample_boards("acey-deucey", 5)
    for board in boards[::4]:
        n = features(board, flip, 0, idx, val, encoding)
        assert list(idx[:n]) == sorted(set(idx[:n]))
        dense = np.zeros(N_INPUTS_OF[encoding])
        dense[idx[:n]] = val[:n]
        assert np.array_equal(dense, encode(board, flips=flip, encoding=encoding)[0])
    net = Network.initial("classic", "gammons", 24, seed=4, encoding=encoding)
    net.w1 *= 20
    want = net.forward(encode(boards, flips=flip, encoding=encoding))
    np.testing.assert_allclose(net.evaluate(boards, flip, 0), want, rtol=1e-10)


@pytest.mark.parametrize("encoding", [2, 3])
def test_a_later_encoding_round_trips_through_a_file(tmp_path: Path, encoding: int) -> None:
    net = Network.initial("classic", "gammons", 16, seed=5, encoding=encoding)
    net.meta = {"games": 3}
    net.save(tmp_path / "n.npz")
    back = Network.load(tmp_path / "n.npz")
    assert back.encoding == encoding and back.w1.shape == (N_INPUTS_OF[encoding], 16)
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, name), getattr(net, name))
    boards = sample_boards("classic", 9)
    assert np.array_equal(back.evaluate(boards), net.evaluate(boards))


def test_a_widened_network_evaluates_exactly_like_the_original() -> None:
    old = shipped("acey-deucey")  # a shipped network of encoding 1
    wide = widen(old, 2)
    assert wide.encoding == 2 and old.encoding == 1
    assert np.array_equal(wide.w1[:N_INPUTS], old.w1) and not wide.w1[N_INPUTS:].any()
    assert wide.meta["history"][-1] == {"games": old.meta["games"], "widened": [1, 2]}
    for variant in ("classic", "acey-deucey"):
        boards = sample_boards(variant, 21)
        for flip, pending in ((False, 0), (True, 0), (False, 1)):
            assert np.array_equal(
                wide.evaluate(boards, flip, pending), old.evaluate(boards, flip, pending)
            )
    # and it learns on the new inputs: they are not all zero in play
    assert np.count_nonzero(encode(sample_boards("classic", 21), encoding=2)[:, N_INPUTS:]) > 0


def test_the_shipped_classic_network_widened_to_encoding_3_plays_as_before() -> None:
    old = shipped("classic")  # encoding 2
    wide = widen(old, 3)
    assert wide.encoding == 3 and old.encoding == 2
    assert not wide.w1[N_INPUTS_OF[2] :].any()
    assert wide.meta["history"][-1] == {"games": old.meta["games"], "widened": [2, 3]}
    boards = sample_boards("classic", 21)
    for flip in (False, True):
        assert np.array_equal(wide.evaluate(boards, flip, 0), old.evaluate(boards, flip, 0))
    with pytest.raises(ValueError, match="cannot narrow"):
        widen(wide, 2)


def test_a_grown_network_evaluates_exactly_like_the_original() -> None:
    old = shipped("classic")
    big = grow(old, old.hidden + 24, seed=5)
    assert big.hidden == old.hidden + 24 and big.w2.shape == (old.hidden + 24, old.w2.shape[1])
    assert np.array_equal(big.w1[:, : old.hidden], old.w1) and not big.w2[old.hidden :].any()
    assert big.w1[:, old.hidden :].any()  # the new units see the board: they can learn
    wider = old.hidden + 24
    assert big.meta["history"][-1] == {"games": old.meta["games"], "grown": [old.hidden, wider]}
    assert big.meta["hyper"]["hidden"] == wider and old.meta["hyper"]["hidden"] == old.hidden
    assert np.array_equal(grow(old, wider, seed=5).w1, big.w1)  # drawn from the seed
    for flip, pending in ((False, 0), (True, 0)):
        boards = sample_boards("classic", 21)
        assert np.allclose(
            big.evaluate(boards, flip, pending), old.evaluate(boards, flip, pending),
            rtol=0, atol=1e-12,
        )  # fmt: skip
    assert np.array_equal(grow(old, old.hidden, seed=5).w1, old.w1)  # the same size: a copy
    with pytest.raises(ValueError, match="cannot shrink"):
        grow(old, 64, seed=5)


def test_a_header_and_weights_that_disagree_are_refused(tmp_path: Path) -> None:
    net = Network.initial("classic", "gammons", 8, seed=1, encoding=2)
    net.w1 = net.w1[:N_INPUTS]  # encoding 1's rows ...
    net.save(tmp_path / "n.npz")
    with np.load(tmp_path / "n.npz") as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(str(arrays["header"]))
    header["encoding_version"] = 2  # ... under a header of encoding 2
    arrays["header"] = np.array(json.dumps(header))
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ArgumentError) as err:
        Network.load(tmp_path / "bad.npz")
    assert err.value.code == "bg.net.shape"
