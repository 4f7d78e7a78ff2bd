"""The per-process caches serve a file's content, not its name: an edit is seen on the next load.

``session.load_rules``/``load_board`` and the bots' ``load_weights`` are cached so that many
games share one load; these tests edit the files in between, in the same process, and
expect the new content. Edits keep the file's size (and, in the racy tests, its mtime),
so only the content can tell the versions apart.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType

import pytest

from ckdsl.bots.weights import load_weights
from ckdsl.diagnostics import CkdslError
from ckdsl.paths import rules_dir
from ckdsl.session import GameSetup, load_board, load_rules, start
from ckdsl.stamps import RACY_NS, Stamp, StampedCache

VARIANT = """extends: {parent}
override:
  parameters:
    points_to_win: {points}
"""


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def _settle(path: Path, age_s: int = 3600) -> None:
    """Give ``path`` an old mtime, as a file that was not edited just now has."""
    old = time.time_ns() - age_s * 1_000_000_000
    os.utime(path, ns=(old, old))


def test_an_edited_variant_is_reloaded(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    _write(variant, VARIANT.format(parent="base", points=15))
    first = load_rules(str(variant))
    assert first.compiled.param("points_to_win") == 15
    assert load_rules(str(variant)) is first  # unchanged: served from the cache
    _write(variant, VARIANT.format(parent="base", points=12))  # same size, maybe same mtime
    again = load_rules(str(variant))
    assert again.compiled.param("points_to_win") == 12
    assert again.ruleset.hash != first.ruleset.hash
    # A game started from the same setup plays the new rules.
    game = start(GameSetup(rules=str(variant), seed=1), log=False)
    assert game.rules.param("points_to_win") == 12


def test_an_edit_with_the_same_mtime_and_size_is_seen(tmp_path: Path) -> None:
    # Two saves within one mtime tick: only the content differs (git's "racily clean").
    variant = tmp_path / "v.yaml"
    _write(variant, VARIANT.format(parent="base", points=15))
    stat = variant.stat()
    assert load_rules(str(variant)).compiled.param("points_to_win") == 15
    _write(variant, VARIANT.format(parent="base", points=11))
    os.utime(variant, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert variant.stat().st_size == stat.st_size
    assert load_rules(str(variant)).compiled.param("points_to_win") == 11


def test_an_edit_of_a_parent_variant_is_seen(tmp_path: Path) -> None:
    parent, child = tmp_path / "parent.yaml", tmp_path / "child.yaml"
    _write(parent, VARIANT.format(parent="base", points=15))
    _write(child, "extends: parent.yaml\ndescription: only what the parent says.\n")
    assert load_rules(str(child)).compiled.param("points_to_win") == 15
    _write(parent, VARIANT.format(parent="base", points=14))
    assert load_rules(str(child)).compiled.param("points_to_win") == 14


def test_an_edit_of_a_rule_folder_is_seen(rules_copy: Callable[..., Path], tmp_path: Path) -> None:
    folder = rules_copy()
    variant = tmp_path / "v.yaml"
    _write(variant, "extends: rules\ndescription: the copied folder as it is.\n")
    for target in (str(folder), str(variant)):
        assert load_rules(target).compiled.param("points_to_win") == 13
    game = folder / "game.yaml"
    _write(game, game.read_text(encoding="utf-8").replace("points_to_win: 13", "points_to_win: 10"))
    for target in (str(folder), str(variant)):
        assert load_rules(target).compiled.param("points_to_win") == 10


def test_a_file_added_to_a_rule_folder_is_seen(rules_copy: Callable[..., Path]) -> None:
    folder = rules_copy()
    assert load_rules(str(folder)).compiled.param("points_to_win") == 13
    _write(folder / "zz_extra.yaml", "parameters:\n  points_to_win: 9\n")
    with pytest.raises(CkdslError, match="'points_to_win' is defined twice"):
        load_rules(str(folder))
    (folder / "zz_extra.yaml").unlink()
    assert load_rules(str(folder)).compiled.param("points_to_win") == 13


def test_an_edited_locale_is_reloaded(tmp_path: Path) -> None:
    """Locale files are read once while unchanged (validate compares every language with
    English), and read again once edited."""
    from ckdsl.l10n.catalog import load_locale_file

    file = tmp_path / "en.yaml"
    shutil.copy(rules_dir() / "locales" / "en.yaml", file)
    first, _ = load_locale_file(file)
    again, _ = load_locale_file(file)
    assert first is not None and again is first
    text = file.read_text(encoding="utf-8")
    _write(file, text.replace("language: en", "language: fr", 1))
    edited, problems = load_locale_file(file)
    assert edited is not first and any("must agree" in p.message for p in problems)


def test_an_edited_map_is_reloaded(tmp_path: Path) -> None:
    map_file = tmp_path / "board.yaml"
    shutil.copy(rules_dir() / "maps" / "standard.yaml", map_file)
    spec, _ = load_board(str(map_file))
    assert spec.name == "standard"
    assert load_board(str(map_file))[0] is spec
    text = map_file.read_text(encoding="utf-8")
    _write(map_file, text.replace("name: standard", "name: standart", 1))
    assert load_board(str(map_file))[0].name == "standart"


def test_edited_bot_weights_are_reloaded(tmp_path: Path) -> None:
    weights = tmp_path / "w.yaml"
    text = (rules_dir() / "bots" / "heuristic.yaml").read_text(encoding="utf-8")
    assert "\n  points: 100\n" in text
    _write(weights, text)
    assert load_weights(str(weights)).points == 100
    _write(weights, text.replace("\n  points: 100\n", "\n  points: 101\n", 1))
    assert load_weights(str(weights)).points == 101


def test_a_settled_file_is_trusted_on_its_stamp_alone(tmp_path: Path) -> None:
    # An old mtime cannot be repeated by a new edit, so no digest is kept or compared.
    file = tmp_path / "f.yaml"
    _write(file, "a: 1\n")
    _settle(file)
    stamp = Stamp.of(file)
    assert stamp.digest is None and stamp.current()
    _write(file, "a: 2\n")  # a real edit gets a new mtime
    assert not stamp.current()


def test_a_recent_file_keeps_a_digest(tmp_path: Path) -> None:
    file = tmp_path / "f.yaml"
    _write(file, "a: 1\n")
    stamp = Stamp.of(file)
    assert stamp.digest is not None and stamp.current()
    before = file.stat()
    _write(file, "a: 2\n")
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert not stamp.current()
    assert time.time_ns() - before.st_mtime_ns < RACY_NS


def test_a_removed_file_is_not_current(tmp_path: Path) -> None:
    file = tmp_path / "f.yaml"
    _write(file, "a: 1\n")
    stamp = Stamp.of(file)
    file.unlink()
    assert not stamp.current()


def test_the_cache_is_bounded_and_caches_no_failure(tmp_path: Path) -> None:
    cache: StampedCache[int, int] = StampedCache(maxsize=2)
    file = tmp_path / "f"
    _write(file, "x")
    loads: list[int] = []

    def load(n: int) -> Callable[[], tuple[int, tuple[Stamp, ...]]]:
        def run() -> tuple[int, tuple[Stamp, ...]]:
            loads.append(n)
            return n * 10, (Stamp.of(file),)

        return run

    assert [cache.get(n, load(n)) for n in (1, 2, 1, 3)] == [10, 20, 10, 30]
    assert loads == [1, 2, 3] and len(cache) == 2  # 2 was the least recently used
    cache.get(2, load(2))
    assert loads == [1, 2, 3, 2]

    def fail() -> tuple[int, tuple[Stamp, ...]]:
        raise ValueError("broken")

    for _ in range(2):
        with pytest.raises(ValueError, match="broken"):
            cache.get(9, fail)
    assert len(cache) == 2


def test_compiled_rules_cannot_be_changed_by_a_game() -> None:
    """Every game shares its rule set's compiled rules: a game (or a bot, or a test) that
    tries to change them is stopped, so no game's change can leak into another's."""
    one = start(GameSetup(seed=1))
    two = start(GameSetup(seed=2))
    assert one.rules is two.rules
    rules = one.rules
    for name in ("costs", "supply", "points", "params", "good_index", "production", "cards"):
        assert isinstance(getattr(rules, name), MappingProxyType), name
    with pytest.raises(TypeError):
        rules.costs["road"] = ()  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.params["points_to_win"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        rules.production["fields"]["city"] = rules.production["hills"]["city"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        rules.params["player_colours"].append("pink")  # a tuple now
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.barbarian_track = 1  # type: ignore[misc]
    # and the compiled programs: hooks, conditions, cards, their code
    programs = rules.programs
    for name in ("cards", "abilities", "hooks", "allow", "actions", "openings", "hook_code"):
        assert isinstance(getattr(programs, name), MappingProxyType), name
    with pytest.raises(TypeError):
        programs.hooks["seven"] = programs.hooks["production"]  # type: ignore[index]
    with pytest.raises(TypeError):
        programs.allow["robber"] = programs.allow["promote"]  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        programs.hooks["seven"].code = ()  # type: ignore[misc]
    assert two.rules.param("points_to_win") == 13
