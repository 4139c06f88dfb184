"""Optional dependencies: the extra that installs each, and a clear error when one is missing.

The package installs what its games, terminal and server on SQLite need; the rest comes
with an extra (``pip install 'aceydeucey[plot]'``): ``plot`` (matplotlib, for
``--plot``), ``server`` (asyncpg and redis, for PostgreSQL and Redis), ``ray`` and
``ai`` (PettingZoo). A feature that needs a missing one refuses with
``ArgumentError("extra.missing")``, naming the command that installs it.

>>> EXTRAS["matplotlib"]
'plot'
"""

from __future__ import annotations

from importlib.util import find_spec

from aceydeucey.core.errors import ArgumentError

__all__ = ["EXTRAS", "require"]

#: importable module -> the extra that installs it
EXTRAS = {
    "matplotlib": "plot",
    "asyncpg": "server",
    "redis": "server",
    "ray": "ray",
    "pettingzoo": "ai",
}


def require(module: str, feature: str) -> None:
    """Raise ``ArgumentError("extra.missing")`` unless ``module`` is installed.

    ``feature`` names what needs it, as the user asked for it (``--plot``).
    """
    if find_spec(module) is None:
        extra = EXTRAS[module]
        raise ArgumentError(
            "extra.missing",
            feature=feature,
            module=module,
            extra=extra,
            command=f"pip install 'aceydeucey[{extra}]'",
        )
