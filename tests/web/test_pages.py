"""The HTML routes in-process: language choice, rules sheets, the replay and coach endpoints.

These need no browser; ``test_browser.py`` drives the pages themselves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from markupsafe import escape
from starlette.testclient import TestClient

import aceydeucey
from aceydeucey.core.chance import Seeded
from aceydeucey.core.record import Record
from aceydeucey.locale import catalog
from aceydeucey.server.app import create_app
from aceydeucey.server.pages import replay_steps
from aceydeucey.server.settings import Settings
from aceydeucey.web import STATIC, TEMPLATES


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("pages") / "tables.sqlite3"
    with TestClient(create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}"))) as c:
        yield c


def heading(html: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    assert found
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def test_the_browser_language_picks_the_page_language(client: TestClient) -> None:
    pt = client.get("/", headers={"Accept-Language": "pt-PT,pt;q=0.9,en;q=0.5"})
    en = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"})
    assert pt.status_code == en.status_code == 200
    assert heading(pt.text) == "Joguem juntos, online" and 'lang="pt-PT"' in pt.text
    assert heading(en.text) == "Play together, online" and 'lang="en"' in en.text


def test_the_lang_cookie_beats_the_browser_and_the_switch_sets_it(client: TestClient) -> None:
    switched = client.get("/lang/pt?next=/rules/inbetween", follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/rules/inbetween"
    assert "lang=pt" in switched.headers["set-cookie"]
    client.cookies.set("lang", "pt")
    page = client.get("/", headers={"Accept-Language": "en"})
    assert heading(page.text) == "Joguem juntos, online"
    client.cookies.clear()


def test_the_switch_never_redirects_off_the_site(client: TestClient) -> None:
    away = client.get("/lang/en?next=//evil.example/x", follow_redirects=False)
    assert away.headers["location"] == "/"


def test_every_page_carries_the_whole_web_catalog_for_its_scripts(client: TestClient) -> None:
    for lang in ("en", "pt"):
        html = client.get(f"/tables/abc?lang={lang}").text
        data = re.search(
            r'<script id="messages" type="application/json">(.*?)</script>', html, re.S
        )
        assert data and json.loads(data.group(1)) == catalog("web", lang)
    client.cookies.clear()


GAMES = ("inbetween", "backgammon", "aces-in-the-pot")


@pytest.mark.parametrize("game", GAMES)
def test_rules_sheets_in_both_languages(client: TestClient, game: str) -> None:
    en = client.get(f"/rules/{game}?lang=en").text
    pt = client.get(f"/rules/{game}?lang=pt").text
    client.cookies.clear()
    paragraphs = re.findall(r"<p>(.*?)</p>", en)
    assert len(paragraphs) >= 3
    assert en != pt and len(re.findall(r"<p>(.*?)</p>", pt)) >= 3


def test_rules_sheet_of_another_preset_and_a_bad_one(client: TestClient) -> None:
    dutch = client.get("/rules/backgammon?preset=dutch&lang=en")
    assert dutch.status_code == 200 and "<small>Dutch backgammon</small>" in dutch.text
    bad = client.get("/rules/backgammon?preset=nope&lang=pt")
    assert bad.status_code == 400 and "nope" in bad.text
    missing = client.get("/rules/chess?lang=pt")
    assert missing.status_code == 404 and "Não existe o jogo chess" in missing.text
    client.cookies.clear()


def _record(game: str, **options: object) -> Record:
    g = aceydeucey.load_game(game, **options)
    state = g.new_initial_state()
    record = Record.start(g, [f"p{i}" for i in range(g.num_players)])
    chance, bot = Seeded(7), aceydeucey.RandomAgent(3)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = chance.choose(state)
        else:
            action = bot.act(state.observation(state.current_player()))
        record.actions.append(str(action))
        state = state.apply(action)
    return record


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_replay_steps_follow_the_record(game: str) -> None:
    record = _record(game)
    data = replay_steps(record.to_dict(), "en")
    assert data["game"] == game
    assert [s["action"] for s in data["steps"]] == [None, *record.actions]
    # each step names the seat that acted (None: chance's draw), as the game had it
    state = record.make_game().new_initial_state()
    for step in data["steps"][1:]:
        actor = state.current_player()
        assert step["seat"] == (actor if actor >= 0 else None)
        state = state.apply(step["action"])
    for step in data["steps"]:
        assert step["observation"]["legal_actions"] == []  # a spectator's view acts for nobody


def test_replay_steps_endpoint_errors_in_the_readers_language(client: TestClient) -> None:
    record = _record("aces-in-the-pot").to_dict()
    ok = client.post("/replay/steps", json=record)
    assert ok.status_code == 200 and len(ok.json()["steps"]) == len(record["actions"]) + 1
    bad = client.post("/replay/steps", content=b"{not json", headers={"Accept-Language": "pt"})
    assert bad.status_code == 400
    assert bad.json()["error"]["message"] == "O ficheiro não é um registo JSON."
    wrong = {**record, "actions": [*record["actions"][:2], "nonsense"]}
    refused = client.post("/replay/steps", json=wrong)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "record.action_failed" and "nonsense" in error["message"]


def test_coach_gives_exact_odds_from_the_seat_view(client: TestClient) -> None:
    game = aceydeucey.load_game("inbetween", preset="guide", players=3)
    state, chance = game.new_initial_state(), Seeded(11)
    while state.is_chance_node() or "bet 1" not in [str(a) for a in state.legal_actions()]:
        state = state.apply(chance.choose(state) if state.is_chance_node() else "pass")
    seat = state.current_player()
    obs = state.observation(seat)
    answer = client.post(
        "/coach/inbetween", json={"observation": obs, "rules": game.rules.to_dict()}
    )
    assert answer.status_code == 200
    body = answer.json()
    assert set(body["values"]) == {str(a) for a in obs["legal_actions"]}
    odds = {k: Fraction(v) for k, v in body["odds"].items()}
    assert sum(odds.values()) == 1
    assert Fraction(body["values"]["pass"]) == 0
    broken = client.post(
        "/coach/inbetween", json={"observation": {}}, headers={"Accept-Language": "pt"}
    )
    assert broken.status_code == 400 and "probabilidades" in broken.json()["error"]["message"]


def test_coach_gives_the_best_stake_and_kellys_for_the_seat(client: TestClient) -> None:
    # A favourable guide bet: the best stake by expected chips is the largest legal one and
    # Kelly's stake (for the seat's own chips) is legal and no larger; both as the engine's
    # odds give them (``decision_odds``), the same figures the terminal's ``?`` prints.
    from aceydeucey.inbetween.odds import decision_odds, stake_action

    game = aceydeucey.load_game("inbetween", preset="guide", players=3)
    for seed in range(40):
        state, chance = game.new_initial_state(), Seeded(seed)
        while state.is_chance_node() or "bet 1" not in [str(a) for a in state.legal_actions()]:
            state = state.apply(chance.choose(state) if state.is_chance_node() else "pass")
        obs = state.observation(state.current_player())
        bet = decision_odds(game.rules, obs).bets[0]
        if bet.ev_per_chip > 0:
            break
    assert bet.advice is not None and bet.ev_per_chip > 0
    body = client.post(
        "/coach/inbetween", json={"observation": obs, "rules": game.rules.to_dict()}
    ).json()
    advice = body["bets"][0]["advice"]
    stakes = [int(a.split()[1]) for a in obs["legal_actions"] if a.startswith("bet ")]
    assert advice["best_action"] == f"bet {max(stakes)}"
    assert advice["kelly_action"] in obs["legal_actions"]
    assert advice["kelly_stake"] <= max(stakes)
    assert advice["kelly_action"] == stake_action(bet, bet.advice.kelly.stake)
    assert advice["balance"] == obs["chips"][obs["seat"]]


def test_pages_fetch_nothing_from_elsewhere() -> None:
    """No CDN, font or script from another site: every URL in the web files is local."""
    for path in [*TEMPLATES.rglob("*.html"), *STATIC.rglob("*.js"), *STATIC.rglob("*.css")]:
        text = path.read_text(encoding="utf-8")
        for url in re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)""", text):
            assert not re.match(r"^(https?:)?//", url), f"{path.name} loads {url}"
        assert "@import" not in text and "fonts.googleapis" not in text


def test_every_message_key_the_web_uses_is_in_the_catalog() -> None:
    keys = set(catalog("web", "en"))
    used: set[str] = set()
    for path in [*TEMPLATES.rglob("*.html"), *STATIC.rglob("*.js")]:
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\b_\(\s*["']([a-z][a-z_]*\.[a-z0-9_.-]+)["']""", text))
        used |= set(re.findall(r"""\bt\(\s*["']([a-z][a-z_]*\.[a-z0-9_.-]+)["']""", text))
    missing = sorted(used - keys)
    assert missing == []
    assert set(catalog("web", "pt")) == keys


def test_the_wheel_ships_templates_and_static_files() -> None:
    """Hatch includes every file under src/aceydeucey; nothing of the web is excluded."""
    root = Path(__file__).resolve().parents[2]
    config = (root / "pyproject.toml").read_text()
    assert 'packages = ["src/aceydeucey"]' in config
    assert "exclude" not in config.split("[tool.hatch.build.targets.wheel]")[1].split("[")[0]
    assert (TEMPLATES / "table.html").is_file() and (STATIC / "js" / "table.js").is_file()


def test_the_viewer_checks_the_dealing_against_the_revealed_seeds(client: TestClient) -> None:
    import time

    made = client.post(
        "/api/tables", json={"game": "aces-in-the-pot", "options": {}, "seats": ["bot"] * 4}
    )
    table = made.json()["id"]
    for _ in range(200):
        if client.get(f"/api/tables/{table}").json()["status"] == "over":
            break
        time.sleep(0.05)
    record = client.get(f"/api/tables/{table}/record").json()
    assert record["fairness"]["server_seed"]
    good = client.post("/replay/steps", json=record, headers={"Accept-Language": "pt"}).json()
    assert good["verification"]["ok"] is True
    assert "correspondem" in good["verification"]["message"]
    last = record["actions"][-1]
    other = "2-1" if last != "2-1" else "3-1"
    changed = {**record, "actions": [*record["actions"][:-1], other]}
    bad = client.post("/replay/steps", json=changed).json()
    assert bad["verification"]["ok"] is False
    unrevealed = {**record, "fairness": {**record["fairness"], "server_seed": None}}
    assert client.post("/replay/steps", json=unrevealed).json()["verification"]["ok"] is None


def test_the_language_switch_keeps_the_page_and_its_query(client: TestClient) -> None:
    html = client.get("/rules/backgammon?preset=dutch&lang=en").text
    client.cookies.clear()
    link = re.search(r'href="(/lang/pt\?next=[^"]+)"', html)
    assert link
    back = client.get(link.group(1).replace("&amp;", "&"), follow_redirects=False)
    assert back.headers["location"] == "/rules/backgammon?preset=dutch"
    client.cookies.clear()


def _main_text(html: str) -> str:
    found = re.search(r"<main[^>]*>(.*)</main>", html, re.S)
    assert found
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1)))


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_no_rules_sheet_shows_developer_words_and_sources_are_footnotes(
    client: TestClient, lang: str
) -> None:
    for game in GAMES:
        rules = aceydeucey.load_game(game).rules
        for preset in type(rules).PRESETS:
            html = client.get(f"/rules/{game}?preset={preset}&lang={lang}").text
            text = _main_text(html)
            assert not re.search(r"\bseed\b|SOURCES\.md|\w_\w", text), (game, preset, text)
            sources = re.search(r'<footer class="sources".*?<li>(.*?)</li>', html, re.S)
            assert sources, (game, preset)
            wanted = str(escape(catalog("web", lang)[f"source.{game}.{preset}"]))
            assert sources.group(1).strip() == wanted
    client.cookies.clear()


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_every_option_preset_and_choice_has_a_players_name(lang: str) -> None:
    from aceydeucey.server.api import describe_games

    words = catalog("web", lang)
    missing = []
    for game in describe_games(lang):
        if game["id"] not in GAMES:  # a test's toy game may be registered in this process
            continue
        keys = [f"preset.{game['id']}.{p['name']}" for p in game["presets"]]
        for option in game["options"]:
            if option["preset_key"]:
                continue
            keys.append(f"option.{game['id']}.{option['name']}")
            for choice in option["choices"] or []:
                if isinstance(choice, str):
                    keys.append(f"choice.{game['id']}.{option['name']}.{choice}")
        missing += [k for k in keys if not words.get(k, "").strip()]
    assert missing == []


def test_an_unknown_browser_path_is_a_page_and_the_api_stays_json(client: TestClient) -> None:
    page = client.get("/nowhere/at/all", headers={"Accept": "text/html", "Accept-Language": "pt"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert heading(page.text) == "Página não encontrada"
    api = client.get("/api/nowhere", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.json()["error"]["code"] == "server.not_found"
    script = client.get("/nowhere", headers={"Accept": "application/json"})
    assert script.json()["error"]["code"] == "server.not_found"


def test_my_games_lists_the_seats_this_browser_holds_and_nothing_else(
    client: TestClient,
) -> None:
    made = client.post(
        "/api/tables", json={"game": "backgammon", "seats": ["human", "human"]}
    ).json()
    table = made["id"]
    mine = client.post(f"/api/tables/{table}/seats/1", json={"name": "Ana"}).json()["token"]
    client.post(f"/api/tables/{table}/seats/0", json={"name": "Bea"})
    client.cookies.set(f"seat_{table}", mine)
    client.cookies.set("seat_gone", "whatever")
    client.cookies.set("seat_" + table[:-1] + "x", mine)
    listed = client.get("/my-games?lang=en").text
    assert listed.count('class="my-game ') == 1 and f'data-table="{table}"' in listed
    assert "Ana (you, seat 2)" in listed and "Still playing" in listed
    assert f"/replay?table={table}" not in listed  # no replay before the end
    client.post(f"/api/tables/{table}/resign", headers={"Authorization": f"Bearer {mine}"})
    over = client.get("/my-games?lang=pt").text
    assert "Perdeu" in over and f'href="/replay?table={table}"' in over
    assert f'href="/api/tables/{table}/record"' in over
    client.cookies.clear()
    assert 'class="my-game ' not in client.get("/my-games").text


def test_the_replay_page_opens_a_table_given_by_the_query(client: TestClient) -> None:
    html = client.get("/replay?table=abc123").text
    data = re.search(r'<script id="page-data" type="application/json">(.*?)</script>', html, re.S)
    assert data and json.loads(data.group(1)) == {"page": "replay", "table": "abc123"}
    assert re.search(r'<section class="panel" id="upload"\s+hidden', html)
