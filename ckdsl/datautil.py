"""Small helpers on plain data (dicts, lists, scalars) shared by rules and locales."""

from __future__ import annotations

import copy
from collections.abc import Mapping, MutableMapping
from typing import TypeVar

_V = TypeVar("_V")


def deep_merge(target: MutableMapping[str, _V], patch: Mapping[str, _V]) -> None:
    """Merge ``patch`` into ``target``: mappings key by key, anything else replaced.

    Generic in the values (JSON data, in practice), since this utility sits below the
    module that names JSON's types."""
    for key, value in patch.items():
        current = target.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            deep_merge(current, value)
        else:
            target[key] = copy.deepcopy(value)
