"""The store's schema (SQLAlchemy Core tables; created by the Alembic migrations in
``migrations/``, the same on SQLite and PostgreSQL):

- ``game_tables``: one row per table: game, options, resolved rules, seat kinds,
  visibility, table settings, the secret server seed and its public commitment,
  the cut, status (``waiting``/``playing``/``over``) and the rematch link;
- ``table_seats``: who sits where: nickname and the SHA-256 of the seat's token
  (the token itself is never stored); primary key ``(table_id, seat)``;
- ``table_log``: the truth of a table: entries ``(table_id, seq)``, primary key,
  so two writers can never both append the same sequence number;
- ``table_chat``: the short table chat;
- ``table_leases``: which process owns a table (``owners.py``): one row per table held,
  renewed by its owner, taken over by another process once it has expired.
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

__all__ = ["MIGRATIONS", "chat", "leases", "log", "metadata", "seats", "tables"]

metadata = sa.MetaData()

tables = sa.Table(
    "game_tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seat_kinds", sa.JSON, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("config", sa.JSON, nullable=False),
    sa.Column("server_seed", sa.String(128), nullable=False),
    sa.Column("commitment", sa.String(128), nullable=False),
    sa.Column("cut", sa.String(2100), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rematch_of", sa.String(40), nullable=True),
    sa.Column("rematch", sa.String(40), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

seats = sa.Table(
    "table_seats",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),
)

log = sa.Table(
    "table_log",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("data", sa.JSON, nullable=True),
    sa.Column("at", sa.Float, nullable=False),
)

chat = sa.Table(
    "table_chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(1000), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_table_chat_table", "table_id", "id"),
)

leases = sa.Table(
    "table_leases",
    metadata,
    sa.Column("table_id", sa.String(40), primary_key=True),
    sa.Column("owner", sa.String(32), nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Index("ix_table_leases_owner", "owner"),
)

MIGRATIONS = Path(__file__).parent / "migrations"
