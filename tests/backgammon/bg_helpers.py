"""Shared helpers of the backgammon rule tests."""

from __future__ import annotations

from aceydeucey.backgammon.game import BackgammonState


def texts(state: BackgammonState) -> set[str]:
    """The legal actions' canonical texts."""
    return {str(a) for a in state.legal_actions()}


def play(state: BackgammonState, *actions: str) -> BackgammonState:
    """Apply each action text in turn."""
    for action in actions:
        after = state.apply(action)
        assert isinstance(after, BackgammonState)
        state = after
    return state
