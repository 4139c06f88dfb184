"""One test per option added from the public sources (SOURCES.md): the passed card becomes the
next player's post (oinc), the dealer declares aces (everything2), win your ante back
(the-game-farm) and a fee for each pair of posts (Shemitz); each with its rules check and the
EV bot's exactness against the engine's own chance outcomes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from aceydeucey.core.errors import IllegalActionError, RulesError
from aceydeucey.inbetween.game import InBetweenState
from aceydeucey.inbetween.odds import action_values
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import settle
from tests.inbetween.inbetween_helpers import new, play


def engine_value(state: InBetweenState, text: str) -> Fraction:
    """The acting seat's expected chip change over the next chance card, from the engine
    (a pass: its immediate change; a bet: the settlement's delta, not what follows it)."""
    seat = state.to_act
    assert seat is not None
    after = state.apply(text)
    assert isinstance(after, InBetweenState)
    if not text.startswith(("bet", "higher", "lower")):
        return Fraction(after.chips[seat] - state.chips[seat])
    total = Fraction(0)
    for card, p in after.chance_outcomes():
        nxt = after.apply(card)
        assert isinstance(nxt, InBetweenState)
        events = [dict(e) for e in (nxt.event, *nxt.after)]
        (settled,) = [e for e in events if e.get("kind") == "settle"]  # not a later re-ante
        total += p * settled["delta"]
    return total


# -- passed_card ----------------------------------------------------------------------------


def test_passed_card_is_set_aside_face_down_and_becomes_the_next_players_post() -> None:
    # oinc: seat 1 passes on 4-5; the top card (9H) goes face down, unseen by anyone, and is
    # then the first post of seat 2 (both cards at one's turn); seat 2's second post is fresh.
    state = play(new(players=3, deal="both-at-turn", passed_card="next-post"), "4C", "5D")
    state = play(state, "pass")
    assert state.is_chance_node() and len(state.chance_outcomes()) == 50
    aside = play(state, "9H")
    assert aside.aside is None and aside.to_act == 2
    assert [str(c) for c in aside.posts] == ["9H"] and aside.phase == "deal-post"
    # The set-aside step itself names no card; the placement follows as a passed post.
    event = aside.last_event()
    assert event is not None and event["kind"] == "set-aside" and "card" not in event
    assert event["after"][0] == {"kind": "post", "seat": 2, "card": "9H", "passed": True}
    assert play(aside, "TD").posts[1].rank == 10


def test_set_aside_card_is_never_observed_before_it_is_placed() -> None:
    # Under deal="first-around" the passed card becomes the next player's second post: while
    # that player calls a first-post ace, the card lies face down and no seat may see it.
    state = play(new(players=3, aces="first-card", passed_card="next-post"), "4C", "AC", "7D", "5H")
    state = play(state, "pass", "KS")  # seat 1 passes on 4-5; KS is set aside
    assert state.phase == "ace" and state.aside is not None and str(state.aside) == "KS"
    for seat in range(3):
        obs = state.observation(seat)
        assert "KS" not in obs["seen"] and "KS" not in obs["posts"] and "KS" not in obs["hand"]
        assert "KS" not in str(obs["last_event"])
    state = play(state, "ace low")
    assert [str(c) for c in state.posts] == ["AC", "KS"] and state.phase == "decide"


def test_the_rounds_last_pass_sets_no_card_aside() -> None:
    # The last seat of the round has no next player in the round: its pass turns no card.
    state = play(new(players=2, passed_card="next-post", rounds=1), "4C", "5D", "7H", "pass")
    state = play(state, "KS")  # seat 1 passed: KS set aside, becomes seat 0's second post
    assert [str(c) for c in state.posts] == ["5D", "KS"]
    assert play(state, "pass").is_terminal()


@pytest.mark.parametrize(
    ("options", "names"),
    [
        ({"deal": "common", "banking": "house", "preset": "red-dog"}, "deal"),
        ({"reshuffle": "deck-out"}, "reshuffle"),
        ({"pairs": "split"}, "pairs"),
        ({"three_posts": True}, "three_posts"),
    ],
)
def test_passed_card_rejects_incompatible_modes(options: dict[str, object], names: str) -> None:
    with pytest.raises(RulesError, match="“After a pass: Next player's post”") as info:
        Rules.resolve(passed_card="next-post", **options)
    assert info.value.params["options"] == ["passed_card", names]


# -- aces="dealer-declares" -----------------------------------------------------------------


def test_dealer_declares_aces_for_the_whole_round() -> None:
    # everything2: before the first card the dealer (seat 0) declares; aces low makes a first
    # post ace and a third-card ace both count 1.
    state = new(players=2, aces="dealer-declares")
    assert state.to_act == 0 and [str(a) for a in state.legal_actions()] == [
        "aces high",
        "aces low",
    ]
    assert (
        state.observation(0)["phase"] == "declare" and state.observation(1)["legal_actions"] == []
    )
    low = play(state, "aces low", "AC", "5C", "KD")
    assert low.observation(1)["aces_low"] is True
    assert play(low, "bet 1", "2H").chips[1] == 100  # 2 is between a low ace and K: won
    assert play(low, "bet 1", "AH").chips[1] == 97  # a low third ace hits the A post: -2
    high = play(state, "aces high", "AC", "5C", "KD")
    assert play(high, "bet 1", "2H").chips[1] == 98  # K-A are neighbours: outside


def test_declaration_is_only_for_the_dealer_and_renews_each_round() -> None:
    state = new(players=2, aces="dealer-declares")
    with pytest.raises(IllegalActionError):
        state.apply("aces low", seat=1)
    with pytest.raises(IllegalActionError, match="the dealer does not call the aces"):
        play(new(players=2), "2C").apply("aces low")
    state = play(state, "aces low", "2C", "3C", "4D", "pass", "5D", "pass")
    assert state.phase == "declare" and state.dealer == 1 and state.aces_low is None


def test_low_aces_keep_ace_specific_rules() -> None:
    # Seed 002's ace rules follow the ace wherever it ranks: a third ace on a pair of low aces
    # costs ace_pair_multiplier.
    rules = Rules.resolve(aces="dealer-declares", ace_pair_multiplier=4)
    assert settle(rules, (1, 1), "between", 1).multiplier == -4


# -- ante_back ------------------------------------------------------------------------------


def test_ante_back_caps_the_stake_at_the_ante_until_a_bet_is_won() -> None:
    # the-game-farm "Win Your Ante Back": seat 1 (ante 1, pot 2) may stake only 1 until it
    # wins a bet; after a win its cap is the usual one.
    state = play(new(players=2, ante_back=True), "2C", "3C", "KD")
    assert str(state.legal_actions()[-1]) == "bet 1"
    with pytest.raises(IllegalActionError, match="until you have won a bet"):
        state.apply("bet 2")
    state = play(state, "bet 1", "9H", "KH", "pass")  # won; round 2 (dealer 1): seat 0 first
    state = play(state, "2D", "3D", "4S", "pass", "AC")  # seat 0 passes; seat 1 has 3-A
    assert state.to_act == 1 and state.won == (False, True)
    assert str(state.legal_actions()[-1]) == f"bet {min(state.pot, state.chips[1] // 2)}"
    assert state.observation(1)["won_bet"] == [False, True]


def test_ante_back_rules_checks() -> None:
    with pytest.raises(
        RulesError, match="“Stake the ante until a win” and “Who banks: The house” cannot"
    ):
        Rules.resolve(preset="red-dog", ante_back=True)


# -- post_fee -------------------------------------------------------------------------------


def test_post_fee_is_paid_for_each_pair_of_posts_bet_or_pass() -> None:
    # Shemitz: each player pays a fee (2) into the pot for each pair of posts, pass or bet.
    state = play(new(players=2, post_fee=2), "4C", "5D", "QH")
    assert state.chips == (99, 97) and state.pot == 4
    state = play(state, "pass", "KD")
    assert state.chips == (97, 97) and state.pot == 6


def test_post_fee_is_paid_again_for_a_redealt_pair() -> None:
    # Each pair of posts pays: 7-8 is re-dealt under adjacent="redeal", the new pair pays too.
    state = play(new(players=2, post_fee=1, adjacent="redeal"), "7C", "2D", "8D", "3H", "JH")
    assert state.chips[1] == 97 and state.pot == 4


def test_post_fee_contradicts_ante_to_play_and_red_dog() -> None:
    with pytest.raises(RulesError, match="“Post fee” and “Ante to play” cannot be combined"):
        Rules.resolve(post_fee=1, ante_to_play=True)
    with pytest.raises(
        RulesError, match="“Post fee” and “Who banks: The house” cannot be combined"
    ):
        Rules.resolve(preset="red-dog", post_fee=1)


# -- the EV bot stays exact -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "cards"),
    [
        ({"aces": "dealer-declares"}, ("aces low", "AC", "9D", "KS")),
        ({"aces": "dealer-declares"}, ("aces low", "5C", "9D", "AS")),
        ({"ante_back": True}, ("3C", "9D", "QS")),
        ({"post_fee": 1, "aces": "first-card"}, ("AC", "9D", "ace low", "KS")),
        ({"post_fee": 1}, ("3C", "9D", "QS")),
        ({"passed_card": "next-post", "deal": "both-at-turn", "players": 3}, ("4C", "5D")),
    ],
)
def test_action_values_match_the_engines_outcomes(
    options: dict[str, object], cards: tuple[str, ...]
) -> None:
    state = play(new(**{"players": 2, **options}), *cards)
    seat = state.to_act
    assert seat is not None and not state.is_chance_node()
    values = action_values(state.observation(seat), state.rules)
    for text, value in values.items():
        if text.startswith(("bet", "pass")):
            assert value == engine_value(state, text), text


@pytest.mark.parametrize(
    "options",
    [
        {"aces": "dealer-declares", "post_fee": 1, "ante_back": True, "passed_card": "next-post"},
        {"preset": "sheets", "aces": "dealer-declares", "ace_third_loses": True, "post_fee": 2},
        {"aces": "dealer-declares", "ace_pair_multiplier": 4, "passed_card": "next-post"},
    ],
)
def test_action_values_stay_exact_through_random_games(options: dict[str, object]) -> None:
    # Along seeded random games, every stake's value equals the engine's own expectation.
    import random

    from aceydeucey import Seeded

    rng, chance = random.Random(5), Seeded(5)
    state = new(players=3, rounds=4, **options)
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.is_chance_node():
            after = state.apply(chance.choose(state))
        else:
            if state.phase == "decide":
                seat = state.to_act
                assert seat is not None
                values = action_values(state.observation(seat), state.rules)
                for text in [t for t in values if t.split()[0] in ("bet", "higher", "lower")][-1:]:
                    assert values[text] == engine_value(state, text), text
                    checked += 1
            after = state.apply(rng.choice(state.legal_actions()))
        assert isinstance(after, InBetweenState)
        state = after
    assert checked > 0


def test_new_events_are_narrated_in_both_languages() -> None:
    # The table narrates the declaration, the fee and the set-aside card (no card shown).
    from aceydeucey.cli.inbetween_ui import event_text

    names = ["Ann", "Bob", "Cy"]
    events = [
        ({"kind": "aces", "seat": 0, "low": True}, "Ann declares aces low", "ases baixos"),
        ({"kind": "fee", "seat": 1, "delta": -2, "pot": 6}, "post fee of 2; pot 6", "taxa"),
        ({"kind": "set-aside", "seat": 1}, "set aside face down", "de lado"),
    ]
    for event, en, pt in events:
        assert en in str(event_text(event, names, "en"))
        assert pt in str(event_text(event, names, "pt"))
