"""A FIFO where ckdsl reads a file by name (issue 29): a results chunk, a compaction's
journal, a game's event log, a weights file, a learned model, tune's start, a locale
file. Each is refused at once with a message naming the file (exit 1 or 2 at the
command line), never waited on: a read that blocks fails the test after 10 s instead
of hanging the suite."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from ckdsl.cli import cli
from ckdsl.sim.event_logs import log_path, read_events
from ckdsl.sim.experiment import Experiment
from ckdsl.sim.runner import run
from ckdsl.sim.store import StoreError, chunk_files, read_results

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")

REPO = Path(__file__).resolve().parent.parent
PIPE = "named pipe (FIFO)"


def at_once(call: Callable[[], Any]) -> Any:
    """``call()``'s result or the exception it raised, if it ends within 10 s."""
    found: list[Any] = []

    def go() -> None:
        try:
            found.append(call())
        except BaseException as exc:  # (handed to the test)
            found.append(exc)

    worker = threading.Thread(target=go, daemon=True)
    worker.start()
    worker.join(10)
    assert found, "blocked on the FIFO"
    return found[0]


def command(*args: str) -> Result:
    result = at_once(lambda: CliRunner().invoke(cli, list(args)))
    assert isinstance(result, Result)
    assert result.exit_code in (1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def fifo_at(path: Path) -> Path:
    if path.exists():
        path.unlink()
    os.mkfifo(path)
    return path


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two short games of random bots, with their event logs."""
    folder = tmp_path_factory.mktemp("rules")
    short = folder / "short.yaml"
    short.write_text("extends: base\noverride:\n  parameters:\n    points_to_win: 5\n")
    experiment = Experiment.single(
        str(short), "random,random,random,random", games=2, seed=3, keep_events=True
    )
    out = folder / "run"
    run(experiment, out, jobs=1, progress=False)
    return out


def test_a_fifo_chunk_is_refused_by_name(results: Path, tmp_path: Path) -> None:
    out = Path(shutil.copytree(results, tmp_path / "run"))
    [chunk] = chunk_files(out)
    fifo_at(chunk)
    found = at_once(lambda: read_results(out))
    assert isinstance(found, StoreError), found
    assert str(chunk) in str(found) and PIPE in str(found)
    assert "FileNotFoundError" not in str(found)


def test_a_fifo_journal_is_no_compaction_and_no_hang(results: Path, tmp_path: Path) -> None:
    out = Path(shutil.copytree(results, tmp_path / "run"))
    fifo_at(out / ".compact-000009.json")
    assert len(at_once(lambda: read_results(out))) == 2


def test_a_fifo_event_log_is_refused_and_a_missing_one_said(results: Path, tmp_path: Path) -> None:
    out = Path(shutil.copytree(results, tmp_path / "run"))
    assert at_once(lambda: read_events(out, (0, 0, 0)))[0]["event"]
    log = fifo_at(log_path(out, (0, 0, 0)))
    found = at_once(lambda: read_events(out, (0, 0, 0)))
    assert isinstance(found, ValueError) and str(log) in str(found) and PIPE in str(found)
    log_path(out, (1, 0, 0)).write_bytes(b"not gzip")
    found = at_once(lambda: read_events(out, (1, 0, 0)))
    assert isinstance(found, ValueError) and "not an event log" in str(found)
    assert isinstance(at_once(lambda: read_events(out, (7, 0, 0))), FileNotFoundError)


@pytest.mark.parametrize("spec", ["heuristic:weights", "learned:model"])
def test_a_fifo_weights_file_or_model_is_a_usage_error(tmp_path: Path, spec: str) -> None:
    pipe = fifo_at(tmp_path / "w.yaml")
    result = command("play", "--players", f"{spec}={pipe},random,random,random")
    assert result.exit_code == 2 and str(pipe) in result.output and PIPE in result.output


def test_a_fifo_named_as_a_ladders_bot_is_a_usage_error(tmp_path: Path) -> None:
    pipe = fifo_at(tmp_path / "mine.yaml")
    result = command("ladder", "heuristic", str(pipe))
    assert (
        result.exit_code == 2 and PIPE in result.output and "no weights file" not in result.output
    )


def test_a_fifo_start_for_tune_is_a_usage_error(tmp_path: Path) -> None:
    pipe = fifo_at(tmp_path / "start.yaml")
    result = command("tune", "heuristic", "--start", str(pipe), "--out", str(tmp_path / "t"))
    assert result.exit_code == 2 and PIPE in result.output


def test_a_fifo_locale_file_is_refused_by_every_l10n_command(tmp_path: Path) -> None:
    locales = Path(shutil.copytree(REPO / "rules" / "locales", tmp_path / "loc"))
    french = fifo_at(locales / "fr.yaml")
    for args in (["check"], ["update", "fr"], ["export", "fr"]):
        result = command("l10n", *args, "--locales", str(locales))
        assert result.exit_code == 1 and str(french) in result.output, args
        assert PIPE in result.output, args
    english = fifo_at(locales / "en.yaml")
    result = command("l10n", "init", "de", "--locales", str(locales))
    assert result.exit_code == 1 and str(english) in result.output and PIPE in result.output


def test_a_fifo_among_a_rule_sets_files_is_refused_not_skipped(tmp_path: Path) -> None:
    rules = Path(shutil.copytree(REPO / "rules" / "base", tmp_path / "rules"))
    pipe = fifo_at(rules / "extra.yaml")
    for args in (["validate", str(rules)], ["play", "--rules", str(rules), "--seed", "1"]):
        result = command(*args)
        assert result.exit_code == 1 and f"{pipe}: is a {PIPE}" in result.output, args
