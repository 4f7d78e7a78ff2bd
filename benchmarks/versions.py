"""Decisions per second of this working tree against an earlier commit, side by side.

    python benchmarks/versions.py [--against REV] [--rounds 40] [--games 2] [--seed S] [--cpu]

A change to the engine must not slow it down unnoticed, and these machines are too noisy
for two runs made minutes apart to be compared: other guests of the virtual machine take
whole seconds of it at random. So the earlier commit (``--against``, default ``HEAD``: the
last commit, against the uncommitted work) is exported to a temporary folder, one
persistent worker process per tree loads its package (and compiles the rules) once, and
the two play the same random-bot games in small alternating blocks (``--games`` games
each, the order flipped every round), so that a slow spell of the machine falls on both
alike. The report is the median of the per-round ratios of decisions per second (with
the lowest and highest) and the ratio of the totals. Both trees run pure Python (an
exported commit has no compiled build): it compares the code, not the builds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# A worker: reads "first_seed games" lines, plays those games, answers with a JSON line.
WORKER = """
import json, sys, time
from ckdsl.bots import RandomBot
from ckdsl.session import GameSetup, play, start
clock = time.process_time if sys.argv[1] == "cpu" else time.perf_counter
start(GameSetup(seed=0))  # rules loaded and compiled before any clock starts
print("ready", flush=True)
for line in sys.stdin:
    seed, games = map(int, line.split())
    decisions, elapsed = 0, 0.0
    for k in range(games):
        game = start(GameSetup(seed=seed + k), log=False)
        bots = [RandomBot(seed + k * 10 + p) for p in range(4)]
        began = clock()
        play(game, bots)
        elapsed += clock() - began
        decisions += len(game.history)
    print(json.dumps({"decisions": decisions, "seconds": elapsed}), flush=True)
"""


def export(rev: str, into: Path) -> Path:
    """The tree of commit ``rev`` in ``into`` (ckdsl, rules and grammars are enough)."""
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), rev], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


class Worker:
    """A process playing games with the package in ``tree``, kept for the whole run."""

    def __init__(self, tree: Path, clock: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, clock],
            cwd=tree,
            # both trees pure Python: the earlier one, exported, has no compiled build, and
            # this tree's (ckdsl/_compiled) would otherwise run against it
            env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "CKDSL_PURE": "1"},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if self._line() != "ready":
            raise RuntimeError(f"the worker of {tree} did not start")

    def _line(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("a worker stopped (see its error above)")
        return line.strip()

    def play(self, seed: int, games: int) -> tuple[int, float]:
        """Decisions and seconds of ``games`` games from ``seed`` on."""
        assert self.process.stdin is not None
        self.process.stdin.write(f"{seed} {games}\n")
        self.process.stdin.flush()
        result = json.loads(self._line())
        return int(result["decisions"]), float(result["seconds"])

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="HEAD", help="the earlier commit (default HEAD)")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--games", type=int, default=2, help="games per tree per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time each tree by its process's CPU time instead of the wall clock",
    )
    args = parser.parse_args()
    clock = "cpu" if args.cpu else "wall"
    with tempfile.TemporaryDirectory() as tmp:
        workers = {
            "now": Worker(REPO, clock),
            "then": Worker(export(args.against, Path(tmp)), clock),
        }
        try:
            ratios: list[float] = []
            totals = {name: [0, 0.0] for name in workers}
            for r in range(args.rounds):
                order = ["now", "then"] if r % 2 == 0 else ["then", "now"]
                rates = {}
                for name in order:
                    decisions, seconds = workers[name].play(args.seed + r * 1000, args.games)
                    totals[name][0] += decisions
                    totals[name][1] += seconds
                    rates[name] = decisions / seconds
                ratios.append(rates["now"] / rates["then"])
                print(f"round {r + 1}: ratio {ratios[-1]:.3f}", file=sys.stderr)
        finally:
            for worker in workers.values():
                worker.close()
    now, then = (totals[n][0] / totals[n][1] for n in ("now", "then"))
    print(
        f"this tree vs {args.against}: median ratio {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f}; ratio of the totals {now / then:.3f}; "
        f"{args.rounds} rounds of {args.games} games per tree, {clock} clock); "
        f"decisions/s {now:,.0f} vs {then:,.0f}"
    )


if __name__ == "__main__":
    main()
