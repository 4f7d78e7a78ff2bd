"""``ckdsl l10n check``: is every language complete and consistent with English?

What each locale must contain follows from the rule set (every resource, piece, level,
card, ... needs a name; every card a text) and from the English file (every message).
For each language we report, at the exact key in its file:

- missing: a name, text or message the rule set or English has and this file lacks;
- extra: an id the rule set does not define (a typo, or a card that was removed);
- identical: a text left exactly as in English, unless listed in ``same_as_english``;
- stale: a ``same_as_english`` entry that names no text, or a text that now differs;
- placeholder: ``{placeholders}`` that differ from English's, or broken braces, or that
  a message of the log names but its event has no such field (``ckdsl.events``);
- plural: a plural category the language needs (per Babel/CLDR) is missing, or one it
  does not use is present;
- glossary: a text that uses a word the locale's glossary avoids for a concept of the
  game ("zasobów" where the Polish word is "surowiec": ``ckdsl.l10n.glossary``), or a
  glossary term that is one of the words it avoids itself;
- length: a text longer than en.yaml's ``max_length`` for its key (a button of the web
  table has room for so many characters);
- outdated: a translation made from an English text that has changed since (its
  fingerprint under ``sources:`` is not the current English's: ``ckdsl.l10n.sources``);
- unverified: a translation that records no fingerprint, so a change in English could
  not be told (a locale without any ``sources:`` section gets one such finding);
- invalid: the file itself is broken (YAML, schema).

A fingerprint under ``sources:`` of no translated entry (one emptied or renamed) hides
nothing: it is not reported, and ``ckdsl l10n update`` removes it.

Every message that tells an event of the log (``log_*``, as the event schema in
``ckdsl.events`` lists them) is expected of every locale, English included, so a new
event without its message is reported as missing.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ckdsl.datautil import deep_merge
from ckdsl.diagnostics import Diagnostic, JsonPath, Pos
from ckdsl.events import EVENTS, EventSpec
from ckdsl.jsondata import JsonArray, JsonObject, JsonValue
from ckdsl.l10n import derived, plural
from ckdsl.l10n.catalog import (
    REFERENCE,
    LocaleFile,
    derived_languages,
    load_locale_file,
    locale_path,
    placeholders,
)
from ckdsl.l10n.catalog import languages as catalog_languages
from ckdsl.l10n.events import placeholders as event_placeholders
from ckdsl.l10n.glossary import SECTION as GLOSSARY
from ckdsl.l10n.glossary import Term, avoided_in, terms_of
from ckdsl.l10n.history import earlier_english
from ckdsl.l10n.inline import LABELS, definition, place_of_missing, variant_files
from ckdsl.l10n.sources import SECTION, compare, recorded_of
from ckdsl.rules.checks import effects, improvement_levels, knight_levels
from ckdsl.rules.positions import Positions
from ckdsl.rules.ruleset import RuleSet
from ckdsl.rules.schemas import load_schema, suggest

CONCEPTS = (
    "barbarians",
    "progress_card",
    "resource",
    "commodity",
    "city_improvement",
    "victory_point",
    "bank",
    "harbor",
)
"""General words of the game every locale names (``names.concepts``)."""

KINDS = (
    "invalid",
    "missing",
    "extra",
    "identical",
    "stale",
    "placeholder",
    "plural",
    "glossary",
    "length",
    "outdated",
    "unverified",
)

EVENT_MESSAGES: Mapping[str, EventSpec] = {
    m.key: spec for spec in EVENTS.values() for m in spec.messages
}
"""The messages that tell the log's events, and the event each tells."""


@dataclass(frozen=True)
class Finding:
    language: str
    kind: str
    diagnostic: Diagnostic

    def to_json(self) -> dict[str, object]:
        return {"language": self.language, "kind": self.kind, **self.diagnostic.to_json()}


def expected_names(data: JsonObject) -> dict[str, list[str]]:
    """For each ``names`` table, the ids a locale must name, from the rule set."""

    def keys(value: JsonValue) -> list[str]:
        return list(value) if isinstance(value, dict) else []

    schema = load_schema("rules")["definitions"]
    dice = _dict(data.get("dice"))
    event = _dict(dice.get("event_die"))
    return {
        "resources": keys(data.get("resources")),
        "commodities": keys(data.get("commodities")),
        "terrains": keys(data.get("terrains")),
        "pieces": keys(data.get("pieces")),
        "knight_levels": knight_levels(data),
        "tracks": keys(data.get("tracks")),
        "levels": improvement_levels(data),
        "decks": keys(data.get("decks")),
        "dice": keys(dice),
        "event_faces": keys(event.get("faces")),
        "titles": keys(data.get("titles")),
        "timings": list(schema["card"]["properties"]["timing"]["enum"]),
        "colours": list(
            dict.fromkeys(
                [
                    *schema["track"]["properties"]["colour"]["enum"],
                    *_list(_dict(data.get("parameters")).get("player_colours")),
                ]
            )
        ),
        "concepts": list(CONCEPTS),
        "actions": keys(data.get("actions")),
        "phases": keys(data.get("phases")),
        "counters": keys(data.get("counters")),
        "hooks": keys(data.get("hooks")),
    }


def expected_units(data: JsonObject, english: JsonObject) -> dict[JsonPath, bool]:
    """Every key a locale must have, mapped to whether it takes plural forms: the names
    and texts of the rule set, English's messages and the messages of the log's events."""
    units: dict[JsonPath, bool] = {}
    for section, ids in expected_names(data).items():
        for key in ids:
            units[("names", section, key)] = False
    for card in _dict(data.get("cards")):
        units[("cards", card, "name")] = False
        units[("cards", card, "text")] = False
    for section in ("resources", "commodities"):
        for good in _dict(data.get(section)):
            units[("counted", good)] = True
    messages = _dict(english.get("messages"))
    for key, value in messages.items():
        units[("messages", key)] = isinstance(value, dict)
    for key in EVENT_MESSAGES:
        units[("messages", key)] = isinstance(messages.get(key), dict)
    return units


def present_units(data: JsonObject) -> dict[JsonPath, JsonValue]:
    """Every name, text and message a locale's data holds, by key."""
    found: dict[JsonPath, JsonValue] = {}
    for section, table in _dict(data.get("names")).items():
        for key, value in _dict(table).items():
            found[("names", section, key)] = value
    for card, entry in _dict(data.get("cards")).items():
        for part, value in _dict(entry).items():
            found[("cards", card, part)] = value
    for section in ("counted", "messages"):
        for key, value in _dict(data.get(section)).items():
            found[(section, key)] = value
    return {path: value for path, value in found.items() if _translated(value)}


def dotted_units(data: JsonObject) -> dict[str, JsonValue]:
    """``present_units`` by dotted key (``cards.bishop.text``), as ``sources:`` names them."""
    return {dotted(path): value for path, value in present_units(data).items()}


def _path_of(key: str) -> JsonPath:
    return tuple(key.split("."))


def _translated(value: JsonValue) -> bool:
    """Not an empty text (``l10n init`` writes "" for each entry still to translate)."""
    if isinstance(value, dict):
        return any(v != "" for v in value.values())
    return value != ""


def _list(value: JsonValue) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _array(value: JsonValue) -> JsonArray:
    return value if isinstance(value, list) else []


def _dict(value: JsonValue) -> JsonObject:
    return value if isinstance(value, dict) else {}


def dotted(path: JsonPath) -> str:
    return ".".join(str(p) for p in path)


def check_languages(
    ruleset: RuleSet,
    languages: tuple[str, ...] | None = None,
    folder: Path | None = None,
) -> list[Finding]:
    """Findings for each of ``languages`` (default: every translated language's file;
    English is checked against the rule set), and for the files of the languages derived
    from them (``ckdsl.l10n.derived``: that their source and transliteration exist)."""
    every = languages is None
    if languages is None:
        languages = catalog_languages(folder)
    chosen = languages
    english, problems = _load(REFERENCE, ruleset, folder)
    findings = [Finding(REFERENCE, "invalid", p) for p in problems]
    if english is None or problems:
        return findings  # everything is compared with English: it must be sound first
    units = expected_units(ruleset.data, english.data)
    for language in languages:
        if language == REFERENCE:
            findings += _check_one(english, None, units, _placer(ruleset, language))
            continue
        locale, problems = _load(language, ruleset, folder)
        findings += [Finding(language, "invalid", p) for p in problems]
        if locale is not None and not problems:  # a broken file: fix it first
            findings += _check_one(locale, english, units, _placer(ruleset, language))
            findings += _check_sources(language, folder)
    return findings + _check_derived(folder, None if every else chosen)


def _check_derived(folder: Path | None, sources: tuple[str, ...] | None) -> list[Finding]:
    """Problems of the files of derived languages (all of them, or those derived from one
    of ``sources``): their texts are their source's, checked as its own."""
    out = []
    for tag in derived_languages(folder):
        locale, problems = load_locale_file(locale_path(tag, folder))
        made = derived.derivation_of(locale.data) if locale is not None else None
        if sources is not None and (made is None or made.source not in sources):
            continue
        if locale is not None:
            translated = catalog_languages(folder)
            problems += derived.problems(locale.data, locale.positions, translated)
        out += [Finding(tag, "invalid", p) for p in problems]
    return out


def _check_sources(language: str, folder: Path | None) -> list[Finding]:
    """Outdated and unverified translations of ``language``: its file's fingerprints
    against the English file's texts. Both files as they are, without a variant's inline
    names: the fingerprints record the English of en.yaml, and a variant's translations
    are beside its own English."""
    locale, _ = load_locale_file(locale_path(language, folder))
    english, _ = load_locale_file(locale_path(REFERENCE, folder))
    if locale is None or english is None:
        return []
    translated = dotted_units(locale.data)
    ref = dotted_units(english.data)
    recorded = recorded_of(locale.data)
    pos = locale.positions
    update = f"ckdsl l10n update {language}"
    if recorded is None:
        count = sum(key in ref for key in translated)
        if not count:
            return []
        message = (
            f"unverified: no `{SECTION}:` section records which English the {count} "
            "translated entries were made from, so a change in English would go unseen"
        )
        note = f"`{update}` records the English of today for each: check they agree first"
        where = pos.key(("language",))
        return [Finding(language, "unverified", Diagnostic.at(where, message, (SECTION,), [note]))]
    found = compare(translated, ref, recorded)
    out = []
    for key in found.outdated:
        path = _path_of(key)
        message = f"outdated: {key} was translated from an earlier English" + _english_of(ref[key])
        notes = [f"translate it again, then: {update} --confirm {key}"]
        was = earlier_english(Path(english.file), key, str(recorded[key]), dotted_units)
        if was is not None:  # the English it was made from, where git still has it
            notes.insert(0, "it was made from" + _english_of(was).replace("(English: ", "", 1)[:-1])
        out.append(
            Finding(language, "outdated", Diagnostic.at(pos.key(path), message, path, notes))
        )
    for key in found.unverified:
        path = _path_of(key)
        message = f"unverified: {key} does not record which English it was made from" + _english_of(
            ref[key]
        )
        note = f"if it translates that English: {update} (records it)"
        out.append(
            Finding(language, "unverified", Diagnostic.at(pos.key(path), message, path, [note]))
        )
    return out


def unknown_ids(locale: LocaleFile, ruleset: RuleSet) -> list[Diagnostic]:
    """Names of ids the rule set does not define (used by ``ckdsl validate``).

    Message keys are compared with the English file beside ``locale``, or the bundled
    one when there is none.
    """
    english: LocaleFile | None = locale
    if locale.language != REFERENCE:
        folder = Path(locale.file).parent
        english, _ = _load(
            REFERENCE, ruleset, folder if locale_path(REFERENCE, folder).is_file() else None
        )
    units = expected_units(ruleset.data, english.data if english is not None else {})
    return [f.diagnostic for f in _extra(locale, units)]


def inline_unknown_ids(ruleset: RuleSet) -> list[Diagnostic]:
    """Names a variant carries inline for ids the rule set does not define."""
    english, _ = _load(REFERENCE, ruleset, None)
    units = expected_units(ruleset.data, english.data if english is not None else {})
    out = []
    for language, fragment in ruleset.names.items():
        positions = Positions()
        positions.graft(ruleset.name_positions, (language,), ())
        inline = LocaleFile(language, "", fragment, positions)
        out += [f.diagnostic for f in _extra(inline, units)]
    return out


_REASON = re.compile(r'\belse\s+"((?:[^"\\]|\\.)*)"')
"""A `require ... else "..."` reason in an effect's text."""


def untranslatable_reasons(ruleset: RuleSet) -> list[Diagnostic]:
    """A warning for each `require ... else "text"` whose text is no message of English
    (nor of the variant's `names: en: messages:`): it is shown as written, in English, at
    every table. A message key (`refused_...`) with a text in each language is."""
    english, _ = _load(REFERENCE, ruleset, None)
    messages = _dict(english.data.get("messages")) if english is not None else {}
    out = []
    for path, _, text in effects(ruleset.data):
        for found in _REASON.finditer(text):
            reason = found.group(1)
            if reason in messages:
                continue
            line = text.count("\n", 0, found.start())
            at = ruleset.positions.value(path)
            message = (
                f'the reason "{_short(reason)}" is shown as written, in English, at every '
                "table: give a message key (such as refused_no_city) and its text in each "
                "language under `names: <language>: messages:`"
            )
            where = Diagnostic.at(at, message, path)
            if at.line:  # a block text starts on the line after its key
                where = replace(where, line=at.line + line + 1, col=0)
            out.append(replace(where, severity="warning"))
    return out


def unnamed_ids(ruleset: RuleSet) -> list[Diagnostic]:
    """A warning for each id of the rule set English does not name, nor the variant in
    its `names: en:` block (a new card, piece, colour, ...), at the id: it would be shown
    by its id, in every language (they fall back to English)."""
    english, _ = _load(REFERENCE, ruleset, None)
    data = english.data if english is not None else {}
    present = present_units(data)
    out = []
    for path in expected_units(ruleset.data, data):
        if path[0] not in ("names", "cards") or path in present:
            continue
        key = str(path[1] if path[0] == "cards" else path[2])
        if path[0] == "cards" and path[2] == "text":
            message = (
                f"the card '{key}' has no English text: `ckdsl cards` and `explain` would "
                f"show none; add it under `names: en: cards: {key}: text:`"
            )
        elif path[0] == "cards":
            message = (
                f"the card '{key}' has no English name: the log would say '{key}'; add it "
                f"under `names: en: cards: {key}: name:`"
            )
        else:
            label = LABELS.get(str(path[1]), str(path[1]))
            message = (
                f"the {label} '{key}' has no English name: the log would say '{key}'; add "
                f"it under `names: en: names: {path[1]}:`"
            )
        diagnostic = Diagnostic.at(definition(ruleset, path), message, path)
        out.append(replace(diagnostic, severity="warning"))
    return out


def _load(
    language: str, ruleset: RuleSet, folder: Path | None
) -> tuple[LocaleFile | None, list[Diagnostic]]:
    locale, problems = load_locale_file(locale_path(language, folder))
    if locale is None:
        return None, problems
    inline = ruleset.names.get(language)
    if isinstance(inline, dict):
        data = copy.deepcopy(locale.data)
        deep_merge(data, inline)
        positions = locale.positions.copy()
        positions.graft(ruleset.name_positions, (language,), ())
        _acknowledge(data, positions, locale, ruleset.name_positions.value, inline)
        locale = LocaleFile(language, locale.file, data, positions)
    return locale, problems


def _acknowledge(
    data: JsonObject,
    positions: Positions,
    locale: LocaleFile,
    inline_at: Callable[[JsonPath], Pos],
    inline: JsonObject,
) -> None:
    """The variant's ``same_as_english`` entries after the locale file's own (merging
    would put them in its place), each at its own line in the variant."""
    extra = _list(inline.get("same_as_english"))
    if not extra:
        return
    own = _list(locale.data.get("same_as_english"))
    data["same_as_english"] = [*own, *extra]
    for i in range(len(own)):
        positions.set(("same_as_english", i), locale.positions.value(("same_as_english", i)))
    for j in range(len(extra)):
        positions.set(
            ("same_as_english", len(own) + j), inline_at((locale.language, "same_as_english", j))
        )


Placer = Callable[[JsonPath], "tuple[Pos, str] | None"]
"""Where a missing entry goes, when a variant defines its id (``ckdsl.l10n.inline``)."""


def _placer(ruleset: RuleSet, language: str) -> Placer:
    if not variant_files(ruleset):
        return lambda path: None
    return lambda path: (
        place_of_missing(ruleset, language, path) if path[0] in ("names", "cards") else None
    )


def _check_one(
    locale: LocaleFile,
    english: LocaleFile | None,
    units: dict[JsonPath, bool],
    placer: Placer = lambda path: None,
) -> list[Finding]:
    lang = locale.language
    pos = locale.positions
    present = present_units(locale.data)
    ref = present_units(english.data) if english is not None else {}
    acknowledged = set(_list(locale.data.get("same_as_english")))
    out: list[Finding] = []

    def add(kind: str, path: JsonPath, message: str, at_key: bool = True) -> None:
        where = pos.key(path) if at_key else pos.value(path)
        out.append(Finding(lang, kind, Diagnostic.at(where, message, path)))

    for path in units:
        if path not in present:
            message = f"missing: {dotted(path)} has no {_language_name(lang)} text" + _english_of(
                ref.get(path)
            )
            placed = placer(path)  # a variant's id: in the variant, not the bundled file
            where, notes = (placed[0], [placed[1]]) if placed else (pos.nearest_key(path), [])
            out.append(Finding(lang, "missing", Diagnostic.at(where, message, path, notes)))
    out += _extra(locale, units)
    if english is None:
        out += _unknown_event_messages(locale)
    needed = set(plural.categories(lang))
    limits = _dict((english or locale).data.get("max_length"))
    compared: set[str] = set()
    for path, value in present.items():
        if path not in units:
            continue
        forms = value if isinstance(value, dict) else {"": value}
        ref_value = ref.get(path)
        ref_forms = ref_value if isinstance(ref_value, dict) else {"": ref_value}
        if isinstance(value, dict):
            for cat in sorted(needed - set(value), key=plural.ORDER.index):
                add("plural", path, f"{dotted(path)} lacks the plural form '{cat}'")
            for cat in sorted(set(value) - needed, key=plural.ORDER.index):
                add(
                    "plural",
                    (*path, cat),
                    f"{_language_name(lang)} does not use the plural form '{cat}'",
                )
        elif units[path]:
            add("plural", path, f"{dotted(path)} needs one text per plural category")
        expected = _placeholder_set(ref_forms) if english is not None else None
        event = EVENT_MESSAGES.get(str(path[1])) if path[0] == "messages" else None
        for cat, text in forms.items():
            if not isinstance(text, str):
                continue
            fpath = (*path, cat) if cat else path
            names = _without_forms(placeholders(text), event, locale.data)
            fields = event_placeholders(event) if event is not None else None
            if names is None:
                add(
                    "placeholder",
                    fpath,
                    "only plain fields: write {name} (no format spec, attribute or index), "
                    "or {{ and }} for braces",
                    False,
                )
            elif event is not None and fields is not None and not names <= fields:
                add(
                    "placeholder",
                    fpath,
                    f"{_braces(names - fields)}: the event '{event.kind}' has no such field "
                    f"(it fills {_braces(set(fields))})",
                    False,
                )
            elif expected is not None and names != expected:
                add(
                    "placeholder",
                    fpath,
                    f"placeholders {_braces(names)} differ from English {_braces(expected)}",
                    False,
                )
            limit = limits.get(dotted(path))
            if isinstance(limit, int) and len(text) > limit:
                add(
                    "length",
                    fpath,
                    f"{len(text)} characters: {dotted(path)} has room for {limit} "
                    f"(max_length in en.yaml)",
                    False,
                )
            if english is None:
                continue
            same = ref_forms.get(cat) if cat in ref_forms else ref_forms.get("other")
            key = dotted(fpath)
            if text == same:
                compared.add(key)
                if key not in acknowledged:
                    add(
                        "identical",
                        fpath,
                        f"left identical to English ('{_short(text)}'); translate it, or "
                        f"list '{key}' under same_as_english",
                        False,
                    )
    out += _glossary(locale, present, units)
    if english is not None:
        for i, entry in enumerate(_array(locale.data.get("same_as_english"))):
            if entry not in compared:
                add(
                    "stale",
                    ("same_as_english", i),
                    f"'{entry}' is listed under same_as_english but no such text is "
                    "identical to English",
                    False,
                )
    return out


def _glossary(
    locale: LocaleFile, present: Mapping[JsonPath, JsonValue], units: Mapping[JsonPath, bool]
) -> list[Finding]:
    """Texts that use a word the glossary avoids, once per entry and concept, at the
    entry's key (the first form that uses it, for plural forms); and glossary terms that
    are one of their own avoided words (the check could never pass)."""
    terms = terms_of(locale.data)
    pos = locale.positions
    out = []

    def concept(term: Term) -> str:
        return term.concept.replace("_", " ")

    def add(path: JsonPath, message: str, note: str) -> None:
        diagnostic = Diagnostic.at(pos.key(path), message, path, [note])
        out.append(Finding(locale.language, "glossary", diagnostic))

    for term in terms:
        found = avoided_in(term.term, term)
        if found is not None:
            add(
                (GLOSSARY, term.concept, "term"),
                f"glossary: the term '{term.term}' of {concept(term)} is one of the words "
                f"it avoids ('{found}')",
                "take that word out of `avoid`, or list the form under `allow`",
            )
    for path, value in present.items():
        if path not in units:
            continue
        texts = [v for v in value.values()] if isinstance(value, dict) else [value]
        for term in terms:
            found = next(
                (w for t in texts if isinstance(t, str) and (w := avoided_in(t, term))), None
            )
            if found is None:
                continue
            add(
                path,
                f"glossary: {dotted(path)} says '{found}' for {concept(term)}: the "
                f"{_language_name(locale.language)} word is '{term.term}'",
                f"the {locale.language} glossary avoids for {concept(term)}: "
                f"{', '.join(term.avoid)} ({GLOSSARY}.{term.concept} in {locale.language}.yaml)",
            )
    return out


def _extra(locale: LocaleFile, units: dict[JsonPath, bool]) -> list[Finding]:
    """Keys of ``locale`` that name no id of the rule set (or no English message)."""
    cards = {p[1] for p in units if p[0] == "cards"}
    out = []
    for path in present_units(locale.data):
        if path in units:
            continue
        if path[0] == "cards":
            if path[1] in cards or path[2] != "name":
                continue  # a known card (the schema checks its parts), or reported once
            path, siblings = path[:2], cards
        else:
            siblings = {p[-1] for p in units if p[:-1] == path[:-1]}
        where = "the English file" if path[0] == "messages" else "the rule set"
        hint = suggest(str(path[-1]), map(str, siblings))
        message = f"unknown id: {dotted(path)} is not in {where}{hint}"
        out.append(
            Finding(
                locale.language, "extra", Diagnostic.at(locale.positions.key(path), message, path)
            )
        )
    return out


def _unknown_event_messages(locale: LocaleFile) -> list[Finding]:
    """Messages of the log (``log_*``) that tell no event of the schema: an event renamed
    or removed, or a typo."""
    out = []
    for key in _dict(locale.data.get("messages")):
        if key.startswith("log_") and key not in EVENT_MESSAGES:
            path: JsonPath = ("messages", key)
            hint = suggest(key, EVENT_MESSAGES)
            message = f"unknown id: {dotted(path)} tells no event of the log{hint}"
            where = locale.positions.key(path)
            out.append(Finding(locale.language, "extra", Diagnostic.at(where, message, path)))
    return out


def _english_of(value: JsonValue) -> str:
    """The English a missing entry translates, shown beside the finding (its first 80
    characters; a plural entry by its `other` form)."""
    if isinstance(value, dict):
        value = value.get("other", next(iter(value.values()), None))
    if not isinstance(value, str):
        return ""
    text = " ".join(value.split())
    return f' (English: "{text if len(text) <= 80 else text[:77] + "..."}")'


def _without_forms(
    names: set[str] | None, event: EventSpec | None, data: JsonObject
) -> set[str] | None:
    """``names`` with each ``{victim_dative}`` (a player field in a form the locale
    declares under ``player_forms``) read as the field itself, ``{victim}``."""
    forms = data.get("player_forms")
    if names is None or event is None or not isinstance(forms, dict):
        return names
    players = {f.name for f in event.fields if f.type == "player"}
    out = set()
    for name in names:
        field, _, form = name.rpartition("_")
        out.add(field if field in players and form in forms else name)
    return out


def _placeholder_set(forms: Mapping[str, JsonValue]) -> set[str] | None:
    names: set[str] = set()
    for text in forms.values():
        if not isinstance(text, str):
            return None
        found = placeholders(text)
        if found is None:
            return None
        names |= found
    return names


def _braces(names: set[str]) -> str:
    return "{" + ", ".join(sorted(names)) + "}" if names else "(none)"


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _language_name(language: str) -> str:
    from babel import Locale  # its data: only when a finding names a language

    return str(Locale("en").languages.get(language.split("-")[0], language))
