"""``ckdsl validate``: check any mix of rule sets, variants and locale files at once.

A path is recognised by what it holds: a folder of rule files is a rule set, a file with
``extends:`` a variant, a file with ``language:`` a locale, any other rule file stands
for its folder, and a folder of folders (like ``rules/``) is checked folder by folder.
Every problem of every path is collected before anything is printed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ckdsl.board.maps import load_map
from ckdsl.diagnostics import CkdslError, Diagnostic, sorted_diagnostics
from ckdsl.dsl.program import load_ruleset
from ckdsl.l10n import derived
from ckdsl.l10n.catalog import all_languages, languages, load_locale_file, locale_path
from ckdsl.l10n.check import inline_unknown_ids, unknown_ids, unnamed_ids, untranslatable_reasons
from ckdsl.paths import base_rules_dir
from ckdsl.rules.ruleset import RuleSet
from ckdsl.rules.schemas import load_schema
from ckdsl.rules.yamlload import load_yaml, remembered
from ckdsl.userfiles import MAX_FOLDER_DEPTH, YAML_SUFFIXES, yaml_suffix_problem

if TYPE_CHECKING:
    from ckdsl.core.values import Value
    from ckdsl.turn.game import Game

SKIPPED_FOLDERS = {"schema"}

Reference = Callable[[], "RuleSet | None"]
"""The rule set locale and map files are checked against, loaded on first use."""


@dataclass
class Checked:
    """One thing that was validated, and what it turned out to be."""

    path: str
    kind: str
    ok: bool
    summary: str = ""


@dataclass
class Report:
    checked: list[Checked] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not _errors(self.diagnostics)

    def sorted(self) -> list[Diagnostic]:
        return sorted_diagnostics(self.diagnostics)


def validate_paths(paths: list[Path], rules: Path | None = None) -> Report:
    """Validate ``paths`` (none: the bundled rules and locales).

    Locale files are checked against ``rules`` (a rule set or variant; default: base).
    """
    report = Report()
    if not paths:
        paths = [base_rules_dir(), *(locale_path(lang) for lang in all_languages())]
    loaded: Loaded = {}  # each rule set is loaded once, be it checked or a reference
    reference: list[RuleSet | None] = []

    def reference_rules() -> RuleSet | None:
        if not reference:
            ruleset, problems = _load(rules if rules is not None else base_rules_dir(), loaded)
            if ruleset is None:
                report.diagnostics.extend(problems)
            reference.append(ruleset)
        return reference[0]

    seen: set[Path] = set()
    with remembered():  # each file is read to tell what it is, then to be checked
        for path in paths:
            _validate_one(path, report, reference_rules, seen, loaded)
    return report


Loaded = dict[Path, tuple["RuleSet | None", list[Diagnostic]]]
"""The rule sets loaded in one validation, by resolved path."""


def _load(path: Path, loaded: Loaded) -> tuple[RuleSet | None, list[Diagnostic]]:
    """The rule set or variant at ``path``, loaded once per validation."""
    key = path.resolve()
    if key not in loaded:
        loaded[key] = load_ruleset(None if key == base_rules_dir().resolve() else path)
    ruleset, problems = loaded[key]
    return ruleset, list(problems)


def _unreadable(report: Report, path: Path, message: str) -> None:
    report.diagnostics.append(Diagnostic(str(path), 0, 0, message))
    report.checked.append(Checked(str(path), "unreadable", False))


def _validate_one(
    path: Path,
    report: Report,
    reference: Reference,
    seen: set[Path],
    loaded: Loaded,
    depth: int = 0,
) -> None:
    try:
        resolved = path.resolve(strict=path.is_symlink())
    except (OSError, RuntimeError):  # a link to itself, or round a loop of links
        _unreadable(report, path, "a symbolic link that leads round a loop: not read")
        return
    if resolved in seen:
        if path.is_symlink() and path.is_dir():  # a link back up the tree: said, not followed
            _unreadable(report, path, "a link to a folder searched already (a loop): not read")
        return
    seen.add(resolved)
    if not path.exists():
        report.diagnostics.append(Diagnostic(str(path), 0, 0, "no such file or folder"))
        report.checked.append(Checked(str(path), "missing", False))
        return
    if path.is_dir():
        try:
            entries = sorted(path.iterdir())
        except OSError as exc:  # no permission to list it: a finding, not a skip
            _unreadable(report, path, f"cannot read this folder: {exc.strerror or exc}")
            return
        for link in (p for p in entries if p.is_symlink() and not p.exists()):
            _unreadable(report, link, "a symbolic link that leads nowhere or round a loop")
        yaml_files = [p for p in entries if p.suffix in (".yaml", ".yml")]
        if not yaml_files:
            subfolders = [p for p in entries if p.is_dir()]
            subfolders = [p for p in subfolders if p.name not in SKIPPED_FOLDERS]
            if not subfolders:
                report.diagnostics.append(
                    Diagnostic(str(path), 0, 0, "this folder holds no YAML files")
                )
            if subfolders and depth >= MAX_FOLDER_DEPTH:  # a folder thousands deep: say so
                message = f"folders are nested more than {MAX_FOLDER_DEPTH} deep here: not searched"
                report.diagnostics.append(Diagnostic(str(path), 0, 0, message))
                return
            for sub in subfolders:
                _validate_one(sub, report, reference, seen, loaded, depth + 1)
            return
        if "rules" in {_kind(f) for f in yaml_files}:
            _validate_ruleset(path, report, "rule set", loaded)
            return
        for file in yaml_files:  # variants or locales, each on its own
            _validate_one(file, report, reference, seen, loaded)
        return
    problem = yaml_suffix_problem(path) if path.suffix.lower() in YAML_SUFFIXES else None
    if problem is not None:  # a .yaml name leading to a system file: never read
        report.diagnostics.append(Diagnostic(str(path), 0, 0, problem))
        report.checked.append(Checked(str(path), "unknown", False))
        return
    kind = _kind(path)
    if kind == "variant":
        _validate_ruleset(path, report, "variant", loaded)
    elif kind == "locale":
        _validate_locale(path, report, reference)
    elif kind == "rules":
        _validate_one(path.parent, report, reference, seen, loaded)
    elif kind == "map":
        _validate_map(path, report, reference)
    else:
        _, problems = load_yaml(path)
        if problems:
            report.diagnostics.extend(problems)
        else:
            report.diagnostics.append(
                Diagnostic(
                    str(path),
                    1,
                    1,
                    "cannot tell what this file is: a variant starts with `extends:`, a "
                    "locale with `language:`, a map has `hexes:`, and a rule file holds "
                    "rule sections (resources, pieces, cards, ...)",
                )
            )
        report.checked.append(Checked(str(path), "unknown", False))


def _kind(path: Path) -> str:
    doc, _ = load_yaml(path)
    if doc is None or not isinstance(doc.data, dict):
        return "unknown"
    if "extends" in doc.data:
        return "variant"
    if "language" in doc.data:
        return "locale"
    if "hexes" in doc.data:
        return "map"
    if set(doc.data) & set(load_schema("rules")["properties"]):
        return "rules"
    return "unknown"


def _validate_ruleset(path: Path, report: Report, kind: str, loaded: Loaded) -> None:
    ruleset, problems = _load(path, loaded)
    if ruleset is not None:
        problems += inline_unknown_ids(ruleset) + unnamed_ids(ruleset)
        problems += untranslatable_reasons(ruleset)
        if not _errors(problems):
            problems += _game_faults(path, ruleset)
    report.diagnostics.extend(problems)
    ok = ruleset is not None and not _errors(problems)
    summary = ""
    if ruleset is not None:
        decks = ruleset.decks
        copies = sum(int(c.get("count", 0)) for c in ruleset.cards.values())
        summary = (
            f"{len(ruleset.cards)} cards ({copies} copies) in {len(decks)} decks, "
            f"{len(ruleset.layers)} layer{'s' if len(ruleset.layers) != 1 else ''}"
        )
    report.checked.append(Checked(str(path), kind, ok, summary))


def _game_faults(path: Path, ruleset: RuleSet) -> list[Diagnostic]:
    """What only shows on the compiled rules and a game of them: a variant's ``table:``
    that does not fit (``session.table_faults``), and each formula with selections in
    selections that runs past the step budget on a new game: in a game it would stop,
    and count as false or 0, every time (``compiler.closures.guarded``). Formulas without such
    nesting cannot: their steps are the size of one list. Each formula's variables are
    given sample values (the first tile, player, card...); a formula those do not suit
    is not judged."""
    from ckdsl.dsl.program import conditions

    texts = [text for _, text, _, _ in conditions(ruleset.data)]
    if not ruleset.table and not any(len(re.findall(r"\beach\b", t)) > 1 for t in texts):
        return []  # nothing to try: the compiled rules are not even loaded
    from ckdsl.core.allow import STEP_BUDGET, Env
    from ckdsl.dsl.base.errors import OutOfBudget
    from ckdsl.dsl.base.types import family
    from ckdsl.session import GameSetup, load_rules, start, table_faults

    try:
        loaded = load_rules(str(path))
        faults = table_faults(ruleset, loaded.compiled)
        if faults:
            return faults
        compiled = loaded.compiled
        programs = compiled.programs
        nested = [
            (where, variables, getattr(formula, "unguarded", formula))
            for where, _, variables, _ in conditions(ruleset.data)
            if (formula := programs.formula_at(where)) is not None
            and getattr(formula, "nested", False)
        ]
        if not nested:
            return []
        players = compiled.number("players_min")
        game = start(GameSetup(rules=str(path), players=players, seed=0), log=False)
    except CkdslError:  # a rule set that cannot start is reported by its own checks
        return []
    found = []
    for where, variables, formula in nested:
        values = {name: _sample(game, family(t)) for name, t in variables.items()}
        try:
            formula(Env(game, 0, values))
        except OutOfBudget:
            message = (
                f"this formula runs past the budget of {STEP_BUDGET:,} steps on a new game "
                "(a selection in a selection in ...: each item of each `each` is a step); "
                "in a game it would stop, and count as false or 0, every time"
            )
            found.append(Diagnostic.at(ruleset.positions.value(where), message, where))
        except Exception:
            continue
    return found


def _sample(game: Game, kind: str) -> Value:
    """A value of ``kind`` on ``game`` for trying a formula: the first there is."""
    rules = game.rules
    firsts: dict[str, Value] = {"card": next(iter(rules.cards), ""), "good": rules.goods[0],
                                "track": rules.tracks[0].id if rules.tracks else ""}  # fmt: skip
    return firsts.get(kind, 0)


def _validate_map(path: Path, report: Report, reference: Reference) -> None:
    """A map file, and whether the reference rule set knows its terrains."""
    ruleset = reference()
    if ruleset is None:
        spec, problems = load_map(path)
    else:
        terrains, goods = ruleset.section("terrains"), ruleset.section("resources")
        spec, problems = load_map(path, terrains=list(terrains), resources=list(goods))
    report.diagnostics.extend(problems)
    ok = spec is not None and not _errors(problems)
    summary = f"{len(spec.hexes)} hexes, {len(spec.harbors)} harbors" if spec else ""
    report.checked.append(Checked(str(path), "map", ok, summary))


def _validate_locale(path: Path, report: Report, reference: Reference) -> None:
    locale, problems = load_locale_file(path)
    ruleset = reference()
    if locale is not None and ruleset is not None:
        problems += unknown_ids(locale, ruleset)
    if locale is not None:  # a derived language: its source and transliteration exist
        problems += derived.problems(locale.data, locale.positions, languages(path.parent))
    if locale is not None and ruleset is not None and not _errors(problems):
        problems += _translation_problems(locale.language, path, ruleset)
    report.diagnostics.extend(problems)
    ok = locale is not None and not _errors(problems)
    report.checked.append(Checked(str(path), "locale", ok))


def _translation_problems(language: str, path: Path, ruleset: RuleSet) -> list[Diagnostic]:
    """What of ``l10n check`` a locale file cannot be used with: a broken placeholder is
    an error (the game would show it raw); untranslated entries, one warning that counts
    them (they are shown in English). Only for a translation beside its en.yaml, outside
    the bundled locales."""
    from ckdsl.l10n.check import check_languages
    from ckdsl.paths import locales_dir

    folder = path.parent
    if language == "en" or language not in languages(folder):
        return []
    if folder.resolve() == locales_dir().resolve():
        return []  # the bundled ones: `ckdsl l10n check` is theirs (and validate stays light)
    findings = check_languages(ruleset, (language,), folder)
    out = [f.diagnostic for f in findings if f.kind == "placeholder"]
    missing = sum(1 for f in findings if f.kind == "missing")
    if missing:
        note = (
            f"{missing} entries are not translated yet (shown in English): "
            f"`ckdsl l10n check --lang {language} --locales {folder}` lists them"
        )
        out.append(Diagnostic(str(path), 0, 0, note, severity="warning"))
    return out


def _errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity == "error" for d in diagnostics)
