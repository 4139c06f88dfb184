"""GNU Backgammon's 0-ply as an opponent for classic backgammon (tests and benchmarks only).

GNU Backgammon (PyPI ``gnubg``) is a test dependency of the project and GPL-licensed,
so this adapter lives beside the tests rather than in the package: the package
never imports it, and ``benchmarks/bench_bots.py`` puts the repository root on its
path to use it.  ``gnubg`` is imported on first use; without it that use raises
``ImportError`` saying how to install it.

The bot reads its observation like every bot, lists the legal plays of our engine
(the observation's ``legal_actions``) and asks ``gnubg.evaluate`` (0-ply, cubeless,
deterministic) for the equity of each resulting position from the opponent's side,
the opponent then being on roll; it plays the play that leaves the opponent the
least.  That is how gnubg's own move search scores candidates at 0-ply (the tests
check it against ``gnubg.find_best_move``).  Equity is cubeless money equity
(gammons 2, backgammons 3) under ``scoring="gammons"`` and ``2 P(win) - 1`` under
``scoring="single"``.  Classic rules only (the check pubeval uses).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.bots import play_result, position_of, rules_of
from aceydeucey.backgammon.cube import default_cube_choice
from aceydeucey.backgammon.evaluator import points_won
from aceydeucey.backgammon.generate import to_board
from aceydeucey.backgammon.pubeval import check_rules
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import ArgumentError

__all__ = ["GnubgBot", "equity", "worth"]


@cache
def _gnubg() -> tuple[Any, Any, Any]:
    """The gnubg module, a centred cube, and the 0-ply context (cubeless, deterministic,
    no pruning, no noise)."""
    try:
        import gnubg
    except ImportError as exc:  # pragma: no cover - gnubg is in the test extra
        raise ImportError(
            "the gnubg bot needs GNU Backgammon's Python module: pip install gnubg"
        ) from exc
    return gnubg, gnubg.cube_info(), _context(0)


@cache
def _context(plies: int) -> Any:
    """gnubg's cubeless, deterministic evaluation ``plies`` deep (its own numbering: 0 is
    the network alone, 1 one roll ahead), no pruning, no noise."""
    import gnubg

    return gnubg.eval_context(False, plies, True, False, 0.0)


def equity(position: Position, scoring: str = "gammons", plies: int = 0) -> float:
    """gnubg's cubeless equity of ``position`` for the side on roll, at ``plies`` (0 by
    default: what the bot plays by)."""
    gnubg, cube, _ = _gnubg()
    win, _, _, _, _, money = gnubg.evaluate(position.gnubg_board(), cube, _context(plies))
    return float(money) if scoring == "gammons" else 2.0 * float(win) - 1.0


def worth(result: Position, plies: int = 0) -> float:
    """gnubg's money equity ``plies`` deep of a play's result for the mover; a play that
    bears off the last checker is worth the points it wins (1, 2 or 3)."""
    if result.off[0] == CHECKERS:
        return float(points_won(to_board(result), "gammons"))
    return -equity(result.flip(), plies=plies)


class GnubgBot:
    """Plays the legal play after which gnubg's 0-ply gives the opponent the least equity."""

    name = "gnubg"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rules: BackgammonRules | None = None

    def seated(self, game: Any, seat: int) -> None:
        rules = getattr(game, "rules", None)
        if isinstance(rules, BackgammonRules):
            check_rules(rules, self.name)
            self.rules = rules

    def act(self, observation: dict[str, Any]) -> str:
        legal: list[str] = observation["legal_actions"]
        if not legal:
            raise ArgumentError("agent.no_legal_actions")
        if self.rules is None:
            self.rules = rules_of(observation)
            check_rules(self.rules, self.name)
        if len(legal) == 1:
            return legal[0]
        position = position_of(observation)
        if default_cube_choice(legal) is not None:
            return self.cube_action(observation, position, legal)
        scoring = self.rules.scoring
        return min(
            legal, key=lambda text: self.left_to_opponent(play_result(position, text), scoring)
        )

    def cube_action(self, observation: dict[str, Any], position: Position, legal: list[str]) -> str:
        """gnubg's 0-ply cube decision (its ``hint`` command, :mod:`.gnubg_cube`)."""
        from tests.backgammon.gnubg_cube import cube_decision

        seat = int(observation["seat"])
        offer = observation.get("cube_offer")
        on_roll = int(offer["seat"]) if offer else seat
        if on_roll != seat:
            position = position.flip()
        holder = observation.get("cube_owner")
        owner = -1 if holder is None else (0 if holder == on_roll else 1)
        rules = self.rules
        length = int(rules.match_length or 0) if rules is not None else 0
        score = observation.get("match_score") or [0, 0]
        doubler, taker = cube_decision(
            position,
            cube=int(observation.get("cube") or 1),
            owner=owner,
            match_length=length,
            score=(int(score[on_roll]), int(score[1 - on_roll])) if length else (0, 0),
            crawford=bool(observation.get("crawford")),
            beavers=bool(rules is not None and rules.beavers),
        )
        if "roll" in legal:
            return "double" if doubler == "double" and "double" in legal else "roll"
        if taker == "pass":
            return "drop"
        return "beaver" if taker == "beaver" and "beaver" in legal else "take"

    @staticmethod
    def left_to_opponent(result: Position, scoring: str) -> float:
        """The opponent's equity on roll after a play (-inf when the play wins)."""
        if result.off[0] == CHECKERS:
            return -float("inf")
        return equity(result.flip(), scoring)
