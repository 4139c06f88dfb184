"""Backgammon bots: each reads an observation and returns an action's text.

- ``RandomBot`` picks uniformly among the legal actions.
- ``GreedyBot`` looks one play ahead: it scores the position each legal play
  leads to with :func:`evaluate` and plays the best.  After a 1-2, when it must
  name a double, it tries all six: each double is worth the value of its best
  play, and it names the best of those.
- ``PubevalBot`` plays the legal play Tesauro's pubeval (:mod:`.pubeval`) scores
  best; classic backgammon only (it refuses other starts and the 1-2 bonus with
  ``bg.bot.classic_only``, when seated or, unseated, at its first observation).
- ``NetBot`` (``net``) plays the best play by the trained network at 0-ply,
  ``Net2Bot`` (``net2``) at 2-ply and ``Net3Bot`` (``net3``) at 3-ply
  (:mod:`aceydeucey.backgammon.evaluator`); all three
  name the double after a 1-2 by evaluation: the double whose best play is worth
  most.

At a doubling-cube decision ``net``, ``net2`` and ``net3`` double, take, drop or beaver by
their own estimates through the cubeful model (:mod:`.cube_policy`, money or match
play); the other bots play the default cube policy, :func:`.cube.default_cube_choice`
(never double, always take).

Backgammon hides nothing, so the bot rebuilds the position from the
observation and asks the engine for the legal plays and their results; it
never looks at the game state itself.  It learns the resolved rules (house
options included) once, from ``seated(game, seat)``; unseated, it assumes the
observation's variant as published.

The heuristic (:func:`evaluate`) scores a position from the side that has
just moved (positive counts are its checkers): the pip-count lead, blots
weighted by how many of the 36 rolls hit them and by how far a hit sets them
back, made points (more in the home board), the longest prime, the
opponent's checkers held on the bar against made home points, checkers borne
off, and a small cost for tall stacks.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

from aceydeucey.backgammon import generate, pubeval
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.cube import default_cube_choice
from aceydeucey.backgammon.cube_policy import cube_choice
from aceydeucey.backgammon.moves import apply_move
from aceydeucey.backgammon.notation import parse_moves
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.turn import EV_PLAY, TurnSteps, play_fields
from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.errors import ArgumentError

__all__ = [
    "BOTS",
    "GreedyBot",
    "Net2Bot",
    "NetBot",
    "PubevalBot",
    "RandomBot",
    "evaluate",
    "pip_counts",
    "play_result",
    "position_of",
    "rank_observation",
    "rules_of",
    "shots",
]

# -- the heuristic ---------------------------------------------------------------------------

#: Weight of a blot: per pip a hit would cost it, at certainty of being hit.
BLOT_WEIGHT = 1.0
#: Value of a made point (two or more checkers) outside and inside the home board.
POINT_VALUE = 2.0
HOME_POINT_VALUE = 4.0
#: Value of the longest prime by its length (index = number of consecutive made points).
PRIME_VALUE = (0.0, 0.0, 1.0, 3.0, 6.0, 10.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0, 16.0)
#: Per opposing checker on the bar (or still to enter), per made home point facing it.
CLOSED_OUT_VALUE = 1.0
#: Per checker borne off, beyond the pips it saved.
OFF_VALUE = 1.0
#: Per checker above three on one point.
STACK_COST = 0.5
#: The roll earned after a fully played named double: about one average roll's pips.
REROLL_VALUE = 8.0
#: How the action naming the double after a 1-2 starts (``double 6``).
DOUBLE_WORD = "double "


def _reach_masks() -> tuple[int, ...]:
    """For each of the 36 rolls, the distances (bit d) one checker could travel with it."""
    masks = []
    for a in range(1, 7):
        for b in range(1, 7):
            steps = [a, 2 * a, 3 * a, 4 * a] if a == b else [a, b, a + b]
            mask = 0
            for step in steps:
                mask |= 1 << step
            masks.append(mask)
    return tuple(masks)


_REACH = _reach_masks()


@functools.lru_cache(maxsize=1 << 14)
def shots(distances: int) -> int:
    """How many of the 36 rolls can travel one of the distances in the bitmask ``distances``.

    Intermediate points are not checked (a blocked path still counts): a cheap
    upper bound that is exact when the opponent has no points in the way.  Kept per
    bitmask (a game meets the same few hundred again and again).
    """
    return sum(1 for mask in _REACH if mask & distances)


def pip_counts(
    points: Sequence[int], bar: Sequence[int], unentered: Sequence[int]
) -> tuple[int, int]:
    """(own, opponent) pips; a checker on the bar or still to enter counts 25."""
    own = 25 * (bar[0] + unentered[0])
    opp = 25 * (bar[1] + unentered[1])
    for index, count in enumerate(points):
        if count > 0:
            own += (index + 1) * count
        elif count < 0:
            opp += (24 - index) * -count
    return own, opp


def evaluate(
    points: Sequence[int],
    bar: Sequence[int] = (0, 0),
    unentered: Sequence[int] = (0, 0),
    off: Sequence[int] = (0, 0),
) -> float:
    """How good the position is for the side whose checkers are positive (higher is better).

    ``points[i]`` is the count on that side's ``i + 1`` point; ``bar``,
    ``unentered`` and ``off`` are (own, opponent) pairs.
    """
    own_pip, opp_pip = pip_counts(points, bar, unentered)
    if own_pip == 0 and off[0] > 0:
        return 1e6  # everything borne off: the game is won
    score = float(opp_pip - own_pip)

    # The opponent moves from our 1-point towards our 24-point and enters on our 1..6.
    opp_behind = 1 if bar[1] + unentered[1] > 0 else 0  # bit 0: a checker "at point 0"
    run = 0
    longest = 0
    home_made = 0
    for index, count in enumerate(points):
        number = index + 1
        if count >= 2:
            score += HOME_POINT_VALUE if number <= 6 else POINT_VALUE
            score -= STACK_COST * max(0, count - 3)
            home_made += number <= 6
            run += 1
            longest = max(longest, run)
        else:
            run = 0
            if count == 1 and opp_behind:
                # Distances from every opposing checker behind this blot.
                distances = 0
                sources = opp_behind
                while sources:
                    low = sources & -sources
                    distances |= 1 << (number - (low.bit_length() - 1))
                    sources ^= low
                hit = shots(distances & ((1 << 25) - 2))
                score -= BLOT_WEIGHT * hit / 36 * (25 - number)
        if count < 0:
            opp_behind |= 1 << number
    score += PRIME_VALUE[longest]
    score += CLOSED_OUT_VALUE * (bar[1] + unentered[1]) * home_made
    score += OFF_VALUE * off[0]
    return score


# -- the bots --------------------------------------------------------------------------------


class GreedyBot:
    """Plays the legal action whose resulting position :func:`evaluate` likes best.

    Ties go to the first such action in the observation's order, so the bot is
    deterministic; ``seed`` is accepted for symmetry with ``RandomBot``.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rules: BackgammonRules | None = None

    def seated(self, game: Any, seat: int) -> None:
        """Learn the game's resolved rules (house options included) once, when seated."""
        rules = getattr(game, "rules", None)
        if isinstance(rules, BackgammonRules):
            self.rules = rules

    def act(self, observation: dict[str, Any]) -> str:
        legal: list[str] = observation["legal_actions"]
        if not legal:
            raise ValueError("the observation lists no legal actions: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        if (cube := default_cube_choice(legal)) is not None:
            return cube
        position = position_of(observation)
        rules = self.rules or rules_of(observation)
        if all(text.startswith(DOUBLE_WORD) for text in legal):
            return max(legal, key=lambda text: self.double_value(position, text, rules))
        results = listed_results(observation, position, rules)
        return max(legal, key=lambda text: _value(results.get(text) or play_result(position, text)))

    def double_value(self, position: Position, text: str, rules: BackgammonRules) -> float:
        """The value of naming the double ``text`` (``double 6``): its best play's value.

        A play that uses all four dice also earns the roll after the 1-2 (when the
        rules ask for that), worth :data:`REROLL_VALUE` more.
        """
        number = int(text.removeprefix(DOUBLE_WORD))
        dice = (number,) * 4
        named = play_fields(dice, "named")
        turns = _turns(rules)
        best = -math.inf
        for play in generate.legal_plays(position, dice, rules):
            value = _value(play.result)
            after, turned = turns.after(named, EV_PLAY, 4 - len(play.unused))
            if not turned and after[0] == "roll":  # the turn step grants the roll after it
                value += REROLL_VALUE
            best = max(best, value)
        return best


class PubevalBot:
    """Plays the legal play pubeval scores best (weights by race or contact before it).

    Deterministic (ties go to the first play listed); ``seed`` is accepted for
    symmetry with ``RandomBot``.  Classic backgammon only: see :func:`.pubeval.check_rules`.
    """

    name = "pubeval"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rules: BackgammonRules | None = None

    def seated(self, game: Any, seat: int) -> None:
        """Learn the game's resolved rules, refusing rules pubeval was not made for."""
        rules = getattr(game, "rules", None)
        if isinstance(rules, BackgammonRules):
            pubeval.check_rules(rules, self.name)
            self.rules = rules

    def act(self, observation: dict[str, Any]) -> str:
        legal: list[str] = observation["legal_actions"]
        if not legal:
            raise ArgumentError("agent.no_legal_actions")
        if self.rules is None:
            self.rules = rules_of(observation)
            pubeval.check_rules(self.rules, self.name)
        if len(legal) == 1:
            return legal[0]
        if (cube := default_cube_choice(legal)) is not None:
            return cube
        position = position_of(observation)
        race = pubeval.is_race(position)
        return max(legal, key=lambda text: pubeval.score(play_result(position, text), race))


def rank_observation(evaluator: Any, observation: dict[str, Any], ply: int) -> list[Any]:
    """The evaluator's ranking (best first) of the plays, or of the doubles to name after a
    1-2, that an observation's seat chooses among (:class:`.evaluator.Choice` values)."""
    position = position_of(observation)
    chain = int(observation.get("chain", 0))
    if all(text.startswith(DOUBLE_WORD) for text in observation["legal_actions"]):
        ranked: list[Any] = evaluator.rank_doubles(position, chain=chain, ply=ply)
        return ranked
    dice = tuple(int(d) for d in observation["dice"])
    kind = observation.get("dice_kind") or "roll"
    ranked = evaluator.rank_plays(
        position,
        dice,
        kind=kind,
        chain=chain,
        ply=ply,
        may_enter=bool(observation["entry_gate_passed"][0]),
        may_reenter=evaluator.turns.bar_open(kind, dice),
    )
    return ranked


def position_of(observation: dict[str, Any]) -> Position:
    """The position an observation shows, from its seat's side."""
    return Position(
        tuple(int(n) for n in observation["points"]),
        _pair(observation["bar"]),
        _pair(observation["unentered"]),
        _pair(observation["off"]),
    )


def rules_of(observation: dict[str, Any]) -> BackgammonRules:
    """The rules of an observation's variant (its house options are learnt when seated)."""
    return BackgammonRules.resolve(variant=observation.get("variant", "acey-deucey"))


@functools.lru_cache(maxsize=64)
def _turns(rules: BackgammonRules) -> TurnSteps:
    """The turn step of ``rules``, built once per rule set (it caches what it works out)."""
    return TurnSteps(rules)


def listed_results(
    observation: dict[str, Any], position: Position, rules: BackgammonRules
) -> dict[str, Position]:
    """The position after each legal play of an observation's dice, by the play's text:
    the compiled move generator's results (where it runs), read instead of parsing and
    applying every listed text.  A text missing here is worked out by :func:`play_result`.
    """
    dice = tuple(int(d) for d in observation.get("dice") or ())
    if not dice or not generate.kernel_ready():
        return {}
    kind = observation.get("dice_kind") or "roll"
    plays = generate.legal_plays(
        position,
        dice,
        rules,
        may_enter=bool((observation.get("entry_gate_passed") or (True,))[0]),
        may_reenter=_turns(rules).bar_open(kind, dice),
    )
    if not plays or not plays[0].moves:  # a pass is the only play when nothing moves
        return {}
    return {str(play): play.result for play in plays}


def play_result(position: Position, text: str) -> Position:
    """The position after the play written ``text`` (canonical notation), from the mover's side.

    The steps are applied as written; a legal play's canonical text names every
    intermediate hit, so the result is the play's own.
    """
    result = position
    for move in parse_moves(text):
        result = apply_move(result, move)
    return result


class NetBot:
    """Plays the best legal action by the trained network (:mod:`.evaluator`) at ``ply``.

    The network is the one shipped for the rules (Acey-Deucey's for ``per_checker``,
    classic's otherwise, or the one trained for the table's reading: see
    :func:`~aceydeucey.backgammon.net.shipped_for`), or ``network`` when one is given (a
    :class:`~aceydeucey.backgammon.net.Network`, e.g. a training checkpoint); it and the
    move generator are loaded on the first decision.  Deterministic: ``seed`` is
    accepted for symmetry with ``RandomBot``.
    """

    name = "net"
    ply = 0

    def __init__(self, seed: int | None = None, network: Any = None) -> None:
        self.seed = seed
        self.network = network
        self.rules: BackgammonRules | None = None
        self._evaluator: Any = None

    def seated(self, game: Any, seat: int) -> None:
        """Learn the game's resolved rules (house options included) once, when seated."""
        rules = getattr(game, "rules", None)
        if isinstance(rules, BackgammonRules):
            self.rules = rules

    def evaluator(self, rules: BackgammonRules) -> Any:
        """The evaluator of ``rules`` (made once per rules)."""
        from aceydeucey.backgammon.evaluator import Evaluator

        if self._evaluator is None or self._evaluator.rules != rules:
            self._evaluator = Evaluator(rules, self.network)
        return self._evaluator

    def act(self, observation: dict[str, Any]) -> str:
        legal: list[str] = observation["legal_actions"]
        if not legal:
            raise ValueError("the observation lists no legal actions: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        rules = self.rules or rules_of(observation)
        evaluator = self.evaluator(rules)
        if cube := cube_choice(evaluator, observation, rules, self.ply, position_of(observation)):
            return cube
        ranked = rank_observation(evaluator, observation, self.ply)
        allowed = set(legal)
        for choice in ranked:
            if choice.text in allowed:
                return str(choice.text)
        return legal[0]


class Net2Bot(NetBot):
    """:class:`NetBot` at 2-ply: the opponent's 21 rolls behind the best few plays."""

    name = "net2"
    ply = 2


class Net3Bot(NetBot):
    """:class:`NetBot` at 3-ply: two rolls behind the best few plays."""

    name = "net3"
    ply = 3


#: Uniform over the legal actions (seeded): the baseline every bot must beat.
RandomBot = RandomAgent


#: The bots by the name the command line uses.
BOTS: dict[str, type[GreedyBot] | type[NetBot] | type[RandomBot] | type[PubevalBot]] = {
    "greedy": GreedyBot,
    "net": NetBot,
    "net2": Net2Bot,
    "net3": Net3Bot,
    "pubeval": PubevalBot,
    "random": RandomBot,
}

# -- helpers ---------------------------------------------------------------------------------


def _value(position: Position) -> float:
    return evaluate(position.points, position.bar, position.unentered, position.off)


def _pair(value: Sequence[int]) -> tuple[int, int]:
    first, second = value
    return (int(first), int(second))
