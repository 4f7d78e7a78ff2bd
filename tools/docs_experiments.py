"""The experiment numbers of docs/experiments.md and docs/bots.md, regenerated.

Every block of output those pages show stands between two markers::

    <!-- generated: NAME (tools/docs_experiments.py) -->
    ...the command's output, and a line saying where and on what it was measured...
    <!-- end: NAME -->

and this tool runs the block's commands (results kept under ``--runs``, so a second call
plays nothing new) and writes their output there, with the machine (processor, cores),
the Python, the ckdsl sources (digest and commit) and the engine build (compiled or pure)
it ran on. Numbers in the prose around a block are written by the block too (its
``sentences``), so no number is typed by hand.

    python tools/docs_experiments.py --list
    python tools/docs_experiments.py                       # every block but the slow one (mcts)
    python tools/docs_experiments.py --only h500 fourteen  # some blocks
    python tools/docs_experiments.py --check               # which blocks the docs lack

Run it on an idle machine with the install's compiled build for the timings the pages
quote; the numbers of the games do not depend on the build (the same games, row for row).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Sentences = Callable[[dict[str, str], Path], list[str]]


@dataclass(frozen=True)
class Block:
    """A generated block: the commands it runs (``{runs}`` is the results folder), the
    one whose stdout is shown, and sentences written from the outputs (by command name)."""

    name: str
    page: str
    commands: dict[str, list[str]]
    shown: str
    sentences: Sentences | None = None
    timed: str | None = None  # the command whose wall time the block quotes
    slow: bool = False
    figure: str | None = None  # a figure a command draws, shown below the output
    command_line: bool = False  # show the command (when the prose around does not)
    # show only the lines from the one starting with the first text to the one before the
    # line starting with the second (a part of a long report)
    excerpt: tuple[str, str | None] | None = None  # (None: to the end)


def _excerpt(text: str, start: str, stop: str | None) -> str:
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    last = next(
        (i for i in range(first + 1, len(lines)) if stop and lines[i].startswith(stop)),
        len(lines),
    )
    return "\n".join(lines[first:last])


def _simulate_sentences(out: dict[str, str], runs: Path) -> list[str]:
    summary = json.loads(out["json"])["summary"]
    seats = summary["seats"]
    rates = [f"{100 * s['win_rate']['estimate']:.1f}%" for s in seats]
    balance = summary.get("seat_balance", {})
    p = balance.get("p")
    return [
        f"Seat win rates {', '.join(rates)} (seats 1 to {len(seats)}); the χ² test of "
        f"equal seats gives p = {p:.2g} over these games (it counts the games as "
        "independent)."
        if p is not None
        else ""
    ]


def _finished_sentences(out: dict[str, str], runs: Path) -> list[str]:
    summary = json.loads(out["json"])["summary"]
    share, turns = summary["finished"]["share"], summary["turns"]
    mean = turns["mean"]
    return [
        f"{summary['finished']['games']} of {summary['games']} games end with a winner "
        f"({100 * share['estimate']:.1f}%, Wilson 95% [{100 * share['low']:.1f}%, "
        f"{100 * share['high']:.1f}%]); turns per game: mean {mean['estimate']:.1f} "
        f"[{mean['low']:.1f}, {mean['high']:.1f}], from {turns['min']:.0f} to {turns['max']:.0f}."
    ]


FOURTEEN_COMPARE = ["compare", "base", "{runs}/fourteen.yaml", "--games", "200", "--rotate-seats",
                    "--jobs", "2", "--out", "{runs}/fourteen", "--quiet"]  # fmt: skip


def _pairing_sentences(out: dict[str, str], runs: Path) -> list[str]:
    """What pairing bought in the comparison: its pairing gains, in words."""
    comparison = json.loads(out["json"])["comparisons"][0]
    gain = {row["metric"]: row for row in comparison["pairing_gain"]}
    turns, seat1 = gain["turns"], gain["win_seat_1"]
    return [
        f"What pairing bought here: the same seed gives the same game until someone reaches "
        f"13 points, and game length correlates at r = {turns['correlation']:.2f} between the "
        f"two rule sets on a seed; the variance of the paired difference is "
        f"{turns['gain']:.1f} times smaller than that of two independent samples "
        f"({seat1['gain']:.1f} times for the first seat's win): an unpaired experiment would "
        f"need {turns['gain']:.0f} times as many games for the same interval on game length."
    ]


RANDOM_SEEDS = 25
"""Seeds of the heuristic against three random bots (each in the four rotations): 25
rather than the 100 of earlier pages, for a machine shared with other work; the heuristic
wins every game either way, and the interval says how sure that is."""

MCTS_SEEDS = 10
"""Seeds of the mcts block (each played in the four seat rotations), fewer than the 50 of
earlier pages: a game of mcts with 300 iterations takes about 30 s of one core in pure
Python, and the block (three tournaments on the same seeds) has to run in about an hour
on a 2-core machine shared with other work. The intervals say what the smaller sample
costs."""

MCTS_BUDGETS = {"run": 300, "i16": 16, "i50": 50}
"""The iterations per decision of each tournament of the mcts block, on the same seeds
(``run``, 300, is the one shown; the others are compared with it, paired on the seeds)."""


def _learned_tournament(learned: str, against: str, folder: str) -> list[str]:
    """The learned bot against three bots of one kind, 50 seeds x 4 seats, one worker."""
    return ["tournament", learned, against, against, against, "--games", "50", "--jobs", "1",
            "--out", f"{{runs}}/{folder}", "--quiet"]  # fmt: skip


def _learned_sentences(out: dict[str, str], runs: Path) -> list[str]:
    """Version 3 and version 2 on the same games' seeds, each with its Wilson interval,
    and paired on the games: who won where the other did not (exact McNemar), and the
    points a game (a t interval over seeds, each seed's four rotations averaged)."""
    from scipy import stats

    sys.path.insert(0, str(ROOT / "tools"))
    from bot_table import wins

    now = wins(runs / "lh", "learned:model=bundled,margin=0.01,version=3")
    before = wins(runs / "lh2", "learned:model=bundled,margin=0.01,version=2")
    new, old = (read_learned(runs / f) for f in ("lh", "lh2"))
    only_new = int((new["won"] & ~old["won"]).sum())
    only_old = int((old["won"] & ~new["won"]).sum())
    p = stats.binomtest(only_new, only_new + only_old).pvalue if only_new + only_old else 1.0
    gain = (new["points"] - old["points"]).groupby(level="seed").mean()
    half = stats.t.ppf(0.975, len(gain) - 1) * float(gain.std(ddof=1)) / len(gain) ** 0.5
    return [
        f"Version 3 (this block): {now}; version 2 on the same seeds (`learned:version=2`, "
        f"the same command): {before}. Paired on the games: version 3 won {only_new} that "
        f"version 2 lost, version 2 won {only_old} that version 3 lost (exact McNemar p = "
        f"{p:.3f}); version 3 made {float(gain.mean()):+.2f} points a game "
        f"[{float(gain.mean()) - half:+.2f}, {float(gain.mean()) + half:+.2f}] (95% t over "
        f"the {len(gain)} seeds)."
    ]


def read_learned(folder: Path) -> pd.DataFrame:
    """Per game (seed, rotation): whether the learned bot won, and its points."""
    df = pd.read_parquet(folder).set_index(["seed", "rotation"]).sort_index()
    seat = df["bots"].map(lambda bots: [str(b).startswith("learned") for b in bots].index(True))
    points = [int(p[s]) for p, s in zip(df["points"], seat, strict=True)]
    won = df["winner_bot"].map(lambda b: str(b).startswith("learned"))
    return pd.DataFrame({"won": won.astype(bool), "points": points}, index=df.index)


def _mcts_tournament(iterations: int) -> list[str]:
    return ["tournament", f"mcts:iterations={iterations}", "heuristic", "heuristic",
            "heuristic", "--games", str(MCTS_SEEDS), "--jobs", "2", "--out",
            f"{{runs}}/mcts{'' if iterations == 300 else iterations}", "--quiet"]  # fmt: skip


def _mcts_games(folder: Path) -> pd.Series:
    """Whether the mcts seat won each game of a tournament folder (1 or 0; an unfinished
    game counts as lost), indexed by the game's seed."""
    from ckdsl.sim.store import read_results

    df = read_results(folder)
    won = [
        float(str(bot).startswith("mcts") and bool(finished))
        for bot, finished in zip(df["winner_bot"], df["finished"], strict=True)
    ]
    return pd.Series(won, index=df["seed_index"].astype(int))


def _mcts_sentences(out: dict[str, str], runs: Path) -> list[str]:
    """The mcts seat's win rate at each budget, and the paired differences (seed as the
    unit: its four rotations averaged), written from the stored games."""
    from ckdsl.sim.stats.means import diff_paired_mean
    from ckdsl.sim.stats.seeds import clustered_wilson
    from ckdsl.sim.store import read_results

    def rate(won: pd.Series) -> str:
        # the seed as the unit: Wilson on the games' effective number (clustered by seed)
        i, _ = clustered_wilson(won.to_numpy(), [1] * len(won), won.index.to_numpy())
        return (f"{100 * i.estimate:.1f}% [{100 * i.low:.1f}%, {100 * i.high:.1f}%] of "
                f"{len(won)} games")  # fmt: skip

    def difference(low: pd.Series, high: pd.Series) -> str:
        a, b = low.groupby(level=0).mean(), high.groupby(level=0).mean()
        found = diff_paired_mean(a.to_numpy(), b.loc[a.index].to_numpy())
        i = found.interval
        if i.low is None or i.high is None or found.p is None:  # every seed the same
            return f"{100 * (b - a).mean():+.1f} points (no interval: every seed differs alike)"
        return (f"{100 * (b - a).mean():+.1f} points [{100 * i.low:+.1f}, {100 * i.high:+.1f}], "
                f"p = {found.p:.2g}")  # fmt: skip

    w300, w16, w50 = (_mcts_games(runs / f"mcts{'' if n == 300 else n}") for n in (300, 16, 50))
    seconds = read_results(runs / "mcts")["seconds"]
    return [
        f"{w300.index.nunique()} seeds, each in the four seat rotations ({len(w300)} games), 300 "
        f"iterations per decision: the mcts seat wins {rate(w300)}, against 25% for an equal "
        f"seat. With 16 iterations, on the same seeds: {rate(w16)}; the difference 300 − 16, "
        f"paired on the seeds (each seed's four games averaged, paired t), is "
        f"{difference(w16, w300)}. With 50 iterations: {rate(w50)} (300 − 50: "
        f"{difference(w50, w300)}).",
        f"A game of the 300-iteration run took {seconds.mean():.0f} s of wall time on average "
        f"({seconds.min():.0f} to {seconds.max():.0f} s, as the rows record it), on a machine "
        "shared with other work while it ran: no measure of the engine's speed "
        "([engine.md](engine.md#speed)).",
    ]


def _throughput_sentences(out: dict[str, str], runs: Path) -> list[str]:
    """The runner's cost and a random-bot game's time, read from the benchmark's output."""
    text = out["run"]
    plain = re.search(r"^\s*plain\s+[\d.]+ games/s wall,\s+([\d.]+) games per CPU", text, re.M)
    ratio = re.search(r"^\s*jobs 1 / plain\+metrics\s+([\d.]+)\s+([\d.]+)", text, re.M)
    if plain is None or ratio is None:
        raise SystemExit("throughput: the benchmark's output changed; read it again here")
    cost = 100 * (1 - float(ratio[2]))
    share = f"about {cost:.0f}%" if cost >= 1 else "below what these repeats can tell (under 1%)"
    return [
        f"The runner's own cost (batches, rows, Parquet files written and synced, the "
        f"manifest) is {share} of the CPU time of random-bot games, which take "
        f"{1000 / float(plain[1]):.0f} ms of CPU each here; it is the same per game for "
        f"slower bots, so a smaller share of their games."
    ]


# 500 games of four heuristic bots: one run, shown in both pages (the second reads it again)
H500 = {
    "run": ["simulate", "--games", "500", "--jobs", "2", "--out", "{runs}/h500", "--quiet"],
    "json": ["simulate", "--games", "500", "--out", "{runs}/h500", "--quiet", "--json"],
}


def _bots_simulate(version: int) -> list[str]:
    """400 games of four heuristic bots of ``version`` on the base rules, two workers."""
    spec = ",".join([f"heuristic:version={version}"] * 4)
    return ["simulate", "--players", spec, "--games", "400", "--jobs", "2",
            "--out", f"{{runs}}/h{version}", "--quiet"]  # fmt: skip


BOTS_TABLE = {
    **{f"h{v}": _bots_simulate(v) for v in (2, 3, 4)},
    "run": [
        "tools/bot_table.py",
        "{runs}/h2",
        "{runs}/h3",
        "{runs}/h4",
        "--label",
        "version 2",
        "--label",
        "version 3",
        "--label",
        "version 4",
    ],
}
LADDER = ["heuristic", "heuristic:version=3", "heuristic:version=2", "learned", "random"]
NEWEST = "heuristic:weights=bundled,version=4"  # the spec as results record it


def _h2h_sentences(out: dict[str, str], runs: Path) -> list[str]:
    return [f"The newest version's own line: `{out['wins'].strip()}`."]


BLOCKS = [
    Block("bots-table", "docs/bots.md", BOTS_TABLE, shown="run", command_line=True),
    Block(
        "bots-check",
        "docs/bots.md",
        {"h4": _bots_simulate(4), "run": ["tools/bot_table.py", "{runs}/h4", "--check"]},
        shown="run",
        command_line=True,
    ),
    Block(
        "bots-h2h",
        "docs/bots.md",
        {
            "run": [
                "tournament",
                "heuristic",
                *["heuristic:version=2"] * 3,
                "--games",
                "100",
                "--jobs",
                "2",
                "--out",
                "{runs}/h4v2",
                "--quiet",
            ],
            "wins": ["tools/bot_table.py", "{runs}/h4v2", "--wins", NEWEST],
        },
        shown="run",
        sentences=_h2h_sentences,
        command_line=True,
    ),
    Block(
        "ladder",
        "docs/bots.md",
        {"run": ["ladder", *LADDER, "--games", "10", "--jobs", "2", "--out", "{runs}/ladder"]},
        shown="run",
        command_line=True,
        timed="run",
    ),
    Block(
        "bots-speed",
        "docs/bots.md",
        {"run": ["benchmarks/heuristic_speed.py", "--games", "40"]},
        shown="run",
        command_line=True,
    ),
    Block(
        "h500",
        "docs/experiments.md",
        H500,
        shown="run",
        sentences=_simulate_sentences,
        timed="run",
    ),
    Block(
        "bots-h500",
        "docs/bots.md",
        H500,
        shown="run",
        sentences=_finished_sentences,
    ),
    Block(
        "fourteen",
        "docs/experiments.md",
        {
            "run": FOURTEEN_COMPARE,
            "json": [*FOURTEEN_COMPARE, "--json"],  # the same games, read again
        },
        shown="run",
        sentences=_pairing_sentences,
        timed="run",
    ),
    # The fourteen comparison's games read again (nothing played): seat balance by seed,
    # the level of its test, the planner.
    Block(
        "fourteen-balance",
        "docs/experiments.md",
        {"run": ["report", "{runs}/fourteen", "--quiet"]},
        shown="run",
        excerpt=("Seat balance", "Pairing gain"),
        command_line=True,
    ),
    Block(
        "seat-level",
        "docs/experiments.md",
        {"run": ["benchmarks/seat_test_level.py", "{runs}/fourteen/base", "--repeats", "4000"]},
        shown="run",
        command_line=True,
    ),
    Block(
        "fourteen-plan",
        "docs/experiments.md",
        {"run": ["plan", "{runs}/fourteen", "--delta", "0.03", "--metric", "seat4_win"]},
        shown="run",
        command_line=True,
    ),
    # Does the effect depend on the bots? A small run of its own.
    Block(
        "lineups",
        "docs/experiments.md",
        {
            "run": [
                "compare",
                "base",
                "{runs}/limit9.yaml",
                "--lineups",
                "heuristic*4 ; random,heuristic*3 ; random*2,heuristic*2",
                "--games",
                "20",
                "--jobs",
                "2",
                "--out",
                "{runs}/lineups",
                "--quiet",
            ],
        },
        shown="run",
        timed="run",
        excerpt=("Does the effect depend on the bots?", None),
        command_line=True,
    ),
    Block(
        "sweep",
        "docs/experiments.md",
        {
            "run": [
                "sweep",
                "base",
                "--set",
                "hand_limit=7..11",
                "--games",
                "40",
                "--jobs",
                "2",
                "--metric",
                "walls_at_end=count(walls(p))",
                "--out",
                "{runs}/sweep",
                "--plot",
                "docs/img/sweep-hand-limit.png",
                "--quiet",
            ],
        },
        shown="run",
        timed="run",
        figure="img/sweep-hand-limit.png",
        command_line=True,
    ),
    Block(
        "throughput",
        "docs/experiments.md",
        {"run": ["benchmarks/simulate.py", "--games", "200", "--repeats", "5"]},
        shown="run",
        sentences=_throughput_sentences,
        excerpt=("  ratios", None),
        command_line=True,
    ),
    Block(
        "heuristic-random",
        "docs/bots.md",
        {
            "run": [
                "tournament",
                "heuristic",
                "random",
                "random",
                "random",
                "--games",
                str(RANDOM_SEEDS),
                "--jobs",
                "2",
                "--out",
                "{runs}/hr",
                "--quiet",
            ],
        },
        shown="run",
        timed="run",
        command_line=True,
    ),
    Block(
        "learned-heuristic",
        "docs/bots.md",
        {
            "run": _learned_tournament("learned", "heuristic", "lh"),
            "v2": _learned_tournament("learned:version=2", "heuristic", "lh2"),
        },
        shown="run",
        sentences=_learned_sentences,
        timed="run",
        slow=True,
        command_line=True,
    ),
    Block(
        "learned-random",
        "docs/bots.md",
        {"run": _learned_tournament("learned", "random", "lr")},
        shown="run",
        timed="run",
        slow=True,
        command_line=True,
    ),
    Block(
        "mcts",
        "docs/bots.md",
        {name: _mcts_tournament(iterations) for name, iterations in MCTS_BUDGETS.items()},
        shown="run",
        sentences=_mcts_sentences,
        timed="run",
        slow=True,
        command_line=True,
    ),
]


FOURTEEN = "extends: base\noverride:\n  parameters:\n    points_to_win: 14\n"
LIMIT9 = "extends: base\noverride:\n  parameters:\n    hand_limit: 9\n"


def machine() -> str:
    """Where the numbers were made: processor, cores, Python, ckdsl's sources and build."""
    from ckdsl import native
    from ckdsl.sim.provenance import describe, provenance

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (
        f"{cpu}, {os.cpu_count()} cores (load average {load}); Python "
        f"{platform.python_version()}; ckdsl "
        f"{describe({'provenance': provenance()})}; engine {native.status()}"
    )


def run_block(block: Block, runs: Path) -> str:
    """The markdown of a block: its output, sentences and where it was measured."""
    runs.mkdir(parents=True, exist_ok=True)
    (runs / "fourteen.yaml").write_text(FOURTEEN)
    (runs / "limit9.yaml").write_text(LIMIT9)
    outputs: dict[str, str] = {}
    seconds: dict[str, float] = {}
    for name, args in block.commands.items():
        words = [a.format(runs=runs) for a in args]
        # a script of the checkout (benchmarks/...), else a ckdsl command
        argv = [sys.executable, *([] if words[0].endswith(".py") else ["-m", "ckdsl"]), *words]
        began = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
        seconds[name] = time.perf_counter() - began
        if done.returncode != 0:
            raise SystemExit(f"{block.name}: {' '.join(argv)} failed:\n{done.stderr}")
        # the folder as the page names it; no padding at the ends of lines (rich's tables)
        text = done.stdout.replace(str(runs), "runs")
        outputs[name] = "\n".join(line.rstrip() for line in text.splitlines())
    shown = shlex.join(a.format(runs="runs") for a in block.commands[block.shown])
    program = "python" if shown.split()[0].endswith(".py") else "ckdsl"
    lines = [f"`{program} {shown}`:", ""] if block.command_line else []
    output = outputs[block.shown].rstrip()
    if block.excerpt is not None:
        output = _excerpt(output, *block.excerpt)
    lines += ["```text", output, "```", ""]
    if block.figure is not None:
        lines += [f"![{block.name}]({block.figure})", ""]
    if block.sentences is not None:
        lines += [s for s in block.sentences(outputs, runs) if s] + [""]
    when = ""
    if block.timed:
        when = (f"; the command took {seconds[block.timed]:.0f} s (games an earlier run "
                "stored in its folder are read, not played again)")  # fmt: skip
    lines.append(f"*Measured on {machine()}{when}.*")
    return "\n".join(lines)


def _markers(name: str) -> tuple[str, str]:
    return (f"<!-- generated: {name} (tools/docs_experiments.py) -->", f"<!-- end: {name} -->")


def write(block: Block, text: str) -> None:
    """Put ``text`` between the block's markers in its page."""
    page = ROOT / block.page
    source = page.read_text(encoding="utf-8")
    start, end = _markers(block.name)
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if not pattern.search(source):
        raise SystemExit(f"{block.page} has no markers for '{block.name}': add\n{start}\n{end}")
    page.write_text(pattern.sub(lambda _: f"{start}\n{text}\n{end}", source), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="the blocks to regenerate")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "docs")
    parser.add_argument("--list", action="store_true", help="list the blocks")
    parser.add_argument("--check", action="store_true", help="list blocks the pages lack")
    parser.add_argument("--slow", action="store_true", help="include the slow blocks (mcts)")
    args = parser.parse_args()
    if args.list or args.check:
        for block in BLOCKS:
            start, _ = _markers(block.name)
            present = start in (ROOT / block.page).read_text(encoding="utf-8")
            if args.list or not present:
                state = "" if present else "  (no markers in the page)"
                print(f"{block.name:<18} {block.page:<22} {'slow' if block.slow else ''}{state}")
        return
    for block in BLOCKS:
        if args.only is not None and block.name not in args.only:
            continue
        if block.slow and not args.slow and args.only is None:
            continue
        print(f"{block.name}: running", file=sys.stderr, flush=True)
        write(block, run_block(block, args.runs))
        print(f"{block.name}: written to {block.page}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
