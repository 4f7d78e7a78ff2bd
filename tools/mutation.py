"""Mutation testing of the rules in Python and the DSL runtime, with mutmut.

Why: the suite passing says the rules work; it does not say the suite would notice if one
broke. Mutation testing makes many small changes ("mutants") to the code, one at a time
(``<`` for ``<=``, ``+ 1`` for ``+ 2``, ``and`` for ``or``, a call dropped...), and runs the
tests on each: a mutant the tests still pass on ("survived") is a change to the code that
no test sees. Every surviving mutant of a documented rule (docs/rules.md) should have a
test that kills it (tests/test_rules_mutants.py), or an explanation of why it does not
matter.

What: mutmut 3 (``[tool.mutmut]`` in pyproject.toml holds the whole configuration, so a
run before and a run after a change are comparable). The scope is the files that hold the
game's rules in Python and the DSL runtime:

    ckdsl/core/{production,building,knights,board_rules,improvements,trade,barbarians,
    pieces,progress,hands,allow}.py, ckdsl/turn/{turn,cards,actions}.py and
    ckdsl/dsl/runtime.py

The whole of these files makes about 3,600 mutants, many more than two shared cores test
in an hour, so a run tests the functions that hold a rule documented in docs/rules.md
("Where each rule lives": the primitives named there, where a piece fits, the conditions
the engine applies before the rule set's, the refusal of a card that cannot be played):
``SCOPE`` below (628 mutants when the scores in the issue's note were taken; the runtime's
``_has_candidate``, whose surviving mutants were equivalent, has since been inlined). The
score counts these only. Left out, among others: the
longest road's walk (a property test checks it against a walk from every intersection,
and property tests are too slow for these runs), drawing a card, the trade rates.

The tests are those of tests/ that check rules and the engine, less the slow randomized
ones and those that check no rule the others do not: the fuzz and property tests, the
bots' games and the command line (test_bots, test_play, test_cli, the 5-6 player bot
games), the wheel, the experiments, the checks of data files and locales (see
``pytest_add_cli_args_test_selection``). For each mutant, mutmut runs only the tests that
call the mutated function, and stops at the first failure. A mutant that loops forever is
stopped by mutmut's CPU limit (15 x twice its tests' time), which can take many minutes
(one of the knights' reach does, and grows in memory meanwhile: sending its worker,
named ``mutmut: <mutant>`` in ``ps``, the signal of that limit, ``kill -XCPU``, records
it as the timeout it is at once).

How: from the top of the repository (mutmut works in ``mutants/``, ignored by git):

    python tools/mutation.py run            # a fresh run, then the score (tens of minutes)
    python tools/mutation.py score          # the score of the last run
    python tools/mutation.py survivors      # the surviving mutants, one per line
    python tools/mutation.py survivors --diff   # ... with each one's change

``run`` takes long (about half an hour on two cores): it is not part of the test suite, and
this file is not collected by pytest (it is not under tests/ and its name does not start
with ``test``). ``--max-children`` sets how many mutants run at once (default: the number
of cores); ``--keep`` reuses ``mutants/`` and the results already in it (mutmut then tests
only the mutants without a result), where the default starts from nothing.

The score is killed / total, where total counts every mutant: one that no test calls
("no tests"), a timeout or a suspicious result counts as not killed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MUTANTS = REPO / "mutants"

# mutmut's exit codes per mutant (mutmut.stats.status_by_exit_code, mutmut 3.8); any other
# code is "suspicious".
STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    2: "interrupted",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    37: "caught by type check",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "segfault",
    -9: "segfault",
}
# The functions mutated (mutmut's mutant names, ``module.x_function__mutmut_N``).
SCOPE = tuple(
    f"ckdsl.{module}.x_{function}__mutmut_*"
    for module, functions in {
        # production, the shortage rule, the robber's tile, gold, the Aqueduct
        "core.production": ["produce"],
        # the attack's decisions: the pillaged city, the tied defenders' card
        "core.barbarians": ["_pillage_options", "_on_pillage", "_reward_options", "_on_reward"],
        # losing a city, the longest road's title, Defender of Catan, metropolises
        "core.pieces": [
            "reduce_city",
            "award_longest_road",
            "award_defender",
            "pillageable",
            "set_metropolis",
        ],
        # where a piece fits: the distance rule, the network, a knight's reach
        "core.board_rules": [
            "passable",
            "distance_ok",
            "settlement_spots",
            "road_spots",
            "knight_spots",
            "knight_reach",
        ],
        # a damaged city rebuilt first; a supply's limit
        "core.building": ["spots"],
        # activation, promotion (the Fortress)
        "core.knights": ["_promotable", "meets", "try_activate", "try_promote"],
        # a city needed, the metropolis taken and kept for good
        "core.improvements": ["can_improve", "improve", "_on_metropolis"],
        # the progress-card hand limit
        "core.progress": ["hand_limit"],
        # the robber and the players it robs
        "turn.turn": ["victims", "_robber_options", "_steal_options"],
        # a card with nothing to choose from cannot be played
        "dsl.runtime": ["unplayable"],
    }.items()
    for function in functions
)
COLUMNS = ("killed", "survived", "no tests", "timeout", "other")


def status(code: int | None) -> str:
    if code is None:
        return "not checked"
    return STATUS.get(code, "suspicious")


def results() -> Iterator[tuple[str, str, str]]:
    """(source file, mutant name, status) of every mutant of the last run."""
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        source = meta.relative_to(MUTANTS).as_posix().removesuffix(".meta")
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes: dict[str, int | None] = data["exit_code_by_key"]
        for name, code in sorted(codes.items()):
            if any(fnmatch(name, pattern) for pattern in SCOPE):
                yield source, name, status(code)


def column(state: str) -> str:
    return state if state in COLUMNS else "other"


def print_score() -> int:
    per_file: dict[str, Counter[str]] = {}
    for source, _, state in results():
        per_file.setdefault(source, Counter())[column(state)] += 1
    if not per_file:
        print("no results: run `python tools/mutation.py run` first", file=sys.stderr)
        return 1
    total: Counter[str] = Counter()
    width = max(len(s) for s in per_file)
    head = "".join(f"{c:>10}" for c in (*COLUMNS, "total", "score"))
    print(f"{'file':<{width}}{head}")

    def line(name: str, counts: Counter[str]) -> None:
        n = sum(counts.values())
        cells = "".join(f"{counts[c]:>10}" for c in COLUMNS)
        print(f"{name:<{width}}{cells}{n:>10}{counts['killed'] / n:>10.1%}")

    for source, counts in sorted(per_file.items()):
        line(source, counts)
        total.update(counts)
    line("all", total)
    n = sum(total.values())
    print(
        f"\nmutation score: {total['killed']} killed / {n} mutants = {total['killed'] / n:.1%}"
        f" (survived {total['survived']}, no tests {total['no tests']},"
        f" timeouts {total['timeout']}, other {total['other']})"
    )
    return 0


def print_survivors(diff: bool, every: bool) -> int:
    for source, name, state in results():
        if state == "killed" or (state != "survived" and not every):
            continue
        print(f"{name}  [{state}]  {source}")
        if diff:
            shown = subprocess.run(
                [sys.executable, "-m", "mutmut", "show", name],
                cwd=REPO,
                capture_output=True,
                text=True,
                check=False,
            )
            print(shown.stdout.rstrip(), end="\n\n")
    return 0


PROGRESS = re.compile(r"(\d+)/(\d+) ")
SPINNER = re.compile(r"^[\u2800-\u28ff] ?")


def _lines(stream: Iterator[str]) -> Iterator[str]:
    """mutmut's output as lines, without its spinner and with one progress line in 50:
    it redraws a line (``\\r``) at every step."""
    seen: set[str] = set()
    for raw in stream:
        for part in re.split(r"[\r\n]", raw):
            line = SPINNER.sub("", part).rstrip()
            step = PROGRESS.match(line)
            if not line or (line in seen and line != part):
                continue
            if step and int(step[1]) % 50 and step[1] != step[2]:
                continue
            seen.add(line)
            yield line


def run(max_children: int, keep: bool) -> int:
    if MUTANTS.exists() and not keep:
        shutil.rmtree(MUTANTS)
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children)]
    print("$", " ".join(command), "<SCOPE>", flush=True)
    with subprocess.Popen(
        [*command, *SCOPE], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as mutmut:
        assert mutmut.stdout is not None
        for line in _lines(mutmut.stdout):
            print(line, flush=True)
    print()
    scored = print_score()
    return mutmut.returncode or scored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    go = commands.add_parser("run", help="run the mutation test, then print the score")
    go.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    go.add_argument("--keep", action="store_true", help="reuse mutants/ and its results")
    commands.add_parser("score", help="the score of the last run, per file")
    survivors = commands.add_parser("survivors", help="the surviving mutants of the last run")
    survivors.add_argument("--diff", action="store_true", help="show each mutant's change")
    survivors.add_argument(
        "--all", action="store_true", help="every mutant not killed (timeouts, no tests...)"
    )
    args = parser.parse_args(argv)
    if args.command == "run":
        return run(args.max_children, args.keep)
    if args.command == "score":
        return print_score()
    return print_survivors(args.diff, args.all)


if __name__ == "__main__":
    sys.exit(main())
