"""A stand-in for ``aceydeucey.core.fairness`` with the same API (commit, cut, HMAC draws).

Only ``server/fairness.py`` imports it; once ``core.fairness`` is merged that import
switches and this file goes.  The stream: ``HMAC-SHA256(seed, u32be(len(cut)) || cut ||
u64be(i) || u32be(block))`` for blocks 0, 1, ..., read as an integer below the node's
``Distribution.total`` by rejection sampling and mapped by ``Distribution.pick``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.game import Action, Game, State
from aceydeucey.core.record import Record

__all__ = ["FairChance", "commitment", "cutting_seat", "new_server_seed", "verify"]

SCHEME = "hmac-sha256-v1"


def new_server_seed() -> bytes:
    """A fresh secret 32-byte seed."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The published commitment: hex SHA-256 of the seed."""
    return hashlib.sha256(seed).hexdigest()


def _draw(seed: bytes, cut: bytes, index: int, total: int) -> int:
    nbytes = (total.bit_length() + 7) // 8 + 8
    head = len(cut).to_bytes(4, "big") + cut + index.to_bytes(8, "big")
    data = b""
    block = 0
    while True:
        while len(data) < nbytes:
            data += hmac.new(seed, head + block.to_bytes(4, "big"), hashlib.sha256).digest()
            block += 1
        value, data = int.from_bytes(data[:nbytes], "big"), data[nbytes:]
        span = 1 << (8 * nbytes)
        if value < span - span % total:
            return value % total


class FairChance:
    """A chance source drawing from (server seed, cut, draw index)."""

    def __init__(self, server_seed: bytes, cut: bytes | str = b"", draws: int = 0) -> None:
        self._seed = bytes(server_seed)
        self.cut = cut.encode() if isinstance(cut, str) else bytes(cut)
        self.draws = draws
        self.commitment = commitment(self._seed)

    def choose(self, state: State) -> Action:
        dist = state.chance_distribution()
        action = dist.pick(_draw(self._seed, self.cut, self.draws, dist.total))
        self.draws += 1
        return action

    def fairness(self, reveal: bool) -> dict[str, Any]:
        return {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "cut": self.cut.hex(),
            "server_seed": self._seed.hex() if reveal else None,
        }

    def __repr__(self) -> str:
        return f"FairChance(commitment={self.commitment[:16]}..., draws={self.draws})"


def cutting_seat(game: Game, state: State | None = None) -> int:
    """The seat on the right of the starting seat (the dealer's right): ``dealer - 1``."""
    dealer = game.rules.to_dict().get("dealer", 0)
    start = dealer if isinstance(dealer, int) and not isinstance(dealer, bool) else 0
    return (start - 1) % game.num_players


def verify(record: Record) -> bool:
    """Whether every chance outcome of ``record`` is the one its revealed seed and cut give."""
    data = record.fairness or {}
    try:
        seed = bytes.fromhex(str(data["server_seed"]))
        cut = bytes.fromhex(str(data.get("cut", "")))
    except (KeyError, ValueError):
        return False
    if commitment(seed) != data.get("commitment"):
        return False
    chance = FairChance(seed, cut)
    try:
        state = record.make_game().new_initial_state()
        for text in record.actions:
            if state.is_chance_node() and str(chance.choose(state)) != text:
                return False
            state = state.apply(text)
    except AceyDeuceyError:
        return False
    return True
