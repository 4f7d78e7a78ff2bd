"""The PettingZoo environment (the ``rl`` extra): PettingZoo's own API test, whole
episodes to a win and to the turn limit, and observations from the view alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from pettingzoo.test import api_test

from ckdsl.envs import CitiesKnightsEnv


def _variant(tmp_path: Path, parameters: str) -> str:
    path = tmp_path / "short.yaml"
    path.write_text(f"extends: base\noverride:\n  parameters:\n{parameters}", encoding="utf-8")
    return str(path)


# Its two notes on a dict observation (the mask beside the vector) are advice, as for
# PettingZoo's own classic environments.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoos_api_test_passes() -> None:
    api_test(CitiesKnightsEnv(), num_cycles=60)


def _episode(env: CitiesKnightsEnv, seed: int) -> tuple[dict[str, float], int]:
    """A random agent on every seat, by the masks; the rewards summed, and the steps."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter(20_000):
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            action = None
        else:
            assert env.observation_space(agent).contains(observation)
            legal = np.flatnonzero(observation["action_mask"])
            assert len(legal) == min(len(info["options"]), env.max_actions) > 0
            action = int(rng.choice(legal))
        env.step(action)
        steps += 1
    return totals, steps


def test_an_episode_ends_with_a_zero_sum_reward(tmp_path: Path) -> None:
    env = CitiesKnightsEnv(rules=_variant(tmp_path, "    points_to_win: 4\n"))
    totals, steps = _episode(env, 5)
    assert not env.agents and steps > 40
    assert sorted(totals.values()) == pytest.approx([-1 / 3] * 3 + [1.0])
    assert env.game.state.winner >= 0


def test_the_turn_limit_truncates_without_reward(tmp_path: Path) -> None:
    env = CitiesKnightsEnv(rules=_variant(tmp_path, "    turn_limit: 3\n"))
    totals, _ = _episode(env, 2)
    assert set(totals.values()) == {0.0} and env.game.state.winner < 0
    env.reset(seed=2)  # a new game: every agent back
    assert env.agents == env.possible_agents and not any(env.truncations.values())


def test_observations_come_from_the_view_only() -> None:
    """Two games that differ only in what a player cannot see (the opponents' hands and
    cards, the decks: a determinization of its view) give it the same observation."""
    env = CitiesKnightsEnv()
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(150):
        agent = env.agent_selection
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    real = env.game
    for player, agent in enumerate(env.possible_agents):
        seen = env.observe(agent)["observation"]
        env.game = real.view(player).determinize(random.Random(player))
        other = env.observe(agent)["observation"]
        env.game = real
        assert np.array_equal(seen, other), agent
