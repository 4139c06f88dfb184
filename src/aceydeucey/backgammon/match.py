"""Match play: a session of games to ``match_length`` points, and its score.

A match is one state machine (:class:`~.game.BackgammonState` holds a :class:`Match`):
when a game of a match ends and no player has reached ``match_length`` points, the
next state is the next game's roll-off, with the score and the list of finished
games carried over; the match is over (a terminal state) once a player has the
points.  The game's points are the cube's value times its result (single, gammon,
backgammon; or one point per checker under ``scoring="per_checker"``); a dropped
double scores the cube's value before the double.  The returns of a finished match
are +1 for its winner and -1 for the loser.

The Crawford rule (``crawford``, on by default in a match with the cube): in the one
game after a player first reaches ``match_length - 1`` points, nobody may double;
in the games after it (post-Crawford) doubling is as usual.  Sources: GNUBG (the
rules of match play), bgammon (matches with per-checker points).
"""

from __future__ import annotations

from dataclasses import dataclass

from aceydeucey.backgammon.rules import BackgammonRules

__all__ = ["NO_MATCH", "GameResult", "Match"]

#: a finished game of a match: (winner's seat, points won, result: "single", "gammon",
#: "backgammon", "per_checker" or "dropped")
GameResult = tuple[int, int, str]


@dataclass(frozen=True)
class Match:
    """The score of a match so far, the games finished and whether the Crawford game
    has begun (the games after it are post-Crawford)."""

    score: tuple[int, int] = (0, 0)
    games: tuple[GameResult, ...] = ()
    crawford_done: bool = False

    def after_game(self, result: GameResult) -> Match:
        """The match once the game ``result`` is written down."""
        winner, points, _ = result
        score = list(self.score)
        score[winner] += points
        return Match((score[0], score[1]), (*self.games, result), self.crawford_done)

    def is_over(self, rules: BackgammonRules) -> bool:
        """Whether a player has won the match (always after a game when not a match)."""
        length = rules.match_length
        return length is None or max(self.score) >= length

    def next_is_crawford(self, rules: BackgammonRules) -> bool:
        """Whether the next game is the Crawford game: the rule holds, it has not been
        played, and a player has just reached one point short of the match."""
        length = rules.match_length
        return (
            rules.crawford_rule
            and not self.crawford_done
            and length is not None
            and length - 1 in self.score
        )

    def winner(self) -> int:
        """The seat ahead (the match's winner once it is over)."""
        return 0 if self.score[0] > self.score[1] else 1

    def is_post_crawford(self, rules: BackgammonRules, crawford_game: bool) -> bool:
        """Whether the game being played comes after the Crawford game."""
        return rules.crawford_rule and self.crawford_done and not crawford_game

    def to_json(self) -> dict[str, object]:
        """The observation's and the outcome's view of the games finished."""
        return {
            "score": list(self.score),
            "games": [{"winner": w, "points": p, "result": r} for w, p, r in self.games],
        }


#: the match of a state outside a match, or before a match's first game ends
NO_MATCH = Match()
