"""Matches as ``.mat`` text, the format GNU Backgammon and eXtreme Gammon read and write.

A ``.mat`` file holds a match of classic backgammon move by move (GNUBG's manual,
"Export: .mat"; the layout below is what gnubg's ``export match mat`` writes)::

     5 point match

     Game 1
     Ana : 0                        Bea : 0
      1)                             54: 13/8 24/20
      2) 52: 13/8 24/22              41: 24/20 6/5
      3) 65: 21/16 16/10              Doubles => 2
      4)  Takes                      54: 24/20 20/15*
     ...
                                      Wins 2 points

The left column is the first player (seat 0), the right one the second; each
numbered line holds one entry of each, in turn: a roll and its moves (``54:
13/8 24/20``, points from the mover's side, 25 the bar and 0 off, ``*`` a hit,
nothing after the roll when no checker could move), a double (``Doubles => 2``),
its answer (``Takes``, ``Drops``, ``Beavers => 4``).  ``Wins N points`` closes a game
in the winner's column.  A money game is a ``0 point match``.

:func:`export_mat` writes a record's match (classic backgammon rules, any cube
options); :func:`import_mat` reads a ``.mat`` file into a record, the cube's
``roll`` decisions (which the format leaves out) put back where the engine asks for
them, and checks every play, cube action and game result against the engine.
Resignations (a game won without its last play) are not read: the engine has no
resigned game inside a match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from aceydeucey.backgammon.board import BAR, OFF
from aceydeucey.backgammon.notation import Play
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import AceyDeuceyError, ArgumentError, RecordError, message
from aceydeucey.core.record import Record

__all__ = ["export_mat", "import_mat", "mat_rules"]

#: the options a .mat file can hold: everything of classic backgammon but the cube's
_CUBE_OPTIONS = ("cube", "match_length", "crawford", "jacoby", "beavers", "max_cube")
_LEFT_WIDTH = 28
_RIGHT_START = 5 + _LEFT_WIDTH
#: where an entry that stands alone on its line starts to be the right column's
_RIGHT_FROM = 20

_ENTRY = re.compile(
    r"(?P<roll>[1-6])(?P<roll2>[1-6]):(?P<moves>(?:[ \t]+\d+/\d+\*?(?:\(\d\))?)*)"
    r"|Doubles\s*=>\s*(?P<double>\d+)|(?P<beaver>Beavers?)\s*=>\s*\d+"
    r"|(?P<take>Takes)|(?P<drop>Drops)",
    re.IGNORECASE,
)
_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(\S.*?)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)")
_LINE = re.compile(r"^\s*\d+\)")
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?", re.IGNORECASE)
_MOVE = re.compile(r"(\d+)/(\d+)(\*?)(?:\((\d)\))?")


def mat_rules(rules: BackgammonRules) -> None:
    """Refuse rules a .mat file cannot hold (anything but classic backgammon's checker
    rules; the cube's options are free)."""
    classic = BackgammonRules.resolve(variant="classic")
    for name in BackgammonRules.option_names():
        if name not in _CUBE_OPTIONS and getattr(rules, name) != getattr(classic, name):
            raise ArgumentError("bg.mat.variant", variant=f"{rules.variant} ({name})")


# -- export ---------------------------------------------------------------------------


@dataclass
class _Game:
    score: tuple[int, int]
    entries: list[tuple[int, str]] = field(default_factory=list)
    end: tuple[int, int] | None = None


def export_mat(record: Record) -> str:
    """The ``.mat`` text of ``record``'s match (or money game)."""
    game: Any = record.make_game()
    rules: BackgammonRules = game.rules
    mat_rules(rules)
    state = game.new_initial_state()
    games = [_Game((0, 0))]
    dice: tuple[int, int] = (0, 0)
    for text in record.actions:
        before = state
        state = state.apply(text)
        current = games[-1]
        if before.phase == "opening":
            dice = (max(state.dice), min(state.dice))
        elif before.phase == "roll":
            dice = (state.dice[0], state.dice[-1])
        elif before.phase == "play":
            action = before.parse_action(text)
            assert isinstance(action, Play)
            current.entries.append((before.mover, f"{dice[0]}{dice[1]}: {_moves_text(action)}"))
        elif before.phase == "cube" and text == "double":
            current.entries.append((before.mover, f" Doubles => {2 * before.cube}"))
        elif before.phase == "take":
            answer = {"take": " Takes", "drop": " Drops"}.get(
                text, f" Beavers => {4 * before.cube}"
            )
            current.entries.append((1 - before.mover, answer))
        if state.last_event[:1] == (("kind", "game_over"),):
            event = dict(state.last_event)
            current.end = (event["seat"], event["points"])
            games.append(_Game(state.match.score))
        elif state.is_terminal():
            current.end = (state.winner, state.points_won())
    names = [_name(p, i) for i, p in enumerate(record.players)]
    out = [f" {rules.match_length or 0} point match", ""]
    for number, played in enumerate(games, 1):
        if not played.entries and played.end is None:
            continue  # the game not yet begun
        out.append(f" Game {number}")
        left = f" {names[0]} : {played.score[0]}"
        out.append(f"{left:<32}{names[1]} : {played.score[1]}")
        out.extend(_lines(played.entries))
        if played.end is not None:
            winner, points = played.end
            wins = f"Wins {points} point{'s' if points != 1 else ''}"
            out.append((" " * 6 if winner == 0 else " " * (_RIGHT_START + 1)) + wins)
        out.append("")
    return "\n".join(out) + "\n"


def _moves_text(play: Play) -> str:
    """gnubg's move text: each die's move, 25 the bar, 0 off, ``*`` a hit."""
    return " ".join(f"{m.src}/{m.dst}{'*' if m.hit else ''}" for m in play.moves)


def _lines(entries: list[tuple[int, str]]) -> list[str]:
    """The numbered lines of a game: seat 0's entries left, seat 1's right, in turn."""
    slots: list[str] = []
    expected = 0
    for seat, text in entries:
        if seat != expected:
            slots.append("")
            expected = 1 - expected
        slots.append(text)
        expected = 1 - expected
    lines = []
    for k in range(0, len(slots), 2):
        right = slots[k + 1] if k + 1 < len(slots) else ""
        lines.append(f"{k // 2 + 1:3d}) {slots[k]:<{_LEFT_WIDTH - 1}} {right}".rstrip())
    return lines


def _name(player: str, seat: int) -> str:
    """A player's name as a .mat line can hold it (no colon, not empty)."""
    name = " ".join(player.replace(":", " ").split())
    return name or f"Player {seat + 1}"


# -- import ---------------------------------------------------------------------------


def import_mat(text: str, **options: Any) -> Record:
    """A record of the match in the ``.mat`` ``text``; ``options`` add cube options
    (``crawford=False``, ``jacoby=True``...).  A refusal names the line
    (``bg.mat.syntax``, ``bg.mat.move``)."""
    import aceydeucey

    lines = text.splitlines()
    length = None
    for line in lines:
        if match := _LENGTH.match(line):
            length = int(match.group(1))
            break
    if length is None:
        raise RecordError("bg.mat.syntax", line=1, reason=message("bg.mat.no_length"))
    cube = {"cube": "match", "match_length": length} if length else {"cube": "money"}
    game: Any = aceydeucey.load_game("backgammon", **{"variant": "classic", **cube, **options})
    state = game.new_initial_state()
    actions: list[str] = []
    names = ["", ""]
    ended = 0

    def act(action: str, number: int) -> None:
        nonlocal state
        if state.is_terminal():
            reason = message("bg.mat.after_end")
            raise RecordError("bg.mat.syntax", line=number, reason=reason)
        try:
            parsed = state.parse_action(action)
        except AceyDeuceyError as exc:
            reason = message(exc.code, **exc.params)
            raise RecordError("bg.mat.move", line=number, play=action, reason=reason) from None
        state = state.apply(parsed)
        actions.append(str(parsed))

    def finished() -> list[int]:
        """The winner of each game finished so far."""
        if game.rules.is_match:
            return [winner for winner, _, _ in state.match.games]
        return [state.winner] if state.is_terminal() else []

    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith(";") or _GAME.match(line) or _LENGTH.match(line):
            continue
        if wins := _WINS.match(line):
            winner = 0 if len(wins.group(1)) < _RIGHT_FROM else 1
            winners = finished()
            if len(winners) != ended + 1 or winners[ended] != winner:
                reason = message("bg.mat.no_end")
                raise RecordError("bg.mat.syntax", line=number, reason=reason)
            ended += 1
            continue
        if not _LINE.match(line):
            if (score := _SCORE.match(line)) and not names[0]:
                names = [score.group(1).strip(), score.group(3).strip()]
            continue
        found = list(_ENTRY.finditer(line, line.index(")") + 1))
        for k, entry in enumerate(found):
            alone = 0 if entry.start() < _RIGHT_FROM else 1  # its column, when alone
            _read_entry(entry, k if len(found) == 2 else alone, state, act, number)
    if ended != len(finished()):
        raise RecordError("bg.mat.syntax", line=len(lines), reason=message("bg.mat.no_end"))
    record = Record.start(game, [names[0] or "Player 1", names[1] or "Player 2"])
    record.actions = actions
    if state.is_terminal():
        record.finish(state)
    return record


def _read_entry(entry: re.Match[str], seat: int, state: Any, act: Any, number: int) -> None:
    """Apply one entry of ``seat`` (through ``act``, which keeps the state)."""
    if entry.group("roll"):
        high, low = sorted((int(entry.group("roll")), int(entry.group("roll2"))), reverse=True)
        if state.phase == "opening":
            act(f"opening {high}-{low}" if seat == 0 else f"opening {low}-{high}", number)
        else:
            if state.phase == "cube":
                act("roll", number)
            act(f"{high}-{low}", number)
        act(_play_text(entry.group("moves")), number)
    elif entry.group("double"):
        act("double", number)
    elif entry.group("take"):
        act("take", number)
    elif entry.group("drop"):
        act("drop", number)
    else:
        act("beaver", number)


def _play_text(moves: str) -> str:
    """The engine's text of gnubg's moves (25 the bar, 0 off); ``pass`` for none."""
    steps = []
    for src, dst, hit, count in _MOVE.findall(moves):
        src_text = "bar" if int(src) == BAR else src
        dst_text = "off" if int(dst) == OFF else dst
        steps += [f"{src_text}/{dst_text}{hit}"] * int(count or 1)
    return " ".join(steps) or "pass"
