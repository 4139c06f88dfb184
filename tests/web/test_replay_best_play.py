"""The replay viewer draws a decision's best play on request, and toggles back.

Games of ``net`` against itself with one play made worst (``played_record``'s planted
blunder, by the second seat, so the numbering from the board's side is checked too), in
classic backgammon and Acey-Deucey, and an Acey-Deucey game cut at a 1-2 whose worst double
was named, are opened from a file in the replay viewer; at that decision the viewer offers
"Show best play": the board then shows the server's position after the best play (the
checkers read from the DOM), its moves as arrows distinct from the played move's; the
button, or the B key, toggles back; another step shows its own board.  In English and
Portuguese, on a phone and a desk; screenshots go to ``artifacts``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from aceydeucey.core.record import Record
from tests.backgammon.test_analysis import played_record
from tests.server.test_best_play import worst_double_named
from tests.web.test_tables import DESK, PHONE, person  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

WORDS = {
    "en": ("Show best play", "Show the move played", "the best play", "the move played"),
    "pt": (
        "Mostrar a melhor jogada",
        "Mostrar a jogada feita",
        "a melhor jogada",
        "a jogada feita",
    ),
}
#: what the line beside the button says the board shows, at a named double
NAMED = {
    "en": ("the best double", "the double named"),
    "pt": ("o melhor duplo", "o duplo escolhido"),
}
DOUBLE = {"en": "double {n}", "pt": "duplo {n}"}
DRAWN = """() => {
  const drawn = {};
  for (const c of document.querySelectorAll('#board .bg-board circle[data-at]')) {
    const at = drawn[c.dataset.at] = drawn[c.dataset.at] || [c.dataset.side, 0];
    at[1] += 1;
  }
  return drawn;
}"""
ARROWS = """(kind) => [...document.querySelectorAll(`#board .bg-arrow[data-kind=${kind}]`)]
  .map((a) => [a.dataset.from, a.dataset.to])"""


def expected(obs: dict[str, Any]) -> dict[str, list[Any]]:
    """The checkers a public observation puts where (seat 0 light; stacks show 5 at most)."""
    out = {
        str(p): ["light" if n > 0 else "dark", min(abs(n), 5)]
        for p, n in enumerate(obs["points"], start=1)
        if n
    }
    if obs["bar"][0]:
        out["bar"] = ["light", min(obs["bar"][0], 5)]
    if obs["bar"][1]:
        out["bar-opp"] = ["dark", min(obs["bar"][1], 5)]
    return out


def arrows(moves: list[dict[str, Any]]) -> list[list[str]]:
    seen: list[list[str]] = []
    for m in moves:
        if [str(m["from"]), str(m["to"])] not in seen:
            seen.append([str(m["from"]), str(m["to"])])
    return seen


def shot(page: Any, path: Path) -> None:
    """The board and the analysis line under it, once the checkers have stopped sliding."""
    page.evaluate("Promise.allSettled(document.getAnimations().map(a => a.finished))")
    page.locator(".an-best-row").scroll_into_view_if_needed()
    page.screenshot(path=path, full_page=True)


@pytest.fixture(scope="module")
def records() -> dict[str, tuple[Record, int]]:
    """Each kind's record and the index of its decision that was not the best."""
    classic, at = played_record("classic", 3, plant_at=5)
    acey, acey_at = played_record("acey-deucey", 3, plant_at=1)
    named, named_at, _, _ = worst_double_named()
    assert at is not None and acey_at is not None
    return {"classic": (classic, at), "acey-deucey": (acey, acey_at), "named": (named, named_at)}


CASES = [
    *(
        pytest.param("classic", lang, size, id=f"classic-{lang}-{size['width']}")
        for lang in ("en", "pt")
        for size in (PHONE, DESK)
    ),
    pytest.param("acey-deucey", "pt", DESK, id="acey-deucey-pt-1280"),
    pytest.param("acey-deucey", "en", PHONE, id="acey-deucey-en-375"),
    pytest.param("named", "en", DESK, id="named-double-en-1280"),
    pytest.param("named", "pt", PHONE, id="named-double-pt-375"),
]


@pytest.mark.parametrize(("kind", "lang", "size"), CASES)
def test_the_best_play_is_drawn_on_request_and_toggles_back(
    person: Any,  # noqa: F811 (the fixture imported above)
    live_server: str,
    api: httpx.Client,
    artifacts: Path,
    tmp_path: Path,
    records: dict[str, tuple[Record, int]],
    kind: str,
    lang: str,
    size: Any,
) -> None:
    record, index = records[kind]
    data = record.to_dict()
    steps = api.post("/replay/steps", json=data).json()["steps"]
    found = api.post("/replay/analysis", content=json.dumps(data)).json()
    d = next(d for d in found["decisions"] if d["index"] == index)
    view = d["best_view"]
    show, back, best_words, played_words = WORDS[lang]
    if d["kind"] == "named_double":
        best_words, played_words = NAMED[lang]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    page = person(lang, size)
    page.goto(f"{live_server}/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#an-status[data-state='done']", timeout=30_000)
    # a decision that was the best play: no control
    plain = next(x for x in found["decisions"] if x["best"] == x["played"] and x["index"] > 0)
    page.click(f"#moves li[data-step='{plain['index'] + 1}'] a")
    assert page.is_hidden("#an-best")
    # the planted play: the board is the step's own, the played move marked
    step = index + 1
    page.click(f"#moves li[data-step='{step}'] a")
    page.wait_for_selector("#an-best:visible")
    assert page.inner_text("#an-best") == show
    assert page.get_attribute("#an-best", "aria-pressed") == "false"
    assert page.evaluate(DRAWN) == expected(steps[step]["observation"])
    assert page.evaluate(ARROWS, "played") == arrows(view["played_moves"])
    assert page.evaluate(ARROWS, "best") == []
    assert played_words in page.inner_text("#an-legend")
    if d["kind"] == "named_double":  # the doubles in the page's words, not the notation's
        assert DOUBLE[lang].format(n=d["best_double"]) in page.inner_text("#an-step")
        assert f", {d['played_double']}" in page.inner_text("#an-legend")
        if lang == "pt":
            assert d["best"] not in page.inner_text("#an-step") + page.inner_text("#an-legend")
    if d["kind"] == "play":  # numbered as the board is and the moves list writes the play
        assert d["played_shown"] in page.inner_text("#an-legend")
        assert d["played_shown"] in page.inner_text(f"#moves li[data-step='{step}']")
        assert d["best_shown"] in page.inner_text("#an-step")
    shot(page, artifacts / f"replay-best-{kind}-{lang}-{size['width']}-played.png")
    # asked for: the board after the best play, its moves as arrows of their own
    page.click("#an-best")
    assert page.inner_text("#an-best") == back
    assert page.get_attribute("#an-best", "aria-pressed") == "true"
    assert page.evaluate(DRAWN) == expected(view["board"]) != expected(steps[step]["observation"])
    assert page.evaluate(ARROWS, "best") == arrows(view["moves"])
    assert page.evaluate(ARROWS, "played") == []
    assert best_words in page.inner_text("#an-legend")
    assert view["shown"] in page.inner_text("#an-legend")
    shot(page, artifacts / f"replay-best-{kind}-{lang}-{size['width']}-best.png")
    # the B key toggles back, and again to the best play
    page.keyboard.press("b")
    assert page.inner_text("#an-best") == show
    assert page.evaluate(DRAWN) == expected(steps[step]["observation"])
    page.keyboard.press("b")
    assert page.evaluate(DRAWN) == expected(view["board"])
    # another step shows its own board
    other = step + 1 if step + 1 < len(steps) else step - 1
    page.keyboard.press("ArrowRight" if other > step else "ArrowLeft")
    assert page.evaluate(DRAWN) == expected(steps[other]["observation"])
    assert page.evaluate(ARROWS, "best") == []
    page.keyboard.press("ArrowLeft" if other > step else "ArrowRight")
    assert page.inner_text("#an-best") == show
    assert page.evaluate(DRAWN) == expected(steps[step]["observation"])
    assert page.problems == [], page.problems
