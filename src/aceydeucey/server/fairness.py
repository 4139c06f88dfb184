"""The one place the server imports provably fair chance from.

The server uses ``new_server_seed``, ``commitment``, ``FairChance``, ``cutting_seat``
and ``verify``; switching to another implementation is this one import.
"""

from __future__ import annotations

from aceydeucey.core.fairness import (
    FairChance,
    commitment,
    cutting_seat,
    new_server_seed,
    verify,
)

__all__ = ["FairChance", "commitment", "cutting_seat", "new_server_seed", "verify"]
