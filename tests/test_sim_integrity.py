"""Results folders that cannot mix (issue 29) and record what made them (issue 28):
chunks of another experiment refused by name, compaction that never leaves a row twice,
damaged or strange manifests as clean errors, the provenance in the manifest, and a
folder of other sources told apart. Random bots and two or three games each."""

from __future__ import annotations

import json
import os
import shutil
import threading
import warnings
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.sim import provenance
from ckdsl.sim.experiment import Experiment, play_game, prepare
from ckdsl.sim.runner import run
from ckdsl.sim.store import (
    MANIFEST,
    OtherSources,
    Store,
    StoreError,
    chunk_files,
    read_manifest,
    read_results,
)

REPO = Path(__file__).resolve().parent.parent
FIFTEEN = str(REPO / "examples" / "variants" / "fifteen_points.yaml")
RANDOM4 = "random,random,random,random"


SHORT = "extends: base\noverride:\n  parameters:\n    points_to_win: {points}\n"


@pytest.fixture(autouse=True)
def short_games(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Random bots race to 5 points (or 6): short games, so the file runs in seconds."""
    global SHORT5, SHORT6
    folder = tmp_path_factory.mktemp("rules")
    for points in (5, 6):
        (folder / f"short{points}.yaml").write_text(SHORT.format(points=points))
    SHORT5, SHORT6 = str(folder / "short5.yaml"), str(folder / "short6.yaml")


SHORT5 = SHORT6 = ""


def experiment(games: int = 2, seed: int = 11, **options: Any) -> Experiment:
    players = options.pop("players", RANDOM4)
    return Experiment.single(
        options.pop("rules", SHORT5), players, games=games, seed=seed, **options
    )


def stored(out: Path, **options: Any) -> Path:
    run(experiment(**options), out, jobs=1, progress=False)
    return out


def compare_cli(*args: str) -> Any:
    return CliRunner().invoke(
        cli, ["compare", "--players", RANDOM4, "--quiet", "--jobs", "1", *args]
    )


# --- chunks of another experiment ------------------------------------------------------------


def test_a_compare_with_two_folders_chunks_swapped_is_refused_naming_the_chunk(
    tmp_path: Path,
) -> None:
    out = tmp_path / "runs"
    args = [SHORT5, SHORT6, "--games", "2", "--out", str(out), "--json"]
    assert compare_cli(*args).exit_code == 0
    [base], [variant] = chunk_files(out / "short5"), chunk_files(out / "short6")
    moved = tmp_path / "moved.parquet"
    shutil.move(base, moved)
    shutil.move(variant, base)
    shutil.move(moved, variant)
    again = compare_cli(*args)
    assert again.exit_code == 1, again.output
    assert str(base) in again.stderr and "another rule set (rules hash" in again.stderr
    assert "Traceback" not in again.output and again.stdout == ""


def test_chunks_of_another_master_seed_line_up_or_bots_are_refused(tmp_path: Path) -> None:
    home = stored(tmp_path / "home")
    cases = {
        "master seed": stored(tmp_path / "seed", seed=12),
        "other players": stored(tmp_path / "three", players="random,random,random"),
    }
    for words, other in cases.items():
        [chunk] = chunk_files(other)
        stray = home / "chunk-000900.parquet"
        shutil.copy(chunk, stray)
        with pytest.raises(StoreError, match=words) as found:
            read_results(home)
        assert str(stray) in str(found.value)
        with pytest.raises(StoreError, match=words):  # resuming refuses it too
            run(experiment(games=3), home, jobs=1, progress=False)
        stray.unlink()
    manifest = json.loads((home / MANIFEST).read_text())
    manifest["experiment"]["bot_versions"] = [["2"] * 4]
    (home / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(StoreError, match="bot versions"):
        read_results(home)


# --- compaction ------------------------------------------------------------------------------


def test_a_kill_inside_compaction_never_leaves_a_row_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the small chunks are hidden but before the merged chunk is in place,
    then after it is in place but before they are removed: a plain Parquet reader never
    sees a row twice, and the next open finishes or undoes the compaction."""
    from ckdsl.sim import store as store_module

    real_replace = os.replace

    def killed_replace(src: Any, dst: Any) -> None:
        if str(src).endswith(".tmp") and "chunk-000005" in str(dst):
            raise KeyboardInterrupt
        real_replace(src, dst)

    def killed_finish(*args: Any, **kw: Any) -> None:
        raise KeyboardInterrupt

    exp = experiment(games=4)
    spec = prepare(exp)
    for stage in ("before", "after"):
        out = tmp_path / stage
        with Store.open(out, {}, spec.identity(), games=4) as store:
            for key in exp.keys():  # noqa: SIM118 (not a dict): four chunks of a game each
                store.write([play_game(spec, key)])
            if stage == "before":  # the merged chunk is not in place yet
                monkeypatch.setattr(os, "replace", killed_replace)
            else:  # it is; the hidden chunks are not removed yet
                monkeypatch.setattr(store_module, "_finish", killed_finish)
            with pytest.raises(KeyboardInterrupt):
                store.compact()
            monkeypatch.undo()
        seen = pd.read_parquet(out) if chunk_files(out) else pd.DataFrame({"seed_index": []})
        assert len(seen) == len(set(seen["seed_index"]))  # never twice
        assert len(read_results(out)) == 4  # ckdsl's reader finishes or undoes it
        assert len(pd.read_parquet(out)) == 4
        left = [p.name for p in out.iterdir() if p.name.startswith(".compact")]
        assert not left + [p.name for p in out.iterdir() if p.name.endswith(".retired")]


# --- damaged manifests ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "ckdsl-sim-store", "version": 1, "kind": "simulate", "experiment": [], '
        '"runs": [], "columns": []}',
        '{"format": "ckdsl-sim-store", "version": 1}',
        '{"format": "ckdsl-sim-store", "version": 1, "kind": 3, "experiment": {}, "runs": 5}',
        "[" * 100000,
        "\xff\xfe not text",
    ],
    ids=["experiment-a-list", "no-experiment", "wrong-types", "nested-deep", "not-utf8"],
)
def test_a_damaged_manifest_is_an_error_naming_it_with_exit_1(tmp_path: Path, text: str) -> None:
    out = stored(tmp_path / "o")
    (out / MANIFEST).write_bytes(text.encode("latin-1"))
    for args in (["simulate", SHORT5, "--players", RANDOM4, "--games", "2", "--quiet"],
                 ["simulate"]):  # fmt: skip
        result = CliRunner().invoke(cli, [*args, "--out", str(out)])
        assert result.exit_code == 1, result.output
        assert MANIFEST in result.stderr and "Traceback" not in result.output
    with pytest.raises(StoreError, match=MANIFEST):
        read_results(out)


def test_a_fifo_in_place_of_the_manifest_is_refused_at_once(tmp_path: Path) -> None:
    out = stored(tmp_path / "o")
    (out / MANIFEST).unlink()
    os.mkfifo(out / MANIFEST)
    found: list[BaseException] = []

    def read() -> None:
        try:
            read_manifest(out)
        except StoreError as exc:
            found.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # unblock the reader so that the test process can end
        with open(os.open(out / MANIFEST, os.O_WRONLY | os.O_NONBLOCK), "w"):
            pass
        pytest.fail("reading a FIFO manifest blocked")
    assert found and "not a regular file" in str(found[0])


# --- provenance ------------------------------------------------------------------------------


def test_the_manifest_records_the_sources_versions_build_and_rule_texts(tmp_path: Path) -> None:
    out = stored(tmp_path / "o", rules=FIFTEEN, games=1)
    manifest = read_manifest(out)
    made = manifest["provenance"]
    assert made["source_digest"] == provenance.source_digest()
    assert len(made["source_digest"]) == 64
    for library in ("scipy", "statsmodels", "numpy", "pandas", "pyarrow", "matplotlib"):
        assert made["libraries"][library]  # installed here: a version
    assert made["engine"].startswith(("compiled", "pure"))
    if (REPO / ".git").exists():
        assert len(made["git"]["commit"]) == 40
    texts = {f["path"]: f["text"] for f in manifest["rule_files"]}
    assert texts[FIFTEEN] == Path(FIFTEEN).read_text(encoding="utf-8")  # the variant
    assert "<ckdsl>/rules/base/game.yaml" in texts  # and its parent, the base rules
    assert manifest["runs"][0]["source_digest"] == made["source_digest"]


def test_a_folder_of_other_sources_is_named_when_read_and_refused_when_extended(
    tmp_path: Path,
) -> None:
    out = stored(tmp_path / "o")
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["provenance"]["source_digest"] = "ab" * 32
    (out / MANIFEST).write_text(json.dumps(manifest))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert len(read_results(out)) == 2
    [warning] = [w for w in caught if issubclass(w.category, OtherSources)]
    here = provenance.source_digest()[:12]
    assert "abababababab" in str(warning.message) and here in str(warning.message)

    def simulate(games: str) -> Any:
        args = ["simulate", SHORT5, "--players", RANDOM4, "--games", games, "--seed", "11"]
        return CliRunner().invoke(cli, [*args, "--out", str(out)])

    with pytest.warns(OtherSources, match="abababababab"):  # nothing to add: read, warned
        assert simulate("2").exit_code == 0
    more = simulate("3")  # games of these sources would join it: refused
    assert more.exit_code == 1
    assert "other ckdsl sources" in more.stderr and "abababababab" in more.stderr
    with pytest.warns(OtherSources):
        assert len(read_results(out)) == 2
    assert "--games 3" not in (out / MANIFEST).read_text()
