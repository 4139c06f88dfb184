"""The rules sheets state what the engine does: stake limits, who deals, debts.

Each preset is played to a decision on posts of each kind the sheet names (other posts,
a pair, a pair of aces, three posts' two gaps), and the engine's largest legal stake is
compared with the limit the sheet states (one's chips divided by the worst loss).
"""

from __future__ import annotations

import re

import pytest

from aceydeucey.inbetween.game import InBetweenState
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from aceydeucey.inbetween.sheet import cover_limits, rules_sheet
from tests.inbetween.inbetween_helpers import new, play

FILLER = ["2D", "3D", "5D", "6D", "8D", "TD", "JD"]
POSTS = {
    "ordinary": ["4C", "QD"],
    "first_gap": ["3C", "9D", "KH"],
    "pair": ["7C", "7D"],
    "ace_pair": ["AC", "AD"],
}
# Chips 7 against a pot of at least 8: the personal limit binds, not the pot.
TIGHT = {"ante": 2, "starting_chips": 9}


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def to_decision(preset: str, kind: str) -> InBetweenState:
    options = {"preset": preset, **TIGHT}
    if preset == "banker":
        options = {"preset": preset, "bank": 7, "starting_chips": 7}
    state = new(**options)
    posts = POSTS["first_gap" if kind == "second_gap" else kind]
    if state.rules.deal == "first-around":
        seats = len(state.order)
        cards = [posts[0], *FILLER[: seats - 1], *posts[1:]]
    else:
        cards = posts
    state = play(state, *cards)
    if kind == "second_gap":
        state = play(state, "pass")
    assert state.to_act == 1 and not state.is_chance_node(), kind
    return state


def top_stake(state: InBetweenState) -> int:
    return max(int(a.split()[1]) for a in map(str, state.legal_actions()) if " " in a)


@pytest.mark.parametrize("preset", [p for p in PRESET_NAMES if p != "red-dog"])
def test_the_sheets_stake_limits_are_the_engines(preset: str) -> None:
    rules = Rules.resolve(preset=preset)
    limits = cover_limits(rules)
    text = flat(rules_sheet(rules, "en"))
    for kind, mult in limits:
        state = to_decision(preset, kind)
        chips = state.chips[1]
        assert top_stake(state) == chips // mult, (kind, mult)
    if preset == "sheets":
        # Seed 002's equal-or-outside single loss: all your chips on other posts, half
        # on a pair (the same rank again costs 2 stakes).
        assert limits == [("ordinary", 1), ("pair", 2)]
        assert "on other posts, all your chips; on a pair, half your chips" in text
        assert "limited to half your own chips" not in text
    if preset == "three-posts":
        assert limits == [("first_gap", 2), ("second_gap", 3)]
        assert "on the first gap, half your chips" in text
        assert "on the second gap, your chips divided by 3" in text


def test_the_banker_has_no_turn_and_deals_the_rounds() -> None:
    text = flat(rules_sheet(Rules.resolve(preset="banker"), "en"))
    assert "After the dealer's turn" not in text
    assert "the banker gets no turn and deals 3 rounds" in text
    pt = flat(rules_sheet(Rules.resolve(preset="banker"), "pt"))
    assert "o banqueiro não joga e dá 3 voltas" in pt
    # The engine: three rounds by seat 0 with only seats 1-3 deciding.
    state = new(preset="banker")
    assert 0 not in state.order and state.dealer == 0


def test_red_dog_sheet_the_house_deals_and_nobody_goes_below_zero() -> None:
    text = flat(rules_sheet(Rules.resolve(preset="red-dog"), "en"))
    assert "The house deals every hand and shuffles; nobody cuts." in text
    for wrong in ("Seat 0 deals", "right cuts", "deal passes to the left", "below zero;"):
        assert wrong not in text, wrong
    assert "no balance goes below zero" in text
    # The engine: a raise never exceeds one's chips.
    state = play(new(preset="red-dog", players=1, starting_chips=1), "4C", "9D")
    assert [str(a) for a in state.legal_actions()] == ["stay"]


def test_changed_round_limits_read_as_numbers() -> None:
    text = flat(rules_sheet(Rules.resolve(round_limits=(1, 2, 4)), "en"))
    assert "Limits by round: 1, 2, 4" in text and "[1,," not in text and "round_limits" not in text


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_sheets_name_their_source_not_a_seed_file(preset: str, lang: str) -> None:
    text = rules_sheet(Rules.resolve(preset=preset), lang)
    assert "seed 00" not in text and "semente" not in text.lower()


def test_seats_count_from_one_on_the_sheet() -> None:
    # Option dealer=0 is the first seat: "Seat 1" to a reader, as on the terminal.
    assert "Seat 1 deals first." in flat(rules_sheet(Rules.resolve(), "en"))
    assert "Seat 3 deals first." in flat(rules_sheet(Rules.resolve(dealer=2), "en"))
    assert "O lugar 1" in flat(rules_sheet(Rules.resolve(), "pt"))
