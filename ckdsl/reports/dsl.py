"""``ckdsl explain`` and ``ckdsl vocabulary`` for a terminal: a card's or ability's
report (``ckdsl.dsl.explain``) and the DSL's reference tables (``ckdsl.dsl.reference``)
as lines."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

from ckdsl.jsondata import JsonValue, arr, text


def explain_lines(report: Mapping[str, JsonValue]) -> list[str]:
    """The name and id, the facts, the text wrapped at 88 columns, then the effect as
    the engine reads it under a heading that says where in the rules it is written."""
    lines = [f"{text(report['name'])}  [{text(report['id'])}]"]
    lines.append(" · ".join(text(fact) for fact in arr(report["facts"])))
    if report["text"]:
        lines += textwrap.fill(text(report["text"]), 88).split("\n")
    lines.append("")
    lines.append(f"{text(report['effect_heading'])} ({text(report['source'])}):")
    for line in text(report["effect"]).splitlines() or ["(nothing)"]:
        lines.append("    " + line)
    return lines


def vocabulary_lines(table: Mapping[str, Sequence[Mapping[str, object]]]) -> list[str]:
    """Each verb's form, doc and example, then each function's form, result and doc."""
    lines = ["Verbs"]
    for r in table["verbs"]:
        lines += [f"  {r['form']}", f"      {r['doc']}  (e.g. {r['example']})"]
    lines.append("Functions")
    for r in table["functions"]:
        lines += [f"  {r['form']} -> {r['result']}", f"      {r['doc']}"]
    return lines
