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
    register_module,
    split_players,
)
from ckdsl.bots.random_bot import RandomBot

# The bots register themselves when their module is imported: the random bot's now, the
# others' the first time they are asked for (their evaluator costs a start that plays
# random bots, or lists no bot, more than everything else it imports).
register_module("heuristic", "ckdsl.bots.heuristic")
register_module("mcts", "ckdsl.bots.mcts")
register_module("learned", "ckdsl.bots.learned")

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
