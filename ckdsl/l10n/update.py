"""``ckdsl l10n update LANG``: bring a locale file up to date with the English file.

When en.yaml changes, a translation falls behind in two ways: entries English gained are
missing, and entries whose English text changed are outdated (they still say what the
old English said). This rewrites ``rules/locales/<lang>.yaml`` in place, line by line, so
the translator's comments, order and layout stay as they are:

- an entry English has and the file lacks is added as ``""`` with its English in a
  comment after it (as ``l10n init`` writes it), where en.yaml has it;
- an outdated entry gets a comment line above it, ``# outdated: the English is now
  "..."``, and keeps its old fingerprint, so ``l10n check`` goes on reporting it until
  the translator confirms it (``--confirm KEY``, ``--confirm-all``): then its fingerprint
  becomes the current English's and the comment goes;
- a translated entry without a fingerprint gets the current English's (the translator
  made it from what en.yaml says today), and fingerprints of no translated entry go.

The fingerprints are the ``sources:`` section at the end of the file
(``ckdsl.l10n.sources``). The new file is parsed and checked against the schema before
it replaces the old one, whole (``ckdsl.files.write_whole``): a failed update leaves the
file as it was.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ckdsl.diagnostics import CkdslError, Diagnostic, JsonPath, Pos
from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.l10n.catalog import REFERENCE, LocaleFile, locale_path
from ckdsl.l10n.check import dotted, dotted_units, present_units
from ckdsl.l10n.init import untranslated
from ckdsl.l10n.sources import HEADER, SECTION, compare, fingerprint, recorded_of
from ckdsl.rules.yamlload import read_yaml_text

_OUTDATED = "# outdated: "
_NOW = "the English is now "
MARK = _OUTDATED + _NOW
"""How the comment above an outdated entry starts (what ``update`` removes and rewrites);
above a line holding more than one entry (``bishop: {name: ..., text: ...}``), the
entry's key comes first: ``# outdated: text: the English is now ...``."""
_MARK_LINE = re.compile(r"^\s*" + re.escape(_OUTDATED) + r"(?:\w+: )?" + re.escape(_NOW))


class UpdateError(ValueError):
    """A request ``update`` cannot carry out (a key to confirm that is no entry): a usage
    error, the file untouched."""


@dataclass
class Report:
    """What an update changed, by dotted key."""

    added: list[str] = field(default_factory=list)
    """Entries English has and the file lacked, added as ``""``."""
    outdated: list[str] = field(default_factory=list)
    """Translated entries whose English changed, marked and still to confirm."""
    confirmed: list[str] = field(default_factory=list)
    """Outdated entries confirmed: their fingerprint is now the current English's."""
    recorded: list[str] = field(default_factory=list)
    """Translated entries that had no fingerprint and have the current English's now."""
    removed: list[str] = field(default_factory=list)
    """Fingerprints of no translated entry, removed."""
    changed: bool = False

    def lines(self, file: str) -> list[str]:
        """What ``ckdsl l10n update`` prints: each change by key, then the file's fate."""
        out = [f"added      {key}" for key in self.added]
        out += [f"outdated   {key}" for key in self.outdated]
        out += [f"confirmed  {key}" for key in self.confirmed]
        if self.recorded:
            out.append(f"recorded   the English of {len(self.recorded)} translated entries")
        out += [f"removed    {SECTION}: {key}" for key in self.removed]
        out.append(f"{'updated' if self.changed else 'unchanged'}  {file}")
        return out


def update(
    language: str,
    folder: Path | None = None,
    confirm: Sequence[str] = (),
    confirm_all: bool = False,
) -> Report:
    """Update ``language``'s locale file in ``folder`` (default: the bundled locales).

    Raises :class:`UpdateError` for a key to confirm that is no translated entry, and
    :class:`CkdslError` when either file is broken (fix it first: lines cannot be placed
    in a file that does not parse)."""
    from ckdsl.files import write_whole

    path = locale_path(language, folder)
    text = read_yaml_text(path)
    english_path = locale_path(REFERENCE, folder)
    english_text = read_yaml_text(english_path)
    new_text, report = updated_text(
        parse_locale(text, str(path)),
        text,
        parse_locale(english_text, str(english_path)),
        english_text,
        confirm,
        confirm_all,
    )
    parse_locale(new_text, str(path))  # a bug here must not break the translator's file
    if new_text != text:
        write_whole(path, new_text.encode("utf-8"))
        report.changed = True
    return report


def updated_text(
    locale: LocaleFile,
    text: str,
    english: LocaleFile,
    english_text: str,
    confirm: Sequence[str] = (),
    confirm_all: bool = False,
    made_from: Mapping[str, JsonValue] | None = None,
) -> tuple[str, Report]:
    """The text of ``locale`` (read from ``text``) brought up to date with ``english``.

    ``made_from`` gives, by key, the English an unverified translation was made from when
    it is not today's (``l10n import`` knows it from the PO's msgid): its fingerprint is
    recorded, so the entry is outdated, not stamped current. The ``# en:`` hints that
    ``l10n init`` writes beside each entry are read the same way, then rewritten to
    today's English."""
    translated = dotted_units(locale.data)
    ref = dotted_units(english.data)
    _check_confirmable(confirm, translated, ref)
    recorded = recorded_of(locale.data) or {}
    found = compare(translated, ref, recorded)
    confirmed = set(confirm) | (set(found.outdated) if confirm_all else set())
    lines = text.splitlines()
    hints = _hints(locale, lines, ref)
    earlier = {k: h.english for k, h in hints.items() if not _same_text(h.english, ref[k])}
    earlier.update(made_from or {})
    stale = [k for k in found.unverified if k in earlier and k not in confirmed]
    report = Report(
        outdated=[k for k in found.outdated if k not in confirmed] + stale,
        confirmed=[k for k in found.outdated if k in confirmed],
        recorded=[k for k in found.unverified if k not in stale],
        removed=list(found.unused),
    )
    edits = _Edits(deleted={i for i, line in enumerate(lines) if _MARK_LINE.match(line)})
    for key in report.outdated:
        edits.mark(lines, locale.positions.key(_path_of(key)), _shown(ref[key]))
    for key, hint in hints.items():
        if key in earlier:
            edits.replaced[hint.first] = (hint.end, hint.rewritten(lines, ref[key]))
    report.added = _add_missing(locale, lines, english, english_text.splitlines(), edits)
    sources = _sources(locale, translated, ref, recorded, confirmed)
    sources.update({k: fingerprint(earlier[k]) for k in stale})
    _write_sources(locale, lines, sources, edits)
    return "\n".join(edits.apply(lines)) + "\n", report


@dataclass(frozen=True)
class _Hint:
    """The English ``l10n init`` (or ``update``) wrote beside an entry, as a comment:
    after its value on its line, or on the lines below a ``key: ""`` that English writes
    as a block."""

    first: int
    """The index of its first line (the entry's own line for a hint after the value)."""
    end: int
    """The index after its last line."""
    english: JsonValue
    inline: bool

    def rewritten(self, lines: Sequence[str], english: JsonValue) -> list[str]:
        """Its lines, saying ``english``."""
        if self.inline:
            line = lines[self.first]
            return [line[: line.index(_HINT_AFTER)] + _HINT_AFTER + _shown(english)]
        indent = _indent_of(lines[self.first])
        body = " ".join(str(english).split())
        return [f"{indent}{_HINT}{part}" for part in textwrap.wrap(body, 80)]


_HINT = "# en: "
_HINT_AFTER = "  " + _HINT


def _hints(
    locale: LocaleFile, lines: Sequence[str], english: Mapping[str, JsonValue]
) -> dict[str, _Hint]:
    """The ``# en:`` hints of the entries of ``locale``, by key."""
    out: dict[str, _Hint] = {}
    for key in english:
        path = _path_of(key)
        if not _has(locale.data, path):
            continue
        at = locale.positions.key(path)
        line = lines[at.line - 1]
        if len(_indent_of(line)) != at.col - 1:
            continue  # one of several entries on a line: no hint of its own
        if _HINT_AFTER in line:
            said = line[line.index(_HINT_AFTER) + len(_HINT_AFTER) :]
            out[key] = _Hint(at.line - 1, at.line, _yaml_value(said), inline=True)
            continue
        end = at.line
        inner = len(_indent_of(line)) + 2
        while end < len(lines) and lines[end].startswith(" " * inner + _HINT):
            end += 1
        if end > at.line:
            said = " ".join(lines[i].strip()[len(_HINT) :] for i in range(at.line, end))
            out[key] = _Hint(at.line, end, said, inline=False)
    return out


def _yaml_value(text: str) -> JsonValue:
    """A hint after a value is English's value as en.yaml writes it (plain, quoted or a
    flow mapping of plural forms)."""
    import yaml

    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    return text if value is None else str(value)


def _same_text(a: JsonValue, b: JsonValue) -> bool:
    """The same English but for how lines were broken."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_text(a[k], b[k]) for k in a)
    return isinstance(a, str) and isinstance(b, str) and a.split() == b.split()


def _check_confirmable(
    keys: Sequence[str], translated: Mapping[str, JsonValue], english: Mapping[str, JsonValue]
) -> None:
    from ckdsl.rules.schemas import suggest

    for key in keys:
        if key not in english:
            raise UpdateError(
                f"unknown key '{key}': en.yaml has no such entry{suggest(key, english)}"
            )
        if key not in translated:
            raise UpdateError(f"'{key}' is not translated yet: there is nothing to confirm")


@dataclass
class _Edits:
    """Changes to a file's lines, by the index of the original line they go before."""

    deleted: set[int] = field(default_factory=set)
    added: dict[int, list[str]] = field(default_factory=dict)  # new entries
    before_entry: dict[int, list[str]] = field(default_factory=dict)  # marks
    replaced: dict[int, tuple[int, list[str]]] = field(default_factory=dict)  # start: end, lines

    def mark(self, lines: Sequence[str], key: Pos, english: str) -> None:
        """The outdated mark of the entry whose key is at ``key``, on a line of its own
        above the entry's line (naming the key when the line does not start with it)."""
        line = lines[key.line - 1]
        indent = _indent_of(line)
        named = "" if len(indent) == key.col - 1 else f"{_key_at(line, key.col)}: "
        self.before_entry.setdefault(key.line - 1, []).append(
            f"{indent}{_OUTDATED}{named}{_NOW}{english}"
        )

    def apply(self, lines: Sequence[str]) -> list[str]:
        """The lines after the edits: at each index, entries added (they end the entry
        before), then a mark (it stays just above its entry), then the line itself."""
        out: list[str] = []
        skip_to = 0
        for i in range(len(lines) + 1):
            out += self.added.get(i, [])
            if i < skip_to:
                continue
            out += self.before_entry.get(i, [])
            if i in self.replaced:
                skip_to, new = self.replaced[i]
                out += new
                continue
            if i < len(lines) and i not in self.deleted:
                out.append(lines[i])
        return out


def _add_missing(
    locale: LocaleFile,
    lines: Sequence[str],
    english: LocaleFile,
    english_lines: Sequence[str],
    edits: _Edits,
) -> list[str]:
    """Place each entry English has and ``locale`` lacks (a whole card or section when
    it lacks that) after its nearest predecessor in en.yaml that the file has."""
    added: list[str] = []
    placed: set[JsonPath] = set()
    for path in present_units(english.data):
        if _has(locale.data, path):
            continue
        added.append(dotted(path))
        root = next(path[:n] for n in range(1, len(path) + 1) if not _has(locale.data, path[:n]))
        if root in placed:
            continue
        placed.add(root)
        start = english.positions.key(root).line - 1
        block = list(english_lines[start : _block_end(english_lines, start)])
        at, indent = _place(locale, lines, english.data, root)
        new = untranslated(_reindented(block, indent), locale.language, str(root[0]))
        edits.added.setdefault(at, []).extend(["", *new] if len(root) == 1 else new)
    return added


def _place(
    locale: LocaleFile, lines: Sequence[str], english: JsonObject, root: JsonPath
) -> tuple[int, int]:
    """Where an entry ``root`` of English goes in ``locale``: the index of the line it goes
    before, and its indentation."""
    parent = root[:-1]
    mapping = _get(english, parent)
    siblings = list(mapping) if isinstance(mapping, dict) else []
    earlier = siblings[: siblings.index(root[-1])] if root[-1] in siblings else []
    for key in reversed(earlier):
        if _has(locale.data, (*parent, key)):
            at = locale.positions.key((*parent, key)).line - 1
            return _block_end(lines, at), len(_indent_of(lines[at]))
    if not parent:
        return len(lines), 0
    at = locale.positions.key(parent).line - 1
    return at + 1, len(_indent_of(lines[at])) + 2


def _sources(
    locale: LocaleFile,
    translated: Mapping[str, JsonValue],
    english: Mapping[str, JsonValue],
    recorded: Mapping[str, JsonValue],
    confirmed: Collection[str],
) -> dict[str, str]:
    """The fingerprints to write, in the order of the entries in the file: the current
    English's for an entry confirmed or without one, else the one recorded (an outdated
    entry keeps its own, so ``check`` keeps reporting it)."""
    out: dict[str, str] = {}
    lines = {key: locale.positions.key(_path_of(key)).line for key in translated}
    for key in sorted(translated, key=lines.__getitem__):
        if key in english and (key in confirmed or key not in recorded):
            out[key] = fingerprint(english[key])
        elif key in recorded:
            out[key] = str(recorded[key])
    return out


def _write_sources(
    locale: LocaleFile, lines: Sequence[str], sources: Mapping[str, str], edits: _Edits
) -> None:
    """The ``sources:`` section in place of the old one, or at the end of the file."""
    body = [f"  {key}: {value}" for key, value in sources.items()]
    if SECTION in locale.data:
        start = locale.positions.key((SECTION,)).line - 1
        end = _block_end(lines, start)
        head, notes, tails = _section_comments(lines[start:end])
        kept = [
            line
            for key, line in zip(sources, body, strict=True)
            for line in [*notes.pop(key, []), line + tails.get(key, "")]
        ]
        kept += [line for left in notes.values() for line in left]  # of entries gone: kept
        edits.replaced[start] = (
            end,
            [f"{SECTION}:{head}", *kept] if kept else [f"{SECTION}: {{}}{head}"],
        )
        return
    section = [f"{SECTION}:", *body] if body else [f"{SECTION}: {{}}"]
    blank = [""] if lines and lines[-1].strip() else []
    edits.added.setdefault(len(lines), []).extend([*blank, *HEADER, *section])


def _section_comments(
    lines: Sequence[str],
) -> tuple[str, dict[str, list[str]], dict[str, str]]:
    """The comments a translator wrote in the ``sources:`` section: the one on its own
    line (after the key), each comment line by the key of the entry it stands above
    (``""`` for those at the end), and each comment after an entry on its line, by its
    key, so rewriting the fingerprints loses none of them."""
    found = re.search(r"\s+#.*$", lines[0]) if lines else None
    head = found.group(0) if found else ""
    notes: dict[str, list[str]] = {}
    tails: dict[str, str] = {}
    waiting: list[str] = []
    for line in lines[1:]:
        stripped = line.strip()
        if stripped.startswith("#"):
            waiting.append(line)
            continue
        if not stripped:
            continue
        key = stripped.split(":", 1)[0]
        tail = re.search(r"\s+#.*$", stripped)  # (a fingerprint holds no '#')
        if tail:
            tails[key] = tail.group(0)
        if waiting:
            notes.setdefault(key, []).extend(waiting)
            waiting = []
    if waiting:
        notes.setdefault("", []).extend(waiting)
    return head, notes, tails


def _block_end(lines: Sequence[str], start: int) -> int:
    """The index after the entry whose key is on line ``start``: its deeper lines, without
    the blank lines and comments at its end that introduce what follows."""
    indent = len(_indent_of(lines[start]))
    end = start + 1
    for i in range(start + 1, len(lines)):
        stripped = lines[i].strip()
        deeper = len(_indent_of(lines[i])) > indent
        if stripped and not stripped.startswith("#") and not deeper:
            break
        if stripped and (deeper or not stripped.startswith("#")):
            end = i + 1
    return end


def _reindented(block: Sequence[str], indent: int) -> list[str]:
    """``block`` moved so its first line has ``indent`` spaces (a file indented otherwise
    than en.yaml)."""
    shift = indent - len(_indent_of(block[0])) if block else 0
    if shift >= 0:
        return [" " * shift + line if line.strip() else line for line in block]
    return [line[-shift:] if line[:-shift].isspace() else line.lstrip() for line in block]


def _shown(english: JsonValue) -> str:
    """The English on one line, quoted: a text, or plural forms ``{one: "...", ...}``."""

    def quoted(text: JsonValue) -> str:
        return json.dumps(" ".join(str(text).split()), ensure_ascii=False)

    if isinstance(english, dict):
        return "{" + ", ".join(f"{k}: {quoted(v)}" for k, v in english.items()) + "}"
    return quoted(english)


def parse_locale(text: str, file: str) -> LocaleFile:
    """``text`` as a locale file; raises CkdslError if it does not parse or fit the schema."""
    from ckdsl.rules.schemas import validate
    from ckdsl.rules.yamlload import parse_yaml

    doc, problems = parse_yaml(text, file)
    if doc is not None:
        problems += validate(doc.data, doc.positions, "locale")
    errors = [p for p in problems if p.severity == "error"]
    if doc is None or errors or not isinstance(doc.data, dict):
        raise CkdslError(errors or [Diagnostic(file, 0, 0, "not a locale file")])
    return LocaleFile(Path(file).stem, file, doc.data, doc.positions)


def _has(data: JsonObject, path: JsonPath) -> bool:
    node: JsonValue = data
    for item in path:
        if not isinstance(node, dict) or item not in node:
            return False
        node = node[str(item)]
    return True


def _get(data: JsonObject, path: JsonPath) -> JsonValue:
    node: JsonValue = data
    for item in path:
        node = node.get(str(item)) if isinstance(node, dict) else None
    return node


def _key_at(line: str, col: int) -> str:
    """The key that starts at column ``col`` (1-based) of ``line``."""
    found = re.match(r"\w+", line[col - 1 :])
    return found.group(0) if found else ""


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _path_of(key: str) -> JsonPath:
    return tuple(key.split("."))
