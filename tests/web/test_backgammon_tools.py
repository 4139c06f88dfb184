"""What backgammon players expect beside the board: the match as a ``.mat`` download, and a
Hint button at the tables whose creator allows hints (and nowhere else)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.test_tables import DESK, PHONE, person, table  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: classic backgammon without the cube: the person's first decision is always a play
NO_CUBE = {"variant": "classic", "cube": "none"}


def finished(api: httpx.Client, tid: str) -> None:
    for _ in range(1500):
        if api.get(f"/api/tables/{tid}").json()["status"] == "over":
            return
        time.sleep(0.05)
    raise AssertionError(f"table {tid} did not finish")


def seated(page: Any, live_server: str, api: httpx.Client, tid: str) -> str:
    """Seat 0 for the page (its cookie); the seat's token, for the API."""
    token = str(api.post(f"/api/tables/{tid}/seats/0", json={"name": "Ana"}).json()["token"])
    page.context.add_cookies([{"name": f"seat_{tid}", "value": token, "url": live_server}])
    return token


def to_play(page: Any) -> None:
    """Wait for the person's play (throwing the dice first when the throw is theirs: no
    hint is offered for a throw)."""
    page.wait_for_selector("#controls #confirm, #controls [data-action='roll']")
    if page.query_selector("#controls [data-action='roll']"):
        assert page.query_selector("#controls #hint") is None
        page.click("#controls [data-action='roll']")
    page.wait_for_selector("#controls #confirm")


def test_the_mat_download_is_offered_where_the_rules_fit_one(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    tmp_path: Path,
) -> None:
    classic = table(api, "backgammon", ["bot:greedy", "bot:greedy"], options={"variant": "classic"})
    acey = table(api, "backgammon", ["bot:greedy", "bot:greedy"])
    finished(api, classic)
    page = person("en", DESK)
    page.goto(f"{live_server}/tables/{classic}")
    page.wait_for_selector("#mat-link:not([hidden])")
    assert page.inner_text("#mat-link") == "Download the match (.mat)"
    with page.expect_download() as got:
        page.click("#mat-link")
    download = got.value
    assert download.suggested_filename == f"backgammon-{classic}.mat"
    saved = tmp_path / "match.mat"
    download.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert text.startswith(" 0 point match") and " Game 1" in text
    assert text == api.get(f"/api/tables/{classic}/record.mat").text
    # the replay of the finished table offers it too, beside the JSON record
    page.goto(f"{live_server}/tables/{classic}/replay")
    page.wait_for_selector("#downloads:not([hidden]) #mat-link:not([hidden])")
    assert page.get_attribute("#mat-link", "href") == f"/api/tables/{classic}/record.mat"
    # Acey-Deucey: no .mat holds it, and the page does not offer one
    page.goto(f"{live_server}/tables/{acey}")
    page.wait_for_function("window.aceydeucey && aceydeucey.info")
    assert page.is_hidden("#mat-link") and page.is_visible("#record-link")
    page.goto(f"{live_server}/tables/{acey}/replay")
    page.wait_for_selector("#downloads:not([hidden])")
    assert page.is_hidden("#mat-link")
    assert page.problems == [], page.problems


@pytest.mark.parametrize(
    ("lang", "size", "words"),
    [
        pytest.param(
            "en", DESK, ("Hint", "Suggested play: ", "Hints allowed", "hints allowed"), id="en"
        ),
        pytest.param(
            "pt",
            PHONE,
            ("Sugestão", "Jogada sugerida: ", "Sugestões", "sugestões permitidas"),
            id="pt",
        ),
    ],
)
def test_the_hint_button_suggests_the_best_play_at_a_hints_table(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    lang: str,
    size: Any,
    words: Any,
) -> None:
    button, said, note, badge = words
    tid = table(api, "backgammon", ["human", "bot:greedy"], options=NO_CUBE, hints=True)
    page = person(lang, size)
    # the lobby's list says so
    page.goto(f"{live_server}/")
    page.wait_for_selector(f"[data-table='{tid}'] .badge.hints")
    assert page.inner_text(f"[data-table='{tid}'] .badge.hints") == badge
    # before sitting down, the seat screen says hints are allowed at this table
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_selector("#join-hints:not([hidden])")
    assert page.inner_text("#join-hints").startswith(note)
    token = seated(page, live_server, api, tid)
    page.goto(f"{live_server}/tables/{tid}")
    to_play(page)
    assert page.inner_text("#controls #hint") == button
    page.click("#controls #hint")
    page.wait_for_selector("#hint-text")
    found = api.get(f"/api/tables/{tid}/hint", headers={"Authorization": f"Bearer {token}"}).json()
    assert found["kind"] == "play"
    shown = page.inner_text("#hint-text")
    assert shown.startswith(said) and found["action"] in shown
    if found["action"] != "pass":  # the play's points are outlined on the board
        assert page.query_selector(".bg-board [data-hint]")
    assert page.problems == [], page.problems


def test_no_hint_button_at_a_default_table(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
) -> None:
    tid = table(api, "backgammon", ["human", "bot:greedy"], options=NO_CUBE)
    page = person("en", DESK)
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_function("window.aceydeucey && aceydeucey.info")
    assert page.is_hidden("#join-hints")
    seated(page, live_server, api, tid)
    page.goto(f"{live_server}/tables/{tid}")
    to_play(page)
    assert page.query_selector("#controls #hint") is None
    assert page.query_selector(".bg-board [data-hint]") is None
    assert page.problems == [], page.problems
