"""Shared fixtures: copies of the bundled rules to break, and a CLI runner."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.paths import base_rules_dir, locales_dir

REPO = Path(__file__).resolve().parent.parent

Edit = tuple[str, str]


@pytest.fixture
def rules_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of rules/base with text replacements: ``rules_copy({"goods.yaml": [(a, b)]})``."""

    def make(edits: dict[str, list[Edit]] | None = None) -> Path:
        folder = tmp_path / "rules"
        shutil.copytree(base_rules_dir(), folder)
        for name, changes in (edits or {}).items():
            path = folder / name
            text = path.read_text(encoding="utf-8")
            for old, new in changes:
                assert old in text, f"{old!r} not in {name}"
                text = text.replace(old, new, 1)
            path.write_text(text, encoding="utf-8")
        return folder

    return make


@pytest.fixture
def locales_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of rules/locales with text replacements, like ``rules_copy``."""

    def make(edits: dict[str, list[Edit]] | None = None) -> Path:
        folder = tmp_path / "locales"
        shutil.copytree(locales_dir(), folder)
        for name, changes in (edits or {}).items():
            path = folder / name
            text = path.read_text(encoding="utf-8")
            for old, new in changes:
                assert old in text, f"{old!r} not in {name}"
                text = text.replace(old, new, 1)
            path.write_text(text, encoding="utf-8")
        return folder

    return make


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
