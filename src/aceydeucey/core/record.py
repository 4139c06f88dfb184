"""Records: a versioned JSON document from which a game replays exactly.

Format (version 1, documented in ``docs/records.md``)::

    {
      "format": "aceydeucey-record",
      "version": 1,
      "game": "inbetween",
      "rules": {...every option, fully resolved...},
      "players": ["Ana", "bot:ev", ...],
      "actions": ["7H", "QS", "bet 2", ...],        # chance's outcomes included, in order
      "fairness": null | {...},                    # commit-reveal data, when dealt fairly
      "result": {"returns": ["3/2", "-1", ...]}    # informative; replay recomputes it
    }
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError, RecordError, message
from aceydeucey.core.game import Game, State
from aceydeucey.core.registry import game_class

__all__ = ["FORMAT", "VERSION", "Record", "check_fairness", "replay"]

FORMAT = "aceydeucey-record"
VERSION = 1


@dataclass
class Record:
    """What happened in one game, enough to replay it exactly."""

    game: str
    rules: dict[str, Any]
    players: list[str]
    actions: list[str] = field(default_factory=list)
    fairness: dict[str, Any] | None = None
    result: dict[str, Any] | None = None

    @classmethod
    def start(cls, game: Game, players: list[str]) -> Record:
        return cls(game=game.game_id, rules=game.rules.to_dict(), players=list(players))

    def finish(self, state: State) -> None:
        self.result = {
            "returns": [str(r) for r in state.returns()],
            "terminal": state.is_terminal(),
        }

    # -- JSON -----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "actions": self.actions,
            "fairness": self.fairness,
            "result": self.result,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise RecordError("record.not_object")
        if data.get("format") != FORMAT:
            raise RecordError("record.bad_format", format=FORMAT)
        if data.get("version") != VERSION:
            raise RecordError(
                "record.bad_version", version=repr(data.get("version")), reads=VERSION
            )
        checks = {
            "game": str,
            "rules": dict,
            "players": list,
            "actions": list,
        }
        for key, kind in checks.items():
            if not isinstance(data.get(key), kind):
                raise RecordError("record.bad_field", field=key, kind=kind.__name__)
        for i, action in enumerate(data["actions"]):
            if not isinstance(action, str):
                raise RecordError("record.action_not_text", index=i, text=repr(action))
        return cls(
            game=data["game"],
            rules=data["rules"],
            players=[str(p) for p in data["players"]],
            actions=list(data["actions"]),
            fairness=check_fairness(data.get("fairness")),
            result=data.get("result"),
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError("record.not_json", detail=str(exc)) from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError("record.unreadable", path=str(path), detail=exc.strerror) from None
        except UnicodeDecodeError:
            raise RecordError("record.not_text", path=str(path)) from None
        return cls.from_json(text)

    # -- replay ---------------------------------------------------------------
    def make_game(self) -> Game:
        try:
            cls = game_class(self.game)
            return cls(cls.rules_class.from_dict(self.rules))
        except AceyDeuceyError as exc:
            raise RecordError("record.bad_rules", reason=message(exc.code, **exc.params)) from None


_HEX = re.compile(r"^(?:[0-9a-f]{2})*$")
#: The ``fairness`` keys that hold bytes as hex, and their exact size in hex digits (None: any).
_FAIRNESS_HEX = {"commitment": 64, "cut": None, "server_seed": 64}


def check_fairness(value: Any) -> dict[str, Any] | None:
    """A record's ``fairness`` field (docs/fairness.md), checked for shape; null stays None.

    ``scheme`` is a non-empty string (an unknown one still loads; ``verify`` refuses it);
    ``commitment``, ``cut`` and ``server_seed`` (null until revealed) are lowercase hex.
    """
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError("record.fairness_not_object")
    if not isinstance(value.get("scheme"), str) or not value["scheme"]:
        raise RecordError("record.fairness_no_scheme")
    for key, digits in _FAIRNESS_HEX.items():
        text = value.get(key)
        if key == "server_seed" and text is None:
            continue
        if not isinstance(text, str) or not _HEX.match(text):
            raise RecordError("record.fairness_not_hex", field=key)
        if digits is not None and len(text) != digits:
            raise RecordError("record.fairness_bad_length", field=key, digits=digits)
    return dict(value)


def replay(record: Record) -> State:
    """Re-apply every action of ``record``; the final state, or RecordError naming the action.

    When the record carries a result, the replayed returns must equal it.
    """
    game = record.make_game()
    if len(record.players) != getattr(game, "num_players", len(record.players)):
        raise RecordError(
            "record.player_count", players=len(record.players), seats=game.num_players
        )
    state = game.new_initial_state()
    for index, text in enumerate(record.actions):
        try:
            state = state.apply(text)
        except AceyDeuceyError as exc:
            raise RecordError(exc.code, index=index, text=text, cause=exc) from None
    if record.result is not None and "returns" in record.result:
        try:
            claimed = [Fraction(r) for r in record.result["returns"]]
        except (TypeError, ValueError, ZeroDivisionError):
            raise RecordError("record.bad_returns") from None
        if claimed != list(state.returns()):
            got = [str(r) for r in state.returns()]
            raise RecordError(
                "record.returns_differ", claimed=str(record.result["returns"]), replayed=str(got)
            )
    return state
