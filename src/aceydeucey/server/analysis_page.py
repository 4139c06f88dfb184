"""The replay viewer's analysis of a backgammon record: ``POST /replay/analysis``.

The body is a record (JSON, as ``/replay/steps`` takes it); the answer is
:meth:`~aceydeucey.backgammon.analysis.Analysis.to_json` at 0-ply (every decision's
equity lost and mark, each roll's luck, each player's error rate), the analysis that
``aceydeucey analyze backgammon`` prints, with what the viewer draws and says beside it
(:func:`~aceydeucey.backgammon.best_play.for_the_viewer`; language-free, as the
answer is kept for every reader):

* ``best_view`` at each checker play and named double that was not the best
  (:func:`~aceydeucey.backgammon.best_play.best_plays`: the board after the best
  choice and its moves);
* ``best_shown`` and ``played_shown`` at each checker play (the plays written from
  seat 0's side, as the viewer numbers the board and lists the moves);
* ``best_double`` and ``played_double`` at each named double (the doubles' numbers,
  which the page says in its words).

It runs in a worker thread, so the server goes on answering meanwhile, bounded by
:data:`TIME_LIMIT` seconds; an answer is kept per record (its bytes' digest,
:data:`CACHED` of them), so a finished table's replay opened again is answered at once.
Analyses run one at a time on a thread of their own (a request never takes the threads
the rest of the server uses), at most :data:`QUEUED` wait for it (more answer 503 with
``Retry-After``), and one that passes the time limit still finishes and is kept, so
asking again gets it.  A 5-point match of about 500 actions takes about 0.5 s at 0-ply
(``benchmarks/bench_analysis.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.record import Record
from aceydeucey.locale import t
from aceydeucey.server.pages import MAX_RECORD_BYTES, page_lang

__all__ = ["CACHED", "QUEUED", "TIME_LIMIT", "analysis_of", "router"]

router = APIRouter(include_in_schema=False)

#: the longest an analysis may run (seconds) before the viewer is told it is unavailable
TIME_LIMIT = 20.0
#: how many records' analyses are kept
CACHED = 64
#: how many analyses may be running or waiting at once (one runs at a time)
QUEUED = 4
_cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
#: the analyses running or waiting, by record digest (a second request joins the first)
_pending: dict[str, Future[dict[str, Any]]] = {}


def analysis_of(data: Any) -> dict[str, Any]:
    """The 0-ply analysis of a backgammon record (raises ``AceyDeuceyError`` on a record
    that does not replay, ``ValueError`` on one of another game)."""
    from aceydeucey.backgammon.analysis import analyze
    from aceydeucey.backgammon.best_play import for_the_viewer

    record = Record.from_dict(data)
    if record.game != "backgammon":
        raise ValueError(record.game)
    found = analyze(record, ply=0).to_json()
    for_the_viewer(record, found["decisions"])
    return found


def _error(code: str, lang: str, status: int, **params: Any) -> JSONResponse:
    message = t("web", code, lang, **params)
    return JSONResponse({"error": {"code": code, "params": params, "message": message}}, status)


@router.post("/replay/analysis")
async def replay_analysis_route(request: Request) -> JSONResponse:
    """The analysis of an uploaded backgammon record, for the replay viewer."""
    lang = page_lang(request)
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        return _error("error.record_too_large", lang, 413, limit=MAX_RECORD_BYTES)
    key = hashlib.sha256(body).hexdigest()
    if key in _cache:
        _cache.move_to_end(key)
        return JSONResponse(_cache[key])
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return _error("error.record_not_json", lang, 400)
    job = _pending.get(key)
    if job is None:
        if len(_pending) >= QUEUED:
            busy = _error("error.analysis_busy", lang, 503)
            busy.headers["Retry-After"] = "5"
            return busy
        job = _pending[key] = _worker.submit(analysis_of, data)
        loop = asyncio.get_running_loop()

        def finished(done: Future[dict[str, Any]]) -> None:  # on the worker's thread
            try:
                loop.call_soon_threadsafe(_finished, key, done)
            except RuntimeError:  # the loop has closed: nobody reads the cache meanwhile
                _finished(key, done)

        job.add_done_callback(finished)
    try:
        found = await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job)), TIME_LIMIT)
    except TimeoutError:
        late = _error("error.analysis_too_long", lang, 503, limit=int(TIME_LIMIT))
        late.headers["Retry-After"] = str(int(TIME_LIMIT))
        return late
    except AceyDeuceyError as exc:
        return JSONResponse({"error": exc.to_dict(lang)}, status_code=400)
    except (ValueError, KeyError, TypeError):
        return _error("error.analysis_unavailable", lang, 400)
    return JSONResponse(found)


def _finished(key: str, job: Future[dict[str, Any]]) -> None:
    """Keep a finished analysis (one past the time limit too): the next request gets it."""
    _pending.pop(key, None)
    if job.cancelled() or job.exception() is not None:
        return
    _cache[key] = job.result()
    while len(_cache) > CACHED:
        _cache.popitem(last=False)
