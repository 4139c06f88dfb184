"""The engine's shortcuts give the same values as the plain definitions.

The contract loop avoids the dataclass constructors, keeps a roll's plays as
pairs (batch, row) and reads a play's row directly when the turn passes.  These
tests hold each shortcut to the readable way of computing the same thing, at
play nodes of seeded random games.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.backgammon import generate
from aceydeucey.backgammon.board import CHECKERS, Position, make_position
from aceydeucey.backgammon.game import BackgammonState
from aceydeucey.backgammon.notation import Play, Roll, format_moves
from aceydeucey.core.errors import IllegalActionError

#: these tests compare the kernel with the reference: load it first (not in the background)
generate.warm_up()


def _nodes(variant: str, seed: int, count: int) -> list[BackgammonState]:
    """Play nodes of a seeded random game of ``variant`` (new games until ``count``)."""
    game = aceydeucey.load_game("backgammon", variant=variant)
    rng = random.Random(seed)
    nodes: list[BackgammonState] = []
    state: Any = game.new_initial_state()
    while len(nodes) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.phase == "play":
            nodes.append(state)
        actions = state.legal_actions()
        after = state.apply(actions[rng.randrange(len(actions))])
        assert isinstance(after, BackgammonState)
        state = after
    return nodes


@settings(max_examples=15, deadline=None, derandomize=True)
@given(variant=st.sampled_from(["classic", "acey-deucey"]), seed=st.integers(0, 2**31))
def test_a_plays_row_gives_its_result_flipped_and_whether_it_ends_the_game(
    variant: str, seed: int
) -> None:
    # every listed play: the row read directly agrees with the built result
    for state in _nodes(variant, seed, 30):
        for play in state.legal_actions():
            assert isinstance(play, Play)
            assert generate.flipped_result(play) == play.result.flip()
            assert generate.play_ends_game(play) == (play.result.off[0] == CHECKERS)


def test_make_position_is_the_constructor_and_flip_is_an_involution() -> None:
    # the unchecked builder gives an equal, equally hashed, still frozen Position
    for state in _nodes("classic", 1, 40):
        pos = state.position
        built = make_position(pos.points, pos.bar, pos.unentered, pos.off)
        assert built == Position(pos.points, pos.bar, pos.unentered, pos.off)
        assert hash(built) == hash(pos) and repr(built) == repr(pos)
        assert pos.flip().flip() == pos
        assert pos.flip().points == tuple(-n for n in reversed(pos.points))
        with pytest.raises(AttributeError):
            built.bar = (1, 0)  # type: ignore[misc]


def test_listed_plays_behave_as_plain_plays() -> None:
    # equality and hash by result, text as format_moves, pickling and copying give a
    # plain Play, and plays have no order (as the Play dataclass has none)
    state = _nodes("classic", 2, 1)[0]
    plays = list(state.legal_actions())
    assert len(plays) > 1
    for play in plays:
        assert isinstance(play, Play)
        plain = Play(play.moves, play.result, play.unused)
        assert play == plain and plain == play and hash(play) == hash(plain)
        assert str(play) == format_moves(play.moves) == str(plain)
        assert repr(play) == repr(plain)
        for clone in (pickle.loads(pickle.dumps(play)), copy.copy(play), copy.deepcopy(play)):
            assert type(clone) is Play and clone == play and clone.unused == play.unused
        assert plain in state.legal_actions()
    assert plays[0] != plays[1]
    assert (plays[0] == plays[1]) is False
    with pytest.raises(TypeError):
        sorted(plays)  # type: ignore[type-var]


def test_a_rebuilt_roll_and_a_plain_play_are_applied_like_the_listed_ones() -> None:
    # the roll outcome listed by the state and an equal Roll built anew; a listed
    # play and the equal plain Play: same next state, same observation
    game = aceydeucey.load_game("backgammon", variant="classic")
    state = game.new_initial_state().apply("opening 5-3")
    assert isinstance(state, BackgammonState)
    play = state.legal_actions()[0]
    assert isinstance(play, Play)
    after = state.apply(play)
    plain = state.apply(Play(play.moves, play.result, play.unused))
    assert after == plain and after.observation(0) == plain.observation(0)
    assert after.observation(1)["last_event"]["play"] == str(play)
    shared = next(a for a in after.legal_actions() if str(a) == "6-6")
    rolled, rebuilt = after.apply(shared), after.apply(Roll(6, 6))
    assert rolled == rebuilt and rolled.observation(1) == rebuilt.observation(1)
    assert rolled.dice == (6, 6, 6, 6)
    assert rolled == after.apply("6-6", seat=-1)


def test_a_play_of_another_state_is_refused_and_the_state_unchanged() -> None:
    # plays are checked by membership: one listed at another node is illegal here
    nodes = _nodes("classic", 3, 12)
    first = nodes[0]
    listed = {p.result for p in first.plays}
    stranger: Any = next(p for n in nodes[1:] for p in n.plays if p.result not in listed)
    before = first.state_id()
    with pytest.raises(IllegalActionError):
        first.apply(stranger)
    assert first.state_id() == before


def test_until_the_kernel_is_loaded_the_reference_answers_alike(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A fresh install compiles the kernel in a separate process; meanwhile the game's
    # generator answers with the reference: the same plays, in the same order.
    import aceydeucey

    game = aceydeucey.load_game("backgammon", variant="classic")
    state = game.new_initial_state().apply("opening 6-1")
    while state.is_chance_node():
        state = state.apply("6-5")
    loaded = [str(p) for p in generate.legal_plays(state.position, (6, 5), game.rules)]
    with monkeypatch.context() as patch:
        patch.setattr(generate, "_KERNEL", [])
        patch.setattr(generate, "_STARTED", [True])  # as if the thread were still compiling
        assert not generate.kernel_ready()
        waiting = generate.legal_plays(state.position, (6, 5), game.rules)
        assert not any(isinstance(p, generate._FastPlay) for p in waiting)
        assert [str(p) for p in waiting] == loaded
    assert generate.kernel_ready()


@settings(max_examples=10, deadline=None, derandomize=True)
@given(variant=st.sampled_from(["classic", "acey-deucey"]), seed=st.integers(0, 2**31))
def test_a_board_turned_round_is_the_board_of_the_flipped_position(variant: str, seed: int) -> None:
    for state in _nodes(variant, seed, 30):
        board = generate.board_of(state.position)
        assert generate.flipped_board_of(board) == generate.board_of(state.position.flip())
        assert generate.flipped_board_of(generate.flipped_board_of(board)) == board


def test_after_a_pass_the_opponent_rolls_from_the_same_position_turned_round() -> None:
    # the pass keeps the kernel's board (turned round) instead of rebuilding the position:
    # the next state is the one the plain transition gives
    game = aceydeucey.load_game("backgammon", variant="classic")
    rng = random.Random(4)
    passes = 0
    state: Any = game.new_initial_state()
    while passes < 20:
        if state.is_terminal():
            state = game.new_initial_state()
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        after = state.apply(action)
        if state.phase == "play" and not action.moves:
            passes += 1
            assert after.phase == "roll" and after.mover == 1 - state.mover
            assert after.position == state.position.flip()
            assert after == state._evolve(
                phase="roll",
                mover=1 - state.mover,
                position=state.position.flip(),
                dice=(),
                kind="",
                chain=0,
                extra=False,
            )
            assert after.observation(0) == BackgammonState.from_state_id(
                game, after.state_id()
            ).observation(0) | {"last_event": after.observation(0)["last_event"]}
        state = after


def test_a_rolls_plays_are_freed_without_the_collector() -> None:
    # The plays and their list refer to the roll's rows, which refer to nothing: once the
    # state is gone they are freed by reference counting alone (a reference cycle here
    # was most of a busy server's cyclic garbage, and its full collections its p99).
    import gc

    generate.warm_up()
    game = aceydeucey.load_game("backgammon", variant="classic")
    gc.collect()
    gc.disable()
    try:
        for seed in range(3):
            chance = random.Random(seed)
            state = game.new_initial_state()
            while state.is_chance_node():
                dist = state.chance_distribution()
                state = state.apply(chance.choices(dist.actions, dist.weights)[0])
            plays = state.legal_actions()
            assert type(plays).__name__ == "_Plays" and len(plays) > 1
            texts = [str(p) for p in plays]
            assert all(p in plays for p in plays) and [p.result for p in plays]
            state.observation(state.current_player())
            del state, plays, texts
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_the_observations_play_steps_are_each_plays_own(variant: str) -> None:
    # The steps an observation carries (keyed by the plays' texts, once per state) are the
    # steps of that state's own play: a checker moved twice stops where its own position
    # lets it (18/10 with 6-2 is 18/12/10 or 18/16/10), which the text does not say.
    from aceydeucey.backgammon.notation import play_steps
    from aceydeucey.backgammon.views import play_steps_of

    generate.warm_up()
    game = aceydeucey.load_game("backgammon", variant=variant)
    chance = random.Random(7)
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                dist = state.chance_distribution()
                state = state.apply(chance.choices(dist.actions, dist.weights)[0])
                continue
            if state.phase_name() == "play":
                kept = play_steps_of(state)
                own = {str(p): play_steps(p, state.dice) for p in state.legal_actions() if p.moves}
                assert kept == own
                checked += 1
            state = state.apply(chance.choice(state.legal_actions()))
    assert checked > 100


def test_editing_one_games_play_steps_leaves_another_games_alone() -> None:
    # a caller that edits an observation (an AI user's own copy) must not change what the
    # next game's observations say
    generate.warm_up()
    game = aceydeucey.load_game("backgammon", variant="classic")

    def first_play_steps() -> dict[str, Any]:
        state = game.new_initial_state()
        while state.is_chance_node():
            state = state.apply(state.chance_distribution().actions[0])
        obs: dict[str, Any] = state.observation(state.current_player())
        return obs["play_steps"]

    steps = first_play_steps()
    text = next(iter(steps))
    before = copy.deepcopy(steps[text])
    steps[text][0]["die"] = 99
    steps[text].append({"from": 1, "to": 0})
    assert first_play_steps()[text] == before
