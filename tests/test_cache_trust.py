"""The cache on disk trusts no one (issue 29): its entries are pickles, which run code
when read, so a folder of another user's or one others may write in is not used (said
once), an entry is unpickled only once its checksum matches (a damaged one is a miss and
is written again), and a FIFO or a device in the cache's place is a miss, not a hang."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ckdsl import paths
from ckdsl.rules import disk

TABLE = ("one", "other", "other")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of the test's own, in use."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CKDSL_NO_CACHE", raising=False)
    monkeypatch.setattr(paths, "_WARNED", set())
    disk.store("plural", "test", (), TABLE)
    assert disk.load("plural", "test") == (TABLE, ())
    yield tmp_path / "xdg" / "ckdsl"


def entry(kind: str = "plural", key: str = "test") -> Path:
    found = disk._entry(kind, key)
    assert found is not None
    return found


def test_a_new_cache_folder_is_private(home: Path) -> None:
    assert home.stat().st_mode & 0o777 == 0o700


@pytest.mark.skipif(os.name == "nt", reason="no owner nor mode bits")
def test_a_folder_others_may_write_in_is_not_used_and_said_once(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home.chmod(0o777)  # anyone could have put an entry there
    assert disk.load("plural", "test") is None
    assert disk.load("plural", "test") is None
    disk.store("plural", "other", (), TABLE)  # nor written
    assert not list(home.glob("plural-*.pickle"))[1:]
    err = capsys.readouterr().err
    assert err.count("not using the cache folder") == 1 and "others may write" in err
    home.chmod(0o755)
    assert disk.load("plural", "test") == (TABLE, ())


@pytest.mark.skipif(os.name == "nt", reason="no owner nor mode bits")
def test_a_folder_of_another_user_is_not_used(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    assert disk.load("plural", "test") is None
    assert "belongs to another user" in capsys.readouterr().err


def test_a_damaged_entry_is_a_miss_and_written_again(home: Path) -> None:
    """Damage that still unpickles (here, to another table) is caught by the checksum;
    damage in a code object would crash the interpreter on every run."""
    data = entry().read_bytes()
    assert data.count(b"other") == 1
    entry().write_bytes(data.replace(b"other", b"OTHER"))
    assert disk.load("plural", "test") is None
    disk.store("plural", "test", (), TABLE)
    assert disk.load("plural", "test") == (TABLE, ())


def _returns_soon(call: object) -> list[object]:
    """``call()``'s result, asserting it comes within 5 s (a blocked read would not)."""
    found: list[object] = []
    thread = threading.Thread(target=lambda: found.append(call()), daemon=True)  # type: ignore[operator]
    thread.start()
    thread.join(5)
    assert not thread.is_alive(), "blocked"
    return found


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_the_cache_is_a_miss_not_a_hang(home: Path) -> None:
    entry().unlink()
    os.mkfifo(entry())
    assert _returns_soon(lambda: disk.load("plural", "test")) == [None]
    memo = disk._memo_file()
    assert memo is not None
    memo.unlink(missing_ok=True)
    os.mkfifo(memo)
    disk.code_digest.cache_clear()
    try:
        assert len(str(_returns_soon(disk.code_digest)[0])) == 64
    finally:
        disk.code_digest.cache_clear()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_in_the_cache_is_a_miss(home: Path) -> None:
    entry().unlink()
    entry().symlink_to("/dev/zero")  # endless: read whole, it would take all the memory
    assert _returns_soon(lambda: disk.load("plural", "test")) == [None]
