"""Matches as ``.mat`` files, read by GNU Backgammon and read back from it.

A match played here (random plays, doubles taken and dropped) is exported as
``.mat``; gnubg imports it (``import mat``) and holds the same games: each roll and
its moves, every double, take and drop by the same player, each game's winner and
points.  gnubg then writes the match out (``export match mat``) and that file
imports here into a record with exactly the original actions, which replays and
verifies.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import aceydeucey
from aceydeucey.backgammon.matfile import export_mat, import_mat
from aceydeucey.core.errors import AceyDeuceyError, RecordError
from aceydeucey.core.record import Record, replay

gnubg = pytest.importorskip("gnubg")


def random_record(seed: int, **options: Any) -> Record:
    game = aceydeucey.load_game("backgammon", variant="classic", **options)
    rng = random.Random(seed)
    state = game.new_initial_state()
    record = Record.start(game, ["Ana", "Bea Lima"])
    while not state.is_terminal():
        legal = [str(a) for a in state.legal_actions()]
        if state.phase == "take":
            text = "take" if rng.random() < 0.75 else "drop"
        elif state.phase == "cube":
            text = "double" if rng.random() < 0.1 else "roll"
        else:
            text = rng.choice(legal)
        record.actions.append(text)
        state = state.apply(text)
    record.finish(state)
    return record


def our_games(record: Record) -> list[dict[str, Any]]:
    """Each game's actions as gnubg lists them (player X is seat 0), winner and points."""
    game: Any = record.make_game()
    state = game.new_initial_state()
    games: list[dict[str, Any]] = [{"actions": []}]
    dice: tuple[int, ...] = ()
    for text in record.actions:
        before, state = state, state.apply(text)
        actions = games[-1]["actions"]
        player = "XO"[before.mover]
        if before.phase in ("opening", "roll"):
            dice = (max(state.dice), min(state.dice))
        elif before.phase == "play":
            play = before.parse_action(text)
            moves = sorted((m.src, m.dst) for m in play.moves)
            actions.append(("move", player, dice, moves))
        elif before.phase == "cube" and text == "double":
            actions.append(("double", player))
        elif before.phase == "take":
            actions.append((text, "XO"[1 - before.mover]))
        if state.last_event[:1] == (("kind", "game_over"),):
            event = dict(state.last_event)
            games[-1].update(winner="XO"[event["seat"]], points=event["points"])
            games.append({"actions": []})
        elif state.is_terminal():
            games[-1].update(winner="XO"[state.winner], points=state.points_won())
    return games


def gnubg_games() -> list[dict[str, Any]]:
    """The games gnubg holds.  Its import closes a game that ends on a drop with a
    second double and a resignation after the drop: the game is read up to the drop."""
    games = []
    for played in gnubg.match()["games"]:
        actions: list[Any] = []
        for step in played["game"]:
            if actions and actions[-1][0] == "drop":
                break
            kind = step["action"]
            if kind == "move":
                dice = tuple(sorted(step["dice"], reverse=True))
                moves = sorted(tuple(m) for m in step.get("move", ()))
                actions.append(("move", step["player"], dice, moves))
            elif kind in ("double", "take", "drop"):
                actions.append((kind, step["player"]))
        info = played["info"]
        games.append({"actions": actions, "winner": info["winner"], "points": info["points-won"]})
    return games


@pytest.fixture(scope="module", autouse=True)
def quiet_gnubg() -> None:
    for command in ("set threads 1", "set sound enable off", "set display off"):
        gnubg.command(command)


CASES = [
    (1, {"cube": "match", "match_length": 3}),
    (2, {"cube": "match", "match_length": 5}),
    (3, {"cube": "match", "match_length": 7}),
    (4, {"cube": "money"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "options"), CASES, ids=lambda c: str(c))
def test_a_match_exported_here_opens_in_gnubg_and_comes_back(
    seed: int, options: dict[str, Any], tmp_path: Path
) -> None:
    record = random_record(seed, **options)
    ours = our_games(record)
    ours = [g for g in ours if g["actions"]]
    assert any(a[0] == "double" for g in ours for a in g["actions"]) or seed == 4
    path = tmp_path / "match.mat"
    path.write_text(export_mat(record), encoding="utf-8")
    gnubg.command(f"import mat {path}")
    theirs = gnubg_games()
    assert len(theirs) == len(ours)
    for mine, its in zip(ours, theirs, strict=True):
        assert its["actions"] == mine["actions"]
        assert (its["winner"], its["points"]) == (mine["winner"], mine["points"])
    back = tmp_path / "back.mat"
    gnubg.command(f"export match mat {back}")
    imported = import_mat(back.read_text(encoding="utf-8"))
    assert imported.actions == record.actions
    assert imported.players == record.players
    assert imported.result == record.result
    replay(imported)  # every field of the stated result is the replay's


def test_an_exported_match_reads_back_action_for_action() -> None:
    for seed in range(5, 9):
        record = random_record(seed, cube="match", match_length=3)
        again = import_mat(export_mat(record))
        assert again.actions == record.actions
        assert again.result == record.result


def test_a_wrong_play_in_a_mat_file_is_refused_naming_its_line() -> None:
    record = random_record(11, cube="match", match_length=1)
    lines = export_mat(record).splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("  2)"))
    lines[row] = "  2) 52: 13/1 24/22              41: 24/20 6/5"
    with pytest.raises(RecordError) as caught:
        import_mat("\n".join(lines))
    assert caught.value.code == "bg.mat.move"
    assert caught.value.params["line"] == row + 1


def test_a_resigned_game_and_a_missing_header_are_refused_with_codes() -> None:
    with pytest.raises(RecordError) as caught:
        import_mat(" Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n")
    assert caught.value.code == "bg.mat.syntax"
    text = " 1 point match\n\n Game 1\n A : 0                          B : 0\n"
    text += "  1) 31: 8/5 6/5\n      Wins 1 point\n"
    with pytest.raises(RecordError) as caught:
        import_mat(text)
    assert caught.value.code == "bg.mat.syntax"


def test_only_classic_rules_export_as_mat() -> None:
    record = Record.start(aceydeucey.load_game("backgammon"), ["A", "B"])
    with pytest.raises(AceyDeuceyError) as caught:
        export_mat(record)
    assert caught.value.code == "bg.mat.variant"
