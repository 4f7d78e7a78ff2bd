"""The rules in effect, in a few lines for a table: the rule set's name and description,
the points to win, and what differs from the base rules (a player sitting down at a house
rule's table must be told what is not as usual)."""

from __future__ import annotations

from typing import Any

from ckdsl.rules.ruleset import RuleSet

_MOST = 12
"""At most this many differences are listed; the rest are counted."""


def differences(ruleset: RuleSet, base: RuleSet) -> list[str]:
    """What ``ruleset`` changes of ``base``, entry by entry: a parameter as ``name: base
    -> now``, another section's entry as new, removed or changed."""
    if ruleset.hash == base.hash:
        return []
    out: list[str] = []
    ours, theirs = ruleset.data, base.data
    for section in sorted(set(ours) | set(theirs)):
        now, was = ours.get(section), theirs.get(section)
        if now == was:
            continue
        if not isinstance(now, dict) or not isinstance(was, dict):
            out.append(f"{section}: changed")
            continue
        for key in sorted(set(now) | set(was)):
            out += _entry(section, key, now.get(key), was.get(key))
    if len(out) > _MOST:
        out = [*out[:_MOST], f"... and {len(out) - _MOST} more"]
    return out


def _entry(section: str, key: str, now: Any, was: Any) -> list[str]:
    if now == was:
        return []
    if was is None:
        return [f"{section}.{key}: new"]
    if now is None:
        return [f"{section}.{key}: removed"]
    if isinstance(now, (int, float, str, bool)) and isinstance(was, (int, float, str, bool)):
        return [f"{section}.{key}: {was} -> {now}"]
    return [f"{section}.{key}: changed"]
