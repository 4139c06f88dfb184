"""Server settings: where the store is, Redis, limits and the tables' defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Settings", "default_database_url", "normalize_database_url"]


def normalize_database_url(url: str) -> str:
    """The async driver's URL for a plain one: ``postgresql://`` (or ``postgres://``) uses
    asyncpg, ``sqlite:///`` aiosqlite; URLs that name a driver are kept.

    >>> normalize_database_url("postgres://u@db/x")
    'postgresql+asyncpg://u@db/x'
    >>> normalize_database_url("sqlite:///tables.db")
    'sqlite+aiosqlite:///tables.db'
    """
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def default_database_url() -> str:
    """The embedded store: a SQLite file in the user's data directory (created on demand)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("aceydeucey"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{folder / 'tables.sqlite3'}"


@dataclass
class Settings:
    """Everything ``create_app`` needs; ``from_env`` reads ``DATABASE_URL`` and ``REDIS_URL``."""

    database_url: str = field(default_factory=default_database_url)
    redis_url: str | None = None
    #: PostgreSQL schema to use (``search_path``); ``None`` is the server's default.
    database_schema: str | None = None
    #: Run the migrations at start-up (the CLI runs them once before starting workers).
    migrate: bool = True
    #: Largest HTTP request body and WebSocket message accepted, in bytes.
    max_body: int = 16 * 1024
    max_message: int = 4 * 1024
    #: Largest body a page accepts (a record uploaded to the replay viewer).
    max_upload: int = 4 * 1024 * 1024
    #: Chat: longest message (characters), and at most ``chat_burst`` per ``chat_window`` s.
    chat_max_length: int = 200
    chat_burst: int = 5
    chat_window: float = 10.0
    #: Seconds an opponent must have been away before the seat can be claimed.
    claim_after: float = 60.0
    #: Pause before each bot move (seconds), so people can follow a bot's play.
    bot_delay: float = 0.0
    #: Longest nickname.
    max_name: int = 24

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        env: dict[str, object] = {}
        if os.environ.get("DATABASE_URL"):
            env["database_url"] = os.environ["DATABASE_URL"]
        if os.environ.get("REDIS_URL"):
            env["redis_url"] = os.environ["REDIS_URL"]
        if os.environ.get("ACEYDEUCEY_DATABASE_SCHEMA"):
            env["database_schema"] = os.environ["ACEYDEUCEY_DATABASE_SCHEMA"]
        if os.environ.get("ACEYDEUCEY_MIGRATE") == "0":
            env["migrate"] = False
        if os.environ.get("ACEYDEUCEY_BOT_DELAY"):
            env["bot_delay"] = float(os.environ["ACEYDEUCEY_BOT_DELAY"])
        if os.environ.get("ACEYDEUCEY_CLAIM_AFTER"):
            env["claim_after"] = float(os.environ["ACEYDEUCEY_CLAIM_AFTER"])
        env.update({k: v for k, v in overrides.items() if v is not None})
        if isinstance(env.get("database_url"), str):
            env["database_url"] = normalize_database_url(str(env["database_url"]))
        return cls(**env)  # type: ignore[arg-type]
