"""``ckdsl validate`` and ``ckdsl l10n check``: what was checked and what was found, as
data and as lines. The diagnostics themselves print as ``Diagnostic.format`` gives them
(on standard error); these are the rest: the per-file status and the counts."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

from ckdsl.diagnostics import Diagnostic, display_path
from ckdsl.l10n.catalog import source_language
from ckdsl.l10n.check import KINDS, Finding
from ckdsl.validate import Report


class CheckedRow(TypedDict):
    path: str
    kind: str
    ok: bool
    summary: str


class ValidationJson(TypedDict):
    """``ckdsl validate --json`` (keys in this order)."""

    ok: bool
    checked: list[CheckedRow]
    diagnostics: list[dict[str, object]]


def validation_json(report: Report) -> ValidationJson:
    """Whether everything passed, each thing checked, and every diagnostic in order."""
    return {
        "ok": report.ok,
        "checked": [
            {"path": c.path, "kind": c.kind, "ok": c.ok, "summary": c.summary}
            for c in report.checked
        ],
        "diagnostics": [d.to_json() for d in report.sorted()],
    }


def checked_lines(report: Report) -> list[str]:
    """One line per thing checked: ``ok``/``FAILED``, its kind, its path, a summary."""
    lines = []
    for item in report.checked:
        status = "ok" if item.ok else "FAILED"
        detail = f" ({item.summary})" if item.summary else ""
        lines.append(f"{status:6} {item.kind:9} {display_path(item.path)}{detail}")
    return lines


def error_count(diagnostics: Sequence[Diagnostic]) -> str | None:
    """ "3 errors" (warnings not counted), or None when there is nothing to report."""
    if not diagnostics:
        return None
    n = sum(1 for d in diagnostics if d.severity == "error")
    return f"{n} error{'s' if n != 1 else ''}"


def chosen_languages(
    langs: Sequence[str], default: tuple[str, ...], folder: Path | None = None
) -> tuple[str, ...]:
    """The locales to check for ``--lang`` options: a derived language (sr-Latn) is
    checked as the language it is derived from (sr); each once, in the order given; none
    given: ``default``."""
    chosen = tuple(dict.fromkeys(source_language(lang, folder) for lang in langs))
    return chosen or default


def finding_counts(
    findings: Sequence[Finding], languages: Sequence[str]
) -> dict[str, dict[str, int]]:
    """How many findings of each kind each language has (every kind listed, zeros too)."""
    counts = {lang: dict.fromkeys(KINDS, 0) for lang in languages}
    for f in findings:
        counts.setdefault(f.language, dict.fromkeys(KINDS, 0))[f.kind] += 1
    return counts


class L10nJson(TypedDict):
    """``ckdsl l10n check --json`` (keys in this order)."""

    ok: bool
    languages: dict[str, dict[str, int]]
    findings: list[dict[str, object]]


def l10n_json(findings: Sequence[Finding], languages: Sequence[str]) -> L10nJson:
    """Whether every language is complete, the counts, and every finding."""
    return {
        "ok": not findings,
        "languages": finding_counts(findings, languages),
        "findings": [f.to_json() for f in findings],
    }


def l10n_diagnostics(findings: Sequence[Finding]) -> list[Diagnostic]:
    """The findings' diagnostics in file order, for standard error."""
    return sorted((f.diagnostic for f in findings), key=Diagnostic.sort_key)


def l10n_lines(findings: Sequence[Finding], languages: Sequence[str]) -> list[str]:
    """One line per language: its counts by kind, or ``complete``."""
    lines = []
    for lang, kinds in finding_counts(findings, languages).items():
        found = ", ".join(f"{n} {kind}" for kind, n in kinds.items() if n)
        lines.append(f"{lang:3} {found or 'complete'}")
    return lines
