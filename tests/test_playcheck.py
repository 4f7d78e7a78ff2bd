"""``ckdsl validate --play N``: faults that only show in play, at the rule's line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from ckdsl.cli import cli

REPO = Path(__file__).resolve().parent.parent


def test_faults_in_play_are_reported_at_the_rules_line(runner: CliRunner) -> None:
    variant = REPO / "tests" / "dsl" / "faults_in_play.yaml"
    quiet = runner.invoke(cli, ["validate", str(variant)])
    assert quiet.exit_code == 0, quiet.output  # reading it finds nothing
    result = runner.invoke(cli, ["validate", str(variant), "--play", "1"])
    assert result.exit_code == 1
    assert (
        "faults_in_play.yaml:9:9: hook_failed: the hook turn_end stops at its line 2: there "
        "is no tile 25 on this board (0 to 18) (in 1 of 1 games)"
    ) in result.output
    assert (
        "faults_in_play.yaml:10:9: the hook turn_end ends at its line 3: nothing to choose"
        in result.output
    )
    assert "1 games played, 2 faults in play" in result.output


def test_a_sound_variant_plays_clean(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["validate", str(REPO / "examples/variants/mercenaries.yaml"),
                                 "--play", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "1 games played, 0 faults in play" in result.output
