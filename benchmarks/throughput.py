"""Throughput of the engine's hot path: random-bot games per second, decisions per second.

    python benchmarks/throughput.py [--games N] [--players 4] [--seed S]

Machines here are noisy, so besides absolute figures it prints a ratio against a
reference loop run in the same process: the cost of asking a random bot for an answer
alone (choice over a tuple of the same size), i.e. how many times slower a decision is
than the bare minimum any engine pays. For comparison outside this process: catanatron
3.3 (base game, four random bots) plays about 27 games/s, about 28,000 decisions/s, on
one core of a 2-core machine like CI's.
"""

from __future__ import annotations

import argparse
import random
import time

from ckdsl.bots import RandomBot
from ckdsl.session import GameSetup, play, start

CATANATRON_DECISIONS_PER_S = 28_000


def run(games: int, players: int, seed: int) -> dict[str, float]:
    decisions = 0
    finished = 0
    began = time.perf_counter()
    for k in range(games):
        game = start(GameSetup(players=players, seed=seed + k))
        bots = [RandomBot(seed * 7919 + k * 31 + p) for p in range(players)]
        play(game, bots)
        decisions += len(game.history)
        finished += game.state.winner >= 0
    elapsed = time.perf_counter() - began
    # The reference: the bare cost of choosing among options, same count, same process.
    rng = random.Random(0)
    options = tuple(range(20))
    t0 = time.perf_counter()
    for _ in range(decisions):
        options[int(rng.random() * len(options))]
    reference = time.perf_counter() - t0
    return {
        "games": games,
        "finished": finished,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "decisions_per_game": decisions / games,
        "ratio_to_bare_choice": elapsed / reference if reference else float("inf"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start(GameSetup(players=args.players, seed=0))  # load and compile the rules first
    r = run(args.games, args.players, args.seed)
    print(f"games            {r['games']:.0f} ({r['finished']:.0f} finished, rest hit the turn limit)")
    print(f"time             {r['seconds']:.2f} s")
    print(f"games/s          {r['games_per_s']:.2f}")
    print(f"decisions/s      {r['decisions_per_s']:,.0f}")
    print(f"decisions/game   {r['decisions_per_game']:,.0f}")
    print(f"vs bare choice   {r['ratio_to_bare_choice']:.1f}x the cost of picking an option alone")
    print(
        f"vs catanatron    {r['decisions_per_s'] / CATANATRON_DECISIONS_PER_S:.1f}x its "
        "decisions/s (its published figure, not measured here)"
    )


if __name__ == "__main__":
    main()
