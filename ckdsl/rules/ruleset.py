"""Rule sets: a folder of rule files, optionally changed by a chain of variants.

Loading reads every file of the folder, validates each against the rule-file schema,
merges them (an id defined twice is an error naming both places), applies each variant
of the chain (``extends: base`` or a path), validates the result again and runs the
semantic checks. Every value keeps the position of the file that defined it, so an
error introduced by a variant points into the variant file. The rule set records a
:class:`~ckdsl.stamps.Stamp` of every file and folder it was read from (``sources``), so a
cache can tell when an edit has made it stale.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dataclass_replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ckdsl.datautil import deep_merge
from ckdsl.diagnostics import Diagnostic, JsonPath, Pos, display_path, sorted_diagnostics
from ckdsl.jsondata import JsonArray, JsonObject, JsonValue, arr, obj, text
from ckdsl.paths import base_rules_dir
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemagen import fixed_sections, id_keyed_sections
from ckdsl.rules.schemas import foreign, load_schema, suggest, validate
from ckdsl.stamps import Stamp
from ckdsl.template import bad_fields
from ckdsl.userfiles import yaml_suffix_problem

if TYPE_CHECKING:
    from ckdsl.rules import checks
    from ckdsl.rules.yamlload import Document

BASE = "base"
"""The name a variant uses to extend the bundled rules."""


@dataclass
class RuleSet:
    """A complete, checked rule set: plain data plus where each part came from.

    ``data`` and its sections are typed loosely on purpose: the rule set has passed its
    schema and checks, and the layers above (the compiled rules, the DSL, the command
    line) read it by the shapes the schema guarantees."""

    name: str
    data: dict[str, Any]
    positions: Positions
    layers: list[str]
    names: dict[str, JsonObject] = field(default_factory=dict)
    """Locale fragments carried by variants, by language (top variant wins)."""
    name_positions: Positions = field(default_factory=Positions)
    """Where each inline name stands in its variant file, by (language, ...) path."""
    sources: tuple[Stamp, ...] = ()
    """Every file and folder the rule set was read from (the variant chain and the
    folders under it), stamped before reading: all current means the files are unchanged."""
    table: dict[str, Any] = field(default_factory=dict)
    """How a game of it is set up when the command line does not say (a variant's
    ``table:``: map, layout, players; a map file's path made relative to here)."""
    table_positions: dict[str, Pos] = field(default_factory=dict)
    """Where each entry of ``table`` was written (for errors about it)."""
    description: str = ""
    """The top variant's ``description:`` (the tables show it), or ""."""

    @cached_property
    def hash(self) -> str:
        """A digest of the rules (not the names): saves made under other rules differ."""
        text = json.dumps(self.data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name)
        return value if isinstance(value, dict) else {}

    @property
    def cards(self) -> dict[str, dict[str, Any]]:
        return self.section("cards")

    @property
    def decks(self) -> dict[str, dict[str, Any]]:
        return self.section("decks")

    @property
    def parameters(self) -> dict[str, Any]:
        return self.section("parameters")


@dataclass
class _Draft:
    """A rule set being assembled, before the final checks."""

    data: JsonObject = field(default_factory=dict)
    positions: Positions = field(default_factory=Positions)
    layers: list[str] = field(default_factory=list)
    names: dict[str, JsonObject] = field(default_factory=dict)
    removed: dict[tuple[str, str], checks.Removed] = field(default_factory=dict)
    name_positions: Positions = field(default_factory=Positions)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: list[Stamp] = field(default_factory=list)
    table: dict[str, Any] = field(default_factory=dict)
    table_positions: dict[str, Pos] = field(default_factory=dict)
    description: str = ""


def load_ruleset(
    target: str | Path | None = None, *, extra_checks: Sequence[checks.ExtraCheck] = ()
) -> tuple[RuleSet | None, list[Diagnostic]]:
    """Load the bundled base rules (``None``), a rule-set folder, or a variant file.

    Returns the rule set (``None`` when there are errors) and every diagnostic found.
    The effects written in the DSL are checked by ``extra_checks`` (the DSL is a layer
    above this one: ``ckdsl.dsl.program.load_ruleset`` passes its checks here).
    """
    path = Path(target) if target is not None else base_rules_dir()
    ruleset, diagnostics = _load(path, extra_checks)
    return ruleset, sorted_diagnostics(diagnostics)


def _load(
    path: Path, extra_checks: Sequence[checks.ExtraCheck]
) -> tuple[RuleSet | None, list[Diagnostic]]:
    draft = _Draft()
    if path.is_dir():
        _load_folder(path, draft)
        name = "base" if path.resolve() == base_rules_dir().resolve() else path.name
        top = str(path)
    else:
        problem = yaml_suffix_problem(path) if path.exists() else None
        if problem is not None:
            return None, [Diagnostic(str(path), 0, 0, problem)]
        _load_variant(path, draft, chain=[])
        name, top = path.stem, str(path)
    if any(d.severity == "error" for d in draft.diagnostics) and not draft.data:
        return None, draft.diagnostics
    _finish(draft, top, extra_checks)
    errors = [d for d in draft.diagnostics if d.severity == "error"]
    if errors:
        return None, draft.diagnostics
    ruleset = RuleSet(
        name,
        draft.data,
        draft.positions,
        draft.layers,
        draft.names,
        draft.name_positions,
        tuple(draft.sources),
        draft.table,
        draft.table_positions,
        draft.description,
    )
    return ruleset, draft.diagnostics


# --- folders ----------------------------------------------------------------------


def _load_folder(folder: Path, draft: _Draft) -> None:
    from ckdsl.rules.yamlload import load_yaml  # PyYAML: only when files are read

    draft.sources.append(Stamp.of(folder))  # a file added or removed changes the listing
    # Every *.yaml but a folder: a FIFO, a device or a dangling link there is refused by
    # name (load_yaml), not skipped (the rule set would load without that file's rules).
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and not p.is_dir())
    if not files:
        draft.diagnostics.append(
            Diagnostic(str(folder), 0, 0, "this folder holds no rule files (*.yaml)")
        )
        return
    draft.layers.append(str(folder))
    for file in files:
        problem = yaml_suffix_problem(file)
        if problem is not None:  # a link to a system file, put among the rule files
            draft.diagnostics.append(Diagnostic(str(file), 0, 0, problem))
            continue
        draft.sources.append(Stamp.of(file))
        doc, problems = load_yaml(file)
        draft.diagnostics.extend(problems)
        if doc is None:
            continue
        stranger = foreign(doc.data, str(file), "rules")
        if stranger is not None:
            draft.diagnostics.append(stranger)
            continue
        draft.diagnostics.extend(validate(doc.data, doc.positions, "rules"))
        _merge_file(doc, draft)


def _merge_file(doc: Document, draft: _Draft) -> None:
    if not isinstance(doc.data, dict):
        return
    for section, entries in doc.data.items():
        if not isinstance(entries, dict):
            continue
        target = _table(draft, section)
        if (section,) not in draft.positions.values:
            draft.positions.set(
                (section,), doc.positions.value((section,)), doc.positions.key((section,))
            )
        for key, value in entries.items():
            path = (section, key)
            if key in target:
                first = draft.positions.key(path)
                draft.diagnostics.append(
                    Diagnostic.at(
                        doc.positions.key(path),
                        f"'{key}' is defined twice in '{section}': it is already "
                        f"defined at {_where(first)}",
                        path,
                    )
                )
                continue
            target[key] = value
            draft.positions.graft(doc.positions, path, path)


def _where(pos: Pos) -> str:
    return f"{display_path(pos.file)}:{pos.line}:{pos.col}"


# --- variants ---------------------------------------------------------------------


MAX_EXTENDS = 100
"""How many variants may extend one another in a chain."""


def _load_variant(file: Path, draft: _Draft, chain: list[Path]) -> None:
    from ckdsl.rules.yamlload import load_yaml

    draft.sources.append(Stamp.of(file))
    doc, problems = load_yaml(file)
    draft.diagnostics.extend(problems)
    if doc is None:
        return
    stranger = foreign(doc.data, str(file), "variant")
    if stranger is not None:
        draft.diagnostics.append(stranger)
        return
    errors = validate(doc.data, doc.positions, "variant")
    draft.diagnostics.extend(errors)
    if not isinstance(doc.data, dict) or not isinstance(doc.data.get("extends"), str):
        return
    if not _load_parent(doc, file, draft, chain):
        return
    draft.layers.append(str(file))
    described = obj(doc.data).get("description")
    if isinstance(described, str):  # the variant's own, over the ones it extends
        draft.description = described
    _apply_variant(doc, draft)


def _load_parent(doc: Document, file: Path, draft: _Draft, chain: list[Path]) -> bool:
    extends = text(obj(doc.data)["extends"])
    at = doc.positions.value(("extends",))
    if extends == BASE:
        _load_folder(base_rules_dir(), draft)
        return True
    parent = (file.parent / extends).resolve()
    here = file.resolve()
    if parent == here or parent in chain:
        cycle = " -> ".join(p.name for p in [*chain, here, parent])
        draft.diagnostics.append(
            Diagnostic.at(at, f"the variants extend each other in a circle: {cycle}", ("extends",))
        )
        return False
    if not parent.exists():
        draft.diagnostics.append(
            Diagnostic.at(
                at,
                f"cannot find '{extends}' (looked for {parent}); `extends` takes `base`, "
                "or the path of a variant file or rule-set folder relative to this file",
                ("extends",),
            )
        )
        return False
    if parent.is_dir():
        if parent in here.parents:  # `extends: .`: its own folder, itself among the files
            draft.diagnostics.append(
                Diagnostic.at(
                    at,
                    f"'{extends}' is the folder this variant is in: `extends` takes `base`, "
                    "another variant file, or a rule-set folder that does not hold this file",
                    ("extends",),
                )
            )
            return False
        _load_folder(parent, draft)
        return bool(draft.data)
    problem = yaml_suffix_problem(parent)
    if problem is not None:  # a system file named by a shared variant is never read
        draft.diagnostics.append(
            Diagnostic.at(at, f"`extends` cannot take it: {problem}", ("extends",))
        )
        return False
    if len(chain) + 1 >= MAX_EXTENDS:
        message = (
            f"more than {MAX_EXTENDS} variants extend one another from here: merge some "
            "of them (a chain that long is no house rule, and would exhaust the reader)"
        )
        draft.diagnostics.append(Diagnostic.at(at, message, ("extends",)))
        return False
    _load_variant(parent, draft, [*chain, here])
    return bool(draft.data)


def _set_table(doc: Document, draft: _Draft) -> None:
    """The variant's ``table:`` over what the variants it extends said: a map file as
    its full path (it is written relative to the variant that names it; the rule set may
    be used from anywhere), a bundled map's name as it is."""
    table = obj(doc.data).get("table")
    for key, value in table.items() if isinstance(table, dict) else ():
        if key not in ("map", "layout", "players") or isinstance(value, (dict, list)):
            continue  # the schema's error, reported already
        if key == "map" and isinstance(value, str) and Path(value).suffix in (".yaml", ".yml"):
            value = str((Path(doc.file).parent / value).resolve())
        draft.table[key] = value
        draft.table_positions[key] = doc.positions.value(("table", key))


def _apply_variant(doc: Document, draft: _Draft) -> None:
    """Apply remove, replace, add, then override: each naming ids it expects to find.

    Parts the variant schema rejected are skipped (they are reported already); the rest
    is applied, so that every other error of the variant is found in the same run.
    """
    from ckdsl.rules import checks  # only where files are read, not from the cache

    v = obj(doc.data)
    for section, ids in _sections(v.get("remove")):
        for i, key in enumerate(ids if isinstance(ids, list) else []):
            if not isinstance(key, str):
                continue
            if _require(draft, doc, ("remove", section, i), section, key, "remove"):
                value = _table(draft, section).pop(key)
                draft.positions.drop((section, key))
                at = doc.positions.value(("remove", section, i))
                draft.removed[(section, key)] = checks.Removed(at, value)
    for section, entries in _sections(v.get("replace")):
        for key, value in _sections(entries):
            if _require(draft, doc, ("replace", section, key), section, key, "replace"):
                _put(draft, doc, ("replace", section, key), (section, key), copy.deepcopy(value))
    for section, entries in _sections(v.get("add")):
        for key, value in _sections(entries):
            if isinstance(value, dict):
                _add(draft, doc, section, key, value)
    for section, patch in _sections(v.get("override")):
        if isinstance(patch, dict):
            _override(draft, doc, section, patch)
    _set_table(doc, draft)
    for lang, fragment in _sections(v.get("names")):
        if not isinstance(fragment, dict):
            continue
        draft.diagnostics.extend(_template_faults(doc, fragment, ("names", lang)))
        deep_merge(draft.names.setdefault(lang, {}), fragment)
        draft.name_positions.graft(doc.positions, ("names", lang), (lang,))


def _template_faults(doc: Document, value: JsonValue, path: JsonPath) -> list[Diagnostic]:
    """Every text of a variant's names whose braces are not plain ``{name}`` fields: a
    shared variant must not read attributes or pad a line to a gigabyte (ckdsl/template.py)."""
    if isinstance(value, dict):
        return [f for k, v in value.items() for f in _template_faults(doc, v, (*path, k))]
    if isinstance(value, list):
        return [f for i, v in enumerate(value) for f in _template_faults(doc, v, (*path, i))]
    if not isinstance(value, str):
        return []
    bad = bad_fields(value)
    if not bad:
        return []
    message = (
        f"'{bad[0][:40]}' is not a plain field: a message fills {{name}} only "
        "(no format spec, attribute or index; {{ and }} for braces)"
    )
    return [Diagnostic.at(doc.positions.value(path), message, path)]


def _sections(block: JsonValue) -> list[tuple[str, JsonValue]]:
    return list(block.items()) if isinstance(block, dict) else []


def _table(draft: _Draft, section: str) -> JsonObject:
    """The section ``section`` of the draft, made when missing (only mappings are merged
    into a draft, so a section is always one)."""
    table = draft.data.setdefault(section, {})
    return table if isinstance(table, dict) else {}


def _require(draft: _Draft, doc: Document, at: JsonPath, section: str, key: str, verb: str) -> bool:
    found = draft.data.get(section, {})
    existing = found if isinstance(found, dict) else {}
    if key in existing:
        return True
    removed = draft.removed.get((section, key))
    detail = f"; it was removed at {_where(removed.pos)}" if removed else suggest(key, existing)
    draft.diagnostics.append(
        Diagnostic.at(
            doc.positions.key(at),
            f"cannot {verb} '{key}': there is no '{key}' in '{section}'{detail}",
            (section, key),
        )
    )
    return False


def _put(draft: _Draft, doc: Document, src: JsonPath, dst: JsonPath, value: JsonValue) -> None:
    _table(draft, str(dst[0]))[str(dst[1])] = value
    draft.positions.drop(dst)
    draft.positions.graft(doc.positions, src, dst)
    draft.positions.set(dst, key=doc.positions.key(src))


def _add(draft: _Draft, doc: Document, section: str, key: str, value: JsonObject) -> None:
    src = ("add", section, key)
    existing = _table(draft, section)
    if key in existing:
        draft.diagnostics.append(
            Diagnostic.at(
                doc.positions.key(src),
                f"cannot add '{key}': '{section}' already has it (defined at "
                f"{_where(draft.positions.key((section, key)))}); use `override` to change "
                "some of its keys or `replace` to redefine it",
                (section, key),
            )
        )
        return
    like = value.get("like")
    if not isinstance(like, str):
        _put(draft, doc, src, (section, key), copy.deepcopy(value))
        return
    if not _require(draft, doc, (*src, "like"), section, like, "copy"):
        return
    entry = copy.deepcopy(existing[like])
    existing[key] = entry
    draft.positions.graft(draft.positions, (section, like), (section, key))
    draft.positions.set((section, key), key=doc.positions.key(src))
    patch = {k: v for k, v in value.items() if k != "like"}
    if isinstance(entry, dict):  # an entry of a keyed section is a mapping (the schema)
        _deep_merge(draft, doc, entry, patch, (section, key), src)


def _override(draft: _Draft, doc: Document, section: str, patch: JsonObject) -> None:
    src: JsonPath = ("override", section)
    target = _table(draft, section)
    if section in id_keyed_sections(load_schema("rules")):
        for key, value in patch.items():
            if not _require(draft, doc, (*src, key), section, key, "override"):
                continue
            current = target[key]
            if isinstance(value, dict) and isinstance(current, dict):
                _deep_merge(draft, doc, current, value, (section, key), (*src, key))
            else:
                _put(draft, doc, (*src, key), (section, key), copy.deepcopy(value))
        return
    _deep_merge(draft, doc, target, patch, (section,), src)


def _merge_warning(
    draft: _Draft,
    doc: Document,
    current: JsonObject,
    patch: JsonObject,
    dst: JsonPath,
    src: JsonPath,
) -> None:
    """A warning when an `override` of goods (a cost, what a terrain yields) keeps goods
    it does not mention: `city: {wool: 2}` over `{wool: 1, cloth: 1}` gives
    `{wool: 2, cloth: 1}`, which its author may well not mean. Naming the kept goods
    says it was meant, and silences it; `replace` redefines the entry whole."""
    goods = set(_table(draft, "resources")) | set(_table(draft, "commodities"))
    if not patch or not all(k in goods and isinstance(n, int) for k, n in current.items()):
        return
    if not all(k in goods and isinstance(n, int) for k, n in patch.items()):
        return
    kept = {k: n for k, n in current.items() if k not in patch and n}
    if not kept:
        return
    merged = {**current, **patch}
    shown = ", ".join(f"{k}: {n}" for k, n in kept.items())
    message = (
        f"`override` merges goods: {_bundle(patch)} over {_bundle(current)} gives "
        f"{_bundle(merged)}, keeping {shown}; if that is meant, say so ({shown}); to "
        f"have exactly {_bundle(patch)}, redefine '{dst[1]}' under `replace: {dst[0]}:`"
    )
    warning = Diagnostic.at(doc.positions.key(src), message, dst)
    draft.diagnostics.append(dataclass_replace(warning, severity="warning"))


def _bundle(goods: JsonObject) -> str:
    return "{" + ", ".join(f"{k}: {n}" for k, n in goods.items()) + "}"


def _deep_merge(
    draft: _Draft,
    doc: Document,
    target: JsonObject,
    patch: JsonObject,
    dst: JsonPath,
    src: JsonPath,
) -> None:
    """Merge ``patch`` into ``target`` key by key; lists and texts are replaced whole,
    but a list of entries with ids (improvement levels, knight levels) given as a mapping
    by id changes those entries only (``_merge_by_id``)."""
    for key, value in patch.items():
        d, s = (*dst, key), (*src, key)
        current = target.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            _merge_warning(draft, doc, current, value, d, s)
            _deep_merge(draft, doc, current, value, d, s)
            continue
        if isinstance(value, dict) and _entries_with_ids(current):
            _merge_by_id(draft, doc, arr(current), value, d, s)
            continue
        target[key] = copy.deepcopy(value)
        draft.positions.drop(d)
        draft.positions.graft(doc.positions, s, d)
        draft.positions.set(d, key=doc.positions.key(s))


def _entries_with_ids(value: JsonValue) -> bool:
    return isinstance(value, list) and all(isinstance(e, dict) and "id" in e for e in value)


def _merge_by_id(
    draft: _Draft, doc: Document, target: JsonArray, patch: JsonObject, dst: JsonPath, src: JsonPath
) -> None:
    """``levels: {abbey: {cost: 2}}``: each entry named by its id is merged as a mapping;
    the others stay as they are (an id the list lacks is an error at its key)."""
    ids = [text(obj(e)["id"]) for e in target]
    for key, value in patch.items():
        s = (*src, key)
        if key not in ids:
            known = ", ".join(ids)
            message = f"no entry '{key}' here to override{suggest(key, ids)} (ids: {known})"
            draft.diagnostics.append(Diagnostic.at(doc.positions.key(s), message, s))
            continue
        d = (*dst, ids.index(key))
        if not isinstance(value, dict):
            message = f"'{key}': an entry is overridden by a mapping of what changes"
            draft.diagnostics.append(Diagnostic.at(doc.positions.value(s), message, s))
            continue
        _deep_merge(draft, doc, obj(target[ids.index(key)]), value, d, s)


# --- final checks -----------------------------------------------------------------


def _finish(draft: _Draft, top: str, extra_checks: Sequence[checks.ExtraCheck]) -> None:
    schema = load_schema("rules")
    # The merged data is checked again (a variant may complete or break an entry), but
    # a value already reported by its own file's check is not reported twice.
    reported = {(d.file, d.line, d.col) for d in draft.diagnostics}
    for d in validate(draft.data, draft.positions, "rules"):
        if (d.file, d.line, d.col) not in reported:
            draft.diagnostics.append(d)
    for section in schema["properties"]:
        if section not in draft.data:
            draft.diagnostics.append(
                Diagnostic(top, 0, 0, f"the rule set has no '{section}' section", (section,))
            )
    for section in fixed_sections(schema):
        present = draft.data.get(section)
        if not isinstance(present, dict):
            continue
        for key in schema["properties"][section]["properties"]:
            if key not in present:
                draft.diagnostics.append(
                    Diagnostic.at(
                        draft.positions.key((section,)),
                        f"'{section}' lacks '{key}'",
                        (section, key),
                    )
                )
    from ckdsl.rules import checks  # only where files are read, not from the cache

    draft.diagnostics.extend(checks.run(draft.data, draft.positions, draft.removed, extra_checks))
