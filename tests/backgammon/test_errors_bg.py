"""Every error the backgammon engine raises has a code and params, and speaks Portuguese.

Seeded games are played with bad input at every node (nonsense, well-formed but illegal
plays, chance's actions at a decision, decisions at chance nodes); each refusal must carry
a catalogued code (never ``*.text``), render in Portuguese without English words, and leave
the state unchanged.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.game import BackgammonGame
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import AceyDeuceyError, ArgumentError
from aceydeucey.core.registry import load_game
from aceydeucey.locale import catalog, error_domain

#: words of the English texts that Portuguese never uses
ENGLISH = re.compile(
    r"\b(the|you|your|is|are|not|point|dice|checker|checkers|moves|play|"
    r"plays|must|cannot|first|enter|board|seat|waiting|chance|outcome)\b"
)

BAD_INPUTS = (
    "hello",
    "",
    "13/7",
    "24/18 13/11",
    "in/22 in/19",
    "bar/22",
    "6/off",
    "25/20",
    "13/14",
    "8/5(7)",
    "3-1",
    "7-7",
    "opening 4-4",
    "opening 5-3",
    "double 6",
    "double 9",
    "pass",
    "off/3",
    "13*/7",
    "13/7 13/7 13/7 13/7 13/7",
)


def codes_of(code: str, params: dict[str, Any]) -> list[str]:
    """The error's code and those of the messages nested in its params."""
    out = [code]
    for value in params.values():
        if isinstance(value, dict) and set(value) == {"code", "params"}:
            out += codes_of(value["code"], value["params"])
    return out


def check_error(err: AceyDeuceyError) -> None:
    for code in codes_of(err.code, err.params):
        assert not code.endswith(".text"), (code, str(err))
        domain = error_domain(code)
        assert domain is not None, code
        assert code in catalog(domain, "pt"), code
    text = err.render("pt")
    # parameters (a play's text, an ID) are the user's own words: remove them first
    stripped = text
    for value in err.params.values():
        if isinstance(value, str):
            stripped = stripped.replace(value, " ")
        if isinstance(value, list):
            for item in value:
                stripped = stripped.replace(str(item), " ")
    found = ENGLISH.findall(stripped.replace("'pass'", "").replace("'double 6'", ""))
    assert not found, (err.code, text, found)


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_bad_input_in_seeded_games_renders_in_portuguese(variant: str) -> None:
    game = load_game("backgammon", variant=variant)
    rng = random.Random(variant)
    chance = Seeded(variant)
    seen: set[str] = set()
    for _ in range(3):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal() and steps < 400:
            for text in rng.sample(BAD_INPUTS, 6):
                before = state.state_id()
                try:
                    after = state.apply(text)
                except AceyDeuceyError as err:
                    check_error(err)
                    seen.add(err.code)
                else:
                    assert after is not state
                assert state.state_id() == before
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
            else:
                state = state.apply(rng.choice(list(state.legal_actions())))
            steps += 1
        try:
            state.apply("13/7")
        except AceyDeuceyError as err:
            check_error(err)
            seen.add(err.code)
    # the bad input reached many different reasons
    assert len(seen) >= 12, sorted(seen)


def test_a_closed_point_and_a_wrong_distance_are_named() -> None:
    game = BackgammonGame.from_options(variant="classic")
    assert isinstance(game, BackgammonGame)
    start = game.start_position()
    state = game.new_state(position=start, dice=(6, 5))
    with pytest.raises(AceyDeuceyError) as info:
        state.apply("13/9")
    assert info.value.code == "bg.step.distance"
    assert str(info.value) == "13/9: that is 4 pips, but the dice are 6-5"
    assert info.value.render("pt") == "13/9: são 4 pips, mas os dados são 6-5"
    closed = Position.build({13: 5, 8: 3, 6: 5, 24: 2}, {7: 2, 1: 13})
    state = game.new_state(position=closed, dice=(6, 5))
    with pytest.raises(AceyDeuceyError) as info:
        state.apply("13/7 13/8")
    assert info.value.code == "bg.step.closed"
    assert str(info.value) == "13/7: point 7 is closed"
    assert info.value.render("pt") == "13/7: a casa 7 está fechada"


def test_new_state_arguments_are_argument_errors_with_codes() -> None:
    game = BackgammonGame.from_options(variant="classic")
    assert isinstance(game, BackgammonGame)
    for kwargs in (
        {},
        {"position_id": "nonsense"},
        {"position_id": "4HPwATDgc/ABMA", "seat": 2},
        {"position_id": "4HPwATDgc/ABMA", "dice": (7, 1)},
        {"state_id": "BG1-AAAA"},
        {"state_id": "XX"},
    ):
        with pytest.raises(ArgumentError) as info:
            game.new_state(**kwargs)  # type: ignore[arg-type]
        check_error(info.value)
