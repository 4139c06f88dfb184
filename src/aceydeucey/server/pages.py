"""The HTML pages: lobby, table, replay viewer and rules sheets (server-rendered, Jinja2).

The pages hold no game logic: the table page and the lobby run small JavaScript
modules against the JSON API; the replay viewer asks :func:`replay_steps` for the
public observation after every action of a record (the engine stays on the server);
the rules page renders the engine's own rules sheet in the reader's language.

The language is the ``lang`` query parameter (which also sets the ``lang`` cookie),
else the ``lang`` cookie, else the browser's ``Accept-Language``.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from typing import Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from aceydeucey.core.errors import AceyDeuceyError, RecordError
from aceydeucey.core.record import Record
from aceydeucey.core.registry import game_class, game_ids
from aceydeucey.locale import LANGS, catalog, negotiate, render_error, t, translations
from aceydeucey.web import TEMPLATES

__all__ = ["MAX_RECORD_BYTES", "page_lang", "replay_steps", "router"]

router = APIRouter(include_in_schema=False)

#: An uploaded record larger than this is refused (a long backgammon game is ~20 kB).
MAX_RECORD_BYTES = 2_000_000
#: The longest record the viewer steps through.
MAX_STEPS = 20_000
COOKIE_AGE = 60 * 60 * 24 * 365


def page_lang(request: Request) -> str:
    """The reader's language: ``?lang=``, else the ``lang`` cookie, else ``Accept-Language``."""
    for value in (request.query_params.get("lang"), request.cookies.get("lang")):
        if value in LANGS:
            return value
    return negotiate(request.headers.get("accept-language"))


@cache
def _env(lang: str) -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.install_gettext_translations(translations("web", lang), newstyle=False)  # type: ignore[attr-defined]

    def say(key: str, **values: Any) -> str:
        return t("web", key, lang, **values)

    env.globals.update(
        t=say,
        lang=lang,
        langs=LANGS,
        messages_json=Markup(_script_json(catalog("web", lang))),
        game_messages_json=Markup(_script_json(_game_messages(lang))),
    )
    return env


#: The games' own UI catalogs whose event and outcome texts the table log uses.
GAME_DOMAINS = ("inbetween", "backgammon", "aces")


def _game_messages(lang: str) -> dict[str, str]:
    """``domain:key`` to text for the games' ``event.*`` and ``outcome.*`` messages."""
    out: dict[str, str] = {}
    for domain in GAME_DOMAINS:
        for key, text in catalog(domain, lang).items():
            if key.startswith(("event.", "outcome.")):
                out[f"{domain}:{key}"] = text
    return out


def _script_json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    lang = page_lang(request)
    path = request.url.path
    context.setdefault("page_data", {})
    context["page_data_json"] = Markup(_script_json(context["page_data"]))
    kept = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "lang"])
    here = quote(path + (f"?{kept}" if kept else ""), safe="")
    template = _env(lang).get_template(name)
    html = template.render(request=request, path=path, here=here, **context)
    response = HTMLResponse(html, status_code=status)
    asked = request.query_params.get("lang")
    if asked in LANGS:
        response.set_cookie("lang", asked, max_age=COOKIE_AGE, samesite="lax")
    return response


# -- pages -----------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def lobby(request: Request) -> HTMLResponse:
    return _render(request, "lobby.html", page_data={"page": "lobby"})


@router.get("/tables/{table_id}", response_class=HTMLResponse)
def table_page(request: Request, table_id: str) -> HTMLResponse:
    return _render(
        request, "table.html", table_id=table_id, page_data={"page": "table", "table": table_id}
    )


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse)
def replay_page(request: Request, table_id: str) -> HTMLResponse:
    return _render(
        request, "replay.html", table_id=table_id, page_data={"page": "replay", "table": table_id}
    )


@router.get("/replay", response_class=HTMLResponse)
def replay_upload_page(request: Request) -> HTMLResponse:
    return _render(request, "replay.html", table_id=None, page_data={"page": "replay"})


@router.get("/lang/{lang}")
def switch_lang(request: Request, lang: str, next: str = "/") -> Response:
    """Set the ``lang`` cookie and go back to ``next`` (a path on this site)."""
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if lang in LANGS:
        response.set_cookie("lang", lang, max_age=COOKIE_AGE, samesite="lax")
    return response


@router.get("/rules/{game}", response_class=HTMLResponse)
def rules_page(request: Request, game: str, preset: str | None = None) -> HTMLResponse:
    lang = page_lang(request)
    if game not in game_ids():
        return _render(
            request,
            "error.html",
            status=404,
            message=t("web", "error.unknown_game", lang, game=game, accepted=", ".join(game_ids())),
        )
    rules_class: Any = game_class(game).rules_class
    key = rules_class.PRESET_KEY
    name = preset or rules_class.DEFAULT_PRESET
    try:
        rules = rules_class.resolve(**{key: name})
    except AceyDeuceyError as exc:
        return _render(request, "error.html", status=400, message=_error_text(exc, lang))
    sections = sheet(game, rules, lang)
    if not sections:
        return _render(
            request, "error.html", status=404, message=t("web", "error.no_sheet", lang, game=game)
        )
    return _render(
        request,
        "rules.html",
        game=game,
        preset=name,
        presets=list(rules_class.PRESETS),
        sections=sections,
    )


def _error_text(exc: AceyDeuceyError, lang: str) -> str:
    return exc.render(lang)


def sheet(game: str, rules: Any, lang: str) -> list[tuple[str, list[str]]]:
    """The game's rules sheet as (heading, paragraphs), from the game's ``sheet`` module."""
    package = game_class(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(f"{package}.sheet")
    except ImportError:
        return []
    sections = getattr(module, "sheet_sections", None)
    if callable(sections):
        return [(str(h), [str(p) for p in ps]) for h, ps in sections(rules, lang)]
    text = str(module.rules_sheet(rules, lang))
    paragraphs = [p.strip() for p in text.split("\n") if p.strip()]
    if not paragraphs:
        return []
    return [(paragraphs[0], paragraphs[1:])]


# -- the replay viewer's engine end -------------------------------------------------------


def replay_steps(data: Any, lang: str = "en") -> dict[str, Any]:
    """Every public observation of a record, from the start to its last action.

    ``steps[0]`` is the state before anything happened; ``steps[i]`` follows
    ``actions[i - 1]``.  A record that does not replay raises ``RecordError``.
    """
    record = Record.from_dict(data)
    game = record.make_game()
    state = game.new_initial_state()
    steps: list[dict[str, Any]] = [{"action": None, "observation": state.observation(None)}]
    for index, text in enumerate(record.actions[:MAX_STEPS]):
        try:
            state = state.apply(text)
        except AceyDeuceyError as exc:
            raise RecordError(exc.code, index=index, text=text, cause=exc) from None
        steps.append({"action": text, "observation": state.observation(None)})
    state = record.apply_ending(state)  # a resigned or claimed game ends as its record says
    outcome = state.outcome() if state.is_terminal() else None
    return {
        "game": record.game,
        "rules": record.rules,
        "players": record.players,
        "fairness": record.fairness,
        "result": record.result,
        "terminal": state.is_terminal(),
        "outcome": _outcome_view(outcome, lang),
        "verification": verification(record, lang),
        "steps": steps,
    }


def verification(record: Record, lang: str) -> dict[str, Any]:
    """Whether every card and die of ``record`` is the one its revealed seeds give.

    ``ok`` is ``None`` where the record carries no revealed seed (a game still being
    played, or one dealt without the fairness scheme).
    """
    fairness = record.fairness or {}
    if not fairness.get("server_seed"):
        return {"ok": None, "message": t("web", "replay.no_seed", lang)}
    from aceydeucey.server.fairness import verify

    try:
        found = verify(record)
    except AceyDeuceyError as exc:
        return {"ok": False, "message": exc.render(lang)}
    view: dict[str, Any] = dict(found.to_dict(lang))
    if view.get("ok"):
        view["message"] = t("web", "replay.verified", lang)
    return view


def _outcome_view(outcome: Any, lang: str) -> dict[str, Any] | None:
    if outcome is None:
        return None
    view: dict[str, Any] = dict(outcome.to_dict())
    view["message"] = render_error(view["termination"], view["params"], lang)
    return view


@router.post("/coach/inbetween")
async def inbetween_coach(request: Request) -> JSONResponse:
    """The exact odds of an In-Between decision, from the seat's own observation.

    Body: ``{"observation": ..., "rules": ...}`` (the observation a seat was sent and
    the table's rules).  Answers the third card's chances against the posts, the
    expected chips of every legal action, as exact fractions (``"7/25"``), and each
    stake's advice (``bets``, as ``DecisionOdds.to_dict`` writes them: the best stake by
    expected chips and Kelly's fraction and stake for the seat's own chips).  Only what
    the posted view shows is used, so a seat learns nothing it could not see.
    """
    from aceydeucey.cards import Card
    from aceydeucey.inbetween.odds import decision_odds, post_odds
    from aceydeucey.inbetween.rules import Rules

    lang = page_lang(request)
    try:
        body = json.loads(await request.body())
        obs = dict(body["observation"])
        if not obs.get("legal_actions"):
            raise ValueError("no decision to coach")
        rules_data = body.get("rules") or obs.get("rules") or {}
        obs["rules"] = rules_data
        decision = decision_odds(Rules.from_dict(rules_data), obs)
        values = {str(k): str(v) for k, v in decision.values.items()}
        bets = [bet.to_dict() for bet in decision.bets if bet.advice is not None]
        odds: dict[str, str] | None = None
        posts = [Card.from_text(str(c)) for c in obs.get("posts") or []]
        if len(posts) == 2:
            posts_text = {str(c) for c in obs.get("posts") or []}
            seen = [
                Card.from_text(str(c)) for c in obs.get("seen") or [] if str(c) not in posts_text
            ]
            rules = Rules.from_dict(rules_data) if rules_data else None
            p = post_odds(
                posts[0],
                posts[1],
                seen,
                decks=int(obs.get("decks") or 1),
                ace_low=bool(obs.get("ace_low")),
                rules=rules,
            )
            odds = {"inside": str(p.inside), "post": str(p.post), "outside": str(p.outside)}
    except (ValueError, KeyError, TypeError, AttributeError):
        return _error("error.coach_unavailable", lang, 400)
    return JSONResponse({"values": values, "odds": odds, "bets": bets})


def _error(code: str, lang: str, status: int, **params: Any) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "params": params, "message": t("web", code, lang, **params)}},
        status_code=status,
    )


@router.post("/replay/steps")
async def replay_steps_route(request: Request) -> JSONResponse:
    """The public observations of an uploaded record (JSON body), for the replay viewer."""
    lang = page_lang(request)
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        return _error("error.record_too_large", lang, 413, limit=MAX_RECORD_BYTES)
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return _error("error.record_not_json", lang, 400)
    try:
        return JSONResponse(replay_steps(data, lang))
    except AceyDeuceyError as exc:
        return JSONResponse({"error": exc.to_dict(lang)}, status_code=400)
