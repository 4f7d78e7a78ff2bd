"""``ckdsl compare``: the analysis on synthetic results with known effects, the report (terminal,
JSON, HTML, plots), and a small end-to-end run of the command."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from ckdsl.sim.compare.analysis import ComparisonReport, compare

SEATS = 4
TRACKS = ("politics", "science", "trade")
CARDS = ("alchemist", "bishop", "crane")


def _mix(*parts: object) -> int:
    """A seed from parts (stable across runs and platforms)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "little")


def synthetic(label: str, **kwargs: Any) -> pd.DataFrame:
    """:func:`synthesized`'s frame, made once per arguments (each costs ~0.1 s; several
    tests use the same), a copy to each caller."""
    return synthesized(label, **kwargs).copy()


@functools.cache
def synthesized(
    label: str,
    *,
    seeds: int = 120,
    rotations: int = SEATS,
    turns_effect: float = 0.0,
    seat1_effect: float = 0.0,
    unfinished: float = 0.03,
    desync: float = 0.25,
    seed_offset: int = 0,
    rules_hash: str | None = None,
    bots: tuple[str, ...] = ("random", "random", "random", "random"),
) -> pd.DataFrame:
    """Games of a rule set with the schema of ``read_results``.

    Common random numbers: the seed (and rotation) fixes the board quality, the base length and
    the draw that picks the winner; a share ``desync`` of the games redraw it under each rule
    set, as games that diverge. ``turns_effect``: added to every game's length;
    ``seat1_effect``: added to the first seat's chance to win (taken evenly from the others).
    ``seed_offset`` != 0 gives other game seeds (an unpaired design).
    """
    rows: list[dict[str, Any]] = []
    own = _mix("rules", label)
    for seed_index in range(seeds):
        seed = _mix("seed", seed_index + seed_offset)
        board = np.random.default_rng(_mix(seed, "board")).normal()
        for rotation in range(rotations):
            common = np.random.default_rng(_mix(seed, rotation))
            mine = np.random.default_rng(_mix(seed, rotation, own))
            u_win, u_seat, z_game, u_end = common.random(4)
            if mine.random() < desync:
                u_win, u_seat, z_game = mine.random(), mine.random(), mine.random()
            turns = 80.0 + 12.0 * board + 10.0 * (z_game - 0.5) + turns_effect
            turns = max(20, round(turns + mine.normal(0, 2.0)))
            finished = u_end >= unfinished
            p1 = 0.25 + seat1_effect
            if not finished:
                winner = -1
            elif u_win < p1:
                winner = 0
            else:
                winner = 1 + min(int(u_seat * (SEATS - 1)), SEATS - 2)
            points = [int(mine.integers(4, 12)) for _ in range(SEATS)]
            if winner >= 0:
                points[winner] = 13
            lineup = bots[rotation % len(bots) :] + bots[: rotation % len(bots)]
            attacks = int(mine.integers(1, 6))
            lost = int(mine.integers(0, attacks + 1))
            # [[min(points[s], t * points[s] // turns + 2) for s in seats] for t in 1..turns]
            reached = np.arange(1, turns + 1)[:, None] * np.array(points)[None, :] // turns + 2
            trajectory = np.minimum(np.array(points)[None, :], reached).tolist()
            first = {
                t: (int(mine.integers(30, turns)) if mine.random() < 0.6 else -1) for t in TRACKS
            }
            rows.append(
                {
                    "rules": label,
                    "rules_hash": rules_hash or hashlib.sha256(label.encode()).hexdigest()[:16],
                    "seed_index": seed_index,
                    "seed": seed,
                    "lineup": 0,
                    "rotation": rotation,
                    "engine_version": "0.1.0",
                    "bots": list(lineup),
                    "bot_versions": ["1"] * SEATS,
                    "winner_seat": winner,
                    "winner_bot": lineup[winner] if winner >= 0 else "",
                    "points": points,
                    "turns": turns,
                    "decisions": turns * 9 + int(mine.integers(0, 40)),
                    "finished": finished,
                    "seconds": 0.01,
                    "attacks": attacks,
                    "attacks_lost": lost,
                    "cities_pillaged": lost,
                    "cities_damaged": 0,
                    "defender_awards": attacks - lost,
                    "defence_ties": 0,
                    "metropolis_first_turn": list(first.items()),
                    "metropolis_changes": [(t, int(v >= 0)) for t, v in first.items()],
                    "progress_drawn": int(mine.integers(5, 20)),
                    "progress_played": int(mine.integers(2, 10)),
                    "cards_drawn": [(c, int(mine.integers(0, 3))) for c in CARDS],
                    "cards_played": [(c, int(mine.integers(0, 2))) for c in CARDS],
                    "knights_built": int(mine.integers(2, 8)),
                    "knights_promoted": int(mine.integers(0, 4)),
                    "knights_activated": int(mine.integers(2, 12)),
                    "knights_displaced": 0,
                    "robber_moves": int(mine.integers(0, 10)),
                    "steals": int(mine.integers(0, 10)),
                    "longest_road_changes": int(mine.integers(0, 4)),
                    "bank_trades": int(mine.integers(0, 30)),
                    "offers": 0,
                    "trades": 0,
                    "vp_settlements": [1] * SEATS,
                    "vp_cities": [2] * SEATS,
                    "vp_metropolises": [0] * SEATS,
                    "vp_defender": [0] * SEATS,
                    "vp_merchant": [0] * SEATS,
                    "vp_longest_road": [0] * SEATS,
                    "vp_cards": [0] * SEATS,
                    "vp_trajectory": trajectory,
                    "lead_changes": int(mine.integers(0, 8)),
                    "lead_change_rate": 0.05,
                    "drama_mean": float(mine.random()),
                    "drama_max": float(mine.random() * 3),
                    "decisive_turn": int(mine.integers(10, turns)) if finished else -1,
                    "decisive_fraction": float(mine.random()) if finished else -1.0,
                    "score_margin": int(mine.integers(1, 5)) if finished else 0,
                }
            )
    return pd.DataFrame(rows)


def headline(report: ComparisonReport, variant: str, metric: str) -> Any:
    diff = report.comparison(variant).difference(metric)
    assert diff is not None, metric
    return diff


# --- The analysis -------------------------------------------------------------------------


@pytest.mark.slow
def test_known_effects_are_covered_and_pairing_narrows_the_intervals() -> None:
    a = synthetic("base")
    b = synthetic("longer", turns_effect=15.0, seat1_effect=0.15)
    report = compare({"base": a, "longer": b}, base="base")
    turns = headline(report, "longer", "turns")
    assert turns.paired
    assert turns.delta.contains(15.0)
    assert turns.significant
    seat1 = report.comparison("longer").difference("win_seat_1")
    assert seat1 is not None and seat1.family == "exploratory"
    assert seat1.delta.contains(0.15)
    assert seat1.significant
    balance = headline(report, "longer", "seat_balance")
    assert balance.seat_test is not None and balance.significant
    # The same games analysed as if the seeds were independent.
    unpaired = compare(
        {"base": a, "longer": synthetic("longer", turns_effect=15.0, seat1_effect=0.15,
                                        seed_offset=10_000)},
        base="base",
    )  # fmt: skip
    turns_u = headline(unpaired, "longer", "turns")
    assert not turns_u.paired
    assert turns_u.delta.contains(15.0)
    assert turns.delta.width < turns_u.delta.width / 2
    seat1_u = unpaired.comparison("longer").difference("win_seat_1")
    assert seat1_u is not None and seat1.delta.width < seat1_u.delta.width
    gains = {row.metric: row.gain for row in report.comparison("longer").pairing}
    assert set(gains) == {"turns", "win_seat_1", "finished"}
    assert gains["turns"].gain > 4
    assert "unpaired" not in json.dumps(report.to_json())
    assert any("independent" in w for w in unpaired.comparison("longer").warnings)
    verdicts = " ".join(report.comparison("longer").verdicts)
    assert re.search(r"longer lengthens games by 1\d\.\d turns \[1\d\.\d, 1\d\.\d\]", verdicts)
    assert "longer changes seat balance (F(3, " in verdicts


def test_a_against_itself_changes_nothing() -> None:
    a = synthetic("base")
    report = compare({"base": a, "mirror": a.copy()}, base="base")
    comparison = report.comparison("mirror")
    assert comparison.paired and comparison.matched_games == len(a)
    for diff in comparison.differences:
        assert diff.delta.estimate == 0.0, diff.spec.name
        assert not diff.significant, diff.spec.name
    assert all("no detectable change" in v or "not enough" in v for v in comparison.verdicts)
    assert any("same rules hash" in w for w in comparison.warnings)


def test_holm_and_benjamini_hochberg_are_applied() -> None:
    from ckdsl.sim.stats.multiplicity import benjamini_hochberg, holm

    a = synthetic("base")
    b = synthetic("b", turns_effect=3.0, seat1_effect=0.05)
    c = synthetic("c", turns_effect=-2.0)
    report = compare({"base": a, "b": b, "c": c}, base="base")
    heads = [d for comp in report.comparisons for d in comp.headline]
    # The seat-balance test, finished, turns, margin, lead changes, decisiveness.
    assert len(heads) == 2 * 6
    # The finished share is the same under every rule set here: no test, not in the family.
    assert report.headline_tests == sum(d.p is not None for d in heads) == 2 * 5
    expected = holm([d.p for d in heads], 0.05)
    assert [(d.adjusted_p, d.significant) for d in heads] == expected
    tested = [d for d in heads if d.p is not None]
    assert all(d.adjusted_p >= d.p for d in tested)
    smallest = min(tested, key=lambda d: d.p)
    assert smallest.adjusted_p == pytest.approx(min(1.0, len(tested) * smallest.p))
    explore = [d for comp in report.comparisons for d in comp.exploratory]
    assert sum(d.p is not None for d in explore) == report.exploratory_tests
    assert [(d.adjusted_p, d.significant) for d in explore] == benjamini_hochberg(
        [d.p for d in explore], 0.05
    )


def test_unfinished_games_count_in_every_denominator() -> None:
    a = synthetic("base", unfinished=0.2, seeds=60)
    b = synthetic("b", unfinished=0.2, seeds=60)
    report = compare({"base": a, "b": b}, base="base")
    summary = report.ruleset("base")
    unfinished = int((~a["finished"]).sum())
    assert unfinished > 20
    assert summary.games == len(a) and summary.finished == len(a) - unfinished
    for seat in summary.win_by_seat:
        assert seat.games == len(a)
        assert seat.wins == int((a["winner_seat"] == seat.seat - 1).sum())
    assert sum(s.wins for s in summary.win_by_seat) == summary.finished
    assert sum(summary.seat_balance.observed) == summary.finished
    finished = summary.metric("finished")
    assert finished is not None and finished.interval.estimate == pytest.approx(
        summary.finished / len(a)
    )
    data = report.to_json()["rulesets"][0]
    assert data["unfinished"] == unfinished
    # The winner's points are undefined for an unfinished game, never a zero.
    winner_points = summary.metric("winner_points")
    assert winner_points is not None and winner_points.n == summary.finished


def test_the_json_is_deterministic_and_independent_of_row_order() -> None:
    a = synthetic("base", seeds=40)
    b = synthetic("b", seeds=40, turns_effect=5.0)
    first = compare({"base": a, "b": b}, base="base").dumps()
    shuffled = b.sample(frac=1.0, random_state=3)
    second = compare({"base": a, "b": shuffled}, base="base").dumps()
    assert first == second
    assert "NaN" not in first and "Infinity" not in first
    assert '"run"' not in first
    json.loads(first)


@pytest.mark.slow
def test_bootstrap_is_named_and_seeded() -> None:
    a = synthetic("base", seeds=40)
    b = synthetic("b", seeds=40, turns_effect=5.0)
    one = compare({"base": a, "b": b}, base="base", method="bootstrap", seed=4)
    two = compare({"base": a, "b": b}, base="base", method="bootstrap", seed=4)
    assert one.dumps() == two.dumps()
    turns = headline(one, "b", "turns")
    assert turns.delta.method.startswith("bootstrap")
    assert turns.delta.contains(5.0)


def test_winner_only_metrics_pair_seeds_not_games() -> None:
    # Many unfinished games: the winner's points are compared over seeds where both rule
    # sets have a finished game, each side averaged over its own finished games.
    a = synthetic("base", unfinished=0.4, seeds=60)
    b = synthetic("b", unfinished=0.4, seeds=60)
    report = compare({"base": a, "b": b}, base="base")
    diff = headline(report, "b", "score_margin")
    assert diff.paired and 40 < diff.n <= 60
    assert diff.delta.low is not None and diff.delta.high is not None


def test_unpaired_fallback_is_named() -> None:
    a = synthetic("base", seeds=40)
    b = synthetic("b", seeds=40, seed_offset=5_000)
    report = compare({"base": a, "b": b}, base="base")
    data = report.to_json()["comparisons"][0]
    assert data["design"] == "independent"
    assert {d["test"] for d in data["headline"]} <= {"Welch t over seeds"}
    assert all(not d["paired"] for d in data["headline"])


def test_bad_frames_are_refused() -> None:
    from ckdsl.sim.compare.specs import CompareError

    a = synthetic("base", seeds=5)
    with pytest.raises(CompareError, match="base"):
        compare({"b": a}, base="base")
    with pytest.raises(CompareError, match="lack the columns"):
        compare({"base": a, "b": a.drop(columns=["turns"])}, base="base")
    with pytest.raises(CompareError, match="twice"):
        compare({"base": a, "b": pd.concat([a, a.iloc[:1]])}, base="base")


# --- The report ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_report() -> ComparisonReport:
    a = synthetic("base", seeds=30)
    b = synthetic("fifteen_points", seeds=30, turns_effect=12.0)
    return compare({"base": a, "fifteen_points": b}, base="base")


def test_terminal_table_has_the_headline_and_the_verdicts(small_report: ComparisonReport) -> None:
    import io

    from ckdsl.sim.report.terminal import print_report

    out = io.StringIO()
    print_report(small_report, out)
    text = out.getvalue()
    assert "B: fifteen_points against A: base" in text
    for column in ("metric", "Δ B − A [95% CI]", "p Holm"):
        assert column in text
    for line in small_report.comparison("fifteen_points").verdicts:
        assert line[:60] in text.replace("\n", " ")
    assert "fifteen_points lengthens games by" in text
    assert "Seat balance" in text and "Pairing gain" in text


@pytest.mark.xdist_group("compare_cli")
def test_html_is_one_self_contained_file_with_every_plot(cli_run: dict[str, Any]) -> None:
    # (the page the compare command wrote with --report: drawing its figures again for a
    # report of its own cost a second and a half)
    from ckdsl.sim.report.plots import PLOTS

    text = (cli_run["folder"] / "r.html").read_text(encoding="utf-8")
    assert text.count("<img ") == len(PLOTS) == 6
    assert text.count("src='data:image/png;base64,") == len(PLOTS)
    assert text.count("<figcaption>") == len(PLOTS)
    for banned in ("http://", "https://", "<script", "<link", "@import", "url("):
        assert banned not in text, banned
    assert re.findall(r"(?:src|href)=['\"](?!data:)", text) == []
    for ruleset in json.loads(cli_run["first"].stdout)["rulesets"]:
        assert ruleset["rules_hash"][0] in text
    assert "Stopping rule" in text and "fixed: 3 seeds (12 games) per rule set" in text


# --- Until significant ----------------------------------------------------------------------


def _player(frames: dict[str, pd.DataFrame], calls: list[int]) -> Any:
    def play(seeds: int) -> dict[str, pd.DataFrame]:
        calls.append(seeds)
        return {k: f[f["seed_index"] < seeds].reset_index(drop=True) for k, f in frames.items()}

    return play


def test_sprt_stops_on_batch_boundaries_when_the_effect_is_clear() -> None:
    from ckdsl.sim.sprt_run import sprt_metric, until_significant

    frames = {
        "base": synthetic("base", seeds=200),
        "b": synthetic("b", seeds=200, seat1_effect=0.2),
    }
    calls: list[int] = []
    stopping, played = until_significant(
        _player(frames, calls), base="base", metric=sprt_metric("seat1", SEATS),
        h0=0.0, h1=0.05, start=20, batch=20, max_seeds=200,
    )  # fmt: skip
    test = stopping.details["tests"][0]
    assert test["decision"] == "accept_h1"
    assert test["llr"] >= test["upper_bound"]
    assert calls == list(range(20, calls[-1] + 1, 20)) and calls[-1] < 200
    assert stopping.seeds == calls[-1] and stopping.games == len(played["base"])
    assert "H1 accepted" in stopping.describe()
    mirror = {"base": frames["base"], "same": frames["base"].copy()}
    stopping, _ = until_significant(
        _player(mirror, []), base="base", metric=sprt_metric("turns", SEATS),
        h0=0.0, h1=5.0, start=20, batch=20, max_seeds=100,
    )  # fmt: skip
    assert stopping.details["tests"][0]["decision"] == "accept_h0"


def test_sprt_only_counts_whole_seeds_and_knows_its_metrics() -> None:
    from ckdsl.sim.sprt_run import seed_differences, sprt_metric

    a = synthetic("base", seeds=10)
    b = synthetic("b", seeds=10, turns_effect=10.0)
    assert seed_differences(a, b, sprt_metric("turns", SEATS)).size == 10
    partial = b[~((b["seed_index"] == 3) & (b["rotation"] == 2))]
    diffs = seed_differences(a, partial, sprt_metric("turns", SEATS))
    assert diffs.size == 9
    assert np.all(diffs > 5)
    with pytest.raises(ValueError, match="no seat 5"):
        sprt_metric("seat5", SEATS)
    with pytest.raises(ValueError, match="unknown metric"):
        sprt_metric("elo", SEATS)


# --- The command --------------------------------------------------------------------------

REPO = Path(__file__).resolve().parent.parent
FIFTEEN = str(REPO / "examples" / "variants" / "fifteen_points.yaml")
RANDOM4 = "random,random,random,random"


def _compare(*args: str) -> Any:
    from click.testing import CliRunner

    from ckdsl.cli import cli

    return CliRunner().invoke(cli, ["compare", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("compare")
    args = ["base", FIFTEEN, "--players", RANDOM4, "--games", "3", "--rotate-seats",
            "--jobs", "1", "--seed", "5", "--out", str(folder / "runs")]  # fmt: skip
    first = _compare(*args, "--json", "--report", str(folder / "r.html"),
                     "--plots", str(folder / "plots"))  # fmt: skip
    again = _compare(*args, "--json")
    table = _compare(*args, "--quiet")
    return {"folder": folder, "args": args, "first": first, "again": again, "table": table}


@pytest.mark.slow
@pytest.mark.xdist_group("compare_cli")  # one worker runs the compares for all four
def test_cli_compares_base_with_a_variant(cli_run: dict[str, Any]) -> None:
    first = cli_run["first"]
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["base"] == "base" and report["labels"] == ["base", "fifteen_points"]
    for ruleset in report["rulesets"]:
        assert ruleset["games"] == 12 and ruleset["rotations"] == [0, 1, 2, 3]
        assert ruleset["games"] == ruleset["finished"] + ruleset["unfinished"]
        assert ruleset["store"]["master_seed"] == 5
    comparison = report["comparisons"][0]
    assert comparison["design"] == "paired" and comparison["matched_games"] == 12
    assert [d["metric"] for d in comparison["headline"]][:5] == [
        "seat_balance", "finished", "turns", "score_margin", "lead_changes"
    ]  # fmt: skip
    assert comparison["verdicts"] and "pairing_gain" in comparison
    assert report["stopping"]["kind"] == "fixed" and report["stopping"]["seeds"] == 3
    folder = cli_run["folder"]
    assert sorted(p.name for p in (folder / "runs").iterdir()) == ["base", "fifteen_points"]
    html = (folder / "r.html").read_text(encoding="utf-8")
    assert html.count("<img ") == 6 and "https://" not in html
    assert len(list((folder / "plots").glob("*.svg"))) == 6
    assert "wrote" in first.stderr


@pytest.mark.xdist_group("compare_cli")
def test_plots_are_written_as_png_and_svg(cli_run: dict[str, Any]) -> None:
    # (the plots the command wrote with --plots: write_plots is what it calls; drawing them
    # again for a synthetic report cost two seconds)
    folder = cli_run["folder"] / "plots"
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == 13 and "captions.txt" in names
    assert f"wrote 13 files to {folder}" in cli_run["first"].stderr  # what it returned
    stems = ("forest", "seed_differences", "win_rate_by_seat", "game_length", "vp_trajectories")
    for stem in (*stems, "barbarians"):
        assert (folder / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"
        svg = (folder / f"{stem}.svg").read_text(encoding="utf-8")
        assert "<svg" in svg and "<dc:date>" not in svg


@pytest.mark.xdist_group("compare_cli")
def test_cli_json_is_the_same_on_a_second_run(cli_run: dict[str, Any]) -> None:
    again = cli_run["again"]
    assert again.exit_code == 0, again.output
    assert again.stdout == cli_run["first"].stdout
    assert "0 games played" in again.stderr


@pytest.mark.xdist_group("compare_cli")
def test_cli_prints_the_table(cli_run: dict[str, Any]) -> None:
    table = cli_run["table"]
    assert table.exit_code == 0 and table.stderr == ""
    assert "B: fifteen_points against A: base" in table.stdout
    assert "Verdict" in table.stdout and "p Holm" in table.stdout


@pytest.mark.xdist_group("compare_cli")
def test_cli_refuses_bad_input(cli_run: dict[str, Any], tmp_path: Path) -> None:
    base = ["--players", RANDOM4, "--games", "2", "--jobs", "1", "--quiet"]
    result = _compare("base", FIFTEEN, *base[:2], "--games", "0")
    assert result.exit_code == 2 and "--games" in result.stderr
    result = _compare("base", FIFTEEN, "--players", "random,randon,random,random")
    assert result.exit_code == 2 and "randon" in result.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: base\noverride:\n  parameters:\n    points_to_wn: 15\n")
    result = _compare("base", str(broken), *base)
    assert result.exit_code == 1
    assert re.search(r"broken\.yaml:4:5: .*points_to_wn", result.stderr), result.stderr
    result = _compare("base", FIFTEEN, *base, "--report", str(tmp_path / "nowhere" / "r.html"))
    assert result.exit_code == 1 and "does not exist" in result.stderr
    store = tmp_path / "store"
    store.mkdir()
    (store / "_manifest.json").write_text("{}")
    result = _compare("base", FIFTEEN, *base, "--out", str(store))
    assert result.exit_code == 1 and "_manifest.json" in result.stderr
    # The stores of the first run, asked for another master seed: refused, nothing played.
    args = [*cli_run["args"][:-1], str(cli_run["folder"] / "runs")]
    args[args.index("--seed") + 1] = "6"
    result = _compare(*args, "--quiet")
    assert result.exit_code == 1 and "master seed" in result.stderr
    for result in (
        _compare("base", FIFTEEN, *base, "--max-games", "5"),
        _compare("base", FIFTEEN, *base, "--until-significant", "--sprt-metric", "seat9"),
    ):
        assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_lineup_interaction_is_found_where_the_effect_depends_on_the_bots() -> None:
    def two_lineups(label: str, effect: float, extra: float) -> pd.DataFrame:
        first = synthetic(label, seeds=40, turns_effect=effect)
        # Other games on the same seed indices (so the two line-ups' effects vary apart).
        second = synthetic(label, seeds=40, turns_effect=effect + extra, seed_offset=5000,
                           bots=("heuristic", "random", "random", "random"))  # fmt: skip
        second["lineup"] = 1
        return pd.concat([first, second], ignore_index=True)

    report = compare({"base": two_lineups("base", 0, 0), "b": two_lineups("b", 5, 10)}, base="base")
    assert report.lineups == ("random×4", "heuristic, random×3")
    turns = next(i for i in report.interactions if i.metric == "turns")
    assert turns.significant and turns.test.df1 == 1
    assert turns.effects[0].effect.contains(5.0) and turns.effects[1].effect.contains(15.0)
    versus = turns.effects[1].versus_first
    assert versus is not None and versus.contains(10.0)
    assert "b: the effect on game length depends on the line-up" in turns.verdict()
    margin = next(i for i in report.interactions if i.metric == "score_margin")
    assert not margin.significant


def test_a_tiny_effect_is_shown_with_the_digits_it_needs() -> None:
    from ckdsl.sim.compare.verdicts import enough_digits

    # "lead changes per turn: 0.00 [0.00, 0.00]" beside "significant" said nothing
    assert enough_digits(2, 0.0043) == 4 and f"{0.0043:.{enough_digits(2, 0.0043)}f}" == "0.0043"
    assert enough_digits(2, 0.05, 12.0) == 2  # shown already: unchanged
    assert enough_digits(1, 0.002, None, 0.0) == 4
    assert enough_digits(2, 1e-12) == 6  # at most six decimals
