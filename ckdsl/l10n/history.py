"""The English a translation was made from, found again in git's history of en.yaml.

A locale records only a fingerprint of the English each entry translates
(``ckdsl.l10n.sources``): enough to tell that the English changed, not to show what it
said. A translator who sees "outdated" wants the old English beside the new (gettext's
``#| msgid``, Weblate's diff). Where the locales are in a git checkout (where translators
work), the earlier versions of en.yaml are there: the one whose entry has the recorded
fingerprint is the English the translation was made from. Outside a checkout, or past
the versions looked at, it is not known, and callers say so.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path

import yaml

from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.l10n.sources import fingerprint

Units = Callable[[JsonObject], dict[str, JsonValue]]
"""How a locale's data is read as entries by dotted key (``check.dotted_units``)."""

VERSIONS = 200
"""How many earlier versions of en.yaml are looked at, newest first."""


def earlier_english(english_file: Path, key: str, recorded: str, units: Units) -> JsonValue | None:
    """The English of ``key`` whose fingerprint is ``recorded``, from the history of
    ``english_file`` read by ``units``, or None when git does not have it."""
    return _by_fingerprint(str(english_file.resolve()), units).get((key, recorded))


@cache
def _by_fingerprint(english_file: str, units: Units) -> dict[tuple[str, str], JsonValue]:
    path = Path(english_file)
    out: dict[tuple[str, str], JsonValue] = {}
    for text in _versions(path):
        try:
            data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError:
            continue
        if not isinstance(data, dict):
            continue
        for key, value in units(data).items():
            out.setdefault((key, fingerprint(value)), value)
    return out


def _versions(path: Path) -> list[str]:
    """The texts of ``path`` in its last commits, newest first (none outside git)."""

    def git(*args: str) -> str | None:
        try:
            done = subprocess.run(
                ["git", "-C", str(path.parent), *args],
                capture_output=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None

    commits = git("log", f"-n{VERSIONS}", "--format=%H", "--", path.name)
    out = []
    for commit in (commits or "").split():
        text = git("show", f"{commit}:./{path.name}")
        if text is not None:
            out.append(text)
    return out
