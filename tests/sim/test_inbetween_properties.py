"""Invariants of the simulator over random rule sets, strategies and seeds (Hypothesis).

Where debts are allowed (``stake_cap`` ``"none"`` or ``"chips"``) a session may pass the
simulator's ``CHIP_LIMIT`` (debts grow the pot); it then raises
``RulesError("sim.chip_limit")`` naming the first such session, which :func:`play`
checks and returns instead of a batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import STRATEGY_NAMES, SessionBatch, play_sessions

#: Strategies without a search (``session`` plays out the session at each decision).
FAST = tuple(s for s in STRATEGY_NAMES if s != "session")


@st.composite
def rule_sets(draw: st.DrawFn, players: int = 8, rounds: int = 30) -> Rules:
    options: dict[str, Any] = {
        "players": draw(st.integers(2, players)),
        "starting_chips": draw(st.integers(1, 300)),
        "ante": draw(st.integers(1, 4)),
        "rounds": draw(st.integers(1, rounds)),
        "decks": draw(st.integers(1, 3)),
        "post_multiplier": draw(st.integers(1, 4)),
        "stake_cap": draw(st.sampled_from(["cover", "chips", "none"])),
        "min_stake": draw(st.sampled_from(["one", "ante"])),
        "first_round_limit": draw(st.sampled_from(["pot", "half-pot", "ante"])),
        "round_limits": tuple(draw(st.lists(st.integers(1, 20), max_size=3))),
    }
    # ante before the first round only: a choice once there is more than one round
    options["ante_each_round"] = draw(st.booleans()) or options["rounds"] == 1
    options["dealer"] = draw(st.integers(0, options["players"] - 1))
    return Rules.resolve(**options)


def play(rules: Rules, strategies: tuple[str, ...], sessions: int, **kw: Any) -> SessionBatch | int:
    """The batch, or the first session that passed the chip limit (never under ``cover``)."""
    try:
        return play_sessions(rules, strategies, sessions, **kw)
    except RulesError as exc:
        assert exc.code == "sim.chip_limit" and rules.stake_cap != "cover", exc
        first = kw.get("first", 0)
        session: int = exc.params["session"]
        assert first <= session < first + sessions
        return session


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    rules=rule_sets(),
    picks=st.lists(st.sampled_from(FAST), min_size=10, max_size=10),
    seed=st.integers(0, 2**64 - 1),
)
def test_every_session_conserves_chips(rules: Rules, picks: list[str], seed: int) -> None:
    n = rules.players
    strategies = tuple(picks[:n])
    batch = play(rules, strategies, 64, seed=seed)
    if isinstance(batch, int):
        return
    total = batch.chips.sum(axis=1) + batch.pot
    assert (total == n * rules.starting_chips).all()
    assert (batch.pot >= 0).all()
    if rules.stake_cap == "cover":  # the worst loss is always payable: no debts
        assert (batch.chips >= 0).all()
    assert (batch.hands <= rules.rounds * n).all()
    assert (batch.tally.sum(axis=(1, 2)) == batch.hands).all()
    emptied = batch.ended == 1
    assert (batch.pot[emptied] == 0).all()
    assert (batch.pot[batch.ended == 0] > 0).all()  # the rounds played out: antes in the pot


@settings(max_examples=10, deadline=None)
@given(rules=rule_sets(players=5, rounds=4), seed=st.integers(0, 2**64 - 1))
def test_sessions_with_the_search_conserve_chips(rules: Rules, seed: int) -> None:
    strategies = tuple(STRATEGY_NAMES[(4 + i) % 5] for i in range(rules.players))
    batch = play(rules, strategies, 16, seed=seed)
    if isinstance(batch, int):
        return
    assert (batch.chips.sum(axis=1) + batch.pot == rules.players * rules.starting_chips).all()
    if rules.stake_cap == "cover":
        assert (batch.chips >= 0).all()


@settings(max_examples=15, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 2**32), cut=st.integers(1, 39))
def test_a_session_depends_only_on_the_seed_and_its_number(
    rules: Rules, seed: int, cut: int
) -> None:
    """Two chunks play exactly the sessions of one call (so runs in chunks reproduce)."""
    strategies = tuple(FAST[i % 4] for i in range(rules.players))
    whole = play(rules, strategies, 40, seed=seed)
    a = play(rules, strategies, cut, seed=seed)
    b = play(rules, strategies, 40 - cut, seed=seed, first=cut)
    if isinstance(whole, int):  # the first session past the limit: its chunk names it too
        assert (a == whole) if whole < cut else (isinstance(a, SessionBatch) and b == whole)
        return
    assert isinstance(a, SessionBatch) and isinstance(b, SessionBatch)
    assert np.array_equal(whole.chips, np.vstack([a.chips, b.chips]))
    assert np.array_equal(whole.tally, np.concatenate([a.tally, b.tally]))
    assert np.array_equal(whole.seat_strategy, np.vstack([a.seat_strategy, b.seat_strategy]))
