"""Games per second of the heuristic bot against its frozen version 2, interleaved in one
process: the same game seeds, four bots of one kind a game, the order of the two flipped
every game, CPU time of this process (``time.process_time``) for the games alone.

    python benchmarks/heuristic_speed.py [--games 40] [--seed 0] [--new heuristic]
                                         [--old heuristic:version=2]

Which ckdsl: the one this interpreter imports (compiled by mypyc as the install builds it,
or pure Python with ``CKDSL_PURE=1``; the header says which). The report: each bot's games
per second (total games over total seconds), their ratio (new over old), and the median of
the per-seed ratios of seconds per turn, which the games' lengths do not bias.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ckdsl import native
from ckdsl.bots import bot_seed, make_bot
from ckdsl.session import GameSetup, play, start


def one(spec: str, seed: int) -> tuple[float, int]:
    """The CPU seconds and the turns of one game of four ``spec`` bots."""
    game = start(GameSetup(seed=seed), log=False)
    bots = [make_bot(spec, bot_seed(seed, p)) for p in range(4)]
    began = time.process_time()
    play(game, bots)
    return time.process_time() - began, game.state.turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--new", default="heuristic")
    parser.add_argument("--old", default="heuristic:version=2")
    args = parser.parse_args()
    print(f"ckdsl: {native.status()}")
    one(args.new, 10**6)  # rules compiled, modules imported, before any clock
    one(args.old, 10**6)
    seconds = {args.new: 0.0, args.old: 0.0}
    per_turn: list[float] = []
    for k in range(args.games):
        seed = args.seed + k
        order = [args.new, args.old] if k % 2 == 0 else [args.old, args.new]
        got = {spec: one(spec, seed) for spec in order}
        for spec, (s, _) in got.items():
            seconds[spec] += s
        (sn, tn), (so, to) = got[args.new], got[args.old]
        per_turn.append((so / max(1, to)) / (sn / max(1, tn)))
    new, old = args.games / seconds[args.new], args.games / seconds[args.old]
    print(f"{args.new:24s} {new:6.2f} games/s ({seconds[args.new]:.1f} s)")
    print(f"{args.old:24s} {old:6.2f} games/s ({seconds[args.old]:.1f} s)")
    print(
        f"games/s ratio new/old: {new / old:.2f}; per turn, median over seeds: "
        f"{statistics.median(per_turn):.2f} (lowest {min(per_turn):.2f}, highest "
        f"{max(per_turn):.2f})"
    )


if __name__ == "__main__":
    main()
