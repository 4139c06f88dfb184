"""Every refusal of rule options, in every game, reads in the players' words.

The lobby form, the server's JSON and the terminal show a refused combination of options
as the catalogs render it: the options by the form's labels (``option.<game>.<name>`` of
the ``web`` catalog) and their values by the form's words (``choice.<game>.<name>.<value>``,
yes / no, seats from 1, a preset's name), never by the code names (``starting_chips``,
``banking='house'``, ``next-post``, ``1..inf``).  The error's params keep the code names and
values for API clients, and list the options concerned (``options``) so the lobby can mark
those fields.  Each refusal code of each game is triggered here, in English and Portuguese.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest

from aceydeucey.core.errors import RulesError
from aceydeucey.core.options import option_specs
from aceydeucey.core.registry import game_class
from aceydeucey.core.rules import RulesBase, contradiction
from aceydeucey.locale import catalog, t

IB, BG, ACES = "inbetween", "backgammon", "aces-in-the-pot"
RED_DOG = {"preset": "red-dog"}
BANKER = {"preset": "banker"}
THREE = {"preset": "three-posts"}
HIDDEN = {"hidden": True, "deal": "both-around"}
NEXT_POST = {"passed_card": "next-post"}

#: (game, options, the refusal's code): every refusal code of every game, at least once.
CASES: list[tuple[str, dict[str, Any], str]] = [
    # the shared ones (core/options.py, core/rules.py)
    (IB, {"starting_chips": -5}, "rules.out_of_range"),
    (IB, {"players": 99}, "rules.out_of_range"),
    (BG, {"match_length": 0}, "rules.out_of_range"),
    (ACES, {"players": 2}, "rules.out_of_range"),
    (IB, {"pairs": "zzz"}, "rules.not_a_choice"),
    (BG, {"start": "middle"}, "rules.not_a_choice"),
    (ACES, {"finish": "never"}, "rules.not_a_choice"),
    (IB, {"players": "x"}, "rules.wrong_type"),
    (IB, {"hidden": 3}, "rules.wrong_type"),
    (IB, {"round_limits": "x"}, "rules.wrong_type"),
    (IB, {"colour": "red"}, "rules.unknown_option"),
    (IB, {"preset": "x"}, "rules.unknown_preset"),
    (BG, {"variant": "x"}, "rules.unknown_preset"),
    # In-Between's own (inbetween/rules.py)
    (IB, {"round_limits": (0,)}, "ib_rules.round_limits_positive"),
    (IB, {"dealer": 5}, "ib_rules.dealer_not_a_seat"),
    (IB, {"players": 1}, "ib_rules.one_player_needs_house"),
    (IB, {"players": 9}, "ib_rules.players_for_preset"),
    (IB, {"banking": "house"}, "ib_rules.house_deals_common"),
    (IB, {**RED_DOG, "ante_each_round": False}, "ib_rules.house_antes_each_round"),
    (IB, {**RED_DOG, "ante": 0}, "ib_rules.house_needs_ante"),
    (IB, {**RED_DOG, "pairs": "bet"}, "ib_rules.house_pairs"),
    (IB, {**RED_DOG, "adjacent": "bet"}, "ib_rules.house_adjacent"),
    (IB, {**RED_DOG, "aces": "first-card"}, "ib_rules.house_aces"),
    (IB, {**RED_DOG, "three_posts": True}, "ib_rules.house_three_posts"),
    (IB, {**RED_DOG, "hidden": True}, "ib_rules.house_hidden"),
    (IB, {"pairs": "third-card"}, "ib_rules.third_card_needs_house"),
    (IB, {**RED_DOG, "bank": 0}, "ib_rules.house_needs_bank"),
    (IB, {**BANKER, "dealer_plays": True}, "ib_rules.banker_gets_no_cards"),
    (IB, {**BANKER, "bank": 0}, "ib_rules.banker_needs_bank"),
    (IB, {"empty_pot": "next-dealer"}, "ib_rules.next_dealer_needs_banker"),
    (IB, {**BANKER, "empty_pot": "replenish"}, "ib_rules.banker_no_replenish"),
    (IB, {"preset": "sheets", "ante": 0}, "ib_rules.replenish_needs_ante"),
    (IB, {"ante": 0}, "ib_rules.shared_needs_ante"),
    (IB, {**BANKER, "adjacent": "lose"}, "ib_rules.moves_an_ante"),
    (IB, {**BANKER, "pairs": "split"}, "ib_rules.moves_an_ante"),
    (IB, {**BANKER, "ante_to_play": True}, "ib_rules.ante_to_play_needs_ante"),
    (IB, {**RED_DOG, "ante_to_play": True}, "ib_rules.ante_to_play_house"),
    (IB, {**BANKER, "min_stake": "ante"}, "ib_rules.min_stake_needs_ante"),
    (IB, {"hidden": True}, "ib_rules.hidden_needs_both_around"),
    (IB, {"deal": "both-around"}, "ib_rules.both_around_needs_hidden"),
    (IB, {**THREE, "deal": "both-at-turn"}, "ib_rules.three_posts_deal"),
    (IB, {**THREE, "pairs": "redeal"}, "ib_rules.three_posts_bet_every_gap"),
    (IB, {**THREE, "adjacent": "redeal"}, "ib_rules.three_posts_bet_every_gap"),
    (IB, {**THREE, "aces": "first-card"}, "ib_rules.three_posts_aces"),
    (IB, {**BANKER, "three_posts": True}, "ib_rules.three_posts_needs_ante"),
    (IB, {**RED_DOG, "spread_pays": (1, 2, 3)}, "ib_rules.spread_pays_four"),
    (IB, {**HIDDEN, "aces": "first-card"}, "ib_rules.hidden_first_card"),
    (IB, {**HIDDEN, "reshuffle": "deck-out"}, "ib_rules.reshuffle_hidden"),
    (IB, {**RED_DOG, "post_fee": 1}, "ib_rules.post_fee_house"),
    (IB, {"post_fee": 1, "ante_to_play": True}, "ib_rules.post_fee_ante_to_play"),
    (IB, {**RED_DOG, "ante_back": True}, "ib_rules.ante_back_house"),
    (IB, {**BANKER, "ante_back": True}, "ib_rules.ante_back_needs_ante"),
    (IB, {**NEXT_POST, **HIDDEN}, "ib_rules.passed_card_deal"),
    (IB, {**NEXT_POST, "reshuffle": "deck-out"}, "ib_rules.passed_card_reshuffle"),
    (IB, {**NEXT_POST, "pairs": "split"}, "ib_rules.passed_card_split"),
    (IB, {**THREE, **NEXT_POST}, "ib_rules.passed_card_three_posts"),
    (IB, {"dealer_games": 2}, "ib_rules.dealer_games_needs_banker"),
    (IB, {"bank": 50}, "ib_rules.moot_option"),
    (IB, {"spread_pays": (6, 4, 2, 1)}, "ib_rules.moot_option"),
    (IB, {**RED_DOG, "dealer": 2}, "ib_rules.moot_option"),
    (IB, {**RED_DOG, "dealer": "draw"}, "ib_rules.moot_option"),
    (IB, {"pair_match_multiplier": 3}, "ib_rules.moot_option"),
    (IB, {"rounds": 1, "reshuffle": "deck-out"}, "ib_rules.moot_option"),
    (IB, {"second_post_multiplier": 5}, "ib_rules.moot_option"),
    # backgammon's own (backgammon/rules.py)
    (BG, {"variant": "classic", "entry_gate": "six"}, "bg.rules.needs_off_board"),
    (
        BG,
        {"start": "long", "must_enter_all_before": "passing_opp_12pt"},
        "bg.rules.needs_off_board",
    ),
    (BG, {"variant": "classic", "acey_chain_limit": 2}, "bg.rules.needs_acey"),
    (BG, {"variant": "dutch", "acey_doubles_choice": "rolled"}, "bg.rules.needs_acey"),
    (
        BG,
        {"unplayable_remainder": "to_opponent", "must_use_max_dice": False},
        "bg.rules.remainder_free_choice",
    ),
    (BG, {"cube": "match"}, "bg.rules.match_needs_length"),
    (BG, {"cube": "money", "match_length": 5}, "bg.rules.cube_contradiction"),
    (BG, {"jacoby": True}, "bg.rules.cube_contradiction"),
    (BG, {"cube": "money", "crawford": True}, "bg.rules.cube_contradiction"),
    (BG, {"max_cube": 8}, "bg.rules.cube_contradiction"),
    (BG, {"cube": "money", "max_cube": 6}, "bg.rules.max_cube_power"),
    # Aces in the Pot's own (aces_in_the_pot/rules.py)
    (ACES, {"first_roller": 5}, "aces.first_roller_not_seat"),
]


def rules_of(game: str) -> type[RulesBase]:
    rules: type[RulesBase] = game_class(game).rules_class
    return rules


def refused(game: str, options: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as err:
        rules_of(game).resolve(**options)
    return err.value


@cache
def said(game: str, lang: str) -> str:
    """Every label and word of ``game`` the lobby form shows in ``lang``."""
    web = catalog("web", lang)
    return " ".join(
        text for key, text in web.items() if key.split(".")[0] in ("option", "choice", "preset")
    )


@cache
def code_names(game: str, lang: str) -> tuple[str, ...]:
    """What only code says in ``game``: option names that are no plain word
    (``starting_chips``), choices and presets whose raw value is no plain word
    (``third-card``, ``off_board``), and the game's id where it is none, each unless the
    form's own words in ``lang`` say it too (a label may name "acey-deucey")."""
    rules = rules_of(game)
    names = {game, *rules.PRESETS}
    for spec in option_specs(rules):
        names.add(spec.name)
        names.update(str(c) for c in spec.choices or () if isinstance(c, str))
        names.update(str(w) for w in spec.words if isinstance(w, str))
    plain = re.compile(r"[A-Za-z]+")
    own = said(game, lang)
    return tuple(
        sorted(
            n
            for n in names
            if not plain.fullmatch(n) and not re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", own)
        )
    )


def leaks(text: str, game: str, lang: str) -> list[str]:
    found = [
        n for n in code_names(game, lang) if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)
    ]
    found += re.findall(r"\b[a-z_]+\s*=\s*\S+", text)  # option=value, the code's way
    found += re.findall(r"\d\.\.(?:\d|inf)|-inf\b|\bTrue\b|\bFalse\b|\bNone\b", text)
    return found


def label(game: str, name: str, lang: str) -> str:
    rules = rules_of(game)
    if name == rules.PRESET_KEY:
        return t("web", "lobby.preset", lang)
    return t("web", f"option.{game}.{name}", lang)


def test_every_refusal_code_of_every_game_is_triggered() -> None:
    catalogued = {
        code
        for domain in ("errors", "inbetween_rules_errors", "backgammon_errors", "aces_errors")
        for code in catalog(domain, "en")
        if code.startswith(("rules.", "ib_rules.", "bg.rules.", "aces.first_roller"))
        and not code.startswith(("rules.kind.", "rules.bound.", "rules.text"))
    }
    assert catalogued - {code for _, _, code in CASES} == {"rules.contradiction"}


@pytest.mark.parametrize("lang", ["en", "pt"])
@pytest.mark.parametrize(
    ("game", "options", "code"), CASES, ids=[f"{c}-{'-'.join(o)}" for _, o, c in CASES]
)
def test_a_refusal_says_the_players_words_not_the_code_names(
    game: str, options: dict[str, Any], code: str, lang: str
) -> None:
    err = refused(game, options)
    assert err.code == code, (err.code, err.params)
    text = err.render(lang)
    assert leaks(text, game, lang) == [], text
    concerned = err.params["options"]
    assert isinstance(concerned, list)
    if code != "rules.unknown_option":
        assert concerned, err.params
    for name in concerned:
        assert name in [*rules_of(game).option_names(), rules_of(game).PRESET_KEY]
        assert label(game, name, lang) in text, (name, text)


def test_the_params_keep_the_code_names_and_the_values() -> None:
    err = refused(IB, {"starting_chips": -5})
    assert err.params["options"] == ["starting_chips"]
    assert (err.params["option"], err.params["value"], err.params["min"]) == (
        "starting_chips",
        -5,
        1,
    )
    assert err.render("en") == "“Starting chips” must be at least 1 (it was -5)"
    assert err.render("pt") == "«Fichas iniciais» tem de ser pelo menos 1 (era -5)"
    err = refused(IB, {"banking": "house"})
    assert err.params["options"] == ["banking", "deal"]
    assert (err.params["banking"], err.params["deal"]) == ("house", "first-around")
    assert "“Who banks: The house”" in err.render("en")
    err = refused(IB, {**RED_DOG, "dealer": 2})
    assert (err.params["option"], err.params["value"], err.params["by"]) == ("dealer", 2, "banking")
    assert "“First dealer: Seat 3”" in err.render("en")  # a seat counted from 1


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_generic_contradiction_speaks_the_same_words(lang: str) -> None:
    err = contradiction(rules_of(IB).resolve(), "banking", "deal")
    assert err.code == "rules.contradiction" and err.params["options"] == ["banking", "deal"]
    text = err.render(lang)
    assert leaks(text, IB, lang) == [], text
    assert label(IB, "banking", lang) in text and label(IB, "deal", lang) in text


def test_a_refusal_kept_without_its_game_still_renders() -> None:
    # an old record's termination: the params as they were, no game and no options
    from aceydeucey.locale import render_error

    text = render_error("ib_rules.house_needs_ante", {}, "pt")
    assert "ante" in text and "{" not in text
