"""Throughput of random-bot games: ckdsl's Cities & Knights against catanatron's base game,
in decisions per second, interleaved in one command.

    python benchmarks/throughput.py [--catanatron PYTHON] [--games K] [--rounds R]
                                    [--repeat N] [--players 4] [--seed S] [--wall]
                                    [--no-log]
                                    [--detail [GAMES]] [--json]

What is compared: ckdsl plays full Cities & Knights (the ``base`` rules, every card live)
between ``RandomBot``s; catanatron plays base Catan between its ``RandomPlayer``s. A
decision is one answer a bot gives, forced ones included: for ckdsl an entry of
``game.history``, for catanatron an action record (``state.action_records`` from 3.3.0,
``state.actions`` in 3.2.1). Both count the roll of the dice and the end of a turn as
decisions (each player answers them, often as the only option). Discards differ: ckdsl and
catanatron 3.3.0 discard card by card (one decision each), catanatron 3.2.1 discards a
whole hand in one decision. A game is ``start`` and ``play`` (ckdsl), ``Game(...)`` and
``game.play()`` (catanatron), to a win or the turn limit; the output says how many of each
finished.

Which ckdsl: the one this interpreter imports, compiled by mypyc as the install builds it,
or pure Python (``CKDSL_PURE=1``; the header says which), keeping the game's log as
``ckdsl play`` does, or none with ``--no-log``, as ``ckdsl simulate`` plays.

How: each engine runs in its own worker process, started once (ckdsl under this
interpreter, catanatron under ``--catanatron``), which plays a block of games whenever
asked (one JSON line in, one out) and times it from inside: CPU seconds of the worker
(``time.process_time``; ``--wall`` for ``time.perf_counter``), the block's games only. The
parent alternates small blocks (``--games`` games each, the engine that goes first
swapped every round) for ``--rounds`` rounds, so that a slow spell of the machine falls on
both, and repeats the whole ``--repeat`` times with fresh game seeds (both engines play
the same seed numbers in a round). One warm-up block each comes first, not counted (ckdsl
compiles its rules there). ckdsl's games are the same from run to run; catanatron's are
not (3.2.1 and 3.3.0 alike, even with a fixed ``PYTHONHASHSEED``): its decision counts
change between runs, its rates with them.

The floor: after each block, the worker times a bare random choice from a tuple of 20
options (what a random bot does, without any game), as many times as the block had
decisions, with the same clock. It is the least any engine can pay per decision on that
interpreter, and shows whether the two interpreters run at the same speed (their floor
ratio near 1).

Per repetition: games, finished games, decisions, decisions/s, games/s, µs per decision
and the floor for each engine; the ratio of decisions per second (ckdsl / catanatron,
from the repetition's totals) and the median of the per-round ratios. Last, one summary
line with every repetition's ratio.

``--detail`` adds, in this process, two figures of ckdsl alone: **vs no-op cards** (the
same seeds under a variant whose card effects do nothing, game by game in turn with the
real rules) and **cards' own work** (the share of the time spent checking which cards can
be played and running their effects, in a clocked third run).

How to install catanatron for it, in a virtual environment of its own (Python 3.11 or
newer). 3.2.1, the last release on PyPI::

    python3 -m venv /work/catanatron321-venv
    /work/catanatron321-venv/bin/pip install catanatron==3.2.1

3.3.0 is not on PyPI: install it from its source (``benchmarks/clone.py`` says which
commit and how), ``/work/catanatron-venv/bin/pip install /work/catanatron-src``. Then
``python benchmarks/throughput.py --catanatron /work/catanatron-venv/bin/python``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

import ckdsl
from ckdsl.bots import RandomBot
from ckdsl.session import GameSetup, load_rules, play, start

# The loop of both workers, the same text in both: a hello line, then one block of games per
# command line. The engine's part (``play_game``, ``HELLO``) comes before it.
WORKER = """
import gc, json, random, sys, time

out, sys.stdout = sys.stdout, sys.stderr  # the protocol's lines only on stdout


def bare_choices(count, width=20):
    rng = random.Random(0)
    options = tuple(range(width))
    for _ in range(count):
        options[int(rng.random() * len(options))]


def timed(work, *args):
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    result = work(*args)
    return result, time.process_time() - cpu, time.perf_counter() - wall


def games(count, seed):
    decisions = finished = 0
    for k in range(count):
        d, f = play_game(seed + k)
        decisions += d
        finished += f
    return decisions, finished


def block(count, seed):
    (decisions, finished), cpu, wall = timed(games, count, seed)
    _, floor_cpu, floor_wall = timed(bare_choices, decisions)
    return {"games": count, "decisions": decisions, "finished": finished, "cpu": cpu,
            "wall": wall, "floor_cpu": floor_cpu, "floor_wall": floor_wall}


def send(reply):
    out.write(json.dumps(reply) + "\\n")
    out.flush()


HELLO.update(python=sys.version.split()[0], executable=sys.executable)
send(HELLO)
for line in sys.stdin:
    command = json.loads(line)
    if command.get("quit"):
        break
    send(block(command["games"], command["seed"]))
"""

# argv: -c, the folder to import ckdsl from, players, "log" or "no-log".
CKDSL = """
import sys
sys.path.insert(0, sys.argv[1])
import ckdsl
from ckdsl import native
from ckdsl.bots import RandomBot
from ckdsl.session import GameSetup, play, start

PLAYERS, LOG = int(sys.argv[2]), sys.argv[3] == "log"
BUILD = native.status()


def play_game(seed):
    game = start(GameSetup(rules="base", players=PLAYERS, seed=seed), log=LOG)
    play(game, [RandomBot(seed * 31 + p) for p in range(PLAYERS)])
    return len(game.history), game.state.winner >= 0


rules = start(GameSetup(rules="base", players=PLAYERS, seed=1)).rules
HELLO = {"engine": "ckdsl", "version": ckdsl.__version__,
         "game": "full Cities & Knights (the base rules, every card live)",
         "bots": f"{PLAYERS} ckdsl RandomBots", "points": rules.number("points_to_win"),
         "turn_limit": rules.number("turn_limit"),
         "build": BUILD + (", the game's log kept" if LOG else ", no log (as ckdsl simulate)")}
"""

# argv: -c, (unused), players. catanatron 3.3.0 renamed state.actions to action_records.
CATANATRON = """
import sys
from importlib.metadata import version
import catanatron.game
from catanatron import Color, Game, RandomPlayer

PLAYERS = int(sys.argv[2])
COLORS = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)[:PLAYERS]


def play_game(seed):
    game = Game([RandomPlayer(c) for c in COLORS], seed=seed)  # seeds the players' RNG
    game.play()
    state = game.state
    records = state.action_records if hasattr(state, "action_records") else state.actions
    return len(records), game.winning_color() is not None


HELLO = {"engine": "catanatron", "version": version("catanatron"),
         "game": "base Catan", "bots": f"{PLAYERS} catanatron RandomPlayers",
         "points": Game([RandomPlayer(c) for c in COLORS], seed=1).vps_to_win,
         "turn_limit": catanatron.game.TURNS_LIMIT}
"""


class WorkerError(Exception):
    """A worker that cannot start or that stopped: the message says why."""


class Worker:
    """One engine's worker process, started once, asked for blocks of games."""

    def __init__(
        self, name: str, python: str, code: str, players: int, hint: str = "", log: bool = True
    ) -> None:
        self.name = name
        self.python = python
        # The worker's stderr, read when it stops (closed by ``close``).
        self.errors: IO[str] = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        root = str(Path(ckdsl.__file__).resolve().parent.parent)
        try:
            self.process = subprocess.Popen(
                [python, "-c", code + WORKER, root, str(players), "log" if log else "no-log"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.errors,
                text=True,
            )
        except OSError as error:
            self.errors.close()
            raise WorkerError(f"cannot run {python!r} for {name}: {error.strerror}{hint}") from None
        try:
            self.hello = self.read()
        except WorkerError as error:
            self.close()
            raise WorkerError(f"{error}{hint}") from None

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        try:
            reply: dict[str, Any] = json.loads(line)
        except ValueError:
            raise WorkerError(self.death()) from None
        return reply

    def death(self) -> str:
        """Why the worker stopped: its exit code and the last line of its stderr."""
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.errors.seek(0)
        lines = [line.strip() for line in self.errors.read().splitlines() if line.strip()]
        last = lines[-1] if lines else "no message"
        return f"the {self.name} worker ({self.python}) stopped, exit code {code}: {last}"

    def block(self, games: int, seed: int) -> dict[str, float]:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps({"games": games, "seed": seed}) + "\n")
            self.process.stdin.flush()
        except OSError:
            raise WorkerError(self.death()) from None
        return self.read()

    def close(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            try:
                self.process.stdin.write(json.dumps({"quit": True}) + "\n")
                self.process.stdin.close()
                self.process.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.errors.close()


def totals(blocks: list[dict[str, float]], clock: str) -> dict[str, float]:
    """One engine's sums over a repetition's blocks, and its rates."""
    total = {key: sum(b[key] for b in blocks) for key in ("games", "decisions", "finished")}
    total["seconds"] = sum(b[clock] for b in blocks)
    total["floor_seconds"] = sum(b["floor_" + clock] for b in blocks)
    total["decisions_per_s"] = total["decisions"] / total["seconds"]
    total["games_per_s"] = total["games"] / total["seconds"]
    total["us_per_decision"] = total["seconds"] / total["decisions"] * 1e6
    total["floor_us"] = total["floor_seconds"] / total["decisions"] * 1e6
    return total


def rate(block: dict[str, float], clock: str) -> float:
    return block["decisions"] / block[clock]


def compare(args: argparse.Namespace) -> dict[str, Any]:
    """The interleaved blocks, repetition by repetition."""
    clock = "wall" if args.wall else "cpu"
    workers = [Worker("ckdsl", sys.executable, CKDSL, args.players, log=not args.no_log)]
    try:
        if args.catanatron:
            hint = (
                "\n  (--catanatron needs a Python that can import catanatron: see " + __file__ + ")"
            )
            workers.append(Worker("catanatron", args.catanatron, CATANATRON, args.players, hint))
        for worker in workers:  # warm-up, seeds outside those counted
            worker.block(args.games, 1_000_000 + args.seed)
        repetitions = []
        span = args.rounds * args.games
        for rep in range(args.repeat):
            blocks: dict[str, list[dict[str, float]]] = {w.name: [] for w in workers}
            first = args.seed + rep * span
            for r in range(args.rounds):
                order = workers if r % 2 == 0 else workers[::-1]
                for worker in order:
                    blocks[worker.name].append(worker.block(args.games, first + r * args.games))
            result: dict[str, Any] = {
                "seeds": [first, first + span - 1],
                "engines": {name: totals(b, clock) for name, b in blocks.items()},
            }
            if args.catanatron:
                ck, cat = result["engines"]["ckdsl"], result["engines"]["catanatron"]
                rounds = [
                    rate(a, clock) / rate(b, clock)
                    for a, b in zip(blocks["ckdsl"], blocks["catanatron"], strict=True)
                ]
                result["ratio"] = ck["decisions_per_s"] / cat["decisions_per_s"]
                result["round_ratios"] = rounds
                result["median_round_ratio"] = statistics.median(rounds)
                result["floor_ratio"] = ck["floor_us"] / cat["floor_us"]
            repetitions.append(result)
    finally:
        for worker in workers:
            worker.close()
    return {
        "clock": "wall" if args.wall else "CPU",
        "games_per_block": args.games,
        "rounds": args.rounds,
        "repeat": args.repeat,
        "workers": {w.name: w.hello for w in workers},
        "repetitions": repetitions,
    }


def report(result: dict[str, Any]) -> None:
    workers = result["workers"]
    both = "catanatron" in workers
    title = "ckdsl against catanatron" if both else "ckdsl"
    print(f"{title}: random-bot games, decisions per second, interleaved in one command")
    for hello in workers.values():
        print(f"  {hello['engine']:<11} {hello['version']}: {hello['game']}, {hello['bots']},")
        print(f"  {'':<11} {hello['points']} points to win, unfinished at turn "
              f"{hello['turn_limit']}; Python {hello['python']} "
              f"({hello['executable']})")  # fmt: skip
        if "build" in hello:
            print(f"  {'':<11} {hello['build']}")
    print("  a decision  one answer of a bot, forced ones included (rolling the dice, ending")
    print("              the turn): ckdsl an entry of game.history, catanatron an action record")
    print(f"  blocks      {result['games_per_block']} games each, alternating (who goes first "
          f"swapped every round),")  # fmt: skip
    print(f"              {result['rounds']} rounds per repetition, after a warm-up block each")
    print(f"  clock       {result['clock']} time of each worker inside its blocks")
    print("  floor       a bare random choice among 20 options, as many as the block's "
          "decisions,")  # fmt: skip
    print("              timed by the same worker after each block, same clock")
    head = (f"    {'':<11}{'games':>6}{'finished':>10}{'decisions':>11}{'per game':>9}"
            f"{'seconds':>9}{'decisions/s':>13}{'games/s':>9}{'µs/decision':>13}"
            f"{'floor µs':>10}{'x floor':>9}")  # fmt: skip
    for n, rep in enumerate(result["repetitions"], start=1):
        print(f"\nrepetition {n} (game seeds {rep['seeds'][0]}..{rep['seeds'][1]})")
        print(head)
        for name, t in rep["engines"].items():
            finished = f"{t['finished']:.0f}/{t['games']:.0f}"
            print(f"    {name:<11}{t['games']:>6.0f}{finished:>10}{t['decisions']:>11,.0f}"
                  f"{t['decisions'] / t['games']:>9,.0f}{t['seconds']:>9.2f}"
                  f"{t['decisions_per_s']:>13,.0f}{t['games_per_s']:>9.2f}"
                  f"{t['us_per_decision']:>13.2f}{t['floor_us']:>10.3f}"
                  f"{t['us_per_decision'] / t['floor_us']:>9.0f}")  # fmt: skip
        if both:
            low, high = min(rep["round_ratios"]), max(rep["round_ratios"])
            print(f"    decisions/s ckdsl / catanatron: {rep['ratio']:.2f} (totals), median of "
                  f"{len(rep['round_ratios'])} rounds {rep['median_round_ratio']:.2f} (from "
                  f"{low:.2f} to {high:.2f}); floor ckdsl / catanatron "
                  f"{rep['floor_ratio']:.2f}")  # fmt: skip
    reps = result["repetitions"]
    if both:
        ratios = ", ".join(f"{rep['ratio']:.2f}" for rep in reps)
        medians = ", ".join(f"{rep['median_round_ratio']:.2f}" for rep in reps)
        version = workers["catanatron"]["version"]
        print(f"\nsummary: ckdsl Cities & Knights / catanatron {version} base game, random "
              f"bots, decisions/s ({result['clock']} time, interleaved): {ratios} "
              f"(per repetition, from totals; medians of rounds {medians}); lowest "
              f"{min(rep['ratio'] for rep in reps):.2f}")  # fmt: skip
    else:
        rates = ", ".join(f"{rep['engines']['ckdsl']['decisions_per_s']:,.0f}" for rep in reps)
        print(f"\nsummary: ckdsl Cities & Knights, random bots, decisions/s ({result['clock']} "
              f"time): {rates} (per repetition; no --catanatron to compare with)")  # fmt: skip


# --- --detail: ckdsl alone, in this process -------------------------------------------------


def run(games: int, players: int, seed: int, *rule_sets: str) -> list[dict[str, float]]:
    """Play ``games`` random-bot games under each rule set, game by game in turn (so that
    the machine's drift falls on all of them alike); their counts and timings."""
    for rules in rule_sets:  # load and compile the rules first
        start(GameSetup(rules=rules, players=players, seed=0))
    results = [{"games": games, "finished": 0, "seconds": 0.0, "decisions": 0} for _ in rule_sets]
    for k in range(games):
        for rules, total in zip(rule_sets, results, strict=True):
            began = time.process_time()
            game = start(GameSetup(rules=rules, players=players, seed=seed + k))
            play(game, [RandomBot(seed * 7919 + k * 31 + p) for p in range(players)])
            total["seconds"] += time.process_time() - began
            total["decisions"] += len(game.history)
            total["finished"] += game.state.winner >= 0
    for total in results:
        total["decisions_per_s"] = total["decisions"] / total["seconds"]
    return results


class CardClock:
    """Time spent in the cards' own work, the DSL's part of a game: checking which cards
    can be played, and running their effects (set up before the games start)."""

    def __init__(self) -> None:
        from ckdsl.dsl import runtime
        from ckdsl.turn import cards, game

        self.seconds = 0.0
        cards.unplayable = self.timed(runtime.unplayable)  # type: ignore[attr-defined]
        runtime.TASK_OPTIONS["effect"] = self.timed(runtime.TASK_OPTIONS["effect"])
        game._TABLES.clear()  # the games gather the tables again, with the clocked one

    def timed(self, fn: Any) -> Any:
        def clocked(*args: Any) -> Any:
            began = time.process_time()
            try:
                return fn(*args)
            finally:
                self.seconds += time.process_time() - began

        return clocked


def no_op_cards_variant(folder: Path) -> str:
    """A variant of the base rules whose every card effect is `stop` (does nothing)."""
    cards = load_rules("base").ruleset.cards
    lines = ["extends: base", "override:", "  cards:"]
    lines += [f"    {card}: {{effect: stop}}" for card in cards]
    path = folder / "no_op_cards.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def detail(games: int, players: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        no_op = no_op_cards_variant(Path(folder))
        real, plain = run(games, players, seed, "base", no_op)
    clock = CardClock()
    timed = run(games, players, seed, "base")[0]
    return {
        "games": games,
        "decisions_per_s": real["decisions_per_s"],
        "no_op_decisions_per_s": plain["decisions_per_s"],
        "vs_no_op_cards": real["decisions_per_s"] / plain["decisions_per_s"],
        "cards_share": clock.seconds / timed["seconds"],
    }


def report_detail(d: dict[str, float]) -> None:
    print(f"\nckdsl alone, in this process, {d['games']:.0f} games per run, CPU time (--detail)")
    print(f"  vs no-op cards   {d['vs_no_op_cards']:.2f}x the decisions/s of the same games with "
          f"cards that do nothing ({d['decisions_per_s']:,.0f}/s against "
          f"{d['no_op_decisions_per_s']:,.0f}/s, game by game in turn)")  # fmt: skip
    print(f"  cards' own work  {d['cards_share']:.0%} of the time (checking which can be played, "
          "running their effects), same games")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--catanatron", metavar="PYTHON", help="an interpreter with catanatron")
    parser.add_argument("--games", type=int, default=2, help="games per block (default 2)")
    parser.add_argument("--rounds", type=int, default=25, help="rounds per repetition")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument("--players", type=int, default=4, choices=(3, 4))
    parser.add_argument("--seed", type=int, default=1, help="the first game seed (at least 1)")
    parser.add_argument("--wall", action="store_true", help="wall-clock time, not CPU time")
    parser.add_argument(
        "--no-log",
        action="store_true",
        help="ckdsl keeps no log of the games, as its experiment runner plays them",
    )
    parser.add_argument(
        "--detail",
        type=int,
        nargs="?",
        const=20,
        default=0,
        metavar="GAMES",
        help="also ckdsl vs no-op cards and the cards' own work (default 20 games)",
    )
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if min(args.games, args.rounds, args.repeat, args.seed) < 1 or args.detail < 0:
        parser.error("--games, --rounds, --repeat and --seed must be at least 1")
    try:
        result = compare(args)
    except WorkerError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        sys.exit(2)
    if args.detail:
        result["detail"] = detail(args.detail, args.players, args.seed)
    if args.json:
        print(json.dumps(result, indent=1))
        return
    report(result)
    if args.detail:
        report_detail(result["detail"])


if __name__ == "__main__":
    main()
