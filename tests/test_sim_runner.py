"""``ckdsl simulate``, the experiment runner and the results store: rows and schema,
determinism across executors, pairing, resuming, SIGKILL, refusals, Dask.

Random bots and a few games each, so that the file runs in well under a minute."""

from __future__ import annotations

import json
import os
import pickle
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from ckdsl import native
from ckdsl.bots import RandomBot, bot_seed
from ckdsl.bots.base import _REGISTRY, BotInfo, bot_info
from ckdsl.cli import cli
from ckdsl.diagnostics import CkdslError
from ckdsl.session import GameSetup, play, start
from ckdsl.sim.experiment import (
    Experiment,
    game_seed,
    play_game,
    prepare,
    seat_positions,
    start_game,
)
from ckdsl.sim.experiment import prepared as ready_spec
from ckdsl.sim.metrics import METRIC_COLUMNS
from ckdsl.sim.runner import batch_size, run, simulate
from ckdsl.sim.store import (
    MANIFEST,
    Store,
    StoreError,
    chunk_files,
    read_manifest,
    read_results,
    read_table,
    schema,
)
from ckdsl.sim.summary import format_summary, summarize

REPO = Path(__file__).resolve().parent.parent
FIFTEEN = str(REPO / "examples" / "variants" / "fifteen_points.yaml")
RANDOM4 = "random,random,random,random"
KEYS = ["seed_index", "lineup", "rotation"]


def experiment(games: int = 4, seed: int = 11, **options: Any) -> Experiment:
    return Experiment.single(
        options.pop("rules", "base"), RANDOM4, games=games, seed=seed, **options
    )


def rows(out: Path) -> list[dict[str, Any]]:
    """The stored rows without the wall-time column (the only one that may vary)."""
    return read_table(out).drop_columns(["seconds"]).to_pylist()


def simulate_cli(*args: str) -> Any:
    return CliRunner().invoke(cli, ["simulate", "--players", RANDOM4, "--quiet", *args])


# --- rows and schema -------------------------------------------------------------------


def test_a_run_stores_one_row_per_game_with_the_schema(tmp_path: Path) -> None:
    exp = experiment(games=5, seed=3)
    result = run(exp, tmp_path / "out", jobs=1, progress=False)
    assert (result.requested, result.stored_before, result.played) == (5, 0, 5)
    table = read_table(tmp_path / "out")
    assert table.num_rows == 5
    assert table.schema.equals(schema(), check_metadata=False)
    got = table.to_pylist()
    assert [r["seed_index"] for r in got] == [0, 1, 2, 3, 4]
    for row in got:
        assert row["seed"] == game_seed(3, row["seed_index"])
        assert row["bots"] == ["random"] * 4 and row["bot_versions"] == ["1"] * 4
        assert row["finished"] == (row["winner_seat"] >= 0)
        assert (row["winner_bot"] is None) == (row["winner_seat"] < 0)
        assert len(row["points"]) == 4 and row["turns"] > 0 and row["decisions"] > 0
        assert row["seconds"] > 0 and row["rules"] == "base"
        assert row["rules_hash"] == prepare(exp).rules_hash
    names = [c.name for c in METRIC_COLUMNS]  # every metric column is in the schema, filled
    assert names and set(names) <= set(table.column_names)
    assert all(row["vp_trajectory"] for row in got)
    # anyone can read the folder: the manifest and hidden files are skipped
    import pandas as pd

    assert len(pd.read_parquet(tmp_path / "out")) == 5
    manifest = read_manifest(tmp_path / "out")
    assert manifest["experiment"]["master_seed"] == 3
    assert manifest["experiment"]["lineups"] == [["random"] * 4]
    assert manifest["packages"]["pyarrow"] == pa.__version__
    assert manifest["runs"][0]["engine"] == native.status()  # compiled or pure, and why


def test_a_row_is_the_game_session_plays_with_the_same_seed(tmp_path: Path) -> None:
    """The runner starts games as ``ckdsl.session`` does: same seed, same bots, same game."""
    exp = experiment(games=2, seed=8)
    run(exp, tmp_path, jobs=1, progress=False)
    for row in rows(tmp_path):
        game = start(GameSetup(seed=row["seed"]), log=False)
        play(game, [RandomBot(bot_seed(row["seed"], s)) for s in range(4)])
        assert row["turns"] == game.state.turn
        assert row["decisions"] == len(game.history)
        assert row["points"] == [p.points for p in game.state.players]


def test_rotations_of_identical_bots_are_other_games_and_play_replays_each(
    tmp_path: Path,
) -> None:
    """Each bot's stream follows its place in the line-up: rotating four identical bots
    plays four games, and ``ckdsl play --rotation R`` plays rotation R again."""
    exp = experiment(games=1, seed=5, rotate=True)
    run(exp, tmp_path, jobs=1, progress=False)
    got = rows(tmp_path)
    assert len({(r["decisions"], tuple(r["points"])) for r in got}) == 4
    for row in got:
        seed, rotation = row["seed"], row["rotation"]
        args = ["play", "--players", RANDOM4, "--seed", str(seed), "--rotation", str(rotation)]
        played = json.loads(CliRunner().invoke(cli, [*args, "--json"]).stdout)
        assert list(played["scores"].values()) == row["points"]
        assert played["answers"] == row["decisions"]


def test_the_same_seeds_give_the_same_rows_on_one_or_two_workers(tmp_path: Path) -> None:
    exp = experiment(games=6, seed=21)
    run(exp, tmp_path / "one", jobs=1, progress=False)
    result = run(exp, tmp_path / "two", jobs=2, progress=False)
    assert result.executor == "processes" and result.workers == 2
    assert rows(tmp_path / "one") == rows(tmp_path / "two")


def test_experiments_that_differ_only_in_their_master_seed_play_other_games(
    tmp_path: Path,
) -> None:
    """Worker caches must not serve one experiment's set-up to another."""
    for seed in (1, 2, 1):
        out = tmp_path / f"seed-{seed}"
        shutil.rmtree(out, ignore_errors=True)
        run(experiment(games=2, seed=seed), out, jobs=1, progress=False)
        assert [r["seed"] for r in rows(out)] == [game_seed(seed, 0), game_seed(seed, 1)]


# --- pairing ---------------------------------------------------------------------------


def test_every_rotation_and_rule_set_plays_the_same_game_seed(tmp_path: Path) -> None:
    exp = experiment(games=2, seed=4, rotate=True)
    run(exp, tmp_path, jobs=1, progress=False)
    got = rows(tmp_path)
    assert [(r["seed_index"], r["rotation"]) for r in got] == [
        (i, r) for i in range(2) for r in range(4)
    ]
    for r in got:
        assert r["seed"] == game_seed(4, r["seed_index"])
    base = ready_spec(prepare(experiment(games=3, seed=4)))
    fifteen = ready_spec(prepare(experiment(games=3, seed=4, rules=FIFTEEN)))
    assert base.spec.rules_hash != fifteen.spec.rules_hash
    for index in range(3):
        first_rolls = []
        for ready in (base, fifteen):
            game, bots = start_game(ready, (index, 0, 0))
            rolls: list[dict[str, Any]] = []
            game.listen(lambda e, rolls=rolls: rolls.append(e) if e["event"] == "roll" else None)
            while not rolls:
                decision = game.pending
                game.answer(bots[decision.player].choose(game.view(decision.player)))
            first_rolls.append((game.layout, rolls[0]))
        assert first_rolls[0] == first_rolls[1]  # same board, same first dice


@pytest.fixture
def two_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Two extra bots for this process only: ``first`` and ``second`` (random players
    with their own names), and ``broken``, which raises at its first decision."""
    bot_info("random")  # load the registry first

    class Broken:
        def __init__(self, seed: int) -> None:
            pass

        def choose(self, view: Any) -> Any:
            raise RuntimeError("the broken bot broke")

    for name, make in (("first", RandomBot), ("second", RandomBot), ("broken", Broken)):
        monkeypatch.setitem(_REGISTRY, name, BotInfo(name, "7", "test bot", (), make))
    yield


def test_rotation_r_seats_the_line_ups_bot_s_minus_r(tmp_path: Path, two_bots: None) -> None:
    exp = Experiment.single("base", "first,second,second", games=1, rotate=True)
    assert seat_positions(3, 1) == (2, 0, 1)
    run(exp, tmp_path, jobs=1, progress=False)
    seats = {r["rotation"]: r["bots"] for r in rows(tmp_path)}
    assert seats == {
        0: ["first", "second", "second"],
        1: ["second", "first", "second"],
        2: ["second", "second", "first"],
    }
    assert {tuple(r["bot_versions"]) for r in rows(tmp_path)} == {("7", "7", "7")}


def test_several_line_ups_share_each_seed(tmp_path: Path, two_bots: None) -> None:
    """A tournament's experiment: every line-up and rotation of a seed, one game seed."""
    exp = Experiment(lineups=(("first", "second", "second"), ("second", "first", "first")),
                     games=2, rotate=True)  # fmt: skip
    assert exp.total == 12
    run(exp, tmp_path, jobs=1, progress=False, kind="tournament")
    got = rows(tmp_path)
    assert [(r["seed_index"], r["lineup"], r["rotation"]) for r in got] == exp.keys()
    assert {r["seed"] for r in got if r["seed_index"] == 1} == {game_seed(0, 1)}
    assert got[4]["bots"] == ["first", "second", "first"]  # seed 0, line-up 1, rotation 1
    assert read_manifest(tmp_path)["kind"] == "tournament"


def test_a_game_that_fails_names_itself_and_how_to_replay_it(
    tmp_path: Path, two_bots: None
) -> None:
    exp = Experiment.single("base", "random,broken,random", games=2, seed=5)
    with pytest.raises(CkdslError) as info:
        run(exp, tmp_path, jobs=1, progress=False)
    text = info.value.diagnostics[0].format()
    assert "game 0 (line-up 0, rotation 0" in text and "the broken bot broke" in text
    assert f"ckdsl play --seed {game_seed(5, 0)} --players random,broken,random" in text
    assert chunk_files(tmp_path) == []  # nothing half-stored


def test_workers_need_no_files_only_the_work_spec(tmp_path: Path) -> None:
    """The rules and the map travel as data: a worker on another machine needs neither
    the variant file nor the map file, and checks the rules' hash."""
    variant = tmp_path / "variant.yaml"
    shutil.copy(FIFTEEN, variant)
    board = tmp_path / "board.yaml"
    shutil.copy(REPO / "rules" / "maps" / "standard.yaml", board)
    exp = experiment(games=2, rules=str(variant), map=str(board))
    spec = pickle.loads(pickle.dumps(prepare(exp)))  # as a worker receives it
    variant.unlink()
    board.unlink()
    keys = exp.keys()
    got = [play_game(spec, key) for key in keys]
    assert [r["seed"] for r in got] == [game_seed(11, 0), game_seed(11, 1)]
    tampered = replace(spec, rules_hash="0" * 64)  # data that does not match its hash
    with pytest.raises(RuntimeError, match="arrived changed"):
        play_game(tampered, (0, 0, 0))


# --- resuming, killing -----------------------------------------------------------------


def test_a_rerun_plays_only_the_missing_games(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = run(experiment(games=3), out, jobs=1, progress=False)
    assert first.played == 3 and len(chunk_files(out)) == 1
    chunks = {p.name: p.read_bytes() for p in chunk_files(out)}
    again = run(experiment(games=3), out, jobs=1, progress=False)
    assert (again.played, again.stored_before) == (0, 3)
    more = run(experiment(games=5), out, jobs=1, progress=False)  # more seeds extend it
    assert (more.played, more.stored_before, more.requested) == (2, 3, 5)
    for name, data in chunks.items():  # earlier runs' chunks are never rewritten
        assert (out / name).read_bytes() == data
    assert len(chunk_files(out)) == 2  # each run's batches compacted into one chunk
    assert read_manifest(out)["experiment"]["games"] == 5
    # a lost chunk is played again, and only its games
    lost = chunk_files(out)[0]
    lost_rows = pq.read_table(lost).num_rows
    lost.unlink()
    last = run(experiment(games=5), out, jobs=1, progress=False)
    assert last.played == lost_rows
    assert rows(out) == rows_of_fresh_run(tmp_path / "fresh", games=5)
    # fewer seeds than stored: nothing to play, and results of the seeds asked for
    assert len(read_results(out, experiment(games=2).keys())) == 2


def rows_of_fresh_run(out: Path, games: int) -> list[dict[str, Any]]:
    run(experiment(games=games), out, jobs=1, progress=False)
    return rows(out)


def test_readers_keep_the_first_row_of_a_key_and_skip_temporary_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run(experiment(games=2), out, jobs=1, progress=False)
    original = read_table(out)
    twin = original.slice(0, 1).to_pylist()
    twin[0]["turns"] = 99999
    pq.write_table(pa.Table.from_pylist(twin, schema=schema()), out / "chunk-000900.parquet")
    (out / ".chunk-000901.parquet.123.tmp").write_bytes(b"half a chunk")
    assert read_table(out).equals(original)
    import pandas as pd

    assert len(pd.read_parquet(out)) == 3  # plain Parquet readers see every chunk
    with Store.open(out, {}, prepare(experiment(games=2)).identity(), games=2) as store:
        assert store.keys == {(0, 0, 0), (1, 0, 0)}
    assert not (out / ".chunk-000901.parquet.123.tmp").exists()  # stale temp removed


def test_a_chunk_is_whole_or_absent_when_a_write_is_cut_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write stopped half-way (here by an interrupt inside pyarrow's writer) leaves a
    hidden temporary file, never a chunk; the next run removes it and plays the rest."""
    out = tmp_path / "out"
    writes = 0
    real = pq.write_table

    def cut_short(table: pa.Table, where: Any, **options: Any) -> None:
        nonlocal writes
        writes += 1
        if writes == 2:  # the second chunk: write a few bytes, then stop
            where.write(b"PAR1 half a chunk")
            raise KeyboardInterrupt
        real(table, where, **options)

    monkeypatch.setattr(pq, "write_table", cut_short)
    with pytest.raises(KeyboardInterrupt):
        run(experiment(games=4), out, jobs=1, progress=False)
    monkeypatch.setattr(pq, "write_table", real)
    assert [p.name for p in chunk_files(out)] == ["chunk-000001.parquet"]
    assert [p for p in out.iterdir() if p.name.endswith(".tmp")]  # the cut-short file
    stored = read_table(out).num_rows
    assert 0 < stored < 4
    again = run(experiment(games=4), out, jobs=1, progress=False)
    assert again.played == 4 - stored
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    assert rows(out) == rows_of_fresh_run(tmp_path / "fresh", games=4)


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigkill_mid_run_loses_no_stored_game_and_the_rerun_completes(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    args = ["--games", "24", "--seed", "9", "--jobs", "2", "--json"]
    process = subprocess.Popen(
        [sys.executable, "-m", "ckdsl", "simulate", "--players", RANDOM4, "--quiet", *args,
         "--out", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not (out.is_dir() and chunk_files(out)):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline, "no chunk after 30 s"
        time.sleep(0.01)
    workers = _descendants(process.pid)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    stored = read_table(out).num_rows
    assert 0 < stored < 24, "the run must be killed mid-way"
    deadline = time.monotonic() + 10  # orphaned workers exit on their own
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    lingering = [pid for pid in workers if _alive(pid)]
    for pid in lingering:  # leave no process behind, even when failing
        os.kill(pid, signal.SIGKILL)
    assert not lingering, "worker processes outlived the kill"

    resumed = simulate_cli(*args, "--out", str(out))
    assert resumed.exit_code == 0, resumed.output
    table = read_table(out)
    keys = list(zip(*(table.column(c).to_pylist() for c in KEYS), strict=True))
    assert keys == [(i, 0, 0) for i in range(24)]  # exactly the games asked for, once each
    total = sum(pq.read_table(p).num_rows for p in chunk_files(out))
    assert total == 24  # no duplicates on disk either
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]
    whole = simulate_cli(*args[:-3], "--jobs", "1", "--json", "--out", str(tmp_path / "whole"))
    assert whole.exit_code == 0, whole.output
    assert resumed.stdout == whole.stdout  # the same summary as an uninterrupted run


# --- the command -----------------------------------------------------------------------


def test_the_json_summary_is_byte_identical_across_runs(tmp_path: Path) -> None:
    first = simulate_cli("--games", "6", "--seed", "2", "--jobs", "1", "--json")
    second = simulate_cli("--games", "6", "--seed", "2", "--jobs", "2", "--json",
                          "--out", str(tmp_path / "o"))  # fmt: skip
    third = simulate_cli("--games", "6", "--seed", "2", "--json", "--out", str(tmp_path / "o"))
    assert first.exit_code == second.exit_code == third.exit_code == 0, first.output
    assert first.stdout == second.stdout == third.stdout
    data = json.loads(first.stdout)
    assert data["experiment"]["lineups"] == [["random"] * 4]
    summary = data["summary"]
    assert summary["games"] == 6
    assert summary["finished"]["games"] + summary["unfinished"] == 6
    assert sum(s["wins"] for s in summary["seats"]) == summary["finished"]["games"]
    assert "seconds" not in first.stdout


def test_the_text_summary_counts_unfinished_games(tmp_path: Path) -> None:
    run(experiment(games=6, seed=2), tmp_path, jobs=1, progress=False)
    summary = summarize(read_results(tmp_path))
    assert summary["seats"][0]["games"] == 6  # every game in the denominator
    text = format_summary(summary)
    assert "6 games on 6 seeds" in text and "stopped unfinished" in text
    result = simulate_cli("--games", "6", "--seed", "2", "--jobs", "1")
    assert result.exit_code == 0 and result.stdout.strip() == text


def test_a_run_on_a_pure_engine_nobody_asked_for_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compiled build left stale (``ckdsl.native``) halves the speed: the run says so
    once, unless ``CKDSL_PURE`` asked for the pure package or ``--quiet`` for silence."""
    from ckdsl.commands import common

    stale = "pure Python (sources changed since the compiled build (ckdsl/rng.py; ...))"
    monkeypatch.setattr(native, "_STATUS", stale)
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    common._note_a_pure_engine.cache_clear()
    args = ["simulate", "--players", RANDOM4, "--games", "1", "--jobs", "1"]
    noted = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "a")])
    assert noted.exit_code == 0
    assert noted.stderr.count(f"note: the engine runs as {stale}") == 1
    common._note_a_pure_engine.cache_clear()
    quiet = CliRunner().invoke(cli, [*args, "--quiet", "--out", str(tmp_path / "b")])
    assert "note:" not in quiet.stderr
    monkeypatch.setenv(native.PURE_VARIABLE, "1")
    asked = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "c")])
    assert asked.exit_code == 0 and "note:" not in asked.stderr
    common._note_a_pure_engine.cache_clear()


def test_a_store_of_another_experiment_is_refused(tmp_path: Path) -> None:
    out = str(tmp_path / "o")
    assert simulate_cli("--games", "2", "--jobs", "1", "--out", out).exit_code == 0
    three = CliRunner().invoke(
        cli, ["simulate", "--players", "random,random,random", "--games", "2", "--out", out]
    )
    assert three.exit_code == 1
    assert MANIFEST in three.stderr and "players" in three.stderr
    assert "Traceback" not in three.output
    seeded = simulate_cli("--games", "2", "--seed", "7", "--out", out)
    assert seeded.exit_code == 1 and "master seed" in seeded.stderr
    rotated = simulate_cli("--games", "2", "--rotate-seats", "--out", out)
    assert rotated.exit_code == 1 and "rotation" in rotated.stderr
    variant = simulate_cli(FIFTEEN, "--games", "2", "--label", "base", "--out", out)
    assert variant.exit_code == 1 and "rules differ" in variant.stderr
    labelled = simulate_cli("--games", "2", "--label", "other", "--out", out)
    assert labelled.exit_code == 1 and "label differs" in labelled.stderr
    manifest = json.loads((tmp_path / "o" / MANIFEST).read_text())
    manifest["kind"] = "tournament"
    (tmp_path / "o" / MANIFEST).write_text(json.dumps(manifest))
    other = simulate_cli("--games", "2", "--out", out)
    assert other.exit_code == 1 and "ckdsl tournament" in other.stderr


def test_bad_options_are_usage_errors() -> None:
    zero = simulate_cli("--games", "0")
    assert zero.exit_code == 2 and "--games" in zero.stderr
    negative = simulate_cli("--games", "-3")
    assert negative.exit_code == 2
    unknown = CliRunner().invoke(cli, ["simulate", "--players", "random,randon,random"])
    assert unknown.exit_code == 2
    assert "unknown bot 'randon'" in unknown.stderr and "random" in unknown.stderr
    five = CliRunner().invoke(cli, ["simulate", "--players", ",".join(["random"] * 5)])
    assert five.exit_code == 2 and "3 to 4 players" in five.stderr
    layout = simulate_cli("--layout", "nowhere", "--games", "1")
    assert layout.exit_code == 2 and "nowhere" in layout.stderr


def test_a_broken_rule_file_gives_file_line_col_and_exit_1(tmp_path: Path) -> None:
    variant = tmp_path / "broken.yaml"
    variant.write_text("extends: base\noverride:\n  parameters:\n    points_to_win: many\n")
    result = simulate_cli(str(variant), "--games", "1")
    assert result.exit_code == 1
    assert re.search(r"broken\.yaml:4:\d+: ", result.stderr), result.stderr
    assert "Traceback" not in result.output


def test_an_out_that_cannot_be_a_results_folder_is_a_clean_error(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("not a folder")
    cases = {
        str(a_file): "is a file",
        str(a_file / "below"): "cannot create",
        str(tmp_path): "not a results folder",  # not empty (it holds file.txt)
    }
    for out, words in cases.items():
        result = simulate_cli("--games", "1", "--jobs", "1", "--out", out)
        assert result.exit_code == 1, (out, result.output)
        assert words in result.stderr and "Traceback" not in result.output
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        result = simulate_cli("--games", "1", "--out", str(locked))
        assert result.exit_code == 1 and "cannot write" in result.stderr
    with pytest.raises(StoreError, match="not a results folder"):
        read_results(tmp_path)


def test_a_missing_extra_is_one_line_saying_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a)
    )
    result = simulate_cli("--games", "1")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        'ckdsl: experiments need pyarrow, not installed: pip install "ckdsl[sim]"'
    ]


def test_one_run_at_a_time_per_folder(tmp_path: Path) -> None:
    identity = prepare(experiment()).identity()
    with (
        Store.open(tmp_path / "o", {}, identity, games=4),
        pytest.raises(StoreError, match="another run is writing"),
    ):
        Store.open(tmp_path / "o", {}, identity, games=4)


def test_the_library_call_returns_a_dataframe(tmp_path: Path) -> None:
    df = simulate(players=RANDOM4, games=3, seed=1, rotate=True)
    assert list(df[KEYS].itertuples(index=False, name=None)) == [
        (i, 0, r) for i in range(3) for r in range(4)
    ]
    kept = simulate(players=RANDOM4, games=3, seed=1, rotate=True, out=tmp_path / "kept")
    assert kept.drop(columns="seconds").to_json() == df.drop(columns="seconds").to_json()


def test_batches_follow_the_measured_rate() -> None:
    assert batch_size(None, 1000, 2, 1.0) == 2  # the first batches probe
    assert batch_size(0.04, 1000, 2, 1.0) == 25
    assert batch_size(0.0001, 10**6, 2, 1.0) == 500  # at most 500 games a task
    assert batch_size(5.0, 1000, 2, 1.0) == 1  # slow games: one at a time
    assert batch_size(0.04, 40, 2, 1.0) == 10  # the end spreads over the workers
    assert batch_size(0.04, 3, 1, 1.0) == 3


def test_importing_the_api_and_the_command_loads_no_heavy_library() -> None:
    code = (
        "import sys, ckdsl.sim, ckdsl.commands.simulate, ckdsl.sim.experiment; "
        "heavy = [m for m in ('pandas', 'pyarrow', 'dask', 'distributed', 'numpy', 'scipy') "
        "if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- Dask --------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_rows_of_a_local_run(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    exp = experiment(games=8, seed=17)
    run(exp, tmp_path / "local", jobs=1, progress=False)
    result = run(exp, tmp_path / "dask", jobs=2, scheduler="local-dask", progress=False)
    assert (result.executor, result.played) == ("dask", 8)
    assert rows(tmp_path / "dask") == rows(tmp_path / "local")
    shutil.rmtree(tmp_path / "dask")


def test_docs_list_every_column_with_its_type() -> None:
    """docs/experiments.md documents the results' columns as the store defines them."""
    from ckdsl.sim.store import columns

    text = (Path(__file__).resolve().parent.parent / "docs" / "experiments.md").read_text()
    for name, kind, _ in columns():
        assert f"| `{name}` | {kind} |" in text, name
