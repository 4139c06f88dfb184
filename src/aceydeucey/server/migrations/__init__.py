"""Alembic migrations of the server's store (run in-process by ``Store.migrate``)."""
