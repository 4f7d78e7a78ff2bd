"""How often the terminal table stops a person: a game played by keystrokes in a
pseudo-terminal (pexpect), the first legal answer typed at every prompt, once with
``--ask-always`` (every decision asked, as before the table answered single-answer
decisions itself) and once as the table plays by default. Prints, per game, the prompts,
the answers given for the person (and how many of them were a bot's offer that could
only be declined), red's own turns, and the prompts per own turn. The same keystrokes
play the same game both ways, so the two rows differ only in the prompts.

    python tools/terminal_prompts.py [--seeds 3 4 5]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parent.parent


def play(seed: int, ask_always: bool) -> dict[str, int]:
    """One game at the terminal by keystrokes; the counts."""
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", PYTHONUNBUFFERED="1",
               PYTHONPATH=str(ROOT))  # fmt: skip
    args = ["-m", "ckdsl", "play", "--players", "human,heuristic,heuristic,heuristic",
            "--seed", str(seed), "--delay", "0"]  # fmt: skip
    args += ["--ask-always"] if ask_always else []
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", timeout=120,
                          dimensions=(50, 160))  # fmt: skip
    child.delaybeforesend = 0.005
    counts = {"prompts": 0, "given": 0, "declines": 0}
    patterns = [r"\[Red\] >", r"(\S+) \(the only answer\)", "Final scores"]
    while (seen := child.expect(patterns)) < 2:
        if seen == 0:  # a prompt: was its only answer to decline a bot's offer?
            counts["prompts"] += 1
            shown = child.before
            only = re.search(r"\n\s+1\) decline\r?\n", shown) and not re.search(r"\n\s+2\) ", shown)
            counts["declines"] += bool(only)
            child.send("1\r")
            child.expect("\r\n")  # the input line, drawn again with the prompt: not a prompt
        else:  # an answer given for the person, and said
            counts["given"] += 1
            counts["declines"] += child.match.group(1) == "decline"
    child.expect(pexpect.EOF)
    child.close()
    return counts


def own_turns(seed: int) -> int:
    """Red's main turns in the game (the same game either way)."""
    sys.path.insert(0, str(ROOT))
    from ckdsl.bots import bot_seed, make_bot
    from ckdsl.session import GameSetup, start

    game = start(GameSetup(seed=seed))
    bots = [make_bot("heuristic", bot_seed(seed, p)) for p in range(4)]
    turns = set()
    while not game.state.over:
        player = game.pending.player
        if player == 0:
            if game.pending.kind == "main":
                turns.add(game.state.turn)
            game.answer(game.pending.options[0])  # the person types 1 (or it is given)
        else:
            game.answer(bots[player].choose(game.view(player)))
    return len(turns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[3, 4, 5])
    print("declines: prompts whose only answer was to decline a bot's offer (ask-always),")
    print("          or such declines given for the person (default)")
    args = parser.parse_args()
    print(f"{'seed':>4} {'table':<12} {'prompts':>7} {'given':>5} {'declines':>8} "
          f"{'own turns':>9} {'prompts/turn':>12}")  # fmt: skip
    for seed in args.seeds:
        turns = own_turns(seed)
        for ask_always, name in ((True, "ask-always"), (False, "default")):
            c = play(seed, ask_always)
            print(f"{seed:>4} {name:<12} {c['prompts']:>7} {c['given']:>5} {c['declines']:>8} "
                  f"{turns:>9} {c['prompts'] / max(turns, 1):>12.2f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
