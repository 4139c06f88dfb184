"""The first schema: tables, seats, the action log and the chat.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
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
    op.create_index("ix_game_tables_lobby", "game_tables", ["public", "status", "created_at"])
    op.create_table(
        "table_seats",
        sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("joined_at", sa.Float, nullable=False),
    )
    op.create_table(
        "table_log",
        sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("data", sa.JSON, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "table_chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(1000), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_table_chat_table", "table_chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_table("table_chat")
    op.drop_table("table_log")
    op.drop_table("table_seats")
    op.drop_table("game_tables")
