"""Whole backgammon games played by a person through the pages, to the end.

The person starts from the lobby's one-click "play a bot now" (Acey-Deucey, against the
lobby's best bot) and plays every turn on the board: the roll button, taps (on a phone) or
clicks and the keyboard (at a desk) on the points, the confirm button, the named doubles.
After each step a person would check: every action in view without scrolling, each point,
the bar and the tray a target wide and tall enough for a finger, nothing clipped or
overlapping, no console error and no request to another host.  Screenshots go to
``artifacts``.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.test_tables import DESK, PHONE, clock_shown, person, sit, table  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: what a person checks, measured in the page (see the file): ``__bg.look()`` and its helpers
LOOK = Path(__file__).with_name("backgammon_look.js")


def look(page: Any, when: str) -> None:
    problems = page.evaluate("__bg.look()")
    assert problems == [], (when, problems)


def touch(page: Any, x: float, y: float, mode: str) -> None:
    if mode == "tap":
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def move_on_board(page: Any, rng: random.Random, mode: str) -> int:
    """Make the whole play step by step on the board; the number of steps.

    A finger (or the mouse) lands in the middle of a place's hit area, off its checkers;
    the keyboard tabs to a checker and presses Enter, then Enter on a highlighted place.
    """
    steps = 0
    while page.query_selector("#confirm[disabled]"):
        sources = page.evaluate("__bg.offered(true)")
        assert sources, "a play is still to make but no checker may move"
        source, x, y = rng.choice(sources)
        if mode == "keys":
            page.focus(f".bg-board [data-from='{source}']")
            page.keyboard.press("Enter")
            page.wait_for_selector(".bg-board [data-target]:focus")
            page.keyboard.press("Enter")
        else:
            touch(page, x, y, mode)
            # the chosen checker's destinations light up, each its whole column
            targets = page.evaluate("__bg.offered(false)")
            assert targets, f"{source} shows where it may go"
            _, x, y = rng.choice(targets)
            touch(page, x, y, mode)
        steps += 1
        assert page.query_selector("#undo:not([disabled])"), "the step was made"
        assert steps <= 4, "a play has four steps at most"
    return steps


class Player:
    """A person at the board: one action at a time (a roll, a play, a named double, a pass),
    with what they check before and after it; ``counts`` says what they did."""

    def __init__(self, page: Any, artifacts: Path, tag: str, mode: str) -> None:
        self.page, self.artifacts, self.tag, self.mode = page, artifacts, tag, mode
        self.rng = random.Random(tag)
        self.counts = {"turns": 0, "rolls": 0, "doubles": 0, "passes": 0}

    def act(self, now: dict[str, Any]) -> None:
        page, counts, seq, act = self.page, self.counts, now["seq"], now["act"]
        look(page, f"{self.tag}: {act} at {seq}")
        assert now["turn"] == "own", f"{self.tag}: the person's tray is not marked as to act"
        if act == "confirm":
            keys = self.mode == "mouse" and counts["turns"] % 5 == 2  # now and then the keyboard
            move_on_board(page, self.rng, "keys" if keys else self.mode)
            look(page, f"{self.tag}: the play made at {seq}")
            if counts["turns"] == 0:
                page.screenshot(path=self.artifacts / f"bg-game-{self.tag}-play.png")
            page.click("#confirm")
            counts["turns"] += 1
        else:
            if act.startswith("double "):
                counts["doubles"] += 1
                if counts["doubles"] == 1:
                    page.screenshot(path=self.artifacts / f"bg-game-{self.tag}-named-double.png")
            counts["rolls"] += act == "roll"
            counts["passes"] += act == "pass"
            page.click(f"#controls [data-action='{act}']")
        page.wait_for_function(f"__bg.now().seq > {seq} || __bg.now().over")


def play_to_the_end(
    page: Any, artifacts: Path, tag: str, mode: str, plays: int = 0
) -> dict[str, Any]:
    """Play the person's side of the game on the page until it ends (or after ``plays``
    plays, when given); what happened, with how long each wait for the bot took."""
    player = Player(page, artifacts, tag, mode)
    waits: list[float] = []
    for _ in range(2000):
        started = time.monotonic()
        page.wait_for_function("__bg.now().over || __bg.now().act", timeout=30_000)
        waits.append(time.monotonic() - started)
        now = page.evaluate("__bg.now()")
        if now["over"] or (plays and player.counts["turns"] == plays):
            break
        player.act(now)
    else:
        raise AssertionError("the game did not end")
    assert page.problems == [], page.problems
    return {**player.counts, "waits": waits}


def play_a_bot_now(page: Any, live_server: str) -> str:
    page.goto(live_server + "/")
    page.click(".quick-btn[data-game='backgammon']")
    page.wait_for_url(re.compile(r".*/tables/[^/?]+(\?.*)?$"))
    page.wait_for_selector(".bg-board")
    return str(page.evaluate("aceydeucey.tableId"))


GAMES = [
    pytest.param("pt", PHONE, "tap", "acey-deucey", id="pt-375-touch"),
    pytest.param("en", DESK, "mouse", "acey-deucey", id="en-1280-mouse-keys"),
    pytest.param("en", PHONE, "tap", "classic", id="classic-en-375-touch"),
]
#: a phone's browser: a touch screen, the page laid out for it
PHONE_BROWSER = {"has_touch": True, "is_mobile": True}


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "size", "mode", "variant"), GAMES)
def test_a_whole_game_against_the_bot_from_the_lobby(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    artifacts: Path,
    lang: str,
    size: Any,
    mode: str,
    variant: str,
) -> None:
    page = person(lang, size, **(PHONE_BROWSER if mode == "tap" else {}))
    page.context.add_init_script(path=LOOK)
    began = time.monotonic()
    if variant == "acey-deucey":  # the lobby's one click
        tid = play_a_bot_now(page, live_server)
    else:  # a table made for the person beforehand, the bot seated
        tid = table(api, "backgammon", ["human", "bot:net"], options={"variant": variant})
        sit(page, live_server, api, tid, 0, "Ana")
        page.goto(f"{live_server}/tables/{tid}")
    tag = f"{variant}-{lang}-{size['width']}"
    played = play_to_the_end(page, artifacts, tag, mode)
    took = time.monotonic() - began
    page.wait_for_function("!document.getElementById('after').hidden")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=artifacts / f"bg-game-{tag}-end.png")
    result = page.inner_text("#result")
    # who won and what it was worth, on the board itself (in view) and under it
    outcome = page.evaluate("aceydeucey.obs.outcome")
    winner = page.inner_text(f"#seat-list li[data-seat='{outcome['winners'][0]}'] .who")
    ending = page.inner_text("#board .bg-end")
    assert winner.split("\n")[0] in ending, (winner, ending)
    assert str(outcome["params"]["points"]) in ending, ending
    look(page, f"{tag}: the end")
    assert ("Won: " if lang == "en" else "Ganhou: ") in result, result
    assert page.inner_text("#turn") == ("Game over" if lang == "en" else "Fim do jogo")
    assert played["turns"] >= 5 and played["rolls"] >= played["turns"] // 2, played
    assert page.problems == [], page.problems
    waits = played.pop("waits")
    print(f"\n{tid} {tag}: {took:.1f} s, {played}, slowest wait for the bot {max(waits):.2f} s")


OTHER_PHONES = {"375x667": (375, 667), "390x844": (390, 844), "414x896": (414, 896)}


@pytest.mark.slow
@pytest.mark.parametrize(
    "size",
    [{"width": w, "height": h} for w, h in OTHER_PHONES.values()],
    ids=list(OTHER_PHONES),
)
def test_other_phones_in_the_dark_theme(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    artifacts: Path,
    size: Any,
) -> None:
    page = person("pt", size, color_scheme="dark", **PHONE_BROWSER)
    page.context.add_init_script(path=LOOK)
    play_a_bot_now(page, live_server)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    tag = f"pt-{size['width']}x{size['height']}-dark"
    played = play_to_the_end(page, artifacts, tag, "tap", plays=3)
    assert played["turns"] == 3 or page.evaluate("__bg.now().over"), played
    # the points widen with the screen: the whole width goes to the board
    width = page.evaluate("document.querySelector('.bg-board .hit').getBoundingClientRect().width")
    assert width >= size["width"] * 36 / 472 - 0.5, width


@pytest.mark.slow
def test_two_people_see_each_others_clock(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    artifacts: Path,
) -> None:
    """A classic game between two people (pt on a phone, en at a desk) with a turn timer:
    the one waiting sees the other's clock run, named, in view."""
    tid = table(
        api, "backgammon", ["human", "human"], options={"variant": "classic"}, turn_seconds=120
    )
    ana, bea = person("pt", PHONE, **PHONE_BROWSER), person("en", DESK)
    players = {}
    for seat, (name, page, mode) in enumerate([("Ana", ana, "tap"), ("Bea", bea, "mouse")]):
        page.context.add_init_script(path=LOOK)
        sit(page, live_server, api, tid, seat, name)
        page.goto(f"{live_server}/tables/{tid}")
        page.wait_for_selector(".bg-board")
        players[name] = Player(page, artifacts, f"classic-two-{name}", mode)
    plays = 0
    for _ in range(200):
        if plays == 4:
            break
        acting = [(n, p) for n, p in players.items() if p.page.evaluate("__bg.now().act")]
        if not acting:
            ana.wait_for_timeout(100)
            continue
        name, player = acting[0]
        other = next(p for n, p in players.items() if n != name)
        clock_shown(player.page, "You" if player.page is bea else "Você")
        clock_shown(other.page, name)
        assert other.page.evaluate("__bg.now().turn") == "opp", "the other side is marked to act"
        look(other.page, f"{name}'s clock on the other screen")
        before = player.counts["turns"]
        player.act(player.page.evaluate("__bg.now()"))
        plays += player.counts["turns"] - before
    assert plays == 4, plays
    bea.screenshot(path=artifacts / "bg-two-en-1280.png")
    assert ana.problems == [] and bea.problems == [], (ana.problems, bea.problems)


#: the longest plays the game can list (four steps, each a hit, from the bar or entering):
#: "Confirmar …" with one of them is the widest label the confirm button takes
LONG_PLAYS = ["bar/22* 22/16* 16/10* 10/4*", "in/19* 19/13* 13/7* 7/1*"]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["pt", "en"])
def test_a_long_play_keeps_the_actions_in_view_on_a_small_phone(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    lang: str,
) -> None:
    """At 375 x 667 the confirm button with the longest play and the undo button share one row:
    a long play once pushed the undo button onto a row of its own, and the play list and its
    button below the window's edge."""
    tid = table(api, "backgammon", ["human", "bot:greedy"])
    page = person(lang, {"width": 375, "height": 667}, color_scheme="dark", **PHONE_BROWSER)
    page.context.add_init_script(path=LOOK)
    sit(page, live_server, api, tid, 0, "Ana")
    page.goto(f"{live_server}/tables/{tid}")
    for _ in range(20):  # the person's turn to play (a roll, a named double may come first)
        page.wait_for_function("__bg.now().act", timeout=30_000)
        now = page.evaluate("__bg.now()")
        if now["act"] == "confirm":
            break
        page.click(f"#controls [data-action='{now['act']}']")
        page.wait_for_function(f"__bg.now().seq > {now['seq']}")
    else:
        raise AssertionError("the person never had a play to make")
    look(page, "the person's play to make")
    for play in LONG_PLAYS:
        # the page's own renderer, shown a play made whole (no step left to take on the board)
        page.evaluate(
            """(play) => { const obs = aceydeucey.obs;
                obs.legal_actions = [play, ...obs.legal_actions];
                obs.play_steps = { ...(obs.play_steps || {}), [play]: [] };
                aceydeucey.refresh(); }""",
            play,
        )
        assert play in page.inner_text("#confirm")
        look(page, f"{lang}: the play {play} made")
        confirm, undo = (page.locator(sel).bounding_box() for sel in ("#confirm", "#undo"))
        assert abs(confirm["y"] - undo["y"]) < 8, (confirm, undo)  # one row
    assert page.problems == [], page.problems
