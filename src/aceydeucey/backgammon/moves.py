"""The reference legal-play generator: readable, die by die, for every rule option.

:func:`legal_plays` lists every distinct resulting position reachable with the
dice in hand (as GNU Backgammon lists plays), honouring:

* bar first: while a checker of the mover is on the bar nothing else moves;
  enter as many as possible, the rest of the dice are lost;
* landing only on open points (fewer than two opposing checkers); a lone
  opposing checker (a blot) is hit and goes to the bar;
* dice are played one at a time, so a combined move needs an open
  intermediate point;
* as many dice as possible must be played (``must_use_max_dice``) and, when
  only one of two different dice can be played, the higher
  (``must_play_higher_die``);
* bearing off only with every checker in the home board (points 1..6);
  unentered checkers block it when ``bearoff_requires_all_entered``; a die
  higher than the highest occupied point bears off from it under
  ``bearoff_rule="standard_higher"``;
* the Acey-Deucey options: entering from off the board (``in``),
  ``must_enter_all_before``, ``home_board_frozen``, ``hit_gate``.

Gates that depend on the turn's history (``entry_gate``, ``bar_reentry_gate``)
are passed in as keyword flags by the game.  When nothing can be played the
result is exactly one empty play (``pass``).

:func:`match_play` turns parsed steps into one of the legal plays, and
:func:`explain_steps` says precisely why written steps are not legal.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from aceydeucey.backgammon.board import BAR, OFF, STOCK, Position
from aceydeucey.backgammon.notation import Move, Play, format_moves
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import AmbiguousActionError, IllegalActionError

__all__ = ["apply_move", "explain_steps", "legal_plays", "match_play", "single_moves"]


def legal_plays(
    position: Position,
    dice: Sequence[int],
    rules: BackgammonRules,
    *,
    may_enter: bool = True,
    may_reenter: bool = True,
) -> list[Play]:
    """Every legal play of ``dice`` (e.g. ``(3, 1)`` or ``(6, 6, 6, 6)``) from ``position``.

    ``position`` is seen from the mover.  ``may_enter=False`` when the
    mover's entry gate is still closed (nothing may enter or move);
    ``may_reenter=False`` when the bar re-entry gate refuses these dice.  Each
    distinct resulting position appears once; ``[pass]`` when nothing can be
    played.  Plays are listed in a deterministic order.
    """
    dice = tuple(sorted(dice, reverse=True))
    empty = Play((), position, dice)
    if not dice or not may_enter or (position.bar[0] and not may_reenter):
        return [empty]
    found: dict[Position, tuple[tuple[Move, ...], tuple[int, ...]]] = {}
    seen: set[tuple[Position, tuple[int, ...], int]] = set()
    # Doubles: the four moves commute, so only orders that never raise the source's rank
    # are tried (bar, then stock, then points downwards).  Two rules break commutation:
    # the hit gate, and bearing off while checkers are still to enter
    # (bearoff_requires_all_entered=False: bearing off first, then entering, is legal,
    # but once a checker has entered it is outside the home board).
    ordered = (
        len(set(dice)) == 1
        and rules.hit_gate == "none"
        and not (position.unentered[0] and not rules.bearoff_requires_all_entered)
    )

    def better(used: tuple[int, ...], old: tuple[int, ...]) -> bool:
        return len(used) > len(old) or (len(used) == len(old) and used > old)

    def search(
        pos: Position,
        left: tuple[int, ...],
        moves: tuple[Move, ...],
        used: tuple[int, ...],
        ceiling: int,
    ) -> None:
        if (pos, left, ceiling) in seen:
            return
        seen.add((pos, left, ceiling))
        if moves:
            old = found.get(pos)
            if old is None or better(used, old[1]):
                found[pos] = (moves, used)
        for k, die in enumerate(left):
            if k and die == left[k - 1]:
                continue
            rest = left[:k] + left[k + 1 :]
            for move, nxt in single_moves(pos, die, rules):
                rank = _RANK.get(move.src, move.src)
                if ordered and rank > ceiling:
                    continue
                search(nxt, rest, (*moves, move), (*used, die), rank if ordered else ceiling)

    search(position, dice, (), (), max(_RANK.values()))
    if not found:
        return [empty]
    entries = list(found.items())
    if rules.must_use_max_dice:
        most = max(len(used) for _, (_, used) in entries)
        entries = [e for e in entries if len(e[1][1]) == most]
        if most == 1 and len(dice) == 2 and dice[0] != dice[1] and rules.must_play_higher_die:
            high = [e for e in entries if e[1][1] == (dice[0],)]
            if high:
                entries = high
    plays = []
    for result, (moves, used) in entries:
        plays.append(Play(moves, result, _minus(dice, used)))
    return plays


def single_moves(
    position: Position, die: int, rules: BackgammonRules
) -> Iterator[tuple[Move, Position]]:
    """Each legal move of one checker by ``die``, with the position after it."""
    points = position.points
    if position.bar[0]:
        dst = 25 - die
        if _may_land(position, dst, rules):
            yield _moved(position, BAR, dst)
        return
    unentered = position.unentered[0]
    if unentered:
        dst = 25 - die
        if _may_land(position, dst, rules):
            yield _moved(position, STOCK, dst)
        if rules.must_enter_all_before == "moving_any_entered":
            return
    lowest_dst = 13 if unentered and rules.must_enter_all_before == "passing_opp_12pt" else 1
    may_bear_off = _may_bear_off(position, rules)
    highest = 0
    if may_bear_off:
        highest = max((i + 1 for i in range(6) if points[i] > 0), default=0)
    for src in range(24, 0, -1):
        if points[src - 1] <= 0:
            continue
        dst = src - die
        if dst >= 1:
            if src <= 6 and rules.home_board_frozen:
                continue
            if dst >= lowest_dst and _may_land(position, dst, rules):
                yield _moved(position, src, dst)
        elif may_bear_off and (
            dst == 0 or (rules.bearoff_rule == "standard_higher" and src == highest)
        ):
            yield _moved(position, src, OFF)


def apply_move(position: Position, move: Move) -> Position:
    """The position after moving one checker ``move.src`` to ``move.dst`` (hitting a blot).

    No legality check: callers check first.
    """
    return _moved(position, move.src, move.dst)[1]


def match_play(position: Position, steps: Sequence[Move], plays: Sequence[Play]) -> Play | None:
    """The legal play that ``steps`` (as parsed, in any order and spelling) describe, or None.

    Steps may be whole moves of several pips (``24/13`` for ``24/18 18/13``); the
    play is found by the mover's checkers' final places, and where several legal
    plays put them there (differing in hits), by the literal result of the steps.
    """
    target = _own_layout(_walk(position, steps))
    candidates = [p for p in plays if _own_layout(p.result) == target]
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    literal = _walk(position, steps)
    for play in candidates:
        if play.result == literal:
            return play
    wanted_hits = sum(1 for s in steps if s.hit)
    hitting = [p for p in candidates if sum(1 for m in p.moves if m.hit) == wanted_hits]
    if len(hitting) == 1:
        return hitting[0]
    raise AmbiguousActionError(
        "bg.play.ambiguous",
        play=format_moves(tuple(steps)),
        options=[str(p) for p in candidates],
    )


def explain_steps(
    position: Position,
    dice: Sequence[int],
    steps: Sequence[Move],
    plays: Sequence[Play],
    rules: BackgammonRules | None = None,
) -> IllegalActionError:
    """Why the written ``steps`` are not one of ``plays``: a precise error, with a code.

    ``rules`` (the game's) lets the bear-off reasons follow ``bearoff_requires_all_entered``
    and name the holding rules; without them the defaults are assumed.
    """
    dice_text = "-".join(str(d) for d in sorted(dice, reverse=True)) or "-"
    if len(plays) == 1 and plays[0].is_pass:
        return IllegalActionError("bg.play.no_move", dice=dice_text)
    if not steps:
        return IllegalActionError("bg.play.must_move", example=str(plays[0]))
    needs_entered = rules is None or rules.bearoff_requires_all_entered
    pos = position
    left = list(dice)  # dice not yet used by the steps checked so far
    for step in steps:
        label = str(Move(step.src, step.dst))
        if step.src == BAR:
            if not pos.bar[0]:
                return IllegalActionError("bg.step.no_bar", step=label)
        elif pos.bar[0]:
            return IllegalActionError("bg.step.bar_first", step=label)
        elif step.src == STOCK:
            if not pos.unentered[0]:
                return IllegalActionError("bg.step.none_to_enter", step=label)
        elif pos.points[step.src - 1] <= 0:
            return IllegalActionError("bg.step.no_checker", step=label, point=step.src)
        if step.dst != OFF and dice:
            distance = (25 if step.src in (BAR, STOCK) else step.src) - step.dst
            used = _covering(left, distance)
            if used is None:
                if len(left) == len(dice):
                    return IllegalActionError(
                        "bg.step.distance", step=label, pips=distance, dice=dice_text
                    )
                rest = "-".join(str(d) for d in sorted(left, reverse=True)) or "-"
                return IllegalActionError(
                    "bg.step.distance_left", step=label, pips=distance, dice=rest
                )
            for die in used:
                left.remove(die)
        if step.dst != OFF and pos.points[step.dst - 1] <= -2:
            return IllegalActionError("bg.step.closed", step=label, point=step.dst)
        if step.dst == OFF:
            board_home = not pos.bar[0] and all(n <= 0 for n in pos.points[6:])
            if not board_home:
                code = "bg.step.not_home" if needs_entered else "bg.step.not_home_entered"
                return IllegalActionError(code, step=label)
            if pos.unentered[0] and needs_entered:
                return IllegalActionError("bg.step.not_all_entered", step=label)
        if rules is not None and step.src in range(1, 25):
            hold = rules.must_enter_all_before
            if pos.unentered[0] and hold == "moving_any_entered":
                return IllegalActionError("bg.step.hold_all", step=label)
            if pos.unentered[0] and hold == "passing_opp_12pt" and OFF < step.dst < 13:
                return IllegalActionError("bg.step.hold_back", step=label)
            if rules.home_board_frozen and step.src <= 6 and step.dst != OFF:
                return IllegalActionError("bg.step.frozen", step=label)
        pos = apply_move(pos, step)
    most = max(len(p.moves) for p in plays)
    if len(steps) < most and len(dice) >= 2:
        if len(set(dice)) == 1:
            return IllegalActionError("bg.play.must_play_count", count=most, die=dice[0])
        return IllegalActionError("bg.play.both_dice")
    if most == 1 and len(set(dice)) == 2 and len(steps) == 1:
        return IllegalActionError("bg.play.higher_die", die=max(dice))
    return IllegalActionError(
        "bg.play.not_legal",
        play=format_moves(tuple(steps)),
        dice=dice_text,
        examples=[str(p) for p in list(plays)[:6]],
    )


# -- helpers ---------------------------------------------------------------------

#: Order of sources within a double: the bar first, then the stock, then points 24..1.
_RANK = {BAR: 27, STOCK: 26}


def _covering(dice: Sequence[int], distance: int) -> tuple[int, ...] | None:
    """The fewest of ``dice`` whose pips add up to ``distance`` (one checker's move), or None."""
    for count in range(1, len(dice) + 1):
        for chosen in itertools.combinations(dice, count):
            if sum(chosen) == distance:
                return chosen
    return None


def _minus(dice: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    left = list(dice)
    for die in used:
        left.remove(die)
    return tuple(left)


def _may_land(position: Position, dst: int, rules: BackgammonRules) -> bool:
    count = position.points[dst - 1]
    if count >= 0:
        return True
    if count < -1:
        return False
    if rules.hit_gate == "after_home_board":
        return position.off[0] > 0 or any(n > 0 for n in position.points[:6])
    return True


def _may_bear_off(position: Position, rules: BackgammonRules) -> bool:
    if position.bar[0]:
        return False
    if position.unentered[0] and rules.bearoff_requires_all_entered:
        return False
    return all(n <= 0 for n in position.points[6:])


def _moved(position: Position, src: int, dst: int) -> tuple[Move, Position]:
    points = list(position.points)
    bar0, bar1 = position.bar
    unentered0, unentered1 = position.unentered
    off0, off1 = position.off
    if src == BAR:
        bar0 -= 1
    elif src == STOCK:
        unentered0 -= 1
    else:
        points[src - 1] -= 1
    hit = False
    if dst == OFF:
        off0 += 1
    elif points[dst - 1] == -1:
        hit = True
        points[dst - 1] = 1
        bar1 += 1
    else:
        points[dst - 1] += 1
    return Move(src, dst, hit), Position(
        tuple(points), (bar0, bar1), (unentered0, unentered1), (off0, off1)
    )


def _walk(position: Position, steps: Sequence[Move]) -> Position:
    """Apply written steps literally, tolerating anything (for matching only)."""
    pos = position
    for step in steps:
        pos = apply_move(pos, step)
    return pos


def _own_layout(position: Position) -> tuple[object, ...]:
    return (
        tuple(max(n, 0) for n in position.points),
        position.bar[0],
        position.unentered[0],
        position.off[0],
    )
