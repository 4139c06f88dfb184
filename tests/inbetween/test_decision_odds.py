"""One odds function for the decision at hand: ``posts_odds`` (posts, seen cards, a call)
and ``decision_odds`` (a seat's observation), shared by ``aceydeucey odds``, the in-game
``?`` and the EV bot.  Each value is checked against a count written here or against the
engine's own chance outcomes.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from aceydeucey import Seeded, Table
from aceydeucey.cards import Card
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.bots import ExpectedValueBot, RandomBot
from aceydeucey.inbetween.game import InBetweenGame, InBetweenState
from aceydeucey.inbetween.odds import decision_odds, posts_odds
from aceydeucey.inbetween.rules import Rules
from tests.inbetween.inbetween_helpers import new, play


def cards(*texts: str) -> list[Card]:
    return [Card.from_text(t) for t in texts]


def engine_value(state: InBetweenState, text: str) -> Fraction:
    """A stake's expected net chips over the engine's own chance outcomes."""
    after = state.apply(text)
    total = Fraction(0)
    for card, p in after.chance_outcomes():
        settled = after.apply(card)
        assert isinstance(settled, InBetweenState)
        total += p * dict(settled.event)["delta"]
    return total


def test_red_dog_pair_is_trips_at_eleven_to_one_else_a_push() -> None:
    # 7C 7D: 2 sevens among 50 unseen cards; trips pay 11 to 1, anything else pushes.
    odds = posts_odds(Rules.resolve(preset="red-dog"), cards("7C", "7D"))
    assert odds.decision == "trips"
    (ante,) = odds.bets
    assert ante.ev_per_chip == Fraction(11 * 2, 50) == Fraction(11, 25)
    assert ante.chance("trips") == Fraction(2, 50) and ante.chance("push") == Fraction(48, 50)


def test_red_dog_neighbours_push() -> None:
    odds = posts_odds(Rules.resolve(preset="red-dog"), cards("4C", "5D"))
    assert odds.decision == "push" and odds.bets[0].ev_per_chip == 0


def test_red_dog_spread_pays_its_odds() -> None:
    # 4C 6D: spread 1 pays 5 to 1: 4 fives inside, 46 outside or on a post.
    odds = posts_odds(Rules.resolve(preset="red-dog"), cards("4C", "6D"))
    assert odds.decision == "raise"
    assert odds.bets[0].ev_per_chip == Fraction(5 * 4 - 46, 50)


def test_sheets_pair_needs_a_call_and_values_it() -> None:
    rules = Rules.resolve(preset="sheets")
    with pytest.raises(ArgumentError) as info:
        posts_odds(rules, cards("7C", "7D"))
    assert info.value.code == "ib_odds.call_needed" and "--call higher" in str(info.value)
    assert "--call higher" in info.value.render("pt")
    higher = posts_odds(rules, cards("7C", "7D"), call="higher").bets[0]
    # 8..A: 28 cards win, 2 sevens cost pair_match_multiplier (2), 20 lower lose one.
    assert higher.action == "higher"
    assert higher.ev_per_chip == Fraction(28 - 20 - 2 * 2, 50)
    with pytest.raises(ArgumentError, match="only on a pair"):
        posts_odds(rules, cards("4C", "QD"), call="higher")


def test_an_ace_call_where_aces_are_always_high_is_refused() -> None:
    with pytest.raises(ArgumentError) as info:
        posts_odds(Rules.resolve(), cards("AC", "5D"), ace_low=True)
    assert info.value.code == "ib_odds.aces_high"


def test_first_card_ace_shows_both_calls() -> None:
    odds = posts_odds(Rules.resolve(aces="first-card"), cards("AC", "5D"))
    assert odds.decision == "ace"
    by_call = {b.after: b for b in odds.bets}
    # Low: 2, 3, 4 inside (12); the 3 fives on a post; 35 outside (third aces are high).
    assert by_call["ace low"].ev_per_chip == Fraction(12 - 35 - 2 * 3, 50)
    # High: 6..K inside (32); 12 outside.
    assert by_call["ace high"].ev_per_chip == Fraction(32 - 12 - 2 * 6, 50)


def test_dealer_declared_aces_low_in_play() -> None:
    # The case: posts AC 5D after the dealer declared aces low, a 9 seen: -31/49,
    # not the +1/7 of aces high.  Seat 0 deals and declares; seat 1 gets AC then 5D.
    state = play(new(players=2, aces="dealer-declares"), "aces low", "AC", "9H", "5D")
    assert state.to_act == 1
    rules = state.rules
    odds = decision_odds(rules, state.observation(1))
    assert odds.decision == "bet"
    assert odds.bets[0].ev_per_chip == Fraction(-31, 49)
    for text, value in odds.values.items():
        if text.startswith("bet"):
            assert value == engine_value(state, text)
    high = play(new(players=2, aces="dealer-declares"), "aces high", "AC", "9H", "5D")
    assert decision_odds(rules, high.observation(1)).bets[0].ev_per_chip == Fraction(1, 7)
    # The same function from the posts and the seen card:
    low = posts_odds(rules, cards("AC", "5D"), cards("9H"), ace_low=True)
    assert low.bets[0].ev_per_chip == Fraction(-31, 49)


def test_red_dog_raise_values_count_the_riding_ante() -> None:
    state = play(new(preset="red-dog", players=1), "4C", "9D")
    odds = decision_odds(state.rules, state.observation(0))
    per_chip = odds.bets[0].ev_per_chip
    assert odds.decision == "raise"
    assert odds.values["stay"] == 1 * per_chip
    assert odds.values["raise 1"] == 2 * per_chip


def test_three_posts_first_gap_then_the_compulsory_second() -> None:
    rules = Rules.resolve(preset="three-posts")
    state = play(new(preset="three-posts", players=2), "3C", "5C", "9D", "KH")
    first = decision_odds(rules, state.observation(1))
    assert first.bets[0].gap == 1 and first.bets[0].posts == (3, 9) and not first.forced
    for text in ("bet 1", "bet 2"):
        assert first.values[text] == engine_value(state, text)
    state = play(state, "pass")
    second = decision_odds(rules, state.observation(1))
    assert second.forced and second.bets[0].gap == 2 and second.bets[0].posts == (9, 13)
    for text in ("bet 1", "bet 2"):
        assert second.values[text] == engine_value(state, text)


def test_ace_call_values_in_play() -> None:
    state = play(new(players=2, aces="first-card"), "AC", "5C")
    odds = decision_odds(state.rules, state.observation(1))
    assert odds.decision == "ace" and set(odds.values) == {"ace low", "ace high"}


class Stripped:
    """Seats an EV bot and hands it observations without any ``rules`` entry."""

    def __init__(self) -> None:
        self.bot = ExpectedValueBot()
        self.rules: Rules | None = None

    def seated(self, game: InBetweenGame, seat: int) -> None:
        self.bot.seated(game, seat)
        self.rules = game.rules

    def act(self, observation: dict[str, object]) -> str:
        obs = {k: v for k, v in observation.items() if k != "rules"}
        assert self.rules is not None
        assert self.bot.values(obs) == dict(decision_odds(self.rules, obs).values)
        return self.bot.act(obs)


@pytest.mark.parametrize("preset", ["guide", "sheets", "red-dog", "three-posts"])
def test_the_ev_bot_asks_the_same_function_and_needs_no_rules_in_observations(
    preset: str,
) -> None:
    # Seated by a Table, the bot plays whole sessions from observations stripped of any
    # ``rules`` entry; its values are decision_odds' values.
    game = InBetweenGame(Rules.resolve(preset=preset))
    agents = [Stripped(), *(RandomBot(i) for i in range(game.num_players - 1))]
    Table(game, agents, chance=Seeded(7)).play()
    with pytest.raises(ArgumentError):
        ExpectedValueBot().values({"legal_actions": ["pass"], "seat": 0})


def engine_hand_value(state: InBetweenState, seat: int) -> Fraction:
    """After an ace call: over the engine's second posts, the better of pass and the best
    stake (by the engine's own settlement), or the chips the posts' rule moves by itself."""
    total = Fraction(0)
    for card, p in state.chance_outcomes():
        after = state.apply(card)
        assert isinstance(after, InBetweenState)
        if after.to_act == seat and not after.is_chance_node() and after.legal_actions():
            best = Fraction(0)
            for action in map(str, after.legal_actions()):
                if action.split()[0] in ("bet", "higher", "lower"):
                    best = max(best, engine_value(after, action))
        else:
            best = Fraction(after.chips[seat] - state.chips[seat])
        total += p * best
    return total


@pytest.mark.parametrize(
    "options",
    [
        {"adjacent": "lose"},
        {"adjacent": "push"},
        {"pairs": "win", "pair_win": 3},
        {"pairs": "push"},
        {},
    ],
)
def test_ace_call_values_follow_the_pair_and_neighbour_rules(options: dict[str, object]) -> None:
    # A first-post ace called before its second post: each call's value is the engine's own
    # expectation over the second post, neighbours and pairs included.
    state = play(new(players=2, aces="first-card", **options), "AC", "9H")
    assert state.to_act == 1 and {"ace low", "ace high"} <= {str(a) for a in state.legal_actions()}
    values = decision_odds(state.rules, state.observation(1)).values
    for call in ("ace low", "ace high"):
        assert values[call] == engine_hand_value(state.apply(call), 1), call


def test_an_ace_call_that_makes_neighbours_shows_their_rule() -> None:
    # A♣ 2♦ with neighbours losing the ante: called low they are neighbours (the ante is
    # lost, no bet); called high they span 3..K.
    rules = Rules.resolve(aces="first-card", adjacent="lose")
    odds = posts_odds(rules, cards("AC", "2D"))
    low = [b for b in odds.bets if b.after == "ace low"]
    assert [(b.action, b.ev_per_chip) for b in low] == [("ante", -1)]
    high = [b for b in odds.bets if b.after == "ace high"]
    assert [b.action for b in high] == ["bet"] and high[0].chance("inside") > 0
