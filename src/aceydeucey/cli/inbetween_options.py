"""What In-Between's terminal commands share: the preset option, the rules resolved from
the preset and ``--option`` values, and an engine error shown in the user's language.
"""

from __future__ import annotations

from typing import Annotated, Any, NoReturn

import typer

from aceydeucey.cli.common import error_text, fail
from aceydeucey.core.errors import AceyDeuceyError

__all__ = ["DOMAIN", "PresetOption", "fail_engine", "resolve_rules"]


DOMAIN = "inbetween"

PresetOption = Annotated[
    str | None,
    typer.Option(
        "--preset",
        metavar="NAME",
        help="Rules preset: guide (default), banker, sheets, red-dog, three-posts.",
    ),
]


def fail_engine(exc: Exception, lang: str) -> NoReturn:
    """An engine error in the user's language (no traceback)."""
    fail(error_text(exc, lang) if isinstance(exc, AceyDeuceyError) else str(exc), lang=lang)


def resolve_rules(preset: str | None, options: dict[str, Any], lang: str) -> Any:
    from aceydeucey.inbetween.rules import Rules

    try:
        return Rules.resolve(preset=preset, **options)
    except AceyDeuceyError as exc:
        fail_engine(exc, lang)
    except TypeError as exc:  # a dataclass refusing an argument
        fail(str(exc), lang=lang)
