"""Importing ckdsl refuses a compiled build whose sources changed since it was built
(``ckdsl/__init__.py``): a source whose size and time are those recorded at the build is
taken as it was, any other is hashed, and only a different content refuses."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import ckdsl


def _package(tmp_path: Path) -> tuple[Path, Path]:
    """A package whose __init__ is ckdsl's, with one source recorded as compiled."""
    package = tmp_path / "fakeck"
    package.mkdir()
    shutil.copy(Path(ckdsl.__file__), package / "__init__.py")
    source = package / "engine.py"
    source.write_text("X = 1\n", encoding="utf-8")
    found = source.stat()
    stamp = {
        "sources": {"fakeck/engine.py": hashlib.sha256(source.read_bytes()).hexdigest()},
        "stats": {"fakeck/engine.py": [found.st_size, found.st_mtime_ns]},
    }
    (package / "_native.json").write_text(json.dumps(stamp), encoding="utf-8")
    return package, source


def _imports(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "import fakeck"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_build_as_built_imports(tmp_path: Path) -> None:
    _package(tmp_path)
    assert _imports(tmp_path).returncode == 0


def test_a_source_touched_but_the_same_imports(tmp_path: Path) -> None:
    _, source = _package(tmp_path)
    found = source.stat()
    os.utime(source, ns=(found.st_atime_ns, found.st_mtime_ns + 5_000_000_000))
    assert _imports(tmp_path).returncode == 0  # hashed: the same content


def test_a_changed_source_is_refused(tmp_path: Path) -> None:
    _, source = _package(tmp_path)
    source.write_text("X = 2\n", encoding="utf-8")  # the same size, another content
    found = source.stat()
    os.utime(source, ns=(found.st_atime_ns, found.st_mtime_ns + 5_000_000_000))
    done = _imports(tmp_path)
    assert done.returncode == 1
    assert "older than their sources (fakeck/engine.py)" in done.stderr
