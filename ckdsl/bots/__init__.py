"""Players that answer decisions: one interface, ``Bot.choose(game, decision)``."""

from ckdsl.bots.base import Bot, make_bot
from ckdsl.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "make_bot"]
