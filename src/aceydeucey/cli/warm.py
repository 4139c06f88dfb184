"""``aceydeucey warm``: compile every Numba kernel now (see :mod:`aceydeucey.kernels`).

Each target is built in its own process, as on first use, with the time it took; a
target whose cache is already built is said so. Useful right after installing, so that
no later command waits for a compilation.
"""

from __future__ import annotations

import typer

from aceydeucey import kernels
from aceydeucey.cli.common import LangOption, console, fail, resolve_lang
from aceydeucey.locale import t

__all__ = ["register", "warm_command"]


def register(app: typer.Typer) -> None:
    """Add ``warm`` to the app."""
    app.command("warm")(warm_command)


def warm_command(lang: LangOption = None) -> None:
    """Compile the fast paths for this computer now (once after installing)."""
    language = resolve_lang(lang)

    def say(key: str, **values: object) -> str:
        return t("kernels", key, language, **values)

    console.print(say("warm.cache", path=kernels.cache_dir()), markup=False)
    if not kernels.available():
        fail(say("warm.unavailable"), lang=language)
    for name, target in kernels.TARGETS.items():
        if kernels.ready(name):
            label = say(target.label)
            console.print(say("warm.already", name=label[:1].upper() + label[1:]), markup=False)
        elif not kernels.build(name, lang=language):
            fail(
                say("warm.failed", name=say(target.label), log=kernels.log_path(name)),
                lang=language,
            )
