"""A 5-point match with the doubling cube against a bot, made in the lobby and played to
the end through the pages only.

The person makes the table in the lobby's form (classic backgammon, the cube for a
match, 5 points, the ``net2`` bot, the strongest, which doubles, takes and passes by its
own estimates)
and plays every turn on the page: the first two on the board, then the play the ``net``
bot would make, chosen in the page's list of plays, so that the games are close.  The
person doubles at each game's first chance; the bot's doubles are passed (the pass
confirmed) but for the first one after the first game, which is taken, so that the match
lasts more than one game.  After each game the score line above the board says the
score the server holds and the game just finished; after a take the cube shows its new
value on the taker's side; the end screen names the match's winner with the final score
and each game's result; the table's record replays and verifies with ``aceydeucey
verify``, and its replay shows the analysis (the equity graph, each player's error rate,
the marks in the moves list).  Screenshots go to ``artifacts``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import aceydeucey
from aceydeucey.backgammon.bots import NetBot
from tests.web.clicking import click_if_there
from tests.web.test_backgammon_page import LOOK, PHONE_BROWSER, Player, look
from tests.web.test_tables import DESK, PHONE, person  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SCORE = {"en": "{a} {x} – {y} {b}, match to {n}", "pt": "{a} {x} – {y} {b}, partida a {n}"}
#: each seat's name as the page shows it (the seat list's first words)
#: an action that is not a cube decision (one may appear between two looks at the page)
PLAIN = "#controls [data-action]:not([disabled]):not([data-action=take]):not([data-action=double])"
PLAYS = "[...document.querySelectorAll('#play-list option')].map((o) => o.value)"
NAMES = "[...document.querySelectorAll('#seat-list li .who')].map((n) => n.firstChild.textContent)"


def make_match_in_the_lobby(page: Any, live_server: str, nick: str) -> str:
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.fill("#nick", nick)
    page.check("input[name=game][value=backgammon]")
    page.select_option("#preset", "classic")
    page.click("#options-box summary")
    page.select_option("#opt-cube", '"match"')
    page.fill("#opt-match_length", "5")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot")
    page.select_option("#seat-bot-1", "net2")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/tables/[^/?]+(\?.*)?$"))
    page.wait_for_selector(".bg-board")
    return str(page.evaluate("aceydeucey.tableId"))


def obs(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("aceydeucey.obs"))


def cube_on_board(page: Any) -> tuple[int, str]:
    node = page.query_selector(".bg-board .bg-cube")
    assert node is not None, "the cube is drawn on the board"
    return int(node.get_attribute("data-cube")), str(node.get_attribute("data-side"))


def score_shown(page: Any, lang: str, names: list[str], score: list[int], n: int = 5) -> None:
    want = SCORE[lang].format(a=names[0], x=score[0], y=score[1], b=names[1], n=n)
    text = page.inner_text("#board .bg-match .bg-score")
    assert text == want, (text, want)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "size", "mode"),
    [
        pytest.param("en", DESK, "mouse", id="en-1280"),
        pytest.param("pt", PHONE, "tap", id="pt-375"),
    ],
)
def test_a_five_point_match_with_the_cube_against_the_bot(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    artifacts: Path,
    tmp_path: Path,
    lang: str,
    size: Any,
    mode: str,
) -> None:
    page = person(lang, size, **(PHONE_BROWSER if mode == "tap" else {}))
    page.context.add_init_script(path=LOOK)
    began = time.monotonic()
    tid = make_match_in_the_lobby(page, live_server, "Ana")
    rules = api.get(f"/api/tables/{tid}").json()["rules"]
    assert rules["cube"] == "match" and rules["match_length"] == 5, rules
    tag = f"match-{lang}-{size['width']}"
    player = Player(page, artifacts, tag, mode)
    coach = NetBot()
    coach.seated(
        aceydeucey.load_game("backgammon", variant="classic", cube="match", match_length=5), 0
    )
    seen = {"doubled": 0, "bot_doubles": 0, "takes": 0, "drops": 0, "games": 0}
    doubled_in = -1  # the game (its number) in which the person last doubled
    for _ in range(3000):
        page.wait_for_function("__bg.now().over || __bg.now().act", timeout=60_000)
        now = page.evaluate("__bg.now()")
        o = obs(page)
        names = list(page.evaluate(NAMES))
        games = len(o.get("games") or [])
        if games != seen["games"] and not now["over"]:
            # a game of the match ended: the line above the board has the server's score
            seen["games"] = games
            score_shown(page, lang, names, o["match_score"])
            last = page.inner_text(f"#board .bg-match .bg-last[data-game='{games}']")
            g = o["games"][-1]
            assert names[g["winner"]] in last and str(g["points"]) in last, (last, g)
            if games == 1:
                page.screenshot(path=artifacts / f"bg-{tag}-next-game.png")
        if now["over"]:
            break
        seq = now["seq"]
        if page.query_selector("#controls [data-action='take']"):
            # the bot doubled: the offer in words, the cube pushed to the person's side
            seen["bot_doubles"] += 1
            value, side = cube_on_board(page)
            assert side == "own" and value == o["cube_offer"]["value"], (value, side, o)
            offer = page.inner_text("#controls .bg-offer")
            assert str(value) in offer and names[1] in offer, offer
            if seen["bot_doubles"] == 1:
                page.screenshot(path=artifacts / f"bg-{tag}-offer.png")
            if seen["takes"] == 0 and games >= 1:
                page.click("#controls [data-action='take']")
                page.wait_for_function(f"__bg.now().seq > {seq}")
                seen["takes"] += 1
                value, side = cube_on_board(page)
                assert (value, side) == (o["cube_offer"]["value"], "own"), (value, side)
            else:
                before = o["match_score"][1]
                page.click("#drop-ask")
                page.wait_for_selector("#controls [data-action='drop']")
                page.click("#controls [data-action='drop']")
                page.wait_for_function(f"__bg.now().seq > {seq}")
                seen["drops"] += 1
                after = obs(page)
                if after.get("match_score"):
                    assert after["match_score"][1] == before + o["cube"], (before, after)
            continue
        double = page.query_selector("#controls [data-action='double']")
        if double and doubled_in != games:
            doubled_in = games
            seen["doubled"] += 1
            look(page, f"{tag}: the cube phase")
            page.click("#controls [data-action='double']")
            page.wait_for_function(f"__bg.now().seq > {seq} || __bg.now().over")
            after = obs(page)
            if len(after.get("games") or []) == games and not page.evaluate("__bg.now().over"):
                # the bot took: the cube is its, at 2 (or more), on its side of the bar
                value, side = cube_on_board(page)
                if after.get("cube_owner") == 1 and not after.get("cube_offer"):
                    assert side == "opp" and value == after["cube"], (value, side, after)
                    if seen["doubled"] == 1:
                        page.screenshot(path=artifacts / f"bg-{tag}-taken.png")
            continue
        if now["act"] == "confirm" and player.counts["turns"] >= 2:
            # the play the net would make, chosen in the page's list of plays, so that the
            # games are close enough for doubles, takes and passes
            choice = coach.act(o)
            assert choice in page.evaluate(PLAYS), choice
            page.select_option("#play-list", choice)
            page.click("#play-chosen")
            player.counts["turns"] += 1
            page.wait_for_function(f"__bg.now().seq > {seq} || __bg.now().over")
            continue
        player.act(now)
    else:
        raise AssertionError("the match did not end")
    took = time.monotonic() - began
    page.wait_for_function("!document.getElementById('after').hidden")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=artifacts / f"bg-{tag}-end.png")
    o = obs(page)
    outcome = o["outcome"]
    score = outcome["params"]["score"]
    assert max(score) >= 5, score
    winner = outcome["winners"][0]
    end = page.inner_text("#board .bg-match-end")
    names = list(page.evaluate(NAMES))
    assert names[winner] in end and f"{score[winner]}–{score[1 - winner]}" in end, end
    assert len(page.query_selector_all("#board .bg-games li")) == len(outcome["params"]["games"])
    score_shown(page, lang, names, score)
    assert seen["doubled"] >= 1 and seen["takes"] + seen["drops"] == seen["bot_doubles"], seen
    assert page.problems == [], page.problems
    # the record replays and verifies
    record = api.get(f"/api/tables/{tid}/record")
    assert record.status_code == 200, record.text
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record.json()))
    done = subprocess.run(
        [sys.executable, "-m", "aceydeucey", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # the finished table's replay shows the analysis: the graph over every decision, the
    # players' error rates, a decision's loss under the board
    page.goto(f"{live_server}/tables/{tid}/replay")
    page.wait_for_selector("#an-status[data-state='done']", timeout=30_000)
    # the result as the table said it: the match's winner by name, the final score, no
    # seat counted by number; the title names classic backgammon, not the Acey-Deucey game
    result = page.inner_text("#replay-result")
    assert names[winner] in result and f"{score[winner]}–{score[1 - winner]}" in result, result
    assert not re.search(r"\b(seat|lugar) \d", result), result
    assert "Acey-Deucey" not in page.inner_text("#replay-title")
    analysis = api.post("/replay/analysis", content=json.dumps(record.json())).json()
    shown = page.get_attribute("#an-graph svg", "data-decisions")
    assert shown == str(len(analysis["decisions"])) and int(shown) > 10, shown
    assert len(page.query_selector_all("#an-players li")) == 2
    marked = [d for d in analysis["decisions"] if d["mark"]]
    assert len(page.query_selector_all("#moves li[data-mark]")) == len(marked)
    # every other decision that cost anything says how much on its line, as gnubg's list does
    lossy = [d for d in analysis["decisions"] if not d["mark"] and round(d["loss"], 3) > 0]
    assert len(page.query_selector_all("#moves li .an-loss")) == len(lossy)
    first = analysis["decisions"][0]
    page.click(f"#moves li[data-step='{first['index'] + 1}'] a")
    assert first.get("best_shown", first["best"]) in page.inner_text("#an-step")
    page.screenshot(path=artifacts / f"bg-{tag}-analysis.png", full_page=True)
    assert page.problems == [], page.problems
    print(f"\n{tid} {tag}: {took:.1f} s, {seen}, score {score}, {len(marked)} marked")


def _turn_of_the_api_seat(
    api: httpx.Client, tid: str, token: str, doubled: set[int] | None
) -> str | None:
    """Seat 1's move, played through the API when it is its turn: a double at the cube
    phase, once a game (the games in ``doubled``; never when ``None``), else the roll, a
    take, or the first play listed."""
    view = api.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {token}"}).json()
    game = len(view["observation"].get("games") or [])
    double = doubled is not None and game not in doubled
    legal = list(view["observation"].get("legal_actions") or [])
    if view.get("to_roll") == 1 and "roll" not in legal:
        legal.append("roll")
    if not legal or view["observation"].get("phase") == "over":
        return None
    pick = next((a for a in ("double", "roll", "take") if a in legal), legal[0])
    if "double" in legal and not double:
        pick = "roll"
    if pick == "double" and doubled is not None:
        doubled.add(game)
    body = {"action": pick, "seq": view["seq"]}
    answer = api.post(
        f"/api/tables/{tid}/actions", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    return pick


BOTH = [
    pytest.param(lang, size, id=f"{lang}-{size['width']}")
    for lang in ("en", "pt")
    for size in (PHONE, DESK)
]


@pytest.mark.parametrize(("lang", "size"), BOTH)
def test_a_pass_asks_once_more_and_the_crawford_game_is_marked(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    artifacts: Path,
    lang: str,
    size: Any,
) -> None:
    """A 3-point match between the person (on the page) and a second person (through the
    API) who doubles at each game's first chance: the person passes, the first time
    changing their mind once; after two passes the score is 0–2 and the third game is the
    Crawford game, said above the board, with no cube phase for either side."""
    from tests.web.test_tables import sit, table

    options = {"variant": "classic", "cube": "match", "match_length": 3}
    tid = table(api, "backgammon", ["human", "human"], options=options)
    page = person(lang, size)
    sit(page, live_server, api, tid, 0, "Ana")
    token = api.post(f"/api/tables/{tid}/seats/1", json={"name": "Rui"}).json()["token"]
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_selector(".bg-board")
    rng_turns = 0
    doubled: set[int] = set()
    passes = 0
    for _ in range(1500):
        o = obs(page)
        games = len(o.get("games") or [])
        if games == 2:
            break
        if _turn_of_the_api_seat(api, tid, token, doubled):
            continue
        seq = page.evaluate("aceydeucey.seq")
        if page.query_selector("#controls [data-action='take']"):
            page.click("#drop-ask")
            confirm = page.inner_text("#controls")
            assert "Rui" in confirm and ("1 point" in confirm or "1 ponto" in confirm), confirm
            if passes == 0:
                page.screenshot(path=artifacts / f"bg-pass-{lang}-{size['width']}-confirm.png")
                page.click("#drop-no")  # a change of mind: the offer is there again
                page.wait_for_selector("#controls [data-action='take']")
                page.click("#drop-ask")
            page.click("#controls [data-action='drop']")
            passes += 1
            page.wait_for_function(f"aceydeucey.seq > {seq}")
            continue
        action = page.query_selector(PLAIN)
        if action:
            if not click_if_there(page, action):
                continue
        elif page.query_selector("#play-chosen"):
            page.click("#play-chosen")  # the first play listed
            rng_turns += 1
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_function(f"aceydeucey.seq > {seq}")
    else:
        raise AssertionError("two games did not end")
    page.wait_for_function(
        "(aceydeucey.obs.legal_actions || []).length || aceydeucey.info?.to_roll >= 0"
    )
    o = obs(page)
    assert passes == 2 and o["match_score"] == [0, 2] and o["crawford"] is True, (
        passes,
        o.get("games"),
        o.get("match_score"),
        page.inner_text("#log"),
    )
    score_shown(page, lang, ["Ana", "Rui"], [0, 2], 3)
    crawford = page.inner_text("#board .bg-match .bg-crawford")
    assert crawford == (
        "Crawford game: no doubling" if lang == "en" else "Jogo Crawford: não se pode dobrar"
    )
    last = page.inner_text("#board .bg-match .bg-last")
    assert "Rui" in last and ("double passed" in last or "dobra recusada" in last), last
    page.screenshot(path=artifacts / f"bg-pass-{lang}-{size['width']}-crawford.png")
    # the Crawford game: nobody is offered the cube (a few turns of each side)
    for _ in range(12):
        assert not page.query_selector("#controls [data-action='double']")
        picked = _turn_of_the_api_seat(api, tid, token, set())
        assert picked != "double"
        if picked:
            continue
        seq = page.evaluate("aceydeucey.seq")
        action = page.query_selector(PLAIN)
        if action:
            if not click_if_there(page, action):
                continue
        elif page.query_selector("#play-chosen"):
            page.click("#play-chosen")
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_function(f"aceydeucey.seq > {seq}")
    assert page.problems == [], page.problems


def test_a_beaver_in_money_play(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    artifacts: Path,
) -> None:
    """Money play with beavers: the second person doubles, the person beavers; the cube
    is at 4 on the person's side, the line above the board says so, and the log says who
    beavered."""
    from tests.web.test_tables import sit, table

    options = {"variant": "classic", "cube": "money", "beavers": True}
    tid = table(api, "backgammon", ["human", "human"], options=options)
    page = person("en", DESK)
    sit(page, live_server, api, tid, 0, "Ana")
    token = api.post(f"/api/tables/{tid}/seats/1", json={"name": "Rui"}).json()["token"]
    page.goto(f"{live_server}/tables/{tid}")
    page.wait_for_selector(".bg-board")
    for _ in range(300):
        if _turn_of_the_api_seat(api, tid, token, set()):
            continue
        seq = page.evaluate("aceydeucey.seq")
        if page.query_selector("#controls [data-action='beaver']"):
            label = page.inner_text("#controls [data-action='beaver']")
            assert "4" in label, label
            # the state the button belongs to may have arrived after ``seq`` was read
            seq = page.evaluate("aceydeucey.seq")
            page.click("#controls [data-action='beaver']")
            page.wait_for_function(f"aceydeucey.seq > {seq}")
            break
        action = page.query_selector(f"{PLAIN}:not([data-action=beaver])")  # beavers: above
        if action:
            if not click_if_there(page, action):
                continue
        elif page.query_selector("#play-chosen"):
            page.click("#play-chosen")
        else:
            page.wait_for_timeout(100)
            continue
        page.wait_for_function(f"aceydeucey.seq > {seq}")
    else:
        raise AssertionError("no beaver was offered")
    assert cube_on_board(page) == (4, "own")
    assert page.inner_text("#board .bg-match") == "Money game, cube at 4"
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some((li) => li.textContent.includes('beavers'))"
    )
    assert "Ana beavers: the cube is at 4" in page.inner_text("#log")
    page.screenshot(path=artifacts / "bg-beaver-en-1280.png")
    assert page.problems == [], page.problems
