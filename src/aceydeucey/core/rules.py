"""Rules as data: the base of every game's frozen ``Rules`` dataclass.

A game declares its options as dataclass fields made with :func:`option`
(default, accepted values or range, a help line and the source that describes
it) and its presets as :class:`Preset` values.  :meth:`RulesBase.resolve`
turns a preset name plus keyword overrides into a validated ``Rules``; unknown
names and out-of-range values raise :class:`RulesError` listing what is
accepted, and each game's ``check`` rejects contradictory combinations naming
both options.  :meth:`RulesBase.describe_options` and
:meth:`RulesBase.describe_presets` describe a game's options and presets for front
ends, JSON-ready, with help lines and summaries in English or Portuguese from the
``options`` catalog (``<game>.option.<name>``, ``<game>.preset.<name>``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from aceydeucey.core.errors import RulesError
from aceydeucey.locale import check_lang, t

__all__ = ["Preset", "RulesBase", "contradiction", "option"]


@dataclass(frozen=True)
class Preset:
    """A named set of option values, with the source it comes from."""

    name: str
    options: Mapping[str, Any]
    source: str
    summary: str = ""


def option(
    default: Any,
    *,
    choices: tuple[Any, ...] | None = None,
    min: int | None = None,
    max: int | None = None,
    help: str = "",
    source: str = "",
) -> Any:
    """Declare one rule option (a dataclass field with validation metadata)."""
    meta = {"choices": choices, "min": min, "max": max, "help": help, "source": source}
    return field(default=default, metadata=meta)


def _type_ok(value: Any, hint: Any) -> bool:
    origin = typing.get_origin(hint)
    if hint is Any:
        return True
    if origin is Literal:
        return any(value == arg and type(value) is type(arg) for arg in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return any(_type_ok(value, arg) for arg in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_type_ok(v, args[0]) for v in value)
        return len(args) == len(value) and all(map(_type_ok, value, args))
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _describe_type(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin is Literal:
        return " | ".join(repr(a) for a in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(_describe_type(a) for a in typing.get_args(hint))
    if hint is type(None):
        return "None"
    return getattr(hint, "__name__", str(hint))


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved type hints of a Rules class (computed once: they are costly)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")


def _coerce(text: str, hint: Any) -> Any:
    """Read ``text`` as a value of type ``hint``, or raise ValueError."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        args = sorted(typing.get_args(hint), key=_coerce_order)
        for arg in args:
            try:
                return _coerce(text, arg)
            except ValueError:
                continue
        raise ValueError(text)
    if origin is Literal:
        for arg in typing.get_args(hint):
            if str(arg).lower() == text.lower():
                return arg
        raise ValueError(text)
    if hint is type(None):
        if text.lower() in ("none", "null"):
            return None
        raise ValueError(text)
    if hint is bool:
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        raise ValueError(text)
    if hint is int:
        return int(text)
    if origin is tuple:
        parts = typing.get_args(hint)
        element = parts[0] if parts else str
        return tuple(_coerce(part.strip(), element) for part in text.split(",") if part.strip())
    if hint is str:
        return text
    raise ValueError(text)


def _coerce_order(hint: Any) -> int:
    # Exact words first (Literal choices, None), then numbers, then free text.
    if typing.get_origin(hint) is Literal:
        return 0
    if hint is type(None):
        return 1
    if hint is bool:
        return 2
    if hint is int:
        return 3
    return 4


class RulesBase:
    """Mixin for a game's frozen ``Rules`` dataclass.

    Subclasses set ``GAME`` (game id, for messages), ``PRESETS``,
    ``DEFAULT_PRESET`` and ``PRESET_KEY`` (the field that names the preset,
    ``"preset"`` unless the game calls it something else, e.g. ``"variant"``),
    and may override :meth:`check` for cross-option validation.
    """

    GAME: ClassVar[str]
    PRESETS: ClassVar[Mapping[str, Preset]]
    DEFAULT_PRESET: ClassVar[str]
    PRESET_KEY: ClassVar[str] = "preset"

    # -- construction ---------------------------------------------------------
    @classmethod
    def resolve(cls, **options: Any) -> Self:
        """A validated ``Rules`` from a preset name and keyword overrides."""
        name = options.pop(cls.PRESET_KEY, None)
        if name is None:
            name = cls.DEFAULT_PRESET
        if name not in cls.PRESETS:
            raise RulesError(
                "rules.unknown_preset",
                setting=cls.PRESET_KEY,
                name=repr(name),
                game=cls.GAME,
                accepted=list(cls.PRESETS),
            )
        accepted = cls.option_names()
        unknown = sorted(set(options) - set(accepted))
        if unknown:
            raise RulesError(
                "rules.unknown_option",
                count=len(unknown),
                names=[repr(u) for u in unknown],
                game=cls.GAME,
                accepted=accepted,
            )
        values = {**cls.PRESETS[name].options, **options, cls.PRESET_KEY: name}
        hints = _hints(cls)
        for key, value in values.items():
            if isinstance(value, list) and typing.get_origin(hints.get(key)) is tuple:
                values[key] = tuple(value)  # JSON and CLI give lists for tuple options
        return cls(**values)

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            hint = hints[f.name]
            if not _type_ok(value, hint):
                raise RulesError(
                    "rules.wrong_type",
                    option=f.name,
                    game=self.GAME,
                    expected=_describe_type(hint),
                    value=repr(value),
                )
            meta = f.metadata
            choices = meta.get("choices")
            if choices is not None and value not in choices:
                raise RulesError(
                    "rules.not_a_choice",
                    option=f.name,
                    game=self.GAME,
                    value=repr(value),
                    accepted=[str(c) for c in choices],
                )
            if isinstance(value, int) and not isinstance(value, bool):
                lo, hi = meta.get("min"), meta.get("max")
                if (lo is not None and value < lo) or (hi is not None and value > hi):
                    span = f"{lo if lo is not None else '-inf'}..{hi if hi is not None else 'inf'}"
                    raise RulesError(
                        "rules.out_of_range",
                        option=f.name,
                        game=self.GAME,
                        value=value,
                        min=lo,
                        max=hi,
                        span=span,
                    )
        self.check()

    def check(self) -> None:
        """Reject contradictory option combinations (override; name both options).

        Raise ``contradiction(self, "mode", "allow_double")`` for the plain case
        (code ``rules.contradiction``), or a ``RulesError`` with a game's own code.
        """

    # -- introspection --------------------------------------------------------
    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls) if f.name != cls.PRESET_KEY]  # type: ignore[arg-type]

    @classmethod
    def parse_option(cls, name: str, text: str) -> Any:
        """Read one option's value from text (the command line), by the option's type.

        ``"3"`` → 3 for an int option, ``"true"`` → True for a flag, ``"none"`` → None
        where None is accepted, ``"6,4,2,1"`` → ``(6, 4, 2, 1)`` for a tuple; text
        that fits no type is returned unchanged, so validation names the problem.
        """
        accepted = [*cls.option_names(), cls.PRESET_KEY]
        if name not in accepted:
            raise RulesError(
                "rules.unknown_option",
                count=1,
                names=[repr(name)],
                game=cls.GAME,
                accepted=accepted,
            )
        hint = _hints(cls)[name]
        try:
            return _coerce(text.strip(), hint)
        except ValueError:
            return text.strip()

    @classmethod
    def option_help(cls) -> dict[str, dict[str, Any]]:
        """Each option's default, accepted values, help line and source."""
        out: dict[str, dict[str, Any]] = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            out[f.name] = {"default": f.default, **f.metadata}
        return out

    # -- descriptions for front ends (lobby form, CLI help, rules sheets) -----------
    @classmethod
    def describe_options(cls, game_id: str, lang: str = "en") -> list[dict[str, Any]]:
        """Every option of ``game_id``'s rules, in declaration order, JSON-ready.

        Each entry is ``{"name", "type", "choices", "min", "max", "default", "help",
        "source", "preset_key"}``: ``type`` is readable (``"int"``, ``"bool"``, ``"str"``,
        ``"int | None"``, ``"list[int]"``, ``"int | 'draw'"``), ``choices`` a list or None
        (the preset names for the preset key), ``help`` the help line in ``lang`` from
        the ``options`` catalog (``<game_id>.option.<name>``; the declared English help
        where the catalog has none).  An unknown game or language is refused
        (``UnknownGameError``, ``ArgumentError``).

        >>> [o["help"] for o in RulesBase.describe_options("inbetween", "pt")][:2]
        ['conjunto de regras predefinido', 'lugares à mesa']
        """
        check_lang(lang)
        rules = _rules_class(cls, game_id)
        hints = _hints(rules)
        out: list[dict[str, Any]] = []
        for f in dataclasses.fields(rules):  # type: ignore[arg-type]
            meta, hint = f.metadata, hints[f.name]
            preset_key = f.name == rules.PRESET_KEY
            choices = meta.get("choices")
            if choices is None and preset_key:
                choices = tuple(rules.PRESETS)
            if choices is None and typing.get_origin(hint) is Literal:
                choices = typing.get_args(hint)
            if f.default is not dataclasses.MISSING:
                default = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:
                default = None
            out.append(
                {
                    "name": f.name,
                    "type": _readable_type(hint),
                    "choices": None if choices is None else [_json_ready(c) for c in choices],
                    "min": meta.get("min"),
                    "max": meta.get("max"),
                    "default": _json_ready(default),
                    "help": _catalog_text(game_id, "option", f.name, lang, meta.get("help", "")),
                    "source": meta.get("source", ""),
                    "preset_key": preset_key,
                }
            )
        return out

    @classmethod
    def describe_presets(cls, game_id: str, lang: str = "en") -> list[dict[str, Any]]:
        """Every preset of ``game_id``'s rules, in declaration order, JSON-ready.

        Each entry is ``{"name", "summary", "source", "options"}``: ``summary`` in
        ``lang`` from the ``options`` catalog (``<game_id>.preset.<name>``; the declared
        English summary where the catalog has none), ``options`` the values the preset
        sets (tuples as lists).
        """
        check_lang(lang)
        rules = _rules_class(cls, game_id)
        return [
            {
                "name": name,
                "summary": _catalog_text(game_id, "preset", name, lang, preset.summary),
                "source": preset.source,
                "options": {k: _json_ready(v) for k, v in preset.options.items()},
            }
            for name, preset in rules.PRESETS.items()
        ]

    def to_dict(self) -> dict[str, Any]:
        """Every option's resolved value, JSON-ready (tuples become lists)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Inverse of :meth:`to_dict` (validated like ``resolve``)."""
        return cls.resolve(**dict(data))

    def replace(self, **changes: Any) -> Self:
        """A copy with some options changed (validated)."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def describe(self) -> str:
        """Short text: the preset and the options that differ from it."""
        preset = getattr(self, self.PRESET_KEY)
        base = self.PRESETS[preset].options
        defaults = {f.name: f.default for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        diffs = [
            f"{name}={value!r}"
            for name, value in self.to_dict().items()
            if name != self.PRESET_KEY
            and value != (list(v) if isinstance(v := base.get(name, defaults[name]), tuple) else v)
        ]
        return f"{self.PRESET_KEY}={preset}" + (" " + " ".join(diffs) if diffs else "")


def _rules_class(cls: type[RulesBase], game_id: str) -> type[RulesBase]:
    """``cls`` when it is ``game_id``'s rules, else the rules of the game registered so."""
    if getattr(cls, "GAME", None) == game_id:
        return cls
    from aceydeucey.core.registry import game_class  # the registry imports the games

    return game_class(game_id).rules_class


def _catalog_text(game_id: str, kind: str, name: str, lang: str, declared: str) -> str:
    """``<game_id>.<kind>.<name>`` from the ``options`` catalog in ``lang``, else ``declared``."""
    try:
        return t("options", f"{game_id}.{kind}.{name}", lang)
    except KeyError:
        return declared


def _readable_type(hint: Any) -> str:
    """A type as a form or a help screen shows it: ``int | None``, ``list[int]``, ``str``."""
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


def _json_ready(value: Any) -> Any:
    """``value`` as JSON holds it: tuples as lists, anything unusual as text."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [_json_ready(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _json_ready(v) for k, v in value.items()}
    return str(value)


def contradiction(rules: RulesBase, option: str, other: str) -> RulesError:
    """The error for two options of ``rules`` whose values contradict each other.

    ``option 'mode' = 'b' contradicts option 'allow_double' = True`` (code
    ``rules.contradiction``, params ``option``, ``value``, ``other``, ``other_value``,
    ``game``; the values as ``repr`` text).
    """
    return RulesError(
        "rules.contradiction",
        option=option,
        value=repr(getattr(rules, option)),
        other=other,
        other_value=repr(getattr(rules, other)),
        game=rules.GAME,
    )
