"""GNU Backgammon's 0-ply as an opponent (tests/backgammon/gnubg_bot.py).

Its choices must be gnubg's own (``gnubg.find_best_move`` at 0-ply), its plays legal
in our engine, and it must refuse the variants it does not play.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from aceydeucey.backgammon.board import BAR, Position
from aceydeucey.backgammon.generate import legal_plays
from aceydeucey.backgammon.moves import apply_move
from aceydeucey.backgammon.notation import Move
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.registry import load_game, make_bot
from aceydeucey.core.table import Table
from aceydeucey.sim.tournament import Entrant, entrant, play_match
from tests.backgammon.gnubg_bot import GnubgBot, equity

gnubg = pytest.importorskip("gnubg")

CLASSIC = load_game("backgammon", variant="classic")


def gnubg_choice(position: Position, dice: tuple[int, ...]) -> Position | None:
    """The position after gnubg's own best 0-ply move, or None when its move tuple stops
    at a bear-off (the binding truncates those; see test_crosscheck)."""
    context = gnubg.eval_context(False, 0, True, False, 0.0)
    steps = gnubg.find_best_move(
        position.gnubg_board(), gnubg.cube_info(), context, (dice[0], dice[-1])
    )
    if len(steps) % 2 or any(steps[i + 1] <= 0 for i in range(0, len(steps), 2)):
        return None
    for i in range(0, len(steps), 2):
        position = apply_move(position, Move(BAR if steps[i] == 25 else steps[i], steps[i + 1]))
    return position


@pytest.mark.slow
def test_the_bot_chooses_what_gnubg_chooses() -> None:
    # Positions from seeded random classic games: wherever there is a choice, the bot's
    # play leads to the position gnubg's own 0-ply move leads to.
    rng = random.Random(20261201)
    bot = GnubgBot()
    bot.seated(CLASSIC, 0)
    compared = 0
    for game_index in range(12):
        state: Any = CLASSIC.new_initial_state()
        chance = Seeded(game_index)
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
                continue
            if len(state.plays) > 1:
                ours = state.apply(bot.act(state.observation(state.mover)))
                theirs = gnubg_choice(state.position, state.dice)
                if theirs is not None:
                    compared += 1
                    assert ours.view(state.mover) == theirs, state.position.position_id()
            state = state.apply(rng.choice(state.legal_actions()))
    assert compared >= 300


def test_equity_is_gnubgs_for_the_side_on_roll() -> None:
    # The opening position: the side on roll is a little ahead, the same from both sides.
    start = CLASSIC.start_position()
    assert 0.0 < equity(start) < 0.2
    assert equity(start, "single") == pytest.approx(
        2
        * gnubg.evaluate(
            start.gnubg_board(), gnubg.cube_info(), gnubg.eval_context(False, 0, True, False, 0.0)
        )[0]
        - 1
    )


def test_it_plays_whole_legal_games_and_beats_pubeval_and_random() -> None:
    # Every action goes through the engine's legality check (Table.apply with the seat).
    for opponent in ("pubeval", "random"):
        for index in range(2):
            agents: list[Any] = [GnubgBot(), make_bot("backgammon", opponent)]
            if index:
                agents.reverse()
            table = Table(CLASSIC, agents, chance=Seeded(index))
            table.play()
            assert table.state.is_terminal()
    # And through the tournament runner, as an Entrant of its own.
    result = play_match(CLASSIC, Entrant("gnubg", GnubgBot), entrant("backgammon", "random"), 4)
    assert result.wins == 4


def test_it_refuses_the_variants_it_does_not_play() -> None:
    with pytest.raises(ArgumentError) as refused:
        GnubgBot().seated(load_game("backgammon", variant="dutch"), 0)
    assert refused.value.code == "bg.bot.classic_only"
    assert refused.value.params["bot"] == "gnubg"


def test_equity_a_ply_deeper_is_the_mean_of_the_best_plays() -> None:
    # gnubg's 1-ply (what bench_judge.py's judge builds on) is, roll by roll, the best play
    # at 0-ply from the mover's side, weighted 1/36 for doubles and 2/36 for the others:
    # the context the adapter builds for a depth is that search, unpruned.
    rules = CLASSIC.rules
    state: Any = CLASSIC.new_initial_state()
    chance = Seeded(3)
    positions: list[Position] = []
    turn = 0
    while not state.is_terminal() and len(positions) < 3:
        if state.is_chance_node():
            state = state.apply(chance.choose(state))
            continue
        turn += 1
        if turn % 7 == 0:
            positions.append(state.position)
        state = state.apply(state.legal_actions()[0])
    assert len(positions) == 3
    for position in positions:
        mean = 0.0
        for a in range(1, 7):
            for b in range(a, 7):
                dice = (a,) * 4 if a == b else (a, b)
                best = max(-equity(p.result.flip()) for p in legal_plays(position, dice, rules))
                mean += best * (1 if a == b else 2) / 36
        assert equity(position, plies=1) == pytest.approx(mean, abs=1e-6)
        assert equity(position, plies=1) != pytest.approx(equity(position), abs=1e-4)
