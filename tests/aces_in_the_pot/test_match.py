"""Match play and who starts each game (family-games-treasurehouse and seed 004).

family-games-treasurehouse: "the first player to win the pot three times" wins
the match, and "in round 2 the next player starts".  Seed 004: "roll a single
die each, and the highest number goes first".  Seats are numbered clockwise;
the seat to the left of seat i is seat i + 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from aceydeucey import Record, RulesError, load_game, replay
from aceydeucey.aces_in_the_pot.analysis import solve
from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
from aceydeucey.aces_in_the_pot.rules import AcesRules
from aceydeucey.aces_in_the_pot.sheet import rules_sheet
from aceydeucey.cli.app import app
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.session import Session, play_session

runner = CliRunner()


def game(players: int = 4, **options: object) -> AcesInThePotGame:
    g = load_game("aces-in-the-pot", players=players, **options)
    assert isinstance(g, AcesInThePotGame)
    return g


def rolloff_winner(record: Record) -> int | None:
    """Replay a record's opening by hand: the seat that won its roll-off, if it had one."""
    g = game(**{k: v for k, v in record.rules.items() if k != "preset"})
    state = g.new_initial_state()
    if state.phase != "roll-off":
        return None
    for action in record.actions:
        nxt = state.apply(action)
        assert isinstance(nxt, AcesInThePotState)
        state = nxt
        if state.phase != "roll-off":
            return state.roller
    raise AssertionError("the roll-off never ended")


# -- the first_roller option ---------------------------------------------------------
def test_first_roller_skips_the_roll_off_and_that_seat_throws_first() -> None:
    # With first_roller = 2 at a 4-seat table there is no roll-off: seat 2 throws both dice.
    state = game(4, first_roller=2).new_initial_state()
    assert state.phase == "play" and state.roller == 2
    assert state.chips == (2, 2, 2, 2) and state.pot == 0
    assert all(" " not in str(a) for a in state.legal_actions())  # "5-3", never "die 4"
    # Without it the game opens with the roll-off, seat 0's die first.
    default = game(4).new_initial_state()
    assert default.phase == "roll-off" and default.roller == 0


def test_first_roller_must_be_a_seat_of_the_table() -> None:
    # Seat 3 does not exist at a 3-seat table: the error names both options.
    words = r"“First to roll: Seat 4” is not a seat at the table \(“Players: 3”\)"
    with pytest.raises(RulesError, match=words) as err:
        game(3, first_roller=3)
    assert err.value.params["options"] == ["first_roller", "players"]
    with pytest.raises(RulesError, match="“First to roll: Seat 0”") as err:
        game(3, first_roller=-1)
    assert err.value.params["first_roller"] == -1


def test_first_roller_round_trips_through_the_rules_dictionary() -> None:
    rules = AcesRules.resolve(players=5, first_roller=4)
    assert AcesRules.from_dict(rules.to_dict()) == rules
    assert AcesRules.parse_option("first_roller", "none") is None


# -- who starts each game ---------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 6))
def test_rotate_starts_each_game_one_seat_to_the_left(seed: int, players: int) -> None:
    # Game 1 by roll-off; game k + 1 is started by the seat left of game k's first roller.
    session = play_session(game(players), 5, start="rotate", chance=Seeded(seed))
    first = rolloff_winner(session.records[0])
    assert first is not None
    assert session.starters == [(first + k) % players for k in range(5)]
    for k, record in enumerate(session.records[1:], 1):
        assert record.rules["first_roller"] == (first + k) % players
        assert rolloff_winner(record) is None  # no roll-off after game 1


def test_roll_off_start_rolls_off_in_every_game() -> None:
    # The default: every game opens with a single die each (seed 004).
    session = play_session(game(4), 4, chance=Seeded(11))
    for record, first in zip(session.records, session.starters, strict=True):
        assert record.actions[0].startswith("die ")
        assert record.rules["first_roller"] is None
        assert rolloff_winner(record) == first


def test_rotate_refuses_rules_that_already_fix_the_first_roller() -> None:
    with pytest.raises(ArgumentError, match=r"rotate.*first_roller"):
        play_session(game(4, first_roller=1), 2, start="rotate")
    with pytest.raises(ArgumentError, match="accepted: roll-off, rotate"):
        play_session(game(4), 2, start="clockwise")  # type: ignore[arg-type]


# -- first to N ---------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    target=st.integers(1, 3),
    start=st.sampled_from(["roll-off", "rotate"]),
)
def test_first_to_n_stops_at_the_game_that_brings_a_seat_to_n(
    seed: int, target: int, start: str
) -> None:
    # "The first player to win the pot three times" (here N times) wins the match.
    session = play_session(game(3), first_to=target, start=start, chance=Seeded(seed))  # type: ignore[arg-type]
    assert max(session.wins) == target
    assert session.wins.count(target) == 1  # one winner per game: never a tie
    assert session.winner == session.wins.index(target)
    last = replay(session.records[-1])
    assert isinstance(last, AcesInThePotState) and last.winner == session.winner
    before = list(session.wins)
    before[session.winner] -= 1
    assert max(before) < target  # the match was still open before its last game
    assert target <= session.games <= 3 * (target - 1) + 1


def test_a_session_needs_exactly_one_of_games_and_first_to() -> None:
    with pytest.raises(ArgumentError, match="not both"):
        play_session(game(3), 2, first_to=2)
    with pytest.raises(ArgumentError, match="not both"):
        play_session(game(3))
    with pytest.raises(ArgumentError, match="at least 1 win"):
        play_session(game(3), first_to=0)


def test_a_fixed_number_of_games_can_end_level_and_then_has_no_winner() -> None:
    # Two games won by two different seats: nobody won the session.
    tied = Session(game(3), ["a", "b", "c"], wins=[1, 1, 0])
    assert tied.winner is None and tied.leaders() == [0, 1]
    clear = Session(game(3), ["a", "b", "c"], wins=[2, 1, 0])
    assert clear.winner == 0
    # A first-to-3 match where the leader has 2 is not over yet.
    open_match = Session(game(3), ["a", "b", "c"], target=3, wins=[2, 1, 0])
    assert open_match.winner is None


# -- records -------------------------------------------------------------------------
def test_every_record_of_a_rotating_match_replays_on_its_own(tmp_path: Path) -> None:
    session = play_session(game(4), first_to=2, start="rotate", chance=Seeded(7))
    wins = [0, 0, 0, 0]
    for k, record in enumerate(session.records):
        path = tmp_path / f"g{k}.json"
        record.save(path)
        final = replay(Record.load(path))
        assert isinstance(final, AcesInThePotState) and final.is_terminal()
        assert final.winner is not None
        wins[final.winner] += 1
    assert wins == session.wins


# -- exact analysis ---------------------------------------------------------------------
def test_analysis_with_another_first_roller_rotates_the_win_vector() -> None:
    # By symmetry, seat s with seat r first has seat s - r's chance with seat 0 first.
    base = solve(AcesRules.resolve(players=3), exact=True)
    turned = solve(AcesRules.resolve(players=3, first_roller=1), exact=True)
    assert base.win_probability_exact is not None and turned.win_probability_exact is not None
    p = base.win_probability_exact
    assert turned.win_probability_exact == (p[2], p[0], p[1])
    assert turned.expected_rolls_exact == base.expected_rolls_exact


def test_simulation_with_another_first_roller_turns_the_same_games() -> None:
    # Same dice, the table turned one seat: the tallies turn with it, exactly.
    from aceydeucey.aces_in_the_pot.simulate import simulate

    base = simulate(AcesRules.resolve(players=4), 400, seed=5)
    turned = simulate(AcesRules.resolve(players=4, first_roller=1), 400, seed=5)
    assert turned.wins == (base.wins[3], base.wins[0], base.wins[1], base.wins[2])
    assert (turned.rolls == base.rolls).all()


def test_the_rules_sheet_names_the_fixed_first_roller() -> None:
    # The option counts seats from 0, as the engine does; a sheet a player reads from 1.
    text = rules_sheet(AcesRules.resolve(first_roller=2), "en")
    assert "seat 3 throws first" in text and "everyone rolls one die" not in text
    assert "everyone rolls one die" in rules_sheet(AcesRules.resolve(), "en")
    assert "o lugar 3 lança primeiro" in rules_sheet(AcesRules.resolve(first_roller=2), "pt")


# -- the terminal -----------------------------------------------------------------------
def test_cli_match_in_english_prints_pots_and_the_match_winner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["play", "aces-in-the-pot", "--watch", "-n", "3", "--first-to", "2", "--start", "rotate"]
    result = runner.invoke(app, [*args, "--seed", "3", "--speed", "fast", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "(first to 2 pots)" in result.stdout and "starts this game" in result.stdout
    assert "Pots won" in result.stdout
    winners = [line for line in result.stdout.splitlines() if "wins the match" in line]
    assert len(winners) == 1 and "with 2 pots" in winners[0]


def test_cli_match_json_in_portuguese_matches_the_saved_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["play", "aces-in-the-pot", "--watch", "-n", "4", "--first-to", "2", "--start", "rotate"]
    result = runner.invoke(app, [*args, "--seed", "8", "--json", "--lang", "pt"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["pots"][data["winner"]] == 2 and sum(data["pots"]) == data["games"]
    assert len(data["records"]) == data["games"] == len(data["first_rollers"])
    wins = [0] * 4
    for path in data["records"]:
        final = replay(Record.load(path))
        assert isinstance(final, AcesInThePotState) and final.winner is not None
        wins[final.winner] += 1
    assert wins == data["pots"]
    text = runner.invoke(app, [*args, "--seed", "8", "--speed", "fast", "--lang", "pt"])
    assert text.exit_code == 0 and "ganha a partida" in text.stdout


def test_cli_refuses_games_and_first_to_together() -> None:
    result = runner.invoke(
        app, ["play", "aces-in-the-pot", "--games", "2", "--first-to", "2", "--json"]
    )
    assert result.exit_code == 2 and "not both" in result.output


@pytest.mark.parametrize("preset", ["seed", "one-holder"])
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_rules_sheet_names_its_source_by_title_not_by_seed_number(
    preset: str, lang: str
) -> None:
    text = rules_sheet(AcesRules.resolve(preset=preset), lang)
    assert "seed 00" not in text
    # the source as a reader finds it, not by the project's own file or numbering
    assert "Aces in the Pot Dice Game Rules" in text and "SOURCES.md" not in text
    assert ("Fonte: " in text) == (lang == "pt")


@pytest.mark.parametrize(
    ("lang", "one", "three"),
    [
        ("en", "up to 1 roll of", "up to 3 rolls of"),
        ("pt", "até 1 lançamento dos", "até 3 lançamentos dos"),
    ],
)
def test_the_rules_sheet_counts_the_finish_rolls_in_the_singular_and_plural(
    lang: str, one: str, three: str
) -> None:
    assert one in rules_sheet(AcesRules.resolve(finish_rolls=1), lang)
    assert three in rules_sheet(AcesRules.resolve(finish_rolls=3), lang)
