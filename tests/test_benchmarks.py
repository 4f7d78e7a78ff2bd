"""The throughput benchmark runs: its ckdsl worker plays a block and the report reads it,
and an interpreter without catanatron is refused cleanly (a message, exit code 2)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
THROUGHPUT = REPO / "benchmarks" / "throughput.py"


def throughput(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(THROUGHPUT), "--rounds", "1", "--games", "1", "--repeat", "1", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )


def test_throughput_reports_decisions_per_second() -> None:
    done = throughput()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = next(line for line in lines if "decisions/s" in line and "µs/decision" in line)
    row = lines[lines.index(head) + 1].split()
    assert row[0] == "ckdsl" and row[1] == "1"  # one game in the block
    assert float(row[6].replace(",", "")) > 0  # decisions/s
    assert lines[-1].startswith("summary: ckdsl Cities & Knights")


def test_an_interpreter_without_catanatron_is_refused_without_a_traceback() -> None:
    done = throughput("--catanatron", str(REPO / "no-such-python"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "cannot run" in done.stderr and "--catanatron needs" in done.stderr
