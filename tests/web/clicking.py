"""Clicking a control of a page that may re-render under the click.

A table's page draws its controls again for every state it shows; on a loaded machine a
state can land between finding a button and clicking it, which detaches the button (or
removes it: the turn moved on).  The loops that play whole games find the next control
again instead of failing on that: :func:`click_if_there` says whether the click landed.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Error as PlaywrightError

__all__ = ["click_if_there"]


def click_if_there(page: Any, target: Any, timeout: float = 3_000) -> bool:
    """Click ``target`` (a selector on ``page``, or an element handle); ``False`` when it
    was re-drawn or removed before the click landed (the caller looks again)."""
    try:
        if isinstance(target, str):
            page.click(target, timeout=timeout)
        else:
            target.click(timeout=timeout)
    except PlaywrightError:  # a TimeoutError too: the control went with the state
        return False
    return True
