"""The random bot: picks uniformly among the listed legal options.

It never makes open answers (trade offers to other players), which are not listed. It
reads nothing of its view but the options, so it is the floor any other bot must beat and
the fastest way to exercise every rule.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ckdsl.bots.base import BotInfo, register
from ckdsl.core.decisions import Option

if TYPE_CHECKING:
    from ckdsl.core.view import PlayerView

VERSION = "1"


class RandomBot:
    """Uniform over the legal options, from its own seeded RNG."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Option:
        options = view.decision.options
        return options[int(self.rng.random() * len(options))]


register(BotInfo("random", VERSION, "uniform over the legal options", (), RandomBot))
