"""The pages in a real browser (Debian's Chromium) against a real server.

Each test drives the pages the way a player does (clicks, typing, two browser
contexts for two people) and saves a screenshot of what it saw under ``artifacts``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from aceydeucey.locale import catalog
from tests.web.clicking import click_if_there

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PHONE = {"width": 375, "height": 800}
DESK = {"width": 1200, "height": 900}


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    made: list[Any] = []

    def new(lang: str = "en", viewport: dict[str, int] = DESK) -> Any:
        # the tests' own string predicates are evaluated in the page, which its CSP
        # forbids; test_csp.py drives the pages under their policy
        ctx = browser.new_context(
            viewport=viewport,
            locale=lang,
            extra_http_headers={"Accept-Language": lang},
            bypass_csp=True,
        )
        ctx.set_default_timeout(15_000)
        # the fast pace: the pages still show every state, for less time
        ctx.add_init_script("try { localStorage.setItem('pace', 'fast'); } catch {}")
        made.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        return page

    yield new
    for ctx in made:
        ctx.close()


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{page.url} scrolls sideways ({width} px)"


def over(page: Any) -> bool:
    return bool(page.evaluate("!document.getElementById('after').hidden"))


def create_table(api: httpx.Client, game: str, seats: list[str], **options: Any) -> str:
    made = api.post("/api/tables", json={"game": game, "options": options, "seats": seats})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def sit(page: Any, live_server: str, api: httpx.Client, table: str, seat: int, name: str) -> None:
    token = api.post(f"/api/tables/{table}/seats/{seat}", json={"name": name}).json()["token"]
    page.context.add_cookies([{"name": f"seat_{table}", "value": token, "url": live_server}])


def board_and_observation(page: Any) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Where the backgammon board draws checkers, and where the observation it drew puts them.

    Both are read at one moment (the bot may move right after): place -> [side, count], a
    place being a point, ``bar`` (the seat's own) or ``bar-opp``; stacks show 5 at most.
    """
    drawn, seen = page.evaluate(
        """() => {
          const drawn = {};
          for (const c of document.querySelectorAll('.bg-board circle[data-at]')) {
            const at = drawn[c.dataset.at] = drawn[c.dataset.at] || [c.dataset.side, 0];
            at[1] += 1;
          }
          return [drawn, aceydeucey.obs];
        }"""
    )
    own, opp = ("dark", "light") if seen["seat"] == 1 else ("light", "dark")
    expected = {
        str(p): [own if n > 0 else opp, min(abs(n), 5)]
        for p, n in enumerate(seen["points"], start=1)
        if n
    }
    if seen["bar"][0]:
        expected["bar"] = [own, min(seen["bar"][0], 5)]
    if seen["bar"][1]:
        expected["bar-opp"] = [opp, min(seen["bar"][1], 5)]
    return drawn, expected


@pytest.mark.slow
def test_inbetween_guide_session_two_people_and_a_bot(
    contexts: Any, live_server: str, artifacts: Path
) -> None:
    ana = contexts("en")
    ana.goto(live_server + "/")
    ana.wait_for_selector("#seats select")
    ana.fill("#nick", "Ana")
    ana.check("input[name=game][value=inbetween]")
    ana.select_option("#preset", "guide")
    ana.click("#options-box summary")
    ana.fill("#opt-players", "3")
    ana.dispatch_event("#opt-players", "change")
    assert ana.locator("#seats .seat-row").count() == 3
    ana.select_option("#seat-1", "human")
    ana.select_option("#seat-2", "bot")
    ana.select_option("#seat-bot-2", "ev")
    ana.screenshot(path=artifacts / "lobby-form.png", full_page=True)
    ana.click("#create-btn")
    ana.wait_for_url("**/tables/*")
    ana.wait_for_selector("#board .cards")
    invite = ana.input_value("#table-invite")
    assert "/tables/" in invite

    bea = contexts("pt")
    bea.goto(invite)
    bea.wait_for_selector("#join:not([hidden]) [data-seat]")
    bea.fill("#join-nick", "Bea")
    seats_offered = bea.eval_on_selector_all(
        "#join-seats [data-seat]", "els => els.map(e => e.dataset.seat)"
    )
    assert seats_offered == ["1"], "only the free human seat is offered"
    bea.click("#join-seats [data-seat='1']")
    bea.wait_for_selector("#join[hidden]", state="attached")
    # Ana sees Bea at the table; every balance is shown
    ana.wait_for_function(
        "document.querySelectorAll('#seat-list li')[1].textContent.includes('Bea')"
    )
    assert len(ana.query_selector_all(".ib-seat [data-chips]")) == 3

    # the coach shows the exact odds the server works out, for every legal action
    ana.wait_for_function(
        "document.querySelector('#controls [data-action]') || aceydeucey.obs.current_player !== 0"
    )
    first = ana if ana.query_selector("#controls [data-action]") else bea
    first.wait_for_selector("#controls [data-action]")
    first.check("#coach")
    first.wait_for_selector(".coach table")
    legal = first.evaluate("aceydeucey.obs.legal_actions")
    coached = first.eval_on_selector_all(
        ".coach td:last-child", "els => els.map(e => e.textContent)"
    )
    assert len(coached) == len(legal)
    assert all("/" in v or v.lstrip("-").isdigit() for v in coached), coached
    assert "/" in first.inner_text(".coach p")  # inside / post / outside as fractions
    if any(a.startswith("bet ") for a in legal):  # a stake: the best one and Kelly's
        assert "Kelly" in first.inner_text(".coach .coach-advice")
    first.screenshot(path=artifacts / "inbetween-coach.png", full_page=True)

    # a short chat, seen by the other player
    ana.fill("#chat-text", "good luck!")
    ana.click("#chat-form button")
    bea.wait_for_function("document.getElementById('chat').textContent.includes('good luck!')")
    assert "Ana" in bea.inner_text("#chat")
    # the fairness commitment is published before any card; suits are in colour
    assert re.fullmatch(r"[0-9a-f]{64}", ana.inner_text("#commitment").strip())
    for card in ana.query_selector_all("#board svg[data-card]"):
        suit = card.get_attribute("data-card")[-1]
        colour = card.eval_on_selector("g", "g => g.getAttribute('fill')")
        assert (colour == "#c0262d") == (suit in "HD"), (suit, colour)

    bet_once = {"ana": False, "bea": False}
    for _ in range(400):
        if over(ana) and over(bea):
            break
        acted = False
        for who, page in (("ana", ana), ("bea", bea)):
            buttons = page.query_selector_all("#controls [data-action]")
            if not buttons:
                continue
            actions = [b.get_attribute("data-action") for b in buttons]
            if not bet_once[who] and "bet" in actions:
                seq = page.evaluate("aceydeucey.seq")
                page.click("#controls [data-action=bet]")
                bet_once[who] = True
                page.wait_for_function(f"window.aceydeucey && aceydeucey.seq > {seq}")
            elif "pass" in actions:
                if not click_if_there(page, "#controls [data-action=pass]"):
                    continue  # the state moved on under the click: look again
            elif not click_if_there(page, buttons[0]):
                continue
            acted = True
            page.wait_for_timeout(50)
        if not acted:
            ana.wait_for_timeout(100)
    ana.wait_for_function("!document.getElementById('after').hidden")
    bea.wait_for_function("!document.getElementById('after').hidden")
    assert any(bet_once.values()), "somebody made a bet"
    shown = ana.eval_on_selector_all(
        ".ib-seat [data-chips]", "els => els.map(e => +e.dataset.chips)"
    )
    assert sum(shown) + int(ana.get_attribute("[data-pot]", "data-pot")) == 300, "no chip lost"
    for page in (ana, bea):
        assert page.locator("#log li").count() > 3
        assert page.inner_text("#result").strip()
        page.wait_for_selector("#seed-row:not([hidden])")
        assert len(page.inner_text("#seed").strip()) >= 32
        assert page.errors == []
    assert "Fim do jogo" in bea.inner_text("#turn")
    ana.screenshot(path=artifacts / "inbetween-ana.png", full_page=True)
    bea.screenshot(path=artifacts / "inbetween-bea-pt.png", full_page=True)
    with ana.expect_download() as got:
        ana.click("#record-link")
    record = json.loads(Path(got.value.path()).read_text())
    assert record["game"] == "inbetween" and record["players"][:2] == ["Ana", "Bea"]
    assert record["fairness"]["server_seed"]
    # a rematch: both land at the same new table, each in their own seat
    old = ana.url
    ana.click("#rematch")
    ana.wait_for_function(f"location.href !== {json.dumps(old)} && window.aceydeucey?.info")
    bea.click("#rematch")
    bea.wait_for_function(f"location.href !== {json.dumps(old)} && window.aceydeucey?.info")
    assert ana.url.split("?")[0] == bea.url.split("?")[0]
    ana.wait_for_function("window.aceydeucey && aceydeucey.me && aceydeucey.me.seat === 0")
    bea.wait_for_function("window.aceydeucey && aceydeucey.me && aceydeucey.me.seat === 1")


@pytest.mark.slow
def test_backgammon_moves_by_click_undo_confirm_then_resign(
    contexts: Any, live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    table = create_table(api, "backgammon", ["human", "bot:greedy"])
    page = contexts("en")
    sit(page, live_server, api, table, 0, "Ana")
    page.goto(f"{live_server}/tables/{table}")
    played: list[str] = []
    rolls = 0
    for _ in range(12):  # the person's two plays, with the rolls and any named double around them
        if len(played) == 2:
            break
        page.wait_for_function(
            "document.querySelector('#controls #confirm')"
            " || document.querySelector('#controls [data-action]')"
        )
        seq = page.evaluate("aceydeucey.seq")
        if page.query_selector("#controls [data-action=roll]"):
            # the person throws their own dice: no play is offered before the roll
            assert not page.query_selector("#controls #confirm")
            assert page.evaluate("aceydeucey.info.to_roll") == 0
            # a re-render (each message brings one) keeps the unchanged button under the pointer
            kept = page.evaluate(
                """() => {
                  const before = document.querySelector('#controls [data-action=roll]');
                  aceydeucey.refresh();
                  return before === document.querySelector('#controls [data-action=roll]')
                    && before.isConnected;
                }"""
            )
            assert kept, "re-rendering replaced an unchanged Roll button"
            page.click("#controls [data-action=roll]")
            page.wait_for_function(f"window.aceydeucey && aceydeucey.seq > {seq}")
            rolls += 1
            continue
        if page.query_selector("#controls [data-action^='double']"):
            page.click("#controls [data-action^='double']:not([disabled])")
            page.wait_for_function(f"window.aceydeucey && aceydeucey.seq > {seq}")
            continue
        if not page.query_selector("#controls #confirm"):  # no play at all: the pass
            page.click("#controls [data-action]")
            page.wait_for_function(f"window.aceydeucey && aceydeucey.seq > {seq}")
            continue
        assert rolls, "the dice were thrown by the person before the first play"
        assert page.evaluate("aceydeucey.obs.dice.length") >= 2
        turn = len(played)
        legal = page.evaluate("aceydeucey.obs.legal_actions")
        # click a movable checker, then one of the highlighted targets: only legal steps are offered
        steps = 0
        if turn == 1:  # drag a checker onto a highlighted point
            box = page.locator(".bg-board [data-from]").first.bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.down()
            target = page.locator(".bg-board [data-target]").first.bounding_box()
            page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
            page.mouse.up()
            page.wait_for_function("!document.querySelector('#undo').disabled")
            steps += 1
        while page.query_selector("#confirm[disabled]"):
            page.click(".bg-board [data-from]")
            targets = page.query_selector_all(".bg-board [data-target]")
            assert targets, "a selected checker shows where it may go"
            targets[0].click()
            steps += 1
            assert steps <= 4
        if turn == 0:
            page.click("#undo")
            assert page.query_selector("#confirm[disabled]")
            page.click(".bg-board [data-from]")
            page.click(".bg-board [data-target]")
            while page.query_selector("#confirm[disabled]"):
                page.click(".bg-board [data-from]")
                page.click(".bg-board [data-target]")
        if turn == 1:  # and the keyboard: undo the last step, make it again with Enter
            page.click("#undo")
            page.focus(".bg-board [data-from]")
            page.keyboard.press("Enter")
            page.wait_for_selector(".bg-board [data-target]:focus")
            page.keyboard.press("Enter")
            page.wait_for_function("!document.querySelector('#undo').disabled")
            while page.query_selector("#confirm[disabled]"):
                page.click(".bg-board [data-from]")
                page.click(".bg-board [data-target]")
        label = page.inner_text("#confirm")
        assert any(play in label for play in legal), (label, legal)
        played.append(next(play for play in legal if play in label))
        page.click("#confirm")
        page.wait_for_function(f"window.aceydeucey && aceydeucey.seq > {seq}")
        # the board drawn is the server's position: every checker on its point, the bar's too
        drawn, expected = board_and_observation(page)
        assert drawn == expected
        page.screenshot(path=artifacts / f"backgammon-turn-{turn}.png", full_page=True)
    assert len(played) == 2, played
    for play in played:  # the log tells every play, the bot's replies in between too
        page.wait_for_function(
            f"document.getElementById('log').textContent.includes({json.dumps(play)})"
        )
    page.once("dialog", lambda d: d.accept())
    page.click("#resign")
    page.wait_for_function("!document.getElementById('after').hidden")
    result = page.inner_text("#result")
    assert "Ana resigned" in result and "Won: Bot 2" in result, result
    assert page.locator("#log li").count() >= 2
    assert page.errors == []
    page.screenshot(path=artifacts / "backgammon-resigned.png", full_page=True)


@pytest.mark.slow
def test_backgammon_bot_against_bot_watched_to_the_end(
    contexts: Any, live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    table = create_table(api, "backgammon", ["bot:greedy", "bot:random"])
    page = contexts("pt")
    page.goto(f"{live_server}/tables/{table}")
    page.wait_for_function("!document.getElementById('after').hidden", timeout=60_000)
    assert page.query_selector(".bg-board")
    assert page.inner_text("#turn") == "Fim do jogo"
    assert "pontos: um por cada peça que o vencido não tirou" in page.inner_text("#result")
    assert (
        page.query_selector("#join[hidden]") is not None
        or page.query_selector("#join-seats [data-seat]") is None
    )
    page.wait_for_selector("#seed-row:not([hidden])")
    assert page.errors == []
    page.screenshot(path=artifacts / "backgammon-bots-pt.png", full_page=True)


@pytest.mark.slow
def test_aces_in_the_pot_game(
    contexts: Any, live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    table = create_table(api, "aces-in-the-pot", ["human", "bot", "bot"], players=3)
    page = contexts("en")
    sit(page, live_server, api, table, 0, "Ana")
    page.goto(f"{live_server}/tables/{table}")
    page.wait_for_selector("#board .dice-row")
    for _ in range(300):
        if over(page):
            break
        roll = page.query_selector("#controls [data-action=roll]")
        if roll:
            seq = page.evaluate("aceydeucey.seq")
            roll.click()
            page.wait_for_function(
                f"aceydeucey.seq > {seq} || !document.getElementById('after').hidden"
            )
        else:
            page.wait_for_timeout(100)
    page.wait_for_function("!document.getElementById('after').hidden")
    chips = [
        int(x)
        for x in page.eval_on_selector_all("[data-chips]", "els => els.map(e => e.dataset.chips)")
    ]
    pot = int(page.get_attribute("[data-pot]", "data-pot"))
    assert sum(chips) + pot == 3 * 2, "chips are conserved"
    told = [
        e
        for e in api.get(f"/api/tables/{table}/events").json()["events"]
        if e["event"] or e["action"]
    ]
    assert (page.locator("#log li").count() > 0) == bool(told), "every told event is in the log"
    assert page.errors == []
    page.screenshot(path=artifacts / "aces.png", full_page=True)


@pytest.mark.slow
def test_language_switch(contexts: Any, live_server: str, artifacts: Path) -> None:
    page = contexts("pt")
    page.goto(live_server + "/")
    assert page.inner_text("h1") == "Joguem juntos, online"
    assert page.get_attribute("html", "lang") == "pt-PT"
    page.wait_for_selector("#seats select")
    assert "Pessoa" in page.inner_text("#seats")
    page.click(".langs [data-lang=en]")
    page.wait_for_load_state()
    assert page.inner_text("h1") == "Play together, online"
    page.wait_for_selector("#seats select")
    assert "Person" in page.inner_text("#seats")
    # the choice sticks (a cookie) on every page, the rules sheet included
    page.goto(live_server + "/rules/inbetween?preset=guide")
    english = page.inner_text(".sheet")
    page.click(".langs [data-lang=pt]")
    page.wait_for_load_state()
    portuguese = page.inner_text(".sheet")
    assert portuguese != english and "Regras" in page.inner_text("nav")
    page.goto(live_server + "/replay")
    assert "Abrir um ficheiro de registo" in page.text_content("main")
    page.screenshot(path=artifacts / "replay-upload-pt.png", full_page=True)


def finished_table(api: httpx.Client) -> str:
    import time

    table = create_table(api, "aces-in-the-pot", ["bot", "bot", "bot"], players=3)
    for _ in range(200):
        if api.get(f"/api/tables/{table}").json()["status"] == "over":
            return table
        time.sleep(0.05)
    raise AssertionError("the bots' game did not end")


@pytest.mark.slow
def test_replay_viewer_steps_back_and_forth(
    contexts: Any, live_server: str, api: httpx.Client, artifacts: Path, tmp_path: Path
) -> None:
    table = finished_table(api)
    record = api.get(f"/api/tables/{table}/record").json()
    page = contexts("en")
    page.goto(f"{live_server}/tables/{table}/replay")
    page.wait_for_selector("#viewer:not([hidden])")
    last = len(record["actions"])
    assert page.inner_text("#step-no") == f"0 / {last}"
    assert page.is_disabled("#prev")
    board0 = page.inner_html("#board")
    page.click("#next")
    page.click("#next")
    assert page.inner_text("#step-no") == f"2 / {last}"
    # the step in words; the record's notation (English code words) is not on the page
    said = page.inner_text("#step-action")
    assert said and said != record["actions"][1]
    assert not said.startswith(record["actions"][1] + " — ")
    assert page.get_attribute("#step-action", "title") is None
    page.click("#prev")
    assert page.inner_text("#step-no") == f"1 / {last}"
    page.click("#last")
    assert page.inner_text("#step-no") == f"{last} / {last}"
    assert page.is_disabled("#next")
    steps = api.post("/replay/steps", json=record).json()["steps"]
    assert len(steps) == last + 1
    if "chips" in steps[-1]["observation"]:  # the game gives spectators a view (issue 7)
        assert page.inner_html("#board") != board0
    assert page.inner_text("#seed") == record["fairness"]["server_seed"]
    assert "matches the server's revealed secret" in page.inner_text("#verified")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#step-no") == f"{last - 1} / {last}"
    page.click("#first")
    assert page.inner_html("#board") == board0
    assert page.locator("#moves li").count() == last  # every step listed, any one a click away
    page.click("#moves li[data-step='3'] a")
    assert page.inner_text("#step-no") == f"3 / {last}"
    assert page.get_attribute("#moves li.here", "data-step") == "3"
    page.screenshot(path=artifacts / "replay.png", full_page=True)
    # an uploaded record file replays the same way; a broken one says why
    good = tmp_path / "game.json"
    good.write_text(json.dumps(record))
    page.goto(f"{live_server}/replay")
    page.set_input_files("#record-file", str(good))
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.inner_text("#step-no") == f"0 / {last}"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "actions": [*record["actions"][:3], "nonsense"]}))
    page.set_input_files("#record-file", str(bad))
    page.wait_for_selector("#page-error:not([hidden])")
    assert "nonsense" in page.inner_text("#page-error")
    assert page.errors == []


@pytest.mark.slow
def test_every_page_fits_a_phone(
    contexts: Any, live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    ib = create_table(api, "inbetween", ["human", "bot:ev", "bot:ev"], preset="guide", players=3)
    bg = create_table(api, "backgammon", ["human", "bot:greedy"])
    aces = create_table(api, "aces-in-the-pot", ["human", "bot", "bot"], players=3)
    done = finished_table(api)
    for lang in ("en", "pt"):
        page = contexts(lang, PHONE)
        if lang == "en":  # a seated player's view, and a spectator's in Portuguese
            sit(page, live_server, api, ib, 0, "Ana")
        pages = {
            "lobby": ("/", "#seats select"),
            "inbetween": (f"/tables/{ib}", "#board .cards"),
            "backgammon": (f"/tables/{bg}", ".bg-board"),
            "aces": (f"/tables/{aces}", "#board .dice-row"),
            "replay": (f"/tables/{done}/replay", "#viewer:not([hidden])"),
            "upload": ("/replay", "#record-file"),
            "rules-inbetween": ("/rules/inbetween", ".sheet-section"),
            "rules-backgammon": ("/rules/backgammon", ".sheet-section"),
            "rules-aces": ("/rules/aces-in-the-pot", ".sheet-section"),
        }
        for name, (path, ready) in pages.items():
            page.goto(live_server + path)
            page.wait_for_selector(ready)
            page.wait_for_timeout(150)
            no_horizontal_scroll(page)
            page.screenshot(path=artifacts / f"phone-{lang}-{name}.png", full_page=True)
        assert page.errors == []


@pytest.mark.slow
def test_lobby_form_has_every_option_and_refuses_a_contradiction(
    contexts: Any, live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    page = contexts("en")
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.check("input[name=game][value=backgammon]")
    page.click("#options-box summary")
    games = {g["id"]: g for g in api.get("/api/games").json()["games"]}
    options = [o for o in games["backgammon"]["options"] if not o["preset_key"]]
    shown = page.eval_on_selector_all("#options .opt-name", "els => els.map(e => e.textContent)")
    words = catalog("web", "en")
    assert shown == [words[f"option.backgammon.{o['name']}"] for o in options], "every option"
    text = page.inner_text("#options")
    for o in options:
        help_line = words.get(f"help.backgammon.{o['name']}", o["help"])
        assert help_line in text and (not o["source"] or o["source"] not in text)
    kinds = page.eval_on_selector_all("#seats .seat-kind", "els => els.map(e => e.value)")
    assert kinds == ["human", "bot"], "a two-seat game offers a person against a bot"
    page.select_option("#preset", "dutch")
    assert page.get_attribute("#preset-rules", "href") == "/rules/backgammon?preset=dutch"
    page.select_option("#preset", "acey-deucey")
    page.uncheck("#opt-acey_deucey")
    page.select_option("#opt-acey_doubles_choice", json.dumps("rolled"))
    page.click("#create-btn")
    page.wait_for_selector("#opt-acey_doubles_choice-error:not([hidden])")
    assert "Double after a 1-2" in page.inner_text("#opt-acey_doubles_choice-error")
    assert "acey_doubles_choice" not in page.inner_text("main")
    assert "/tables/" not in page.url
    page.screenshot(path=artifacts / "lobby-refused.png", full_page=True)


def test_claim_the_game_from_an_absent_opponent(
    contexts: Any, live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    made = api.post(
        "/api/tables",
        json={"game": "backgammon", "options": {}, "seats": ["human", "human"], "claim_after": 0},
    )
    table = made.json()["id"]
    api.post(f"/api/tables/{table}/seats/1", json={"name": "Bea"})  # Bea never opens the page
    page = contexts("en")
    sit(page, live_server, api, table, 0, "Ana")
    page.goto(f"{live_server}/tables/{table}")
    page.wait_for_selector("#claim:not([hidden])")
    assert "Bea is away" in page.inner_text("#claim")
    page.click("#claim")
    page.wait_for_function("!document.getElementById('after').hidden")
    assert "Ana claimed the game" in page.inner_text("#result")
    assert page.errors == []


def test_an_unknown_table_says_so_in_the_readers_language(contexts: Any, live_server: str) -> None:
    page = contexts("pt")
    page.goto(f"{live_server}/tables/nosuchtable")
    page.wait_for_selector("#page-error:not([hidden])")
    assert page.is_hidden("#table-grid")
    assert page.is_visible("#lost a")
    assert "nosuchtable" in page.inner_text("#page-error")


@pytest.mark.slow
def test_a_private_table_is_found_only_by_its_invite(
    contexts: Any, live_server: str, api: httpx.Client
) -> None:
    page = contexts("en")
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.fill("#nick", "Ana")
    page.check("input[name=game][value=backgammon]")
    page.select_option("#seat-1", "human")
    page.uncheck("#public")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector(".bg-board")
    table = page.evaluate("aceydeucey.tableId")
    assert table not in {t["id"] for t in api.get("/api/tables").json()["tables"]}
    invite = page.input_value("#table-invite")
    friend = contexts("pt")
    friend.goto(invite)
    friend.wait_for_selector("#join:not([hidden]) [data-seat='1']")
    assert friend.text_content("#join h2") == "Escolha um lugar, ou assista"


@pytest.mark.slow
def test_a_reload_or_another_device_restores_the_seat(
    contexts: Any, live_server: str, api: httpx.Client
) -> None:
    table = create_table(api, "backgammon", ["human", "bot:greedy"])
    page = contexts("en")
    token = api.post(f"/api/tables/{table}/seats/0", json={"name": "Ana"}).json()["token"]
    page.goto(f"{live_server}/tables/{table}#token={token}")  # the seat's link
    page.wait_for_function("window.aceydeucey && aceydeucey.me && aceydeucey.me.seat === 0")
    link = page.input_value("#seat-link")
    assert "#token" not in page.url
    page.reload()  # the server's HttpOnly cookie holds the seat; no script can read it
    page.wait_for_function("window.aceydeucey && aceydeucey.me && aceydeucey.me.seat === 0")
    assert "seat_" not in page.evaluate("document.cookie")
    assert page.evaluate("JSON.stringify(localStorage)").find(token) < 0
    other = contexts("en")  # a second device: no cookie, only the seat's link
    other.goto(link)
    other.wait_for_function("window.aceydeucey && aceydeucey.me && aceydeucey.me.seat === 0")
    assert "#token" not in other.url
    assert other.is_hidden("#join")
    stranger = contexts("en")
    stranger.goto(f"{live_server}/tables/{table}#token=not-a-real-token")
    stranger.wait_for_function("window.aceydeucey && aceydeucey.info && !aceydeucey.me")


@pytest.mark.slow
def test_a_turn_timer_set_in_the_lobby_counts_down_at_the_table(
    contexts: Any, live_server: str, api: httpx.Client
) -> None:
    page = contexts("en")
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.fill("#nick", "Ana")
    page.check("input[name=game][value=backgammon]")
    page.click("#table-box summary")
    page.fill("#turn-seconds", "120")
    page.select_option("#on-timeout", "bot")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    page.wait_for_function("window.aceydeucey && aceydeucey.tableId")  # the module has started
    table = page.evaluate("aceydeucey.tableId")
    view = api.get(f"/api/tables/{table}").json()
    assert view["turn_seconds"] == 120 and view["on_timeout"] == "bot"
    page.wait_for_selector("#timer:not([hidden])")
    assert re.fullmatch(r"You · [0-2]:\d\d", page.inner_text("#timer"))
    minutes, seconds = page.inner_text("#timer").split(" · ")[1].split(":")
    assert 0 < 60 * int(minutes) + int(seconds) <= 120


@pytest.mark.slow
def test_face_down_cards_stay_off_every_other_screen(
    contexts: Any, live_server: str, api: httpx.Client
) -> None:
    me = contexts("en")
    # The two bots act first; a bot may empty the pot and end the session before Ana acts
    # (the deal is fair, so that is chance, not a bug): then a new table is dealt.
    for _ in range(8):
        table = create_table(
            api,
            "inbetween",
            ["human", "bot:ev", "bot:ev"],
            preset="guide",
            players=3,
            hidden=True,
            deal="both-around",
        )
        sit(me, live_server, api, table, 0, "Ana")
        me.goto(f"{live_server}/tables/{table}")
        me.wait_for_selector("#controls [data-action], #after:not([hidden])")
        if me.query_selector("#controls [data-action]"):
            break
    else:
        raise AssertionError("eight sessions in a row ended before Ana's turn")
    mine = me.evaluate("aceydeucey.obs.hidden_hand")
    assert len(mine) == 2
    shown = me.eval_on_selector_all("#board svg[data-card]", "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(mine)
    assert "only you see it" in me.inner_text("#board")
    watcher = contexts("en")
    watcher.goto(f"{live_server}/tables/{table}")
    watcher.wait_for_function("window.aceydeucey && aceydeucey.obs")
    html = watcher.content()
    seen = json.dumps(watcher.evaluate("aceydeucey.obs"))
    for card in mine:
        assert f'data-card="{card}"' not in html
        assert f'"{card}"' not in seen
