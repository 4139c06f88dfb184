"""The lobby, "my games", the 404 page and every page's accessibility, in Chromium.

One browser for the module; each test opens its own context (its own cookies). The
screenshots go to the session's artifacts folder (outside the checkout).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

#: Words that belong to the code, never to a player's screen.
DEVELOPER_WORDS = re.compile(
    r"\bseed\b|SOURCES\.md|starting_chips|dealer_plays|_|(?-i:\bNone\b)|\w='|'draw'", re.IGNORECASE
)
GAMES = ("inbetween", "backgammon", "aces-in-the-pot")


@pytest.fixture
def contexts(browser: Any) -> Iterator[Callable[..., Any]]:
    opened: list[Any] = []

    def new(lang: str = "en", width: int = 1280, height: int = 800, **more: Any) -> Any:
        # the tests' string predicates are evaluated by the page: the CSP's no-eval rule is
        # checked with the policy enforced in test_csp.py
        more.setdefault("bypass_csp", True)
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale=lang, **more)
        ctx.add_cookies([{"name": "lang", "value": lang, "url": "http://127.0.0.1"}])
        opened.append(ctx)
        page = ctx.new_page()
        page.errors = []  # type: ignore[attr-defined]
        page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)  # type: ignore[attr-defined]
        page.on("pageerror", lambda e: page.errors.append(str(e)))  # type: ignore[attr-defined]
        return page

    yield new
    for ctx in opened:
        ctx.close()


def play_bot_now(page: Any, live_server: str, game: str) -> str:
    """Click the lobby's one-click button of ``game``; the new table's id."""
    page.goto(live_server + "/")
    page.click(f".quick-btn[data-game='{game}']")
    page.wait_for_url(re.compile(r".*/tables/[^/?]+(\?.*)?$"))
    return str(re.search(r"/tables/([^/?]+)", page.url).group(1))  # type: ignore[union-attr]


def test_play_a_bot_now_seats_you_against_the_best_bot_at_once(
    contexts: Callable[..., Any], live_server: str, api: httpx.Client
) -> None:
    page = contexts("pt")
    expected_bot = {"inbetween": "ev", "backgammon": "net", "aces-in-the-pot": "random"}
    for game in GAMES:
        table = play_bot_now(page, live_server, game)
        view = api.get(f"/api/tables/{table}").json()
        kinds = [s["kind"] for s in view["seats"]]
        assert kinds[0] == "human" and view["seats"][0]["taken"], view["seats"]
        assert kinds[1:] and set(kinds[1:]) == {"bot"}
        assert {s["bot"] for s in view["seats"][1:]} == {expected_bot[game]}
        # nobody is waited for: the game began with the one person seated (In-Between's bot,
        # betting first, may already have won the whole pot and ended the session)
        assert view["status"] in ("playing", "over"), view["status"]
        assert view["seats"][0]["name"] == "Jogador"
    # the seat's token is in its cookie only, never in the page's storage
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    token = cookies[f"seat_{table}"]
    stored = page.evaluate("JSON.stringify(Object.assign({}, localStorage))")
    assert token not in stored
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_new_table_seats_you_and_bots_whatever_the_player_count(
    contexts: Callable[..., Any], live_server: str
) -> None:
    page = contexts("en")
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.click("#options-box summary")
    page.fill("#opt-players", "3")
    page.dispatch_event("#opt-players", "change")
    kinds = page.eval_on_selector_all("#seats .seat-kind", "els => els.map(e => e.value)")
    assert kinds == ["human", "bot", "bot"]
    page.fill("#opt-players", "5")
    page.dispatch_event("#opt-players", "change")
    kinds = page.eval_on_selector_all("#seats .seat-kind", "els => els.map(e => e.value)")
    assert kinds == ["human", "bot", "bot", "bot", "bot"]


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_options_speak_the_players_language_and_errors_sit_at_their_field(
    contexts: Callable[..., Any], live_server: str, lang: str
) -> None:
    page = contexts(lang)
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.click("#options-box summary")
    for game in GAMES:
        page.check(f"input[name=game][value={game}]")
        text = page.inner_text("main")
        assert not DEVELOPER_WORDS.search(text), DEVELOPER_WORDS.findall(text)
        for select in page.query_selector_all("#preset option, #options option"):
            assert not DEVELOPER_WORDS.search(select.inner_text()), select.inner_text()
    page.check("input[name=game][value=inbetween]")
    page.fill("#opt-starting_chips", "-5")
    page.click("#create-btn")
    error = page.wait_for_selector("#opt-starting_chips-error:not([hidden])")
    words = {"en": "at least 1", "pt": "pelo menos 1"}[lang]
    assert words in error.inner_text()
    assert page.get_attribute("#opt-starting_chips", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "opt-starting_chips"
    # a contradiction the server finds is shown at both options, named as players know them
    page.fill("#opt-starting_chips", "")
    page.select_option("#opt-banking", '"shared"')
    page.select_option("#opt-deal", '"common"')
    page.click("#create-btn")
    page.wait_for_selector("#opt-deal-error:not([hidden])")
    message = page.inner_text("#opt-banking-error")
    assert {"en": "Who banks", "pt": "Quem faz a banca"}[lang] in message
    assert "banking" not in message and "common" not in message and "=" not in message
    # the refusal's params.options mark both fields, each with the server's words
    for field in ("#opt-banking", "#opt-deal"):
        assert page.get_attribute(field, "aria-invalid") == "true"
    assert page.inner_text("#opt-deal-error") == message
    assert "/tables/" not in page.url


def test_the_lobby_shows_who_sits_how_long_ago_and_filters_by_game(
    contexts: Callable[..., Any], live_server: str, api: httpx.Client
) -> None:
    made = api.post(
        "/api/tables",
        json={"game": "backgammon", "seats": ["human", "human"]},
    ).json()
    api.post(f"/api/tables/{made['id']}/seats/0", json={"name": "Zé"})
    page = contexts("pt")
    page.goto(live_server + "/")
    row = page.wait_for_selector(f"li.table-row[data-table='{made['id']}']")
    text = row.inner_text()
    assert "Zé" in text and "lugar livre" in text and "agora mesmo" in text
    assert "0 a assistir" in text
    page.wait_for_selector("#filter option[value=inbetween]", state="attached")
    page.select_option("#filter", "inbetween")
    assert page.query_selector(f"li.table-row[data-table='{made['id']}']") is None
    page.select_option("#filter", "backgammon")
    assert page.query_selector(f"li.table-row[data-table='{made['id']}']") is not None


def test_my_games_lists_a_finished_game_that_replays_without_a_file(
    contexts: Callable[..., Any], live_server: str
) -> None:
    page = contexts("en")
    table = play_bot_now(page, live_server, "backgammon")
    status = page.evaluate(
        "async (id) => (await fetch(`/api/tables/${id}/resign`, {method: 'POST'})).status", table
    )
    assert status == 200
    page.goto(live_server + "/my-games")
    row = page.wait_for_selector(f"li.my-game[data-table='{table}']")
    assert "Lost" in row.inner_text() and "Player (you, seat 1)" in row.inner_text()
    record = row.query_selector("a[download]")
    assert record is not None and record.get_attribute("href") == f"/api/tables/{table}/record"
    row.query_selector(f"a[href='/replay?table={table}']").click()  # type: ignore[union-attr]
    page.wait_for_selector("#viewer:not([hidden])")
    assert page.is_hidden("#upload")
    # another browser has no seat there: its list is empty
    other = contexts("en")
    other.goto(live_server + "/my-games")
    assert other.query_selector(f"li.my-game[data-table='{table}']") is None


def test_an_unknown_address_gives_a_page_and_the_api_keeps_json(
    contexts: Callable[..., Any], live_server: str, api: httpx.Client
) -> None:
    page = contexts("pt")
    response = page.goto(live_server + "/no/such/page")
    assert response.status == 404
    assert page.inner_text("h1") == "Página não encontrada"
    assert page.query_selector("a[href='/']") is not None
    assert api.get("/api/no-such").json()["error"]["code"] == "server.not_found"


def test_the_theme_follows_the_system_and_the_toggle_is_remembered(
    contexts: Callable[..., Any], live_server: str
) -> None:
    page = contexts("en", color_scheme="dark")
    page.goto(live_server + "/rules/inbetween")
    assert page.get_attribute("html", "data-theme") == "dark"
    page.click("#theme-toggle")
    assert page.get_attribute("html", "data-theme") == "light"
    assert page.get_attribute("#theme-toggle", "aria-pressed") == "false"
    page.goto(live_server + "/")
    assert page.get_attribute("html", "data-theme") == "light"


def test_every_page_passes_axe_in_both_themes_and_fits_phone_and_desktop(
    contexts: Callable[..., Any], live_server: str, api: httpx.Client, artifacts: Path
) -> None:
    """axe-core (shipped inside axe-playwright-python, run from a local file) finds no
    serious or critical violation on any page; screenshots at 375 px and 1280 px."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    seats: dict[str, str] = {}
    setup = contexts("en")
    for game in GAMES:
        seats[game] = play_bot_now(setup, live_server, game)
    paths = {
        "lobby": "/",
        **{f"table-{g}": f"/tables/{seats[g]}" for g in GAMES},
        "replay": f"/replay?table={seats['backgammon']}",
        "replay-upload": "/replay",
        "rules": "/rules/inbetween?preset=red-dog",
        "my-games": "/my-games",
        "not-found": "/nowhere",
    }
    problems: list[str] = []
    for lang, width, scheme in (("en", 1280, "light"), ("pt", 375, "dark")):
        page = contexts(lang, width=width, height=800, color_scheme=scheme)
        page.context.add_cookies(setup.context.cookies())
        for name, path in paths.items():
            page.goto(live_server + path)
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(300)
            page.screenshot(path=str(artifacts / f"a11y-{name}-{lang}-{width}-{scheme}.png"))
            title = page.title()
            assert "Acey-Deucey" in title, (name, title)
            found = axe.run(page).response["violations"]
            for v in found:
                if v["impact"] in ("serious", "critical"):
                    targets = [n["target"] for n in v["nodes"]][:3]
                    problems.append(f"{name} {lang} {scheme}: {v['id']} {targets}")
            overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            assert overflow <= 0, (name, width, overflow)
        # the one expected console line: the browser reporting the 404 page's own status
        errors = [e for e in page.errors if "status of 404" not in e]  # type: ignore[attr-defined]
        assert errors == []
    assert problems == []


def test_a_seat_option_counts_seats_from_one_and_follows_the_player_count(
    contexts: Callable[..., Any], live_server: str, api: httpx.Client
) -> None:
    page = contexts("en")
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.click("#options-box summary")
    page.fill("#opt-players", "3")
    page.dispatch_event("#opt-players", "change")
    shown = page.eval_on_selector_all("#opt-dealer option", "els => els.map(e => e.textContent)")
    assert shown == ["preset (Seat 1)", "Seat 1", "Seat 2", "Seat 3", "Highest card deals"]
    page.select_option("#opt-dealer", label="Seat 3")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/tables/"))
    table = re.search(r"/tables/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    assert api.get(f"/api/tables/{table}").json()["rules"]["dealer"] == 2
