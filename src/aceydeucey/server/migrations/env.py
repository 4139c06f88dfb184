"""Alembic environment: runs on the connection ``Store.migrate`` hands over."""

from __future__ import annotations

from alembic import context


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


try:
    _ready = context.config is not None
except (
    NameError,
    AttributeError,
):  # imported outside Alembic (e.g. by doctest collection): nothing to run
    _ready = False

if _ready:
    run_migrations()
