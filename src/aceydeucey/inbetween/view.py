"""What each seat sees of an In-Between state: the observation's game fields and a rendering.

The core builds the envelope (``game``, ``seat``, ``current_player``, ``phase``,
``legal_actions``, ``last_event``, ``outcome``); ``observe`` adds the game's own fields
(JSON-ready): ``step`` (the engine's finer phase), ``round``, ``dealer_round``,
``dealer_game``, ``dealer`` (null under Red Dog), ``pot``, ``pot_shares`` (once the
session is over: each seat's exact share of the pot left in it, as text: ``"3/2"``; null
before), ``chips``, ``bank`` and ``bets``
(Red Dog, else null), ``to_act``, ``posts`` (the acting player's face-up posts in deal
order), ``gap`` (three posts), ``hand`` (this seat's own cards), ``hidden_hand`` (its cards
still face down), ``first_cards``, ``seen`` (every card face up since the shuffle),
``decks``, ``ace_low``, ``aces_low`` (the dealer's call under ``aces="dealer-declares"``,
null before it), ``won_bet`` (per seat: has it won a bet yet, for ``ante_back``),
``min_stake``/``max_stake`` (the stakes open to the seat to act; shown to other seats only
when its posts are face up).  The rules are not repeated: agents get the game when seated.
The deck's order, other seats' face-down cards (and anything derived from them) and a card
set aside by a pass (``passed_card="next-post"``) never appear; ``seat=None`` is a
spectator's view, which holds no hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from aceydeucey.inbetween.state import InBetweenState

__all__ = ["observe", "render"]


def observe(state: InBetweenState, seat: int | None) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (keys in the module docstring)."""
    public = state.memo.view
    if public is None:  # the seat-independent fields, built once per state
        public = state.memo.view = _public(state)
    obs = {k: v.copy() if type(v) is list else v for k, v in public.items()}
    actor = obs["to_act"]
    rules = state.rules
    if actor == seat and not state.revealed:
        obs["posts"] = [str(c) for c in state.posts]
    own: list[str] = []
    if seat is None:
        pass
    elif rules.hidden and state.hands and state.hands[seat]:
        own = [str(c) for c in state.hands[seat]]
        if seat not in state.shown:
            obs["hidden_hand"] = list(own)
    elif state.first and state.first[seat] is not None:
        own = [str(state.first[seat])]
    if seat is not None and actor == seat and not rules.hidden and state.phase != "over":
        own = [str(c) for c in state.posts] or own
    obs["hand"] = own
    if state.revealed or seat == actor:  # a face-down hand's limits would tell if it is a pair
        limits = _limits(state)
        if limits is not None:
            obs["min_stake"], obs["max_stake"] = limits
    return obs


def _public(state: InBetweenState) -> dict[str, Any]:
    rules = state.rules
    house = rules.banking == "house"
    posts = [str(c) for c in state.posts] if state.revealed else []
    first_cards = [str(c) if c is not None else None for c in state.first] or [None] * len(
        state.chips
    )
    return {
        "step": state.phase,
        "round": state.round,
        "dealer_round": state.dealer_round,
        "dealer_game": state.dealer_game + 1,
        "dealer": None if house else state.dealer,
        "pot": state.pot,
        "pot_shares": [str(v) for v in state.pot_shares()] if state.phase == "over" else None,
        "chips": list(state.chips),
        "bank": state.bank if house else None,
        "bets": list(state.bets) if house else None,
        "to_act": state.to_act,
        "posts": posts,
        "gap": state.gap if rules.three_posts else None,
        "hand": [],
        "hidden_hand": [],
        "first_cards": first_cards,
        "seen": [str(c) for c in state.seen],
        "decks": rules.decks,
        "ace_low": state.ace_low,
        "aces_low": state.aces_low,
        "won_bet": list(state.won),
        "min_stake": None,
        "max_stake": None,
    }


def _limits(state: InBetweenState) -> tuple[int, int] | None:
    """The smallest and largest stake open to the seat to act (any call), or None."""
    if state.phase == "decide":
        spans = [s for s in (state.limits(c) for c in state.calls()) if s is not None]
        if spans:
            return (min(s[0] for s in spans), max(s[1] for s in spans))
    elif state.phase == "raise":
        top = state.raise_top()
        if top >= 1:
            return (1, top)
    return None


def render(state: InBetweenState) -> str:
    """A readable text rendering of the state."""
    rules = state.rules
    lines = [
        f"In-Between ({rules.describe()}), round {state.round}, "
        + (f"dealer seat {state.dealer}" if rules.banking != "house" else "house deals"),
        f"pot {state.pot}"
        + (f", bank {state.bank}" if rules.banking == "house" else "")
        + ", chips "
        + " ".join(f"{i}:{c}" for i, c in enumerate(state.chips)),
    ]
    if state.posts:
        shown = " ".join(c.symbol() for c in state.posts) if state.revealed else "(face down)"
        lines.append(f"posts {shown}" + (" (ace low)" if state.ace_low else ""))
    if state.aces_low is not None:
        lines.append("aces low this round" if state.aces_low else "aces high this round")
    if state.phase == "over":
        lines.append(f"over: {state.ended[0]}; winners {list(state.winners())}")
    else:
        lines.append(f"{state.phase}; to act: {state.current_player()}")
    return "\n".join(lines)
