"""Tesauro's pubeval: its published weights, its input encoding, and the bot that uses it."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon import pubeval
from aceydeucey.backgammon.board import Position, standard_start
from aceydeucey.backgammon.bots import BOTS, PubevalBot, play_result
from aceydeucey.backgammon.rules import VARIANTS
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.registry import load_game, make_bot
from aceydeucey.core.table import Table

CLASSIC = load_game("backgammon", variant="classic")


def board(points: dict[int, int]) -> tuple[int, ...]:
    cells = [0] * 24
    for point, count in points.items():
        cells[point - 1] = count
    return tuple(cells)


def choice(position: Position, dice: tuple[int, int]) -> str:
    """What a seated pubeval bot plays with ``dice`` from ``position`` (classic rules)."""
    bot = PubevalBot()
    bot.seated(CLASSIC, 0)
    state = CLASSIC.new_state(position=position, dice=dice)
    return bot.act(state.observation(0))


# -- the weights, as published ------------------------------------------------------------


def test_two_vectors_of_122_weights() -> None:
    assert len(pubeval.RACE_WEIGHTS) == len(pubeval.CONTACT_WEIGHTS) == pubeval.INPUTS == 122


def test_weights_read_as_pubeval_c_prints_them() -> None:
    # Spot checks against pubeval.c: wr[] then wc[], first, middle and last entries.
    race, contact = pubeval.RACE_WEIGHTS, pubeval.CONTACT_WEIGHTS
    assert (race[1], race[2], race[6], race[119], race[121]) == (
        -0.17160,
        0.27010,
        -1.40375,
        -12.32252,
        3.42040,
    )
    assert (contact[0], contact[1], contact[60], contact[120], contact[121]) == (
        0.25696,
        -0.66937,
        -0.69851,
        5.62596,
        -2.75800,
    )
    # An opposing blot cannot matter in a race: every first input of a point weighs 0.
    assert all(race[5 * k] == 0.0 for k in range(24))
    assert race[120] == 0.0


# -- the encoding -------------------------------------------------------------------------


def test_inputs_of_a_hand_made_position() -> None:
    # Ours: 1 on the 24-point, 3 on the 6-point, 5 on the 13-point, 2 on the 1-point,
    # 4 off; the opponent: a blot on our 20-point, 3 on our 3-point, 2 on the bar.
    position = Position(board({24: 1, 13: 5, 6: 3, 1: 2, 20: -1, 3: -3}), (0, 2), (0, 0), (4, 9))
    x = pubeval.inputs(position)
    expected = [0.0] * 122
    expected[5 * 0 + 1] = 1.0  # point 24: exactly one of ours
    expected[5 * 4 + 0] = 1.0  # point 20: an opposing blot
    expected[5 * 11 + 2] = 1.0  # point 13: two or more
    expected[5 * 11 + 4] = 1.0  # ... and (5 - 3) / 2 above three
    expected[5 * 18 + 2] = 1.0  # point 6: two or more
    expected[5 * 18 + 3] = 1.0  # ... exactly three
    expected[5 * 23 + 2] = 1.0  # point 1: two or more
    expected[120] = 1.0  # two opposing checkers on the bar, halved
    expected[121] = 4 / 15  # four of ours off
    assert x == expected  # the opposing point of three (our 3-point) is no input


def _positions() -> st.SearchStrategy[Position]:
    """Random legal-looking positions: 15 checkers a side spread over points, bar and off."""

    @st.composite
    def build(draw: st.DrawFn) -> Position:
        cells = [0] * 24
        own_bar = opp_bar = own_off = opp_off = 0
        for sign in (1, -1):
            for _ in range(15):
                where = draw(st.integers(0, 26))
                if where < 24 and cells[where] * sign >= 0:
                    cells[where] += sign
                elif where == 24:
                    own_bar, opp_bar = (
                        (own_bar + 1, opp_bar) if sign > 0 else (own_bar, opp_bar + 1)
                    )
                elif sign > 0:
                    own_off += 1
                else:
                    opp_off += 1
        return Position(tuple(cells), (own_bar, opp_bar), (0, 0), (own_off, opp_off))

    return build()


@settings(max_examples=300, deadline=None)
@given(_positions(), st.booleans())
def test_the_fast_score_is_the_dot_product_of_inputs_and_weights(
    position: Position, race: bool
) -> None:
    weights = pubeval.RACE_WEIGHTS if race else pubeval.CONTACT_WEIGHTS
    dot = sum(w * x for w, x in zip(weights, pubeval.inputs(position), strict=True))
    expected = pubeval.WIN_SCORE if position.off[0] == 15 else dot
    assert pubeval.score(position, race) == pytest.approx(expected, abs=1e-9)


def test_race_and_contact() -> None:
    # Every one of ours below every opposing checker (in our numbering): a race.
    assert pubeval.is_race(Position(board({6: 10, 3: 5, 7: -10, 20: -5})))
    # One of ours behind an opposing checker: contact; so is a checker on the bar.
    assert not pubeval.is_race(Position(board({8: 1, 6: 14, 7: -15})))
    assert not pubeval.is_race(Position(board({6: 14, 20: -15}), (1, 0)))
    assert not pubeval.is_race(standard_start())


# -- the bot -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "play"),
    # Opening moves every book gives (and pubeval finds): make points, run the back men.
    [
        ((3, 1), "8/5 6/5"),
        ((4, 2), "8/4 6/4"),
        ((6, 1), "13/7 8/7"),
        ((5, 3), "8/3 6/3"),
        ((6, 5), "24/13"),
        ((6, 6), "24/18(2) 13/7(2)"),
    ],
)
def test_pubeval_makes_the_textbook_opening_plays(dice: tuple[int, int], play: str) -> None:
    assert choice(standard_start(), dice) == play


def test_pubeval_bears_off_the_last_checkers_when_it_can() -> None:
    # Two checkers left on the 6- and 5-point, 6-5 to play: bearing both off wins at once.
    position = Position(board({6: 1, 5: 1, 20: -15}), (0, 0), (0, 0), (13, 0))
    assert choice(position, (6, 5)) == "6/off 5/off"
    assert pubeval.score(play_result(position, "6/off 5/off"), True) == pubeval.WIN_SCORE


def test_pubeval_hits_a_blot_in_its_home_board() -> None:
    # A 4-2 with an opposing blot on our 4-point: 8/4* 6/4 hits and makes the point.
    position = Position(board({13: 5, 8: 3, 6: 5, 24: 2, 4: -1, 12: -5, 17: -3, 19: -5, 1: -1}))
    after = play_result(position, choice(position, (4, 2)))
    assert after.bar[1] == 1 and after.points[3] >= 2


def test_pubeval_is_registered_and_plays_whole_classic_games() -> None:
    assert BOTS["pubeval"] is PubevalBot
    points = 0
    for index in range(4):
        seat = index % 2
        agents: list[Any] = [make_bot("backgammon", "random", seed=index)] * 2
        agents[seat] = make_bot("backgammon", "pubeval")
        table = Table(CLASSIC, agents, chance=Seeded(index))
        table.play()  # every action goes through the engine's legality check
        points += int(table.state.returns()[seat])
    assert points >= 4  # against random it wins every game (at least a point each)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "classic"])
def test_pubeval_refuses_the_variants_it_was_not_made_for(variant: str) -> None:
    game = load_game("backgammon", variant=variant)
    with pytest.raises(ArgumentError) as refused:
        Table(game, [PubevalBot(), make_bot("backgammon", "random")])
    assert refused.value.code == "bg.bot.classic_only"
    assert "classic backgammon only" in refused.value.render("en")
    assert "só joga gamão clássico" in refused.value.render("pt")
    assert f"variant {variant}" in str(refused.value)


def test_pubeval_refuses_classic_with_the_1_2_bonus() -> None:
    game = load_game("backgammon", variant="classic", acey_deucey=True)
    with pytest.raises(ArgumentError, match="acey_deucey=true"):
        PubevalBot().seated(game, 1)


def test_an_unseated_pubeval_refuses_an_acey_deucey_observation() -> None:
    state = load_game("backgammon").new_state(position=standard_start(), dice=(3, 1))
    with pytest.raises(ArgumentError) as refused:
        PubevalBot().act(state.observation(0))
    assert refused.value.params["option"] == "start"
