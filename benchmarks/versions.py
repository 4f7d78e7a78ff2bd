"""Decisions per second of this working tree against an earlier commit, side by side.

    python benchmarks/versions.py [--against REV] [--rounds 7] [--games 20] [--seed S]

A change to the engine must not slow it down unnoticed, and these machines are too noisy
for two runs made minutes apart to be compared. So the earlier commit (``--against``,
default ``HEAD``: the last commit, against the uncommitted work) is exported to a
temporary folder, and the two trees play the same random-bot games in alternating rounds
(each round in a fresh process per tree, the order flipped every round). The report is
the median of the per-round ratios of decisions per second, with the lowest and highest.
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

MEASURE = """
import json, sys, time
from ckdsl.bots import RandomBot
from ckdsl.session import GameSetup, play, start
games, seed = int(sys.argv[1]), int(sys.argv[2])
start(GameSetup(seed=0))  # rules loaded and compiled before the clock starts
decisions, elapsed = 0, 0.0
for k in range(games):
    game = start(GameSetup(seed=seed + k), log=False)
    bots = [RandomBot(seed + k * 10 + p) for p in range(4)]
    began = time.perf_counter()
    play(game, bots)
    elapsed += time.perf_counter() - began
    decisions += len(game.history)
print(json.dumps({"decisions": decisions, "seconds": elapsed}))
"""


def export(rev: str, into: Path) -> Path:
    """The tree of commit ``rev`` in ``into`` (ckdsl, rules and grammars are enough)."""
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "-o", str(archive), rev], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def measure(tree: Path, games: int, seed: int) -> float:
    """Decisions per second of ``games`` random games played with the package in ``tree``."""
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, str(games), str(seed)],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    return float(result["decisions"] / result["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="HEAD", help="the earlier commit (default HEAD)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--games", type=int, default=20, help="games per tree per round")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = export(args.against, Path(tmp))
        ratios, now_rates, then_rates = [], [], []
        for r in range(args.rounds):
            order = [("now", REPO), ("then", before)]
            if r % 2:
                order.reverse()
            rates = {name: measure(tree, args.games, args.seed + r * 1000) for name, tree in order}
            now_rates.append(rates["now"])
            then_rates.append(rates["then"])
            ratios.append(rates["now"] / rates["then"])
            print(
                f"round {r + 1}: this tree {rates['now']:,.0f} decisions/s, "
                f"{args.against} {rates['then']:,.0f}, ratio {ratios[-1]:.3f}",
                file=sys.stderr,
            )
    print(
        f"this tree vs {args.against}: median ratio {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f}, {args.rounds} rounds of "
        f"{args.games} games); decisions/s median {statistics.median(now_rates):,.0f} vs "
        f"{statistics.median(then_rates):,.0f}"
    )


if __name__ == "__main__":
    main()
