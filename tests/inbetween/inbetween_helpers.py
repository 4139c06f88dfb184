"""Shared helpers of the In-Between tests: build a state and apply action texts."""

from __future__ import annotations

from typing import Any

from aceydeucey import load_game
from aceydeucey.inbetween.game import InBetweenState


def new(**options: Any) -> InBetweenState:
    """A fresh session with the given options (the guide unless ``preset`` says otherwise)."""
    state = load_game("inbetween", **options).new_initial_state()
    assert isinstance(state, InBetweenState)
    return state


def play(state: InBetweenState, *actions: str) -> InBetweenState:
    """Apply each action text in turn (chance's cards included)."""
    for text in actions:
        after = state.apply(text)
        assert isinstance(after, InBetweenState)
        state = after
    return state
