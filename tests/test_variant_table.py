"""A variant names how its games are set up (`table:`: map, layout, players), so
`ckdsl play --rules my.yaml` needs no more flags (issue 16, item 7); the command line
still wins, and a table that does not fit is an error at its place."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.paths import base_rules_dir


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _setup_of(save: Path) -> dict[str, object]:
    setup = json.loads(save.read_text())["setup"]
    assert isinstance(setup, dict)
    return setup


def test_play_takes_the_variants_table(tmp_path: Path) -> None:
    variant = _write(
        tmp_path / "three.yaml", "extends: base\ntable:\n  players: 3\n  layout: beginner\n"
    )
    save = tmp_path / "g.json"
    result = CliRunner().invoke(cli, ["play", "--rules", str(variant), "--save", str(save)])
    assert result.exit_code == 0, result.output
    setup = _setup_of(save)
    assert setup["players"] == 3 and setup["layout"] == "beginner"
    assert "White:" in result.output and "Orange:" not in result.output


def test_the_command_line_wins_over_the_table(tmp_path: Path) -> None:
    variant = _write(
        tmp_path / "three.yaml", "extends: base\ntable:\n  players: 3\n  layout: beginner\n"
    )
    save = tmp_path / "g.json"
    args = [
        "play",
        "--rules",
        str(variant),
        "--save",
        str(save),
        "--players",
        "random,random,random,random",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    setup = _setup_of(save)
    assert setup["players"] == 4 and setup["layout"] == "beginner"  # the same map: its layout
    other = tmp_path / "other.yaml"
    shutil.copy(base_rules_dir().parent / "maps" / "standard.yaml", other)
    result = CliRunner().invoke(cli, [*args, "--map", str(other)])
    assert result.exit_code == 0, result.output
    assert _setup_of(save)["layout"] is None  # another map: not the table's layout


def test_a_map_file_is_found_beside_the_variant_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "house"
    (folder / "maps").mkdir(parents=True)
    shutil.copy(base_rules_dir().parent / "maps" / "standard.yaml", folder / "maps" / "mine.yaml")
    variant = _write(folder / "v.yaml", "extends: base\ntable:\n  map: maps/mine.yaml\n")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    save = tmp_path / "g.json"
    args = ["play", "--rules", str(variant), "--players", "random,random,random"]
    result = CliRunner().invoke(cli, [*args, "--save", str(save)])
    assert result.exit_code == 0, result.output
    assert str(_setup_of(save)["map"]).endswith("mine.yaml")


def test_a_table_that_does_not_fit_is_an_error_at_its_place(tmp_path: Path) -> None:
    variant = _write(
        tmp_path / "bad.yaml",
        "extends: base\ntable:\n  players: 7\n  map: nowhere.yaml\n",
    )
    for command in (["validate", str(variant)], ["play", "--rules", str(variant)]):
        result = CliRunner().invoke(cli, command)
        assert result.exit_code == 1, result.output
        assert "bad.yaml:3:12: this rule set is for 3 to 4 players, not 7" in result.stderr
        assert "bad.yaml:4:8: cannot use the map '" in result.stderr
        assert "nowhere.yaml': no such file" in result.stderr
    layout = _write(tmp_path / "lay.yaml", "extends: base\ntable:\n  layout: nosuch\n")
    result = CliRunner().invoke(cli, ["validate", str(layout)])
    assert result.exit_code == 1 and "lay.yaml:3:11:" in result.stderr and "nosuch" in result.stderr
