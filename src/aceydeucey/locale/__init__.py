"""Message catalogs in English and Portuguese, as gettext catalogs managed with Babel.

The catalogs are ``<lang>/LC_MESSAGES/<domain>.po`` in this folder, one domain per
game or front end (``inbetween``, ``backgammon``, ``aces``, ``cli``, ``errors``,
``web``).  A message id is a stable key (``ui.round``, or an error code such as
``stake.above_max``); its text is a ``str.format`` template.  A message with plural
forms is looked up with ``ngettext`` by its ``count`` parameter ("1 chip", "2 chips").

The wheel ships the ``.mo`` files compiled at build time (``hatch_build.py``); a
checkout without them, or whose ``.po`` is newer, compiles the ``.po`` in memory.

``t(domain, key, lang, **values)`` renders one message.  A key missing in
Portuguese falls back to English; a key missing in English is an error (the tests
check both catalogs hold the same keys and placeholders).  Values are formatted
for the language: floats with the locale's decimal separator, and a nested
message (``{"code": ..., "params": ...}``, see ``core.errors.message``) rendered
in the same language.

A refusal of rule options (an error whose params hold ``game`` and ``options``, the names
of the options concerned) is rendered in the players' words, the lobby form's: its
template writes ``{o[starting_chips]}`` for an option's label (the ``web`` catalog's
``option.<game>.<name>``) and ``{s[banking.house]}`` for a value's words
(``choice.<game>.<name>.<value>``; yes / no, none, a seat from 1, a preset's name), and
the params that name an option (``option``, ``other``, ``by``), hold its value
(``value``, ...), or are named after an option are shown so too (see ``rules_words``).
The params themselves keep the code names and raw values, for API clients.
"""

from __future__ import annotations

import gettext
import io
import os
import string
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "DOMAINS",
    "LANGS",
    "catalog",
    "check_lang",
    "command_words",
    "default_lang",
    "format_value",
    "option_label",
    "render_error",
    "t",
    "tell_option_kinds",
    "value_words",
]

LANGS = ("en", "pt")
#: Babel locale of each language (European Portuguese, as seed 003 writes it).
LOCALES = {"en": "en", "pt": "pt_PT"}
LOCALE_DIR = Path(__file__).parent
DOMAINS = tuple(sorted(p.stem for p in (LOCALE_DIR / "en" / "LC_MESSAGES").glob("*.po")))


def default_lang() -> str:
    """``pt`` when the environment's locale is Portuguese, else ``en``."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "pt" if value.lower().startswith("pt") else "en"
    return "en"


def check_lang(lang: str) -> str:
    """``lang`` when the catalogs hold it; else a ``KeyError`` (a front end checks the
    language a person asked for with ``core.errors.check_lang``, which names the error)."""
    if lang not in LANGS:
        raise KeyError(f"no catalogs in language {lang!r}; accepted: {', '.join(LANGS)}")
    return lang


def negotiate(accept_language: str | None) -> str:
    """The language to use for an HTTP ``Accept-Language`` header (``en`` when none fits)."""
    if not accept_language:
        return "en"
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        base = tag.strip().lower().split("-")[0]
        if base in LANGS:
            ranked.append((-weight, i, base))
    return min(ranked)[2] if ranked else "en"


@cache
def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """The compiled catalog of ``domain`` in ``lang`` (``NullTranslations`` if none)."""
    folder = LOCALE_DIR / check_lang(lang) / "LC_MESSAGES"
    po, mo = folder / f"{domain}.po", folder / f"{domain}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        return gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
    if not po.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        cat = read_po(f, locale=LOCALES[lang], domain=domain)
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


@cache
def catalog(domain: str, lang: str) -> dict[str, str]:
    """Every message of ``domain`` in ``lang``, key to template (plural: the singular form)."""
    messages: dict[str, str] = {}
    tr = translations(domain, lang)
    for key, text in getattr(tr, "_catalog", {}).items():
        if isinstance(key, tuple):
            key, form = key
            if form != 0:
                continue
        if key:
            messages[key] = text
    return messages


def _lookup(domain: str, key: str, lang: str, count: int | None) -> str | None:
    tr = translations(domain, lang)
    if count is not None:
        text = tr.ngettext(key, key, count)
        if text != key:
            return text
    text = tr.gettext(key)
    return None if text == key else text


class _Formatter(string.Formatter):
    """``str.format`` that writes floats the way ``lang`` does (a decimal comma in pt)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, float) and self.lang != "en":
            if not format_spec:
                from babel.numbers import format_decimal

                return format_decimal(value, locale=LOCALES[self.lang], decimal_quantization=False)
            return format(value, format_spec).translate(_PT_NUMBER)
        return super().format_field(value, format_spec)


_PT_NUMBER = str.maketrans({".": ",", ",": "\u00a0"})


def format_value(value: Any, lang: str) -> Any:
    """A parameter as shown in ``lang``: nested messages rendered, sequences joined."""
    if isinstance(value, int | float | Fraction | str):
        return value
    if isinstance(value, dict) and set(value) == {"code", "params"}:
        return render_error(value["code"], value["params"], lang)
    if isinstance(value, list | tuple):
        return ", ".join(str(format_value(v, lang)) for v in value)
    return value


def t(domain: str, key: str, lang: str = "en", **values: Any) -> str:
    """Render message ``key`` of ``domain`` in ``lang``."""
    count = values.get("count")
    count = count if isinstance(count, int) and not isinstance(count, bool) else None
    template = _lookup(domain, key, check_lang(lang), count)
    if template is None:
        template = _lookup(domain, key, "en", count)
    if template is None:
        raise KeyError(f"no message {key!r} in catalog {domain!r}")
    if not values:
        return template
    shown = {k: format_value(v, lang) for k, v in values.items()}
    return _Formatter(lang).vformat(template, (), shown)


#: Domains that hold error and outcome codes: ``errors`` (core) and each game's own.
ERROR_DOMAINS = ("errors", *(d for d in DOMAINS if d.endswith("_errors")))


@cache
def error_domain(code: str) -> str | None:
    """The domain whose English catalog holds ``code`` (codes are unique across domains)."""
    for domain in ERROR_DOMAINS:
        if code in catalog(domain, "en"):
            return domain
    return None


#: Params that hold a seat counted from 0, and the name under which people read it from 1.
SEAT_PARAMS = {"seat": "number", "winner": "winner_number", "owner": "owner_number"}


def render_error(code: str, params: dict[str, Any], lang: str = "en") -> str:
    """An error (or outcome) code with its params as text in ``lang``.

    Codes live in the ``errors`` domain and in each game's ``<game>_errors`` domain.
    A ``seat`` param (counted from 0, as the engines count) is shown to people as
    ``number``, counted from 1: the catalogs write "seat {number}", and a code's params
    stay as the engine gave them (records keep them so). The other seat params
    (``winner``, ``owner``) are shown the same way, as ``winner_number`` and
    ``owner_number``.
    """
    shown = {}
    for key, name in SEAT_PARAMS.items():
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and name not in params:
            shown[name] = value + 1
    if shown:
        params = {**params, **shown}
    domain = error_domain(code)
    if domain is None:
        # An uncatalogued code still renders: its text param when it has one, else the code.
        text = params.get("text")
        return str(text) if text is not None else code
    words = command_words(domain.removesuffix("_errors"), lang)
    if words:
        params = _in_words(params, words)
    game = params.get("game")
    if isinstance(game, str) and isinstance(params.get("options"), list | tuple):
        params = rules_words(game, params, lang)
    elif _names_options(domain, code) and "o" not in params:
        # a refusal kept without its game and options (an old record): names as written
        params = {**params, "o": _Words("", lang, False), "s": _Words("", lang, True)}
    return t(domain, code, lang, **params)


# -- rule options in the players' words ---------------------------------------------------------


@cache
def _names_options(domain: str, code: str) -> bool:
    """Whether message ``code`` writes an option's label or a value's words."""
    text = catalog(domain, "en").get(code, "")
    return "{o[" in text or "{s[" in text


#: In a refusal of rule options, the params that name an option, each with the param that
#: holds that option's value (``option="bank", value=50``).
OPTION_PARAMS = {"option": "value", "other": "other_value", "by": "by_value"}


def _web(key: str, lang: str) -> str | None:
    text = _lookup("web", key, lang, None)
    return text if text is not None else _lookup("web", key, "en", None)


#: Each game's seat options and preset key, as its rules told them (``tell_option_kinds``,
#: called by ``core.rules`` for the rules it refuses or describes): the locale imports no
#: game, so a game never seen in this process has neither (values then shown as given).
_OPTION_KINDS: dict[str, tuple[frozenset[str], str | None]] = {}


def tell_option_kinds(game: str, seats: frozenset[str], preset_key: str | None) -> None:
    """Say which options of ``game`` are seats (shown counted from 1) and its preset key."""
    _OPTION_KINDS[game] = (seats, preset_key)


def _option_kinds(game: str) -> tuple[frozenset[str], str | None]:
    return _OPTION_KINDS.get(game, (frozenset(), None))


def option_label(game: str, name: str, lang: str = "en") -> str:
    """Option ``name`` of ``game`` as the lobby form labels it (``Starting chips``); the
    preset key is the form's "Rules (preset)"; an option without a label keeps its name."""
    label = _web(f"option.{game}.{name}", lang)
    if label is None and name == _option_kinds(game)[1]:
        label = _web("lobby.preset", lang)
    return label if label is not None else name


def value_words(game: str, name: str, value: Any, lang: str = "en") -> str:
    """A value of option ``name`` of ``game`` as the lobby form shows it: the choice's words
    (``The house``), yes / no, none, a seat counted from 1 (``Seat 2``), a preset's name,
    a list's items; anything else as written (a number, a value no choice spells)."""
    seats, preset_key = _option_kinds(game)
    seat = name in seats
    if seat and isinstance(value, int) and not isinstance(value, bool):
        return t("web", "table.seat_n", lang, n=value + 1)
    if value is None:
        return t("web", "lobby.seat_none" if seat else "lobby.none", lang)
    if isinstance(value, bool):
        return t("web", "lobby.yes" if value else "lobby.no", lang)
    if isinstance(value, list | tuple):
        return ", ".join(value_words(game, name, v, lang) for v in value)
    kind = "preset" if name == preset_key else "choice"
    key = f"preset.{game}.{value}" if kind == "preset" else f"choice.{game}.{name}.{value}"
    words = _web(key, lang) if isinstance(value, str) else None
    return words if words is not None else str(value)


class _Words(dict[str, str]):
    """``{o[name]}`` (an option's label) or ``{s[name.value]}`` (a value's words) in a
    template: each looked up when the template asks for it."""

    def __init__(self, game: str, lang: str, values: bool) -> None:
        super().__init__()
        self.game, self.lang, self.of_values = game, lang, values

    def __missing__(self, key: str) -> str:
        if not self.of_values:
            return option_label(self.game, key, self.lang)
        name, _, raw = key.partition(".")
        value: Any = {"true": True, "false": False, "none": None}.get(raw, raw)
        return value_words(self.game, name, value, self.lang)


def rules_words(game: str, params: dict[str, Any], lang: str) -> dict[str, Any]:
    """The params of a refusal of ``game``'s rule options as players read them.

    ``o`` and ``s`` serve the template's ``{o[name]}`` and ``{s[name.value]}``; a param
    that names an option (``option``, ``other``, ``by``) is shown as its label and the
    param holding its value (``value``, ``other_value``, ``by_value``) in that option's
    words; a param named after one of the options concerned (``banking="house"``) is
    shown in its words; ``accepted`` lists the accepted values of ``option`` in their
    words, or, with no ``option``, the accepted options by their labels; ``game`` is the
    game's name.
    """
    concerned = {str(n) for n in params["options"]}
    out = dict(params)
    for key in concerned & set(params):
        out[key] = value_words(game, key, params[key], lang)
    named = None
    for key, value_key in OPTION_PARAMS.items():
        name = params.get(key)
        if isinstance(name, str) and name in concerned:
            named = named or name
            out[key] = option_label(game, name, lang)
            if value_key in params:
                out[value_key] = value_words(game, name, params[value_key], lang)
    accepted = params.get("accepted")
    if isinstance(accepted, list | tuple):
        out["accepted"] = [
            value_words(game, named, a, lang) if named else option_label(game, str(a), lang)
            for a in accepted
        ]
    out["game"] = _web(f"game.{game}", lang) or game
    out.setdefault("o", _Words(game, lang, values=False))
    out.setdefault("s", _Words(game, lang, values=True))
    return out


#: The params of a refusal that hold canonical action text (``bet 99``, ``["pass", "bet 1–4"]``).
ACTION_PARAMS = ("action", "legal", "allowed")


@cache
def command_words(domain: str, lang: str) -> dict[str, str]:
    """The words a player types in ``lang`` for each canonical action word of the game
    whose UI catalog is ``domain`` (its ``cmd.*`` messages: ``cmd.ace_low`` is the
    canonical ``ace low``); empty where the game has none or they are English's."""
    if domain not in DOMAINS or lang == "en":
        return {}
    english = catalog(domain, "en")
    out: dict[str, str] = {}
    for key, text in catalog(domain, lang).items():
        if key.startswith("cmd.") and english.get(key) not in (None, text):
            out[key.removeprefix("cmd.").replace("_", " ")] = text
    return out


def _in_words(params: dict[str, Any], words: dict[str, str]) -> dict[str, Any]:
    """``params`` with the actions a refusal echoes or lists in the player's words."""

    def word(text: str) -> str:
        if text in words:
            return words[text]
        head, _, rest = text.partition(" ")
        return f"{words[head]} {rest}" if head in words and rest else text

    out = dict(params)
    for key in ACTION_PARAMS:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = word(value)
        elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            out[key] = [word(v) for v in value]
    return out
