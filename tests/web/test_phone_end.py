"""A small phone (375 x 667): each game played from the lobby's "play a bot now" to its end
without scrolling (every action in the window at each turn), and at the end the result, the
rematch button and the replay link in the window (a backgammon game ended by the person's
resignation; its turns are test_backgammon_page.py's)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web.test_lobby_browser import play_bot_now
from tests.web.test_tables import over, person  # noqa: F401

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SMALL_PHONE = {"width": 375, "height": 667}
SEATED = "window.aceydeucey && aceydeucey.obs && typeof aceydeucey.me?.seat === 'number'"
ACTION = "#controls [data-action]:not([disabled])"
#: the controls out of the window (the page at its top), each with its box
IN_VIEW = """[scrollY ? `scrolled ${scrollY}` : null, ...[...document.querySelectorAll(
  '#controls button, #controls input, #controls select, #turn')].map((el) => {
    const r = el.getBoundingClientRect();
    return r.width && (r.top < 0 || r.bottom > innerHeight + .5 || r.right > innerWidth + .5)
      ? `${el.dataset.action || el.id || el.tagName} at ${r.top}-${r.bottom}` : null; })
].filter(Boolean)"""


def play_to_the_end(page: Any, game: str) -> None:
    """The person's side, the quickest way to the end: the largest bet, else the first action."""
    if game == "backgammon":
        page.on("dialog", lambda d: d.accept())  # "resign?": yes
        page.click("#resign")
        return
    started = time.monotonic()
    while not over(page):
        assert time.monotonic() - started < 90, "the game did not end"
        page.wait_for_function(
            f"document.querySelector('{ACTION}') || !document.getElementById('after').hidden"
        )
        if over(page):
            break
        # every action in the window as the page stands, before a click scrolls to one
        problems = page.evaluate(IN_VIEW)
        assert problems == [], problems
        seq = page.evaluate("aceydeucey.seq")
        if page.query_selector("#controls [data-action=bet]"):
            page.click("#controls [data-max=bet]")
            page.click("#controls [data-action=bet]")
        else:
            page.click(ACTION)
        page.wait_for_function(
            f"aceydeucey.seq > {seq} || !document.getElementById('after').hidden"
        )


@pytest.mark.parametrize(
    ("game", "lang"),
    [("backgammon", "pt"), ("aces-in-the-pot", "en"), ("inbetween", "pt"), ("inbetween", "en")],
)
def test_the_result_and_the_rematch_are_in_view_at_the_end(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    game: str,
    lang: str,
) -> None:
    page = person(lang, SMALL_PHONE, has_touch=True, is_mobile=True)
    play_bot_now(page, live_server, game)
    page.wait_for_function(SEATED)
    play_to_the_end(page, game)
    page.wait_for_selector("#after:not([hidden])")
    page.evaluate("Promise.allSettled(document.getAnimations().map(a => a.finished))")
    # the person back at the page's top (the resign button lies further down, and a click on
    # an action scrolls it into view): what the window shows there
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("scrollY === 0")
    assert page.inner_text("#result").strip()
    for sel in ("#result", "#rematch", "#replay-link"):
        box = page.locator(sel).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 667 + 0.5, (sel, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375 + 0.5, (sel, box)
    # the box lies over nothing a person acts on, and the backgammon board is whole above it
    after = page.locator("#after").bounding_box()
    if game == "backgammon":
        board = page.locator(".bg-board").bounding_box()
        assert board["y"] + board["height"] <= after["y"] + 0.5, (board, after)
    assert page.problems == [], page.problems
