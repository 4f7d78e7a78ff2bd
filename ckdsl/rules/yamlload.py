"""Read one YAML file into plain data, keeping the position of every key and value.

Why not ``yaml.safe_load``: it forgets positions, silently keeps the last of two equal
keys, follows YAML 1.1 (``no`` becomes ``False``), expands aliases without bound (the
"billion laughs" bomb) and recurses once per nesting level (deep input ends in a
``RecursionError``). This module builds the data itself from the parser's event stream:
iteratively, with limits on size, depth and alias expansion, with YAML 1.2 core scalars,
and reports every problem as a :class:`~ckdsl.diagnostics.Diagnostic` with a position.
"""

from __future__ import annotations

import copy
import math
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import yaml

from ckdsl.diagnostics import Diagnostic, JsonPath, PathItem, Pos
from ckdsl.jsondata import JsonArray, JsonObject, JsonValue
from ckdsl.rules.positions import Positions
from ckdsl.userfiles import UnsafeFile, read_user_bytes

MAX_BYTES = 4 * 1024 * 1024
MAX_DIGITS = 30  # the digits of a number: far beyond any count, cost or parameter
"""Largest file we read. A rule, locale or variant file is a few kilobytes."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and lists. The deepest rule data is about 8 levels."""
MAX_NODES = 200_000
"""Most values in one document, counting every copy an alias makes."""

# The C parser when libyaml is there (several times faster), else the pure-Python one.
_Parser: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = (
    yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader
)


class _Mark(Protocol):
    """Where the parser stands: both parsers' marks have these (0-based)."""

    @property
    def line(self) -> int: ...

    @property
    def column(self) -> int: ...


_INT = re.compile(r"[-+]?[0-9]+\Z")
_INT_OCT = re.compile(r"0o[0-7]+\Z")
_INT_HEX = re.compile(r"0x[0-9a-fA-F]+\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)\Z")
_NAN = re.compile(r"\.(nan|NaN|NAN)\Z")
_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_CORE = "tag:yaml.org,2002:"
_DUPLICATE = "\x00duplicate"


@dataclass
class Document:
    """The data of one YAML file and where each part of it stands in the file."""

    file: str
    data: JsonValue
    positions: Positions = field(default_factory=Positions)


class _Abort(Exception):
    """Stop reading: a limit was passed or the text is not YAML."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def load_yaml(path: str | os.PathLike[str]) -> tuple[Document | None, list[Diagnostic]]:
    """Read ``path``. Returns the document (``None`` if unusable) and the problems found."""
    file = str(path)
    text, problem = _read_text(file)
    if problem is not None:
        return None, [problem]
    assert text is not None
    memo = _RECENT if _MEMO is None else _MEMO
    with _LOCK:
        found = memo.get(file)
    if found is not None and found[0] == text:
        return _copy(found[1]), list(found[2])
    doc, problems = parse_yaml(text, file)
    with _LOCK:
        memo[file] = (text, _copy(doc), tuple(problems))
        while memo is _RECENT and len(_RECENT) > RECENT_FILES:
            del _RECENT[next(iter(_RECENT))]  # the first read of those kept
    return doc, problems


_Memo = dict[str, tuple[str, Document | None, tuple[Diagnostic, ...]]]

_MEMO: _Memo | None = None
"""While ``remembered`` is on: each file read, with the text it held and what it gave."""

RECENT_FILES = 64
"""How many files' readings are kept otherwise, by name and text: a rule set's folder is
read again for each variant that extends it (a sweep or a search loads dozens, the test
suite hundreds), and parsing it with positions is most of loading a small variant."""
_RECENT: _Memo = {}
_LOCK = threading.Lock()  # (the web table's requests run in threads)


@contextmanager
def remembered() -> Iterator[None]:
    """Meanwhile, a file read again with the same text gives a copy of what its first
    reading gave (the same data, positions and problems: reading is a function of the
    text and the file's name) instead of being parsed again: ``ckdsl validate`` reads
    each file to tell what it is, then reads it again to check it."""
    global _MEMO
    saved, _MEMO = _MEMO, {}
    try:
        yield
    finally:
        _MEMO = saved


def _copy(doc: Document | None) -> Document | None:
    """A copy of ``doc`` that shares nothing a reader may change."""
    if doc is None:
        return None
    # paths and positions are immutable: a copy of the table is enough
    return Document(doc.file, _copy_data(doc.data, {}), doc.positions.copy())


def _copy_data(value: JsonValue, copies: dict[int, JsonValue]) -> JsonValue:
    """A copy of ``value``; what an alias shares in it (one list under two keys) is shared
    in the copy too."""
    if not isinstance(value, dict | list):
        return value
    found = copies.get(id(value))
    if found is not None:
        return found
    if isinstance(value, dict):
        mapping: JsonObject = {}
        copies[id(value)] = mapping
        mapping.update((key, _copy_data(item, copies)) for key, item in value.items())
        return mapping
    items: JsonArray = []
    copies[id(value)] = items
    items.extend(_copy_data(item, copies) for item in value)
    return items


def parse_yaml(text: str, file: str) -> tuple[Document | None, list[Diagnostic]]:
    """Parse YAML ``text`` read from ``file`` (used in messages)."""
    builder = _Builder(file)
    try:
        builder.run(text)
    except _Abort as stop:
        return None, [*builder.diagnostics, stop.diagnostic]
    if builder.empty:
        return None, [Diagnostic(file, 1, 1, "the file is empty: it holds no YAML data")]
    return Document(file, builder.root, builder.positions), builder.diagnostics


def read_yaml_text(file: str | os.PathLike[str]) -> str:
    """The text of a YAML file, read as ``load_yaml`` reads it (a regular file of a bounded
    size, UTF-8, no NUL); raises CkdslError saying why not, at its place. For the commands
    that rewrite a file line by line (``l10n update``, ``l10n import``)."""
    from ckdsl.diagnostics import CkdslError

    text, problem = _read_text(str(file))
    if text is None:
        raise CkdslError([problem] if problem is not None else [])
    return text


def _read_text(file: str) -> tuple[str | None, Diagnostic | None]:
    def fail(message: str, line: int = 0, col: int = 0) -> tuple[None, Diagnostic]:
        return None, Diagnostic(file, line, col, message)

    try:  # a regular file of a bounded size only: a FIFO or a device would never end
        raw = read_user_bytes(Path(file), MAX_BYTES)
    except UnsafeFile as exc:
        return fail(exc.message)
    if b"\x00" in raw:
        line, col = _line_col(raw, raw.index(b"\x00"))
        return fail("this is a binary file, not YAML text (it contains a NUL byte)", line, col)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _line_col(raw, exc.start)
        return fail(
            f"the file is not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be decoded "
            "(save the file as UTF-8)",
            line,
            col,
        )
    return text.removeprefix("\ufeff"), None


def _line_col(raw: bytes, index: int) -> tuple[int, int]:
    before = raw[:index]
    line = before.count(b"\n") + 1
    last = before.rsplit(b"\n", 1)[-1]
    return line, len(last.decode("utf-8", errors="replace")) + 1


@dataclass
class _Frame:
    container: JsonObject | JsonArray
    path: JsonPath
    anchor: str | None
    first_position: int
    nodes_before: int
    key: str | None = None
    key_pos: Pos | None = None
    expect_key: bool = True
    seen: dict[str, Pos] = field(default_factory=dict)


class _Builder:
    """Builds data and positions from parser events, without recursion."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.diagnostics: list[Diagnostic] = []
        self.positions = Positions()
        self.order: list[tuple[JsonPath, Pos, Pos | None]] = []
        self.anchors: dict[str, tuple[JsonValue, JsonPath, int, int, int]] = {}
        self.stack: list[_Frame] = []
        self.root: JsonValue = None
        self.empty = True
        self.documents = 0
        self.nodes = 0
        self.lines: list[str] = []

    def pos(self, mark: _Mark | None) -> Pos:
        if mark is None:  # the parsers always mark their events: the start, to be safe
            return Pos(self.file, 1, 1)
        return Pos(self.file, mark.line + 1, mark.column + 1)

    def text_pos(self, event: yaml.ScalarEvent) -> Pos:
        """Where a value starts, and how it is written (``Pos.style``, ``Pos.indent``)."""
        at = self.pos(event.start_mark)
        style = event.style or ""
        if style not in ("|", ">"):
            return Pos(at.file, at.line, at.col, style)
        # A block's content starts on the line after its indicator, indented alike.
        first = at.line  # the index of the line after the indicator
        while first < len(self.lines) and not self.lines[first].strip():
            first += 1
        body = self.lines[first] if first < len(self.lines) else ""
        return Pos(at.file, at.line, at.col, style, len(body) - len(body.lstrip(" ")))

    def abort(self, mark: _Mark | None, message: str) -> _Abort:
        p = self.pos(mark)
        return _Abort(Diagnostic(self.file, p.line, p.col, message))

    def run(self, text: str) -> None:
        self.lines = text.split("\n")
        try:
            for event in yaml.parse(text, Loader=_Parser):
                self.on_event(event)
        except yaml.MarkedYAMLError as exc:
            raise _Abort(_syntax_diagnostic(self.file, exc, text)) from None
        except yaml.YAMLError as exc:
            raise _Abort(Diagnostic(self.file, 1, 1, f"not valid YAML: {exc}")) from None

    # --- events -------------------------------------------------------------------
    def on_event(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.abort(
                    event.start_mark,
                    "a second YAML document starts here; a file holds exactly one "
                    "(remove the '---' line)",
                )
        elif isinstance(event, yaml.ScalarEvent):
            self.on_scalar(event)
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            self.on_start(event)
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            self.on_end()
        elif isinstance(event, yaml.AliasEvent):
            self.on_alias(event)

    def on_scalar(self, event: yaml.ScalarEvent) -> None:
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.container, dict) and frame.expect_key:
            self.on_key(frame, event)
            return
        value = self.scalar_value(event)
        self.count(event, 1)
        path = self.child_path()
        self.record(path, self.text_pos(event))
        if event.anchor:
            n = len(self.order)
            self.anchors[event.anchor] = (value, path, n - 1, n, 1)
        self.attach(value)

    def on_key(self, frame: _Frame, event: yaml.ScalarEvent) -> None:
        key = event.value
        kpos = self.pos(event.start_mark)
        if key == "<<" and not event.style:
            self.diagnostics.append(
                Diagnostic(
                    self.file,
                    kpos.line,
                    kpos.col,
                    "merge keys ('<<') are not supported: write the keys out, "
                    "or use an alias for the whole value",
                    frame.path,
                )
            )
        first = frame.seen.get(key)
        if first is not None:
            self.diagnostics.append(
                Diagnostic(
                    self.file,
                    kpos.line,
                    kpos.col,
                    f"duplicate key '{key}': it is already defined at line "
                    f"{first.line}, column {first.col}",
                    (*frame.path, key),
                )
            )
            # Keep the first value; the second is read under a name no data uses.
            key = f"{_DUPLICATE}{len(self.order)}:{key}"
        else:
            frame.seen[key] = kpos
        frame.key, frame.key_pos, frame.expect_key = key, kpos, False

    def on_start(self, event: yaml.CollectionStartEvent) -> None:
        own = _CORE + ("map" if isinstance(event, yaml.MappingStartEvent) else "seq")
        if event.tag not in (None, "!", own):  # as on a scalar: a tag means nothing here
            raise self.abort(
                event.start_mark,
                f"unsupported YAML tag '{event.tag}': only plain texts, numbers, true/false, "
                "lists and mappings are allowed",
            )
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.container, dict) and frame.expect_key:
            raise self.abort(
                event.start_mark,
                "a mapping key must be a plain text, not a list or a mapping",
            )
        if len(self.stack) >= MAX_DEPTH:
            raise self.abort(
                event.start_mark,
                f"the data is nested too deeply (more than {MAX_DEPTH} levels)",
            )
        self.count(event, 1)
        path = self.child_path()
        self.record(path, self.pos(event.start_mark))
        container: JsonObject | JsonArray = {} if isinstance(event, yaml.MappingStartEvent) else []
        self.stack.append(
            _Frame(container, path, event.anchor, len(self.order) - 1, self.nodes - 1)
        )

    def on_end(self) -> None:
        frame = self.stack.pop()
        if frame.anchor:
            self.anchors[frame.anchor] = (
                frame.container,
                frame.path,
                frame.first_position,
                len(self.order),
                self.nodes - frame.nodes_before,
            )
        self.attach(frame.container)

    def on_alias(self, event: yaml.AliasEvent) -> None:
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.container, dict) and frame.expect_key:
            raise self.abort(event.start_mark, "an alias cannot be used as a mapping key")
        anchor = self.anchors.get(event.anchor or "")
        if anchor is None:
            raise self.abort(
                event.start_mark, f"unknown alias '*{event.anchor}': no anchor '&{event.anchor}'"
            )
        value, src, start, end, size = anchor
        self.count(event, size)
        dst = self.child_path()
        n = len(src)
        alias_pos = self.pos(event.start_mark)
        for i, (p, vpos, kpos) in enumerate(self.order[start:end]):
            self.record(dst + p[n:], alias_pos if i == 0 else vpos, kpos if i else None)
        self.attach(copy.deepcopy(value))

    # --- helpers ------------------------------------------------------------------
    def count(self, event: yaml.Event, n: int) -> None:
        self.nodes += n
        if self.nodes > MAX_NODES:
            raise self.abort(
                event.start_mark,
                f"the document expands to more than {MAX_NODES:,} values "
                "(aliases repeated inside aliases, a 'billion laughs' document?)",
            )

    def child_path(self) -> JsonPath:
        if not self.stack:
            return ()
        frame = self.stack[-1]
        item: PathItem
        if isinstance(frame.container, dict):
            assert frame.key is not None
            item = frame.key
        else:
            item = len(frame.container)
        return (*frame.path, item)

    def record(self, path: JsonPath, pos: Pos, key_pos: Pos | None = None) -> None:
        if self.stack and isinstance(self.stack[-1].container, dict) and key_pos is None:
            key_pos = self.stack[-1].key_pos
        self.positions.set(path, pos, key_pos if path else None)
        self.order.append((path, pos, key_pos))

    def attach(self, value: JsonValue) -> None:
        self.empty = False
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        if isinstance(frame.container, dict):
            assert frame.key is not None
            if not frame.key.startswith(_DUPLICATE):
                frame.container[frame.key] = value
            frame.expect_key = True
        else:
            frame.container.append(value)

    def scalar_value(self, event: yaml.ScalarEvent) -> JsonValue:
        try:
            return self._scalar_value(event)
        except ValueError:  # an integer of thousands of digits: Python refuses to read it
            raise self.abort(
                event.start_mark,
                f"a number of {len(event.value):,} digits: numbers in rule files have at most "
                f"{MAX_DIGITS} (quote it if it is a text)",
            ) from None

    def _scalar_value(self, event: yaml.ScalarEvent) -> JsonValue:
        tag = event.tag
        text: str = event.value
        if tag in (None, "!"):
            if event.style or tag == "!":
                return text
            return _resolve_plain(text)
        if tag == _CORE + "str":
            return text
        if tag in (_CORE + "int", _CORE + "float", _CORE + "bool", _CORE + "null"):
            value = _resolve_plain(text)
            wanted = {"int": int, "float": float, "bool": bool, "null": type(None)}[tag[18:]]
            if isinstance(value, wanted) and not (wanted is int and isinstance(value, bool)):
                return value
            raise self.abort(event.start_mark, f"'{text}' is not a valid {tag[18:]}")
        raise self.abort(
            event.start_mark,
            f"unsupported YAML tag '{tag}': only plain texts, numbers, true/false, "
            "lists and mappings are allowed",
        )


def _resolve_plain(text: str) -> JsonValue:
    """YAML 1.2 core schema for an unquoted scalar."""
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    if _INT.match(text):
        if len(text) > MAX_DIGITS:
            raise ValueError(text[:20])
        return int(text)
    if _INT_OCT.match(text):
        return int(text[2:], 8)
    if _INT_HEX.match(text):
        return int(text[2:], 16)
    if _FLOAT.match(text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    return text


def _syntax_diagnostic(file: str, exc: yaml.MarkedYAMLError, text: str) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = exc.problem or "invalid YAML"
    if "maximum nesting depth" in problem:  # PyYAML 6.0.4 and later stop it themselves
        return Diagnostic(
            file, line, col, f"the data is nested too deeply (more than {MAX_DEPTH} levels)"
        )
    message = f"not valid YAML: {problem}"
    if exc.context:
        context = exc.context
        cmark = exc.context_mark
        if cmark is not None and cmark.line + 1 != line:
            context += f" that started at line {cmark.line + 1}"
        message += f", {context}"
    lines = text.splitlines()
    at = lines[line - 1][col - 1 : col] if 0 < line <= len(lines) else ""
    hint = _syntax_hint(problem, at)
    if hint:
        message += f" ({hint})"
    return Diagnostic(file, line, col, message)


def _syntax_hint(problem: str, at: str) -> str:
    if at == "\t" or "'\\t'" in problem:
        return "YAML indents with spaces, not tabs"
    if "mapping values are not allowed" in problem:
        return "a text containing ': ' must be quoted"
    if "could not find expected ':'" in problem:
        return "is a ':' missing after a key?"
    return ""
