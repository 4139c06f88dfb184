"""The pot left at the end of a session, as the engine settles it and as people read it:
exact shares (``pot_shares``, in the observation once it is over), whole chips where they
are whole and a mixed number ("1½") where a split leaves a fraction, never "3/2", with a
sentence that says who took the pot and why."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

import aceydeucey
from aceydeucey.cli.inbetween_text import mixed, pot_split_text
from aceydeucey.cli.inbetween_ui import final_view
from aceydeucey.core.chance import Seeded
from aceydeucey.core.endings import end


def finished(seed: int, **options: object) -> aceydeucey.State:
    game = aceydeucey.load_game("inbetween", **options)
    state = game.new_initial_state()
    chance = Seeded(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(chance.choose(state))
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    return state


@given(st.integers(0, 10_000), st.sampled_from([2, 3, 4]))
def test_the_shares_divide_the_pot_left_exactly(seed: int, players: int) -> None:
    state = finished(seed, preset="guide", players=players, rounds=1)
    obs = state.observation(None)
    shares = [Fraction(v) for v in obs["pot_shares"]]
    assert sum(shares) == obs["pot"]
    # each seat's result is its chips and its share of the pot, less what it started with
    start = state.game.rules.starting_chips
    returns = [Fraction(r) for r in obs["outcome"]["returns"]]
    assert returns == [c + s - start for c, s in zip(obs["chips"], shares, strict=True)]


def test_the_shares_are_shown_only_once_the_session_is_over() -> None:
    state = aceydeucey.load_game("inbetween", preset="guide", players=3).new_initial_state()
    assert state.observation(None)["pot_shares"] is None


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_seat_that_gives_up_forfeits_its_share(seat: int) -> None:
    state = aceydeucey.load_game("inbetween", preset="guide", players=3).new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.chance_outcomes()[0][0])
    pot = state.pot
    ended = end(state, "resigned", seat)
    shares = [Fraction(v) for v in ended.observation(None)["pot_shares"]]
    assert shares[seat] == 0 and sum(shares) == pot
    assert all(shares[i] == Fraction(pot, 2) for i in range(3) if i != seat)


@pytest.mark.parametrize(
    ("value", "signed", "text"),
    [
        (Fraction(3, 2), False, "1½"),
        (Fraction(-3, 2), True, "-1½"),
        (Fraction(1, 2), True, "+½"),
        (Fraction(4), True, "+4"),
        (Fraction(0), True, "0"),
        (Fraction(17, 7), False, "2 3/7"),
        (Fraction(-2, 3), False, "-⅔"),
    ],
)
def test_a_number_of_chips_is_whole_or_a_mixed_number(
    value: Fraction, signed: bool, text: str
) -> None:
    assert mixed(value, signed=signed) == text


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            "The session ended with 3 chips in the pot, split equally between Ana and Bia:"
            " 1½ chips each.",
        ),
        (
            "pt",
            "A sessão terminou com 3 fichas no pote, dividido em partes iguais entre Ana e"
            " Bia: 1½ fichas para cada um.",
        ),
    ],
)
def test_the_final_standings_explain_a_split_pot(lang: str, words: str) -> None:
    panel = final_view(
        ["1/2", "-1/2"],
        [0],
        ["Ana", "Bia"],
        [99, 98],
        lang,
        starting_chips=100,
        pot_shares=["3/2", "3/2"],
    )
    console = Console(width=200, record=True, color_system=None)
    console.print(panel)
    text = " ".join(console.export_text().replace("│", " ").split())
    assert words in text, text
    assert "3/2" not in text and "1/2" not in text and "1.50" not in text
    assert "+½" in text and "-½" in text


def test_a_pot_that_goes_to_one_seat_names_it() -> None:
    assert pot_split_text(["0", "5"], ["Ana", "Bia"], "en") == (
        "The session ended with 5 chips in the pot: the pot goes to Bia."
    )
    assert pot_split_text(["0", "0"], ["Ana", "Bia"], "en") == ""
    three = pot_split_text(["1/3", "1/3", "1/3"], ["Ana", "Bia", "Caio"], "pt")
    assert three.endswith("entre Ana, Bia e Caio: ⅓ ficha para cada um."), three
