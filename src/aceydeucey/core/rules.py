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
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from aceydeucey.core.errors import RulesError, check_lang
from aceydeucey.core.options import OptionSpec, json_ready, option_specs
from aceydeucey.locale import option_label, t, tell_option_kinds, value_words

__all__ = ["Preset", "RulesBase", "contradiction", "option", "option_in_words", "refusal"]


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
    min: int | None = None,
    max: int | None = None,
    help: str = "",
    source: str = "",
    seat: bool = False,
) -> Any:
    """Declare one rule option (a dataclass field with validation metadata).

    The accepted words of an option are its ``Literal`` type, written once; ``min`` and
    ``max`` bound an integer; ``seat`` says its number is a seat (from 0; the pages
    offer one entry per seat, counted from 1).  ``core.options`` reads the declaration.
    """
    meta = {"min": min, "max": max, "help": help, "source": source, "seat": seat}
    return field(default=default, metadata=meta)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The resolved type hints of a Rules class (computed once: they are costly)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


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
        _tell_locale(cls)  # its refusals below speak of seats and presets in words
        name = options.pop(cls.PRESET_KEY, None)
        if name is None:
            name = cls.DEFAULT_PRESET
        if name not in cls.PRESETS:
            raise refusal(
                cls,
                "rules.unknown_preset",
                cls.PRESET_KEY,
                setting=cls.PRESET_KEY,
                name=repr(name),
                option=cls.PRESET_KEY,
                value=json_ready(name),
                accepted=list(cls.PRESETS),
            )
        accepted = cls.option_names()
        unknown = sorted(set(options) - set(accepted))
        if unknown:
            raise refusal(
                cls,
                "rules.unknown_option",
                count=len(unknown),
                names=[repr(u) for u in unknown],
                accepted=accepted,
            )
        values = {**cls.PRESETS[name].options, **options, cls.PRESET_KEY: name}
        hints = _hints(cls)
        for key, value in values.items():
            if isinstance(value, list) and typing.get_origin(hints.get(key)) is tuple:
                values[key] = tuple(value)  # JSON and CLI give lists for tuple options
        return cls(**values)

    def __post_init__(self) -> None:
        for spec in option_specs(type(self)):
            spec.check(getattr(self, spec.name))
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
        """Read one option's value from text (the command line, a form), by its type.

        ``"3"`` → 3 for an int option, ``"true"`` → True for a flag, ``"none"`` → None
        where None is accepted, ``"6,4,2,1"`` → ``(6, 4, 2, 1)`` for a tuple; text
        that fits no type is returned unchanged, so validation names the problem.
        """
        spec = cls.option_spec(name)
        return spec.parse(text)

    @classmethod
    def option_spec(cls, name: str) -> OptionSpec:
        """The description of option ``name`` (``rules.unknown_option`` if there is none)."""
        for spec in option_specs(cls):
            if spec.name == name:
                return spec
        raise refusal(
            cls,
            "rules.unknown_option",
            count=1,
            names=[repr(name)],
            accepted=[*cls.option_names(), cls.PRESET_KEY],
        )

    @classmethod
    def option_help(cls) -> dict[str, dict[str, Any]]:
        """Each option's default, accepted words (``choices``), range, help line and source."""
        return {
            spec.name: {
                "default": spec.default,
                "choices": spec.choices,
                "min": spec.min,
                "max": spec.max,
                "help": spec.help,
                "source": spec.source,
            }
            for spec in option_specs(cls)
        }

    # -- descriptions for front ends (lobby form, CLI help, rules sheets) -----------
    @classmethod
    def describe_options(cls, game_id: str, lang: str = "en") -> list[dict[str, Any]]:
        """Every option of ``game_id``'s rules, in declaration order, JSON-ready.

        Each entry is ``{"name", "type", "choices", "min", "max", "default", "help",
        "source", "preset_key", "nullable", "schema"}`` (``core.options``): ``type`` is
        readable (``"int"``, ``"bool"``, ``"str"``, ``"int | None"``, ``"list[int]"``,
        ``"int | 'draw'"``), ``choices`` the ``Literal``'s words or None (the preset names
        for the preset key), ``schema`` pydantic's JSON schema of the option (with its
        default, range and help), ``help`` the help line in ``lang`` from
        the ``options`` catalog (``<game_id>.option.<name>``; the declared English help
        where the catalog has none).  An unknown game or language is refused
        (``UnknownGameError``, ``ArgumentError``).

        >>> [o["help"] for o in RulesBase.describe_options("inbetween", "pt")][:2]
        ['conjunto de regras predefinido', 'lugares à mesa']
        """
        check_lang(lang)
        rules = _rules_class(cls, game_id)
        out: list[dict[str, Any]] = []
        for spec in option_specs(rules):
            entry = spec.describe()
            entry["help"] = _catalog_text(game_id, "option", spec.name, lang, spec.help)
            if entry["help"]:
                entry["schema"]["description"] = entry["help"]
            out.append(entry)
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
                "options": {k: json_ready(v) for k, v in preset.options.items()},
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


def option_in_words(rules: RulesBase, name: str, lang: str = "en") -> str:
    """Option ``name`` of ``rules`` at its value as players read it, in the lobby form's
    words (the ``web`` catalog's ``option.<game>.<name>`` and ``choice.<game>.<name>.<value>``):
    ``Starting chips: 1``, ``Aces: the dealer declares them``, ``Hidden hands: yes``.

    >>> from aceydeucey.inbetween.rules import Rules
    >>> option_in_words(Rules.resolve(starting_chips=1), "starting_chips", "pt")
    'Fichas iniciais: 1'
    """
    game, value = rules.GAME, getattr(rules, name)
    _tell_locale(type(rules))
    return f"{option_label(game, name, lang)}: {value_words(game, name, value, lang)}"


def _tell_locale(cls: type[RulesBase]) -> None:
    """Tell the locale which options of ``cls``'s game are seats, and its preset key."""
    specs = option_specs(cls)
    seats = frozenset(s.name for s in specs if s.seat)
    tell_option_kinds(cls.GAME, seats, next((s.name for s in specs if s.preset_key), None))


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


def refusal(
    rules: RulesBase | type[RulesBase], code: str, /, *options: str, **params: Any
) -> RulesError:
    """The ``RulesError`` refusing options ``options`` of ``rules`` (a game's rules or their
    class), with code ``code``: one way for every game to say which options are concerned.

    Its params are ``params`` plus ``game``, ``options`` (the names concerned: the lobby
    marks those fields) and, for rules already built, each concerned option's value under
    its name (JSON-ready) where ``params`` does not give it.  The catalogs render it in the
    players' words (``aceydeucey.locale.rules_words``); the params keep the code names.

    >>> from aceydeucey.inbetween.rules import Rules
    >>> err = refusal(Rules.resolve(), "ib_rules.house_needs_ante", "banking", "ante")
    >>> err.params
    {'game': 'inbetween', 'options': ['banking', 'ante'], 'banking': 'shared', 'ante': 1}
    """
    _tell_locale(rules if isinstance(rules, type) else type(rules))
    values: dict[str, Any] = {}
    if not isinstance(rules, type):
        values = {n: json_ready(getattr(rules, n)) for n in options if n not in params}
    return RulesError(code, game=rules.GAME, options=list(options), **values, **params)


def contradiction(rules: RulesBase, option: str, other: str) -> RulesError:
    """The error for two options of ``rules`` whose values contradict each other.

    Code ``rules.contradiction``, params ``option``, ``value``, ``other``, ``other_value``
    (the values JSON-ready), ``game`` and ``options``; rendered in the players' words:
    ``Mode: b contradicts Double allowed: yes`` where the catalogs label them.
    """
    return refusal(
        rules,
        "rules.contradiction",
        option,
        other,
        option=option,
        value=json_ready(getattr(rules, option)),
        other=other,
        other_value=json_ready(getattr(rules, other)),
    )
