"""Does the seat-balance test hold its level under seat rotation? A simulation on real games.

    python benchmarks/seat_test_level.py RESULTS_DIR [--repeats 2000] [--alpha 0.05] [--seed 1]

RESULTS_DIR is a results folder played with ``--rotate-seats`` (for instance the base
folder of ``ckdsl compare base X --games 200 --rotate-seats --out runs/x``, i.e.
``runs/x/base``). Each repetition takes its games and, **for each seed, relabels the seats
by one random permutation** (the same for all the seed's rotations). That makes the null
hypothesis true, every seat's expected share being equal, while it keeps what makes the
games of a seed alike (the same seat wins most of a seed's rotations). Both tests are then
run at level ``--alpha``:

- the χ² goodness of fit of wins by seat over the finished **games** (the test the report
  printed before the seed became the unit: ``stats.seat_balance``);
- Hotelling's T² on the per-seed win shares (``seeds.equal_means_test`` on
  ``seeds.seat_shares``, as ``seat_balance_by_seed`` runs it: the seed as the unit), and
  its Wald χ² form.

A test that holds its level rejects in about alpha of the repetitions (within the Monte
Carlo error printed beside it); the χ² over games, which counts each seed's rotations as
independent games, rejects far more often. Not a test of the suite: it reads a stored
folder and takes a few seconds.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd  # type: ignore[import-untyped, unused-ignore]

from ckdsl.sim.stats.balance import seat_balance
from ckdsl.sim.stats.seeds import equal_means_test, seat_shares
from ckdsl.sim.store import read_results


def relabelled(
    winners: np.ndarray, inverse: np.ndarray, seeds: int, seats: int, rng: np.random.Generator
) -> np.ndarray:
    """The winners' seats after one random permutation of the seats per seed (-1 stays)."""
    perms = rng.permuted(np.tile(np.arange(seats), (seeds, 1)), axis=1)
    out = np.asarray(winners.copy())
    won = winners >= 0
    out[won] = perms[inverse[won], winners[won]]
    return out


def table_of(winners: np.ndarray, blocks: np.ndarray, seats: int) -> pd.DataFrame:
    data = {f"win_seat_{s + 1}": (winners == s).astype(np.float64) for s in range(seats)}
    data["block"] = blocks
    return pd.DataFrame(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    frame = read_results(args.folder)
    seats = max(len(p) for p in frame["points"])
    finished = frame["finished"].to_numpy(dtype=bool)
    winners = np.where(finished, frame["winner_seat"].to_numpy(dtype=np.int64), -1)
    blocks = frame["seed_index"].to_numpy(dtype=np.int64)
    ids, inverse = np.unique(blocks, return_inverse=True)
    per_seed = len(frame) / ids.size
    if per_seed <= 1:
        print("each seed has one game: play the folder with --rotate-seats", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    rejected = {"chi2 over games": 0, "Hotelling F by seed": 0, "Wald chi2 by seed": 0}
    for _ in range(args.repeats):
        w = relabelled(winners, inverse, ids.size, seats, rng)
        wins = [int((w == s).sum()) for s in range(seats)]
        naive = seat_balance(wins, int(finished.sum())).p
        test = equal_means_test(seat_shares(table_of(w, blocks, seats), seats)[1])
        rejected["chi2 over games"] += naive is not None and naive < args.alpha
        rejected["Hotelling F by seed"] += test.p is not None and test.p < args.alpha
        rejected["Wald chi2 by seed"] += test.p_wald is not None and test.p_wald < args.alpha
    observed = table_of(winners, blocks, seats)
    real = equal_means_test(seat_shares(observed, seats)[1])
    wins = [int((winners == s).sum()) for s in range(seats)]
    print(
        f"{args.folder}: {len(frame)} games, {ids.size} seeds ({per_seed:g} games per seed), "
        f"{seats} seats"
    )
    print(
        f"as played: chi2 over games p = {seat_balance(wins, int(finished.sum())).p:.4g}; "
        f"by seed {real.describe()}, Wald chi2 p = {real.p_wald:.4g}"
    )
    mc = 1.96 * math.sqrt(args.alpha * (1 - args.alpha) / args.repeats)
    print(
        f"seat labels shuffled within each seed, {args.repeats} repetitions, alpha = "
        f"{args.alpha} (Monte Carlo 95% margin ±{mc:.3f}):"
    )
    for name, count in rejected.items():
        rate = count / args.repeats
        verdict = "holds its level" if rate <= args.alpha + mc else "exceeds its level"
        print(f"  {name:<22} rejects {rate:6.3f}  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
