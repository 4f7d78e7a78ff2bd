"""Locales: loading the per-language files and turning ids into text.

A locale file (``rules/locales/<lang>.yaml``) names every id of the rule set and holds
the card texts and the program's messages. A :class:`Catalog` answers "what is this id
called in Polish", "the text of this card", "this message for 5 items" — falling back to
English, then to the id itself, so a display never fails on a missing translation
(``ckdsl l10n check`` is where missing ones are reported). A language may be derived
from another's file instead of translated (``sr-Latn``: the Serbian catalog
transliterated, as its file declares: ``ckdsl.l10n.derived``).
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ckdsl.datautil import deep_merge
from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.jsondata import JsonObject, JsonValue, obj
from ckdsl.l10n import derived, plural
from ckdsl.paths import locales_dir
from ckdsl.rules.positions import Positions
from ckdsl.stamps import Stamp, StampedCache
from ckdsl.template import bad_fields, fields, fill

if TYPE_CHECKING:
    from ckdsl.rules.ruleset import RuleSet

REFERENCE = "en"
"""The language every other one is checked against."""

# A locale file's name is its language's BCP 47 tag: `de`, `pt-BR`, `sr-Latn`.
_TAG = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*")


def locale_path(language: str, folder: Path | None = None) -> Path:
    return (folder or locales_dir()) / f"{language}.yaml"


def languages(folder: Path | None = None) -> tuple[str, ...]:
    """The translated languages: those with a locale file (``rules/locales/<tag>.yaml``)
    of texts, English first, the others in order of their tags. Any file there is a
    language; adding a language is adding its file, no code lists them."""
    return _files(folder)[0]


def derived_languages(folder: Path | None = None) -> tuple[str, ...]:
    """The languages whose file derives them from another's (``derived:``), by tag."""
    return _files(folder)[1]


def _files(folder: Path | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    folder = folder or locales_dir()
    try:
        names = os.listdir(folder)
    except OSError:
        return (REFERENCE,), ()
    tags = sorted(
        t
        for t in (n[: -len(".yaml")] for n in names if n.endswith(".yaml"))
        if _TAG.fullmatch(t) and t != REFERENCE
    )
    made = tuple(t for t in tags if derived.declares(locale_path(t, folder)))
    return (REFERENCE, *(t for t in tags if t not in made)), made


LANGUAGES = languages()
"""The translated languages of the bundled locale files, read when ckdsl starts."""


def checkout_locales(start: Path) -> Path | None:
    """The ``rules/locales`` of the ckdsl checkout ``start`` is in (it or a parent holds
    ``rules/locales/en.yaml`` and ``pyproject.toml``), when it is not the bundled folder
    itself: the files a translator edits; None elsewhere."""
    bundled = locales_dir().resolve()
    for folder in (start, *start.parents):
        found = folder / "rules" / "locales"
        if (found / f"{REFERENCE}.yaml").is_file() and (folder / "pyproject.toml").is_file():
            return None if found.resolve() == bundled else found
    return None


def all_languages(folder: Path | None = None) -> tuple[str, ...]:
    """Every language a command accepts: the translated ones, then the derived ones."""
    translated, made = _files(folder)
    return translated + made


def derivation(language: str, folder: Path | None = None) -> derived.Derivation | None:
    """Where the texts of ``language`` come from, if its file derives it from another's
    (None for a translated language, or one with no file)."""
    if language not in derived_languages(folder):
        return None
    locale, _ = load_locale_file(locale_path(language, folder))
    return derived.derivation_of(locale.data) if locale is not None else None


def source_language(language: str, folder: Path | None = None) -> str:
    """The translated language whose file holds the texts of ``language`` (itself, unless
    it is derived): what `l10n check` checks for it."""
    found = derivation(language, folder)
    return found.source if found is not None else language


@dataclass
class LocaleFile:
    """One locale file as read, with positions for precise findings."""

    language: str
    file: str
    data: JsonObject
    positions: Positions = field(default_factory=Positions)


_LOCALE_FILES: StampedCache[str, tuple[LocaleFile | None, tuple[Diagnostic, ...]]]
_LOCALE_FILES = StampedCache(maxsize=32)


def load_locale_file(path: Path) -> tuple[LocaleFile | None, list[Diagnostic]]:
    """Read and schema-check one locale file; its language must match its name.

    Read once while the file is unchanged (``ckdsl validate`` and ``l10n check`` compare
    every language with English): the locale is shared, not to be changed by the caller
    (``language_data`` copies it before merging a variant's names)."""
    locale, problems = _LOCALE_FILES.get(str(path.resolve()), lambda: _read_locale(path))
    return locale, list(problems)


def _read_locale(
    path: Path,
) -> tuple[tuple[LocaleFile | None, tuple[Diagnostic, ...]], tuple[Stamp, ...]]:
    stamp = Stamp.of(path)  # before reading: an edit while reading fails the next check
    locale, problems = _parse_locale(path)
    return (locale, tuple(problems)), (stamp,)


def _parse_locale(path: Path) -> tuple[LocaleFile | None, list[Diagnostic]]:
    from ckdsl.rules.schemas import validate  # jsonschema: only once a locale is read
    from ckdsl.rules.yamlload import load_yaml

    doc, problems = load_yaml(path)
    if doc is None:
        return None, problems
    problems += validate(doc.data, doc.positions, "locale")
    if not isinstance(doc.data, dict):
        return None, problems
    language = doc.data.get("language")
    if isinstance(language, str) and language != path.stem:
        problems.append(
            Diagnostic.at(
                doc.positions.value(("language",)),
                f"the file is named '{path.name}' but says `language: {language}`; "
                f"they must agree (language: {path.stem})",
                ("language",),
            )
        )
    return LocaleFile(path.stem, str(path), doc.data, doc.positions), problems


class Catalog:
    """Names, card texts and messages of one language, with English as fallback."""

    def __init__(self, language: str, data: JsonObject, fallback: Catalog | None = None) -> None:
        self.language = language
        self.data = data
        self.fallback = fallback
        self._found: dict[tuple[str, ...], JsonValue] = {}
        """What ``_lookup`` found for each path: a game's log asks for the same few dozen
        messages and names thousands of times (the data is not changed once loaded)."""
        self._counted: dict[tuple[str, int], str] = {}  # a good counted ("2 ore"), by count

    def _lookup(self, *path: str) -> JsonValue:
        try:
            return self._found[path]
        except KeyError:
            found = self._found[path] = self._search(path)
            return found

    def _search(self, path: tuple[str, ...]) -> JsonValue:
        node: JsonValue = self.data
        for item in path:
            if not isinstance(node, dict) or item not in node or _untranslated(node[item]):
                if self.fallback is None:
                    return None
                return _marked(self.fallback._lookup(*path))  # missing here: English, shown
            node = node[item]
        return node

    def name(self, section: str, key: str) -> str:
        """The display name of ``key`` in ``names.<section>`` (the id if none)."""
        found = self._lookup("names", section, key)
        return found if isinstance(found, str) else key

    def good_name(self, good: str) -> str:
        """The name of a resource or a commodity."""
        found = self._lookup("names", "resources", good) or self._lookup(
            "names", "commodities", good
        )
        return found if isinstance(found, str) else good

    def card_name(self, card: str) -> str:
        found = self._lookup("cards", card, "name")
        return found if isinstance(found, str) else card

    def card_text(self, card: str) -> str:
        found = self._lookup("cards", card, "text")
        return found if isinstance(found, str) else ""

    def message(self, key: str, count: int | None = None, **values: object) -> str:
        """Message ``key`` with ``values`` filled in; ``count`` picks the plural form."""
        return self.message_with(key, count, values)

    def message_with(self, key: str, count: int | None, values: Mapping[str, object]) -> str:
        """``message`` with the values in a mapping (any keys; not changed)."""
        found = self._lookup("messages", key)
        if found is None:
            return key
        return self._format(found, count, values)

    def player_forms(self, colour: str) -> dict[str, str]:
        """The colour's name in each grammatical form this language declares
        (``player_forms``: {"dative": "Czerwonemu", ...}), the name where a form lacks it."""
        forms = self.data.get("player_forms")
        if not isinstance(forms, dict):
            return {}
        name = self.name("colours", colour)
        out = {}
        for form, by_colour in forms.items():
            found = by_colour.get(colour) if isinstance(by_colour, dict) else None
            out[str(form)] = found if isinstance(found, str) else name
        return out

    def has_message(self, key: str) -> bool:
        """Whether some locale (this language's, or English's) has message ``key``."""
        return self._lookup("messages", key) is not None

    def counted(self, good: str, count: int) -> str:
        """``count`` of ``good`` as the language writes it ("5 cegieł")."""
        known = type(count) is int  # (True counts as 1 in a key, not in a text)
        shown = self._counted.get((good, count)) if known else None
        if shown is None:
            found = self._lookup("counted", good)
            if found is None:
                shown = f"{count} {self.name('resources', good)}"
            else:
                shown = self._format(found, count, {})
            if known:
                self._counted[good, count] = shown
        return shown

    def _format(self, found: JsonValue, count: int | None, values: Mapping[str, object]) -> str:
        if isinstance(found, dict):
            form = plural.category(self.language, count if count is not None else 0)
            template = found.get(form) or found.get("other") or next(iter(found.values()))
        else:
            template = found
        if count is not None and "count" not in values:  # a value named count wins
            values = {**values, "count": count}
        return fill(str(template), values)  # plain {name} fields only (ckdsl/template.py)


FALLBACK_MARK = "⟨en⟩ "
"""Before a text a language lacks and English gave instead: visible, never silent, so
a reader (and `ckdsl l10n check`, which counts them) sees what is left to translate."""


def _untranslated(value: JsonValue) -> bool:
    """An empty text, or plural forms all empty: what ``l10n init`` leaves to fill in."""
    if isinstance(value, dict):
        return bool(value) and all(v == "" for v in value.values())
    return value == ""


def _marked(found: JsonValue) -> JsonValue:
    if isinstance(found, str):
        return FALLBACK_MARK + found
    if isinstance(found, dict):  # a message's plural forms
        return {k: FALLBACK_MARK + v if isinstance(v, str) else v for k, v in found.items()}
    return found


def placeholders(text: str) -> set[str] | None:
    """The ``{names}`` in ``text``, or ``None`` if any of its braces is not a plain
    ``{name}`` (a format spec, an attribute, an index, a lone brace)."""
    if bad_fields(text):
        return None
    return fields(text)


def language_data(
    language: str, ruleset: RuleSet | None = None, folder: Path | None = None
) -> JsonObject:
    """The data of ``language``: its file plus the names a variant carries inline.

    Raises :class:`CkdslError` if the language does not exist or its file is broken.
    """
    return _language_data(language, ruleset, folder, shared=False)


def _language_data(
    language: str, ruleset: RuleSet | None, folder: Path | None, *, shared: bool
) -> JsonObject:
    """``language_data``; ``shared``: the locale file's data itself where nothing is
    merged into it (not to be changed: a catalog only reads it), not a copy."""
    if language not in all_languages(folder):
        known = ", ".join(all_languages(folder))
        raise CkdslError([Diagnostic("", 0, 0, f"unknown language '{language}' (known: {known})")])
    made = _derivation_checked(language, folder)
    source = made.source if made is not None else language
    data = _shown_locale(locale_path(source, folder))
    names = ruleset.names.get(source) if ruleset is not None else None
    if isinstance(names, dict):
        data = copy.deepcopy(data)
        deep_merge(data, names)
    elif not shared:
        data = copy.deepcopy(data)
    return obj(derived.derive(made, data)) if made is not None else data


def _derivation_checked(language: str, folder: Path | None) -> derived.Derivation | None:
    """The derivation of ``language``; raises CkdslError if its file is broken or names a
    source or a transliteration that does not exist."""
    if language not in derived_languages(folder):
        return None
    locale, problems = load_locale_file(locale_path(language, folder))
    if locale is not None:
        problems += derived.problems(locale.data, locale.positions, languages(folder))
    errors = [p for p in problems if p.severity == "error"]
    made = derived.derivation_of(locale.data) if locale is not None else None
    if errors or made is None:
        raise CkdslError(errors or list(problems))
    return made


_SHOWN: StampedCache[str, JsonObject] = StampedCache(maxsize=32)


def _shown_locale(path: Path) -> JsonObject:
    """The data of the locale file ``path``, to show texts with (shared: not to be changed);
    raises CkdslError if the file is broken. Read once while the file is unchanged, and
    kept in the cache on disk (``ckdsl.rules.disk``) when it has no errors: a command
    that prints a game's log need not read and validate the file again. ``ckdsl
    validate`` and ``l10n check`` read the file itself (``load_locale_file``)."""
    return _SHOWN.get(str(path.resolve()), lambda: _load_shown(path))


def _load_shown(path: Path) -> tuple[JsonObject, tuple[Stamp, ...]]:
    from ckdsl.rules import disk  # pickle: only once a locale is shown

    key = str(path.resolve())
    found = disk.load("locale", key)
    if found is not None and isinstance(found[0], dict):
        return found
    (locale, problems), stamps = _read_locale(path)
    errors = [p for p in problems if p.severity == "error"]
    if locale is None or errors:
        raise CkdslError(errors or list(problems))
    disk.store("locale", key, stamps, locale.data)
    return locale.data, stamps


def load_catalog(
    language: str, ruleset: RuleSet | None = None, folder: Path | None = None
) -> Catalog:
    """The catalog of ``language``, falling back to English for anything missing."""
    fallback = None
    if language != REFERENCE:
        fallback = Catalog(REFERENCE, _language_data(REFERENCE, ruleset, folder, shared=True))
    return Catalog(language, _language_data(language, ruleset, folder, shared=True), fallback)
