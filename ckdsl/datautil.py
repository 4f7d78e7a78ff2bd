"""Small helpers on plain data (dicts, lists, scalars) shared by rules and locales."""

from __future__ import annotations

import copy
from typing import Any


def deep_merge(target: dict[str, Any], patch: dict[str, Any]) -> None:
    """Merge ``patch`` into ``target``: mappings key by key, anything else replaced."""
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            deep_merge(target[key], value)
        else:
            target[key] = copy.deepcopy(value)
