"""One describer of rule options: type, choices, range, default, help, validation, text.

Every game's ``Rules`` dataclass declares its options as fields (``rules.option``); this
module reads each field once into an :class:`OptionSpec`, built on a pydantic
``TypeAdapter`` of the field's type, and every front end asks it the same questions:

- validation (``check``): the value has the option's type (strictly: ``True`` is no
  ``int``), is one of the ``Literal``'s words, lies in its range; the errors are
  ``rules.wrong_type``, ``rules.not_a_choice`` and ``rules.out_of_range``;
- coercion from text (``parse``: the command line's ``-o option=value``, a form's
  field): ``"3"`` → 3, ``"yes"`` → True, ``"none"`` → None, ``"6,4,2,1"`` → a tuple,
  words of a ``Literal`` in any case;
- description (``describe``): the one readable type (``int``, ``bool``, ``str``,
  ``int | None``, ``list[int]``, ``int | 'draw'``), the choices (the ``Literal``'s
  words; the preset names for the preset key), the range, the default, and the
  JSON schema pydantic derives (the lobby form and ``/api/games`` read it).

The choices of an option are its ``Literal`` type, written once.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import TypeAdapter, ValidationError

from aceydeucey.core.errors import RulesError, message

if TYPE_CHECKING:
    from aceydeucey.core.rules import RulesBase

__all__ = ["OptionSpec", "json_ready", "option_specs"]

_NONE_WORDS = ("none", "null")


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game's rules, as every front end sees it."""

    game: str
    name: str
    hint: Any
    default: Any
    choices: tuple[Any, ...] | None
    min: int | None
    max: int | None
    help: str
    source: str
    preset_key: bool
    adapter: TypeAdapter[Any] = field(compare=False, repr=False)
    #: the option's number is a seat (0-based): the schema says so with ``"x-seat": true``
    seat: bool = False

    # -- validation -------------------------------------------------------------------
    def check(self, value: Any) -> None:
        """Refuse a value of the wrong type, outside the choices or out of range."""
        try:
            self.adapter.validate_python(value, strict=True)
        except ValidationError:
            if self.choices is not None and not isinstance(value, bool):
                self._not_a_choice(value)
            raise RulesError(
                "rules.wrong_type",
                option=self.name,
                game=self.game,
                options=[self.name],
                expected=self.type_text,
                kind=message(f"rules.kind.{self.kind}"),
                value=repr(value),
            ) from None
        if self.choices is not None and value not in self.choices:
            self._not_a_choice(value)
        if isinstance(value, int) and not isinstance(value, bool):
            lo, hi = self.min, self.max
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                span = f"{lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'}"
                if lo is not None and hi is not None:
                    bound = message("rules.bound.between", min=lo, max=hi)
                elif lo is not None:
                    bound = message("rules.bound.at_least", min=lo)
                else:
                    bound = message("rules.bound.at_most", max=hi)
                raise RulesError(
                    "rules.out_of_range",
                    option=self.name,
                    game=self.game,
                    options=[self.name],
                    value=value,
                    min=lo,
                    max=hi,
                    span=span,
                    bound=bound,
                )

    def _not_a_choice(self, value: Any) -> typing.NoReturn:
        raise RulesError(
            "rules.not_a_choice",
            option=self.name,
            game=self.game,
            options=[self.name],
            value=json_ready(value),
            accepted=[json_ready(c) for c in self.choices or ()],
        )

    # -- text ---------------------------------------------------------------------------
    def parse(self, text: str) -> Any:
        """The value ``text`` spells for this option (lax: the command line, a form).

        Text that spells no value of the option's type comes back unchanged, so that
        ``check`` names the problem with the accepted values.
        """
        text = text.strip()
        words = {str(w).lower(): w for w in (*self.words, *(self.choices or ()))}
        if text.lower() in words:
            return words[text.lower()]
        if text.lower() in _NONE_WORDS and self.nullable:
            return None
        candidate: Any = text
        if typing.get_origin(self.hint) is tuple:
            candidate = [part.strip() for part in text.split(",") if part.strip()]
        try:
            value = self.adapter.validate_python(candidate)
        except ValidationError:
            return text
        return tuple(value) if isinstance(value, list) else value

    # -- description --------------------------------------------------------------------
    @property
    def words(self) -> tuple[Any, ...]:
        """The ``Literal`` words the type accepts (alone, or beside another type)."""
        return tuple(_literal_words(self.hint))

    @property
    def kind(self) -> str:
        """What a value of the option is, in a word a refusal says: ``number`` (whole, maybe
        with words or none beside it), ``flag`` (yes or no), ``list`` or ``word``."""
        args = [a for a in _union_args(self.hint) if a is not type(None)]
        if typing.get_origin(self.hint) is tuple:
            return "list"
        if int in args:
            return "number"
        if bool in args:
            return "flag"
        return "word"

    @property
    def nullable(self) -> bool:
        return type(None) in _union_args(self.hint)

    @property
    def type_text(self) -> str:
        """The option's type as a form or a help screen shows it (one form everywhere)."""
        return _readable_type(self.hint)

    def json_schema(self) -> dict[str, Any]:
        """pydantic's JSON schema of the option, with its default, range and help."""
        schema = dict(self.adapter.json_schema())
        if self.preset_key and self.choices is not None:
            schema = {"enum": list(self.choices), "type": "string"}
        if self.min is not None:
            schema["minimum"] = self.min
        if self.max is not None:
            schema["maximum"] = self.max
        schema["default"] = json_ready(self.default)
        if self.help:
            schema["description"] = self.help
        if self.seat:
            schema["x-seat"] = True
        return schema

    def describe(self) -> dict[str, Any]:
        """JSON-ready: ``{"name", "type", "choices", "min", "max", "default", "help",
        "source", "preset_key", "nullable", "schema"}`` (``help`` the declared English)."""
        return {
            "name": self.name,
            "type": self.type_text,
            "choices": None if self.choices is None else [json_ready(c) for c in self.choices],
            "min": self.min,
            "max": self.max,
            "default": json_ready(self.default),
            "help": self.help,
            "source": self.source,
            "preset_key": self.preset_key,
            "nullable": self.nullable,
            "schema": self.json_schema(),
        }


_SPECS: dict[type, tuple[OptionSpec, ...]] = {}


def option_specs(rules: type[RulesBase]) -> tuple[OptionSpec, ...]:
    """Every option of ``rules``, in declaration order (read once per class)."""
    specs = _SPECS.get(rules)
    if specs is None:
        specs = _SPECS[rules] = _read_specs(rules)
    return specs


def _read_specs(rules: type[RulesBase]) -> tuple[OptionSpec, ...]:
    hints = typing.get_type_hints(rules)
    out: list[OptionSpec] = []
    for f in dataclasses.fields(rules):  # type: ignore[arg-type]
        meta, hint = f.metadata, hints[f.name]
        preset_key = f.name == rules.PRESET_KEY
        choices: tuple[Any, ...] | None = None
        if preset_key:
            choices = tuple(rules.PRESETS)
        elif typing.get_origin(hint) is Literal:
            choices = typing.get_args(hint)
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = None
        out.append(
            OptionSpec(
                game=rules.GAME,
                name=f.name,
                hint=hint,
                default=default,
                choices=choices,
                min=meta.get("min"),
                max=meta.get("max"),
                help=meta.get("help", ""),
                source=meta.get("source", ""),
                preset_key=preset_key,
                adapter=TypeAdapter(hint),
                seat=bool(meta.get("seat", False)),
            )
        )
    return tuple(out)


def _union_args(hint: Any) -> tuple[Any, ...]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return (hint,)


def _literal_words(hint: Any) -> list[Any]:
    words: list[Any] = []
    for arg in _union_args(hint):
        if typing.get_origin(arg) is Literal:
            words.extend(typing.get_args(arg))
    return words


def _readable_type(hint: Any) -> str:
    """``int | None``, ``list[int]``, ``str`` (a choice of words), ``int | 'draw'``."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return "any"
    if hint is type(None):
        return "None"
    if origin is Literal:
        # A plain choice of words is a str (its choices are listed apart).
        names = dict.fromkeys(type(a).__name__ for a in typing.get_args(hint))
        return " | ".join(names)
    if origin in (typing.Union, types.UnionType):
        parts: list[str] = []
        for arg in typing.get_args(hint):
            if typing.get_origin(arg) is Literal:
                # Words accepted besides another type: named, as they are no choices list.
                parts.extend(repr(a) for a in typing.get_args(arg))
            else:
                parts.append(_readable_type(arg))
        return " | ".join(dict.fromkeys(parts))
    if origin is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        inner = " | ".join(dict.fromkeys(_readable_type(a) for a in args)) or "any"
        return f"list[{inner}]"  # a tuple travels as a JSON list
    return getattr(hint, "__name__", str(hint))


def json_ready(value: Any) -> Any:
    """``value`` as JSON holds it: tuples as lists, anything unusual as text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [json_ready(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): json_ready(v) for k, v in value.items()}
    return str(value)
