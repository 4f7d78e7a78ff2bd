"""The cache on disk (``ckdsl.rules.disk``): a second start loads what the first compiled.

Each test points ``XDG_CACHE_HOME`` at a folder of its own and empties the per-process
caches between loads, so that what is served comes from the disk (or not). How much is
compiled is counted by wrapping the loader and the compiler: no timing.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import ckdsl.session as session
from ckdsl.bots import RandomBot
from ckdsl.bots.heuristic import HeuristicBot
from ckdsl.diagnostics import CkdslError
from ckdsl.dsl import parsed
from ckdsl.dsl import program as dsl_program
from ckdsl.l10n import catalog, plural
from ckdsl.paths import base_rules_dir
from ckdsl.rules import disk, schemas
from ckdsl.session import GameSetup, load_board, load_rules, play, start

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples" / "variants").glob("*.yaml"))

VARIANT = """extends: {parent}
override:
  parameters:
    points_to_win: {points}
"""


def _forget() -> None:
    """Empty every per-process cache, as a process ends (storing what it keeps at its end)
    and a new one starts."""
    disk.store_pending()
    session._RULES.clear()
    session._BOARDS.clear()
    catalog._SHOWN.clear()
    catalog._LOCALE_FILES.clear()
    plural._table.cache_clear()
    schemas._VALID.clear()
    schemas._LOADED.clear()
    parsed._TREES.clear()
    parsed._STATE.update(loaded=False, changed=False)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of the test's own (``<home>/ckdsl``), empty, in use."""
    _forget()  # (what earlier tests left to store at the end: stored where they ran)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("CKDSL_NO_CACHE", raising=False)
    yield tmp_path / "xdg" / "ckdsl"
    _forget()


class Counts:
    """How often the rule files were loaded and checked, and the programs compiled."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.loads = 0
        self.compiles = 0
        load, compile_ = dsl_program.load_ruleset, dsl_program._compile_programs

        def counted_load(*args: Any, **kwargs: Any) -> Any:
            self.loads += 1
            return load(*args, **kwargs)

        def counted_compile(*args: Any, **kwargs: Any) -> Any:
            self.compiles += 1
            return compile_(*args, **kwargs)

        monkeypatch.setattr(session, "load_ruleset", counted_load)
        monkeypatch.setattr(dsl_program, "_compile_programs", counted_compile)


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> Counts:
    return Counts(monkeypatch)


def _entries(folder: Path, kind: str) -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.pickle"))


def _load_again(target: str) -> session.LoadedRules:
    """``load_rules`` as a new process would run it."""
    _forget()
    return load_rules(target)


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


# --- hits and misses ----------------------------------------------------------------------


def test_the_second_load_is_served_from_the_cache(home: Path, counts: Counts) -> None:
    first = load_rules("base")
    assert (counts.loads, counts.compiles) == (1, 1)
    assert len(_entries(home, "rules")) == 1 and len(_entries(home, "programs")) == 1
    again = _load_again("base")
    assert (counts.loads, counts.compiles) == (1, 1)  # nothing read, checked or compiled
    assert again is not first
    assert again.ruleset.hash == first.ruleset.hash
    assert again.ruleset.data == first.ruleset.data
    assert again.ruleset.layers == first.ruleset.layers
    assert again.compiled.ruleset_hash == first.compiled.ruleset_hash
    programs = again.compiled.programs
    assert programs.python and programs.hook_code and programs.opening_code
    assert set(programs.cards) == set(first.compiled.programs.cards)
    # the stamps are fresh ones of the same files: an edit is still seen in this process
    assert [s.path for s in again.ruleset.sources] == [s.path for s in first.ruleset.sources]
    assert all(s.current() for s in again.ruleset.sources)


def test_a_map_and_a_locale_are_served_from_the_cache(home: Path) -> None:
    spec, topology = load_board("standard")
    names = catalog.load_catalog("pl").name("resources", "brick")
    assert {p.name.split("-")[0] for p in home.glob("*.pickle")} >= {"board", "locale"}
    _forget()
    before = dict(disk.COUNTS)
    spec2, topology2 = load_board("standard")
    assert catalog.load_catalog("pl").name("resources", "brick") == names
    assert disk.COUNTS["board", "hit"] == before.get(("board", "hit"), 0) + 1
    assert disk.COUNTS["locale", "hit"] >= before.get(("locale", "hit"), 0) + 2  # pl, en
    assert spec2 == spec and topology2.edge_ends == topology.edge_ends


def test_an_edited_variant_misses_the_cache(home: Path, tmp_path: Path, counts: Counts) -> None:
    variant = tmp_path / "v.yaml"
    _write(variant, VARIANT.format(parent="base", points=15))
    assert load_rules(str(variant)).compiled.param("points_to_win") == 15
    assert _load_again(str(variant)).compiled.param("points_to_win") == 15
    assert counts.loads == 1
    _write(variant, VARIANT.format(parent="base", points=12))  # same size
    os.utime(variant, ns=(0, 0))  # and a time that says nothing: only the content tells
    assert _load_again(str(variant)).compiled.param("points_to_win") == 12
    assert counts.loads == 2
    assert _load_again(str(variant)).compiled.param("points_to_win") == 12
    assert counts.loads == 2


def test_an_edited_parent_of_a_variant_misses_the_cache(
    home: Path, tmp_path: Path, counts: Counts
) -> None:
    parent, child = tmp_path / "parent.yaml", tmp_path / "child.yaml"
    _write(parent, VARIANT.format(parent="base", points=15))
    _write(child, "extends: parent.yaml\ndescription: what the parent says.\n")
    assert load_rules(str(child)).compiled.param("points_to_win") == 15
    _write(parent, VARIANT.format(parent="base", points=14))
    assert _load_again(str(child)).compiled.param("points_to_win") == 14
    assert counts.loads == 2


def test_an_edited_rule_folder_misses_the_cache(
    home: Path, rules_copy: Callable[..., Path], tmp_path: Path, counts: Counts
) -> None:
    folder = rules_copy()
    variant = tmp_path / "v.yaml"
    _write(variant, "extends: rules\ndescription: the copied folder as it is.\n")
    for target in (str(folder), str(variant)):
        assert load_rules(target).compiled.param("points_to_win") == 13
        assert _load_again(target).compiled.param("points_to_win") == 13
    assert counts.loads == 2
    game = folder / "game.yaml"
    _write(game, game.read_text(encoding="utf-8").replace("points_to_win: 13", "points_to_win: 10"))
    for target in (str(folder), str(variant)):
        assert _load_again(target).compiled.param("points_to_win") == 10
    assert counts.loads == 4
    # a file added to the folder changes its listing: that is a miss too
    _write(folder / "zz_extra.yaml", "parameters:\n  points_to_win: 9\n")
    with pytest.raises(CkdslError, match="'points_to_win' is defined twice"):
        _load_again(str(folder))


def test_a_change_of_ckdsl_misses_the_cache(
    home: Path, counts: Counts, monkeypatch: pytest.MonkeyPatch
) -> None:
    load_rules("base")
    monkeypatch.setattr(disk, "code_digest", lambda: "another ckdsl")
    _load_again("base")
    assert (counts.loads, counts.compiles) == (2, 2)


def test_the_code_digest_covers_the_package_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "ckdsl"
    (package / "dsl").mkdir(parents=True)
    source = package / "dsl" / "vocabulary.py"
    _write(source, "X = 1\n")
    monkeypatch.setattr(disk, "package_dir", lambda: package)

    def digest() -> str:
        disk.code_digest.cache_clear()
        return disk.code_digest()

    try:
        first = digest()
        assert digest() == first
        _write(source, "X = 2\n")
        assert digest() != first
    finally:
        disk.code_digest.cache_clear()


def test_the_code_digest_is_kept_under_the_stat_of_its_files(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start reads the digest of ckdsl's source from the cache folder while no file of
    it changed (size, time, inode); any change is read and hashed again, and a file
    changed just now (its time may not tell the next edit) never lets the digest be kept."""
    package = tmp_path / "ckdsl"
    package.mkdir()
    source = package / "game.py"
    _write(source, "X = 1\n")
    past = time.time_ns() - 10 * 10**9
    os.utime(source, ns=(past, past))
    monkeypatch.setattr(disk, "package_dir", lambda: package)
    reads: list[int] = []
    read = disk._code_digest
    monkeypatch.setattr(disk, "_code_digest", lambda *a: reads.append(1) or read(*a))

    def digest() -> str:
        disk.code_digest.cache_clear()
        return disk.code_digest()

    try:
        first = digest()
        assert digest() == first and len(reads) == 1  # the second from the cache folder
        assert len(list(home.glob("code-*.digest"))) == 1
        _write(source, "X = 2\n")  # the same size
        os.utime(source, ns=(past, past + 1))
        second = digest()
        assert second != first and len(reads) == 2
        assert digest() == second and len(reads) == 2
        _write(source, "X = 3\n")  # just now: read each time until it is older
        assert digest() not in (first, second) and len(reads) == 3
        assert digest() and len(reads) == 4
        monkeypatch.setenv("CKDSL_NO_CACHE", "1")  # no folder: always read
        assert digest() and len(reads) == 5
    finally:
        disk.code_digest.cache_clear()


def test_a_rule_set_with_errors_is_never_stored(
    home: Path, rules_copy: Callable[..., Path], counts: Counts
) -> None:
    folder = rules_copy({"game.yaml": [("points_to_win: 13", "points_to_win: many")]})
    for _ in range(2):
        with pytest.raises(CkdslError, match="points_to_win"):
            _load_again(str(folder))
    assert counts.loads == 2
    assert _entries(home, "rules") == [] and _entries(home, "programs") == []


# --- broken entries, no folder, no cache ----------------------------------------------------


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data[:20],  # the header cut short
        lambda data: b"",
        lambda data: b"not a pickle at all" * 100,
        lambda data: data[:-100] + bytes(100),  # the end overwritten
        lambda data: data.replace(b"ckdsl.rules.ruleset", b"ckdsl.rules.rul3set"),
    ],
    ids=["truncated", "header", "empty", "garbage", "zeroed-end", "unknown-module"],
)
def test_a_corrupt_entry_is_ignored_and_rewritten(
    home: Path, counts: Counts, damage: Callable[[bytes], bytes]
) -> None:
    reference = load_rules("base")
    [entry] = _entries(home, "rules")
    entry.write_bytes(damage(entry.read_bytes()))
    again = _load_again("base")  # no traceback: read and compiled again
    assert counts.loads == 2
    assert again.ruleset.hash == reference.ruleset.hash
    assert _entries(home, "rules") == [entry]
    _load_again("base")  # and the rewritten entry is served
    assert counts.loads == 2


def test_without_a_writable_folder_nothing_is_cached_and_all_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counts: Counts
) -> None:
    not_a_folder = tmp_path / "file"
    _write(not_a_folder, "a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_folder))
    monkeypatch.delenv("CKDSL_NO_CACHE", raising=False)
    _forget()
    try:
        assert _load_again("base").compiled.param("points_to_win") == 13
        assert _load_again("base").compiled.param("points_to_win") == 13
        assert counts.loads == 2
        assert load_board("standard")[0].name == "standard"
        assert catalog.load_catalog("fr").language == "fr"
    finally:
        _forget()
    assert not_a_folder.is_file()


def test_a_folder_that_refuses_the_write_is_no_error(
    home: Path, counts: Counts, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError("read-only")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    assert load_rules("base").compiled.param("points_to_win") == 13
    assert _load_again("base").compiled.param("points_to_win") == 13
    assert counts.loads == 2
    assert list(home.glob("*.pickle")) == [] and list(home.glob(".*")) == []
    monkeypatch.undo()
    monkeypatch.setattr(os, "replace", refuse)  # written, but not put in place
    monkeypatch.setenv("XDG_CACHE_HOME", str(home.parent))
    _load_again("base")
    assert list(home.glob("*.pickle")) == [] and list(home.glob(".*")) == []  # cleaned up


def test_no_cache_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, counts: Counts
) -> None:
    from ckdsl.validate import validate_paths

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CKDSL_NO_CACHE", "1")
    _forget()
    try:
        game = start(GameSetup(seed=3))
        play(game, [RandomBot(p) for p in range(4)])
        catalog.load_catalog("pl")
        assert validate_paths([]).ok
        _load_again("base")
        assert counts.loads == 2
    finally:
        _forget()
    assert not (tmp_path / "xdg").exists() or list((tmp_path / "xdg").rglob("*")) == []


# --- the same rules, the same games ---------------------------------------------------------


def _games(rules: str, seeds: range, heuristic: bool = False) -> list[tuple[Any, ...]]:
    out = []
    for seed in seeds:
        game = start(GameSetup(rules=rules, seed=seed, players=4))
        bots = [HeuristicBot(seed * 10 + p) if heuristic else RandomBot(seed * 10 + p)
                for p in range(4)]  # fmt: skip
        play(game, bots)
        events = json.dumps(game.events, sort_keys=True, default=list)
        out.append((game.history, game.state.digest(), events))
    return out


def test_games_from_cached_rules_are_the_games_from_compiled_rules(
    home: Path, counts: Counts
) -> None:
    fresh = _games("base", range(1, 4)) + _games("base", range(1, 2), heuristic=True)
    assert counts.compiles == 1
    _forget()
    cached = _games("base", range(1, 4)) + _games("base", range(1, 2), heuristic=True)
    assert (counts.loads, counts.compiles) == (1, 1)  # served from the disk
    assert cached == fresh


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_variant_plays_the_same_from_the_cache(
    home: Path, counts: Counts, path: Path, example_table: Callable[[Path], tuple[int, str]]
) -> None:
    players, map_name = example_table(path)
    setup = GameSetup(rules=str(path), map=map_name, players=players, seed=5)

    def game() -> tuple[Any, ...]:
        g = start(setup)
        play(g, [RandomBot(50 + p) for p in range(players)])
        return g.history, g.state.digest(), json.dumps(g.events, sort_keys=True, default=list)

    _forget()
    fresh = game()
    loads = counts.loads
    _forget()
    assert game() == fresh
    assert counts.loads == loads  # the second came from the disk


def test_a_worker_compiles_a_rule_set_once(home: Path, counts: Counts) -> None:
    """The workers of an experiment get the rule set's data, not its files: its programs
    are cached by the data's hash."""
    from ckdsl.rules.positions import Positions
    from ckdsl.rules.ruleset import RuleSet

    ruleset = load_rules("base").ruleset
    assert counts.compiles == 1
    again = RuleSet(ruleset.name, json.loads(json.dumps(ruleset.data)), Positions(), [])
    _forget()
    programs = dsl_program.compile_programs(again)
    assert counts.compiles == 1 and programs.python
    changed = json.loads(json.dumps(ruleset.data))
    changed["parameters"]["points_to_win"] = 11
    dsl_program.compile_programs(RuleSet("other", changed, Positions(), []))
    assert counts.compiles == 2


def test_closures_and_python_are_cached_apart(home: Path) -> None:
    from ckdsl.dsl.compiler.pycode import closures_only

    assert load_rules("base").compiled.programs.python
    with closures_only():
        plain = _load_again("base").compiled.programs
    assert not plain.python and not plain.hook_code
    assert _load_again("base").compiled.programs.python


# --- what validation remembers ----------------------------------------------------------------


def test_a_text_is_parsed_once(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ckdsl.dsl import parser

    calls: list[str] = []
    real = parser.parse

    def counted(text: str) -> Any:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(parser, "parse", counted)
    tree = parsed.parse("gain 1 grain")
    assert calls == ["gain 1 grain"]
    parsed.save()
    _forget()
    assert parsed.parse("gain 1 grain") == tree
    assert calls == ["gain 1 grain"]  # from the disk, not from Lark
    for _ in range(2):  # a syntax error is found every time
        with pytest.raises(Exception, match="expected"):
            parsed.parse("gain 1 grain:")
    assert calls.count("gain 1 grain:") == 2


def test_a_growing_table_is_written_when_the_process_ends(home: Path) -> None:
    """The documents found valid are kept on disk once, at the end, not rewritten whole
    for each new one (a sweep adds hundreds)."""
    from ckdsl.rules.positions import Positions

    for language in ("en", "fr", "pl"):
        assert schemas.validate({"language": language, "names": {}}, Positions(), "locale") == []
    assert _entries(home, "valid") == []
    disk.store_pending()  # (what the interpreter's exit runs)
    assert len(_entries(home, "valid")) == 1
    found = disk.load("valid", "schema")
    assert found is not None and len(found[0]) == 3


def test_only_valid_documents_are_remembered(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ckdsl.rules.positions import Positions

    checked: list[object] = []
    real = schemas._validator

    def counted(kind: str) -> Any:
        checked.append(kind)
        return real(kind)

    monkeypatch.setattr(schemas, "_validator", counted)
    good: dict[str, object] = {"language": "en", "names": {}}
    bad: dict[str, object] = {"language": "en", "nmaes": {}}
    assert schemas.validate(good, Positions(), "locale") == []
    errors = schemas.validate(bad, Positions(), "locale")
    assert "unknown key 'nmaes'" in errors[0].message
    _forget()
    assert schemas.validate(good, Positions(), "locale") == []  # remembered: not checked
    assert schemas.validate(bad, Positions(), "locale") == errors  # checked again
    assert (
        schemas.validate({"language": "en", "names": 1}, Positions(), "locale") != []
    )  # all of it
    assert checked == ["locale", "locale", "locale", "locale"]
    # the same data is not valid under another schema because it was under this one
    assert schemas.validate(good, Positions(), "map") != []
    # what is remembered is all of the data, each value with its type
    assert len({schemas._verdict(v, "locale") for v in ([1], (1,), [True], [1.0], ["1"])}) == 5


def test_validate_reports_the_same_from_a_warm_cache(
    home: Path, rules_copy: Callable[..., Path]
) -> None:
    from ckdsl.validate import validate_paths

    broken = rules_copy({"progress.yaml": [("count: 2", "count: two")]})
    paths = [base_rules_dir(), broken, REPO / "rules" / "locales", *EXAMPLES]
    cold = validate_paths(paths)
    _forget()
    warm = validate_paths(paths)
    assert [d.format() for d in warm.sorted()] == [d.format() for d in cold.sorted()]
    assert warm.checked == cold.checked
    assert not warm.ok and any("two" in d.message for d in warm.diagnostics)


def test_the_cache_keeps_a_bounded_number_of_entries(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(disk, "KEEP", 3)
    for points in range(10, 16):
        variant = tmp_path / f"v{points}.yaml"
        _write(variant, VARIANT.format(parent="base", points=points))
        load_rules(str(variant))
    assert len(_entries(home, "rules")) == 3


def test_an_entry_is_written_whole(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader sees the old entry or the new one, never half of one: written aside,
    then put in place with one rename."""
    renames: list[tuple[str, str, bytes]] = []
    real = os.replace

    def watched(src: str, dst: str) -> None:
        renames.append((os.path.basename(src), os.path.basename(dst), Path(src).read_bytes()))
        real(src, dst)

    monkeypatch.setattr(os, "replace", watched)
    load_rules("base")
    [entry] = _entries(home, "rules")
    [(src, _, data)] = [r for r in renames if r[1] == entry.name]
    assert src.startswith(".") and data == entry.read_bytes()  # complete before the rename
    assert not list(home.glob(".*"))  # no temporary file left behind
    shutil.rmtree(home)
    _load_again("base")  # the folder is made again
    assert _entries(home, "rules")
