"""The random bot: picks uniformly among the listed legal options.

It never makes open answers (trade offers to other players), which are not listed.
"""

from __future__ import annotations

import random

from ckdsl.engine.decisions import Decision, Option
from ckdsl.engine.game import Game


class RandomBot:
    """Uniform over the legal options, from its own seeded RNG."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, decision: Decision) -> Option:
        options = decision.options
        return options[int(self.rng.random() * len(options))]
