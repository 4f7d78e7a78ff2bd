"""The bot interface and the registry the CLI picks bots from by name."""

from __future__ import annotations

from typing import Protocol

from ckdsl.engine.decisions import Decision, Option
from ckdsl.engine.game import Game


class Bot(Protocol):
    """Anything that answers a decision. A bot reads the game but never changes it: its
    answer goes through ``Game.answer`` like everyone else's."""

    def choose(self, game: Game, decision: Decision) -> Option: ...


def make_bot(name: str, seed: int) -> Bot:
    """The bot called ``name``, with its own RNG (never the game's, never the global one)."""
    from ckdsl.bots.random_bot import RandomBot

    bots = {"random": RandomBot}
    if name not in bots:
        raise ValueError(f"unknown bot '{name}' (known: {', '.join(sorted(bots))})")
    return bots[name](seed)
