"""The turn structure of the backgammon family, written once: one step from event to phase.

Everything between two decisions that is not checker movement lives here: the
roll-off, the entry gates, the dice in hand, the 1-2 bonus and its double, the
extra rolls after doubles, the complement, the dice passed to the opponent, the
end of the game.  :func:`step` applies one event to a **turn record** and leaves
the next phase in it.  The engine (:mod:`.game`), the batch playouts
(:mod:`aceydeucey.sim.playouts`) and the TD trainer (:mod:`aceydeucey.sim.td`) all
call it, and so does the evaluator when it asks what follows a play: the playouts
and the trainer call it compiled (:data:`aceydeucey.backgammon.kernel.turn_step`),
the engine and the evaluator call this very function through :class:`TurnSteps`,
which keeps each distinct answer (a game meets a few dozen), so that the engine
never waits for Numba.  ``tests/backgammon/test_turn.py`` holds the compiled and
the interpreted step to the same answers.

The record
----------
An ``int64`` array (a list will do for the interpreted step) of :data:`N_TURN`
fields, indexed by ``T_*``: the phase (``PH_*``, the order of ``game.PHASES``),
the mover, the kind of dice in hand (``K_*``, the order of ``game.KINDS``), the
1-2 bonuses taken this turn, whether the coming roll is an extra roll of the same
turn, each seat's entry gate (1: passed), the winner (-1 before the end), the
number of dice in hand and the dice (larger first), and whether those dice may
bring a checker in from the bar.  The board is the caller's: it is always seen
from the mover's side, and :func:`step` returns 1 when the mover changed (the
caller turns the board round).

Events
------
* :data:`EV_NEW`: a new game (the roll-off comes first; the gates open where the
  rules have none).
* :data:`EV_OPENING` ``(a, b)``: the roll-off, seat 0 threw ``a``, seat 1 ``b``.
* :data:`EV_ROLL` ``(high, low)``: the mover's roll.
* :data:`EV_DOUBLE` ``(value)``: the double after a 1-2, named or rolled.
* :data:`EV_PLAY` ``(used, high, flags)``: the mover has played ``used`` of the
  dice in hand (``high``: a one-die play of two different dice used the higher),
  ``flags`` :data:`PLAY_ENDS` (the last checker was borne off) and
  :data:`PLAY_FROM_BAR` (the mover had a checker on the bar before the play).
* :data:`EV_HAND` ``(kind)``: the record's dice come into hand as ``kind`` (the
  engine's states made from a position and dice).

* :data:`EV_TURN`: the record's mover starts a turn (the engine's states made from a
  position with no dice: the roll comes next, or the cube phase).
* :data:`EV_CUBE` ``(choice)``: a cube decision, :data:`CUBE_ROLL` or
  :data:`CUBE_DOUBLE` at the ``cube`` phase (the mover, before a turn's first roll),
  :data:`CUBE_TAKE`, :data:`CUBE_DROP` or :data:`CUBE_BEAVER` at the ``take`` phase
  (the mover's opponent).

The doubling cube
-----------------
Under a cube (``G_CUBE``) the record also holds the cube's value (its log2,
``T_CUBE``), its owner (``T_OWNER``: 0 centred, 1 + seat) and flags (``T_CFLAGS``:
:data:`CF_CRAWFORD` this game is the Crawford game, given by :data:`EV_NEW`'s ``x``;
:data:`CF_DROPPED` the game ended on a dropped double; :data:`CF_MAY_BEAVER` the
double pending may be beavered).  Where the mover may double (the cube centred or
theirs, below ``max_cube``, not the Crawford game) a new turn starts at the
``cube`` phase instead of the roll; elsewhere the roll comes at once, so that the
phase is never a choice of one.  The game's first turn (after the roll-off) and the
extra rolls of a turn have no cube phase.  A take doubles the cube and gives it to
the taker; a beaver (money play, ``beavers``) takes and redoubles at once: the cube
goes up four-fold and stays with the taker, and the player beavered (who no longer
owns it) may not redouble (no raccoons); a drop ends the game, won by the doubler.

The step is one function with no calls, written in the subset of Python that Numba
compiles without its runtime (no allocation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from aceydeucey.backgammon.rules import BackgammonRules

__all__ = [
    "CF_CRAWFORD",
    "CF_DROPPED",
    "CF_MAY_BEAVER",
    "CUBE_BEAVER",
    "CUBE_CHOICES",
    "CUBE_DOUBLE",
    "CUBE_DROP",
    "CUBE_ROLL",
    "CUBE_TAKE",
    "EV_CUBE",
    "EV_DOUBLE",
    "EV_HAND",
    "EV_NEW",
    "EV_OPENING",
    "EV_PLAY",
    "EV_ROLL",
    "EV_TURN",
    "G_ACEY",
    "G_ACEY_BOTH",
    "G_ACEY_FULL",
    "G_BAR_GATE",
    "G_BEAVERS",
    "G_CHAIN_LIMIT",
    "G_COMPLEMENT",
    "G_CUBE",
    "G_DOUBLES_REROLL",
    "G_ENTRY_GATE",
    "G_MAX_CUBE_LOG",
    "G_NAMED",
    "G_OPENING",
    "G_SCORING",
    "G_TO_OPPONENT",
    "KINDS",
    "N_GAME_PARAMS",
    "N_TURN",
    "PHASES",
    "PLAY_ENDS",
    "PLAY_FROM_BAR",
    "RULE_CODES",
    "TurnNode",
    "TurnSteps",
    "code_of",
    "game_params",
    "game_params_of",
    "game_points",
    "play_fields",
    "rule_codes",
    "step",
]

#: phases, in the order of their codes (``PH_*``)
PHASES = ("opening", "roll", "double", "play", "over", "cube", "take")
PH_OPENING, PH_ROLL, PH_DOUBLE, PH_PLAY, PH_OVER, PH_CUBE, PH_TAKE = range(7)
#: kinds of dice in hand, in the order of their codes (``K_*``)
KINDS = ("", "roll", "named", "complement", "remainder")
K_NONE, K_ROLL, K_NAMED, K_COMPLEMENT, K_REMAINDER = range(5)

# -- the record's fields -----------------------------------------------------------
T_PHASE = 0
T_MOVER = 1
T_KIND = 2
T_CHAIN = 3  # 1-2 bonuses taken this turn
T_EXTRA = 4  # 1: the coming roll is an extra roll of the same turn
T_GATE = 5  # T_GATE + seat: 1 once that seat has passed its entry gate
T_WINNER = 7
T_N = 8  # dice in hand
T_DICE = 9  # T_DICE .. T_DICE + 3: the dice, larger first
T_BAR_OPEN = 13  # 1: the dice in hand may bring a checker in from the bar
T_CUBE = 14  # log2 of the cube's value
T_OWNER = 15  # the cube's owner: 0 centred, 1 + seat
T_CFLAGS = 16  # CF_* flags
N_TURN = 18

#: flags of ``T_CFLAGS``
CF_CRAWFORD = 1  # this game is the Crawford game: no doubling
CF_DROPPED = 2  # the game ended on a dropped double
CF_MAY_BEAVER = 4  # the double pending may be beavered

# -- events --------------------------------------------------------------------------
EV_NEW = 0
EV_OPENING = 1
EV_ROLL = 2
EV_DOUBLE = 3
EV_PLAY = 4
EV_HAND = 5
EV_CUBE = 6
EV_TURN = 7
#: choices of :data:`EV_CUBE`, in the order of their codes (their canonical words)
CUBE_CHOICES = ("roll", "double", "take", "drop", "beaver")
CUBE_ROLL, CUBE_DOUBLE, CUBE_TAKE, CUBE_DROP, CUBE_BEAVER = range(5)
#: flags of :data:`EV_PLAY`
PLAY_ENDS = 1
PLAY_FROM_BAR = 2

# -- whole-game parameters (indices into the params array) -------------------------
G_OPENING = 0  # 0: the winner of the roll-off plays its two dice; 1: rolls both afresh
G_ACEY = 1  # 1: a 1-2 earns a double and another roll
G_DOUBLES_REROLL = 2  # natural doubles roll again: 0 never, 1 if fully played, 2 always
G_SCORING = 3  # 0: one point per checker not borne off; 1: single; 2: gammons
G_ACEY_BOTH = 4  # 1: the 1-2 bonus needs both dice played
G_ACEY_FULL = 5  # 1: the roll after the named double needs all four played
G_CHAIN_LIMIT = 6  # most 1-2 bonuses in one turn (0: no limit)
G_COMPLEMENT = 7  # 1: fully played doubles are followed by their complement
G_NAMED = 8  # 1: the double after a 1-2 is a decision (named); 0: a die roll
G_ENTRY_GATE = 9  # roll before the first entry: 0 none, 1 doubles or 1-2, 2 doubles, 3 a six
G_BAR_GATE = 10  # roll to come in from the bar: 0 any, 1 doubles or 1-2
G_TO_OPPONENT = 11  # 1: dice a player cannot use are played by the opponent
G_CUBE = 12  # the doubling cube: 0 none, 1 money, 2 match
G_MAX_CUBE_LOG = 13  # log2 of the highest cube value (0: no limit)
G_BEAVERS = 14  # 1: a double may be beavered
N_GAME_PARAMS = 15

#: The one map from option values to the kernels' integer codes (moves, turns, playouts).
RULE_CODES: Mapping[str, Mapping[Any, int]] = {
    "must_enter_all_before": {"nothing": 0, "passing_opp_12pt": 1, "moving_any_entered": 2},
    "opening": {"use_opening_dice": 0, "reroll_both_dice": 1},
    "natural_doubles_extra_roll": {"none": 0, "if_fully_played": 1, "always": 2},
    "scoring": {"per_checker": 0, "single": 1, "gammons": 2},
    "entry_gate": {"none": 0, "doubles_or_acey": 1, "doubles_only": 2, "six": 3},
    "bar_reentry_gate": {"none": 0, "doubles_or_acey": 1},
    "cube": {"none": 0, "money": 1, "match": 2},
}


def code_of(rules: BackgammonRules, option: str) -> int:
    """The kernels' code of ``rules``' value of ``option`` (see :data:`RULE_CODES`)."""
    return RULE_CODES[option][getattr(rules, option)]


def rule_codes(rules: BackgammonRules) -> tuple[int, ...]:
    """The whole-game parameters of ``rules`` (``G_*``) as a tuple."""
    codes = [0] * N_GAME_PARAMS
    codes[G_OPENING] = code_of(rules, "opening")
    codes[G_ACEY] = int(rules.acey_deucey)
    codes[G_DOUBLES_REROLL] = code_of(rules, "natural_doubles_extra_roll")
    codes[G_SCORING] = code_of(rules, "scoring")
    codes[G_ACEY_BOTH] = int(rules.acey_requires_both_played)
    codes[G_ACEY_FULL] = int(rules.acey_reroll_requires_full_doubles)
    codes[G_CHAIN_LIMIT] = rules.acey_chain_limit or 0
    codes[G_COMPLEMENT] = int(rules.doubles_plus_complement)
    codes[G_NAMED] = int(rules.acey_doubles_choice == "named")
    codes[G_ENTRY_GATE] = code_of(rules, "entry_gate")
    codes[G_BAR_GATE] = code_of(rules, "bar_reentry_gate")
    codes[G_TO_OPPONENT] = int(rules.unplayable_remainder == "to_opponent")
    codes[G_CUBE] = code_of(rules, "cube")
    codes[G_MAX_CUBE_LOG] = rules.cube_limit.bit_length() - 1
    codes[G_BEAVERS] = int(rules.beavers)
    return tuple(codes)


def game_params(
    *,
    opening: int = 0,
    acey: bool = False,
    doubles_reroll: int = 0,
    scoring: int = 0,
    acey_both: bool = True,
    acey_full: bool = True,
    chain_limit: int = 0,
    complement: bool = False,
    named: bool = True,
    entry_gate: int = 0,
    bar_gate: int = 0,
    to_opponent: bool = False,
    cube: int = 0,
    max_cube_log: int = 0,
    beavers: bool = False,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The whole-game parameter array of the compiled step (see ``G_*``)."""
    import numpy as np

    params = np.zeros(N_GAME_PARAMS, dtype=np.int64)
    params[G_OPENING] = opening
    params[G_ACEY] = int(acey)
    params[G_DOUBLES_REROLL] = doubles_reroll
    params[G_SCORING] = scoring
    params[G_ACEY_BOTH] = int(acey_both)
    params[G_ACEY_FULL] = int(acey_full)
    params[G_CHAIN_LIMIT] = chain_limit
    params[G_COMPLEMENT] = int(complement)
    params[G_NAMED] = int(named)
    params[G_ENTRY_GATE] = entry_gate
    params[G_BAR_GATE] = bar_gate
    params[G_TO_OPPONENT] = int(to_opponent)
    params[G_CUBE] = cube
    params[G_MAX_CUBE_LOG] = max_cube_log
    params[G_BEAVERS] = int(beavers)
    return params


def game_params_of(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The whole-game parameter array of ``rules``."""
    import numpy as np

    return np.array(rule_codes(rules), dtype=np.int64)


#: scoring codes (``RULE_CODES["scoring"]``), for :func:`game_points`
SCORE_PER_CHECKER, SCORE_SINGLE, SCORE_GAMMONS = 0, 1, 2


def game_points(board: Any, scoring: int) -> int:
    """The points of a game just won, before the cube: what the loser pays, written once
    for the engine (:func:`.cube.game_result`), the playouts and the trainer (compiled:
    :data:`aceydeucey.backgammon.kernel.game_points`).

    ``board`` is the kernel's board (signed counts) seen from the loser's side, the loser
    on roll: one per checker the loser has not borne off under ``per_checker``; else a
    single game once the loser has borne one off, a backgammon while a loser's checker
    is on the bar, still to enter or in the winner's home board, a gammon otherwise.
    """
    if scoring == SCORE_SINGLE:
        return 1
    if scoring == SCORE_PER_CHECKER:
        return 15 - int(board[28])
    if board[28] > 0:
        return 1
    if board[24] > 0 or board[26] > 0:
        return 3
    for i in range(18, 24):
        if board[i] > 0:
            return 3
    return 2


def step(gp: Any, t: Any, event: int, x: int, y: int, z: int) -> int:
    """Apply ``event`` (arguments ``x, y, z``) to the turn record ``t`` under the
    parameters ``gp``; the record then holds the next phase.  Returns 1 when the
    mover changed (the board is to be turned round), else 0.

    The rules of the turn, in the order the events meet them (sources in
    :mod:`.rules`): the roll-off's winner moves first and plays the roll-off's
    dice or rolls afresh; a roll opens a closed entry gate when it is the roll
    the gate asks for; a fully played 1-2 (or one of whose dice is played, where
    one is enough) earns a double, named or rolled, up to the chain limit, and
    that double, fully played (or not, where that is enough), another roll;
    natural doubles fully played are followed by their complement where the rules
    say so, and earn another roll always or when fully played where they say so;
    dice left unplayed pass to the opponent where the rules say so (unless a gate
    kept the mover from playing them), who then rolls; otherwise the opponent
    rolls.  Bearing off the last checker ends the game.
    """
    mover = t[T_MOVER]
    turned = 0
    hand = -1  # the kind of dice that come into hand now, if any
    new_turn = False  # a new turn starts: the cube phase first, where one may double
    if event == EV_TURN:
        t[T_PHASE] = PH_ROLL
        t[T_EXTRA] = 0
        new_turn = True
    elif event == EV_NEW:
        for i in range(N_TURN):
            t[i] = 0
        t[T_PHASE] = PH_OPENING
        t[T_WINNER] = -1
        gate = 1 if gp[G_ENTRY_GATE] == 0 else 0
        t[T_GATE] = gate
        t[T_GATE + 1] = gate
        if x == 1:
            t[T_CFLAGS] = CF_CRAWFORD
    elif event == EV_CUBE:
        if x == CUBE_DOUBLE:
            t[T_PHASE] = PH_TAKE
            log = t[T_CUBE] + 2
            may = gp[G_BEAVERS] == 1 and (gp[G_MAX_CUBE_LOG] == 0 or log <= gp[G_MAX_CUBE_LOG])
            t[T_CFLAGS] = (t[T_CFLAGS] & ~CF_MAY_BEAVER) | (CF_MAY_BEAVER if may else 0)
        elif x == CUBE_DROP:
            t[T_PHASE] = PH_OVER
            t[T_WINNER] = mover
            t[T_CFLAGS] = (t[T_CFLAGS] & ~CF_MAY_BEAVER) | CF_DROPPED
        else:  # roll, take or beaver: the mover rolls
            if x == CUBE_TAKE or x == CUBE_BEAVER:  # noqa: SIM109 (the compiled subset)
                t[T_CUBE] = t[T_CUBE] + (2 if x == CUBE_BEAVER else 1)
                t[T_OWNER] = 2 - mover  # the taker, 1 + seat
                t[T_CFLAGS] = t[T_CFLAGS] & ~CF_MAY_BEAVER
            t[T_PHASE] = PH_ROLL
    elif event == EV_OPENING:
        first = 0 if x > y else 1
        if first != mover:
            turned = 1
        t[T_MOVER] = first
        if gp[G_OPENING] == 0:  # the winner plays the roll-off's two dice
            t[T_N] = 2
            t[T_DICE] = max(x, y)
            t[T_DICE + 1] = min(x, y)
            hand = K_ROLL
        else:
            t[T_PHASE] = PH_ROLL
    elif event == EV_ROLL:
        if x == y:
            t[T_N] = 4
            for i in range(4):
                t[T_DICE + i] = x
        else:
            t[T_N] = 2
            t[T_DICE] = max(x, y)
            t[T_DICE + 1] = min(x, y)
        hand = K_ROLL
    elif event == EV_DOUBLE:
        t[T_N] = 4
        for i in range(4):
            t[T_DICE + i] = x
        hand = K_NAMED
    elif event == EV_HAND:
        hand = x
    elif event == EV_PLAY:
        used = x
        n = t[T_N]
        kind = t[T_KIND]
        d0 = t[T_DICE]
        d1 = t[T_DICE + 1]
        chain = t[T_CHAIN]
        full = used == n
        reroll = gp[G_DOUBLES_REROLL] == 2 or (gp[G_DOUBLES_REROLL] == 1 and full)
        nxt = -1  # the next phase, once decided
        if z & PLAY_ENDS:
            nxt = PH_OVER
            t[T_WINNER] = mover
        elif kind == K_ROLL:
            if n == 2 and d0 == 2 and d1 == 1 and gp[G_ACEY] == 1:
                # the seed: a 1-2 of which nothing is played earns nothing
                earned = full or (used > 0 and gp[G_ACEY_BOTH] == 0)
                if earned and (gp[G_CHAIN_LIMIT] == 0 or chain < gp[G_CHAIN_LIMIT]):
                    nxt = PH_DOUBLE
                    t[T_CHAIN] = chain + 1
            elif n == 4:
                if gp[G_COMPLEMENT] == 1 and full:
                    nxt = PH_PLAY
                    for i in range(4):
                        t[T_DICE + i] = 7 - d0
                    hand = K_COMPLEMENT
                elif reroll:
                    nxt = PH_ROLL
                    t[T_EXTRA] = 1
        elif kind == K_NAMED:
            if full or gp[G_ACEY_FULL] == 0:
                nxt = PH_ROLL
                t[T_EXTRA] = 1
        elif kind == K_COMPLEMENT:
            if reroll:
                nxt = PH_ROLL
                t[T_EXTRA] = 1
        elif kind == K_REMAINDER:
            nxt = PH_ROLL  # whoever played the remainder rolls next
            t[T_CHAIN] = 0
            t[T_EXTRA] = 0
        if nxt < 0 and not full and gp[G_TO_OPPONENT] == 1:
            gated = t[T_GATE + mover] == 0 or (z & PLAY_FROM_BAR != 0 and t[T_BAR_OPEN] == 0)
            if not gated:  # the opponent plays the dice the mover could not
                nxt = PH_PLAY
                if n == 2 and d0 != d1:
                    if used == 1:
                        t[T_N] = 1
                        t[T_DICE] = d1 if y == 1 else d0
                    # used == 0: both dice, as they are
                else:
                    t[T_N] = n - used
                hand = K_REMAINDER
                t[T_MOVER] = 1 - mover
                turned = 1
                t[T_CHAIN] = 0
                t[T_EXTRA] = 0
        if nxt < 0:  # the opponent rolls
            nxt = PH_ROLL
            t[T_MOVER] = 1 - mover
            turned = 1
            t[T_CHAIN] = 0
            t[T_EXTRA] = 0
        new_turn = nxt == PH_ROLL and t[T_EXTRA] == 0
        t[T_PHASE] = nxt
        if hand < 0:
            t[T_N] = 0
            t[T_KIND] = K_NONE
            for i in range(4):
                t[T_DICE + i] = 0
    if new_turn and gp[G_CUBE] != 0:
        # the player to roll may double: the cube centred or theirs, below the limit,
        # not the Crawford game
        owner = t[T_OWNER]
        if (
            t[T_CFLAGS] & CF_CRAWFORD == 0
            and (owner == 0 or owner == t[T_MOVER] + 1)
            and (gp[G_MAX_CUBE_LOG] == 0 or t[T_CUBE] < gp[G_MAX_CUBE_LOG])
        ):
            t[T_PHASE] = PH_CUBE
    if hand >= 0:  # dice come into hand: the play phase
        t[T_PHASE] = PH_PLAY
        t[T_KIND] = hand
        t[T_EXTRA] = 0
        n = t[T_N]
        for i in range(n, 4):
            t[T_DICE + i] = 0
        d0 = t[T_DICE]
        d1 = t[T_DICE + 1]
        # doubles (rolled or named) or a 1-2: what the gates of LEE and WIKI-2008 ask for
        special = n >= 2 and (d0 == d1 or (n == 2 and d0 == 2 and d1 == 1))
        t[T_BAR_OPEN] = 1 if gp[G_BAR_GATE] == 0 or special else 0
        if hand == K_ROLL:
            seat = t[T_MOVER]
            gate = gp[G_ENTRY_GATE]
            if t[T_GATE + seat] == 0 and (
                gate == 0
                or (gate == 1 and special)
                or (gate == 2 and n == 4)
                or (gate == 3 and (d0 == 6 or d1 == 6))
            ):
                t[T_GATE + seat] = 1
    return turned


# -- the engine's side: the step on the engine's values, each answer kept ------------

#: the engine's view of a record: (phase, mover, dice, kind, chain, gates, extra, winner,
#: cube value, cube owner (-1 centred, else the seat), cube flags ``CF_*``)
Fields = tuple[str, int, tuple[int, ...], str, int, tuple[bool, bool], bool, int, int, int, int]
#: the state's attribute names of those fields, in that order
FIELD_NAMES = (
    "phase",
    "mover",
    "dice",
    "kind",
    "chain",
    "gates",
    "extra",
    "winner",
    "cube",
    "cube_owner",
    "cube_flags",
)


def play_fields(dice: tuple[int, ...], kind: str = "roll", chain: int = 0) -> Fields:
    """The fields of seat 0 about to play ``dice`` (of ``kind``), gates passed, cube
    centred: what bots and the evaluator ask the step about."""
    return ("play", 0, tuple(dice), kind, chain, (True, True), False, -1, 1, -1, 0)


class TurnNode:
    """One situation of the turn (the engine's fields, interned per rules) and the answers
    of the step from it, by event: what the engine's states keep, so that a transition
    is one look-up by ``(event, x, y, z)``.  Pickled as its fields alone."""

    __slots__ = ("bar_open", "fields", "next")

    def __init__(self, fields: Fields, bar_open: bool) -> None:
        self.fields = fields
        #: whether the dice in hand may bring a checker in from the bar
        self.bar_open = bar_open
        #: (event, x, y, z) -> (the state's attributes after it, mover changed)
        self.next: dict[tuple[int, int, int, int], tuple[dict[str, Any], bool]] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        return (TurnNode, (self.fields, self.bar_open))


class TurnSteps:
    """:func:`step` for one set of rules on the engine's field values, each answer kept.

    A game meets few distinct situations (the record and the event), so after the
    first games every transition of the engine is one dictionary look-up: a state
    keeps its :class:`TurnNode` (``_turn``), and :meth:`answer` gives the state's
    attributes after an event (the next node among them) and whether the mover
    changed.
    """

    __slots__ = ("_hands", "_nodes", "codes")

    def __init__(self, rules: BackgammonRules) -> None:
        self.codes = rule_codes(rules)
        self._nodes: dict[Fields, TurnNode] = {}
        self._hands: dict[tuple[str, tuple[int, ...]], bool] = {}

    def new_game(self, crawford: bool = False) -> Fields:
        """The fields of a new game (before the roll-off); ``crawford``: it is the
        Crawford game of a match (no doubling)."""
        blank: Fields = ("opening", 0, (), "", 0, (False, False), False, -1, 1, -1, 0)
        return self.after(blank, EV_NEW, int(crawford))[0]

    def node(self, fields: Fields) -> TurnNode:
        """The interned node of ``fields``."""
        node = self._nodes.get(fields)
        if node is None:
            if len(self._nodes) >= 65_536:
                self._nodes.clear()
            bar_open = fields[0] == "play" and self.bar_open(fields[3], fields[2])
            node = self._nodes[fields] = TurnNode(fields, bar_open)
        return node

    def after(
        self, fields: Fields, event: int, x: int = 0, y: int = 0, z: int = 0
    ) -> tuple[Fields, bool]:
        """``(the fields after event, whether the mover changed)``."""
        updates, turned = self.answer(self.node(fields), event, x, y, z)
        node: TurnNode = updates["_turn"]
        return node.fields, turned

    def answer(
        self, node: TurnNode, event: int, x: int = 0, y: int = 0, z: int = 0
    ) -> tuple[dict[str, Any], bool]:
        """The step from ``node``: the state's attributes after the event (the turn's
        fields by name, and ``_turn``, the next node) and whether the mover changed."""
        key = (event, x, y, z)
        known = node.next.get(key)
        if known is not None:
            return known
        t = record_of(node.fields)
        t[T_BAR_OPEN] = int(node.bar_open)  # the dice in hand's own fact
        turned = step(self.codes, t, event, x, y, z)
        fields = fields_of(t)
        updates: dict[str, Any] = dict(zip(FIELD_NAMES, fields, strict=True))
        updates["_turn"] = self.node(fields)
        answer = (updates, bool(turned))
        node.next[key] = answer
        return answer

    def bar_open(self, kind: str, dice: tuple[int, ...]) -> bool:
        """Whether ``dice`` in hand (of ``kind``) may bring a checker in from the bar."""
        key = (kind, dice)
        known = self._hands.get(key)
        if known is None:
            t = record_of(play_fields(dice, kind))
            step(self.codes, t, EV_HAND, KINDS.index(kind), 0, 0)
            known = self._hands[key] = bool(t[T_BAR_OPEN])
        return known


def record_of(fields: Fields) -> list[int]:
    """The turn record of the engine's field values."""
    phase, mover, dice, kind, chain, gates, extra, winner, cube, owner, flags = fields
    t = [0] * N_TURN
    t[T_PHASE] = PHASES.index(phase)
    t[T_MOVER] = mover
    t[T_KIND] = KINDS.index(kind)
    t[T_CHAIN] = chain
    t[T_EXTRA] = int(extra)
    t[T_GATE] = int(gates[0])
    t[T_GATE + 1] = int(gates[1])
    t[T_WINNER] = winner
    t[T_N] = len(dice)
    for i, die in enumerate(dice):
        t[T_DICE + i] = die
    t[T_CUBE] = cube.bit_length() - 1
    t[T_OWNER] = owner + 1
    t[T_CFLAGS] = flags
    return t


def fields_of(t: Sequence[int]) -> Fields:
    """The engine's field values of a turn record."""
    n = int(t[T_N])
    return (
        PHASES[t[T_PHASE]],
        int(t[T_MOVER]),
        tuple(int(d) for d in t[T_DICE : T_DICE + n]),
        KINDS[t[T_KIND]],
        int(t[T_CHAIN]),
        (bool(t[T_GATE]), bool(t[T_GATE + 1])),
        bool(t[T_EXTRA]),
        int(t[T_WINNER]),
        1 << int(t[T_CUBE]),
        int(t[T_OWNER]) - 1,
        int(t[T_CFLAGS]),
    )
