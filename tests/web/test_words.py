"""A sweep of every page, in English and Portuguese, for words that are not the players'.

The lobby (each game's form, its house options open), each game's table in each preset
or variant (seated, so the actions show), each game's replay (first and last step), every
rules sheet, "my games" and the page for an unknown address: none shows "seed",
"SOURCES.md", an option's code name (``starting_chips``), an ``option=value`` pair, a
preset's, variant's or choice's id (``red-dog``, ``next-post``), and a Portuguese page
shows no text from the catalogs' English side. What is read is what a person meets: the
visible text, the tab's title, and the labels a screen reader says (``aria-label``,
``title``, ``placeholder``, ``alt``) of what is shown.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from functools import cache
from typing import Any

import httpx
import pytest

from tests.english import english_only

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

#: The catalogs the pages speak from: their own, the games' (rules sheets, events), errors.
WEB_DOMAINS = (
    "web",
    "inbetween",
    "backgammon",
    "aces",
    "errors",
    "inbetween_errors",
    "backgammon_errors",
    "aces_errors",
    "server_errors",
)

#: What a person reads on the page: the text shown, the title, the labels of what is shown.
READ = """() => {
  // the names people gave themselves are theirs, not the page's words (other tests seat
  // "Player" at tables the lobby lists)
  const named = [...document.querySelectorAll(".t-seats li.taken")];
  for (const el of named) el.style.display = "none";
  const parts = [document.title, document.body.innerText];
  for (const el of named) el.style.display = "";
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    for (const a of ["aria-label", "title", "placeholder", "alt"]) {
      const v = el.getAttribute(a);
      if (v) parts.push(v);
    }
  }
  return parts.join("\\n");
}"""


@cache
def games(live_server: str) -> dict[str, dict[str, Any]]:
    return {g["id"]: g for g in httpx.get(live_server + "/api/games").json()["games"]}


@cache
def code_words(live_server: str, lang: str) -> re.Pattern[str]:
    """Words only code uses: "seed", SOURCES.md, snake_case names, ``name=value`` or
    ``name='value'``, and every preset or variant id (``red-dog``, ``classic``) that no
    message of the language's catalogs holds as a word of its own (the Portuguese label
    "Bónus acey-deucey" may say "acey-deucey"; English text may say "the banker")."""
    from aceydeucey.locale import catalog

    said = " ".join(catalog(d, lang)[k] for d in WEB_DOMAINS for k in catalog(d, lang))
    ids = {p["name"] for game in games(live_server).values() for p in game["presets"]}
    raw = sorted(
        (i for i in ids if not re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", said)),
        key=len,
        reverse=True,
    )
    return re.compile(
        r"(?i:\bseed\b)|SOURCES\.md|\b[a-z]+_[a-z_]+\b|\b[a-z_]+=['\w{]"
        rf"|(?<![\w-])(?:{'|'.join(map(re.escape, raw))})(?![\w-])"
    )


def english_on(text: str) -> list[str]:
    flat = " ".join(text.split())
    return [
        fragment
        for fragment in english_only(WEB_DOMAINS)
        if re.search(rf"(?<![\w-]){re.escape(fragment)}(?![\w-])", flat)
    ]


def leaks(text: str, lang: str, live_server: str) -> list[str]:
    found = [m.group(0) for m in code_words(live_server, lang).finditer(text)]
    if lang == "pt":
        found += [f"English: {f}" for f in english_on(text)]
    return sorted(set(found))


def test_the_sweep_catches_what_it_looks_for(live_server: str) -> None:
    # the check itself: each kind of leak is caught, the players' words are not
    for text in (
        "source: seed 000 (guide)",
        "see SOURCES.md",
        "option 'starting_chips' is out of range",
        "only in Red Dog (banking='house')",
        "Rules: red-dog",
    ):
        assert leaks(text, "en", live_server), text
    assert "banker" in leaks("Versão: banker", "pt", live_server)
    assert "English: Your turn" in leaks("Volta 1 · Your turn", "pt", live_server)
    assert (
        leaks("Volta 1 · É a sua vez · Red Dog (casino) · Ana recebe o 5♠", "pt", live_server) == []
    )
    assert (
        leaks("Round 1 · Your turn · the banker deals · Red Dog (casino)", "en", live_server) == []
    )


def _finished(api: httpx.Client, game: str, **options: Any) -> str:
    seats = {"inbetween": 3, "backgammon": 2, "aces-in-the-pot": 3}[game]
    made = api.post(
        "/api/tables",
        json={
            "game": game,
            "options": {**options, **({} if game == "backgammon" else {"players": seats})},
            "seats": ["bot"] * seats,
        },
    )
    assert made.status_code == 201, made.text
    table = str(made.json()["id"])
    for _ in range(600):
        if api.get(f"/api/tables/{table}").json()["status"] == "over":
            return table
        time.sleep(0.05)
    raise AssertionError(f"the bots' {game} game did not end")


@pytest.fixture(scope="module")
def tables(live_server: str) -> Iterator[dict[str, Any]]:
    """A table of each preset or variant with a person's seat (its token), and a finished
    game of each game for the replay."""
    with httpx.Client(base_url=live_server, timeout=30, headers={"Origin": live_server}) as api:
        seated: dict[str, tuple[str, str]] = {}
        for game, info in games(live_server).items():
            key = info["preset_key"]
            for preset in (p["name"] for p in info["presets"]):
                seats = ["human", "bot"] if game == "backgammon" else ["human", "bot", "bot"]
                made = api.post(
                    "/api/tables",
                    json={
                        "game": game,
                        "options": {key: preset, "players": len(seats)}
                        if game != "backgammon"
                        else {key: preset},
                        "seats": seats,
                    },
                )
                assert made.status_code == 201, made.text
                table = str(made.json()["id"])
                token = api.post(f"/api/tables/{table}/seats/0", json={"name": "Ana"}).json()
                seated[f"{game}-{preset}"] = (table, str(token["token"]))
        finished = {game: _finished(api, game) for game in games(live_server)}
        yield {"seated": seated, "finished": finished}


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_no_page_shows_developer_words_or_the_other_language(
    browser: Any, live_server: str, tables: dict[str, Any], lang: str
) -> None:
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 800},
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        bypass_csp=True,  # the test's string predicates; test_csp.py enforces the policy
    )
    ctx.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
    ctx.add_cookies(
        [
            {"name": f"seat_{table}", "value": token, "url": live_server}
            for table, token in tables["seated"].values()
        ]
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    found: dict[str, list[str]] = {}

    def read(where: str) -> None:
        page.wait_for_timeout(200)
        text = page.evaluate(READ)
        wrong = leaks(text, lang, live_server)
        if wrong:
            found[where] = wrong

    try:
        page.goto(live_server + "/")
        page.wait_for_selector("#seats select")
        page.click("#options-box summary")
        for game, info in games(live_server).items():
            page.check(f"input[name=game][value={game}]")
            for preset in (p["name"] for p in info["presets"]):
                page.select_option("#preset", preset)
                read(f"lobby {game} {preset}")
        for name, (table, _) in tables["seated"].items():
            page.goto(f"{live_server}/tables/{table}")
            page.wait_for_function(
                "window.aceydeucey && aceydeucey.obs && aceydeucey.me"
                " && document.getElementById('board').children.length"
            )
            read(f"table {name}")
        for game, table in tables["finished"].items():
            page.goto(f"{live_server}/tables/{table}/replay")
            page.wait_for_selector("#viewer:not([hidden])")
            read(f"replay {game} start")
            page.click("#last")
            read(f"replay {game} end")
        for game, info in games(live_server).items():
            for preset in (p["name"] for p in info["presets"]):
                page.goto(f"{live_server}/rules/{game}?preset={preset}")
                page.wait_for_selector(".sheet-section")
                read(f"rules {game} {preset}")
        page.goto(live_server + "/my-games")
        page.wait_for_selector("li.my-game")
        read("my games")
        page.goto(live_server + "/no/such/page")
        read("not found")
    finally:
        ctx.close()
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
    assert errors == []
