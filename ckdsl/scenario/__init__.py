"""Scenario files: executable rule examples (a position, steps, expectations)."""

from ckdsl.scenario.runner import Outcome, run_file, scenario_files, scenario_position

__all__ = ["Outcome", "run_file", "scenario_files", "scenario_position"]
