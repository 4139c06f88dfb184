"""One line narrating an In-Between observation's ``last_event`` (the terminal's log).

Each event kind has its catalog key ``event.<kind>``; a kind whose key depends on the event
(an ace called low or high, a push for everyone, Red Dog's round) has its chooser in the
table ``_KEYS`` (kind -> chooser), and ``settle`` its own renderer.  An unknown kind is
shown as its fields, so a new engine event is never lost.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

from aceydeucey.cli.inbetween_text import _DOMAIN, _maybe, _name, _num, card_text, cards_text
from aceydeucey.locale import error_domain as _error_domain
from aceydeucey.locale import render_error, t

__all__ = ["event_text"]


def event_text(
    event: Mapping[str, Any] | None,
    names: Sequence[str],
    lang: str,
    *,
    posts: Sequence[str] = (),
    house: bool = False,
    you: int | None = None,
) -> Text | None:
    """One line narrating an observation's ``last_event`` (``None`` when there is none).

    Known kinds have a message ``event.<kind>`` in the catalog; an unknown kind is
    shown as its fields, so a new engine event is never lost.  ``posts`` (the
    observation's posts) completes a ``post`` event with all the posts in play;
    ``house`` (a Red Dog table: no pot, the house deals) shortens the round line;
    ``you`` is the seat of the player at the screen, addressed in the second person.
    """
    if not event:
        return None
    kind = str(event.get("kind", ""))
    values = {k.replace("-", "_"): v for k, v in event.items() if k != "kind"}
    values["who"] = _name(event.get("seat"), names)
    values["dealer_name"] = _name(event.get("dealer"), names)
    delta = _num(event.get("delta"))
    values["gain"] = abs(delta)
    line = Text("• ", style="dim")
    if kind == "settle":
        return _settle_text(line, event, values, names, lang)
    values["house"] = house
    key = _KEYS.get(kind, _plain)(event, values, names, lang)
    # The seat an event is about, or the dealer of a new round, addressed as "you".
    about = event.get("dealer") if kind == "round" and not house else event.get("seat")
    if you is not None and about == you and not isinstance(you, bool):
        try:
            t(_DOMAIN, key + "_you", lang)
            key += "_you"
        except KeyError:
            pass
    values.pop("house")
    try:
        message = t(_DOMAIN, key, lang, **values)
    except KeyError:
        detail = ", ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
        line.append(f"{kind} {detail}".strip())
        return line
    line.append(message, style="red" if delta < 0 else "green" if delta > 0 else "")
    cards: list[str] = []
    for field in ("card", "posts"):
        value = event.get(field)
        if isinstance(value, str):
            cards.append(value)
        elif isinstance(value, list):
            cards.extend(str(c) for c in value)
    if cards:
        line.append(" ")
        line.append_text(cards_text(cards))
    if (kind == "spread" or (kind == "post" and event.get("seat") is not None)) and len(posts) >= 2:
        line.append("  (" + t(_DOMAIN, "ui.posts_inline", lang) + " ", style="dim")
        line.append_text(cards_text(list(posts)))
        line.append(")", style="dim")
    if event.get("replenished"):
        line.append(" " + t(_DOMAIN, "event.replenished", lang, amount=event["replenished"]))
    return line


def _settle_text(
    line: Text,
    event: Mapping[str, Any],
    values: dict[str, Any],
    names: Sequence[str],
    lang: str,
) -> Text:
    """``settle``: the third card, its outcome, and the chips that moved."""
    outcome = str(event.get("outcome", ""))
    if event.get("seat") is not None:
        line.append(t(_DOMAIN, "event.settle", lang, who=values["who"]) + " ")
    else:
        line.append(t(_DOMAIN, "event.settle_all", lang) + " ")
    third = event.get("third")
    if third:
        line.append_text(card_text(str(third)))
        line.append(" ")
    deltas: list[int] = []
    if isinstance(event.get("deltas"), list):
        deltas = [_num(d) for d in event["deltas"]]
    delta = _num(event.get("delta"))
    mood = delta if event.get("seat") is not None else sum(deltas)
    line.append(
        _maybe(f"outcome.{outcome}", lang, outcome),
        style="green" if mood > 0 else "red" if mood < 0 else "",
    )
    if event.get("seat") is not None:
        line.append(f" ({delta:+d})")
    elif deltas:
        moved = [f"{_name(i, names)} {d:+d}" for i, d in enumerate(deltas) if d]
        if moved:
            line.append(" (" + ", ".join(moved) + ")")
    if event.get("pot") is not None:
        line.append("  " + t(_DOMAIN, "ui.pot", lang) + f" {event['pot']}", style="dim")
    if event.get("replenished"):
        line.append(" " + t(_DOMAIN, "event.replenished", lang, amount=event["replenished"]))
    return line


def _reason(event: Mapping[str, Any], lang: str) -> str | None:
    """Why the session ended, in ``lang``: a termination code rendered from its catalog.

    The reason is the event's ``{"code", "params"}`` message, or the outcome's
    ``termination`` code and ``params``; None when there is no code (legacy text).
    """
    reason = event.get("reason")
    if isinstance(reason, dict) and isinstance(reason.get("code"), str):
        params = reason.get("params")
        if _error_domain(reason["code"]) is not None:
            return render_error(reason["code"], params if isinstance(params, dict) else {}, lang)
    for key in ("termination", "code", "reason"):
        code = event.get(key)
        if isinstance(code, str) and _error_domain(code) is not None:
            params = event.get("params")
            return render_error(code, params if isinstance(params, dict) else {}, lang)
    return None


# -- each kind's catalog key (and the values it adds): kind -> chooser ------------------------
Event = Mapping[str, Any]
Values = dict[str, Any]
#: (event, the message values, the seats' names, language) -> the catalog key
Chooser = Callable[[Event, Values, Sequence[str], str], str]


def _plain(
    event: Mapping[str, Any], values: dict[str, Any], names: Sequence[str], lang: str
) -> str:
    return "event." + str(event.get("kind", "")).replace("-", "_")


def _either(low: str, high: str, field: str = "low") -> Chooser:
    """A kind whose key follows one flag of the event (an ace called low or high)."""
    return lambda event, values, names, lang: low if event.get(field) else high


def _unless(field: str, other: str) -> Chooser:
    """A kind whose key is ``other`` when the event has no ``field`` (no seat, no amount)."""

    def choose(
        event: Mapping[str, Any], values: dict[str, Any], names: Sequence[str], lang: str
    ) -> str:
        return _plain(event, values, names, lang) if event.get(field) is not None else other

    return choose


def _bet(event: Mapping[str, Any], values: dict[str, Any], names: Sequence[str], lang: str) -> str:
    call = event.get("call")
    return f"event.bet_{call}" if call in ("higher", "lower") else "event.bet"


def _round(
    event: Mapping[str, Any], values: dict[str, Any], names: Sequence[str], lang: str
) -> str:
    return "event.round_house" if values["house"] else "event.round"


def _dealer_takes(
    event: Mapping[str, Any], values: dict[str, Any], names: Sequence[str], lang: str
) -> str:
    return "event.dealer_takes" if event.get("amount") else "event.dealer_takes_nothing"


def _tie(event: Mapping[str, Any], values: dict[str, Any], names: Sequence[str], lang: str) -> str:
    values["who"] = ", ".join(_name(s, names) for s in event.get("seats") or [])
    return "event.tie"


def _over(event: Mapping[str, Any], values: dict[str, Any], names: Sequence[str], lang: str) -> str:
    key = "event.over"
    reason = _reason(event, lang)
    if reason is None:
        # An engine reason without a code is English text: other languages omit it.
        reason = str(event.get("reason", ""))
        if lang != "en" or not reason:
            key = "event.over_plain"
    values["reason"] = reason
    return key


_KEYS: dict[str, Chooser] = {
    "post": _unless("seat", "event.post_common"),
    "ace": _either("event.ace_low", "event.ace_high"),
    "aces": _either("event.aces_low", "event.aces_high"),
    "bet": _bet,
    "pass": _either("event.pass_forfeit", "event.pass", "forfeit"),
    "push": _unless("seat", "event.push_all"),
    "round": _round,
    "dealer-takes": _dealer_takes,
    "tie": _tie,
    "over": _over,
}
