"""``ckdsl scenario``: one line per scenario, and for a failure the step, the reason and
each field's expected and actual value, so a rule author sees what the rules did."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ckdsl.diagnostics import display_path
from ckdsl.scenario.runner import Outcome


def shown(value: object) -> str:
    """A value as the scenario file would write it (JSON, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def outcome_lines(outcome: Outcome) -> list[str]:
    """``PASS``/``FAIL``/``ERROR``, the name and file; then what went wrong, indented."""
    o = outcome
    lines = [f"{o.status.upper():5} {o.name}  ({display_path(o.file)})"]
    if o.status == "fail":
        lines.append(f"      step {o.step} ({o.where}): {o.reason}")
        for m in o.mismatches:
            lines += [
                f"      {m.field}",
                f"        expected: {shown(m.expected)}",
                f"        actual:   {shown(m.actual)}",
            ]
    lines += ["      " + d.format() for d in o.diagnostics]
    return lines


def passed_line(outcomes: Sequence[Outcome]) -> str:
    """ "7 of 8 scenarios passed"."""
    passed = sum(o.status == "pass" for o in outcomes)
    return f"{passed} of {len(outcomes)} scenarios passed"
