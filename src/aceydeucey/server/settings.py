"""Server settings: where the store is, Redis, limits and the tables' defaults.

One ``pydantic-settings`` model read from the environment: every field is
``ACEYDEUCEY_<FIELD>`` (``ACEYDEUCEY_CLAIM_AFTER=120``); the store and Redis also
answer to the usual ``DATABASE_URL`` and ``REDIS_URL``.  Keyword arguments (the
command line's flags, the tests) win over the environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import AliasChoices, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = ["Settings", "default_database_url", "normalize_database_url"]


def normalize_database_url(url: str) -> str:
    """The driver's URL for a plain one: ``postgresql://`` (or ``postgres://``) uses
    asyncpg; SQLite uses the standard library's driver in the store's own thread
    (``sqlite+aiosqlite://``, the form of earlier releases, means the same file); other
    URLs that name a driver are kept.

    >>> normalize_database_url("postgres://u@db/x")
    'postgresql+asyncpg://u@db/x'
    >>> normalize_database_url("sqlite+aiosqlite:///tables.db")
    'sqlite:///tables.db'
    """
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite+aiosqlite://", "sqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def default_database_url() -> str:
    """The embedded store: a SQLite file in the user's data directory (created on demand)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("aceydeucey"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tables.sqlite3'}"


#: The shortest ``claim_after`` a table may set: an opponent's page reconnects within a
#: few seconds after a network hiccup or a reload, and must not lose the game meanwhile.
MIN_CLAIM_AFTER = 15.0


class Settings(BaseSettings):
    """Everything ``create_app`` needs (``ACEYDEUCEY_*`` environment variables, or keywords)."""

    model_config = SettingsConfigDict(
        env_prefix="ACEYDEUCEY_",
        env_ignore_empty=True,  # REDIS_URL="" means none, as it always did
        populate_by_name=True,
        extra="ignore",
        validate_assignment=True,
    )

    database_url: str = Field(
        default_factory=default_database_url,
        validation_alias=AliasChoices("database_url", "ACEYDEUCEY_DATABASE_URL", "DATABASE_URL"),
    )
    redis_url: str | None = Field(
        None, validation_alias=AliasChoices("redis_url", "ACEYDEUCEY_REDIS_URL", "REDIS_URL")
    )
    #: PostgreSQL schema to use (``search_path``); ``None`` is the server's default.
    database_schema: str | None = None
    #: Run the migrations at start-up (the CLI runs them once before starting workers).
    migrate: bool = True
    #: Largest HTTP request body and WebSocket message accepted, in bytes.
    max_body: int = Field(16 * 1024, ge=256)
    max_message: int = Field(4 * 1024, ge=256)
    #: Largest body a page accepts (a record uploaded to the replay viewer).
    max_upload: int = Field(4 * 1024 * 1024, ge=1024)
    #: Deepest JSON nesting accepted in a body or a message (a record needs about 6).
    max_json_depth: int = Field(32, ge=4, le=200)
    #: Chat: longest message (characters), and at most ``chat_burst`` per ``chat_window`` s.
    chat_max_length: int = 200
    chat_burst: int = 5
    chat_window: float = 10.0
    #: Seconds an opponent must have been away before the seat can be claimed (the
    #: default, and the shortest a table may choose).
    claim_after: float = 60.0
    min_claim_after: float = Field(MIN_CLAIM_AFTER, ge=0)
    #: Pause before each bot move (seconds), so people can follow a bot's play.
    bot_delay: float = 0.0
    #: Processes the bots think in (``server.botpool``), off the server's interpreter;
    #: 0: in a thread of the server's process.
    bot_processes: int = Field(0, ge=0, le=64)
    #: Longest nickname.
    max_name: int = 24
    #: Origins (``scheme://host[:port]``) besides the server's own that may call
    #: state-changing routes and open sockets (a comma-separated list in the environment).
    allowed_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    #: Rate limits (the ``limits`` notation: ``"20/minute"``, ``"5 per 10 seconds"``);
    #: per client address for creating tables and taking seats, per socket (or seat
    #: token over HTTP) for refused actions and for messages, per client address for
    #: wrong tokens.
    rate_create: str = "60/minute"
    rate_join: str = "120/minute"
    rate_act: str = "10/second"
    rate_message: str = "30/second"
    rate_wrong_token: str = "20/minute"
    #: Turn rate limits off (benchmarks that drive thousands of tables from one address).
    rate_limits: bool = True
    #: Seconds a client is told to wait (``Retry-After``) while the store is unreachable.
    retry_after: int = Field(5, ge=1)
    #: With several processes (Redis): how long a table's lease lasts unrenewed (its
    #: owner renews every third of it; a dead owner's tables move after it), and how
    #: long a command forwarded to a table's owner waits for the answer (seconds).
    lease_seconds: float = Field(10.0, ge=0.3)
    forward_timeout: float = Field(10.0, gt=0)
    #: Group commits: the steps of several tables written in one transaction (those that
    #: arrive while a commit is in flight), after waiting ``group_window`` s (0: none).
    group_commits: bool = True
    group_window: float = Field(0.0, ge=0, le=0.1)
    #: Send ``Secure`` on the seat cookie (set it behind HTTPS).
    secure_cookies: bool = False

    @field_validator("database_url", mode="after")
    @classmethod
    def _driver(cls, value: str) -> str:
        return normalize_database_url(value)

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [part for part in value.split(",")]
        if isinstance(value, list | tuple):
            return [str(v).strip().rstrip("/").lower() for v in value if str(v).strip()]
        return value

    @model_validator(mode="after")
    def _claim_floor(self) -> Settings:
        if self.claim_after < self.min_claim_after:
            raise ValueError(
                f"claim_after {self.claim_after} is below min_claim_after {self.min_claim_after}"
            )
        return self

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """The environment's settings, with every override that is not ``None`` on top."""
        return cls.model_validate({k: v for k, v in overrides.items() if v is not None})
