"""GNU Backgammon (the ``gnubg`` module) never asks for confirmation in these tests.

gnubg asks before it abandons a game in progress ("new session", "new game" in the
middle of one) and reads the answer from file descriptor 0: in a pytest-xdist worker
that is a pipe nobody writes, so the test waited for ever.  Confirmation is turned
off once, when this folder's tests are collected, before any test drives gnubg, and
gnubg runs on one thread: with its worker threads a command can wait for ever inside the
Python module (seen with ``hint``, and once in a worker's ``new session`` before any
test there had set it).
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):
    import gnubg

    gnubg.command("set threads 1")
    gnubg.command("set confirm new off")
    gnubg.command("set confirm default yes")
