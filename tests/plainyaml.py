"""YAML read as plain data by the tests (a locale, a rule file, a docs block): by libyaml's
parser where PyYAML has it, several times faster than PyYAML's own, the same data. (ckdsl
reads the files it loads with positions, ``ckdsl.rules.yamlload``, and libyaml too.)"""

from __future__ import annotations

from typing import Any

import yaml

LOADER: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = getattr(
    yaml, "CSafeLoader", yaml.SafeLoader
)


def safe_load(text: str) -> Any:
    """``yaml.safe_load``, by libyaml's parser when it is there."""
    return yaml.load(text, Loader=LOADER)
