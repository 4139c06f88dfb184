"""Provably fair chance: commit to a secret seed, let a seat cut, reveal the seed at the end.

Scheme ``hmac-sha256-v1`` (specified in ``docs/fairness.md``, precisely enough to
re-implement the check without this package):

1. Before the first card or die, the server draws a secret 32-byte *server seed*
   (``new_server_seed``) and publishes its *commitment*, the hex SHA-256 of the seed.
2. After the commitment is published, the seat that cuts (``cutting_seat``: the seat on
   the dealer's right, the guide's cut) contributes the *cut*, any bytes it likes (a
   person's typed string, UTF-8 encoded, or ``new_cut()`` for a bot or the server).
3. Chance's outcome at the game's ``i``-th chance node (``i`` from 0) comes from the
   byte stream ``HMAC-SHA256(seed, u32be(len(cut)) || cut || u64be(i) || u32be(block))``
   for ``block`` = 0, 1, 2, ... concatenated, read as an integer uniform below the
   node's ``Distribution.total`` by rejection sampling (``uniform_below``), and mapped
   to an outcome by ``Distribution.pick``: the same exact sampler every chance source uses.
4. When the game ends the seed is revealed in the record's ``fairness`` field; anyone
   can then run ``verify(record)`` (``aceydeucey verify RECORD``).

Draw ``i`` depends only on (seed, cut, ``i``), so a table rebuilt from its record
resumes with ``FairChance(seed, cut, draws=number of chance actions so far)``.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError, ArgumentError, RecordError, message
from aceydeucey.core.game import Action, Game, State
from aceydeucey.core.record import Record, check_fairness, check_result

__all__ = [
    "MAX_CUT_BYTES",
    "SCHEME",
    "SEED_BYTES",
    "FairChance",
    "Verification",
    "commitment",
    "cutting_seat",
    "draw_stream",
    "fair_draw",
    "new_cut",
    "new_server_seed",
    "uniform_below",
    "verify",
]

SCHEME = "hmac-sha256-v1"
SEED_BYTES = 32
#: The longest cut accepted (a typed phrase fits many times over).
MAX_CUT_BYTES = 1024


# -- seeds and the commitment -----------------------------------------------------------------
def new_server_seed() -> bytes:
    """A fresh secret server seed: 32 bytes from the operating system (``secrets``)."""
    return secrets.token_bytes(SEED_BYTES)


def new_cut() -> bytes:
    """A cut for a seat that no person holds (a bot, or the server): 16 random bytes."""
    return secrets.token_bytes(16)


def commitment(server_seed: bytes) -> str:
    """The public commitment to ``server_seed``: its SHA-256 digest in lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def _check_seed(server_seed: object) -> bytes:
    if not isinstance(server_seed, bytes | bytearray) or len(server_seed) != SEED_BYTES:
        size = len(server_seed) if isinstance(server_seed, bytes | bytearray) else None
        raise ArgumentError("fairness.seed_length", length=SEED_BYTES, got=repr(size))
    return bytes(server_seed)


def _check_cut(cut: object) -> bytes:
    if isinstance(cut, str):
        cut = cut.encode("utf-8")
    if not isinstance(cut, bytes | bytearray):
        raise ArgumentError("fairness.cut_type", got=type(cut).__name__)
    if len(cut) > MAX_CUT_BYTES:
        raise ArgumentError("fairness.cut_too_long", limit=MAX_CUT_BYTES, got=len(cut))
    return bytes(cut)


# -- the stream and the exact draw ------------------------------------------------------------
def draw_stream(server_seed: bytes, cut: bytes, index: int) -> Iterator[int]:
    """The bytes of draw ``index``: HMAC-SHA256 blocks 0, 1, 2, ... concatenated.

    Block ``b`` is ``HMAC-SHA256(key=server_seed, msg=u32be(len(cut)) || cut ||
    u64be(index) || u32be(b))`` (big-endian unsigned integers).
    """
    prefix = len(cut).to_bytes(4, "big") + cut + index.to_bytes(8, "big")
    block = 0
    while True:
        yield from hmac.digest(server_seed, prefix + block.to_bytes(4, "big"), "sha256")
        block += 1


def uniform_below(total: int, data: Iterable[int]) -> int:
    """An integer exactly uniform in ``range(total)`` from a stream of uniform bytes.

    Take ``k`` bytes, the fewest with ``256**k >= total``, as a big-endian integer
    ``x``; when ``x`` is below ``limit = 256**k - 256**k % total`` (the largest multiple of
    ``total`` that fits) the draw is ``x % total``, otherwise those ``k`` bytes are
    rejected and the next ``k`` are read.  Each accepted ``x`` is uniform over
    ``limit`` values, ``limit / total`` of them per draw: exactly uniform.
    """
    if isinstance(total, bool) or not isinstance(total, int) or total < 1:
        raise ArgumentError("fairness.bad_total", total=repr(total))
    k = max(1, ((total - 1).bit_length() + 7) // 8)
    span = 256**k
    limit = span - span % total
    stream = iter(data)
    while True:
        chunk = bytes(itertools.islice(stream, k))
        if len(chunk) < k:
            raise ArgumentError("fairness.stream_ended", total=total)
        x = int.from_bytes(chunk, "big")
        if x < limit:
            return x % total


def fair_draw(server_seed: bytes, cut: bytes, index: int, total: int) -> int:
    """Draw ``index`` of the scheme: an integer uniform in ``range(total)``."""
    return uniform_below(total, draw_stream(server_seed, cut, index))


class FairChance:
    """A commit-reveal chance source (a ``ChanceSource``): ``hmac-sha256-v1``.

    ``draws`` is the index of the next draw (the number of chance outcomes already drawn):
    0 for a new game, the count of chance actions in the record for a table rebuilt from it.
    """

    def __init__(self, server_seed: bytes, cut: bytes | str = b"", draws: int = 0) -> None:
        self._seed = _check_seed(server_seed)
        self.cut = _check_cut(cut)
        if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
            raise ArgumentError("fairness.bad_draws", draws=repr(draws))
        self.draws = draws
        self.commitment = commitment(self._seed)

    def with_cut(self, cut: bytes | str) -> FairChance:
        """The same seed with the cutting seat's ``cut``: before the first draw only."""
        if self.draws:
            raise ArgumentError("fairness.cut_after_draw", draws=self.draws)
        return FairChance(self._seed, cut)

    @classmethod
    def resume(cls, record: Record, server_seed: bytes) -> FairChance:
        """The source of a table rebuilt from ``record``: its cut, the next draw index.

        ``server_seed`` must be the one the record's commitment names; the draw index is
        the number of chance actions in the record (found by replaying it).
        """
        data = check_fairness(record.fairness)
        if data is None:
            raise RecordError("fairness.missing")
        seed = _check_seed(server_seed)
        if not hmac.compare_digest(commitment(seed), data["commitment"]):
            raise ArgumentError("fairness.wrong_seed", commitment=data["commitment"])
        state = record.make_game().new_initial_state()
        draws = 0
        for index, text in enumerate(record.actions):
            draws += state.is_chance_node()
            try:
                state = state.apply(text)
            except AceyDeuceyError as exc:
                raise RecordError(
                    "record.action_failed", index=index, text=text, cause=exc
                ) from None
        return cls(seed, bytes.fromhex(data["cut"]), draws)

    @property
    def server_seed(self) -> bytes:
        """The secret seed: reveal it only once the game is over."""
        return self._seed

    def draw(self, total: int) -> int:
        """The next integer draw below ``total`` (advances ``draws``)."""
        value = fair_draw(self._seed, self.cut, self.draws, total)
        self.draws += 1
        return value

    def choose(self, state: State) -> Action:
        if not state.is_chance_node():
            raise ArgumentError("fairness.not_chance_node")
        dist = state.chance_distribution()
        return dist.pick(self.draw(dist.total))

    def fairness(self, reveal: bool) -> dict[str, Any]:
        """The record's ``fairness`` field; the seed is in it only when ``reveal`` is true."""
        return {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "cut": self.cut.hex(),
            "server_seed": self._seed.hex() if reveal else None,
        }

    def __repr__(self) -> str:  # never shows the seed
        return f"FairChance(commitment={self.commitment[:16]}..., draws={self.draws})"


# -- who cuts ---------------------------------------------------------------------------------
def _starting_seat(game: Game) -> int:
    """The seat that starts: the dealer (In-Between), the first thrower (dice), else 0."""
    n = game.num_players
    options = game.rules.to_dict()
    if game.game_id == "inbetween":
        dealer = options.get("dealer")
        if isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < n:
            return dealer
        return 0
    if game.game_id == "aces-in-the-pot":
        first = options.get("first_roller")
        if isinstance(first, int) and not isinstance(first, bool) and 0 <= first < n:
            return first
    return 0


def cutting_seat(game: Game, state: State | None = None) -> int:
    """The seat that cuts: the one on the right of the seat that starts.

    The cut is made once, when the table starts (``state``, the table's first state, is
    accepted for that moment; the three games decide who starts by their rules alone).
    Seats go clockwise, so the right of seat ``s`` is ``s - 1`` (mod n).  In-Between:
    the first dealer's right (the guide's cut), the dealer being the ``dealer`` option,
    or seat 0 when the dealer is drawn for (``dealer="draw"``).  Aces in the Pot: the
    right of ``first_roller``, or of seat 0 (first in the roll-off).  Backgammon: seat 1,
    the second seat (the right of seat 0 in a game of two).
    """
    n = game.num_players
    return (_starting_seat(game) - 1) % n


# -- verification -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Verification:
    """What ``verify`` found.

    ``ok`` is true when every chance outcome matches.  Otherwise ``index`` is the
    position in the record's actions of the first problem, ``draw`` the draw index there,
    ``expected`` the outcome the seed and cut give and ``recorded`` the one written.
    ``code`` and ``params`` say it in any language (``render``).
    """

    ok: bool
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    draws: int = 0
    index: int | None = None
    draw: int | None = None
    expected: str | None = None
    recorded: str | None = None

    def render(self, lang: str = "en") -> str:
        from aceydeucey.locale import render_error

        return render_error(self.code, self.params, lang)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "ok": self.ok,
            "code": self.code,
            "params": self.params,
            "message": self.render(lang),
            "draws": self.draws,
            "index": self.index,
            "draw": self.draw,
            "expected": self.expected,
            "recorded": self.recorded,
        }


def _revealed(record: Record) -> tuple[bytes, bytes, str]:
    """The seed, cut and commitment of ``record``, or a coded RecordError."""
    data = check_fairness(record.fairness)
    if data is None:
        raise RecordError("fairness.missing")
    if data["scheme"] != SCHEME:
        raise RecordError("fairness.unknown_scheme", scheme=data["scheme"], accepted=SCHEME)
    if data.get("server_seed") is None:
        raise RecordError("fairness.not_revealed")
    return bytes.fromhex(data["server_seed"]), bytes.fromhex(data["cut"]), data["commitment"]


def _same_action(state: State, text: str, outcome: Action) -> bool:
    """Whether ``text`` (not in canonical spelling) names ``outcome`` at ``state``."""
    try:
        return bool(state.parse_action(text) == outcome)
    except AceyDeuceyError:
        return False


def verify(record: Record) -> Verification:
    """Re-derive every chance outcome of ``record`` from its revealed seed and cut.

    Checks that SHA-256 of the seed is the commitment, then replays the record: at
    each chance node the recorded outcome must be the one ``FairChance`` draws, and
    every other action must replay.  A record without fairness data, with an unknown
    scheme or whose seed is not revealed yet raises ``RecordError`` (codes
    ``fairness.missing``, ``fairness.unknown_scheme``, ``fairness.not_revealed``); so
    does a record whose game or rules cannot be built.
    """
    seed, cut, commit = _revealed(record)
    actual = commitment(seed)
    if not hmac.compare_digest(actual, commit):
        return Verification(
            False, "fairness.bad_commitment", {"actual": actual, "commitment": commit}
        )
    if len(cut) > MAX_CUT_BYTES:
        raise RecordError("fairness.cut_too_long", limit=MAX_CUT_BYTES, got=len(cut))
    game = record.make_game()
    if len(record.players) != game.num_players:
        raise RecordError(
            "fairness.player_count", players=len(record.players), seats=game.num_players
        )
    chance = FairChance(seed, cut)
    state = game.new_initial_state()
    for index, text in enumerate(record.actions):
        if state.is_chance_node():
            draw = chance.draws
            outcome = chance.choose(state)
            expected = str(outcome)
            if text != expected and not _same_action(state, text, outcome):
                return Verification(
                    False,
                    "fairness.mismatch",
                    {"index": index, "draw": draw, "expected": expected, "recorded": text},
                    draws=draw,
                    index=index,
                    draw=draw,
                    expected=expected,
                    recorded=text,
                )
        try:
            state = state.apply(text)
        except AceyDeuceyError as exc:
            return Verification(
                False,
                "fairness.replay_failed",
                {"index": index, "action": text, "reason": message(exc.code, **exc.params)},
                draws=chance.draws,
                index=index,
                recorded=text,
            )
    try:
        state = record.apply_ending(state)
        check_result(record.result, state)
    except RecordError as exc:
        return Verification(False, exc.code, exc.params, draws=chance.draws)
    code = "fairness.verified" if state.is_terminal() else "fairness.verified_unfinished"
    return Verification(True, code, {"count": chance.draws}, draws=chance.draws)
