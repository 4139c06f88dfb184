"""Invariants over every preset and random option sets (Hypothesis), with random players.

At every state of a seeded random game: chips plus pot (plus the house bank and bets in
flight) are conserved, no card is dealt more often than the decks hold within a shuffle,
no balance is negative where the rules forbid debt, chance probabilities sum to 1, and at a
guide-style decision the legal stakes run from the minimum to the cap.  The record replays
to an equal state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from aceydeucey import Record, Seeded, Table, replay
from aceydeucey.core.errors import RulesError
from aceydeucey.core.game import State
from aceydeucey.inbetween.bots import ExpectedValueBot, RandomBot
from aceydeucey.inbetween.game import InBetweenGame, InBetweenState
from aceydeucey.inbetween.rules import Rules

OPTIONS: dict[str, Any] = {
    "players": st.integers(1, 6),
    "decks": st.integers(1, 2),
    "ante": st.integers(0, 2),
    "starting_chips": st.integers(2, 30),
    "rounds": st.integers(1, 3),
    "aces": st.sampled_from(["high", "first-card", "dealer-declares"]),
    "post_multiplier": st.integers(1, 3),
    "adjacent": st.sampled_from(["bet", "lose", "redeal", "push"]),
    "pairs": st.sampled_from(["bet", "higher-lower", "win", "push", "redeal", "split"]),
    "stake_cap": st.sampled_from(["cover", "chips", "none"]),
    "min_stake": st.sampled_from(["one", "ante"]),
    "first_round_limit": st.sampled_from(["pot", "half-pot", "ante"]),
    "ante_to_play": st.booleans(),
    "empty_pot": st.sampled_from(["end", "replenish"]),
    "reshuffle": st.sampled_from(["round", "deck-out", "twice-through"]),
    "dealer": st.sampled_from([0, "draw"]),
    "ace_third_loses": st.booleans(),
    "ace_pair_multiplier": st.integers(0, 4),
    "post_fee": st.integers(0, 2),
    "ante_back": st.booleans(),
    "passed_card": st.sampled_from(["discard", "next-post"]),
}


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(list(Rules.PRESETS)))
    names = draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=6, unique=True))
    options = {name: draw(OPTIONS[name]) for name in names}
    try:
        return Rules.resolve(preset=preset, **options)
    except RulesError:
        assume(False)
        raise


def check_invariants(rules: Rules, state: InBetweenState) -> None:
    total = sum(state.chips) + state.pot + sum(state.bets)
    if rules.banking == "house":
        total += state.bank
        assert total == rules.players * rules.starting_chips + rules.bank
    else:
        assert total == rules.players * rules.starting_chips
    if not rules.allows_debt:
        assert min(state.chips) >= 0
    assert state.pot >= 0
    copies = Counter(state.dealt)
    assert max(copies.values(), default=0) <= rules.decks
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1
        assert all(p > 0 for _, p in outcomes)
    if state.phase == "decide" and rules.pairs != "higher-lower" and state.gap == 1:
        legal = [str(a) for a in state.legal_actions()]
        stakes = [int(t.split()[1]) for t in legal if t.startswith("bet ")]
        if stakes:
            assert stakes == list(range(stakes[0], stakes[-1] + 1))
            assert stakes[-1] <= state.pot


def run(rules: Rules, seed: int, bot: type[RandomBot] | type[ExpectedValueBot]) -> Table:
    game = InBetweenGame(rules)
    checked: list[int] = []

    def listen(before: State, action: object, after: State) -> None:
        assert isinstance(after, InBetweenState)
        check_invariants(rules, after)
        checked.append(1)

    table = Table(
        game, [bot(seed + i) for i in range(rules.players)], chance=Seeded(seed), listeners=[listen]
    )
    assert isinstance(table.state, InBetweenState)
    check_invariants(rules, table.state)
    table.play(max_steps=20_000)
    assert table.state.is_terminal()
    return table


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 10_000))
def test_random_games_keep_every_invariant_and_replay(rules: Rules, seed: int) -> None:
    table = run(rules, seed, RandomBot)
    record = Record.from_json(table.record.to_json())
    assert replay(record) == table.state


@settings(max_examples=15, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 10_000))
def test_ev_bot_games_keep_every_invariant(rules: Rules, seed: int) -> None:
    table = run(rules, seed, ExpectedValueBot)
    assert replay(table.record) == table.state


@settings(max_examples=30, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 10_000))
def test_observations_never_leak_hidden_cards(rules: Rules, seed: int) -> None:
    # Whatever a seat is shown as seen or as posts was really face up (or is its own card).
    game = InBetweenGame(rules)
    table = Table(game, [RandomBot(seed + i) for i in range(rules.players)], chance=Seeded(seed))
    for _ in range(60):
        state = table.state
        if state.is_terminal():
            break
        assert isinstance(state, InBetweenState)
        for seat in range(rules.players):
            obs = state.observation(seat)
            assert obs["seen"] == [str(c) for c in state.seen]
            assert not (set(obs["hand"]) - {str(c) for c in state.dealt})
            if rules.hidden and obs["to_act"] != seat:
                assert not set(obs["posts"]) - set(obs["seen"])
        table.step()
