"""Every file the code and the docs point at exists in the repository.

A comment or a doc naming ``docs/engine.md``, ``rules/base/progress.yaml``,
``examples/variants/caravans.yaml``, ``grammars/effects.lark`` or ``ckdsl/rng.py`` must
name a file (or folder) of this repository, so that a contributor, or a reader of the sdist,
can follow it. Three kinds of reference are checked, in every module of ``ckdsl/``
(comments, docstrings and strings alike), every Markdown file, the grammar and the YAML
files of ``rules/`` and ``examples/``:

- a path from the repository's root (``rules/base/game.yaml``); one with a placeholder
  (``rules/locales/<lang>.yaml``, ``rules/maps/*.yaml``, ``{name}``) needs the folder
  before the placeholder; ``ckdsl/_data/...`` is the wheel's copy of the root's folders;
- a relative path climbing out of its folder (``../schema/map.schema.json``,
  ``../shared/design.md``): from the file's folder or from the root, it must reach a file
  of the repository (Markdown code blocks are skipped: their paths are relative to an
  example file);
- a Markdown link (``[text](target)``), resolved from the Markdown file.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

ROOTS = ("docs", "rules", "examples", "grammars", "ckdsl", "tests", "benchmarks")
# Not the tail of a longer path or a URL: only a start, a space, a quote or a bracket (or
# a ``../`` chain) may come before a name.
_BEFORE = r"(?:(?<=^)|(?<=[\s`'\"(\[<:=,]))"
NAMED = re.compile(
    _BEFORE + r"(?:\.\./)*((?:" + "|".join(ROOTS) + r")/[\w./*<>{}\-]*)", re.MULTILINE
)
CLIMBING = re.compile(_BEFORE + r"((?:\.\./)+[\w][\w./*<>{}\-]*)", re.MULTILINE)
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
PLACEHOLDER = re.compile(r"[*<>{}]")
WHEEL = "ckdsl/_data/"


def _sources() -> list[Path]:
    files = sorted((REPO / "ckdsl").rglob("*.py"))
    files += sorted(REPO.glob("*.md")) + sorted((REPO / "docs").glob("*.md"))
    files += sorted((REPO / "grammars").iterdir())
    files += sorted((REPO / "rules").rglob("*.yaml")) + sorted((REPO / "examples").rglob("*.yaml"))
    return [p for p in files if p.is_file() and "_data" not in p.relative_to(REPO).parts]


def _fixed_part(name: str) -> str:
    """``name`` without trailing punctuation, cut before its first placeholder's folder."""
    name = name.rstrip(".,;:")
    cut = PLACEHOLDER.search(name)
    return name[: cut.start()].rsplit("/", 1)[0] if cut else name


def _exists_from(base: Path, name: str) -> bool:
    target = (base / _fixed_part(name)).resolve()
    return target.is_relative_to(REPO) and target.exists()


def _root_name_exists(name: str) -> bool:
    name = name.removeprefix(WHEEL)
    return _exists_from(REPO, name)


def _where(path: Path, text: str, at: int, name: str) -> str:
    return f"{path.relative_to(REPO)}:{text.count(chr(10), 0, at) + 1}: {name}"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _prose(path: Path) -> str:
    """The text, with Markdown code blocks blanked (keeping line numbers)."""
    text = _text(path)
    if path.suffix != ".md":
        return text
    return FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def broken_root_names(path: Path) -> list[str]:
    text = _text(path)
    return [
        _where(path, text, m.start(1), m.group(1))
        for m in NAMED.finditer(text)
        if not _root_name_exists(m.group(1))
    ]


def broken_climbing_names(path: Path) -> list[str]:
    text = _prose(path)
    return [
        _where(path, text, m.start(1), m.group(1))
        for m in CLIMBING.finditer(text)
        if not (_exists_from(path.parent, m.group(1)) or _exists_from(REPO, m.group(1)))
    ]


def broken_links(path: Path) -> list[str]:
    text = _prose(path)
    out = []
    for m in LINK.finditer(text):
        target = m.group(1).split("#", 1)[0]
        if not target or re.match(r"[a-z][a-z0-9+.-]*:", target):  # an anchor, a URL
            continue
        if not _exists_from(path.parent, target):
            out.append(_where(path, text, m.start(1), m.group(1)))
    return out


def test_the_scan_sees_what_it_should(tmp_path: Path) -> None:
    # Guards the patterns: if they stopped matching, the tests below would pass vacuously.
    sources = _sources()
    named = {m.group(1) for p in sources for m in NAMED.finditer(_text(p))}
    assert {"rules/base/progress.yaml", "grammars/effects.lark", "docs/dsl.md"} <= named
    assert {"examples/variants/caravans.yaml", "rules/bots/heuristic.yaml"} <= named
    climbing = {m.group(1) for p in sources for m in CLIMBING.finditer(_prose(p))}
    assert "../schema/rules.schema.json" in climbing
    assert any(LINK.search(_prose(p)) for p in sources if p.suffix == ".md")
    assert _root_name_exists("rules/maps/*.yaml") and _root_name_exists("ckdsl/_data/rules/maps")
    assert not _root_name_exists("rules/no-such-folder/<lang>.yaml")
    probe = REPO / "docs" / "probe.md"  # not written: only its folder and name are used
    sample = tmp_path / "sample.md"
    sample.write_text(
        "See `docs/no-such.md`, `../shared/design.md` and [x](nowhere.md).\n"
        "```yaml\nextends: ../other-variant.yaml\n```\n",
        encoding="utf-8",
    )
    text = _prose(sample)
    assert [m.group(1) for m in NAMED.finditer(text)] == ["docs/no-such.md"]
    assert [m.group(1) for m in CLIMBING.finditer(text)] == ["../shared/design.md"]
    assert not _exists_from(probe.parent, "../shared/design.md")
    assert not _exists_from(probe.parent, "nowhere.md")


@pytest.mark.parametrize("source", _sources(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_named_path_exists(source: Path) -> None:
    broken = broken_root_names(source) + broken_climbing_names(source)
    if source.suffix == ".md":
        broken += broken_links(source)
    assert not broken, "references to files that are not in the repository:\n" + "\n".join(broken)


# The README's sample of `ckdsl validate`: these typos, that output.
README_TYPOS = {
    "progress.yaml": [
        (
            "  bishop:\n    deck: politics\n    count: 2",
            "  bishop:\n    deck: politcs\n    cuont: 2",
        )
    ],
    "pieces.yaml": [("cost: {grain: 2, ore: 3}", "cost: {grain: 2, oar: 3}")],
}
README_SAMPLE = "`ckdsl validate` prints on standard error:\n\n```text\n"


def test_the_readme_shows_what_validate_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from ckdsl.cli import cli
    from ckdsl.paths import base_rules_dir

    readme = _text(REPO / "README.md")
    start = readme.index(README_SAMPLE) + len(README_SAMPLE)
    shown = readme[start : readme.index("```", start)].splitlines()
    folder = tmp_path / "rules" / "base"
    shutil.copytree(base_rules_dir(), folder)
    for name, edits in README_TYPOS.items():
        text = _text(folder / name)
        for old, new in edits:
            assert old in text, f"{old!r} not in {name}"
            text = text.replace(old, new, 1)
        (folder / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # so the files show as rules/base/..., as in the repository
    result = CliRunner().invoke(cli, ["validate", "rules/base"])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == shown
    assert "FAILED rule set  rules/base" in result.stdout
