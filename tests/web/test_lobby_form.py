"""The lobby's new-table form: each option's widget comes from its JSON schema, in Chromium.

The schema is the server's one option describer (``core.options``, served by
``/api/games``); the page holds no list of options of its own.  For every option of every
game the expected widget is read here from the schema alone, and the form must show it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    ctx.add_cookies([{"name": "lang", "value": "en", "url": "http://127.0.0.1"}])
    opened = ctx.new_page()
    opened.errors = []
    opened.on("pageerror", lambda e: opened.errors.append(str(e)))
    yield opened
    ctx.close()


def implied(schema: dict[str, Any]) -> tuple[str, list[Any]]:
    """The widget a schema implies and the words it offers (``None`` for a nullable one)."""
    branches = schema.get("anyOf", [schema])
    words = [b["const"] for b in branches if "const" in b]
    words += [w for b in branches for w in b.get("enum", [])]
    if any(b.get("type") == "null" for b in branches):
        words.append(None)
    types = {b.get("type") for b in branches}
    if schema.get("x-seat"):
        return "seat", words
    if "boolean" in types:
        # a flag, or yes / no / the rules' own choice where it may be none (crawford)
        return ("select", [True, False, *words]) if words else ("checkbox", [])
    if "integer" in types:
        return ("number-or-word" if words else "number"), words
    return ("select" if words else "text"), words


def _values(page: Any, selector: str) -> list[str]:
    return list(page.eval_on_selector_all(f"{selector} option", "els => els.map(e => e.value)"))


def test_every_option_gets_the_widget_its_schema_implies(
    page: Any, live_server: str, api: httpx.Client
) -> None:
    games = api.get("/api/games").json()["games"]
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.click("#options-box summary")
    seen: set[str] = set()
    for game in games:
        page.check(f"input[name=game][value={game['id']}]")
        options = [o for o in game["options"] if not o["preset_key"]]
        page.wait_for_selector(f"#options .opt[data-option='{options[-1]['name']}']")
        preset = next(p for p in game["presets"] if p["name"] == game["default_preset"])
        players = next((o["default"] for o in options if o["name"] == "players"), 2)
        seats = int(preset["options"].get("players", players))
        for opt in options:
            name, schema = opt["name"], opt["schema"]
            widget, words = implied(schema)
            seen.add(widget)
            where = f"{game['id']}.{name}"
            box = f".opt[data-option='{name}']"
            assert page.get_attribute(box, "data-widget") == widget, where
            field = f"#opt-{name}"
            kind = page.eval_on_selector(field, "e => e.tagName + ':' + (e.type || '')")
            default = preset["options"].get(name, opt["default"])
            if widget == "seat":
                assert kind == "SELECT:select-one", where
                expected = [json.dumps(w) for w in (*range(seats), *words)]
                assert _values(page, field) == ["", *expected], where
            elif widget == "select":
                assert kind == "SELECT:select-one", where
                assert _values(page, field) == ["", *(json.dumps(w) for w in words)], where
            elif widget == "checkbox":
                assert kind == "INPUT:checkbox", where
                assert page.is_checked(field) is (default is True), where
            elif widget in ("number", "number-or-word"):
                assert kind == "INPUT:number", where
                for bound, attribute in (("minimum", "min"), ("maximum", "max")):
                    shown = page.get_attribute(field, attribute)
                    assert shown == (str(schema[bound]) if bound in schema else None), where
                if widget == "number-or-word":
                    offered = _values(page, f"{field}-word")
                    assert offered == ["", *(json.dumps(w) for w in words)], where
            else:
                assert kind == "INPUT:text", where
    # every kind of schema the games declare is met (a flag, a list of words, a bounded
    # number, a number or none, a seat or a word, a list of numbers)
    assert seen == {"seat", "select", "checkbox", "number", "number-or-word", "text"}
    assert page.errors == []


def test_the_widgets_values_reach_the_table(page: Any, live_server: str, api: httpx.Client) -> None:
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.check("input[name=game][value=backgammon]")
    page.click("#options-box summary")
    page.wait_for_selector("#opt-acey_chain_limit-word")
    page.select_option("#preset", "acey-deucey")
    # a number typed, a word beside a number chosen (none), a flag turned off
    page.fill("#opt-acey_chain_limit", "3")
    frozen = not page.is_checked("#opt-home_board_frozen")
    page.set_checked("#opt-home_board_frozen", frozen)
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/tables/"))
    table = re.search(r"/tables/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    rules = api.get(f"/api/tables/{table}").json()["rules"]
    assert rules["acey_chain_limit"] == 3 and rules["home_board_frozen"] is frozen
    # the number's word list offers none, which wins over a typed number
    page.goto(live_server + "/")
    page.wait_for_selector("#seats select")
    page.check("input[name=game][value=backgammon]")
    page.click("#options-box summary")
    page.select_option("#preset", "acey-deucey")
    page.fill("#opt-acey_chain_limit", "3")
    page.select_option("#opt-acey_chain_limit-word", "null")
    assert page.is_disabled("#opt-acey_chain_limit")
    page.click("#create-btn")
    page.wait_for_url(re.compile(r".*/tables/"))
    table = re.search(r"/tables/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    assert api.get(f"/api/tables/{table}").json()["rules"]["acey_chain_limit"] is None
    assert page.errors == []
