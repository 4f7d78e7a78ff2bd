"""Every file a save, a scenario or an option names is checked with its links resolved,
and a shared save or scenario reads rules and maps only from its own folder or the
bundled ones (issue 29): a ``.yaml`` link to a system file is refused, a YAML file that
is no ckdsl file is refused without showing its keys, and nothing of either is echoed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.diagnostics import CkdslError
from ckdsl.scenario.runner import run_file
from ckdsl.session import GameSetup, load_board, load_rules, replay, start, write_save

SECRET = "root:$6$hunter2hash:19000:0:99999:7:::\ndaemon:*:19000:0\n"
CREDENTIALS = "password: hunter2\ndb_host: internal.example\n"
SHOWN = ("hunter2", "internal.example", "db_host", "password", "daemon")


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """``secret.txt`` and ``creds.yaml`` (a YAML file of no ckdsl kind) beside a
    ``shared/`` folder holding ``x.yaml``, a link to the secret, and a save of a game."""
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    (tmp_path / "creds.yaml").write_text(CREDENTIALS, encoding="utf-8")
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "x.yaml").symlink_to(tmp_path / "secret.txt")
    game = start(GameSetup(players=3, seed=1))
    write_save(shared / "game.json", game, GameSetup(players=3, seed=1))
    return tmp_path


def _save_naming(files: Path, **setup: str) -> Path:
    save = files / "shared" / "game.json"
    data = json.loads(save.read_text(encoding="utf-8"))
    data["setup"].update(setup)
    save.write_text(json.dumps(data), encoding="utf-8")
    return save


def _refused(call: object, *needles: str) -> str:
    with pytest.raises(CkdslError) as caught:
        call()  # type: ignore[operator]
    said = "\n".join(d.format() for d in caught.value.diagnostics)
    assert all(needle in said for needle in needles), said
    assert not any(secret in said for secret in SHOWN), said
    return said


@pytest.mark.parametrize(
    ("field", "named", "needle"),
    [
        ("rules", "x.yaml", "leads to"),  # in its folder, but a link out of it
        ("map", "x.yaml", "leads to"),
        ("rules", "../creds.yaml", "outside its folder"),
        ("map", "../creds.yaml", "outside its folder"),
        ("rules", "../../../../../../etc/passwd.yaml", "outside its folder"),
    ],
)
def test_a_save_reads_only_files_in_its_folder(
    files: Path, field: str, named: str, needle: str
) -> None:
    save = _save_naming(files, **{field: named})
    _refused(lambda: replay(save), needle)
    result = CliRunner().invoke(cli, ["replay", str(save)])
    assert result.exit_code == 1 and needle in result.output
    assert not any(secret in result.output for secret in SHOWN)


def test_a_save_whose_rules_are_given_again_replays(files: Path) -> None:
    """The way out for a save the user trusts: ``--rules`` is the user's own word."""
    save = _save_naming(files, rules="../elsewhere/variant.yaml")
    game, setup = replay(save, rules="base")
    assert setup.rules == "base" and game.state.turn == 0


def test_a_scenario_reads_only_files_in_its_folder(files: Path) -> None:
    scenario = files / "shared" / "s.yaml"
    for named, needle in (("../creds.yaml", "outside its folder"), ("x.yaml", "leads to")):
        scenario.write_text(f"name: s\nrules: {named}\nsteps: []\n", encoding="utf-8")
        outcome = run_file(scenario)
        said = "\n".join(d.format() for d in outcome.diagnostics)
        assert outcome.status == "error" and needle in said, said
        assert not any(secret in said for secret in SHOWN)


def test_an_option_naming_a_link_to_a_system_file_is_refused(files: Path) -> None:
    link = files / "shared" / "x.yaml"
    _refused(lambda: load_rules(str(link)), "leads to", "secret.txt")
    _refused(lambda: load_board(str(link)), "leads to", "secret.txt")
    result = CliRunner().invoke(cli, ["play", "--rules", str(link)])
    assert result.exit_code == 1 and "leads to" in result.output
    assert "hunter2" not in result.output


def test_a_yaml_file_of_no_ckdsl_kind_is_refused_without_its_keys(files: Path) -> None:
    creds = files / "creds.yaml"
    _refused(lambda: load_rules(str(creds)), "not a ckdsl variant")
    _refused(lambda: load_board(str(creds)), "not a ckdsl map")
    folder = files / "folder"
    folder.mkdir()
    (folder / "creds.yaml").write_text(CREDENTIALS, encoding="utf-8")
    (folder / "link.yaml").symlink_to(files / "secret.txt")
    said = _refused(lambda: load_rules(str(folder)), "not a ckdsl rule file", "leads to")
    assert "link.yaml" in said


def test_validate_reads_no_yaml_link_to_a_system_file(files: Path) -> None:
    for named in (files / "shared", files / "shared" / "x.yaml"):
        result = CliRunner().invoke(cli, ["validate", str(named)])
        assert result.exit_code == 1 and "leads to" in result.output
        assert not any(secret in result.output for secret in SHOWN)


def test_a_scenarios_rules_given_again_are_not_confined(files: Path) -> None:
    """As for a save: the rules named on the command line are the user's own word."""
    scenario = files / "shared" / "s.yaml"
    scenario.write_text("name: s\nrules: ../creds.yaml\nsteps: []\n", encoding="utf-8")
    assert run_file(scenario, rules="base").status == "pass"
    scenario.write_text("name: s\nmap: ../creds.yaml\nsteps: []\n", encoding="utf-8")
    assert run_file(scenario, rules="base").status == "error"  # the map still is
