"""GNU Backgammon (the ``gnubg`` module) never asks for confirmation in these tests.

gnubg asks before it abandons a game in progress ("new session", "new game" in the
middle of one) and reads the answer from file descriptor 0: in a pytest-xdist worker
that is a pipe nobody writes, so the test waited for ever.  Confirmation is turned
off once, when this folder's tests are collected, before any test drives gnubg.
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):
    import gnubg

    gnubg.command("set confirm new off")
    gnubg.command("set confirm default yes")
