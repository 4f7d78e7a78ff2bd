"""The compiled build runs only while it is what its sources say (``ckdsl.native``): a
source as built (by its stat, or by its hash once touched) keeps it; a changed source,
another interpreter, a damaged record or ``CKDSL_PURE`` turn it off, and ckdsl runs its
sources instead of failing."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import ckdsl.turn.game
from ckdsl import native


def _record(root: Path) -> dict[str, object]:
    """A record of one compiled source, ``pkg/engine.py``, as built now."""
    source = root / "pkg" / "engine.py"
    source.parent.mkdir()
    source.write_text("X = 1\n", encoding="utf-8")
    (root / "pkg" / "engine.so").write_bytes(b"")  # found by name, never loaded here
    found = source.stat()
    return {
        "python": native.interpreter(),
        "modules": {"pkg.engine": "pkg/engine.so"},
        "sources": {"pkg/engine.py": hashlib.sha256(source.read_bytes()).hexdigest()},
        "stats": {"pkg/engine.py": [found.st_size, found.st_mtime_ns]},
    }


def _why(record: dict[str, object], root: Path) -> str | None:
    """``why_pure`` with the sources and the module files both under ``root``."""
    return native.why_pure(record, str(root), str(root))


def _built(
    tmp_path: Path, record: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> list[object]:
    """``record`` written as the build ``native.install`` looks at, its decision not yet
    made; the finders before it (``sys.meta_path`` is restored after the test)."""
    (tmp_path / "build.json").write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setattr(native, "RECORD", str(tmp_path / "build.json"))
    monkeypatch.setattr(native, "BUILD_DIR", str(tmp_path))
    monkeypatch.setattr(native, "PACKAGE_DIR", str(tmp_path / "pkg"))
    monkeypatch.setattr(native, "_STATUS", "")
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    return list(sys.meta_path)


def _later(path: Path) -> None:
    found = path.stat()
    os.utime(path, ns=(found.st_atime_ns, found.st_mtime_ns + 5_000_000_000))


@pytest.fixture(autouse=True)
def _not_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)


def test_a_build_as_built_is_used(tmp_path: Path) -> None:
    assert _why(_record(tmp_path), tmp_path) is None


def test_a_source_touched_but_the_same_is_hashed_and_used(tmp_path: Path) -> None:
    record = _record(tmp_path)
    _later(tmp_path / "pkg" / "engine.py")
    assert _why(record, tmp_path) is None


def test_a_changed_source_turns_the_build_off(tmp_path: Path) -> None:
    record = _record(tmp_path)
    source = tmp_path / "pkg" / "engine.py"
    source.write_text("X = 2\n", encoding="utf-8")  # the same size, another content
    _later(source)
    reason = _why(record, tmp_path)
    assert reason is not None and "sources changed" in reason and "pkg/engine.py" in reason


def test_a_removed_source_turns_the_build_off(tmp_path: Path) -> None:
    record = _record(tmp_path)
    (tmp_path / "pkg" / "engine.py").unlink()
    assert "pkg/engine.py" in (_why(record, tmp_path) or "")


def test_a_build_for_another_python_is_not_used(tmp_path: Path) -> None:
    record = {**_record(tmp_path), "python": "cpython-39 .cpython-39-x86_64-linux-gnu.so"}
    assert "another Python (cpython-39" in (_why(record, tmp_path) or "")


def test_a_damaged_record_is_not_used(tmp_path: Path) -> None:
    record = {**_record(tmp_path), "stats": None}
    assert "damaged" in (_why(record, tmp_path) or "")


def test_ckdsl_pure_turns_the_build_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    finders = _built(tmp_path, _record(tmp_path), monkeypatch)
    monkeypatch.setenv(native.PURE_VARIABLE, "1")
    native.install()  # a usable build, not used
    assert sys.meta_path == finders
    assert native.status() == "pure Python (CKDSL_PURE is set)"


def test_install_with_a_stale_record_offers_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    finders = _built(tmp_path, _record(tmp_path), monkeypatch)
    (tmp_path / "pkg" / "engine.py").write_text("X = 22\n", encoding="utf-8")
    native.install()
    assert sys.meta_path == finders
    assert native.status().startswith("pure Python (sources changed")
    assert not native.active()


def test_install_with_a_module_file_lost_offers_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    finders = _built(tmp_path, _record(tmp_path), monkeypatch)
    (tmp_path / "pkg" / "engine.so").unlink()
    native.install()
    assert sys.meta_path == finders
    assert native.status() == "pure Python (the compiled build lacks pkg.engine)"


def test_install_with_a_usable_record_offers_its_modules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _built(tmp_path, _record(tmp_path), monkeypatch)
    native.install()
    finder = sys.meta_path[0]
    assert isinstance(finder, native.CompiledFinder)
    spec = finder.find_spec("pkg.engine")
    assert spec is not None and spec.origin == str(tmp_path / "pkg" / "engine.so")
    assert finder.find_spec("pkg.other") is None  # everything else: Python's own finders
    assert native.status() == "compiled by mypyc (1 modules)" and native.active()


def test_the_running_package_is_the_one_reported() -> None:
    compiled = not ckdsl.turn.game.__file__.endswith(".py")
    assert native.active() == compiled
    if compiled:
        assert ckdsl.turn.game.__file__.startswith(native.BUILD_DIR)


def test_ckdsl_pure_runs_the_sources_and_says_so() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ckdsl", "--version"],
        env={**os.environ, native.PURE_VARIABLE: "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip().endswith("engine: pure Python (CKDSL_PURE is set)")
    where = subprocess.run(
        [sys.executable, "-c", "import ckdsl.turn.game as g; print(g.__file__)"],
        env={**os.environ, native.PURE_VARIABLE: "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.strip().endswith(os.path.join("ckdsl", "turn", "game.py"))


def test_an_older_build_beside_the_sources_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "_native.json").write_text("{}", encoding="utf-8")  # the old tool's record
    monkeypatch.setattr(native, "PACKAGE_DIR", str(tmp_path))
    with pytest.raises(ImportError, match=r"build_mypyc.py --pure"):
        native.install()
