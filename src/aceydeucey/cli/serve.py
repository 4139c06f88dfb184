"""``aceydeucey serve``: the online tables (FastAPI on uvicorn).

The store is migrated once here, before any worker starts; each worker then builds
the application from the environment (``aceydeucey.server.app:factory``).
"""

from __future__ import annotations

import asyncio
import os
from typing import Annotated

import typer

from aceydeucey.cli.common import LangOption, console, fail, fail_error, resolve_lang
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.extras import require
from aceydeucey.locale import t

__all__ = ["register", "serve_command"]


def register(app: typer.Typer) -> None:
    """Add ``serve`` to the app."""
    app.command("serve")(serve_command)


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]


def serve_command(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            help="Database URL (sqlite:///FILE or postgresql+asyncpg://...); "
            "default: $DATABASE_URL, else a SQLite file in your data folder.",
            show_default=False,
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL carrying table events between processes (default: $REDIS_URL).",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option(help="Server processes (more than 1 needs Redis).", min=1)
    ] = 1,
    bot_delay: Annotated[
        float,
        typer.Option(
            help="Seconds a bot waits before each move.", min=0, envvar="ACEYDEUCEY_BOT_DELAY"
        ),
    ] = 0.6,
    bot_processes: Annotated[
        int,
        typer.Option(
            help="Processes the bots think in, off the server's (0: a thread of each server "
            "process).",
            min=0,
            max=64,
            envvar="ACEYDEUCEY_BOT_PROCESSES",
        ),
    ] = 0,
    ws_deflate: Annotated[
        bool,
        typer.Option(
            "--ws-deflate/--no-ws-deflate",
            help="Compress WebSocket messages (permessage-deflate): less traffic, more CPU "
            "(each socket compresses its own copy of a state).",
            envvar="ACEYDEUCEY_WS_DEFLATE",
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Serve the online tables: the lobby, the tables, the JSON API and its docs at /docs."""
    import uvicorn

    from aceydeucey.server.settings import Settings
    from aceydeucey.server.store import Store

    lang = resolve_lang(lang)
    settings = Settings.from_env(database_url=database, redis_url=redis)
    if workers > 1 and not settings.redis_url:
        fail(t("server_errors", "serve.workers_need_redis", lang), lang=lang)
    try:
        if settings.database_url.startswith("postgresql+asyncpg"):
            require("asyncpg", "--database postgresql+asyncpg://...")
        if settings.redis_url:
            require("redis", "--redis")
    except AceyDeuceyError as exc:
        fail_error(exc, lang)
    store = Store(
        settings.database_url,
        schema=settings.database_schema,
        group_commits=settings.group_commits,
        group_window=settings.group_window,
    )

    async def migrate() -> None:
        try:
            await store.migrate()
        finally:
            await store.close()

    try:
        asyncio.run(migrate())
    except Exception as exc:
        fail(
            t(
                "server_errors",
                "serve.database_failed",
                lang,
                url=_shown(settings.database_url),
                problem=f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
            ),
            lang=lang,
        )
    os.environ["DATABASE_URL"] = settings.database_url
    if settings.redis_url:
        os.environ["REDIS_URL"] = settings.redis_url
    os.environ["ACEYDEUCEY_MIGRATE"] = "0"
    os.environ["ACEYDEUCEY_BOT_DELAY"] = str(bot_delay)
    os.environ["ACEYDEUCEY_BOT_PROCESSES"] = str(bot_processes)
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "") else host
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    console.print(
        t(
            "server_errors",
            "serve.listening",
            lang,
            url=f"http://{shown_host}:{port}/",
            database=_shown(settings.database_url),
            workers=workers,
            count=workers,
        ),
        soft_wrap=True,
    )
    uvicorn.run(
        "aceydeucey.server.app:factory",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        ws_max_size=settings.max_message * 4,
        ws_per_message_deflate=ws_deflate,
        proxy_headers=False,
    )
