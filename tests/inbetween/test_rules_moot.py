"""Options that have no effect in the chosen rules are refused, naming what makes them moot.

A preset's own values never trip the check: only a value explicitly different from what the
preset implies (its own options, else the option's default) is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from aceydeucey.locale import option_label


@pytest.mark.parametrize(
    ("options", "option", "by"),
    [
        ({"bank": 50}, "bank", "banking"),
        ({"preset": "red-dog", "post_multiplier": 3}, "post_multiplier", "banking"),
        ({"preset": "red-dog", "dealer": "draw"}, "dealer", "banking"),
        ({"preset": "red-dog", "dealer": 2}, "dealer", "banking"),
        ({"spread_pays": (6, 4, 2, 1)}, "spread_pays", "banking"),
        ({"preset": "sheets", "spread_pays": (6, 4, 2, 1)}, "spread_pays", "banking"),
        ({"trips_pays": 12}, "trips_pays", "banking"),
        ({"preset": "red-dog", "pairs": "push", "trips_pays": 12}, "trips_pays", "pairs"),
        ({"preset": "red-dog", "stake_cap": "cover"}, "stake_cap", "banking"),
        ({"preset": "red-dog", "round_limits": (1, 2)}, "round_limits", "banking"),
        ({"preset": "red-dog", "first_round_limit": "half-pot"}, "first_round_limit", "banking"),
        ({"preset": "red-dog", "min_stake": "ante"}, "min_stake", "banking"),
        ({"preset": "red-dog", "empty_pot": "replenish"}, "empty_pot", "banking"),
        ({"pair_win": 3}, "pair_win", "pairs"),
        ({"pair_match_multiplier": 3}, "pair_match_multiplier", "pairs"),
        ({"ace_third_loses": True}, "ace_third_loses", "pairs"),
        ({"pairs": "redeal", "ace_pair_multiplier": 4}, "ace_pair_multiplier", "pairs"),
        ({"second_post_multiplier": 4}, "second_post_multiplier", "three_posts"),
        ({"preset": "banker", "ante_each_round": False}, "ante_each_round", "ante"),
    ],
)
def test_a_moot_option_is_refused_naming_what_makes_it_moot(
    options: dict[str, Any], option: str, by: str
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.resolve(**options)
    err = info.value
    assert err.code == "ib_rules.moot_option"
    assert err.params["option"] == option and err.params["by"] == by
    assert err.params["options"] == [option, by]
    en, pt = str(err), err.render("pt")
    assert f"“{option_label('inbetween', option)}: " in en and "has no effect with" in en
    assert f"«{option_label('inbetween', option, 'pt')}: " in pt and "não tem efeito" in pt
    assert f"«{option_label('inbetween', by, 'pt')}: " in pt


def test_the_issue_examples_read_well() -> None:
    with pytest.raises(RulesError, match=r"“Bank: 50” has no effect with “Who banks: Shared pot”"):
        Rules.resolve(bank=50)
    with pytest.raises(RulesError, match=r"“Spread payouts: 6, 4, 2, 1” has no effect with “Who"):
        Rules.resolve(spread_pays=(6, 4, 2, 1))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_presets_own_values_never_trip_the_check(preset: str) -> None:
    # Every preset resolves, and so does every option restated at the value it implies
    # (a record's fully resolved rules load back).
    rules = Rules.resolve(preset=preset)
    assert Rules.from_dict(rules.to_dict()) == rules
    for name, value in rules.implied().items():
        if name != "preset":
            assert Rules.resolve(preset=preset, **{name: value}) == rules


def test_options_that_do_take_effect_stay_accepted() -> None:
    assert Rules.resolve(preset="banker", bank=30).bank == 30
    assert Rules.resolve(preset="red-dog", trips_pays=12, spread_pays=(6, 4, 2, 1)).trips_pays == 12
    assert Rules.resolve(pairs="win", pair_win=3).pair_win == 3
    assert Rules.resolve(preset="sheets", ace_third_loses=True, pair_match_multiplier=3)
    assert Rules.resolve(pairs="split", ace_pair_multiplier=4).ace_pair_multiplier == 4
    assert Rules.resolve(preset="three-posts", second_post_multiplier=4)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"dealer": 7},
        {"pairs": "third-card"},
        {"preset": "red-dog", "aces": "first-card"},
        {"preset": "banker", "dealer_plays": True},
        {"hidden": True},
        {"three_posts": True, "pairs": "win"},
        {"post_fee": 1, "ante_to_play": True},
        {"passed_card": "next-post", "pairs": "split"},
        {"round_limits": (2, 0)},
        {"dealer_games": 2},
    ],
)
def test_every_contradiction_is_coded_and_speaks_portuguese(options: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as info:
        Rules.resolve(**options)
    err = info.value
    assert err.code.startswith("ib_rules.") and not err.code.endswith(".text")
    pt = err.render("pt")
    assert pt != str(err) and pt.startswith("«") and "inbetween" not in pt
    assert not any(w in pt for w in ("needs", "cannot be combined", " and "))
