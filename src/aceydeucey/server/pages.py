"""The HTML pages: lobby, table, replay viewer and rules sheets (server-rendered, Jinja2).

The pages hold no game logic: the table page and the lobby run small JavaScript
modules against the JSON API; the replay viewer asks :func:`replay_steps` for the
public observation after every action of a record (the engine stays on the server);
the rules page renders the engine's own rules sheet in the reader's language.

The language is the ``lang`` query parameter (which also sets the ``lang`` cookie),
else the ``lang`` cookie, else the browser's ``Accept-Language``.

"My games" is read on the server from this browser's seat cookies (``seat_<table id>``,
one per seat it holds): the page needs no token in script.
"""

from __future__ import annotations

import hmac
import importlib
import json
import re
from datetime import UTC, datetime
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

__all__ = ["MAX_RECORD_BYTES", "my_games", "not_found_page", "page_lang", "replay_steps", "router"]

router = APIRouter(include_in_schema=False)

#: An uploaded record larger than this is refused (a long backgammon game is ~20 kB).
MAX_RECORD_BYTES = 2_000_000
#: The longest record the viewer steps through.
MAX_STEPS = 20_000
COOKIE_AGE = 60 * 60 * 24 * 365
#: The most seat cookies "my games" reads (a browser that played more sees its latest).
MAX_MY_GAMES = 100
SEAT_COOKIE = "seat_"


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
def replay_upload_page(request: Request, table: str | None = None) -> HTMLResponse:
    """The viewer: ``?table=ID`` opens that table's game, else a record file is chosen."""
    table_id = table[:64] if table else None
    data: dict[str, Any] = {"page": "replay"}
    if table_id:
        data["table"] = table_id
    return _render(request, "replay.html", table_id=table_id, page_data=data)


@router.get("/my-games", response_class=HTMLResponse)
async def my_games_page(request: Request) -> HTMLResponse:
    """The games this browser sat at (from its seat cookies), newest first."""
    return _render(request, "my_games.html", games=await my_games(request))


async def my_games(request: Request) -> list[dict[str, Any]]:
    """Each table this browser holds a seat at: game, seat, players, status, result.

    A cookie whose table is gone or whose token no longer opens a seat is skipped.
    """
    from aceydeucey.server.service import hash_token

    service = request.app.state.service
    found: list[dict[str, Any]] = []
    cookies = [(k, v) for k, v in request.cookies.items() if k.startswith(SEAT_COOKIE) and v]
    for name, token in cookies[-MAX_MY_GAMES:]:
        table_id = name[len(SEAT_COOKIE) :][:64]
        try:
            t = await service.table(table_id)
            rows = await service.store.load_seats(t.id)
        except AceyDeuceyError:
            continue
        digest = hash_token(token)
        seat = next(
            (r["seat"] for r in rows if hmac.compare_digest(str(r["token_hash"]), digest)), None
        )
        if seat is None:
            continue
        found.append(_my_game(t, int(seat), page_lang(request)))
    found.sort(key=lambda g: g["last_at"], reverse=True)
    return found


def _my_game(t: Any, seat: int, lang: str) -> dict[str, Any]:
    outcome = t.state.outcome() if t.state.is_terminal() else None
    winners: list[int] = list(outcome.winners) if outcome is not None else []
    mine: str | None = str(outcome.returns[seat]) if outcome is not None else None
    if t.ended is not None:
        winners = list(t.ended.get("winners") or [])
    if not t.over:
        result = "playing"
    elif seat in winners:
        result = "won"
    elif winners:
        result = "lost"
    else:
        result = "even"
    if mine is not None and not mine.startswith("-") and mine != "0":
        mine = f"+{mine}"
    names = [_seat_name(s, i, seat, lang) for i, s in enumerate(t.seats)]
    last = float(t.entries[-1].at if t.entries else t.row.get("created_at") or 0)
    when = datetime.fromtimestamp(last, tz=UTC)
    return {
        "id": t.id,
        "game": t.game.game_id,
        "seat": seat,
        "players": names,
        "over": t.over,
        "result": result,
        "returns": mine,
        "last_at": last,
        "last_iso": when.isoformat(),
        "last_text": when.strftime("%Y-%m-%d %H:%M UTC"),
    }


def _seat_name(seat: Any, index: int, mine: int, lang: str) -> str:
    if seat.kind != "human":
        key = f"bot.{seat.bot}"
        bot = t("web", key, lang)
        return t("web", "lobby.seat_bot", lang, name=seat.bot if bot == key else bot)
    if index == mine:
        you = t("web", "mygames.you_seat", lang, n=index + 1)
        return f"{seat.name} ({you})" if seat.name else you
    return str(seat.name or t("web", "lobby.seat_free", lang))


def not_found_page(request: Request) -> HTMLResponse:
    """The page a browser gets for an address that names nothing (the API keeps JSON)."""
    lang = page_lang(request)
    return _render(
        request,
        "error.html",
        status=404,
        title=t("web", "error.not_found_title", lang),
        message=t("web", "error.not_found", lang),
    )


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
    sources = [p.source for p in rules_class.PRESETS.values() if p.name == name and p.source]
    return _render(
        request,
        "rules.html",
        game=game,
        preset=name,
        presets=list(rules_class.PRESETS),
        sections=sections,
        sources=sources,
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
        return [
            (str(h), [_in_words(game, str(p), lang) for p in ps]) for h, ps in sections(rules, lang)
        ]
    # a plain-text sheet: its title, a blank line, the rules, a blank line, its source.
    # The page names the game and preset itself and lists the sources as footnotes.
    text = str(module.rules_sheet(rules, lang))
    blocks = [
        [line.strip() for line in block.split("\n") if line.strip()] for block in text.split("\n\n")
    ]
    blocks = [b for b in blocks if b]
    if len(blocks) >= 3:
        blocks = blocks[1:-1]
    elif len(blocks) == 2:
        blocks = blocks[1:]
    paragraphs = [line for block in blocks for line in block]
    if not paragraphs:
        return []
    return [(t("web", "rules.how_to_play", lang), paragraphs)]


_SETTING = re.compile(r"^(?P<name>[a-z][a-z0-9_]*) = (?P<value>.+)$")


def _in_words(game: str, paragraph: str, lang: str) -> str:
    """A sheet's ``option = value`` line as the lobby names them (``Scoring: One point``)."""
    found = _SETTING.match(paragraph)
    if found is None:
        return paragraph
    name, value = found["name"], found["value"]
    label = t("web", f"option.{game}.{name}", lang)
    if label == f"option.{game}.{name}":
        return paragraph
    words = {"true": "lobby.yes", "false": "lobby.no", "none": "lobby.none"}
    key = words.get(value.lower(), f"choice.{game}.{name}.{value.strip(chr(39))}")
    shown = t("web", key, lang)
    return f"{label}: {value if shown == key else shown}"


# -- the replay viewer's engine end -------------------------------------------------------


def replay_steps(data: Any, lang: str = "en") -> dict[str, Any]:
    """Every public observation of a record, from the start to its last action.

    ``steps[0]`` is the state before anything happened; ``steps[i]`` follows
    ``actions[i - 1]``, made by ``seat`` (``None`` for chance's draws).  A record that
    does not replay raises ``RecordError``.
    """
    record = Record.from_dict(data)
    game = record.make_game()
    state = game.new_initial_state()
    steps: list[dict[str, Any]] = [{"action": None, "observation": state.observation(None)}]
    for index, text in enumerate(record.actions[:MAX_STEPS]):
        actor = state.current_player()  # the seat whose action it is (None: chance's)
        try:
            state = state.apply(text)
        except AceyDeuceyError as exc:
            raise RecordError(exc.code, index=index, text=text, cause=exc) from None
        seat = actor if actor >= 0 else None
        steps.append({"action": text, "seat": seat, "observation": state.observation(None)})
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
