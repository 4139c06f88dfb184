"""Command-line usage errors (a missing option, a value of the wrong type, an unknown
option) in the user's language.

Typer and Click write these in English.  :func:`run` is the console script's entry:
for English it leaves Typer's own rich error screens alone; for any other language it
runs the app without Click's standalone handling, so that a usage error reaches us,
and says it from the ``cli`` catalog (``usage.*``), with the same exit status (2).

>>> argv_lang(["simulate", "inbetween", "--lang", "pt"]), argv_lang(["odds", "--lang=en"])
('pt', 'en')
"""

from __future__ import annotations

import enum
import importlib
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import typer

from aceydeucey.locale import LANGS, default_lang, t

__all__ = ["argv_lang", "run", "usage_text"]


def _exceptions(name: str) -> tuple[type[Any], ...]:
    """Click's exception ``name``, and Typer's copy of it where Typer vendors Click."""
    found: list[type[Any]] = [getattr(click.exceptions, name)]
    try:
        vendored = importlib.import_module("typer._click.exceptions")
    except ImportError:  # pragma: no cover - a Typer that uses Click itself
        return tuple(found)
    if hasattr(vendored, name):
        found.append(getattr(vendored, name))
    return tuple(found)


USAGE = _exceptions("UsageError")
MISSING = _exceptions("MissingParameter")
NO_SUCH_OPTION = _exceptions("NoSuchOption")
BAD_OPTION_USAGE = _exceptions("BadOptionUsage")
BAD_PARAMETER = _exceptions("BadParameter")
ABORT: tuple[type[Any], ...] = (*_exceptions("Abort"), typer.Abort)
#: Click's text for words after the last argument a command takes.
_EXTRA = re.compile(r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)")
#: Click's texts for an option given no value, and for a flag given one.
_NEEDS_VALUE = re.compile(r"Option '(.*)' requires (?:an argument|\d+ arguments)")
_TAKES_NO_VALUE = re.compile(r"Option '(.*)' does not take a value")
#: Click's text for a word that names no command of a group (with Typer's suggestion).
_NO_COMMAND = re.compile(r"No such command '(.*?)'\.(?: Did you mean '(.*)'\?)?")


def argv_lang(argv: Sequence[str]) -> str:
    """The language a command line asks for (``--lang X``), else the environment's."""
    for i, arg in enumerate(argv):
        value = None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value in LANGS:
            return value
    return default_lang()


def _option(param: Any, hint: Any = None) -> str:
    if param is not None and param.opts:
        return "/".join(param.opts)
    if hint:
        return str(hint)
    if param is not None and param.name:
        return str(param.name)
    return "?"


def _value(argv: Sequence[str], param: Any) -> str | None:
    """The text the user gave ``param`` on the command line, if it can be found there."""
    if param is None:
        return None
    for i, arg in enumerate(argv):
        for opt in param.opts:
            if arg == opt and i + 1 < len(argv):
                return argv[i + 1]
            if arg.startswith(opt + "="):
                return arg.partition("=")[2]
    return None


def _expected(param: Any, lang: str) -> str:
    """What a value of ``param`` must be, in ``lang`` (from its declared type)."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None or high is not None:
        if high is None:
            return t("cli", "usage.expect_at_least", lang, low=low)
        if low is None:
            return t("cli", "usage.expect_at_most", lang, high=high)
        return t("cli", "usage.expect_between", lang, low=low, high=high)
    kind = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if kind is None:  # Click's own parameter types
        name = getattr(getattr(param, "type", None), "name", "")
        kind = {"integer": int, "float": float, "boolean": bool, "path": Path}.get(name)
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        choices = ", ".join(str(member.value) for member in kind)
        return t("cli", "usage.expect_choice", lang, choices=choices)
    if kind is bool:
        return t("cli", "usage.expect_bool", lang)
    if kind is int:
        return t("cli", "usage.expect_int", lang)
    if kind is float:
        return t("cli", "usage.expect_number", lang)
    if isinstance(kind, type) and issubclass(kind, Path):
        return t("cli", "usage.expect_path", lang)
    return t("cli", "usage.expect_other", lang)


def usage_text(error: Any, argv: Sequence[str], lang: str) -> str:
    """The message of a usage error (Click's or Typer's) in ``lang``."""
    if isinstance(error, MISSING):
        if getattr(error.param, "param_type_name", "") == "argument":
            # by its name on the usage line (its metavar), else in capitals as Click does
            name = error.param.metavar or str(error.param.name).upper()
            return t("cli", "usage.missing_argument", lang, argument=name)
        return t("cli", "usage.missing", lang, option=_option(error.param, error.param_hint))
    if isinstance(error, NO_SUCH_OPTION):
        near = ", ".join(sorted(error.possibilities or ()))
        text = t("cli", "usage.no_such_option", lang, option=error.option_name)
        return text + (t("cli", "usage.did_you_mean", lang, options=near) if near else "")
    if isinstance(error, BAD_PARAMETER):
        option = _option(error.param, error.param_hint)
        expected = _expected(error.param, lang)
        value = _value(argv, error.param)
        if value is None:
            return t("cli", "usage.bad_value_bare", lang, option=option, expected=expected)
        return t("cli", "usage.bad_value", lang, option=option, value=value, expected=expected)
    if isinstance(error, BAD_OPTION_USAGE):
        needs = _NEEDS_VALUE.match(str(error.format_message()))
        if needs:
            return t("cli", "usage.needs_value", lang, option=needs.group(1))
        takes_none = _TAKES_NO_VALUE.match(str(error.format_message()))
        if takes_none:
            return t("cli", "usage.takes_no_value", lang, option=takes_none.group(1))
    no_command = _NO_COMMAND.match(str(error.format_message()))
    if no_command:
        text = t("cli", "usage.no_such_command", lang, command=no_command.group(1))
        near = no_command.group(2)
        return text + (t("cli", "usage.did_you_mean", lang, options=near) if near else "")
    extra = _EXTRA.match(str(error.format_message()))
    if extra:
        return t("cli", "usage.extra", lang, arguments=extra.group(1))
    return t("cli", "usage.other", lang, text=error.format_message())


def run(app: typer.Typer, argv: Sequence[str] | None = None) -> None:
    """Run ``app`` as the console script: usage errors in the command line's language."""
    args = list(sys.argv[1:] if argv is None else argv)
    lang = argv_lang(args)
    if lang == "en":
        app(args=args, prog_name="aceydeucey")
        return
    try:
        code = app(args=args, prog_name="aceydeucey", standalone_mode=False)
    except USAGE as caught:
        error: Any = caught
        from aceydeucey.cli.common import err_console

        label = t("cli", "error.label", lang)
        err_console.print(f"[bold red]{label}[/] ", end="")
        err_console.print(usage_text(error, args, lang), markup=False)
        if getattr(error, "ctx", None) is not None:
            err_console.print(
                t("cli", "usage.try_help", lang, command=error.ctx.command_path), markup=False
            )
        sys.exit(getattr(error, "exit_code", 2))
    except ABORT:  # input ended at a prompt: Click says "Aborted!" in English
        from aceydeucey.cli.common import err_console

        err_console.print(t("cli", "usage.aborted", lang), markup=False)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
