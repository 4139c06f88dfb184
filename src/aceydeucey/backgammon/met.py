"""The match equity table, computed by the project from a few documented figures.

``MatchEquityTable().mwc(a, b)`` is the chance that the player who needs ``a``
points wins the match against one who needs ``b``, before a game starts with
the cube in the middle.  Tables are computed once per set of
:class:`MetParameters` (about a tenth of a second), up to :data:`MAX_AWAY`.

The method
----------
Each game is won by either side with even chances at the start; among a side's
wins a share ``gammon_rate`` are gammons and ``backgammon_rate`` backgammons.

* **Post-Crawford** (the leader 1-away, the trailer ``n``-away): the trailer
  doubles at once (the leader's cube is dead), so each game is worth two points,
  four with a gammon, and the leader wins the match with any win::

      post(n) = 1/2 (single post(n - 2) + gammon post(n - 4) + backgammon post(n - 6))

  with ``post(1) = 1/2`` and ``post(k <= 0) = 1``.  At 2- and 4-away the leader
  has a free drop (it may pass the first double in the positions it is behind):
  ``free_drop_2`` and ``free_drop_4`` are taken off the trailer's chances.
* **The Crawford game**: no cube; the leader wins the match with any win, and
  the trailer's win (one, two or three points) leads to a post-Crawford score.
* **Before Crawford** (both at least 2-away): the cubeful recursion of
  :mod:`.cubeful` (Keeler and Spencer's continuous model, Janowski's cube
  efficiency) with the table's own smaller scores as the values of the game's
  ends, evaluated at even chances with a centred cube.  A cube is dead for its
  owner once it needs no more points than the cube shows.  The recursion runs
  over the scores in order of ``a + b``, so every value it needs is there.

This is the structure of the published derivations (Zadeh 1977; the
Woolsey-Kazaross and Rockwell-Kazaross tables fill it with rollout results);
the project carries over only the figures below, which are round numbers near
the gammon rates and cube efficiency those works report.  Against GNU
Backgammon's default table (Kazaross-XG2, from rollouts) this table differs by
at most 0.7 percentage points at every score up to 11-away (the test suite
holds it within 1.5).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from aceydeucey.backgammon.cubeful import MatchStakes, _curve, _Model

__all__ = [
    "MAX_AWAY",
    "SHIPPED",
    "MatchEquityTable",
    "MetParameters",
    "default_table",
    "table_data",
]

#: The longest score the table covers (each side up to 25-away).
MAX_AWAY = 25


@dataclass(frozen=True)
class MetParameters:
    """The figures the table is computed from."""

    #: share of a side's wins that are gammons (not backgammons), and backgammons
    gammon_rate: float = 0.27
    backgammon_rate: float = 0.01
    #: Janowski's cube efficiency in the pre-Crawford recursion
    cube_efficiency: float = 0.8
    #: the leader's free drop, in match-winning chances, at 2- and 4-away post-Crawford
    free_drop_2: float = 0.012
    free_drop_4: float = 0.004


class MatchEquityTable:
    """Match-winning chances at every score up to ``max_away`` (see the module's method)."""

    def __init__(self, params: MetParameters | None = None, max_away: int = MAX_AWAY) -> None:
        self.params = params if params is not None else MetParameters()
        self.max_away = max_away
        p = self.params
        self._shares = (1.0 - p.gammon_rate - p.backgammon_rate, p.gammon_rate, p.backgammon_rate)
        n = max_away
        #: post-Crawford chances of the trailer, index n-away (0 unused)
        self.post = [1.0] * (n + 1)
        for k in range(1, n + 1):
            self.post[k] = self._post(k)
        #: the Crawford game: the leader's chances against a trailer b-away
        self.crawford = [1.0] * (n + 1)
        for b in range(1, n + 1):
            self.crawford[b] = 0.5 + 0.5 * sum(
                share * (1.0 - self._post_at(b - k)) for k, share in enumerate(self._shares, 1)
            )
        self.crawford[1] = 0.5
        #: before Crawford, pre[a][b] for a, b >= 2 (filled in order of a + b)
        self.pre = [[0.5] * (n + 1) for _ in range(n + 1)]
        for total in range(4, 2 * n + 1):
            for a in range(max(2, total - n), min(n, total - 2) + 1):
                self.pre[a][total - a] = self._pre(a, total - a)

    def _post_at(self, k: int) -> float:
        return 1.0 if k <= 0 else self.post[k]

    def _post(self, k: int) -> float:
        if k == 1:
            return 0.5
        value = 0.5 * sum(
            share * self._post_at(k - 2 * j) for j, share in enumerate(self._shares, 1)
        )
        if k == 2:
            value -= self.params.free_drop_2
        elif k == 4:
            value -= self.params.free_drop_4
        return value

    def _pre(self, a: int, b: int) -> float:
        model = _Model(
            MatchStakes(a, b, self), self._shares, self._shares, self.params.cube_efficiency
        )
        return _curve(model, 1, "centred")(0.5)

    def mwc(self, away: int, opp_away: int, *, post_crawford: bool = False) -> float:
        """The chances of the player ``away`` from winning against one ``opp_away``, before
        a game; at 1-away the game is the Crawford game unless ``post_crawford``."""
        if away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        if away > self.max_away or opp_away > self.max_away:
            from aceydeucey.core.errors import ArgumentError

            raise ArgumentError("bg.met.range", away=max(away, opp_away), limit=self.max_away)
        if away == 1 and opp_away == 1:
            return 0.5
        if away == 1:
            return 1.0 - self.post[opp_away] if post_crawford else self.crawford[opp_away]
        if opp_away == 1:
            return self.post[away] if post_crawford else 1.0 - self.crawford[away]
        return self.pre[away][opp_away]

    def after_game(self, away: int, opp_away: int, *, post_crawford: bool) -> float:
        """The chances at a score reached by a game; ``post_crawford``: that game was the
        Crawford game or after it (so a side 1-away now plays post-Crawford)."""
        return self.mwc(away, opp_away, post_crawford=post_crawford)

    def rows(self, size: int) -> list[list[float]]:
        """The pre-Crawford table ``size`` by ``size`` (row: my away, column: theirs; the
        1-away row and column are the Crawford game)."""
        return [[self.mwc(a, b) for b in range(1, size + 1)] for a in range(1, size + 1)]


#: The default table, generated (``python -m aceydeucey.backgammon.met`` writes it again).
SHIPPED = Path(__file__).parent / "met_table.json"


class _Shipped(MatchEquityTable):
    """The default table read from :data:`SHIPPED` (what the computation gave)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.params = MetParameters(**data["params"])
        self.max_away = int(data["max_away"])
        self.post = [float(v) for v in data["post"]]
        self.crawford = [float(v) for v in data["crawford"]]
        self.pre = [[float(v) for v in row] for row in data["pre"]]


def table_data(table: MatchEquityTable) -> dict[str, Any]:
    """A table as JSON-ready data (rounded to 1e-9)."""
    return {
        "params": asdict(table.params),
        "max_away": table.max_away,
        "post": [round(v, 9) for v in table.post],
        "crawford": [round(v, 9) for v in table.crawford],
        "pre": [[round(v, 9) for v in row] for row in table.pre],
    }


@cache
def default_table() -> MatchEquityTable:
    """The table of the default parameters (the shipped file, or computed when it is absent)."""
    if SHIPPED.is_file():
        return _Shipped(json.loads(SHIPPED.read_text()))
    return MatchEquityTable()  # pragma: no cover - the package ships the file


if __name__ == "__main__":  # pragma: no cover - regenerates the shipped table
    SHIPPED.write_text(json.dumps(table_data(MatchEquityTable()), separators=(",", ":")) + "\n")
