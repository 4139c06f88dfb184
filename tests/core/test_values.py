"""States and actions are values, in every game (seeded random play, Hypothesis seeds).

- a state's equality and hash are those of what it is, not of how it was reached: the
  last event is outside both;
- nothing is written into a state's ``__dict__`` after it is built (memos live in a
  declared slot outside its value);
- a game's ``GameInfo`` is built once, not on every access;
- every termination is a member of the game's ``Termination`` (a ``StrEnum`` whose
  values are catalog keys, in both languages);
- every action's ``repr`` is code that evaluates to an equal action with the same text.
"""

from __future__ import annotations

import dataclasses
import random
import sys
from enum import StrEnum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import load_game
from aceydeucey.core.game import State
from aceydeucey.core.registry import BUILTIN_GAME_IDS
from aceydeucey.locale import catalog, error_domain

#: The field(s) that hold the last transition's event, per state class.
EVENT_FIELDS = {
    "InBetweenState": ("event", "after"),
    "BackgammonState": ("last_event",),
    "AcesInThePotState": ("last_event",),
}
#: What a state holds besides its fields, set when it is made: backgammon's kernel board
#: (the form its position came in, built into a ``Position`` on first use, in the memo).
MADE_FROM = {"BackgammonState": {"_board"}}


def _walk(game_id: str, seed: int, steps: int = 150, **options: Any) -> list[State]:
    game = load_game(game_id, **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state]
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
        states.append(state)
    return states


def _other_event(state: State, name: str) -> Any:
    value = getattr(state, name)
    if name == "after":
        return (*value, ("kind", "other"))
    if value is None or value == ():
        return (("kind", "other"),)
    return None if type(state).__name__ == "AcesInThePotState" else ()


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_last_event_is_outside_equality_and_hash(game_id: str, seed: int) -> None:
    for state in _walk(game_id, seed)[1::7]:
        for name in EVENT_FIELDS[type(state).__name__]:
            twin = dataclasses.replace(state, **{name: _other_event(state, name)})  # type: ignore[type-var]
            assert getattr(twin, name) != getattr(state, name)
            assert twin == state and hash(twin) == hash(state)


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_nothing_is_written_into_a_state(game_id: str, seed: int) -> None:
    for state in _walk(game_id, seed)[::5]:
        before = dict(vars(state))
        names = {f.name for f in dataclasses.fields(state)}  # type: ignore[arg-type]
        state.legal_actions()
        for seat in [None, *range(state.game.num_players)]:
            state.observation(seat)
        str(state)
        _ = state == state.game.new_initial_state(), getattr(state, "position", None)
        made_from = MADE_FROM.get(type(state).__name__, set())
        assert vars(state).keys() == before.keys() <= names | made_from
        assert all(vars(state)[k] is before[k] for k in before)


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
def test_game_info_is_built_once(game_id: str) -> None:
    game = load_game(game_id)
    assert game.info is game.info
    assert game.info.game_id == game_id


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
def test_termination_codes_are_a_string_enum_of_catalog_keys(game_id: str) -> None:
    codes = load_game(game_id).terminations
    assert codes is not None and issubclass(codes, StrEnum)
    for member in codes:
        domain = error_domain(member.value)
        assert domain is not None, member
        assert member.value in catalog(domain, "pt")


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("inbetween", {"players": 2, "rounds": 2}),
        ("backgammon", {}),
        ("aces-in-the-pot", {"players": 3}),
    ],
)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_finished_game_terminates_with_a_member_of_its_enum(
    game_id: str, options: dict[str, Any], seed: int
) -> None:
    last = _walk(game_id, seed, steps=20_000, **options)[-1]
    outcome = last.outcome()
    assert outcome is not None
    assert isinstance(outcome.termination, last.game.terminations)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_actions_repr_evaluates_to_the_action(game_id: str, seed: int) -> None:
    for state in _walk(game_id, seed)[::3]:
        for action in list(state.legal_actions())[:40]:
            namespace = dict(vars(sys.modules[type(action).__module__]))
            again = eval(repr(action), namespace)
            assert again == action and str(again) == str(action)
            assert hash(again) == hash(action)
