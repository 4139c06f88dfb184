"""The backgammon state machine: Acey-Deucey (default), classic, longgammon, Dutch.

A turn is a sequence of nodes, each a chance node or one decision:

* ``opening`` (chance): the one-die roll-off, ``opening A-B`` (seat 0 rolled A,
  seat 1 rolled B; the 30 ordered pairs of different dice, 1/30 each: ties are
  rolled again).  The higher die moves first; with ``opening="use_opening_dice"``
  it plays those two dice, otherwise it rolls both dice afresh.
* ``roll`` (chance): ``3-1`` (larger first); doubles 1/36, the others 2/36.
* ``play`` (decision): one whole play of the dice in hand, a :class:`Play`
  (distinct resulting positions only; ``pass`` when nothing can be played).
* ``double`` (decision, or chance when ``acey_doubles_choice="rolled"``): after a
  fully played 1-2, ``double 6`` ... ``double 1``; that double is then played
  (``kind`` "named") and, if fully played, the same player rolls again.

The dice in hand have a ``kind``: ``roll`` (rolled), ``named`` (the 1-2 bonus),
``complement`` (``doubles_plus_complement``) or ``remainder`` (the opponent's
unplayable dice under ``unplayable_remainder="to_opponent"``).

The state ID (:meth:`BackgammonState.state_id`) is ``BG1-`` followed by the
unpadded URL-safe base64 of these bytes: phase (0 opening, 1 roll, 2 double,
3 play, 4 over), mover seat, kind (0 none, 1 roll, 2 named, 3 complement,
4 remainder), chain (1-2 bonuses taken this turn), flags (bit 0: seat 0 has
passed the entry gate, bit 1: seat 1 has, bit 2: the coming roll is an extra
roll of the same turn, bits 4-5: winner + 1), the number of dice in hand and
the dice, then the 24 points as signed bytes from the mover's side, then bar,
unentered and off (mover first, then opponent).  It round-trips every state.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, ClassVar

from aceydeucey.backgammon import generate
from aceydeucey.backgammon.board import (
    CHECKERS,
    Position,
    long_start,
    off_board_start,
    standard_start,
)
from aceydeucey.backgammon.generate import flipped_result, play_ends_game
from aceydeucey.backgammon.moves import explain_steps, match_play
from aceydeucey.backgammon.notation import (
    DoubleChoice,
    Opening,
    Play,
    Roll,
    Steps,
    parse_action_text,
)
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import ActionSyntaxError, IllegalActionError
from aceydeucey.core.game import CHANCE, TERMINAL, Action, Game, State

__all__ = ["BackgammonGame", "BackgammonState"]

PHASES = ("opening", "roll", "double", "play", "over")
KINDS = ("", "roll", "named", "complement", "remainder")
ID_PREFIX = "BG1-"

_ROLLS: list[tuple[Action, Fraction]] = [
    (Roll(a, b), Fraction(1 if a == b else 2, 36)) for a in range(6, 0, -1) for b in range(a, 0, -1)
]
_OPENINGS: list[tuple[Action, Fraction]] = [
    (Opening(a, b), Fraction(1, 30)) for a in range(1, 7) for b in range(1, 7) if a != b
]
#: the roll outcomes' actions, shared (a roll node's ``legal_actions()``)
_ROLL_ACTIONS: list[Action] = [action for action, _ in _ROLLS]
#: identities of those shared actions: an action that is one of them is legal at a roll node
_ROLL_IDS = frozenset(id(action) for action in _ROLL_ACTIONS)
#: per shared roll outcome (by identity): its dice in hand and its event for each mover
_ROLL_EVENTS: dict[int, tuple[tuple[int, ...], tuple[tuple[tuple[str, Any], ...], ...]]] = {
    id(roll): (
        roll.dice,
        tuple(
            (("type", "roll"), ("seat", seat), ("dice", (roll.high, roll.low))) for seat in (0, 1)
        ),
    )
    for roll, _ in _ROLLS
    if isinstance(roll, Roll)
}
_DOUBLES: list[DoubleChoice] = [DoubleChoice(d) for d in range(6, 0, -1)]
_ROLLED_DOUBLES: list[tuple[Action, Fraction]] = [(d, Fraction(1, 6)) for d in _DOUBLES]


class BackgammonGame(Game):
    """Two-player backgammon family game; options in :class:`BackgammonRules`."""

    game_id: ClassVar[str] = "backgammon"
    rules_class: ClassVar[type[BackgammonRules]] = BackgammonRules
    rules: BackgammonRules

    def __init__(self, rules: BackgammonRules) -> None:
        super().__init__(rules)

    @property
    def num_players(self) -> int:
        return 2

    def start_position(self) -> Position:
        """The starting position (the same from both sides)."""
        return {
            "off_board": off_board_start,
            "standard": standard_start,
            "long": long_start,
        }[self.rules.start]()

    def new_initial_state(self) -> BackgammonState:
        gate_open = self.rules.entry_gate == "none"
        return BackgammonState(
            self, "opening", 0, self.start_position(), gates=(gate_open, gate_open)
        )

    def new_state(
        self,
        *,
        position_id: str | None = None,
        position: Position | None = None,
        dice: tuple[int, int] | None = None,
        seat: int = 0,
        state_id: str | None = None,
    ) -> BackgammonState:
        """A state from a gnubg Position ID or a Position (seat ``seat`` on roll), or a state ID.

        With ``dice`` the state is the decision of that roll; without, the roll
        is the next chance node.
        """
        if state_id is not None:
            if position_id is not None or position is not None or dice is not None:
                raise ActionSyntaxError("give either state_id or a position, not both")
            return BackgammonState.from_state_id(self, state_id)
        if position_id is not None:
            if position is not None:
                raise ActionSyntaxError("give either position_id or position, not both")
            position = Position.from_position_id(position_id)
        if position is None:
            raise ActionSyntaxError("new_state needs position_id, position or state_id")
        try:
            position.validate()
        except ValueError as exc:
            raise ActionSyntaxError(f"not a valid position: {exc}") from None
        if seat not in (0, 1):
            raise ActionSyntaxError(f"seat must be 0 or 1, not {seat!r}")
        if dice is None:
            return BackgammonState(self, "roll", seat, position)
        if len(dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
            raise ActionSyntaxError(f"dice must be two numbers 1-6, like (3, 1); got {dice!r}")
        roll = Roll(max(dice), min(dice))
        return BackgammonState(self, "play", seat, position, roll.dice, "roll")

    def parse_action(self, text: str) -> Action:
        return parse_action_text(text)


@dataclass(frozen=True)
class BackgammonState(State):
    """One node of a backgammon game; the position is seen from ``mover``."""

    game: BackgammonGame = field(compare=False, repr=False)
    phase: str
    mover: int
    position: Position
    dice: tuple[int, ...] = ()
    kind: str = ""
    chain: int = 0
    gates: tuple[bool, bool] = (True, True)
    extra: bool = False
    winner: int = -1
    last_event: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    # -- who acts -----------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == "play":
            return self.mover
        if phase in ("roll", "opening"):
            return CHANCE
        if phase == "double":
            return CHANCE if self.game.rules.acey_doubles_choice == "rolled" else self.mover
        return TERMINAL

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase == "roll":
            return _ROLLS
        if self.phase == "opening":
            return _OPENINGS
        if self.phase == "double" and self.game.rules.acey_doubles_choice == "rolled":
            return _ROLLED_DOUBLES
        return []

    def player_actions(self) -> list[Play] | list[DoubleChoice]:
        if self.phase == "play":
            return self._plays()
        if self.phase == "double" and self.game.rules.acey_doubles_choice == "named":
            return _DOUBLES
        return []

    @cached_property
    def plays(self) -> list[Play]:
        """The legal plays of the dice in hand (empty outside the play phase)."""
        return self._plays()

    def _plays(self) -> list[Play]:
        """``plays``, computed once per state (kept where ``cached_property`` keeps it)."""
        cache = self.__dict__
        plays: list[Play] | None = cache.get("plays")
        if plays is not None:
            return plays
        if self.phase != "play":
            plays = []
        else:
            rules = self.game.rules
            dice = self.dice
            plays = generate.legal_plays(
                self.position,
                dice,
                rules,
                may_enter=self.gates[self.mover],
                may_reenter=rules.bar_reentry_gate == "none" or _is_special(dice),
            )
        cache["plays"] = plays
        return plays

    def _may_reenter(self) -> bool:
        return self.game.rules.bar_reentry_gate == "none" or _is_special(self.dice)

    # -- parsing ---------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        action = self.game.parse_action(text)
        if isinstance(action, Steps):
            if self.phase != "play":
                raise IllegalActionError(f"{text.strip()}: {self._not_moving()}")
            play = match_play(self.position, action.moves, self.plays)
            if play is None:
                raise IllegalActionError(
                    explain_steps(self.position, self.dice, action.moves, self.plays)
                )
            return play
        self._check_legal(action)
        return action

    def explain_illegal(self, action: Action) -> str:
        if self.is_terminal():
            return f"{action}: the game is over"
        if isinstance(action, Play) and self.phase == "play":
            return explain_steps(self.position, self.dice, action.moves, self.plays)
        if isinstance(action, (Roll, Opening)) or (
            isinstance(action, DoubleChoice) and self.current_player() == CHANCE
        ):
            if self.current_player() != CHANCE:
                return f"{action}: it is not chance's turn; {self._who()} is to play"
            return f"{action} is not a possible outcome here ({self.phase})"
        if isinstance(action, DoubleChoice):
            return f"{action}: no double is to be named now; {self._who()} is to act"
        return f"{action}: {self._not_moving()}"

    def _who(self) -> str:
        player = self.current_player()
        if player == CHANCE:
            return {"opening": "the opening roll-off", "double": "the double's die"}.get(
                self.phase, "the dice roll"
            )
        return f"seat {player}"

    def _not_moving(self) -> str:
        if self.phase == "double":
            return "first name the double to play after the 1-2 (e.g. 'double 6')"
        if self.phase == "over":
            return "the game is over"
        return f"no checkers move now: waiting for {self._who()}"

    # -- fast paths (same results as the base class, fewer calls) ---------------------
    def is_chance_node(self) -> bool:
        phase = self.phase
        if phase == "roll" or phase == "opening":
            return True
        return phase == "double" and self.game.rules.acey_doubles_choice == "rolled"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> Sequence[Action]:
        phase = self.phase
        if phase == "play":
            return self._plays()
        if phase == "roll":
            return _ROLL_ACTIONS
        return super().legal_actions()

    def _check_legal(self, action: Action) -> None:
        phase = self.phase
        if phase == "play":
            if action in self._plays():
                return
        elif phase == "roll" and id(action) in _ROLL_IDS:
            return
        super()._check_legal(action)

    def apply(self, action: Action | str, *, seat: int | None = None) -> BackgammonState:
        if seat is None:  # the common cases first: one of the listed plays, a shared roll
            phase = self.phase
            if phase == "play":
                if isinstance(action, Play) and action in self._plays():
                    return self._after_play(action)
            elif phase == "roll":
                known = _ROLL_EVENTS.get(id(action))
                if known is not None:
                    return self._rolled(known[0], known[1][self.mover])
        after = super().apply(action, seat=seat)
        assert isinstance(after, BackgammonState)
        return after

    # -- transition -----------------------------------------------------------------
    def _apply(self, action: Action) -> BackgammonState:
        if self.phase == "play":
            assert isinstance(action, Play)
            return self._after_play(action)
        rules = self.game.rules
        if isinstance(action, Roll):
            return self._rolled(
                action.dice,
                (("type", "roll"), ("seat", self.mover), ("dice", (action.high, action.low))),
            )
        if isinstance(action, Opening):
            first = action.first
            start = self.position if first == 0 else self.position.flip()
            event = (("type", "opening"), ("dice", (action.die0, action.die1)), ("first", first))
            if rules.opening == "use_opening_dice":
                dice = (max(action.die0, action.die1), min(action.die0, action.die1))
                gates = _open_gate(self.gates, first, dice, rules)
                return _make(
                    self.game,
                    "play",
                    first,
                    start,
                    dice,
                    "roll",
                    self.chain,
                    gates,
                    self.extra,
                    self.winner,
                    event,
                )
            return _make(
                self.game,
                "roll",
                first,
                start,
                self.dice,
                self.kind,
                self.chain,
                self.gates,
                self.extra,
                self.winner,
                event,
            )
        assert isinstance(action, DoubleChoice)
        return _make(
            self.game,
            "play",
            self.mover,
            self.position,
            (action.value,) * 4,
            "named",
            self.chain,
            self.gates,
            self.extra,
            self.winner,
            (("type", "double"), ("seat", self.mover), ("value", action.value)),
        )

    def _rolled(
        self, rolled: tuple[int, ...], event: tuple[tuple[str, Any], ...]
    ) -> BackgammonState:
        """The play node after the roll of ``rolled`` (the dice in hand)."""
        mover = self.mover
        gates = self.gates
        if not gates[mover]:
            gates = _open_gate(gates, mover, rolled, self.game.rules)
        return _make(
            self.game,
            "play",
            mover,
            self.position,
            rolled,
            "roll",
            self.chain,
            gates,
            False,
            self.winner,
            event,
        )

    def _after_play(self, play: Play) -> BackgammonState:
        rules = self.game.rules
        game, mover, kind, dice, chain, gates = (
            self.game,
            self.mover,
            self.kind,
            self.dice,
            self.chain,
            self.gates,
        )
        unused = play.unused
        # the play itself is kept: its text and hits are written out by observation()
        event = (("type", "play"), ("seat", mover), ("play", play), ("dice", dice), ("kind", kind))
        if play_ends_game(play):
            return _make(
                game, "over", mover, play.result, (), "", chain, gates, self.extra, mover, event
            )
        full = not unused
        if kind == "roll":
            if rules.acey_deucey and dice == (2, 1):
                limit = rules.acey_chain_limit
                earned = full or not rules.acey_requires_both_played
                if earned and (limit is None or chain < limit):
                    return _make(
                        game,
                        "double",
                        mover,
                        play.result,
                        (),
                        "",
                        chain + 1,
                        gates,
                        self.extra,
                        self.winner,
                        event,
                    )
            elif len(dice) == 4:
                if rules.doubles_plus_complement and full:
                    return _make(
                        game,
                        "play",
                        mover,
                        play.result,
                        (7 - dice[0],) * 4,
                        "complement",
                        chain,
                        gates,
                        self.extra,
                        self.winner,
                        event,
                    )
                if _extra_roll(rules.natural_doubles_extra_roll, full):
                    return _make(
                        game,
                        "roll",
                        mover,
                        play.result,
                        (),
                        "",
                        chain,
                        gates,
                        True,
                        self.winner,
                        event,
                    )
        elif kind == "named":
            if full or not rules.acey_reroll_requires_full_doubles:
                return _make(
                    game, "roll", mover, play.result, (), "", chain, gates, True, self.winner, event
                )
        elif kind == "complement":
            if _extra_roll(rules.natural_doubles_extra_roll, full):
                return _make(
                    game, "roll", mover, play.result, (), "", chain, gates, True, self.winner, event
                )
        elif kind == "remainder":
            return _make(
                game, "roll", mover, play.result, (), "", 0, gates, False, self.winner, event
            )
        if not full and rules.unplayable_remainder == "to_opponent":
            gated = not gates[mover] or (self.position.bar[0] > 0 and not self._may_reenter())
            if not gated:
                return _make(
                    game,
                    "play",
                    1 - mover,
                    flipped_result(play),
                    unused,
                    "remainder",
                    0,
                    gates,
                    False,
                    self.winner,
                    event,
                )
        return _make(
            game,
            "roll",
            1 - mover,
            flipped_result(play),
            (),
            "",
            0,
            gates,
            False,
            self.winner,
            event,
        )

    # -- results --------------------------------------------------------------------
    def returns(self) -> tuple[Fraction, ...]:
        if self.phase != "over":
            return (Fraction(0), Fraction(0))
        points = Fraction(self.points_won())
        out = [Fraction(0), Fraction(0)]
        out[self.winner] = points
        out[1 - self.winner] = -points
        return tuple(out)

    def points_won(self) -> int:
        """What the loser pays under the ``scoring`` option (0 before the end)."""
        if self.phase != "over":
            return 0
        pos = self.position  # from the winner's side
        scoring = self.game.rules.scoring
        if scoring == "per_checker":
            return CHECKERS - pos.off[1]
        if scoring == "single" or pos.off[1] > 0:
            return 1
        back = pos.bar[1] or pos.unentered[1] or any(n < 0 for n in pos.points[:6])
        return 3 if back else 2

    # -- views ----------------------------------------------------------------------
    def view(self, seat: int) -> Position:
        """The position from ``seat``'s side."""
        return self.position if seat == self.mover else self.position.flip()

    def observation(self, seat: int) -> dict[str, Any]:  # type: ignore[override]  # until issue 7 lands
        pos = self.view(seat)
        rules = self.game.rules
        pending: bool | int = False
        if self.phase == "double":
            pending = True
        elif self.phase == "play" and self.kind == "named":
            pending = self.dice[0]
        reroll = self.phase == "double" or (self.phase == "roll" and self.extra)
        if self.phase == "play" and self.kind == "named":
            reroll = True
        obs: dict[str, Any] = {
            "game": "backgammon",
            "variant": rules.variant,
            "seat": seat,
            "current_player": self.current_player(),
            "mover": self.mover,
            "phase": self.phase,
            "points": list(pos.points),
            "bar": list(pos.bar),
            "unentered": list(pos.unentered),
            "off": list(pos.off),
            "pip": list(pos.pip_counts()),
            "dice": list(self.dice) if self.phase == "play" else [],
            "dice_kind": self.kind,
            "pending_double": pending,
            "reroll_pending": reroll,
            "chain": self.chain,
            "entry_gate_passed": [self.gates[seat], self.gates[1 - seat]],
            "last_event": _event_dict(self.last_event),
            "legal_actions": (
                [str(a) for a in self.player_actions()] if seat == self.current_player() else []
            ),
            "rules": rules.to_dict(),
        }
        if self.phase == "over":
            obs["returns"] = [str(r) for r in self.returns()]
            obs["winner"] = self.winner
        return obs

    def __str__(self) -> str:
        return render_ascii(self)

    # -- state IDs ------------------------------------------------------------------
    def position_id(self) -> str:
        """gnubg's Position ID of the position, the side on roll (the mover) first."""
        return self.position.position_id()

    def state_id(self) -> str:
        """A compact ID that round-trips this state (see the module docstring)."""
        pos = self.position
        flags = (int(self.gates[0]) | int(self.gates[1]) << 1 | int(self.extra) << 2) | (
            self.winner + 1
        ) << 4
        data = bytes(
            [
                PHASES.index(self.phase),
                self.mover,
                KINDS.index(self.kind),
                self.chain,
                flags,
                len(self.dice),
                *self.dice,
                *(n & 0xFF for n in pos.points),
                *pos.bar,
                *pos.unentered,
                *pos.off,
            ]
        )
        return ID_PREFIX + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")

    @classmethod
    def from_state_id(cls, game: BackgammonGame, state_id: str) -> BackgammonState:
        """The state of ``state_id``; ActionSyntaxError naming the problem if malformed."""
        text = state_id.strip()
        if not text.startswith(ID_PREFIX):
            raise ActionSyntaxError(f"{state_id!r} is not a state ID: it starts with {ID_PREFIX!r}")
        body = text[len(ID_PREFIX) :]
        try:
            data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except (binascii.Error, ValueError):
            raise ActionSyntaxError(f"{state_id!r} is not a state ID: bad base64") from None
        if len(data) < 6 or len(data) != 6 + data[5] + 30:
            raise ActionSyntaxError(f"{state_id!r} is not a state ID: wrong length")
        phase_i, mover, kind_i, chain, flags, n = data[:6]
        dice = tuple(data[6 : 6 + n])
        rest = data[6 + n :]
        points = tuple(b - 256 if b > 127 else b for b in rest[:24])
        if phase_i >= len(PHASES) or kind_i >= len(KINDS) or mover > 1:
            raise ActionSyntaxError(f"{state_id!r} is not a state ID: bad phase, kind or seat")
        if any(not 1 <= d <= 6 for d in dice) or n > 4:
            raise ActionSyntaxError(f"{state_id!r} is not a state ID: bad dice")
        position = Position(
            points, (rest[24], rest[25]), (rest[26], rest[27]), (rest[28], rest[29])
        )
        try:
            position.validate()
        except ValueError as exc:
            raise ActionSyntaxError(f"{state_id!r}: {exc}") from None
        winner = (flags >> 4) - 1
        if winner not in (-1, 0, 1):
            raise ActionSyntaxError(f"{state_id!r} is not a state ID: bad winner")
        return cls(
            game,
            PHASES[phase_i],
            mover,
            position,
            dice,
            KINDS[kind_i],
            chain,
            (bool(flags & 1), bool(flags & 2)),
            bool(flags & 4),
            winner,
        )


def render_ascii(state: BackgammonState) -> str:
    """A plain-text board from the mover's side: X is seat 0, O is seat 1."""
    pos = state.position
    marks = ("X", "O") if state.mover == 0 else ("O", "X")

    def cell(point: int) -> str:
        n = pos.points[point - 1]
        if n == 0:
            return "  ."
        return f"{marks[0] if n > 0 else marks[1]}{abs(n):>2}"

    top = " ".join(f"{p:>3}" for p in range(13, 25))
    bottom = " ".join(f"{p:>3}" for p in range(12, 0, -1))
    rules = state.game.rules
    lines = [
        f"backgammon ({rules.variant})  seat {state.mover} ({marks[0]}) moves from 24 to 1",
        " " + top,
        " " + " ".join(cell(p) for p in range(13, 25)),
        " " + " ".join(cell(p) for p in range(12, 0, -1)),
        " " + bottom,
    ]
    pips = pos.pip_counts()
    lines.append(
        f"bar {marks[0]}{pos.bar[0]} {marks[1]}{pos.bar[1]}   "
        f"unentered {marks[0]}{pos.unentered[0]} {marks[1]}{pos.unentered[1]}   "
        f"off {marks[0]}{pos.off[0]} {marks[1]}{pos.off[1]}   "
        f"pips {marks[0]}{pips[0]} {marks[1]}{pips[1]}"
    )
    if state.phase == "play":
        lines.append(f"to play: {'-'.join(map(str, state.dice))} ({state.kind})")
    elif state.phase == "double":
        lines.append("to choose: the double after the 1-2")
    elif state.phase == "over":
        lines.append(f"game over: seat {state.winner} wins {state.points_won()}")
    else:
        lines.append(f"next: {state.phase}")
    return "\n".join(lines)


# -- helpers ---------------------------------------------------------------------------

_new_object = object.__new__
_set_attribute = object.__setattr__


def _make(
    game: BackgammonGame,
    phase: str,
    mover: int,
    position: Position,
    dice: tuple[int, ...],
    kind: str,
    chain: int,
    gates: tuple[bool, bool],
    extra: bool,
    winner: int,
    last_event: tuple[tuple[str, Any], ...],
) -> BackgammonState:
    """``BackgammonState(...)`` for the engine's own transitions: the same value, built directly."""
    state: BackgammonState = _new_object(BackgammonState)
    _set_attribute(
        state,
        "__dict__",
        {
            "game": game,
            "phase": phase,
            "mover": mover,
            "position": position,
            "dice": dice,
            "kind": kind,
            "chain": chain,
            "gates": gates,
            "extra": extra,
            "winner": winner,
            "last_event": last_event,
        },
    )
    return state


def _event_dict(event: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """The observation's ``last_event``: a play is written out (text, hits, dice left unused)."""
    out: dict[str, Any] = {}
    play: Play | None = None
    for key, value in event:
        if key == "play":
            play = value
            out[key] = str(value)
        else:
            out[key] = list(value) if isinstance(value, tuple) else value
    if play is not None:
        out["hits"] = sum(1 for m in play.moves if m.hit)
        out["unused"] = list(play.unused)
    return out


def _is_special(dice: tuple[int, ...]) -> bool:
    """Doubles (rolled or named) or a 1-2: what the LEE gates ask for."""
    return len(dice) >= 2 and (len(set(dice)) == 1 or tuple(sorted(dice)) == (1, 2))


def _open_gate(
    gates: tuple[bool, bool], seat: int, dice: tuple[int, ...], rules: BackgammonRules
) -> tuple[bool, bool]:
    if gates[seat]:
        return gates
    gate = rules.entry_gate
    opens = (
        gate == "none"
        or (gate == "doubles_or_acey" and _is_special(dice))
        or (gate == "doubles_only" and len(dice) == 4)
        or (gate == "six" and 6 in dice)
    )
    if not opens:
        return gates
    return (True, gates[1]) if seat == 0 else (gates[0], True)


def _extra_roll(setting: str, full: bool) -> bool:
    return setting == "always" or (setting == "if_fully_played" and full)
