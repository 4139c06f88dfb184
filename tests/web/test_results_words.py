"""Two of the table page's sentences, seen in the browser: Red Dog's result names everyone
who ended ahead ("Also ahead: ..."), and a claim refused as too soon names the absent
player, not a seat number counted from 0.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def page_in(browser: Any, live_server: str) -> Iterator[Any]:
    opened: list[Any] = []

    def new(lang: str) -> Any:
        ctx = browser.new_context(
            viewport={"width": 1280, "height": 800},
            locale=lang,
            extra_http_headers={"Accept-Language": lang},
            bypass_csp=True,  # the test's string predicates; test_csp.py enforces the policy
        )
        ctx.add_cookies([{"name": "lang", "value": lang, "url": live_server}])
        ctx.set_default_timeout(15_000)
        opened.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield new
    for ctx in opened:
        ctx.close()


def red_dog_with_a_gainer_who_did_not_win(api: httpx.Client) -> tuple[str, dict[str, Any]]:
    """A finished Red Dog session of four bots in which someone ended ahead but is not
    among the winners (the best result wins). Chance decides each session: about one in
    three has such a player (64 of 200 engine sessions of the default bot), so sessions are
    played until one has; each session's (ahead, winners, status) is kept for the failure."""
    seen: list[tuple[list[int], list[int], str]] = []
    for _ in range(40):
        made = api.post(
            "/api/tables",
            json={
                "game": "inbetween",
                "options": {"preset": "red-dog", "rounds": 4},
                "seats": ["bot"] * 4,
            },
        )
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        for _ in range(400):
            view = api.get(f"/api/tables/{table}").json()
            if view["status"] == "over":
                break
            time.sleep(0.05)
        outcome = view["observation"]["outcome"]
        ahead = [i for i, r in enumerate(outcome["returns"]) if Fraction(r) > 0]
        if set(ahead) - set(outcome["winners"]):
            return table, outcome
        seen.append((ahead, list(outcome["winners"]), view["status"]))
    raise AssertionError(f"forty Red Dog sessions without a player ahead who did not win: {seen}")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "words"), [("en", "Also ahead: "), ("pt", "Também em vantagem: ")]
)
def test_red_dog_names_every_player_who_ended_ahead(
    page_in: Any, live_server: str, api: httpx.Client, lang: str, words: str
) -> None:
    table, outcome = red_dog_with_a_gainer_who_did_not_win(api)
    page = page_in(lang)
    page.goto(f"{live_server}/tables/{table}")
    page.wait_for_selector("#after:not([hidden])")
    names = page.evaluate("aceydeucey.names()")
    result = page.inner_text("#result")
    winners = outcome["winners"]
    ahead = [
        names[i] for i, r in enumerate(outcome["returns"]) if Fraction(r) > 0 and i not in winners
    ]
    assert f"{words}{', '.join(ahead)}" in result, result
    assert page.errors == []


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Bea has not been away long enough"), ("pt", "Bea ainda não está ausente há tempo")],
)
def test_a_claim_refused_as_too_soon_names_the_absent_player(
    page_in: Any, live_server: str, api: httpx.Client, lang: str, words: str
) -> None:
    made = api.post(
        "/api/tables",
        json={"game": "backgammon", "seats": ["human", "human"], "claim_after": 600},
    )
    table = made.json()["id"]
    api.post(f"/api/tables/{table}/seats/1", json={"name": "Bea"})  # Bea never opens the page
    token = api.post(f"/api/tables/{table}/seats/0", json={"name": "Ana"}).json()["token"]
    page = page_in(lang)
    page.context.add_cookies([{"name": f"seat_{table}", "value": token, "url": live_server}])
    # the page's clock runs ten minutes ahead: it offers the claim the server still refuses
    page.clock.install()
    page.goto(f"{live_server}/tables/{table}")
    page.wait_for_function("window.aceydeucey && aceydeucey.me && aceydeucey.me.seat === 0")
    page.clock.fast_forward("10:05")
    page.wait_for_selector("#claim:not([hidden])")
    page.click("#claim")
    page.wait_for_selector("#action-error:not([hidden])")
    refusal = page.inner_text("#action-error")
    assert words in refusal, refusal
    assert "seat" not in refusal.lower() and "lugar" not in refusal.lower(), refusal
    assert page.is_hidden("#after"), "the game goes on"


def inbetween_with_a_split_pot(api: httpx.Client) -> tuple[str, dict[str, Any]]:
    """A finished two-bot In-Between session of one round whose pot was left odd, so that
    its split leaves each player half a chip (chance decides: sessions are played until
    one does)."""
    for _ in range(40):
        made = api.post(
            "/api/tables",
            json={
                "game": "inbetween",
                "options": {"preset": "guide", "players": 2, "rounds": 1},
                "seats": ["bot"] * 2,
            },
        )
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        for _ in range(400):
            view = api.get(f"/api/tables/{table}").json()
            if view["status"] == "over":
                break
            time.sleep(0.05)
        obs = view["observation"]
        if any(Fraction(r).denominator > 1 for r in obs["outcome"]["returns"]):
            return table, obs
    raise AssertionError("forty sessions without an odd pot left to split")


@pytest.mark.parametrize(
    ("lang", "words", "split", "each"),
    [
        ("en", ("chip", "chips"), "in the pot, split equally between", "each"),
        ("pt", ("ficha", "fichas"), "no pote, dividido em partes iguais entre", "para cada um"),
    ],
)
def test_a_split_pot_is_explained_in_whole_and_half_chips(
    page_in: Any,
    live_server: str,
    api: httpx.Client,
    lang: str,
    words: tuple[str, str],
    split: str,
    each: str,
) -> None:
    table, obs = inbetween_with_a_split_pot(api)
    shares = [Fraction(v) for v in obs["pot_shares"]]
    assert sum(shares) == obs["pot"] and all(s.denominator == 2 for s in shares)
    page = page_in(lang)
    page.goto(f"{live_server}/tables/{table}")
    page.wait_for_selector("#after:not([hidden])")
    names = page.evaluate("aceydeucey.names()")
    result = page.inner_text("#result")
    # the pot and each share as people write them, with who took it
    share = shares[0]
    half = f"{share.numerator // 2}½" if share > 1 else "½"
    word = lambda n: words[0] if n <= 1 else words[1]  # noqa: E731 - "1 chip", "½ chip"
    assert f"{obs['pot']} {word(obs['pot'])} {split} {names[0]}" in result, result
    assert f"{half} {word(share)} {each}" in result, result
    # every result whole or a mixed number, never a fraction like "-3/2"
    assert not re.search(r"\d/\d", result), result
    for name, value in zip(names, obs["outcome"]["returns"], strict=True):
        r = Fraction(value)
        whole = abs(r.numerator) // r.denominator
        sign = "+" if r > 0 else "−" if r < 0 else ""
        shown = f"{sign}{whole or ''}½" if r.denominator == 2 else f"{sign}{abs(r)}"
        assert f"{name} {shown}" in result, (shown, result)
    assert page.errors == []
