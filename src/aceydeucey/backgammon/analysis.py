"""Analysis of a backgammon record: every decision's equity lost, and every roll's luck.

:func:`analyze` replays a record through the engine and, with the trained network
(:mod:`.evaluator`, at ``ply`` 0, 2 or 3), rates

* every **checker play** with a choice (forced plays are not counted): the best
  play, the equity of the play made and the **loss** (best minus played, never
  negative; the best play loses exactly 0);
* every **double named after a 1-2** (Acey-Deucey): the same over the six doubles;
* every **cube decision** (``double`` / ``roll``, ``take`` / ``drop`` / ``beaver``):
  the cubeful equities of :mod:`.cubeful` through :mod:`.cube_policy`, the loss of
  the action taken against the best one (for the taker: against its best answer);
* every **roll** of a turn: its **luck**, the roller's equity after its best 0-ply
  play of that roll minus the average of that over the 21 rolls (1/36 for a
  double, 2/36 for the others), so that luck averages to 0 over the rolls.

Units: checker plays are valued by cubeless equity per unit of cube (money
equity ±1, 2, 3; points per game for Acey-Deucey's per-checker scoring); cube
decisions in money play by cubeful equity per unit of cube, in match play by
match-winning chances turned into the same unit (gnubg's EMG: the chances of
winning or losing one cube's worth span -1 .. +1).

Marks (:data:`THRESHOLDS`, GNU Backgammon's defaults): a decision that loses at
least 0.04 is *doubtful*, 0.08 an *error*, 0.16 a *blunder*; a roll worth at least
0.3 is *lucky*, 0.6 *very lucky* (negative: *unlucky*, *very unlucky*).  Under
per-checker scoring every threshold is multiplied by :data:`POINTS_SCALE` (a game
is worth up to 15 points, not 1 to 3).  Each player's **error rate** is its mean
loss per rated decision in thousandths (gnubg's mEMG; milli-points in
Acey-Deucey), with its loss in points per game beside it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from aceydeucey.backgammon import generate
from aceydeucey.backgammon.bots import position_of, rank_observation
from aceydeucey.backgammon.cube_policy import cube_decision, stakes_of
from aceydeucey.backgammon.cubeful import MatchStakes, Stakes
from aceydeucey.backgammon.evaluator import ROLLS, Evaluator
from aceydeucey.backgammon.notation import Roll
from aceydeucey.core.record import Record

__all__ = [
    "LUCK_THRESHOLDS",
    "POINTS_SCALE",
    "THRESHOLDS",
    "Analysis",
    "Decision",
    "PlayerSummary",
    "RollLuck",
    "Suggestion",
    "analyze",
    "mark_of",
    "suggest",
]

#: Equity lost from which a decision is marked (gnubg's defaults), per unit of cube.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.16),
    ("error", 0.08),
    ("doubtful", 0.04),
)
#: Luck from which a roll is marked (gnubg's defaults).
LUCK_THRESHOLDS: tuple[tuple[str, float], ...] = (("very_lucky", 0.6), ("lucky", 0.3))
#: Per-checker scoring: thresholds in points are these times 15.
POINTS_SCALE = 15.0


@dataclass(frozen=True)
class Decision:
    """One rated decision: ``kind`` is ``play``, ``named_double``, ``cube`` or ``take``."""

    index: int  # the action's index in the record
    seat: int
    kind: str
    played: str
    best: str
    equity: float  # of the action taken, for the seat that took it
    best_equity: float
    loss: float
    mark: str | None
    choices: int
    #: the seat's cubeless chance of winning after the action (the graph's point)
    win: float


@dataclass(frozen=True)
class RollLuck:
    index: int
    seat: int
    roll: str
    luck: float
    mark: str | None


@dataclass
class PlayerSummary:
    seat: int
    player: str
    decisions: int = 0
    loss: float = 0.0
    marks: dict[str, int] = field(default_factory=lambda: {name: 0 for name, _ in THRESHOLDS})
    luck: float = 0.0
    rolls: int = 0
    #: mean loss per decision in thousandths (gnubg's mEMG; milli-points per-checker)
    error_rate: float = 0.0
    #: loss per game, in points (per unit of cube)
    loss_per_game: float = 0.0


@dataclass
class Analysis:
    """What :func:`analyze` found (``to_json``: the ``--json`` schema, docs/bots.md)."""

    variant: str
    ply: int
    unit: str  # "money" (equity per unit of cube) or "points" (per-checker scoring)
    games: int
    decisions: list[Decision]
    rolls: list[RollLuck]
    players: list[PlayerSummary]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "ply": self.ply,
            "unit": self.unit,
            "games": self.games,
            "thresholds": dict(THRESHOLDS),
            "players": [asdict(p) for p in self.players],
            "decisions": [asdict(d) for d in self.decisions],
            "rolls": [asdict(r) for r in self.rolls],
        }


def mark_of(loss: float, scale: float = 1.0) -> str | None:
    """The mark of a decision that lost ``loss`` (``None`` below doubtful)."""
    for name, limit in THRESHOLDS:
        if loss >= limit * scale - 1e-12:
            return name
    return None


def luck_mark(luck: float, scale: float = 1.0) -> str | None:
    for name, limit in LUCK_THRESHOLDS:
        if luck >= limit * scale:
            return name
        if luck <= -limit * scale:
            return "very_unlucky" if name == "very_lucky" else "unlucky"
    return None


def analyze(record: Record, ply: int = 0) -> Analysis:
    """Rate every decision and roll of a backgammon ``record`` (see the module's method)."""
    game: Any = record.make_game()
    rules = game.rules
    evaluator = Evaluator(rules)
    points = evaluator.spec.name == "points"
    scale = POINTS_SCALE if points else 1.0
    players = [PlayerSummary(seat, name) for seat, name in enumerate(record.players)]
    decisions: list[Decision] = []
    rolls: list[RollLuck] = []
    state = game.new_initial_state()
    for index, text in enumerate(record.actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            luck = _roll_luck(evaluator, state, text, index, scale)
            if luck is not None:
                rolls.append(luck)
        else:
            rated = _decision(evaluator, state, text, index, ply, scale)
            if rated is not None:
                decisions.append(rated)
        state = state.apply(text)
    games = 1
    if state.is_terminal():
        view = state.observation(None)
        games = max(1, len(view.get("games") or []))
    for d in decisions:
        summary = players[d.seat]
        summary.decisions += 1
        summary.loss += d.loss
        if d.mark is not None:
            summary.marks[d.mark] += 1
    for r in rolls:
        players[r.seat].luck += r.luck
        players[r.seat].rolls += 1
    for summary in players:
        if summary.decisions:
            summary.error_rate = 1000.0 * summary.loss / summary.decisions
        summary.loss_per_game = summary.loss / games
    return Analysis(
        str(rules.variant), ply, "points" if points else "money", games, decisions, rolls, players
    )


# -- rolls ---------------------------------------------------------------------------------


def _roll_luck(
    evaluator: Evaluator, state: Any, text: str, index: int, scale: float
) -> RollLuck | None:
    """The luck of the roll ``text`` at a ``roll`` chance node (other chance nodes: None)."""
    if state.phase != "roll":
        return None
    roll = state.parse_action(text)
    if not isinstance(roll, Roll):
        return None
    row = _roll_row(roll.high, roll.low)
    board = generate.to_board(state.position)
    values = evaluator.equity(evaluator.roll_values(board, state.chain))
    weights = np.array([w for _, _, w in ROLLS], dtype=np.float64)
    luck = float(values[row] - weights @ values / 36.0)
    return RollLuck(index, int(state.mover), text, luck, luck_mark(luck, scale))


def _roll_row(high: int, low: int) -> int:
    for row, (a, b, _) in enumerate(ROLLS):
        if (a, b) == (high, low):
            return row
    raise ValueError(f"no roll {high}-{low}")  # pragma: no cover - every roll is listed


# -- decisions -----------------------------------------------------------------------------


def _decision(
    evaluator: Evaluator, state: Any, text: str, index: int, ply: int, scale: float
) -> Decision | None:
    seat = int(state.current_player())
    observation = state.observation(seat)
    legal: list[str] = observation["legal_actions"]
    if len(legal) <= 1:
        return None  # forced: not a decision
    if state.phase in ("cube", "take"):
        return _cube(evaluator, state, observation, text, index, ply, seat)
    ranked = rank_observation(evaluator, observation, ply)
    played = next((c for c in ranked if c.text == text), None)
    if played is None:  # pragma: no cover - the ranking lists every legal choice
        return None
    best = ranked[0]
    loss = max(0.0, best.equity - played.equity)
    kind = "named_double" if state.phase == "double" else "play"
    return Decision(
        index,
        seat,
        kind,
        text,
        best.text,
        played.equity,
        best.equity,
        loss,
        mark_of(loss, scale),
        len(ranked),
        played.outputs[0],
    )


def _cube(
    evaluator: Evaluator,
    state: Any,
    observation: dict[str, Any],
    text: str,
    index: int,
    ply: int,
    seat: int,
) -> Decision:
    options, unit, on_roll = _cube_options(evaluator, observation, state.phase, ply, seat)
    best = max(options, key=lambda k: options[k])
    fallback = "roll" if state.phase == "cube" else "take"
    equity, best_equity = options.get(text, options[fallback]), options[best]
    kind = "cube" if state.phase == "cube" else "take"
    loss = max(0.0, best_equity - equity) / unit
    win = _win_of(evaluator, observation, seat == on_roll)
    return Decision(
        index,
        seat,
        kind,
        text,
        best,
        equity / unit,
        best_equity / unit,
        loss,
        mark_of(loss),
        len(options),
        win,
    )


def _cube_options(
    evaluator: Evaluator, observation: dict[str, Any], phase: str, ply: int, seat: int
) -> tuple[dict[str, float], float, int]:
    """The cubeful equity of each cube action of ``phase`` (``cube``: double / roll, for
    the doubler; ``take``: take / drop / beaver, for the taker), one cube's worth in those
    units, and the seat on roll."""
    rules = evaluator.rules
    decision = cube_decision(evaluator, observation, rules, ply, position_of(observation))
    cube = int(observation.get("cube") or 1)
    offer = observation.get("cube_offer")
    on_roll = int(offer["seat"]) if offer else seat
    unit = _unit(stakes_of(rules, observation, on_roll, cube), cube)
    if phase == "cube":
        return {"roll": decision.no_double, "double": decision.doubled}, unit, on_roll
    # the taker's equity is minus the doubler's
    options = {"take": -decision.double_take, "drop": -decision.double_pass}
    if decision.double_beaver is not None and "beaver" in observation["legal_actions"]:
        options["beaver"] = -decision.double_beaver
    return options, unit, on_roll


@dataclass(frozen=True)
class Suggestion:
    """The best action of a decision as the analysis ranks it: ``kind`` is ``play``,
    ``named_double``, ``cube`` (double / roll) or ``take`` (take / drop / beaver);
    ``equity`` in the analysis's units (per unit of cube; cubeful for a cube decision)."""

    kind: str
    action: str
    equity: float
    choices: int


def suggest(evaluator: Evaluator, observation: dict[str, Any], ply: int = 0) -> Suggestion:
    """The best action for the seat an ``observation`` is of (its decision: a checker play,
    a double to name after a 1-2, or a cube action), as :func:`analyze` rates decisions."""
    seat = int(observation["seat"])
    phase = str(observation.get("phase"))
    if phase in ("cube", "take"):
        options, unit, _ = _cube_options(evaluator, observation, phase, ply, seat)
        best = max(options, key=lambda k: options[k])
        return Suggestion(phase, best, options[best] / unit, len(options))
    ranked = rank_observation(evaluator, observation, ply)
    allowed = set(observation["legal_actions"])
    top = next((c for c in ranked if c.text in allowed), ranked[0])
    kind = "named_double" if phase == "double" else "play"
    return Suggestion(kind, str(top.text), float(top.equity), len(ranked))


def _unit(stakes: Stakes, cube: int) -> float:
    """What one cube's worth spans, to express match chances as EMG (money: 1 per cube)."""
    if isinstance(stakes, MatchStakes):
        spread = stakes.value(cube, True) - stakes.value(-cube, True)
        return max(spread / 2.0, 1e-9)
    return 1.0


def _win_of(evaluator: Evaluator, observation: dict[str, Any], on_roll: bool) -> float:
    """The observing seat's cubeless chance of winning before the roll."""
    position = position_of(observation)
    if on_roll:
        return float(evaluator.position_value(position).outputs[0])
    return 1.0 - float(evaluator.position_value(position.flip()).outputs[0])
