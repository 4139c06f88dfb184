"""Sessions over any game (core/session.py): length, rotation, interruptions, resuming."""

from __future__ import annotations

import pytest

from aceydeucey import load_game, replay
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import State
from aceydeucey.core.session import Session, play_session, starter_option


class _Interrupt:
    """A listener that stops the session (like Ctrl-C) after ``after`` transitions."""

    def __init__(self, after: int) -> None:
        self.left = after

    def __call__(self, before: State, action: object, after: State) -> None:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt


def test_a_session_runs_over_a_game_with_decisions() -> None:
    # Backgammon has decisions and no starter option: random agents play, roll-off only.
    game = load_game("backgammon", variant="classic")
    session = play_session(game, 2, chance=Seeded(4))
    assert session.games == 2 and sum(session.wins) == 2
    assert session.starters == [None, None]
    for record in session.records:
        assert replay(record).is_terminal()


def test_rotation_needs_a_game_that_names_its_starter() -> None:
    assert starter_option(load_game("aces-in-the-pot")) == "first_roller"
    assert starter_option(load_game("backgammon")) is None
    with pytest.raises(ArgumentError, match="cannot rotate"):
        play_session(load_game("backgammon"), 2, start="rotate")


def test_an_interrupted_session_keeps_the_finished_games_and_the_unfinished_one() -> None:
    game = load_game("aces-in-the-pot", players=3)
    whole = play_session(game, 3, chance=Seeded(9))
    first_two = len(whole.records[0].actions) + len(whole.records[1].actions)
    session = Session(game, ["a", "b", "c"])
    with pytest.raises(KeyboardInterrupt):
        session.play(3, chance=Seeded(9), listeners=[_Interrupt(first_two + 2)])
    assert session.games == 2
    assert [r.actions for r in session.records] == [r.actions for r in whole.records[:2]]
    unfinished = session.unfinished()
    assert unfinished is not None and unfinished.result is not None
    assert unfinished.result["terminal"] is False
    assert unfinished.actions == whole.records[2].actions[:2]
    assert not replay(unfinished).is_terminal()


def test_a_resumed_game_continues_from_its_record_and_counts_its_roll_off_winner() -> None:
    game = load_game("aces-in-the-pot", players=4)
    whole = play_session(game, 1, chance=Seeded(2))
    cut = 6
    session = Session(game, ["a", "b", "c", "d"])
    with pytest.raises(KeyboardInterrupt):
        session.play(1, chance=Seeded(2), listeners=[_Interrupt(cut)])
    unfinished = session.unfinished()
    assert unfinished is not None
    resumed = Session(game, ["a", "b", "c", "d"]).play(1, chance=Seeded(5), resume=unfinished)
    assert resumed.games == 1
    record = resumed.records[0]
    assert record.actions[:cut] == whole.records[0].actions[:cut]
    assert replay(record).is_terminal()
    # The roll-off (4 dice unless tied) lies in the replayed part: the same starter.
    state = game.new_initial_state()
    for text in unfinished.actions:
        state = state.apply(text)
    assert state.phase_name() != "roll-off"
    assert resumed.starters == whole.starters and resumed.starters[0] is not None


def test_a_session_refuses_bad_arguments_with_codes() -> None:
    game = load_game("aces-in-the-pot", players=3)
    with pytest.raises(ArgumentError) as info:
        Session(game, ["a", "b"])
    assert info.value.code == "session.names"
    with pytest.raises(ArgumentError) as info:
        Session(game, ["a", "b", "c"]).play(0)
    assert info.value.code == "session.bad_games" and "pelo menos" in info.value.render("pt")
    other = play_session(load_game("backgammon"), 1, chance=Seeded(1)).records[0]
    with pytest.raises(ArgumentError, match="cannot resume"):
        Session(game, ["a", "b", "c"]).play(1, resume=other)
