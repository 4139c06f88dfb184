"""The online tables: a FastAPI application serving the games over HTTP and WebSockets.

``create_app(settings)`` builds the application (``app.py``); the table service
(``service.py``) keeps each table as its ordered log of actions in the store
(``store.py``, SQLAlchemy on SQLite or PostgreSQL, migrated with Alembic) and
pushes every accepted action to the table's sockets, across processes through
Redis (``pubsub.py``).  See ``docs/server.md``.
"""
