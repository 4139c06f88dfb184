"""Refusals as a person reads them: seats counted from 1, and the actions a refusal echoes
or lists in the player's language (the words the Portuguese terminal accepts, ``cmd.*``),
whichever front end renders them (the pages show the server's rendering)."""

from __future__ import annotations

import random
import re

import pytest

import aceydeucey
from aceydeucey.core.errors import AceyDeuceyError, IllegalActionError
from aceydeucey.locale import catalog, command_words, render_error

#: The English words a player types in In-Between (its catalog's ``cmd.*``).
ENGLISH_WORDS = sorted(
    {text for key, text in catalog("inbetween", "en").items() if key.startswith("cmd.")}
)

#: What a person might type at any moment of the three games: every kind of action.
TRIES = [
    "pass", "bet 1", "bet 999", "higher 1", "lower 1", "split", "stay", "raise 1",
    "ace low", "ace high", "aces low", "aces high", "5H", "double", "take", "drop",
    "8/5", "die 4", "5-3", "roll",
]  # fmt: skip

GAMES = [
    ("inbetween", {"preset": "guide", "players": 3}),
    ("inbetween", {"preset": "guide", "players": 3, "aces": "dealer-declares", "dealer": 2}),
    ("inbetween", {"preset": "guide", "players": 2, "aces": "first-card", "pairs": "split"}),
    ("inbetween", {"preset": "red-dog", "players": 2}),
    ("inbetween", {"preset": "three-posts", "players": 3}),
    ("inbetween", {"preset": "sheets", "players": 3, "pairs": "higher-lower"}),
    ("backgammon", {}),
    ("aces-in-the-pot", {"players": 3}),
]


def refusals(game_id: str, options: dict[str, object], lang: str, steps: int = 120) -> list[str]:
    """Every refusal met when each of ``TRIES`` is tried at each state of a random game;
    in the games with no words of their own for actions (backgammon's and Aces in the
    Pot's are notation: ``8/5``, ``5-3``) what was typed is left out of the refusal that
    echoes it (an In-Between word typed at a backgammon board is echoed as typed)."""
    own_words = bool(command_words(game_id.replace("-", "_"), lang))
    game = aceydeucey.load_game(game_id, **options)
    state = game.new_initial_state()
    rng = random.Random(7)
    out: list[str] = []
    for _ in range(steps):
        if state.is_terminal():
            break
        for text in TRIES:
            try:
                state.apply(text)
            except AceyDeuceyError as exc:
                shown = exc.render(lang)
                if not own_words:
                    shown = shown.replace(text, "…").replace(text.split()[0], "…")
                out.append(shown)
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        state = state.apply(rng.choice(actions))
    return out


def english_words_in(text: str) -> list[str]:
    return [w for w in ENGLISH_WORDS if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def test_the_portuguese_words_are_the_terminals() -> None:
    words = command_words("inbetween", "pt")
    assert words["bet"] == "apostar" and words["pass"] == "passar"
    assert words["ace low"] == "ás baixo"
    assert command_words("inbetween", "en") == {}  # English keeps the canonical words


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=lambda v: str(v))
def test_portuguese_refusals_list_no_english_command_word(
    game_id: str, options: dict[str, object]
) -> None:
    met = refusals(game_id, options, "pt")
    assert met, "the sweep met refusals"
    leaks = {text: english_words_in(text) for text in met if english_words_in(text)}
    assert leaks == {}


def test_a_refused_call_lists_the_legal_actions_in_portuguese() -> None:
    # a pair of posts is dealt under guide rules: "higher" is refused, and the refusal
    # lists what the player may do, in the words the Portuguese terminal accepts
    g = aceydeucey.load_game("inbetween", preset="guide", players=2)
    s = g.new_initial_state()
    while s.is_chance_node():
        s = s.apply(s.chance_outcomes()[0][0])
    with pytest.raises(IllegalActionError) as refused:
        s.apply("higher 1")
    assert refused.value.code == "call.not_with_posts"
    assert refused.value.params["allowed"] == ["bet", "pass"]  # the engine's data stay canonical
    text = refused.value.render("pt")
    assert text.startswith("acima 1:") and text.endswith("pode: apostar, passar"), text
    assert refused.value.render("en").endswith("you may bet, pass")


@pytest.mark.parametrize("dealer", [0, 2])
def test_the_dealer_who_must_declare_is_counted_from_1(dealer: int) -> None:
    g = aceydeucey.load_game(
        "inbetween", preset="guide", players=3, aces="dealer-declares", dealer=dealer
    )
    s = g.new_initial_state()
    with pytest.raises(IllegalActionError) as refused:
        s.apply("bet 1")
    assert refused.value.code == "aces.declare_first"
    assert refused.value.params["seat"] == dealer  # the engine counts from 0
    assert f"seat {dealer + 1}, the dealer" in refused.value.render("en")
    assert f"o lugar {dealer + 1}, o dador" in refused.value.render("pt")


def test_a_seat_in_any_message_is_shown_counted_from_1() -> None:
    # every catalogued code with a seat param: rendered with seat 0, it says "seat 1"
    # (or names no seat at all), never "seat 0"; the engines' params stay as they are
    codes = {
        "card.not_now": {"card": "5H"},
        "session.cannot_ante": {"ante": 1},
        "session.cannot_replenish": {"ante": 1},
        "session.dealer_cannot_bank": {"bank": 20},
        "aces.pot_won": {"pot": 6},
        "aces.rolloff_one_die": {"action": "5-3"},
        "aces.throw_both_dice": {"action": "die 4"},
        "table.too_many_retries": {"tries": 3},
        "server.not_your_roll": {},
        "server.seat_taken": {},
        "server.claim_too_soon": {"seconds": 5},
        "bg.who.seat": {},
    }
    for code, params in codes.items():
        for lang, word in (("en", "seat"), ("pt", "lugar")):
            text = render_error(code, {**params, "seat": 0}, lang)
            assert f"{word} 1" in text and f"{word} 0" not in text, (code, lang, text)


#: Messages that speak of a seat by its index as a program gives it (an API's argument,
#: a position set up in code), not of a seat a person sees.
INDEX_MESSAGES = {
    "observation.bad_seat",
    "aces.no_seat",
    "aces.roller_without_chips",
    "bg.new_state.seat",
    "server.seat_unknown",
}


def test_no_person_facing_message_shows_a_seat_from_0() -> None:
    from aceydeucey.locale import ERROR_DOMAINS

    found = [
        key
        for domain in ERROR_DOMAINS
        for lang in ("en", "pt")
        for key, text in catalog(domain, lang).items()
        if "{seat}" in text and key not in INDEX_MESSAGES
    ]
    assert found == []
