"""``ckdsl l10n export LANG --format po`` and ``ckdsl l10n import LANG FILE``: a locale as
a gettext PO file, for the tools translators work in (Poedit, Weblate, Crowdin, Lokalise).

None of those tools reads our YAML, so a translator who is not a programmer needs the
exchange format they all read. One PO message per entry of the locale:

- ``msgctxt`` is the entry's key (``cards.bishop.text``): the key, not the English, tells
  two entries with the same English apart, and it is what ``import`` writes back to;
- ``msgid`` is today's English, ``msgstr`` the translation (``""`` while untranslated);
- extracted comments (``#.``) say where the text is shown and what each ``{placeholder}``
  stands for; en.yaml's own comment above the entry comes with them;
- an entry whose English changed since it was translated (``l10n check``: outdated) is
  ``fuzzy``, with the English it was made from as ``#| msgid`` when this checkout's git
  history still has it (``ckdsl.l10n.history``);
- a message with plural forms has ``msgid_plural`` and one ``msgstr[i]`` per CLDR plural
  category of the language, in CLDR's order; the ``Plural-Forms`` header is CLDR's rule
  written as gettext's (Babel's ``to_gettext``), so Poedit shows the same forms the game
  uses (Polish: one, few, many, other).

``import`` reads a PO file (written by ``export`` and edited in any of those tools) and
writes the translations back into the YAML in place: only the values that changed are
rewritten, so the file's comments, order and layout stay; fuzzy and empty messages are
left out. It refuses the whole file, writing nothing, when a message's context is no
entry of en.yaml or its placeholders are not the English's (the same test as
``l10n check``). The fingerprints under ``sources:`` record the English each imported
translation was made from: the PO's ``msgid``, so a PO exported before the English
changed imports as outdated, as it is.
"""

from __future__ import annotations

import io
import re
import tempfile
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import yaml

from ckdsl.diagnostics import CkdslError, Diagnostic
from ckdsl.jsondata import JsonValue
from ckdsl.l10n import plural
from ckdsl.l10n.catalog import REFERENCE, LocaleFile, locale_path, placeholders
from ckdsl.l10n.check import dotted_units
from ckdsl.l10n.history import earlier_english
from ckdsl.l10n.sources import fingerprint, recorded_of
from ckdsl.l10n.update import parse_locale, updated_text
from ckdsl.rules.yamlload import read_yaml_text

_WHERE = (
    ("names.", "a name: shown in the log, the card list, the tables and the board"),
    (
        "cards.",
        "a progress card's name or text: `ckdsl cards`, `explain`, the tables' card pop-ups",
    ),
    ("counted.", "a good after a number (costs, the log, hands): one form per plural category"),
    ("messages.log_", "a line of the game log (terminal, web table, `replay`)"),
    ("messages.refused_", "why an answer is refused, said to the player who answered"),
    ("messages.decision_", "names a decision; read after 'first …' and in the tables' headings"),
    ("messages.table_", "the web table: a button, heading or label (keep it short)"),
    ("messages.terminal_", "the terminal seat's prompts and help"),
    ("messages.stop_", "why a card's effect stops, inside the log line log_card_failed"),
    ("messages.explain_", "`ckdsl explain`: a heading of a card's or ability's explanation"),
    ("messages.ability_", "an improvement's level-3 ability, in `explain` and the tables"),
    ("messages.board_", "the board picture (SVG) and `ckdsl board`"),
    ("messages.", "a message of the program"),
)
_OPERAND = re.compile(r"\b([ivwftec])\b")


@dataclass(frozen=True)
class PluralForms:
    """A language's CLDR plural categories in the order of their ``msgstr[i]``, and the
    ``Plural-Forms`` header that picks them."""

    categories: tuple[str, ...]
    header: str


def plural_forms(language: str) -> PluralForms:
    """CLDR's rule for ``language`` as gettext's header (integers only: CLDR's operands
    of a whole number ``n`` are ``i = n`` and ``v = w = f = t = e = c = 0``)."""
    from babel import Locale
    from babel.plural import to_gettext

    categories = plural.categories(language)
    try:
        rule = Locale.parse(language.replace("-", "_")).plural_form
    except (ValueError, LookupError):
        return PluralForms(categories, f"nplurals={len(categories)}; plural=0;")
    header = _OPERAND.sub(lambda m: "n" if m.group(1) == "i" else "0", to_gettext(rule))
    return PluralForms(categories, header)


def export_po(language: str, folder: Path | None = None) -> str:
    """The PO text of ``language``'s locale file in ``folder`` (default: the bundled
    locales). Raises :class:`CkdslError` when either file is broken."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    locale, english, english_text = _files(language, folder)
    forms = plural_forms(language)
    ref = dotted_units(english.data)
    translated = dotted_units(locale.data)
    recorded = recorded_of(locale.data) or {}
    stamp = datetime.fromtimestamp(Path(locale.file).stat().st_mtime, tz=timezone.utc).replace(
        microsecond=0
    )
    catalog = Catalog(
        locale=None,
        project="ckdsl",
        version=language,
        creation_date=stamp,
        revision_date=stamp,
        fuzzy=False,
    )
    catalog.mime_headers = [("Language", language), ("Plural-Forms", forms.header)]
    catalog.header_comment = (
        f"# The {language} texts of ckdsl, from rules/locales/{language}.yaml"
        f" (`ckdsl l10n export {language} --format po`).\n"
        "# msgctxt is the entry's key; translate msgstr, keep every {placeholder}, then\n"
        f"# `ckdsl l10n import {language} THIS_FILE` writes the translations back (docs/l10n.md)."
    )
    catalog.last_translator = f"the translators of {Path(locale.file).name}"
    catalog.language_team = f"ckdsl {language} (rules/locales/{language}.yaml)"
    catalog.msgid_bugs_address = "the project's issue tracker"
    en_lines = english_text.splitlines()
    for key, en in ref.items():
        value = translated.get(key, "")
        outdated = key in translated and key in recorded and recorded[key] != fingerprint(en)
        flags = ["fuzzy"] if outdated else []
        previous = (
            earlier_english(Path(english.file), key, str(recorded[key]), dotted_units)
            if outdated
            else None
        )
        comments = _comments(key, en, en_lines, english)
        if isinstance(en, dict):
            msgid: str | tuple[str, str] = (
                str(en.get("one", en.get("other", ""))),
                str(en.get("other", "")),
            )
            string: str | tuple[str, ...] = tuple(
                str(value.get(c, "")) if isinstance(value, dict) else "" for c in forms.categories
            )
            prev: str | tuple[str, str] | None = _plural_pair(previous)
        else:
            msgid, string = str(en), str(value) if isinstance(value, str) else ""
            prev = str(previous) if isinstance(previous, str) else None
        message = catalog.add(
            msgid, string, context=key, auto_comments=comments, flags=flags, previous_id=prev or ()
        )
        if not _same_placeholders(en, value):  # a Polish {victim_genitive}: right, but
            # no name msgfmt knows. Babel flags every msgid with braces (its reader too,
            # when a tool writes the file back): the "no-" flag wins for msgfmt.
            message.flags.discard("python-brace-format")
            message.flags.add("no-python-brace-format")
    out = io.BytesIO()
    write_po(out, catalog, width=79, include_previous=True, sort_output=False)
    return out.getvalue().decode("utf-8")


def _plural_pair(previous: JsonValue) -> tuple[str, str] | None:
    if not isinstance(previous, dict):
        return None
    return (str(previous.get("one", previous.get("other", ""))), str(previous.get("other", "")))


def _same_placeholders(english: JsonValue, value: JsonValue) -> bool:
    """Whether msgfmt may check the message's braces: the translation (if any) uses
    exactly English's placeholders (a Polish ``{victim_genitive}`` is right, but a name
    msgfmt cannot know)."""
    theirs = _names(value)
    return theirs is not None and (not theirs or theirs == _names(english))


def _names(value: JsonValue) -> set[str] | None:
    texts = list(value.values()) if isinstance(value, dict) else [value]
    out: set[str] = set()
    for text in texts:
        found = placeholders(text) if isinstance(text, str) else None
        if found is None:
            return None
        out |= found
    return out


def _comments(key: str, english: JsonValue, lines: Sequence[str], locale: LocaleFile) -> list[str]:
    """Where the text is shown, its placeholders, and en.yaml's comment above it."""
    where = next((text for prefix, text in _WHERE if key.startswith(prefix)), "")
    out = [where] if where else []
    names = _names(english)
    if names:
        out.append("placeholders: " + ", ".join("{" + n + "}" for n in sorted(names)))
    at = locale.positions.key(tuple(key.split("."))).line - 1
    above = []
    for line in reversed(lines[:at]):
        stripped = line.strip()
        if not stripped.startswith("#") or stripped.startswith("# yaml-language-server"):
            break
        above.append(stripped.lstrip("# ").rstrip())
    return out + [line for line in reversed(above) if line]


@dataclass
class ImportReport:
    """What ``import`` did, by dotted key."""

    written: list[str] = field(default_factory=list)
    """Entries whose text the PO changed."""
    fuzzy: list[str] = field(default_factory=list)
    """Fuzzy messages, left out (review them in the PO tool, then import again)."""
    changed: bool = False

    def lines(self, file: str) -> list[str]:
        out = [f"imported   {key}" for key in self.written]
        out += [f"fuzzy      {key} (left out: not reviewed)" for key in self.fuzzy]
        out.append(f"{'updated' if self.changed else 'unchanged'}  {file}")
        return out


def import_po(language: str, po_file: Path, folder: Path | None = None) -> ImportReport:
    """Write the translations of ``po_file`` into ``language``'s locale file in ``folder``.

    Raises :class:`CkdslError` (nothing written) for a PO file that does not parse, a
    message that is no entry of en.yaml, or placeholders that differ from English's."""
    from ckdsl.files import write_whole

    locale, english, english_text = _files(language, folder)
    path = Path(locale.file)
    text = read_yaml_text(path)
    messages = _read_po(po_file, language)
    ref = dotted_units(english.data)
    problems = [
        Diagnostic(str(po_file), line, 0, f"msgctxt '{key}' is no entry of en.yaml")
        for key, (_, _, line, _) in messages.items()
        if key not in ref
    ]
    if problems:
        raise CkdslError(problems)
    current = dotted_units(locale.data)
    report = ImportReport()
    values: dict[str, JsonValue] = {}
    made_from: dict[str, JsonValue] = {}
    for key, (value, msgid, _, fuzzy) in messages.items():
        if fuzzy:
            report.fuzzy.append(key)
            continue
        if not value or (isinstance(value, dict) and not any(value.values())):
            continue
        made_from[key] = msgid
        if current.get(key) != value:
            values[key] = value
            report.written.append(key)
    new_text = _spliced(text, locale, values)
    problems = _placeholder_problems(language, new_text, english_text, values, messages, po_file)
    if problems:
        raise CkdslError(problems)
    confirm = [k for k, en in made_from.items() if _same_english(en, ref[k])]
    earlier = {k: en for k, en in made_from.items() if k not in confirm}
    new_text, _ = updated_text(
        parse_locale(new_text, str(path)),
        new_text,
        english,
        english_text,
        confirm,
        made_from=earlier,
    )
    parse_locale(new_text, str(path))
    if new_text != text:
        write_whole(path, new_text.encode("utf-8"))
        report.changed = True
    return report


def _files(language: str, folder: Path | None) -> tuple[LocaleFile, LocaleFile, str]:
    if language == REFERENCE:
        raise CkdslError(
            [
                Diagnostic(
                    "", 0, 0, "English is the reference: it has no translation to export or import"
                )
            ]
        )
    path = locale_path(language, folder)
    if not path.is_file():
        from ckdsl.userfiles import NO_SUCH_FILE, UnsafeFile, check_regular

        message = f"no locale file for '{language}'; start one with `ckdsl l10n init {language}`"
        try:
            check_regular(path)
        except UnsafeFile as exc:  # something else than a file stands there: say what
            message = message if exc.message == NO_SUCH_FILE else exc.message
        raise CkdslError([Diagnostic(str(path), 0, 0, message)])
    english_path = locale_path(REFERENCE, folder)
    english_text = read_yaml_text(english_path)
    locale = parse_locale(read_yaml_text(path), str(path))
    return locale, parse_locale(english_text, str(english_path)), english_text


def _read_po(po_file: Path, language: str) -> dict[str, tuple[JsonValue, JsonValue, int, bool]]:
    """Each message of ``po_file`` by context: (translation, the English it translates,
    its line, fuzzy)."""
    from babel.messages.pofile import PoFileError, read_po

    from ckdsl.userfiles import UnsafeFile, read_user_bytes

    try:
        raw = read_user_bytes(po_file)
        catalog = read_po(io.BytesIO(raw), abort_invalid=True)
    except (OSError, UnsafeFile) as exc:
        raise CkdslError([Diagnostic(str(po_file), 0, 0, f"cannot read it: {exc}")]) from None
    except (PoFileError, UnicodeDecodeError, ValueError) as exc:
        raise CkdslError([Diagnostic(str(po_file), 0, 0, f"not a valid PO file: {exc}")]) from None
    forms = plural_forms(language).categories
    out: dict[str, tuple[JsonValue, JsonValue, int, bool]] = {}
    for message in catalog:
        if not message.id or message.context is None:
            continue  # the header
        line = message.lineno or 0
        if isinstance(message.id, (list, tuple)):
            strings = message.string if isinstance(message.string, (list, tuple)) else ()
            value: JsonValue = {c: str(s) for c, s in zip(forms, strings, strict=False) if s}
            english: JsonValue = {"one": str(message.id[0]), "other": str(message.id[1])}
        else:
            value = str(message.string or "")
            english = str(message.id)
        out[str(message.context)] = (value, english, line, message.fuzzy)
    if not out:
        raise CkdslError(
            [
                Diagnostic(
                    str(po_file),
                    0,
                    0,
                    "not a PO file of ckdsl: no message names its entry in msgctxt "
                    "(make one with `ckdsl l10n export LANG --format po`)",
                )
            ]
        )
    return out


def _same_english(po_english: JsonValue, english: JsonValue) -> bool:
    """Whether the PO's msgid is today's English (plural: its one and other forms)."""
    if isinstance(english, dict) and isinstance(po_english, dict):
        return all(
            po_english.get(c) == english.get(c, english.get("other")) for c in ("one", "other")
        )
    return po_english == english


def _placeholder_problems(
    language: str,
    new_text: str,
    english_text: str,
    values: Mapping[str, JsonValue],
    messages: Mapping[str, tuple[JsonValue, JsonValue, int, bool]],
    po_file: Path,
) -> list[Diagnostic]:
    """``l10n check``'s placeholder findings for the entries the PO changes, at the PO's
    lines: the file as it would be written, checked as the check does."""
    if not values:
        return []
    from ckdsl.l10n.check import check_languages
    from ckdsl.rules.ruleset import load_ruleset

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / f"{REFERENCE}.yaml").write_text(english_text, encoding="utf-8")
        (folder / f"{language}.yaml").write_text(new_text, encoding="utf-8")
        ruleset, _ = load_ruleset()  # the base rules: what every locale names
        assert ruleset is not None, "the bundled rules do not load"
        findings = check_languages(ruleset, (language,), folder)
    out = []
    for finding in findings:
        key = ".".join(str(p) for p in finding.diagnostic.path or ())
        if finding.kind == "placeholder" and key in values:
            line = messages[key][2]
            message = finding.diagnostic.message.replace(str(folder / f"{language}.yaml"), "")
            out.append(Diagnostic(str(po_file), line, 0, f"msgctxt '{key}': {message}"))
    return out


def _spliced(text: str, locale: LocaleFile, values: Mapping[str, JsonValue]) -> str:
    """``text`` with the value of each entry in ``values`` written in place of the old
    one, in the old one's style (a folded or literal block stays one)."""
    if not values:
        return text
    spans = _value_spans(text)
    pieces = []
    at = 0
    for start, end, key in sorted((s, e, k) for k, (s, e) in ((k, spans[k]) for k in values)):
        pieces += [
            text[at:start],
            _written(text, start, end, values[key], plural.categories(locale.language)),
        ]
        at = end
    return "".join([*pieces, text[at:]])


def _value_spans(text: str) -> dict[str, tuple[int, int]]:
    """Where each entry's value is in ``text`` (character offsets), by dotted key."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    out: dict[str, tuple[int, int]] = {}

    def walk(node: yaml.Node, path: tuple[str, ...]) -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        for key_node, value_node in node.value:
            key = (*path, str(key_node.value))
            out[".".join(key)] = (value_node.start_mark.index, value_node.end_mark.index)
            if len(key) < 3:
                walk(value_node, key)

    if root is not None:
        walk(root, ())
    return out


def _written(text: str, start: int, end: int, value: JsonValue, categories: Sequence[str]) -> str:
    """``value`` as YAML to put where ``text[start:end]`` was."""
    old = text[start:end]
    line_start = text.rfind("\n", 0, start) + 1
    key_indent = len(text[line_start:start]) - len(text[line_start:start].lstrip())
    if isinstance(value, dict):
        forms = ", ".join(f"{c}: {_quoted(str(value[c]))}" for c in categories if c in value)
        return "{" + forms + "}"
    body = str(value)
    if old[:1] in "|>":
        header, _, rest = old.partition("\n")
        indent = " " * (len(rest) - len(rest.lstrip(" ")) or key_indent + 2)
        trailing = old[len(old.rstrip("\n")) :]
        if old[0] == "|":
            lines = body.split("\n")
        elif "\n" in body or "  " in body or body != body.strip():
            return _quoted(body) + trailing
        else:
            width = max(len(line) for line in rest.splitlines()) if rest.strip() else 90
            lines = textwrap.wrap(
                body, width - len(indent), break_long_words=False, break_on_hyphens=False
            )
        return header + "\n" + "\n".join(indent + line if line else "" for line in lines) + trailing
    if old[:1] not in "\"'" and _plain_safe(body):
        return body
    return _quoted(body)


def _plain_safe(text: str) -> bool:
    """Whether ``text`` can be written unquoted and read back the same (a name such as
    ``Cegła``: kept as the file wrote it)."""
    if not text or text != text.strip() or "\n" in text or ": " in text or " #" in text:
        return False
    if text[0] in "{[]}*&!|>'\"%@`#-?:,":
        return False
    try:
        return bool(yaml.safe_load(text) == text)
    except yaml.YAMLError:
        return False


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON's escapes are YAML's)."""
    import json

    return json.dumps(text, ensure_ascii=False)
