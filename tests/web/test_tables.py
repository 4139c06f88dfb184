"""A person at each game's table, at a phone's and a desk's width, in English and Portuguese.

What a player checks: In-Between's third card and its result stay on the felt after every
bet (for both people at a two-person table), the turn clock runs on every screen, the
actions are in view without scrolling, nothing sticks out of the window or overlaps, the
console stays clean and no request leaves the server.  Screenshots go to ``artifacts``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PHONE = {"width": 375, "height": 800}
DESK = {"width": 1280, "height": 800}
SIZES = [pytest.param("en", DESK, id="en-1280"), pytest.param("pt", PHONE, id="pt-375")]

FAST = "try { localStorage.setItem('pace', 'fast'); } catch {}"
# every third card shown on the felt, as the page drew it (the pace may move on quickly)
RECORD_RESULTS = """
window.__results = [];
new MutationObserver(() => {
  for (const node of document.querySelectorAll('.ib-result')) {
    const third = document.querySelector('.cards .third svg[data-card]');
    const card = third ? third.dataset.card : '?';
    const key = node.dataset.hand + '|' + card + '|' + node.textContent;
    if (!window.__results.includes(key)) window.__results.push(key);
  }
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture
def person(browser: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    made: list[Any] = []

    def new(lang: str, viewport: dict[str, int], **more: Any) -> Any:
        ctx = browser.new_context(  # string predicates need eval: the CSP is tested in test_csp.py
            viewport=viewport,
            locale=lang,
            extra_http_headers={"Accept-Language": lang},
            bypass_csp=True,
            **more,  # a phone's touch screen, say
        )
        ctx.set_default_timeout(20_000)
        ctx.add_init_script(FAST + RECORD_RESULTS)
        made.append(ctx)
        page = ctx.new_page()
        page.problems = []
        page.on("pageerror", lambda e: page.problems.append(f"error: {e}"))
        page.on(
            "console",
            lambda m: page.problems.append(f"console: {m.text}") if m.type == "error" else None,
        )
        page.on(
            "request",
            lambda r: (
                None
                if r.url.startswith((live_server, "ws://127.0.0.1", "data:", "blob:"))
                else page.problems.append(f"outside request: {r.url}")
            ),
        )
        return page

    yield new
    for ctx in made:
        ctx.close()


def table(api: httpx.Client, game: str, seats: list[str], **extra: Any) -> str:
    options = extra.pop("options", {})
    made = api.post("/api/tables", json={"game": game, "options": options, "seats": seats, **extra})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def sit(page: Any, live_server: str, api: httpx.Client, tid: str, seat: int, name: str) -> None:
    token = api.post(f"/api/tables/{tid}/seats/{seat}", json={"name": name}).json()["token"]
    page.context.add_cookies([{"name": f"seat_{tid}", "value": token, "url": live_server}])


OVER = "!document.getElementById('after').hidden"


def over(page: Any) -> bool:
    return bool(page.evaluate(OVER))


def laid_out(page: Any, selectors: list[str]) -> None:
    """Each visible element lies inside the window's width, and no two of them overlap."""
    # boxes are measured at rest (a die rolling in turns past its neighbour's edge)
    page.evaluate("Promise.allSettled(document.getAnimations().map(a => a.finished))")
    boxes = []
    width = page.viewport_size["width"]
    for sel in selectors:
        for i, el in enumerate(page.query_selector_all(sel)):
            box = el.bounding_box()
            if not box or not el.is_visible() or box["width"] == 0:
                continue
            assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, (sel, box)
            boxes.append((f"{sel}#{i}", box))
    for k, (a, p) in enumerate(boxes):
        for b, q in boxes[k + 1 :]:
            apart = (
                p["x"] + p["width"] <= q["x"] + 0.5
                or q["x"] + q["width"] <= p["x"] + 0.5
                or p["y"] + p["height"] <= q["y"] + 0.5
                or q["y"] + q["height"] <= p["y"] + 0.5
            )
            assert apart, f"{a} {p} overlaps {b} {q}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def in_view(page: Any, selector: str) -> None:
    """Every element the selector finds is on screen at the page's top, without scrolling."""
    assert page.evaluate("window.scrollY") == 0
    found = page.query_selector_all(selector)
    assert found, selector
    for el in found:
        box = el.bounding_box()
        assert box is not None and box["y"] >= 0, selector
        assert box["y"] + box["height"] <= page.viewport_size["height"], (selector, box)


def viewer_side(play: str) -> str:
    """A play numbered from the other side of the board (point p is 25 - p; counts stay)."""
    return re.sub(r"(\(\d+\))|(\d+)", lambda m: m[1] or str(25 - int(m[2])), play)


def clock_shown(page: Any, who: str) -> None:
    page.wait_for_selector("#timer:not([hidden])")
    text = page.inner_text("#timer")
    assert who in text and ":" in text, text


@pytest.mark.parametrize(("lang", "size"), SIZES)
def test_inbetween_two_people_see_every_third_card_result_and_clock(
    person: Any, live_server: str, api: httpx.Client, artifacts: Path, lang: str, size: Any
) -> None:
    guide = {"preset": "guide", "players": 2}
    tid = table(api, "inbetween", ["human", "human"], options=guide, turn_seconds=120)
    ana, bea = person(lang, size), person("pt" if lang == "en" else "en", size)
    sit(ana, live_server, api, tid, 0, "Ana")
    sit(bea, live_server, api, tid, 1, "Bea")
    for page in (ana, bea):
        page.goto(f"{live_server}/tables/{tid}")
        page.wait_for_selector("#board .cards")
    pages = {"Ana": ana, "Bea": bea}
    bets = 0
    for _ in range(120):
        if over(ana) and over(bea):
            break
        acting = None
        for name, page in pages.items():
            if page.query_selector("#controls [data-action]"):
                acting = (name, page)
        if acting is None:
            ana.wait_for_timeout(100)
            continue
        name, page = acting
        other = bea if page is ana else ana
        # the clock of the person to act runs on both screens, named
        mine = "You" if page.evaluate("document.documentElement.lang") == "en" else "Você"
        clock_shown(page, mine)
        clock_shown(other, name)
        in_view(page, "#controls")
        laid_out(page, ["#board .cards > div", ".ib-seat", "#controls > *", "#turn", "#timer"])
        actions = [
            b.get_attribute("data-action")
            for b in page.query_selector_all("#controls [data-action]")
        ]
        seen = {p: len(p.evaluate("window.__results")) for p in (ana, bea)}
        seq = page.evaluate("aceydeucey.seq")
        if "bet" in actions:
            page.click("#controls [data-action=bet]")
            bets += 1
            # the third card and the result, on the felt of both players
            for p in (ana, bea):
                p.wait_for_function(f"window.__results.length > {seen[p]}")
                got = p.evaluate("window.__results")[-1]
                _, card, text = got.split("|", 2)
                assert card != "?" and any(c in text for c in "+−"), got
            if bets == 1:
                ana.screenshot(path=artifacts / f"ib-result-{lang}-{size['width']}.png")
        else:
            page.click("#controls [data-action]")
            page.wait_for_function(f"window.aceydeucey && aceydeucey.seq > {seq}")
    else:
        raise AssertionError("the session did not end")
    assert bets, "somebody bet"
    for page in (ana, bea):
        page.wait_for_function("!document.getElementById('after').hidden")
        assert page.inner_text("#result").strip()
        assert page.problems == [], page.problems
    ana.screenshot(path=artifacts / f"ib-end-{lang}-{size['width']}.png", full_page=True)


@pytest.mark.parametrize(("lang", "size"), SIZES)
def test_backgammon_actions_stay_in_view(
    person: Any, live_server: str, api: httpx.Client, artifacts: Path, lang: str, size: Any
) -> None:
    tid = table(api, "backgammon", ["human", "bot:greedy"], turn_seconds=300)
    page = person(lang, size)
    sit(page, live_server, api, tid, 0, "Ana")
    page.goto(f"{live_server}/tables/{tid}")

    def bot_plays() -> list[str]:
        events = api.get(f"/api/tables/{tid}/events").json()["events"]
        return [
            e["event"]["play"]
            for e in events
            if e["seat"] == 1
            and (e["event"] or {}).get("kind") == "play"
            and "/" in e["event"]["play"]
        ]

    # three plays of the person's and one of the bot's at least: in Acey-Deucey a 1-2 (its
    # play, the named double's, the roll again) gives the person three plays in one turn
    plays = 0
    for _ in range(80):
        if (plays >= 3 and bot_plays()) or over(page):
            break
        page.wait_for_selector("#controls #confirm, #controls [data-action]")
        seq = page.evaluate("aceydeucey.seq")
        in_view(page, "#controls button")
        # the tab says whose turn it is, for a person looking at another tab
        assert page.title().startswith("Your turn · " if lang == "en" else "É a sua vez · ")
        clock_shown(page, "You" if lang == "en" else "Você")
        laid_out(page, ["#board .bg-info > span", "#controls > *", "#turn", "#timer"])
        if page.query_selector("#controls #confirm"):
            # every point a finger can reach: a whole half-column answers for it
            width = page.locator(".bg-board .hit").first.bounding_box()["width"]
            assert width >= 28, width
            page.select_option("#play-list", index=0)
            page.click("#play-chosen")
            plays += 1
            if plays == 1:
                page.screenshot(path=artifacts / f"bg-{lang}-{size['width']}.png")
        else:
            page.click("#controls [data-action]:not([disabled])")
        page.wait_for_function(f"window.aceydeucey && aceydeucey.seq > {seq}")
        # no clock runs on screen for the bot's turn (the person's last one has stopped)
        stale = "aceydeucey.info.to_act === null && !document.getElementById('timer').hidden"
        assert not page.evaluate(stale)
    else:
        raise AssertionError(
            f"{plays} plays of the person's in 80 steps, and the bot's {bot_plays()}"
        )
    assert plays >= 1
    # the bot's plays are numbered in the log as the board numbers them: from the person's side
    played = bot_plays()
    assert played
    for play in played:  # (the last may still be on its way to the screen)
        shown = json.dumps(viewer_side(play))
        page.wait_for_function(f"document.getElementById('log').textContent.includes({shown})")
    text = page.inner_text("#board")
    assert "por entrai" not in text and "ƒora" not in text
    assert page.problems == [], page.problems


@pytest.mark.parametrize(("lang", "size"), SIZES)
def test_aces_in_the_pot_played_to_the_end(
    person: Any, live_server: str, api: httpx.Client, artifacts: Path, lang: str, size: Any
) -> None:
    tid = table(api, "aces-in-the-pot", ["human", "bot", "bot"], options={"players": 3})
    page = person(lang, size)
    still = lang == "pt"  # a person who asked for less motion gets none
    moved = False
    if still:
        page.emulate_media(reduced_motion="reduce")
    sit(page, live_server, api, tid, 0, "Ana")
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_selector("#board .dice-row")
    for _ in range(400):
        if over(page):
            break
        roll = page.query_selector("#controls [data-action]")
        if roll:
            in_view(page, "#controls [data-action]")
            laid_out(page, [".aces-seats > div", "#controls > *", "#turn", ".dice-row svg"])
            seq = page.evaluate("aceydeucey.seq")
            roll.click()
            page.wait_for_function(
                f"window.aceydeucey && aceydeucey.seq > {seq} || !aceydeucey.obs || {OVER}"
            )
            moved = moved or page.evaluate("document.getAnimations().length") > 0
        else:
            page.wait_for_timeout(100)
    page.wait_for_function("!document.getElementById('after').hidden")
    assert moved != still, "dice roll on screen, unless the person asked for less motion"
    chips = page.eval_on_selector_all("[data-chips]", "els => els.map(e => +e.dataset.chips)")
    pot = int(page.get_attribute("[data-pot]", "data-pot"))
    assert sum(chips) + pot == 3 * 2, "chips are conserved"
    # the end screen counts the pot as taken: each seat's chips are its start and its return
    returns = page.evaluate("aceydeucey.obs.outcome.returns")
    assert chips == [2 + int(r) for r in returns], (chips, returns)
    shown = page.eval_on_selector_all("#seat-list .bal", "els => els.map(e => +e.textContent)")
    assert shown == chips
    # the result says the pot the winner took, and the replay says it as the table does
    won = page.evaluate("aceydeucey.obs.outcome.params.pot")
    said = {"en": f"Pot won: {won}", "pt": f"Pote ganho: {won}"}[lang]
    assert said in page.inner_text("#after"), page.inner_text("#after")
    assert page.problems == [], page.problems
    page.screenshot(path=artifacts / f"aces-{lang}-{size['width']}.png", full_page=True)
    page.goto(f"{live_server}/tables/{tid}/replay")
    page.wait_for_function("document.getElementById('replay-result').textContent.length > 0")
    result = page.inner_text("#replay-result")
    assert said in result and not re.search(r"\b(seat|lugar) \d", result), result


def test_a_watcher_gets_no_failing_chat_box(
    person: Any, live_server: str, api: httpx.Client
) -> None:
    tid = table(api, "backgammon", ["bot:greedy", "bot:greedy"], options={"variant": "classic"})
    page = person("en", DESK)
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_selector(".bg-board")
    assert page.is_hidden("#chat-form")
    assert "Take a seat to chat" in page.inner_text("#chat-note")
    assert "Bearer" not in page.inner_text("body")
    assert page.inner_text("#table-title") == "Backgammon"
    # the variant in the players' words, never its id
    assert page.inner_text("#table-variant") == "Classic backgammon"
    # sounds are off until chosen, and the choice is remembered
    assert not page.is_checked("#sound")
    page.check("#sound")
    page.reload()
    page.wait_for_selector(".bg-board")
    assert page.is_checked("#sound")
    # an Acey-Deucey table's variant is its title: said once, not twice
    tid = table(api, "backgammon", ["bot:greedy", "bot:greedy"])
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_selector(".bg-board")
    assert page.inner_text("#table-title") == "Acey-Deucey backgammon"
    assert page.is_hidden("#table-variant-box")
    assert page.inner_text("#table-sub").count("Acey-Deucey") == 0


def test_the_replay_shows_each_third_card_and_its_result(
    person: Any, live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    import time

    # bots may pass every hand of a short session (the deal is fair): then another is dealt
    for _ in range(6):
        guide = {"preset": "guide", "players": 2}
        tid = table(api, "inbetween", ["bot:ev", "bot:ev"], options=guide)
        for _ in range(600):
            if api.get(f"/api/tables/{tid}").json()["status"] == "over":
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the bots' session did not end")
        record = api.get(f"/api/tables/{tid}/record").json()
        steps = api.post("/replay/steps", json=record).json()["steps"]
        settles = [
            (k, step["observation"]["last_event"])
            for k, step in enumerate(steps)
            if step["observation"]["last_event"].get("kind") == "settle"
        ]
        if settles:
            break
    assert settles, "six sessions without a bet"
    page = person("pt", PHONE)
    page.goto(f"{live_server}/tables/{tid}/replay")
    page.wait_for_selector("#viewer:not([hidden])")
    for k, event in settles:
        page.click(f"#moves li[data-step='{k}'] a")
        assert page.get_attribute(".cards .third svg[data-card]", "data-card") == event["third"]
        assert page.get_attribute(".ib-result", "data-outcome") == event["outcome"]
        assert page.get_attribute(".ib-result", "data-delta") == str(event["delta"])
        step = page.inner_text("#step-action")
        assert "Terceira carta" in step and event["third"] not in step, step
    after = settles[0][0] + 1  # the step after a third card: the felt has moved on
    if after < len(steps) and after not in {k for k, _ in settles}:
        page.click(f"#moves li[data-step='{after}'] a")
        assert page.query_selector(".ib-result") is None
    page.click(f"#moves li[data-step='{settles[0][0]}'] a")
    page.screenshot(path=artifacts / "replay-third-card-pt-375.png")
    assert page.problems == [], page.problems


def test_the_claim_button_waits_for_the_claim_time(
    person: Any, live_server: str, api: httpx.Client
) -> None:
    import time

    made = api.post(
        "/api/tables",
        json={"game": "backgammon", "options": {}, "seats": ["human", "human"], "claim_after": 3},
    )
    tid = made.json()["id"]
    api.post(f"/api/tables/{tid}/seats/1", json={"name": "Bea"})  # Bea never opens the page
    page = person("en", DESK)
    sit(page, live_server, api, tid, 0, "Ana")
    start = time.monotonic()
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_selector(".bg-board")
    page.wait_for_timeout(1000)
    assert page.is_hidden("#claim"), "no claim before the seat has been away long enough"
    page.wait_for_selector("#claim:not([hidden])", timeout=10_000)
    assert time.monotonic() - start >= 3
    assert "Bea is away" in page.inner_text("#claim")
    page.click("#claim")
    page.wait_for_function("!document.getElementById('after').hidden")
    assert "Ana claimed the game" in page.inner_text("#result")
    assert page.problems == [], page.problems
