"""Whole sessions through the pages only, as a person plays them, to the end.

In-Between and Aces in the Pot from the lobby's one-click "play a bot now", and a
two-person In-Between session in two browser contexts, at 375 px in one language and
1280x800 in the other. After each bet (each roll in Aces) the test checks what a person
checks: the third card and the hand's result on the felt (won / lost / post, the chips
moved), every running clock on both screens, the actions in the window without
scrolling, nothing clipped or overlapping, no console error, no request to another host.

The felt changes at the chosen pace (the fastest here); a recorder put in each page
before its scripts run (``RECORDER``) notes every result the felt shows, the moment it
shows it, with the layout problems found at that moment, so no frame is missed however
short. Screenshots go to ``artifacts``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.web.test_lobby_browser import play_bot_now

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

PHONE = {"width": 375, "height": 800}
DESK = {"width": 1280, "height": 800}
#: One language at each size; the two sizes and the two languages are both covered.
SIZES = [pytest.param("en", DESK, id="en-1280"), pytest.param("pt", PHONE, id="pt-375")]
SESSION_SECONDS = 60
#: The table page has its observation and knows which seat is this browser's.
SEATED = "window.aceydeucey && aceydeucey.obs && typeof aceydeucey.me?.seat === 'number'"

#: Put in every page before its own scripts (see the file): ``__layout`` and ``__frames``.
RECORDER = (Path(__file__).parent / "recorder.js").read_text()

#: What a person looks at on each table, measured for the window, overlap and cut text.
IB_VIEW = [
    "#turn",
    "#timer",
    "#board .pot",
    "#board .ib-round",
    "#board .cards > div",
    "#board .ib-result",
    "#board .ib-note",
    "#board .ib-seat",
    "#controls button",
    "#controls input",
    "#controls label",
]
ACES_VIEW = [
    "#turn",
    "#timer",
    "#board .pot",
    "#board .ib-round",
    "#board .finish",
    "#board .dice-row svg",
    "#board p.card-label",
    "#board .ib-seat",
    "#controls button",
]


@pytest.fixture
def people(browser: Any, live_server: str) -> Iterator[Callable[..., Any]]:
    """A person's page: their language and window, the fastest pace, and a list of what
    went wrong behind the screen (console errors, page errors, requests to other hosts)."""
    opened: list[Any] = []
    here = urlsplit(live_server).netloc

    def new(lang: str, viewport: dict[str, int]) -> Any:
        # the tests' string predicates are evaluated in the page, which its CSP forbids;
        # test_csp.py drives the pages with the policy enforced
        ctx = browser.new_context(
            viewport=viewport,
            locale=lang,
            extra_http_headers={"Accept-Language": lang},
            bypass_csp=True,
        )
        ctx.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        ctx.set_default_timeout(15_000)
        ctx.add_init_script("try { localStorage.setItem('pace', 'fast'); } catch {}")
        ctx.add_init_script(RECORDER)
        opened.append(ctx)
        page = ctx.new_page()
        wrong: list[str] = []

        def outside(url: str) -> None:
            parts = urlsplit(url)
            if parts.scheme in ("http", "https", "ws", "wss") and parts.netloc != here:
                wrong.append(f"request to another host: {url}")

        page.on("console", lambda m: wrong.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: wrong.append(str(e)))
        page.on("request", lambda r: outside(r.url))
        page.on("websocket", lambda ws: outside(ws.url))
        page.wrong = wrong
        return page

    yield new
    for ctx in opened:
        ctx.close()


def over(page: Any) -> bool:
    return bool(page.evaluate("!document.getElementById('after').hidden"))


def my_turn_or_over(page: Any) -> None:
    page.wait_for_function(
        "document.querySelector('#controls [data-action]')"
        " || !document.getElementById('after').hidden",
        polling="raf",
    )


def frames(page: Any, kind: str, seat: int) -> list[dict[str, Any]]:
    found = page.evaluate("window.__frames")
    return [f for f in found if f["kind"] == kind and f["seat"] == seat]


#: the page's own state, for a failure's message: what it shows and why no action is offered
PAGE_NOW = """(() => { const c = aceydeucey, o = c.obs || {};
  return { seq: c.seq, received: c.received, actedAt: c.actedAt, pending: c.pending,
    interim: c.interim, to_roll: c.info?.to_roll, to_act: c.info?.to_act, status: c.info?.status,
    phase: o.phase, last_event: o.last_event, legal: o.legal_actions,
    controls: document.getElementById('controls').innerHTML.slice(0, 300),
    error: document.getElementById('action-error').textContent,
    log: [...document.querySelectorAll('#log li')].slice(-6).map((li) => li.textContent) }; })()"""


def wait_for_frame(page: Any, kind: str, seat: int, count: int) -> dict[str, Any]:
    """The felt's ``count``-th result of ``kind`` for ``seat`` (waits for it)."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(
            f"window.__frames.filter((f) => f.kind === {kind!r} && f.seat === {seat}).length"
            f" >= {count}",
            polling="raf",
        )
    except Timeout:
        seen = page.evaluate("window.__frames")
        raise AssertionError(
            f"the felt never showed {kind} {count} of seat {seat}: {seen}; the page: "
            f"{page.evaluate(PAGE_NOW)}"
        ) from None
    return frames(page, kind, seat)[count - 1]


def check_view(page: Any, view: list[str], where: str) -> None:
    problems = page.evaluate("(v) => window.__layout(v)", view)
    assert problems == [], f"{where}: {problems}"


def check_clock(page: Any, others: list[Any], seat: int) -> None:
    """A running clock is on every screen, for the seat whose turn it is; none runs else."""
    running = page.evaluate("typeof aceydeucey.clock?.deadline === 'number'")
    for screen in [page, *others]:
        if running:
            screen.wait_for_function(
                "(s) => { const c = document.getElementById('timer');"
                " return !c.hidden && c.dataset.seat === s && /\\d:\\d\\d/.test(c.textContent); }",
                arg=str(seat),
            )
        else:
            assert screen.is_hidden("#timer")


def hand_result_on_felt(frame: dict[str, Any], name: str, where: str) -> None:
    """The third card is face up and the banner says whose hand, how it went, what moved."""
    assert frame["third"] and re.fullmatch(r"[2-9TJQKA][CDHS]", frame["third"]), (where, frame)
    assert frame["outcome"], (where, frame)
    assert name in frame["text"], (where, frame)
    delta = frame["delta"]
    if frame["outcome"] in ("inside", "trips", "win"):
        assert delta > 0, (where, frame)
    elif frame["outcome"] in ("outside", "post", "ace", "lose"):
        assert delta < 0, (where, frame)
    if delta:  # the chips moved, in the banner: "+3 chips", "−1 ficha"
        assert re.search(rf"[+−]{abs(delta)}\b", frame["text"]), (where, frame)
    assert frame["problems"] == [], (where, frame["problems"])


def play_inbetween(
    pages: dict[str, Any], seats: dict[str, int], names: dict[str, str], shots: Path, tag: str
) -> int:
    """Play every page's turns until the session ends; the bets made, each checked."""
    bets = dict.fromkeys(pages, 0)
    started = time.monotonic()
    shot = 0
    while not all(over(p) for p in pages.values()):
        assert time.monotonic() - started < SESSION_SECONDS, "the session took too long"
        acting = [w for w, p in pages.items() if p.query_selector("#controls [data-action]")]
        if not acting:
            pages[next(iter(pages))].wait_for_timeout(50)
            continue
        who = acting[0]
        page = pages[who]
        others = [p for w, p in pages.items() if w != who]
        check_clock(page, others, seats[who])
        check_view(page, IB_VIEW, f"{who}'s turn")
        if shot < 3:
            page.screenshot(path=shots / f"{tag}-{who}-turn-{shot}.png")
            shot += 1
        actions = page.eval_on_selector_all(
            "#controls [data-action]", "els => els.map(e => e.dataset.action)"
        )
        seq = page.evaluate("aceydeucey.seq")
        if "bet" in actions:
            page.click("#controls [data-max=bet]")  # the largest stake: a shorter session
            page.click("#controls [data-action=bet]")
            bets[who] += 1
            for w, p in pages.items():  # everyone at the table sees the hand's end
                frame = wait_for_frame(p, "hand", seats[who], bets[who])
                hand_result_on_felt(frame, names[who], f"{w} watching {who}'s bet {bets[who]}")
        else:
            page.click(f"#controls [data-action='{'pass' if 'pass' in actions else actions[0]}']")
        page.wait_for_function(
            f"aceydeucey.seq > {seq} || !document.getElementById('after').hidden"
        )
    return sum(bets.values())


def ended(page: Any, shots: Path, name: str, view: list[str]) -> str:
    """The end: the result in words, the felt as it ended, nothing gone wrong."""
    page.wait_for_selector("#after:not([hidden])")
    result = page.inner_text("#result")
    assert result.strip()
    check_view(page, [v for v in view if not v.startswith("#controls")], "the end")
    page.screenshot(path=shots / f"{name}-end.png", full_page=True)
    assert page.wrong == [], page.wrong
    return result


@pytest.mark.parametrize(("lang", "size"), SIZES)
def test_inbetween_against_a_bot_from_the_lobby_to_the_end_of_the_session(
    people: Callable[..., Any], live_server: str, artifacts: Path, lang: str, size: dict[str, int]
) -> None:
    page = people(lang, size)
    play_bot_now(page, live_server, "inbetween")
    page.wait_for_function(SEATED)
    page.evaluate(f"window.__watch = {IB_VIEW!r}")
    name = page.evaluate("aceydeucey.names()[aceydeucey.me.seat]")
    tag = f"inbetween-bot-{lang}-{size['width']}"
    seat = page.evaluate("aceydeucey.me.seat")
    play_inbetween({"me": page}, {"me": seat}, {"me": name}, artifacts, tag)
    result = ended(page, artifacts, tag, IB_VIEW)
    # every hand the bot bet on showed its third card and result too
    for frame in page.evaluate("window.__frames"):
        assert frame["third"] and frame["problems"] == [], frame
    assert name in result  # everyone's net result, by name


def test_inbetween_two_people_in_two_browsers_to_the_end(
    people: Callable[..., Any], live_server: str, artifacts: Path
) -> None:
    ana = people("en", DESK)
    ana.goto(live_server + "/")
    ana.wait_for_selector("#seats select")
    ana.fill("#nick", "Ana")
    ana.check("input[name=game][value=inbetween]")
    ana.select_option("#seat-1", "human")
    ana.click("#table-box summary")
    ana.fill("#turn-seconds", "120")  # a clock for every turn: both screens show it
    ana.click("#create-btn")
    ana.wait_for_url("**/tables/*")
    ana.wait_for_function(SEATED)
    invite = ana.input_value("#table-invite")
    bea = people("pt", PHONE)
    bea.goto(invite)
    bea.wait_for_selector("#join:not([hidden]) [data-seat='1']")
    bea.fill("#join-nick", "Bea")
    bea.click("#join-seats [data-seat='1']")
    bea.wait_for_function("window.aceydeucey && aceydeucey.me && aceydeucey.me.seat === 1")
    ana.wait_for_function("aceydeucey.names()[1] === 'Bea'")
    for page in (ana, bea):
        page.evaluate(f"window.__watch = {IB_VIEW!r}")
    bets = play_inbetween(
        {"Ana": ana, "Bea": bea},
        {"Ana": 0, "Bea": 1},
        {"Ana": "Ana", "Bea": "Bea"},
        artifacts,
        "inbetween-two",
    )
    assert bets > 0, "somebody bet"
    ended(ana, artifacts, "inbetween-two-ana-en-1280", IB_VIEW)
    ended(bea, artifacts, "inbetween-two-bea-pt-375", IB_VIEW)
    assert "Fim do jogo" in bea.inner_text("#turn") and "Game over" in ana.inner_text("#turn")


@pytest.mark.parametrize(("lang", "size"), SIZES)
def test_aces_in_the_pot_against_bots_from_the_lobby_to_the_end(
    people: Callable[..., Any], live_server: str, artifacts: Path, lang: str, size: dict[str, int]
) -> None:
    page = people(lang, size)
    play_bot_now(page, live_server, "aces-in-the-pot")
    page.wait_for_function(SEATED)
    page.evaluate(f"window.__watch = {ACES_VIEW!r}")
    seat = page.evaluate("aceydeucey.me.seat")
    name = page.evaluate(f"aceydeucey.names()[{seat}]")
    tag = f"aces-bot-{lang}-{size['width']}"
    started = time.monotonic()
    rolls = 0
    while not over(page):
        assert time.monotonic() - started < SESSION_SECONDS, "the game took too long"
        my_turn_or_over(page)
        if over(page):
            break
        check_clock(page, [], seat)
        check_view(page, ACES_VIEW, f"roll {rolls + 1}")
        if rolls < 3:
            page.screenshot(path=artifacts / f"{tag}-turn-{rolls}.png")
        seq = page.evaluate("aceydeucey.seq")
        page.click("#controls [data-action]")
        rolls += 1
        # the roll on the felt: the dice thrown, and what they did, in words
        frame = wait_for_frame(page, "roll", seat, rolls)
        assert frame["dice"] and all(1 <= d <= 6 for d in frame["dice"]), frame
        assert name in frame["text"], frame
        assert "-".join(map(str, frame["dice"])) in frame["text"] or len(frame["dice"]) == 1
        assert frame["problems"] == [], frame["problems"]
        page.wait_for_function(
            f"aceydeucey.seq > {seq} || !document.getElementById('after').hidden"
        )
    assert rolls > 0
    result = ended(page, artifacts, tag, ACES_VIEW)
    assert {"en": "Won", "pt": "Ganhou"}[lang] in result


def test_the_recorder_counts_the_same_roll_twice_as_two_frames(
    people: Callable[..., Any], live_server: str, api: Any
) -> None:
    """The same roll twice running is two moments on the felt, and the recorder notes two
    frames: the finish's holder rolling 4-1 again ("Still going." both times, the attempt
    counted), and the last seat with chips in play rolling 5-2 again (the same event, the
    others passed over, a step later).  Once it noted one, and a person's roll seemed never to
    reach the felt."""
    made = api.post(
        "/api/tables",
        json={
            "game": "aces-in-the-pot",
            "options": {"players": 3},
            "seats": ["human", "bot", "bot"],
        },
    )
    assert made.status_code == 201, made.text
    page = people("en", DESK)
    page.goto(f"{live_server}/tables/{made.json()['id']}")
    page.wait_for_function("window.aceydeucey && aceydeucey.obs && aceydeucey.module")
    throw = """([seq, phase, n, kind, dice]) => {
      aceydeucey.seq = seq;
      aceydeucey.obs = { ...aceydeucey.obs, phase, holder: 0, finish_rolls: 3, roller: 0,
        roll_number: n + 1, outcome: null, last_event: { kind, seat: 0, action: dice, phase,
        next_seat: 0, roll_number: n, to_pot: 0, to_left: 0, unpaid: 0, kept: 0,
        skipped: phase === "play" ? [1, 2] : [], tied: [] } };
      aceydeucey.refresh();
    }"""
    base = page.evaluate("aceydeucey.seq")
    moments = [
        (base + 1, "finish", 1, "finish-continue", "4-1"),  # the holder, again: its 2nd try
        (base + 1, "finish", 2, "finish-continue", "4-1"),
        (base + 2, "play", 0, "next", "5-2"),  # the only seat with chips, a step later
        (base + 3, "play", 0, "next", "5-2"),
    ]
    for k, moment in enumerate(moments, 1):
        page.evaluate(throw, list(moment))
        page.wait_for_function(
            f"window.__frames.filter((f) => f.kind === 'roll' && f.seat === 0).length >= {k}",
            timeout=5_000,
        )
    texts = [f["text"] for f in frames(page, "roll", 0)]
    assert len(texts) == 4 and texts[0] == texts[1] and texts[2] == texts[3], texts
