"""The ``kelly`` and ``cautious`` strategies as agents on the contract."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.core import Seeded, Table
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.bots import BOTS
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from aceydeucey.inbetween.strategies import CautiousBot, KellyBot, kelly_stake
from aceydeucey.sim.inbetween import STRATEGY_NAMES, deck_orders, kernel_plays, play_sessions
from aceydeucey.sim.inbetween_bots import STRATEGIES, SessionBot
from aceydeucey.sim.inbetween_runs import summarize


def test_strategies_dict_names_the_new_bots() -> None:
    assert set(STRATEGIES) == {"kelly", "cautious", "session"}
    assert set(STRATEGIES) | set(BOTS) == set(STRATEGY_NAMES)
    for name, cls in STRATEGIES.items():
        assert cls.name == name
        assert cls(seed=3).act is not None


@given(
    inside=st.integers(0, 60),
    outside=st.integers(0, 60),
    post=st.integers(0, 12),
    chips=st.integers(1, 500),
)
def test_kelly_stake_is_next_to_the_kelly_fraction(
    inside: int, outside: int, post: int, chips: int
) -> None:
    """For +1/-1/-2 the Kelly fraction is the smaller root of 2f² + (q - 3p)f + ev = 0
    (p, q, r the chances of inside, outside, post); the stake is its floor on the chips."""
    total = inside + outside + post
    if total == 0:
        return
    stake = kelly_stake({1: inside, -1: outside, -2: post}, chips)
    p, q = Fraction(inside, total), Fraction(outside, total)
    ev = p - q - 2 * Fraction(post, total)
    if ev <= 0:
        assert stake == 0
        return
    if post == 0 and outside == 0:
        return  # a sure win: any stake grows
    b = float(q - 3 * p) if post else None
    f = (-b - math.sqrt(b * b - 8 * float(ev))) / 4 if b is not None else float(p - q)
    # the whole stake of highest expected log: the floor of f* x chips or the next one up
    assert math.floor(f * chips - 1e-9) <= stake <= math.floor(f * chips) + 1


def _play(preset: str, agents: list[object], seed: int) -> None:
    game = aceydeucey.load_game("inbetween", preset=preset)
    agents = agents[: game.num_players]
    while len(agents) < game.num_players:
        agents.append(KellyBot(len(agents)))
    Table(game, agents, chance=Seeded(seed)).play()  # an illegal choice would raise


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_selectable_at_every_preset(preset: str) -> None:
    for seed in range(3):
        _play(preset, [KellyBot(1), CautiousBot(2), SessionBot(3), CautiousBot(4)], seed)


@pytest.mark.parametrize(
    "options",
    [
        {"pairs": "higher-lower"},
        {"aces": "first-card"},
        {"aces": "dealer-declares"},
        {"pairs": "split"},
        {"deal": "both-around", "hidden": True},
    ],
)
def test_selectable_under_variants(options: dict[str, object]) -> None:
    game = aceydeucey.load_game("inbetween", players=3, **options)
    for seed in range(3):
        Table(game, [KellyBot(0), CautiousBot(1), SessionBot(2)], chance=Seeded(seed)).play()


def test_kelly_stakes_less_than_ev_and_cautious_bets_wide_spreads_only() -> None:
    rules = Rules.resolve(players=4)
    batch = play_sessions(rules, ("ev", "kelly", "cautious", "random"), 20_000, seed=2)
    stats = {
        s: batch.tally[batch.seat_strategy == i].sum(axis=0) for i, s in enumerate(batch.strategies)
    }
    # kelly bets on the same favourable posts as ev, a little less often (a Kelly stake of 0)
    assert stats["kelly"][1:].sum() <= stats["ev"][1:].sum()
    # cautious bets on spreads of 8 or more: it wins more of its bets than ev does
    won = {s: v[1] / v[1:].sum() for s, v in stats.items()}
    assert won["cautious"] > won["ev"] > won["random"]


def test_unseated_kelly_says_so() -> None:
    obs = {"legal_actions": ["pass", "bet 1"], "step": "decide"}
    with pytest.raises(ArgumentError):
        KellyBot().act(obs)


@pytest.mark.parametrize("preset", ["banker", "sheets", "red-dog", "three-posts"])
def test_other_presets_are_played_not_refused(preset: str) -> None:
    """Every preset plays, on the compiled kernel."""
    rules = Rules.resolve(preset=preset)
    names = [STRATEGY_NAMES[i % 5] for i in range(rules.players)]
    batch = play_sessions(rules, names, 2, seed=1)
    assert kernel_plays(rules) and not batch.engine
    assert batch.totals.hands == int(batch.hands.sum()) > 0


def test_given_decks_on_the_engine_say_why() -> None:
    """Deck orders are the kernel's: on the engine's path the refusal names the rule."""
    rules = Rules.resolve(preset="sheets", passed_card="next-post")
    ranks, _ = deck_orders(rules, 1)
    with pytest.raises(ArgumentError) as err:
        play_sessions(rules, ["ev"] * rules.players, 1, decks=ranks)
    assert err.value.code == "sim.engine_decks"
    assert "passed_card=next-post" in str(err.value)
    assert "motor" in err.value.render("pt")


@pytest.mark.slow
def test_session_plays_for_the_win_not_the_chips() -> None:
    """Against three ev seats, session wins more often than a quarter (the all-ev share by
    symmetry) while ending with fewer chips on average than ev: it plays for the lead."""
    rules = Rules.resolve(players=4)
    batch = play_sessions(rules, ("session", "ev", "ev", "ev"), 2_000, seed=4)
    stats = {s.strategy: s for s in summarize(batch)}
    assert stats["session"].win_rate - stats["session"].win_ci > 0.25
    assert stats["session"].mean_balance < stats["ev"].mean_balance
