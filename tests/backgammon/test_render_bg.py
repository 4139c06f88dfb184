"""The terminal board: drawn from an observation, readable at 80 columns."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.cli.backgammon_render import CHECKER, dice_text, render_plain

OWN, OPP = CHECKER  # seat 0 draws ●, seat 1 draws ○


def observation(points: dict[int, int], **extra: Any) -> dict[str, Any]:
    board = [0] * 24
    for point, count in points.items():
        board[point - 1] = count
    base: dict[str, Any] = {
        "points": board,
        "bar": [0, 0],
        "unentered": [0, 0],
        "off": [0, 0],
        "pip": [0, 0],
        "dice": None,
        "current_player": 0,
        "seat": 0,
        "legal_actions": [],
    }
    base.update(extra)
    return base


def column_of(text: str, point: int) -> int:
    """The column of ``point``'s number on the label rows (top: 13-24, bottom: 12-1)."""
    lines = text.splitlines()
    row = lines[0] if point >= 13 else lines[14]
    tokens = row.split()
    labels = [tok for tok in tokens if tok.isdigit()]
    index = labels.index(str(point))
    start = 0
    for k, label in enumerate(labels):
        start = row.index(label, start)
        if k == index:
            return start + len(label) - 1
        start += len(label)
    raise AssertionError(point)


def stack(text: str, point: int) -> str:
    """The characters in ``point``'s column, from the board's edge inwards."""
    lines = text.splitlines()
    col = column_of(text, point)
    rows = lines[2:7] if point >= 13 else list(reversed(lines[8:13]))
    return "".join(line[col] for line in rows)


def test_points_sit_in_the_usual_two_row_layout() -> None:
    # Seat 0's view: 3 own checkers on the 6-point (bottom right), 2 of the opponent's on
    # the 19-point (top right), one own checker on the 13-point (top left).
    text = render_plain(observation({6: 3, 19: -2, 13: 1}))
    assert stack(text, 6) == OWN * 3 + "  "
    assert stack(text, 19) == OPP * 2 + "   "
    assert stack(text, 13) == OWN + "    "
    assert stack(text, 1).strip() == ""
    top, bottom = text.splitlines()[0].split(), text.splitlines()[14].split()
    assert [int(x) for x in top if x.isdigit()] == list(range(13, 25))
    assert [int(x) for x in bottom if x.isdigit()] == list(range(12, 0, -1))


def test_a_tall_stack_shows_its_count() -> None:
    # Nine checkers on one point do not fit in five cells: the fifth shows "9".
    text = render_plain(observation({8: 9}))
    assert stack(text, 8) == OWN * 4 + "9"


def test_seat_one_sees_its_own_side_in_its_own_glyph() -> None:
    # Seat 1 views: its positive counts are its checkers, drawn with seat 1's glyph.
    text = render_plain(observation({6: 2, 24: -1}, seat=1, current_player=1))
    assert stack(text, 6) == OPP * 2 + "   "
    assert stack(text, 24) == OWN + "    "


def test_status_panel_counts_pips_bar_unentered_off_dice_and_turn() -> None:
    obs = observation(
        {3: 2},
        bar=[1, 0],
        unentered=[4, 15],
        off=[8, 0],
        pip=[131, 375],
        dice=[3, 1],
        current_player=0,
    )
    text = render_plain(obs, names=("Ana", "Bia"))
    ana = next(line for line in text.splitlines() if "Ana" in line)
    bia = next(line for line in text.splitlines() if "Bia" in line)
    assert "131" in ana and "bar 1" in ana and "to enter  4" in ana and "off  8" in ana
    assert "375" in bia and "to enter 15" in bia
    assert "Ana to play 3-1" in text


def test_bar_checkers_are_drawn_on_the_bar() -> None:
    # Two of seat 0's checkers on the bar: the bar column shows ● 2 at the bottom.
    text = render_plain(observation({}, bar=[2, 1]))
    lines = text.splitlines()
    assert f"{OWN} 2" in lines[12]
    assert f"{OPP} 1" in lines[2]


def test_named_double_pending_and_game_over_lines() -> None:
    pending = render_plain(observation({}, phase="double", pending_double=True), names=("A", "B"))
    assert "name a double" in pending
    won = render_plain(
        observation({}, winner=1, current_player=-4, phase="over"), names=("Ana", "Bia")
    )
    # the board says the game is over; the result (who, how many points) is said once,
    # after it, by the command
    assert "Game over." in won and "wins" not in won


def test_portuguese_labels() -> None:
    text = render_plain(observation({}, dice="6-6"), lang="pt", names=("Ana", "Bia"))
    assert "a entrar" in text and "fora" in text and "Ana joga 6-6" in text


def test_dice_text_shapes() -> None:
    assert dice_text([1, 3]) == "3-1"
    assert dice_text([4, 4, 4, 4]) == "4-4"
    assert dice_text("5-2") == "5-2"
    assert dice_text(None) == ""


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    """Any spread of each side's 15 checkers over points, bar, unentered and off."""
    board = [0] * 24
    counts: list[list[int]] = [[0, 0, 0], [0, 0, 0]]  # bar, unentered, off
    for side, sign in ((0, 1), (1, -1)):
        for _ in range(15):
            where = draw(st.integers(0, 26))
            if where < 24 and board[where] * sign >= 0:
                board[where] += sign
            else:
                counts[side][where % 3] += 1
    return observation(
        {i + 1: n for i, n in enumerate(board)},
        bar=[counts[0][0], counts[1][0]],
        unentered=[counts[0][1], counts[1][1]],
        off=[counts[0][2], counts[1][2]],
        pip=[300, 300],
        dice=draw(st.sampled_from([None, [6, 5], [2, 2, 2, 2]])),
        seat=draw(st.integers(0, 1)),
    )


@settings(max_examples=40, deadline=None)
@given(positions())
def test_every_position_fits_80_columns_and_shows_every_checker(obs: dict[str, Any]) -> None:
    text = render_plain(obs, names=("a long player name", "bot:greedy"))
    assert max(len(line) for line in text.splitlines()) <= 80
    # Every checker on a point is drawn, or counted when the stack is taller than five.
    for point in range(1, 25):
        count = obs["points"][point - 1]
        cells = stack(text, point)
        if abs(count) <= 5:
            assert len(cells.replace(" ", "")) == abs(count)
        else:
            assert cells.endswith(str(abs(count))[-1])
