"""Exact odds: checked against brute-force enumeration of the deck and a seeded simulation."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import Seeded, Table
from aceydeucey.cards import Card, deck
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.bots import BOTS, ExpectedValueBot, RandomBot
from aceydeucey.inbetween.game import InBetweenGame, InBetweenState
from aceydeucey.inbetween.odds import action_values, post_odds
from aceydeucey.inbetween.rules import Rules
from tests.inbetween.inbetween_helpers import new, play

ALL = list(deck(1))


def brute_force(first: Card, second: Card, seen: list[Card], decks: int) -> dict[str, Fraction]:
    """Count every card left in the deck by hand: inside, post or outside."""
    left = list(deck(decks))
    for card in [first, second, *seen]:
        left.remove(card)
    low, high = sorted((first.rank, second.rank))
    counts = {"inside": 0, "post": 0, "outside": 0}
    for card in left:
        if card.rank in (low, high):
            counts["post"] += 1
        elif low < card.rank < high:
            counts["inside"] += 1
        else:
            counts["outside"] += 1
    return {k: Fraction(v, len(left)) for k, v in counts.items()}


def test_guide_example_odds() -> None:
    # 4-Q leaves 7 ranks inside (28 cards), 6 post cards, 16 outside, of 50.
    odds = post_odds(Card.from_text("4C"), Card.from_text("QD"))
    assert (odds.inside, odds.post, odds.outside) == (
        Fraction(28, 50),
        Fraction(6, 50),
        Fraction(16, 50),
    )
    assert odds.ev_per_chip == Fraction(28 - 16 - 2 * 6, 50)


@settings(max_examples=80, deadline=None)
@given(
    cards=st.lists(st.sampled_from(ALL), min_size=2, max_size=12, unique=True),
    decks=st.integers(1, 2),
)
def test_odds_match_brute_force_enumeration(cards: list[Card], decks: int) -> None:
    first, second, *seen = cards
    odds = post_odds(first, second, seen, decks=decks)
    expected = brute_force(first, second, seen, decks)
    assert (odds.inside, odds.post, odds.outside) == (
        expected["inside"],
        expected["post"],
        expected["outside"],
    )
    assert odds.inside + odds.post + odds.outside == 1
    assert odds.ev_per_chip == odds.inside - odds.outside - 2 * odds.post


def test_odds_match_a_seeded_simulation() -> None:
    first, second = Card.from_text("3H"), Card.from_text("JS")
    seen = [Card.from_text(t) for t in ("5C", "9D", "JD")]
    odds = post_odds(first, second, seen)
    left = [c for c in ALL if c not in {first, second, *seen}]
    rng = random.Random(7)
    n = 20_000
    hits = {"inside": 0, "post": 0}
    for _ in range(n):
        card = rng.choice(left)
        if card.rank in (3, 11):
            hits["post"] += 1
        elif 3 < card.rank < 11:
            hits["inside"] += 1
    assert abs(hits["inside"] / n - float(odds.inside)) < 0.015
    assert abs(hits["post"] / n - float(odds.post)) < 0.01


def test_low_ace_widens_the_gap() -> None:
    # A called low against a K: 2..Q are inside (44 cards of 50); the 3 kings are posts;
    # a later ace is high (seed 001: "Aces dealt later are always high"): outside.
    odds = post_odds(Card.from_text("AC"), Card.from_text("KD"), ace_low=True)
    assert (odds.inside, odds.post, odds.outside) == (
        Fraction(44, 50),
        Fraction(3, 50),
        Fraction(3, 50),
    )


def test_ev_follows_the_rules_post_multiplier() -> None:
    sheets = Rules.resolve(preset="sheets")
    odds = post_odds(Card.from_text("4C"), Card.from_text("QD"), rules=sheets)
    assert odds.ev_per_chip == Fraction(28 - 16 - 6, 50)


def test_pair_call_odds() -> None:
    # 7-7, call higher: 8..A (28 cards) win, 2 sevens match, 2..6 (20) lose, of 50.
    sheets = Rules.resolve(preset="sheets")
    odds = post_odds(Card.from_text("7C"), Card.from_text("7D"), rules=sheets, call="higher")
    assert (odds.inside, odds.post, odds.outside) == (
        Fraction(28, 50),
        Fraction(2, 50),
        Fraction(20, 50),
    )
    assert odds.ev_per_chip == Fraction(28 - 20 - 2 * 2, 50)


def test_action_values_are_stake_times_expected_multiple() -> None:
    state = play(new(players=2), "2C", "5C", "AD")
    values = action_values(state.observation(1), state.rules)
    # Unseen: 49 cards; 3..K inside (44), 2 and A posts (6 left: 3 twos, 3 aces)... minus 5C.
    left = 49
    inside = 11 * 4 - 1  # the 5C is seen
    post = 3 + 3
    outside = left - inside - post
    per_chip = Fraction(inside - outside - 2 * post, left)
    assert values["pass"] == 0
    assert values["bet 2"] == 2 * per_chip


def test_ev_bot_bets_the_cap_on_a_good_spread_and_passes_a_bad_one() -> None:
    good = play(new(players=2), "2C", "5C", "AD")
    assert seated_ev(good).act(good.observation(1)) == "bet 2"
    bad = play(new(players=2), "7C", "5C", "9D")
    assert seated_ev(bad).act(bad.observation(1)) == "pass"


def test_ev_bot_reads_only_the_json_observation() -> None:
    state = play(new(players=3), "2C", "5C", "9C", "KD")
    obs = json.loads(json.dumps(state.observation(1)))
    assert seated_ev(state).act(obs) == seated_ev(state).act(state.observation(1))


def test_ev_bot_learns_the_rules_when_seated_not_from_observations() -> None:
    state = play(new(players=3), "2C", "5C", "9C", "KD")
    assert "rules" not in state.observation(1)
    with pytest.raises(ArgumentError) as info:
        ExpectedValueBot().act(state.observation(1))
    assert info.value.code == "bot.not_seated"


def test_ev_bot_calls_a_first_ace_the_better_way() -> None:
    state = play(new(players=2, aces="first-card"), "AC", "5C")
    values = seated_ev(state).values(state.observation(1))
    assert values["ace low"] > values["ace high"]  # a low ace leaves room above it
    assert seated_ev(state).act(state.observation(1)) == "ace low"


def test_ev_bot_ties_go_to_the_smaller_stake() -> None:
    # Pot 2: stakes are 0-worth only when the expected multiple is 0: then pass.
    state = play(new(preset="red-dog", players=1), "4C", "9D")
    bot = seated_ev(state)
    values = bot.values(state.observation(0))
    best = max(values.values())
    chosen = bot.act(state.observation(0))
    assert values[chosen] == best
    if values["stay"] == best:
        assert chosen == "stay"


def test_random_bot_picks_only_legal_actions() -> None:
    state = play(new(players=2), "2C", "5C", "AD")
    obs = state.observation(1)
    picks = {RandomBot(seed).act(obs) for seed in range(30)}
    assert picks <= set(obs["legal_actions"]) and len(picks) > 1


def test_bots_registry() -> None:
    assert BOTS["random"] is RandomBot and BOTS["ev"] is ExpectedValueBot
    assert BOTS["ev"].name == "ev"


def test_no_cards_left_is_an_error() -> None:
    with pytest.raises(ValueError, match="seen more often"):
        post_odds(Card.from_text("4C"), Card.from_text("4C"))


def _engine_value(state: InBetweenState, text: str) -> Fraction:
    """The expected net chips of a bet, by enumerating the engine's own chance outcomes."""
    seat = state.to_act
    assert seat is not None
    after_bet = state.apply(text)
    total = Fraction(0)
    for card, p in after_bet.chance_outcomes():
        settled = after_bet.apply(card)
        assert isinstance(settled, InBetweenState)
        event = dict(settled.event)
        total += p * event["delta"]
    return total


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(["guide", "sheets", "three-posts", "banker"]),
    seed=st.integers(0, 10_000),
    decks=st.integers(1, 2),
)
def test_action_values_match_the_engines_own_outcomes(preset: str, seed: int, decks: int) -> None:
    # Cross-check odds.py against game.py: at the first decisions of a random game, each
    # stake's value equals the engine's expected settlement over its chance outcomes.
    game = InBetweenGame(Rules.resolve(preset=preset, decks=decks))
    table = Table(game, [RandomBot(seed + i) for i in range(game.num_players)], chance=Seeded(seed))
    checked = 0
    while checked < 3 and not table.state.is_terminal():
        state = table.state
        assert isinstance(state, InBetweenState)
        if state.phase == "decide":
            values = action_values(state.observation(state.to_act or 0), state.rules)
            for text, value in values.items():
                if text.split()[0] in ("bet", "higher", "lower"):
                    assert value == _engine_value(state, text), text
            checked += 1
        table.step()


def test_action_values_after_the_deck_ran_out_match_the_engine() -> None:
    # Three players pass through 8 rounds (48 cards) under reshuffle="deck-out"; in round 9
    # the last four cards are dealt, so the third card comes from the shuffled-back discards.
    state = new(players=3, reshuffle="deck-out", rounds=100)
    cards = [r + s for r in "23456789TJQKA" for s in "CDHS"]
    for r in range(8):
        c = cards[6 * r : 6 * r + 6]
        state = play(state, c[0], c[1], c[2], c[3], "pass", c[4], "pass", c[5], "pass")
    state = play(state, *cards[48:52])
    assert state.phase == "decide"
    values = action_values(state.observation(state.to_act or 0), state.rules)
    assert values["bet 1"] == _engine_value(state, "bet 1")


def seated_ev(state: InBetweenState, seat: int = 0) -> ExpectedValueBot:
    """An EV bot seated at ``state``'s game (it learns the rules there)."""
    bot = ExpectedValueBot()
    bot.seated(state.game, seat)
    return bot


def test_post_odds_settle_as_the_engine_does_an_ace_against_a_pair() -> None:
    # With ace_third_loses an ace drawn against a pair loses whatever the call: the coach's
    # "inside" (the call wins) leaves it out, as the engine's settlement does.
    from aceydeucey.cards import Card
    from aceydeucey.inbetween.odds import post_odds, unseen_ranks
    from aceydeucey.inbetween.rules import Rules
    from aceydeucey.inbetween.settle import settle

    seven, seven2 = Card.from_text("7C"), Card.from_text("7D")
    for loses in (False, True):
        rules = Rules(pairs="higher-lower", ace_third_loses=loses)
        odds = post_odds(seven, seven2, rules=rules, call="higher")
        left = unseen_ranks(1, [seven, seven2])
        wins = sum(
            n for rank, n in left.items() if settle(rules, (7, 7), "higher", rank).outcome == "win"
        )
        assert odds.inside == Fraction(wins, 50)
        assert odds.inside == Fraction(24 if loses else 28, 50)  # 8 to K (and the aces)
        assert odds.post == Fraction(2, 50) and odds.inside + odds.post + odds.outside == 1
