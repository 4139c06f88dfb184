"""GNU Backgammon's 0-ply cube decisions, for tests and benchmarks only (gnubg is GPL).

gnubg's Python ``evaluate`` answers cubeless equities only, and its ``hint()`` refuses
cube actions, so this asks its ``hint`` command for the position (set through the
Position ID and a Match ID made by ``gnubg.match_id``) and reads the printed
"Proper cube action" line.  gnubg prints on the process's own standard output; it is
captured through a temporary file.  ``set threads 1`` is needed: with its worker
threads the command never returns inside the Python module.
"""

from __future__ import annotations

import os
import random
import re
import sys
import tempfile
from functools import cache
from typing import Any

from aceydeucey.backgammon.board import Position

__all__ = ["Decision", "cube_decision", "gnubg_probabilities", "sample_positions"]

SETUP = (
    "set threads 1",
    "set player 0 human",
    "set player 1 human",
    "set confirm new off",
    "set automatic roll off",
    "set evaluation cubedecision evaluation plies 0",
    "set evaluation chequerplay evaluation plies 0",
    "set evaluation cubedecision evaluation cubeful on",
    "set evaluation cubedecision evaluation prune off",
    "set evaluation cubedecision evaluation noise 0",
    "set jacoby off",
)

Decision = tuple[str, str]  # (doubler: double / no_double / too_good, taker: take / pass / beaver)


def _run(command: str) -> str:
    import gnubg

    sys.stdout.flush()
    with tempfile.TemporaryFile(mode="w+b") as out:
        saved = os.dup(1)
        os.dup2(out.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read().decode(errors="replace")


@cache
def _ready(beavers: bool) -> bool:
    for command in SETUP:
        _run(command)
    _run(f"set beavers {1 if beavers else 0}")
    _run("new session")
    return True


def gnubg_probabilities(position: Position) -> tuple[float, ...]:
    """gnubg's 0-ply cubeless chances for the side on roll (win, wg, wb, lg, lb)."""
    import gnubg

    ci = gnubg.cube_info()
    ec = gnubg.eval_context(False, 0, True, False, 0.0)
    return tuple(float(v) for v in gnubg.evaluate(position.gnubg_board(), ci, ec)[:5])


_ACTION = re.compile(r"Proper cube action:\s*(.+?)\s*(\(|$)", re.MULTILINE)


def parse_action(text: str) -> Decision:
    """The (doubler, taker) decisions of gnubg's "Proper cube action" wording."""
    found = _ACTION.search(text)
    if found is None and "cannot double" in text:
        return "no_double", "take"  # a dead or Crawford cube: no decision to make
    if found is None:
        raise ValueError(f"no cube action in gnubg's answer: {text[-400:]!r}")
    words = found.group(1).lower()
    if words.startswith("too good"):
        doubler = "too_good"
    elif words.startswith("no double") or words.startswith("no redouble"):
        doubler = "no_double"
    elif words.startswith("double") or words.startswith("redouble"):
        doubler = "double"
    else:  # "Never double", ...
        doubler = "no_double"
    if "beaver" in words:
        taker = "beaver"
    elif "pass" in words:
        taker = "pass"
    else:
        taker = "take"
    return doubler, taker


def cube_decision(
    position: Position,
    cube: int = 1,
    owner: int = -1,
    match_length: int = 0,
    score: tuple[int, int] = (0, 0),
    crawford: bool = False,
    beavers: bool = False,
) -> Decision:
    """gnubg's 0-ply cube decision for the side on roll of ``position`` (player 0 in gnubg).

    ``owner``: -1 centred, 0 the side on roll, 1 its opponent; ``score`` is (on roll,
    opponent) points won so far in a match of ``match_length`` (0: money).
    """
    import gnubg

    _ready(beavers)
    ci = gnubg.cube_info(cube, owner, 0, match_length, score, int(crawford), 0)
    ci["jacoby"] = 0  # the Match ID carries the Jacoby rule (on in gnubg's cube_info)
    ci["beavers"] = int(beavers)
    pi = gnubg.pos_info(0, 0, 0, 1, (0, 0))
    if match_length:
        _run(f"new match {match_length}")
    else:
        _run("new session")
    _run(f"set matchid {gnubg.match_id(ci, pi)}")
    _run(f"set board {position.position_id()}")
    return parse_action(_run("hint"))


def sample_positions(count: int, seed: int, *, race: bool | None = None) -> list[Position]:
    """Positions (side on roll, before its roll) from classic games played at random by the
    engine; ``race``: only races, only contact, or both (None)."""
    import aceydeucey
    from aceydeucey.backgammon import pubeval

    rng = random.Random(seed)
    keep = 0.5 if race else 0.2  # races are rarer in random games
    game = aceydeucey.load_game("backgammon", variant="classic")
    found: list[Position] = []
    while len(found) < count:
        state: Any = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                if state.phase == "roll":
                    pos = state.position
                    if (race is None or pubeval.is_race(pos) == race) and rng.random() < keep:
                        found.append(pos)
                outcomes = state.chance_outcomes()
                state = state.apply(
                    rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
                )
                continue
            legal = list(state.legal_actions())
            state = state.apply(rng.choice(legal))
    return found
