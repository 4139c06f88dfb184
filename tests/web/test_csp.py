"""The pages under their own Content-Security-Policy, in a real browser: no script, style
or socket the policy refuses, and the seat held in a cookie no script can read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def strict(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page whose CSP is enforced, with every refusal and page error collected."""
    ctx = browser.new_context(locale="en", extra_http_headers={"Accept-Language": "en"})
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        yield page, problems
    finally:
        ctx.close()


def test_the_pages_work_under_their_policy_and_keep_no_token(
    strict: tuple[Any, list[str]], live_server: str
) -> None:
    page, problems = strict
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.fill("#nick", "Ana")
    page.check("input[name=game][value=backgammon]")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    # seated by the lobby: the seat's link is offered, the board drawn, resign offered
    page.wait_for_selector("#seat-link-box:not([hidden])")
    page.wait_for_selector("#resign:not([hidden])")
    link = page.input_value("#seat-link")
    assert "#token=" in link and "#token" not in page.url
    assert "seat_" not in page.evaluate("() => document.cookie")
    assert page.evaluate("() => JSON.stringify(localStorage)").find(link.split("#token=")[1]) < 0
    cookies = [c for c in page.context.cookies() if c["name"].startswith("seat_")]
    assert len(cookies) == 1 and cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Strict"
    page.reload()  # the cookie alone holds the seat
    page.wait_for_selector("#resign:not([hidden])")
    page.wait_for_selector("#board svg")
    page.goto(live_server + "/rules/backgammon")
    page.select_option("#preset", "classic")  # the preset choice reloads the sheet (site.js)
    page.wait_for_url("**/rules/backgammon?preset=classic")
    page.goto(live_server + "/replay")
    page.wait_for_selector("main")
    assert problems == []
