"""Provably fair dealing (``core/fairness.py``, ``docs/fairness.md``): commit, cut, reveal, verify.

The scheme is re-implemented here from the document alone (``_reference_draw``), so
the engine's draws are checked against the specification, not against themselves.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import aceydeucey
from aceydeucey.cli.app import app
from aceydeucey.core import RandomAgent, Record, Table
from aceydeucey.core.errors import ArgumentError, RecordError
from aceydeucey.core.fairness import (
    MAX_CUT_BYTES,
    SCHEME,
    FairChance,
    commitment,
    cutting_seat,
    draw_stream,
    fair_draw,
    new_cut,
    new_server_seed,
    uniform_below,
    verify,
)
from aceydeucey.core.game import Game, State

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
SEED = bytes(range(32))
CUT = b"ana"
runner = CliRunner()

#: (game id, options, steps to play or None for the whole game)
GAMES: list[tuple[str, dict[str, Any], int | None]] = [
    ("inbetween", {"preset": "guide", "players": 3}, None),
    ("inbetween", {"players": 4, "decks": 2, "hidden": True, "deal": "both-around"}, None),
    ("inbetween", {"preset": "red-dog", "players": 3, "rounds": 2}, None),
    ("aces-in-the-pot", {"players": 3}, None),
    ("backgammon", {"variant": "classic"}, None),
    ("backgammon", {}, 40),
]
GAME_IDS = [f"{g}-{i}" for i, (g, _, _) in enumerate(GAMES)]


# -- the reference implementation, written from docs/fairness.md ------------------------------
def _reference_bytes(seed: bytes, cut: bytes, index: int) -> Iterator[int]:
    block = 0
    while True:
        msg = struct.pack(">I", len(cut)) + cut + struct.pack(">QI", index, block)
        yield from hmac.new(seed, msg, hashlib.sha256).digest()
        block += 1


def _reference_draw(seed: bytes, cut: bytes, index: int, total: int) -> int:
    k = 1
    while 256**k < total:
        k += 1
    limit = (256**k // total) * total
    stream = _reference_bytes(seed, cut, index)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(k)), "big")
        if x < limit:
            return x % total


def _reference_outcome(state: State, draw: int) -> str:
    dist = state.chance_distribution()
    acc = 0
    for action, weight in zip(dist.actions, dist.weights, strict=True):
        acc += weight
        if draw < acc:
            return str(action)
    raise AssertionError("draw beyond the total")


# -- helpers ----------------------------------------------------------------------------------
def _play(
    game_id: str,
    options: dict[str, Any],
    steps: int | None,
    seed: bytes = SEED,
    cut: bytes = CUT,
    bots: int = 7,
) -> Record:
    game = aceydeucey.load_game(game_id, **options)
    chance = FairChance(seed, cut)
    agents = [RandomAgent(bots + i) for i in range(game.num_players)]
    record = Table(game, agents, chance=chance).play(max_steps=steps)
    record.fairness = chance.fairness(reveal=True)
    return record


def _states(record: Record) -> list[State]:
    """The state before each action of ``record``."""
    state = record.make_game().new_initial_state()
    out = []
    for text in record.actions:
        out.append(state)
        state = state.apply(text)
    return out


def _chance_indexes(record: Record) -> list[int]:
    return [i for i, s in enumerate(_states(record)) if s.is_chance_node()]


def _copy(record: Record) -> Record:
    return Record.from_dict(json.loads(record.to_json()))


@pytest.fixture(scope="module", params=range(len(GAMES)), ids=GAME_IDS)
def played(request: pytest.FixtureRequest) -> Record:
    game_id, options, steps = GAMES[request.param]
    return _play(game_id, options, steps)


# -- seeds and commitments --------------------------------------------------------------------
def test_server_seeds_are_32_fresh_bytes() -> None:
    seeds = {new_server_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(len(s) == 32 for s in seeds)
    assert len(new_cut()) == 16 and new_cut() != new_cut()


def test_commitment_is_the_hex_sha256_of_the_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert FairChance(SEED).commitment == commitment(SEED)


def test_the_fairness_field_shows_the_seed_only_when_revealed() -> None:
    chance = FairChance(SEED, "ana")
    hidden = chance.fairness(reveal=False)
    assert hidden == {
        "scheme": SCHEME,
        "commitment": commitment(SEED),
        "cut": "616e61",
        "server_seed": None,
    }
    assert chance.fairness(reveal=True)["server_seed"] == SEED.hex()
    assert SEED.hex() not in repr(chance)


def test_bad_arguments_are_coded_errors() -> None:
    with pytest.raises(ArgumentError) as err:
        FairChance(b"short")
    assert err.value.code == "fairness.seed_length"
    with pytest.raises(ArgumentError) as err:
        FairChance(SEED, b"x" * (MAX_CUT_BYTES + 1))
    assert err.value.code == "fairness.cut_too_long"
    assert "1024" in err.value.render("pt")
    with pytest.raises(ArgumentError) as err:
        FairChance(SEED, draws=-1)
    assert err.value.code == "fairness.bad_draws"
    with pytest.raises(ArgumentError) as err:
        uniform_below(0, iter([1]))
    assert err.value.code == "fairness.bad_total"
    game = aceydeucey.load_game("inbetween", players=2)
    state = game.new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(ArgumentError) as err:
        FairChance(SEED).choose(state)
    assert err.value.code == "fairness.not_chance_node"


# -- the exact draw ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "stream", "draw"),
    [
        (3, [0], 0),
        (3, [254], 2),  # 254 < 255 = 85 * 3: accepted, 254 % 3
        (3, [255, 7], 1),  # 255 is rejected, then 7 % 3
        (3, [255, 255, 3], 0),
        (6, [252, 251], 5),  # limit 252 = 42 * 6
        (52, [207], 51),  # limit 208 = 4 * 52
        (52, [208, 209, 255, 53], 1),
        (256, [255], 255),  # no rejection when total divides 256
        (1, [255], 0),
        (257, [255, 255, 0, 5], 5),  # two bytes; limit 65535 = 255 * 257
        (257, [1, 2], 258 % 257),
    ],
)
def test_rejection_boundaries(total: int, stream: list[int], draw: int) -> None:
    it = iter(stream)
    assert uniform_below(total, it) == draw
    assert next(it, None) is None  # every byte of the stream consumed, no more


def _accepted_counts(total: int) -> Counter[int]:
    k = 1 if total <= 256 else 2
    counts: Counter[int] = Counter()
    for x in range(256**k):
        try:
            counts[uniform_below(total, iter(x.to_bytes(k, "big")))] += 1
        except ArgumentError as exc:  # rejected: the stream had no more bytes
            assert exc.code == "fairness.stream_ended"
            assert x >= 256**k - 256**k % total
    return counts


@pytest.mark.parametrize("totals", [range(1, 257), [257, 300, 1000, 65536]], ids=["1", "2"])
def test_every_outcome_gets_exactly_the_same_number_of_accepted_inputs(
    totals: range | list[int],
) -> None:
    """Over every possible k-byte input, each outcome is hit equally often (exactly uniform)."""
    for total in totals:
        k = 1 if total <= 256 else 2
        counts = _accepted_counts(total)
        assert set(counts) == set(range(total))
        assert len(set(counts.values())) == 1
        assert sum(counts.values()) == 256**k - 256**k % total


@pytest.mark.parametrize("total", [6, 36, 52])
def test_draws_pass_a_chi_square_test(total: int) -> None:
    n = 600 * total
    counts = Counter(fair_draw(SEED, CUT, i, total) for i in range(n))
    expected = n / total
    chi2 = sum((counts[v] - expected) ** 2 / expected for v in range(total))
    # dof = total - 1; the 1e-6 quantile is far below 3 * dof + 30 for these sizes
    assert chi2 < 3 * (total - 1) + 30, chi2


def test_the_engine_draws_what_the_document_specifies() -> None:
    for index in range(300):
        for total in (1, 3, 30, 36, 52, 104, 257, 10**6):
            assert fair_draw(SEED, CUT, index, total) == _reference_draw(SEED, CUT, index, total)
    assert list(zip(range(64), draw_stream(SEED, CUT, 5), strict=False)) == list(
        zip(range(64), _reference_bytes(SEED, CUT, 5), strict=False)
    )


def test_the_worked_example_in_the_docs_is_right() -> None:
    text = DOCS.read_text(encoding="utf-8")
    msg = struct.pack(">I", 3) + b"ana" + struct.pack(">QI", 0, 0)
    block = hmac.new(SEED, msg, hashlib.sha256).hexdigest()
    assert commitment(SEED) in text
    assert msg.hex() in text and block in text
    game = aceydeucey.load_game("inbetween", preset="guide", players=3)
    first = FairChance(SEED, CUT).choose(game.new_initial_state())
    assert f"`{first}`" in text
    assert str(fair_draw(SEED, CUT, 0, 52)) in text


def test_draw_i_depends_only_on_seed_cut_and_i() -> None:
    a, b = FairChance(SEED, CUT), FairChance(SEED, CUT, draws=10)
    first = [a.draw(52) for _ in range(15)]
    assert [b.draw(52) for _ in range(5)] == first[10:]
    assert b.draws == 15
    assert [fair_draw(SEED, b"bo", i, 10**9) for i in range(3)] != [
        fair_draw(SEED, CUT, i, 10**9) for i in range(3)
    ]


# -- games played with FairChance -------------------------------------------------------------
def test_a_fair_game_verifies(played: Record) -> None:
    result = verify(played)
    chance_count = len(_chance_indexes(played))
    assert result.ok, result.render()
    assert result.draws == chance_count > 0
    assert result.index is None and result.expected is None
    assert str(chance_count) in result.render("en") and str(chance_count) in result.render("pt")


def test_each_outcome_is_the_documented_draw(played: Record) -> None:
    seed = bytes.fromhex(played.fairness["server_seed"])  # type: ignore[index]
    cut = bytes.fromhex(played.fairness["cut"])  # type: ignore[index]
    draw = 0
    for state, text in zip(_states(played), played.actions, strict=True):
        if state.is_chance_node():
            total = state.chance_distribution().total
            assert text == _reference_outcome(state, _reference_draw(seed, cut, draw, total))
            draw += 1


def test_one_changed_card_or_die_fails_at_its_index(played: Record) -> None:
    states = _states(played)
    chance = _chance_indexes(played)
    for pick in (chance[0], chance[len(chance) // 2], chance[-1]):
        other = next(str(a) for a in states[pick].legal_actions() if str(a) != played.actions[pick])
        tampered = _copy(played)
        tampered.actions[pick] = other
        result = verify(tampered)
        assert not result.ok and result.code == "fairness.mismatch"
        assert result.index == pick and result.draw == chance.index(pick)
        assert result.recorded == other and result.expected == played.actions[pick]
        assert f"#{pick}" in result.render("en") and f"n.º {pick}" in result.render("pt")


def test_a_changed_cut_fails_at_the_first_draw_that_differs(played: Record) -> None:
    tampered = _copy(played)
    assert tampered.fairness is not None
    tampered.fairness["cut"] = b"someone else".hex()
    states = _states(played)
    expected_index = None
    for draw, i in enumerate(_chance_indexes(played)):
        total = states[i].chance_distribution().total
        outcome = _reference_outcome(states[i], _reference_draw(SEED, b"someone else", draw, total))
        if outcome != played.actions[i]:
            expected_index = i
            break
    assert expected_index is not None
    result = verify(tampered)
    assert not result.ok and result.code == "fairness.mismatch"
    assert result.index == expected_index


def test_a_changed_seed_fails(played: Record) -> None:
    other = bytes(reversed(SEED))
    wrong_commitment = _copy(played)
    assert wrong_commitment.fairness is not None
    wrong_commitment.fairness["server_seed"] = other.hex()
    result = verify(wrong_commitment)
    assert not result.ok and result.code == "fairness.bad_commitment"
    assert result.params["actual"] == commitment(other)
    # a consistent new seed and commitment (a server swapping both) still fails on the draws
    swapped = _copy(played)
    assert swapped.fairness is not None
    swapped.fairness.update(server_seed=other.hex(), commitment=commitment(other))
    result = verify(swapped)
    assert not result.ok and result.code == "fairness.mismatch"
    assert result.index in _chance_indexes(played)


def test_the_same_seed_and_cut_reproduce_the_same_game() -> None:
    for game_id, options, steps in GAMES[:4]:
        steps = steps or 60
        a = _play(game_id, options, steps)
        b = _play(game_id, options, steps)
        c = _play(game_id, options, steps, cut=b"another cut")
        assert a.actions == b.actions
        assert a.actions != c.actions


def test_a_table_rebuilt_from_its_record_resumes_the_stream(played: Record) -> None:
    states = _states(played)
    chance = _chance_indexes(played)
    half = chance[len(chance) // 2]
    resumed = FairChance(SEED, CUT, draws=chance.index(half))
    assert str(resumed.choose(states[half])) == played.actions[half]


def test_the_cut_is_added_before_the_first_draw_only() -> None:
    committed = FairChance(SEED)
    cut = committed.with_cut("ana")
    assert cut.commitment == committed.commitment and cut.cut == CUT and cut.draws == 0
    cut.draw(52)
    with pytest.raises(ArgumentError) as err:
        cut.with_cut(b"later")
    assert err.value.code == "fairness.cut_after_draw"


def test_resume_continues_a_record_where_it_stopped() -> None:
    whole = _play("inbetween", {"preset": "guide", "players": 3}, None)
    chance = _chance_indexes(whole)
    nxt = chance[len(chance) // 2]
    part = _play("inbetween", {"preset": "guide", "players": 3}, nxt)
    assert part.actions == whole.actions[:nxt]
    resumed = FairChance.resume(part, SEED)
    assert resumed.draws == chance.index(nxt) and resumed.cut == CUT
    assert str(resumed.choose(_states(whole)[nxt])) == whole.actions[nxt]
    with pytest.raises(ArgumentError) as err:
        FairChance.resume(part, bytes(32))
    assert err.value.code == "fairness.wrong_seed"
    part.fairness = None
    with pytest.raises(RecordError) as rec:
        FairChance.resume(part, SEED)
    assert rec.value.code == "fairness.missing"


def test_non_canonical_spelling_of_the_right_card_still_verifies() -> None:
    record = _play("inbetween", {"players": 2, "rounds": 1}, None)
    i = next(i for i, a in enumerate(record.actions) if a[-1] in "CDHS" and a[0].isalpha())
    record.actions[i] = record.actions[i].lower()
    assert verify(record).ok


def test_a_record_that_does_not_replay_names_the_action() -> None:
    record = _play("inbetween", {"preset": "guide", "players": 3}, None)
    i = next(i for i, a in enumerate(record.actions) if a.startswith("bet") or a == "pass")
    record.actions[i] = "bet 100000"
    result = verify(record)
    assert not result.ok and result.code == "fairness.replay_failed" and result.index == i
    assert "100000" in result.render("pt")


def test_a_changed_result_fails() -> None:
    record = _play("aces-in-the-pot", {"players": 3}, None)
    assert record.result is not None
    record.result["returns"] = ["5", "-5", "0"]
    result = verify(record)
    assert not result.ok and result.code == "record.result_differs"
    assert result.params["field"] == "returns"


def test_an_unfinished_record_verifies_what_it_holds() -> None:
    record = _play("inbetween", {"players": 3}, 8)
    result = verify(record)
    assert result.ok and result.code == "fairness.verified_unfinished"


# -- records ----------------------------------------------------------------------------------
def test_records_without_fairness_data_cannot_be_verified() -> None:
    record = _play("inbetween", {"players": 2, "rounds": 1}, None)
    record.fairness = None
    with pytest.raises(RecordError) as err:
        verify(record)
    assert err.value.code == "fairness.missing"
    record.fairness = FairChance(SEED, CUT).fairness(reveal=False)
    with pytest.raises(RecordError) as err:
        verify(record)
    assert err.value.code == "fairness.not_revealed"
    assert "revelada" in err.value.render("pt")
    record.fairness = {**FairChance(SEED).fairness(True), "scheme": "sha1-v0"}
    with pytest.raises(RecordError) as err:
        verify(record)
    assert err.value.code == "fairness.unknown_scheme"


def test_the_fairness_field_survives_save_and_load(played: Record, tmp_path: Path) -> None:
    loaded = Record.load(played.save(tmp_path / "r.json"))
    assert loaded.fairness == played.fairness
    assert verify(loaded).ok


def test_old_records_without_the_field_still_load() -> None:
    data = json.loads(_play("inbetween", {"players": 2, "rounds": 1}, None).to_json())
    del data["fairness"]
    assert Record.from_dict(data).fairness is None


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ("not an object", "record.fairness_not_object"),
        ({"scheme": ""}, "record.fairness_no_scheme"),
        ({"commitment": "ABCDEF" * 10 + "ABCD"}, "record.fairness_not_hex"),
        ({"commitment": "ab"}, "record.fairness_bad_length"),
        ({"cut": "abc"}, "record.fairness_not_hex"),
        ({"cut": 12}, "record.fairness_not_hex"),
        ({"server_seed": "00" * 31}, "record.fairness_bad_length"),
    ],
)
def test_a_malformed_fairness_field_is_refused_on_load(change: Any, code: str) -> None:
    data = json.loads(_play("inbetween", {"players": 2, "rounds": 1}, None).to_json())
    data["fairness"] = change if isinstance(change, str) else {**data["fairness"], **change}
    with pytest.raises(RecordError) as err:
        Record.from_dict(data)
    assert err.value.code == code
    assert "fairness" in err.value.render("pt")


# -- who cuts ---------------------------------------------------------------------------------
def _game(game_id: str, **options: Any) -> Game:
    return aceydeucey.load_game(game_id, **options)


@pytest.mark.parametrize(
    ("game_id", "options", "seat"),
    [
        ("inbetween", {"players": 3}, 2),  # dealer 0: the dealer's right is seat 2
        ("inbetween", {"players": 3, "dealer": 1}, 0),
        ("inbetween", {"players": 5, "dealer": 3}, 2),
        ("inbetween", {"players": 4, "dealer": "draw"}, 3),
        ("inbetween", {"players": 2}, 1),
        ("aces-in-the-pot", {"players": 4}, 3),
        ("aces-in-the-pot", {"players": 4, "first_roller": 2}, 1),
        ("aces-in-the-pot", {"players": 3, "first_roller": 0}, 2),
        ("backgammon", {}, 1),
        ("backgammon", {"variant": "classic"}, 1),
    ],
)
def test_the_seat_on_the_starters_right_cuts(
    game_id: str, options: dict[str, Any], seat: int
) -> None:
    game = _game(game_id, **options)
    assert cutting_seat(game, game.new_initial_state()) == seat
    assert cutting_seat(game) == seat


# -- property ---------------------------------------------------------------------------------
_GAME_CHOICES = st.one_of(
    st.tuples(
        st.just("inbetween"),
        st.fixed_dictionaries(
            {
                "preset": st.sampled_from(["guide", "banker", "sheets", "red-dog", "three-posts"]),
                "players": st.integers(2, 5),
                "rounds": st.integers(1, 2),
                "decks": st.integers(1, 2),
            }
        ),
        st.none(),
    ),
    st.tuples(
        st.just("aces-in-the-pot"),
        st.fixed_dictionaries({"players": st.integers(3, 6)}),
        st.none(),
    ),
    st.tuples(st.just("backgammon"), st.just({"variant": "classic"}), st.just(30)),
)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    choice=_GAME_CHOICES,
    seed=st.binary(min_size=32, max_size=32),
    cut=st.binary(max_size=64),
    bots=st.integers(0, 10**6),
)
def test_any_record_played_with_fair_chance_verifies(
    choice: tuple[str, dict[str, Any], int | None], seed: bytes, cut: bytes, bots: int
) -> None:
    game_id, options, steps = choice
    record = _play(game_id, options, steps, seed=seed, cut=cut, bots=bots)
    result = verify(_copy(record))
    assert result.ok, result.render()
    assert result.draws == sum(1 for s in _states(record) if s.is_chance_node())


# -- the command ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("records")
    record = _play("inbetween", {"preset": "guide", "players": 3}, None)
    paths = {"ok": record.save(folder / "ok.json")}
    pick = _chance_indexes(record)[3]
    tampered = _copy(record)
    tampered.actions[pick] = next(
        str(a) for a in _states(record)[pick].legal_actions() if str(a) != record.actions[pick]
    )
    paths["bad"] = tampered.save(folder / "bad.json")
    hidden = _copy(record)
    assert hidden.fairness is not None
    hidden.fairness["server_seed"] = None
    paths["hidden"] = hidden.save(folder / "hidden.json")
    (folder / "junk.json").write_text("{ not json", encoding="utf-8")
    paths["junk"] = folder / "junk.json"
    paths["missing"] = folder / "nowhere.json"
    (folder / "binary.json").write_bytes(bytes(range(256)))
    paths["binary"] = folder / "binary.json"
    return paths


def test_verify_command_accepts_a_fair_record(saved: dict[str, Path]) -> None:
    result = runner.invoke(app, ["verify", str(saved["ok"]), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "the record verifies" in result.output
    assert "chance outcomes match the committed seed" in result.output
    assert commitment(SEED) in result.output and CUT.hex() in result.output
    result = runner.invoke(app, ["verify", str(saved["ok"]), "--lang", "pt"])
    assert result.exit_code == 0
    assert "o registo confere" in result.output and "correspondem" in result.output


def test_verify_command_names_the_mismatch(saved: dict[str, Path]) -> None:
    record = Record.load(saved["bad"])
    pick = verify(record).index
    result = runner.invoke(app, ["verify", str(saved["bad"]), "--lang", "en"])
    assert result.exit_code == 1
    assert "does NOT verify" in result.output and f"action #{pick}" in result.output
    result = runner.invoke(app, ["verify", str(saved["bad"]), "--lang", "pt"])
    assert result.exit_code == 1
    assert "NÃO confere" in result.output and f"ação n.º {pick}" in result.output
    assert "Traceback" not in result.output


def test_verify_command_json(saved: dict[str, Path]) -> None:
    good = json.loads(runner.invoke(app, ["verify", str(saved["ok"]), "--json"]).output)
    assert good["ok"] is True and good["code"] == "fairness.verified"
    assert good["commitment"] == commitment(SEED)
    result = runner.invoke(app, ["verify", str(saved["bad"]), "--json", "--lang", "pt"])
    bad = json.loads(result.output)
    assert result.exit_code == 1 and bad["ok"] is False and bad["code"] == "fairness.mismatch"
    assert bad["index"] == verify(Record.load(saved["bad"])).index
    assert bad["expected"] != bad["recorded"] and "tiragem" in bad["message"]


@pytest.mark.slow
def test_verify_command_exit_codes_for_records_it_cannot_check(saved: dict[str, Path]) -> None:
    result = runner.invoke(app, ["verify", str(saved["hidden"]), "--lang", "pt"])
    assert result.exit_code == 1 and "ainda não foi revelada" in result.output
    result = runner.invoke(app, ["verify", str(saved["hidden"]), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["error"]["code"] == "fairness.not_revealed"
    for name in ("junk", "missing", "binary"):
        result = runner.invoke(app, ["verify", str(saved[name]), "--lang", "en"])
        assert result.exit_code == 2, result.output
        assert "unreadable record" in result.output and "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
