"""``ckdsl scenario --rules R``: a scenario run under other rules than its own (the house
-rule author's first question: does my scenario fail under the base rules?), and the
shipped variants named without a path."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli

REPO = Path(__file__).resolve().parent.parent


def test_a_house_rules_scenario_fails_under_the_base_rules(runner: CliRunner) -> None:
    scenario = str(REPO / "examples" / "scenarios" / "no_displace.yaml")
    own = runner.invoke(cli, ["scenario", scenario])
    assert own.exit_code == 0, own.output
    base = runner.invoke(cli, ["scenario", scenario, "--rules", "base"])
    assert base.exit_code == 1
    assert base.output.startswith("under the rules base:\nFAIL  peaceful knights")
    assert "0 of 1 scenarios passed under the rules base" in base.output


def test_a_shipped_variant_is_named_from_anywhere(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    scenario = tmp_path / "harbor.yaml"
    text = (REPO / "examples" / "scenarios" / "official_commercial_harbor.yaml").read_text()
    scenario.write_text(text.replace("rules: ../variants/official.yaml", "rules: official"))
    assert "rules: official" in scenario.read_text()
    result = runner.invoke(cli, ["scenario", str(scenario)])
    assert result.exit_code == 0, result.output
    under = runner.invoke(cli, ["scenario", str(scenario), "--rules", "base"])
    assert under.exit_code == 1
    back = runner.invoke(cli, ["scenario", str(scenario), "--rules", "official"])
    assert back.exit_code == 0, back.output
