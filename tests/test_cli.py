"""The command line: outputs, exit codes (0 ok, 1 findings, 2 usage), never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.l10n.catalog import all_languages

REPO = Path(__file__).resolve().parent.parent


def test_help_lists_the_commands(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    for command in ("validate", "schema", "cards", "l10n"):
        assert command in result.stdout


def test_validate_bundled_rules_and_locales(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["validate", "--json"])
    report = json.loads(result.stdout)
    assert report["diagnostics"] == []
    assert result.exit_code == 0
    assert [c["kind"] for c in report["checked"]] == ["rule set"] + ["locale"] * 7
    assert report["checked"][-1]["path"].endswith("sr-Latn.yaml")  # derived: checked too


def test_validate_reports_every_fault_with_a_position(
    runner: CliRunner, rules_copy: Callable[..., Path]
) -> None:
    folder = rules_copy(
        {
            "progress.yaml": [("  bishop:\n    deck: politics", "  bishop:\n    deck: politcs")],
            "pieces.yaml": [("cost: {grain: 2, ore: 3}", "cost: {grain: 2, oar: 3}")],
        }
    )
    result = runner.invoke(cli, ["validate", str(folder)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    pieces = (folder / "pieces.yaml").read_text(encoding="utf-8")
    line = pieces[: pieces.index("oar: 3")].count("\n") + 1
    assert lines[0].endswith(
        f"pieces.yaml:{line}:22: unknown resource or commodity 'oar' (did you mean 'ore'?) "
        "[$.pieces.city.cost.oar]"
    )
    text = (folder / "progress.yaml").read_text(encoding="utf-8")
    line = text[: text.index("politcs")].count("\n") + 1
    assert lines[1].endswith(
        f"progress.yaml:{line}:11: unknown deck 'politcs' (did you mean 'politics'?) "
        "[$.cards.bishop.deck]"
    )
    assert lines[-1] == "2 errors"
    assert "FAILED" in result.stdout


def test_validate_examples_and_a_mix_of_paths(runner: CliRunner) -> None:
    result = runner.invoke(
        cli,
        [
            "validate",
            str(REPO / "examples/variants"),
            str(REPO / "rules/locales/pl.yaml"),
            str(REPO / "rules/base/pieces.yaml"),
        ],
    )
    assert result.exit_code == 0, result.stderr
    kinds = [line.split()[1] for line in result.stdout.splitlines()]
    variants = len(list((REPO / "examples/variants").glob("*.yaml")))
    assert kinds == ["variant"] * variants + ["locale", "rule"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"\x00\x01\x02", "this is a binary file"),
        (b"just: [unclosed", "not valid YAML"),
        (b"- a list\n", "cannot tell what this file is"),
    ],
)
def test_validate_bad_files(
    runner: CliRunner, tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(content)
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_validate_missing_path(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(cli, ["validate", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 1
    assert "no such file or folder" in result.stderr


@pytest.mark.parametrize("language", all_languages())
def test_cards_json_in_every_language(runner: CliRunner, language: str) -> None:
    result = runner.invoke(cli, ["cards", "--lang", language, "--json"])
    assert result.exit_code == 0, result.stderr
    cards = json.loads(result.stdout)
    assert len(cards) == 25
    per_deck: dict[str, int] = {}
    for card in cards:
        per_deck[card["deck"]] = per_deck.get(card["deck"], 0) + card["count"]
        assert card["name"] and card["text"]
        assert set(card) == {"id", "deck", "count", "timing", "points", "name", "text"}
    assert per_deck == {"trade": 18, "politics": 18, "science": 18}
    if language != "en":
        english = json.loads(runner.invoke(cli, ["cards", "--json"]).stdout)
        assert [c["text"] for c in cards] != [c["text"] for c in english]


def test_cards_in_polish(runner: CliRunner) -> None:
    cards = json.loads(runner.invoke(cli, ["cards", "--lang", "pl", "--json"]).stdout)
    names = {c["id"]: c["name"] for c in cards}
    assert names["bishop"] == "Biskup"
    assert names["alchemist"] == "Alchemik"
    assert names["merchant"] == "Kupiec"


def test_cards_in_serbian_latin_is_the_transliteration(runner: CliRunner) -> None:
    cyr = json.loads(runner.invoke(cli, ["cards", "--lang", "sr", "--json"]).stdout)
    lat = json.loads(runner.invoke(cli, ["cards", "--lang", "sr-Latn", "--json"]).stdout)
    assert any(ch in "абвгдђежзијклљмнњопрстћуфхцчџш" for ch in cyr[0]["name"].lower())
    assert not any("\u0400" <= ch <= "\u04ff" for c in lat for ch in c["name"] + c["text"])


def test_cards_one_deck_human_output(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["cards", "--deck", "science"])
    assert result.exit_code == 0
    assert result.stdout.startswith("Science progress cards (18 cards)\n")
    assert "Alchemist  [alchemist]  2 copies · Play on your turn, before the roll" in result.stdout
    assert "Printer  [printer]  1 copy · Revealed as soon as it is drawn · 1 victory point" in (
        result.stdout
    )


def test_cards_with_a_variant(runner: CliRunner) -> None:
    result = runner.invoke(
        cli,
        [
            "cards",
            "--rules",
            str(REPO / "examples/variants/royal_wedding.yaml"),
            "--lang",
            "fr",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.stderr
    names = {c["id"]: c["name"] for c in json.loads(result.stdout)}
    assert names["royal_wedding"] == "Mariage royal"


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "--lang", "de"],
        ["cards", "--deck", "nonsense"],
        ["schema", "--kind", "nonsense"],
        ["validate", "--no-such-option"],
        ["no-such-command"],
    ],
)
def test_usage_errors_exit_2(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(cli, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_broken_rules_for_cards_exit_1(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "v.yaml").write_text("extends: base\noverride:\n  cards: {nope: {count: 1}}\n")
    result = runner.invoke(cli, ["cards", "--rules", str(tmp_path / "v.yaml")])
    assert result.exit_code == 1
    assert "v.yaml:3:11: cannot override 'nope'" in result.stderr


@pytest.mark.parametrize("kind", ["rules", "locale", "variant"])
def test_schema_prints_json(runner: CliRunner, kind: str) -> None:
    result = runner.invoke(cli, ["schema", "--kind", kind])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["$schema"].startswith("http://json-schema.org/draft-07")


def test_l10n_check_all_complete(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["l10n", "check"])
    assert result.stderr == ""
    assert result.exit_code == 0
    assert result.stdout.split("\n")[:6] == [
        f"{lang:3} complete" for lang in ("en", "fr", "it", "pl", "pt", "sr")
    ]


def test_l10n_check_json(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["l10n", "check", "--lang", "pl", "--lang", "sr-Latn", "--json"])
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["ok"] is True and set(report["languages"]) == {"pl", "sr"}


def test_python_dash_m_and_console_script_work_outside_the_repo(tmp_path: Path) -> None:
    for command in ([sys.executable, "-m", "ckdsl"], [str(Path(sys.executable).parent / "ckdsl")]):
        if not Path(command[0]).exists():
            continue
        done = subprocess.run(
            [*command, "validate"], cwd=tmp_path, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, done.stderr
        assert "ok     rule set" in done.stdout


def test_internal_errors_are_one_line_not_a_traceback(
    runner: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ckdsl.validate

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(ckdsl.validate, "validate_paths", boom)  # imported when it runs
    monkeypatch.delenv("CKDSL_DEBUG", raising=False)
    result = runner.invoke(cli, ["validate"])
    assert result.exit_code == 3
    assert "internal error: RuntimeError: simulated bug" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_command_line_starts_without_the_heavy_modules() -> None:
    """`ckdsl --help` (and every command before it runs) loads neither the DSL compiler
    nor jsonschema nor Lark: a command imports what it uses when it runs (issue 13: the
    start-up must not dominate)."""
    import subprocess
    import sys

    heavy = ["ckdsl.dsl.compiler", "jsonschema", "lark", "ckdsl.turn.game", "pandas", "numpy",
             "rich", "yaml", "babel"]  # fmt: skip
    code = f"import sys, ckdsl.cli; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_command_loads_its_own_module_and_the_bots_it_seats() -> None:
    """`ckdsl play` with random bots imports neither the modules of the other commands
    (compare's, serve's, ...) nor the heuristic's or MCTS's (issue 13: the start-up must
    not dominate); `--help` lists every command all the same, and a misspelt command is
    matched against all of them."""
    code = (
        "import sys\n"
        "from ckdsl.cli import main\n"
        "try:\n    main(['play', '--players', 'random,random,random,random'])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('ckdsl.commands.', "
        "'ckdsl.bots.'))), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = out.stderr.strip().splitlines()[-1]
    assert loaded == (
        "['ckdsl.bots.base', 'ckdsl.bots.random_bot', 'ckdsl.commands.common', "
        "'ckdsl.commands.play']"
    )
    from ckdsl.commands import COMMANDS

    listed = subprocess.run([sys.executable, "-m", "ckdsl", "--help"], capture_output=True,
                            text=True, check=True).stdout  # fmt: skip
    assert all(f"  {name} " in listed for name in COMMANDS)
    typo = subprocess.run([sys.executable, "-m", "ckdsl", "tournamnt"], capture_output=True,
                          text=True)  # fmt: skip
    assert typo.returncode == 2 and "Did you mean 'tournament'?" in typo.stderr


def test_a_game_from_the_cache_needs_no_parser_schema_or_yaml(tmp_path: Path) -> None:
    """With the rule set, the map and the locale in the cache on disk (the second
    `ckdsl play`), a game is played and printed without jsonschema, Lark, PyYAML, the
    DSL's parser and syntax tree, or Babel (issue 13: the start-up must not dominate)."""
    import os

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("CKDSL_NO_CACHE", None)
    args = ["play", "--seed", "1", "--players", "random,random,random,random"]
    first = subprocess.run([sys.executable, "-m", "ckdsl", *args], env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    heavy = ["jsonschema", "lark", "yaml", "ckdsl.dsl.parser", "ckdsl.dsl.base.ast", "babel",
             "pandas", "numpy", "rich", "xml.sax"]  # fmt: skip
    code = (
        "import sys\n"
        "from ckdsl.cli import main\n"
        f"try:\n    main({args!r})\nexcept SystemExit:\n    pass\n"
        f"print([m for m in {heavy!r} if m in sys.modules], file=sys.stderr)\n"
    )
    again = subprocess.run([sys.executable, "-c", code], env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert again.stdout == first.stdout  # the same game, the same log
    assert again.stderr.strip().splitlines()[-1] == "[]"
    cold = subprocess.run([sys.executable, "-c", code], env={**env, "CKDSL_NO_CACHE": "1"},
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert cold.stdout == first.stdout
    assert "jsonschema" in cold.stderr  # without the cache the files are read and checked


def test_validate_from_a_warm_cache_checks_without_jsonschema_or_lark(tmp_path: Path) -> None:
    """The second `ckdsl validate` of unchanged files reports the same, every file read and
    checked again, but the documents found valid before and the effects parsed before are
    remembered: neither jsonschema nor Lark is imported (nor Babel)."""
    import os

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("CKDSL_NO_CACHE", None)
    first = subprocess.run([sys.executable, "-m", "ckdsl", "validate"], env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    heavy = ["jsonschema", "lark", "ckdsl.dsl.parser", "babel"]
    code = (
        "import sys\n"
        "from ckdsl.cli import main\n"
        "try:\n    main(['validate'])\nexcept SystemExit:\n    pass\n"
        f"print([m for m in {heavy!r} if m in sys.modules], file=sys.stderr)\n"
    )
    again = subprocess.run([sys.executable, "-c", code], env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert again.stdout == first.stdout and again.stdout.count("ok ") == 8  # rules, 7 locales
    assert again.stderr.strip().splitlines()[-1] == "[]"
