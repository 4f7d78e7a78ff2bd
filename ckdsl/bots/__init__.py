"""Players that answer decisions from their view of the game: one protocol, ``Bot``,
and a registry of bots by name (``ckdsl bots`` lists them)."""

from ckdsl.bots.base import (
    Bot,
    BotError,
    BotInfo,
    BotSpec,
    bot_info,
    bot_seed,
    bots,
    make_bot,
    parse_players,
    parse_spec,
    split_players,
)
from ckdsl.bots.random_bot import RandomBot

# The bots register themselves on import (after the base they import).
from ckdsl.bots import heuristic, mcts  # noqa: F401  isort: skip

__all__ = [
    "Bot",
    "BotError",
    "BotInfo",
    "BotSpec",
    "RandomBot",
    "bot_info",
    "bot_seed",
    "bots",
    "make_bot",
    "parse_players",
    "parse_spec",
    "split_players",
]
