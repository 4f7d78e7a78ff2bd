"""Cities & Knights as a PettingZoo AEC environment, for reinforcement-learning research.

    from ckdsl.envs import CitiesKnightsEnv
    env = CitiesKnightsEnv(rules="base", players=4)
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(observation)
        env.step(action)

Each seat is an agent (``player_0`` ...), acting when the game's pending decision is
theirs: the environment is the engine's decision path, every action goes through
``Game.answer`` like a bot's.

- **Actions**: ``Discrete(max_actions)``; action ``k`` is the ``k``-th legal option of
  the pending decision, in the engine's order (``info["options"]`` names them). Options
  beyond ``max_actions`` are not offered; open answers (trade offers to other players)
  are not actions.
- **Observations**: a dict of ``observation`` (a float32 vector, below) and
  ``action_mask`` (int8, 1 for the legal actions). The vector is read from
  ``game.view(agent)`` only, never from hidden information: the numbers of
  ``ckdsl.bots.descriptors`` for the agent, its own hand per good, its improvement levels,
  every player's points, hand size and progress-card count in seat order starting with
  the agent, the barbarians' position, the turn, and which kind of decision is pending.
  Equal views give equal observations (the tests check it).
- **Rewards**: at the end, 1 to the winner and ``-1 / (players - 1)`` to each other
  player (zero-sum); 0 on every other step. A game stopped by the rule set's turn limit
  ends in a truncation for every agent, with no reward.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ckdsl.bots.descriptors import NAMES, Describer
from ckdsl.core.state import NOBODY
from ckdsl.core.view import PlayerView
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option

KINDS = ("setup_settlement", "setup_city", "setup_road", "roll", "main", "discard",
         "robber", "steal", "respond", "partner")  # fmt: skip
"""Decision kinds with a place of their own in the observation; others share the last."""


class CitiesKnightsEnv(AECEnv):  # type: ignore[misc]
    """One game of a rule set, one agent per seat (see the module's documentation)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "ckdsl_cities_knights_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "base",
        players: int = 4,
        map_name: str = "standard",
        max_actions: int = 256,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.setup = GameSetup(rules=rules, map=map_name, players=players, seed=0)
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.game: Game = start(self.setup, log=False)
        self.describer = Describer(self.game.rules)
        size = len(self._vector(self.game.view(0), 0))
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {
            agent: spaces.Discrete(max_actions) for agent in self.possible_agents
        }
        self._seed = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # --- the AEC protocol ---------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game on ``seed`` (the same seed: the same board, dice and decks; none:
        the last seed given, so two resets without one play the same game)."""
        if seed is not None:
            self._seed = int(seed)
        self.game = start(replace(self.setup, seed=self._seed), log=False)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        view = self.game.view(player)
        mask = np.zeros(self.max_actions, np.int8)
        if not self.game.state.over and view.decision.player == player:
            mask[: min(len(view.decision.options), self.max_actions)] = 1
        vector = np.asarray(self._vector(view, player), dtype=np.float32)
        return {"observation": vector, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        options = self.game.pending.options
        if action is None or not 0 <= int(action) < min(len(options), self.max_actions):
            raise ValueError(f"{agent}: action {action} is not one of the {len(options)} legal")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.game.answer(options[int(action)])
        state = self.game.state
        if state.over:
            winner = state.winner
            for p, name in enumerate(self.possible_agents):
                if winner == NOBODY:
                    self.truncations[name] = True
                else:
                    self.terminations[name] = True
                    self.rewards[name] = 1.0 if p == winner else -1.0 / (len(self.agents) - 1)
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.game.state
        names = self.possible_agents
        points = ", ".join(f"{a} {p.points}" for a, p in zip(names, state.players, strict=True))
        return f"turn {state.turn}: {points}"

    def close(self) -> None:
        pass

    # --- helpers ------------------------------------------------------------------------

    def _select(self) -> None:
        """The agent to act: the pending decision's player; once the game is over, the
        agents in turn, each to step with None and leave."""
        game = self.game
        if not game.state.over:
            decision = game.pending
            self.agent_selection = self.possible_agents[decision.player]
            self.infos[self.agent_selection] = {
                "options": [format_option(game, o) for o in decision.options[: self.max_actions]],
                "decision": decision.kind,
            }
        elif self.agents:
            self.agent_selection = self.agents[0]

    def _vector(self, view: PlayerView, player: int) -> list[float]:
        """The observation's numbers, from the player's view alone (its hidden parts
        sampled only because the descriptors read a game; they read none of them)."""
        state = view.state
        game = view.determinize(random.Random(0), list_now=False)
        n = view.players
        order = [(player + k) % n for k in range(n)]
        sizes, counts = view.hand_sizes, view.progress_counts
        kind = view.decision.kind if not state.over else "over"
        return [
            *self.describer.describe(game, player),
            *(float(x) for x in state.players[player].hand),
            *(float(x) for x in state.players[player].levels),
            *(float(state.players[p].points) for p in order),
            *(float(sizes[p]) for p in order),
            *(float(counts[p]) for p in order),
            float(state.barbarians),
            float(state.turn),
            *(float(kind == k) for k in KINDS),
            float(kind not in KINDS),
        ]


OBSERVATION_NAMES = NAMES
"""The first numbers of an observation (``ckdsl.bots.descriptors``)."""
