"""Soak test: many random-bot games of the full rules, every invariant checked.

    python benchmarks/soak.py [--games 1000] [--seed 0] [--rules base] [--every N]

Each game is played to its end (a win, or the turn limit) with 3 or 4 players; any
exception, or any broken invariant (``ckdsl.core.invariants``, which includes the board
rules' kept answers) or kept playability that a check from scratch does not give
(``ckdsl.turn.cards.stale_playability``) after every ``N``-th answer and at the end, is
reported with its seed, so that one game can be replayed to find the cause. Too slow for
the test suite at 1,000 games: the suite plays a few hundred (tests/test_derived.py).
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter

from ckdsl.bots import RandomBot
from ckdsl.core.invariants import broken_invariants
from ckdsl.session import GameSetup, start
from ckdsl.turn.cards import stale_playability
from ckdsl.turn.game import Game


def faults(game: Game) -> list[str]:
    """What does not add up in ``game``, and what it keeps that is not exact."""
    return broken_invariants(game) + stale_playability(game)


def soak(games: int, seed: int, rules: str, every: int) -> int:
    """Play the games; return how many failed."""
    failed = 0
    outcomes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    decisions = 0
    began = time.perf_counter()
    for k in range(games):
        s = seed + k
        players = 3 + s % 2
        game = start(GameSetup(rules=rules, players=players, seed=s))
        bots = [RandomBot(s * 31 + p) for p in range(players)]
        try:
            step = 0
            while (decision := game.pending).kind != "over":
                kinds[decision.kind] += 1
                game.answer(bots[decision.player].choose(game.view(decision.player)))
                step += 1
                if every and step % every == 0 and (broken := faults(game)):
                    raise AssertionError("; ".join(broken))
            if broken := faults(game):
                raise AssertionError("; ".join(broken))
        except Exception:
            failed += 1
            print(f"seed {s} ({players} players) failed after {len(game.history)} answers:")
            traceback.print_exc(limit=4)
            continue
        decisions += len(game.history)
        outcomes["won" if game.state.winner >= 0 else "turn limit"] += 1
    elapsed = time.perf_counter() - began
    print(f"{games} games from seed {seed}: {failed} failed; "
          f"{outcomes['won']} won, {outcomes['turn limit']} stopped at the turn limit; "
          f"{decisions:,} decisions in {elapsed:.0f} s")  # fmt: skip
    print("decisions by kind: " + ", ".join(f"{k} {n:,}" for k, n in kinds.most_common()))
    return failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", default="base")
    parser.add_argument("--every", type=int, default=50, help="check invariants every N answers")
    args = parser.parse_args()
    sys.exit(1 if soak(args.games, args.seed, args.rules, args.every) else 0)


if __name__ == "__main__":
    main()
