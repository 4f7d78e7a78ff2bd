"""Throughput of the engine's hot path (legal options, applying an answer): full Cities &
Knights games between random bots, in games and decisions per second.

    python benchmarks/throughput.py [--games N] [--players 4] [--seed S]
                                    [--catanatron PYTHON]

Machines here are noisy, so the figures that matter are ratios against reference runs in
the same command:

- **vs bare choice**: the cost of a decision against the bare cost of a random bot picking
  an option from a tuple (the least any engine pays), in the same process;
- **vs no-op cards**: the same seeds under a variant whose card effects do nothing (the
  engine before the effect DSL), game by game in turn with the real rules, in the same
  process. The games differ (cards build roads, move knights, the robber...), so this is
  the cards' cost together with that of the richer games they make;
- **cards' own work**: the share of the time spent checking which cards can be played
  and running their effects, in the same games (a clocked third run);
- **vs catanatron**: with ``--catanatron PYTHON`` (an interpreter that has ``pip install
  catanatron``), catanatron's own random players play base Catan in a subprocess of the
  same command, and the decisions per second are compared. Catanatron plays the base
  game, with fewer rules to run per decision than Cities & Knights.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from ckdsl.bots import RandomBot
from ckdsl.session import GameSetup, load_rules, play, start

CATANATRON = """
import json, sys, time
from catanatron import Color, Game, RandomPlayer
games, seed = int(sys.argv[1]), int(sys.argv[2])
colors = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
began, decisions = time.perf_counter(), 0
for k in range(games):
    game = Game([RandomPlayer(c) for c in colors], seed=seed + k)
    game.play()
    state = game.state  # catanatron 3.3.0 renamed state.actions to state.action_records
    decisions += len(state.action_records if hasattr(state, "action_records") else state.actions)
elapsed = time.perf_counter() - began
print(json.dumps({"games": games, "seconds": elapsed, "decisions": decisions}))
"""


def run(games: int, players: int, seed: int, *rule_sets: str) -> list[dict[str, float]]:
    """Play ``games`` random-bot games under each rule set, game by game in turn (so that
    the machine's drift falls on all of them alike); their counts and timings."""
    for rules in rule_sets:  # load and compile the rules first
        start(GameSetup(rules=rules, players=players, seed=0))
    totals = [{"games": games, "finished": 0, "seconds": 0.0, "decisions": 0} for _ in rule_sets]
    for k in range(games):
        for rules, total in zip(rule_sets, totals, strict=True):
            began = time.perf_counter()
            game = start(GameSetup(rules=rules, players=players, seed=seed + k))
            play(game, [RandomBot(seed * 7919 + k * 31 + p) for p in range(players)])
            total["seconds"] += time.perf_counter() - began
            total["decisions"] += len(game.history)
            total["finished"] += game.state.winner >= 0
    for total in totals:
        total["games_per_s"] = games / total["seconds"]
        total["decisions_per_s"] = total["decisions"] / total["seconds"]
    return totals


class CardClock:
    """Time spent in the cards' own work, the DSL's part of a game: checking which cards
    can be played, and running their effects (set up before the games start)."""

    def __init__(self) -> None:
        from ckdsl.dsl import runtime
        from ckdsl.engine import game, progress

        self.seconds = 0.0
        progress.unplayable = self.timed(runtime.unplayable)  # type: ignore[assignment]
        runtime.TASK_OPTIONS["effect"] = self.timed(runtime.TASK_OPTIONS["effect"])
        game._TABLES.clear()  # the games gather the tables again, with the clocked one

    def timed(self, fn: Any) -> Any:
        def clocked(*args: Any) -> Any:
            began = time.perf_counter()
            try:
                return fn(*args)
            finally:
                self.seconds += time.perf_counter() - began

        return clocked


def bare_choice_seconds(decisions: int, width: int = 20) -> float:
    """The bare cost of choosing among options, as often as the games decided."""
    rng = random.Random(0)
    options = tuple(range(width))
    began = time.perf_counter()
    for _ in range(decisions):
        options[int(rng.random() * len(options))]
    return time.perf_counter() - began


def no_op_cards_variant(folder: Path) -> str:
    """A variant of the base rules whose every card effect is `stop` (does nothing)."""
    cards = load_rules("base").ruleset.cards
    lines = ["extends: base", "override:", "  cards:"]
    lines += [f"    {card}: {{effect: stop}}" for card in cards]
    path = folder / "no_op_cards.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def catanatron(python: str, games: int, seed: int) -> dict[str, float]:
    out = subprocess.run(
        [python, "-c", CATANATRON, str(games), str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    data["decisions_per_s"] = data["decisions"] / data["seconds"]
    data["games_per_s"] = data["games"] / data["seconds"]
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--catanatron", metavar="PYTHON", help="an interpreter with catanatron")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        no_op = no_op_cards_variant(Path(folder))
        r, plain = run(args.games, args.players, args.seed, "base", no_op)
    clock = CardClock()
    timed = run(args.games, args.players, args.seed, "base")[0]
    bare = bare_choice_seconds(int(r["decisions"]))
    print(f"Cities & Knights, {args.players} random bots, {r['games']:.0f} games "
          f"({r['finished']:.0f} won, the rest stopped at the turn limit)")  # fmt: skip
    print(f"  time             {r['seconds']:.2f} s")
    print(f"  games/s          {r['games_per_s']:.2f}")
    print(f"  decisions/s      {r['decisions_per_s']:,.0f}")
    print(f"  decisions/game   {r['decisions'] / r['games']:,.0f}")
    print(f"  vs bare choice   {r['seconds'] / bare:.0f}x the cost of picking an option alone")
    ratio = r["decisions_per_s"] / plain["decisions_per_s"]
    print(f"  vs no-op cards   {ratio:.2f}x the decisions/s of the same games with cards that "
          f"do nothing ({plain['decisions_per_s']:,.0f}/s)")  # fmt: skip
    share = clock.seconds / timed["seconds"]
    print(f"  cards' own work  {share:.0%} of the time (checking which can be played, running "
          "their effects), same games")  # fmt: skip
    if args.catanatron:
        cat = catanatron(args.catanatron, args.games, args.seed)
        ratio = r["decisions_per_s"] / cat["decisions_per_s"]
        print(f"  vs catanatron    {ratio:.2f}x its decisions/s ({cat['decisions_per_s']:,.0f}/s,"
              f" {cat['games_per_s']:.1f} games/s, base game, measured now)")  # fmt: skip


if __name__ == "__main__":
    main()
