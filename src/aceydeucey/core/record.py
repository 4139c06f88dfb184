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
      "ending": null | {"termination": "ending.resigned", "seat": 1},  # a game given up
      "result": {"returns": ["3/2", "-1", ...], "terminal": true,
                 "termination": "session.rounds_played", "params": {...}, "winners": [0]}
    }

``replay`` re-applies the actions (and the ending), and every field of the stated
``result`` must equal the replayed outcome.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from aceydeucey.core.endings import EndedState, end
from aceydeucey.core.errors import AceyDeuceyError, RecordError, message
from aceydeucey.core.game import Game, State
from aceydeucey.core.registry import game_class

__all__ = ["FORMAT", "VERSION", "Record", "check_fairness", "check_result", "replay", "result_of"]

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
    ending: dict[str, Any] | None = None

    @classmethod
    def start(cls, game: Game, players: list[str]) -> Record:
        return cls(game=game.game_id, rules=game.rules.to_dict(), players=list(players))

    def finish(self, state: State) -> None:
        """Write the result of ``state`` (and its ending, when a seat gave the game up)."""
        if isinstance(state, EndedState):
            self.ending = {"termination": state.ending.value, "seat": state.seat}
        self.result = result_of(state)

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
            "ending": self.ending,
            "result": self.result,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> Path:
        """Write the record to ``path`` (replacing it: a path the user named)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n", encoding="utf-8")
        return path

    def save_new(self, path: str | Path) -> Path:
        """Write the record to a new file: ``path``, or ``<stem>-2``, ``-3``... when that
        name is taken.  Each file is created exclusively (``open(..., "x")``), so two games
        that chose the same name at once keep two records: no record is ever overwritten.
        The path written is returned.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = self.to_json() + "\n"
        candidate, n = path, 2
        while True:
            try:
                with candidate.open("x", encoding="utf-8") as f:
                    f.write(text)
                return candidate
            except FileExistsError:
                candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
                n += 1

    def apply_ending(self, state: State) -> State:
        """``state`` ended as the record's ``ending`` says (unchanged when it has none)."""
        if self.ending is None:
            return state
        data = self.ending
        if not isinstance(data, dict) or set(data) != {"termination", "seat"}:
            reason = message("record.bad_field", field="ending", kind="dict")
            raise RecordError("record.bad_ending", reason=reason)
        try:
            return end(state, data["termination"], data["seat"])
        except AceyDeuceyError as exc:
            raise RecordError("record.bad_ending", reason=message(exc.code, **exc.params)) from None

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
            ending=data.get("ending"),
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


def result_of(state: State) -> dict[str, Any]:
    """The ``result`` a record states for ``state``: returns (exact text), whether it is
    over, how it ended (termination code and params, ``None`` while running), winners."""
    outcome = state.outcome()
    return {
        "returns": [str(r) for r in state.returns()],
        "terminal": state.is_terminal(),
        "termination": None if outcome is None else str(outcome.termination),
        "params": {} if outcome is None else _jsonable(dict(outcome.params)),
        "winners": [] if outcome is None else list(outcome.winners),
    }


def check_result(result: Any, state: State) -> None:
    """Every field of a record's stated ``result`` must equal the replayed ``state``'s;
    else ``RecordError("record.result_differs")`` naming the first field that differs
    (a field the result does not know differs too).  A missing result is not checked."""
    if result is None:
        return
    if not isinstance(result, dict):
        raise RecordError("record.result_not_object")
    replayed = result_of(state)
    for name, claimed in result.items():
        truth = replayed.get(name)
        if name == "returns":
            same = _same_returns(claimed, state)
        else:
            same = name in replayed and claimed == truth and type(claimed) is type(truth)
        if not same:
            raise RecordError(
                "record.result_differs",
                field=name,
                claimed=json.dumps(claimed, ensure_ascii=False, default=str),
                replayed=json.dumps(truth, ensure_ascii=False),
            )


def _same_returns(claimed: Any, state: State) -> bool:
    if not isinstance(claimed, list):
        return False
    try:
        return [Fraction(r) for r in claimed] == list(state.returns())
    except (TypeError, ValueError, ZeroDivisionError):
        return False


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def replay(record: Record) -> State:
    """Re-apply every action of ``record`` (and its ending); the final state, or
    RecordError naming the action.

    Every field of the record's stated result must equal the replayed one.
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
    state = record.apply_ending(state)
    check_result(record.result, state)
    return state
