"""One episode of random agents through the PettingZoo environment (ckdsl.envs), and
PettingZoo's own API test on it: what docs/bots.md shows.

    python tools/env_episode.py --seed 1 [--rules base]

Each agent picks uniformly among the legal actions of its mask (numpy's generator seeded).
Prints the API test's verdict, then the episode: steps, turns, how it ended, the rewards.
"""

from __future__ import annotations

import argparse
import collections

import numpy as np
from pettingzoo.test import api_test

from ckdsl.envs import CitiesKnightsEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="base")
    parser.add_argument("--cycles", type=int, default=200, help="the API test's cycles")
    args = parser.parse_args()
    api_test(CitiesKnightsEnv(rules=args.rules), num_cycles=args.cycles)
    env = CitiesKnightsEnv(rules=args.rules)
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    totals: dict[str, float] = collections.defaultdict(float)
    kinds: collections.Counter[str] = collections.Counter()
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            kinds[info["decision"]] += 1
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        steps += 1
    state = env.game.state
    ended = f"won by player_{state.winner}" if state.winner >= 0 else "stopped at the turn limit"
    print(f"episode: {steps} steps, {state.turn} turns, {ended}")
    print(f"observation: {env.observation_space('player_0')['observation'].shape} float32")
    print("points:", [p.points for p in state.players])
    print("rewards:", {a: round(r, 3) for a, r in sorted(totals.items())})
    print("decisions:", dict(kinds.most_common(8)))


if __name__ == "__main__":
    main()
