"""The docs for house-rule authors on the rules as data (issue 18): docs/dsl.md "Hooks" to
"Counters", docs/variants.md "Changing the rules themselves" and docs/rules.md "Where
each rule lives".

Each of these sections has an example; every example variant they name validates and
has a scenario that passes (under examples/scenarios/, or shown in the docs); every
variant snippet they show validates, written to a file (``extends: base`` added to a
fragment); every scenario they show runs. Their ``dsl`` blocks are compiled with every
other block of docs/dsl.md by tests/test_dsl.py. Fences are read as tests/test_dsl.py
reads them (```` ```yaml ```` and ```` ```dsl ```` blocks).
"""

from __future__ import annotations

import re
from pathlib import Path

import plainyaml
import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.dsl.program import ENTRY_HOOKS, MOVES
from ckdsl.scenario import run_file

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
VARIANTS = REPO / "examples" / "variants"
SCENARIOS = REPO / "examples" / "scenarios"

SECTIONS = {
    "dsl.md": ("Hooks", "Allow", "The turn's formulas", "Actions", "Phases", "Counters"),
    "variants.md": ("Changing the rules themselves",),
    "rules.md": ("Where each rule lives",),
}
VARIANT_KEYS = {"extends", "description", "override", "add", "replace", "remove", "names"}


def section(doc: str, title: str) -> str:
    """The text of the ``## title`` section of docs/<doc>, up to the next ``## ``."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def new_text() -> str:
    return "\n".join(section(doc, t) for doc, titles in SECTIONS.items() for t in titles)


def shown_yaml() -> list[tuple[str, str]]:
    """Every yaml block of the sections, with where it is (``doc, section #n``)."""
    out = []
    for doc, titles in SECTIONS.items():
        for title in titles:
            for n, block in enumerate(blocks(section(doc, title), "yaml"), 1):
                out.append((f"{doc}, {title} #{n}", block))
    return out


def is_scenario(block: str) -> bool:
    return "steps:" in block


def variant_snippets() -> list[tuple[str, str]]:
    """The yaml blocks of the sections that are variants (whole or a fragment)."""
    out = []
    for where, block in shown_yaml():
        data = plainyaml.safe_load(block)
        if is_scenario(block) or not isinstance(data, dict) or not set(data) <= VARIANT_KEYS:
            continue
        if set(data) & {"override", "add", "replace", "remove"}:
            out.append((where, block))
    return out


def doc_scenarios() -> list[tuple[str, str]]:
    return [(where, block) for where, block in shown_yaml() if is_scenario(block)]


def named_variants() -> list[str]:
    """The example variants the sections name (``examples/variants/<name>.yaml``, or a
    link to one)."""
    names = re.findall(r"examples/variants/(\w+)\.yaml", new_text())
    return sorted(set(names))


def validate(path: Path) -> None:
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output + result.stderr


def scenario_rules(path: Path, data: dict[str, object]) -> Path | None:
    rules = data.get("rules")
    return (path.parent / rules).resolve() if isinstance(rules, str) else None


def run_doc_scenario(text: str, tmp_path: Path) -> None:
    """Run a scenario shown in the docs as if it were under examples/scenarios/: its
    ``../variants/...`` and ``../../rules/...`` reach the repository's folders."""
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "variants").symlink_to(VARIANTS, target_is_directory=True)
    (tmp_path / "rules").symlink_to(REPO / "rules", target_is_directory=True)
    folder = tmp_path / "examples" / "scenarios"
    folder.mkdir()
    path = folder / "example.yaml"
    path.write_text(text, encoding="utf-8")
    outcome = run_file(path)
    assert outcome.status == "pass", outcome.to_json()


# --- the sections -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "title"), [(d, t) for d, titles in SECTIONS.items() for t in titles]
)
def test_each_section_is_there_with_an_example(doc: str, title: str) -> None:
    text = section(doc, title)
    if doc == "rules.md":  # a table of where each rule lives, not examples
        assert text.count("\n| ") > 15
        return
    assert blocks(text, "dsl") or blocks(text, "yaml"), f"{doc} '{title}' has no example"


def test_the_table_of_contents_lists_the_new_sections() -> None:
    head = (DOCS / "dsl.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    for title in SECTIONS["dsl.md"]:
        anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        assert f"- [{title}](#{anchor})" in head, title


def test_the_docs_show_every_new_construct() -> None:
    dsl = "\n".join(blocks((DOCS / "dsl.md").read_text(encoding="utf-8"), "dsl"))
    for construct in (" if ", " else ", "list(each ", "run ", " for p", "robber_may_go("):
        assert construct in dsl, construct
    shown = "\n".join(block for _, block in shown_yaml())
    for construct in (
        "hooks:",
        "allow:",
        "turn:",
        "actions:",
        "phases:",
        "counters:",
        "phase special_build by p",
        "add 1 to",
        "counter(",
        "between_turns",
        '"false"',
        "reset: turn",
        "per: player",
        "cost:",
    ):
        assert construct in shown, construct


def table(text: str, header: str) -> list[str]:
    """The first cells (without backquotes) of the Markdown table whose header row
    starts with ``header``."""
    start = text.index("\n" + header) + 1
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip().strip("`"))
    return rows


def test_the_tables_name_every_hook_and_move() -> None:
    """The entry-hooks table lists exactly the engine's entry hooks, the base-hooks table
    every hook of rules/base/turn.yaml, the allow table every built-in move with its
    base condition; docs/rules.md names every base hook."""
    turn = plainyaml.safe_load((REPO / "rules" / "base" / "turn.yaml").read_text(encoding="utf-8"))
    hooks = section("dsl.md", "Hooks")
    assert table(hooks, "| hook | the engine runs it |") == list(ENTRY_HOOKS)
    assert table(hooks, "| hook | run by |") == list(turn["hooks"])
    allow = section("dsl.md", "Allow")
    assert table(allow, "| move | variables |") == list(MOVES) == list(turn["allow"])
    for move, condition in turn["allow"].items():
        assert f"| `{move}` | " in allow and f"| `{condition}` |" in allow, move
    where = section("rules.md", "Where each rule lives")
    for hook in turn["hooks"]:
        assert f"`{hook}`" in where, hook


def test_the_rules_table_names_primitives_that_exist() -> None:
    """Each "`name` in `ckdsl/...py`" of docs/rules.md's table is defined in that file."""
    where = section("rules.md", "Where each rule lives")
    cited = re.findall(r"`(\w+)`(?: \([^)]*\))? in `(ckdsl/[\w/]+\.py)`", where)
    assert len(cited) > 10
    for name, file in cited:
        source = (REPO / file).read_text(encoding="utf-8")
        assert f"def {name}(" in source or f'"{name}"' in source, f"{name} in {file}"


# --- the examples ---------------------------------------------------------------------------


def test_the_sections_name_the_example_variants() -> None:
    assert {
        "shared_defence",
        "friendly_robber",
        "no_displace",
        "double_promotion",
        "mercenaries",
        "five_six",
    } <= set(named_variants())


@pytest.mark.parametrize("name", named_variants())
def test_each_example_variant_validates_and_its_scenarios_pass(name: str) -> None:
    variant = VARIANTS / f"{name}.yaml"
    validate(variant)
    files = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        if scenario_rules(path, plainyaml.safe_load(path.read_text(encoding="utf-8"))) == variant:
            files.append(path)
    shown = [
        b
        for _, b in doc_scenarios()
        if plainyaml.safe_load(b).get("rules") == f"../variants/{name}.yaml"
    ]
    assert files or shown, f"{name}: no scenario under examples/scenarios/ nor in the docs"
    for path in files:
        outcome = run_file(path)
        assert outcome.status == "pass", outcome.to_json()
    # A scenario shown in the docs is run by test_each_doc_scenario_passes.


@pytest.mark.parametrize(
    "text", [b for _, b in variant_snippets()], ids=[w for w, _ in variant_snippets()]
)
def test_each_variant_snippet_validates(text: str, tmp_path: Path) -> None:
    if not re.search(r"^extends:", text, re.M):
        text = "extends: base\n" + text
    path = tmp_path / "snippet.yaml"
    path.write_text(text, encoding="utf-8")
    validate(path)


def test_there_are_snippets_and_scenarios() -> None:
    # Guards the parsing: if the fences were missed, the tests above would pass vacuously.
    assert len(variant_snippets()) >= 10
    assert doc_scenarios()


@pytest.mark.parametrize(
    "text", [b for _, b in doc_scenarios()], ids=[w for w, _ in doc_scenarios()]
)
def test_each_doc_scenario_passes(text: str, tmp_path: Path) -> None:
    run_doc_scenario(text, tmp_path)
