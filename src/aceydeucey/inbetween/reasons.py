"""Why an action is not legal here: one coded error per reason (``inbetween_errors``).

What the rules never allow comes first (``aces low`` without ``aces="dealer-declares"``,
``split`` without ``pairs="split"``...), then what this moment does not (chance deals, the
dealer must declare, the ace must be called, the raise), then the decision's own limits:
the calls these posts allow and the stake's bounds with the rule that sets each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aceydeucey.cards import Card
from aceydeucey.core.errors import IllegalActionError, message
from aceydeucey.core.game import Action
from aceydeucey.inbetween.actions import Decision
from aceydeucey.inbetween.phases import CHANCE_PHASES
from aceydeucey.inbetween.settle import Call, is_pair, worst_loss

if TYPE_CHECKING:
    from aceydeucey.inbetween.state import InBetweenState

__all__ = ["illegal_error", "legal_summary"]


def illegal_error(s: InBetweenState, action: Action) -> IllegalActionError:
    """The precise, coded reason why ``action`` is not legal here."""
    rules = s.rules
    phase = s.phase
    if isinstance(action, Card):
        if phase in CHANCE_PHASES:
            return IllegalActionError("card.none_left", card=str(action))
        return IllegalActionError("card.not_now", card=str(action), seat=s.to_act)
    text = str(action)
    if not isinstance(action, Decision):
        return IllegalActionError("decision.not_legal", action=text, legal=legal_summary(s))
    word = action.word
    # First what the rules never allow, then what this moment does not.
    if word in ("aces low", "aces high") and rules.aces != "dealer-declares":
        return IllegalActionError("aces.not_in_rules", action=text, aces=rules.aces)
    if word in ("ace low", "ace high") and rules.aces != "first-card":
        return IllegalActionError("ace.not_in_rules", action=text, aces=rules.aces)
    if word in ("stay", "raise") and rules.banking != "house":
        return IllegalActionError("raise.not_in_rules", action=text)
    if word == "split" and rules.pairs != "split":
        return IllegalActionError("split.not_in_rules", action=text, pairs=rules.pairs)
    if phase in CHANCE_PHASES:
        return IllegalActionError("decision.chance_deals", action=text)
    if word in ("aces low", "aces high"):
        return IllegalActionError("aces.not_now", action=text)
    if phase == "declare":
        return IllegalActionError("aces.declare_first", action=text, seat=s.dealer)
    if word in ("ace low", "ace high"):
        return IllegalActionError("ace.not_now", action=text)
    if phase == "ace":
        return IllegalActionError("ace.call_first", action=text)
    if word in ("stay", "raise"):  # under the house, the one decision is the raise
        top = s.raise_top()
        if top < 1:
            return IllegalActionError("raise.none_affordable", action=text)
        return IllegalActionError("raise.out_of_range", action=text, top=top)
    if phase == "raise":
        return IllegalActionError("raise.stay_or_raise", action=text)
    if phase == "decide":
        reason = _decide_error(s, action)
        if reason is not None:
            return reason
    return IllegalActionError("decision.not_legal", action=text, legal=legal_summary(s))


def _decide_error(s: InBetweenState, action: Decision) -> IllegalActionError | None:
    rules = s.rules
    text = str(action)
    seat = s.order[s.turn]
    word = action.word
    if word == "split":
        if s.gap != 1 or not is_pair(s.ranks()):
            return IllegalActionError("split.not_a_pair", action=text)
        if s.split_done:
            return IllegalActionError("split.once", action=text)
        return IllegalActionError(
            "split.cannot_pay", action=text, ante=rules.ante, count=s.chips[seat]
        )
    if word == "pass" and s.gap == 2:
        return IllegalActionError("pass.compulsory", action=text)
    calls: dict[str, Call] = {"bet": "between", "higher": "higher", "lower": "lower"}
    call = calls.get(word)
    if call is None:
        return None
    if call not in s.calls():
        allowed = sorted({str(a).split()[0] for a in s.player_actions()})
        return IllegalActionError("call.not_with_posts", action=text, allowed=allowed)
    span = s.limits(call)
    if span is None:
        return IllegalActionError("stake.none_affordable", action=text)
    amount = action.amount if action.amount is not None else 0
    if amount < span[0]:
        return IllegalActionError(
            "stake.below_min", action=text, limit=span[0], because=_min_reason(s)
        )
    if amount > span[1]:
        return IllegalActionError(
            "stake.above_max",
            action=text,
            limit=span[1],
            because=_cap_reason(s, call, span[1]),
        )
    return None


def legal_summary(s: InBetweenState) -> list[str]:
    """The legal decisions, stakes as ranges (``["pass", "bet 1–4"]``); cards as one."""
    if s.phase in CHANCE_PHASES:
        return []
    amounts: dict[str, list[int]] = {}
    out: list[str] = []
    for a in s.player_actions():
        if isinstance(a, Decision) and a.amount is not None:
            if a.word not in amounts:
                amounts[a.word] = []
                out.append(a.word)
            amounts[a.word].append(a.amount)
        else:
            out.append(str(a))
    shown = []
    for item in out:
        if item in amounts:
            low, high = min(amounts[item]), max(amounts[item])
            shown.append(f"{item} {low}" if low == high else f"{item} {low}–{high}")
        else:
            shown.append(item)
    return shown


def _cap_reason(s: InBetweenState, call: Call, top: int) -> dict[str, Any]:
    """Which limit caps the stake at ``top``, as a message."""
    rules = s.rules
    seat = s.order[s.turn]
    chips = s.chips[seat]
    loss = worst_loss(rules, s.ranks(), call, second_gap=s.gap == 2)
    if top == s.pot:
        return message("stake.because_pot", pot=s.pot)
    if rules.stake_cap == "cover" and top == max(chips, 0) // loss:
        if loss == 2:
            return message("stake.because_half_chips", count=chips)
        return message("stake.because_cover", count=chips, loss=loss)
    if rules.stake_cap == "chips" and top == max(chips, 0):
        return message("stake.because_chips", count=chips)
    if rules.ante_back and not s.won[seat] and top == rules.ante:
        return message("stake.because_ante_back", ante=rules.ante)
    if 1 <= s.round <= len(rules.round_limits) and top == rules.round_limits[s.round - 1]:
        return message("stake.because_round_limit", round=s.round, limit=top)
    if rules.first_round_limit == "half-pot":
        return message("stake.because_half_pot", pot=s.pot)
    return message("stake.because_first_round_ante", ante=rules.ante)


def _min_reason(s: InBetweenState) -> dict[str, Any]:
    """Which rule sets the smallest stake, as a message."""
    if s.gap == 2:
        return message("stake.because_second_gap", ante=s.rules.ante)
    if s.rules.min_stake == "ante":
        return message("stake.because_min_ante", ante=s.rules.ante)
    return message("stake.because_min_one")
