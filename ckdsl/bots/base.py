"""The bot interface, bot specs (``mcts:iterations=200``) and the registry of bots.

A bot answers the decisions of one seat. It is given the player's view of the game
(``ckdsl.core.view``), never the game itself, so it knows what that player may know and
nothing more; its answer goes through ``Game.answer`` like everyone else's. Every bot has
its own random stream, derived from the game's seed and its seat (``bot_seed``): never the
game's streams, never the global RNG.

One spec syntax everywhere (``play``, ``simulate``, ``compare``, ``tournament``): a bot's
name, then optionally ``:`` and ``key=value`` parameters separated by commas. In a list of
players, a comma followed by ``key=value`` continues the previous bot's parameters:
``heuristic,mcts:iterations=200,exploration=0.5,random`` is three bots.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias

from ckdsl.core.decisions import Option
from ckdsl.rng import derive

if TYPE_CHECKING:
    from ckdsl.core.view import PlayerView


ParamValue: TypeAlias = "bool | int | float | str"
"""The value of a bot parameter: what a spec's ``key=value`` parses to."""


class Bot(Protocol):
    """Anything that answers a decision from a player's view (``view.decision``)."""

    def choose(self, view: PlayerView) -> Option: ...


class BotError(ValueError):
    """A bot spec that names no bot, an unknown parameter or a bad value."""


@dataclass(frozen=True)
class Param:
    """A bot parameter: its type, default and what it does."""

    name: str
    kind: type
    default: ParamValue
    doc: str
    low: float | None = None  # the smallest value allowed


@dataclass(frozen=True)
class BotInfo:
    """A registered bot: how to make it and what it takes."""

    name: str
    version: str
    summary: str
    params: tuple[Param, ...]
    make: Callable[..., Bot]  # make(seed, **params)


@dataclass(frozen=True)
class BotSpec:
    """A bot as named on a command line: its name and the parameters given."""

    name: str
    params: tuple[tuple[str, ParamValue], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={_show(v)}" for k, v in self.params)

    def info(self) -> BotInfo:
        return bot_info(self.name)

    def version(self) -> str:
        """The version this spec plays: its ``version`` parameter for a bot that keeps
        earlier versions playable (``heuristic:version=2``), else the bot's own."""
        given = dict(self.params).get("version")
        return self.info().version if given is None else str(given)

    def full(self) -> str:
        """The spec with every parameter, defaults included: what results record."""
        info = self.info()
        given = dict(self.params)
        values = {p.name: given.get(p.name, p.default) for p in info.params}
        return str(BotSpec(self.name, tuple(values.items())))

    def make(self, seed: int) -> Bot:
        info = self.info()
        return info.make(seed, **dict(self.params))


def _show(value: ParamValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


_REGISTRY: dict[str, BotInfo] = {}
"""The bots by name; each bot's module registers itself when it is imported."""

_MODULES: dict[str, str] = {}
"""Bots whose module is imported only when they are first asked for: name -> the module
that registers it (``ckdsl.bots`` names its own: a game of random bots never loads the
heuristic's evaluator)."""


def register(info: BotInfo) -> None:
    _REGISTRY[info.name] = info


def register_module(name: str, module: str) -> None:
    """Bot ``name`` is registered by ``module``, imported the first time the bot is asked
    for (``bot_info``, ``bots``: ``ckdsl bots`` lists it all the same)."""
    _MODULES[name] = module


def _load(names: Iterable[str]) -> None:
    """Import the modules that register the bots ``names`` and are not yet imported."""
    for name in names:
        module = _MODULES.get(name)
        if module is not None and name not in _REGISTRY:
            importlib.import_module(module)


def bots() -> list[BotInfo]:
    """Every registered bot, by name."""
    _load(list(_MODULES))
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def bot_info(name: str) -> BotInfo:
    if name not in _REGISTRY:
        _load([name])
    if name not in _REGISTRY:
        _load(list(_MODULES))  # every bot, to name them all
        known = ", ".join(sorted(_REGISTRY))
        hint = " (a human seat comes with the terminal table)" if name == "human" else ""
        raise BotError(f"unknown bot '{name}'{hint}; the bots are: {known}")
    return _REGISTRY[name]


_KEY = re.compile(r"[a-z_][a-z0-9_]*")


def parse_spec(text: str) -> BotSpec:
    """``name`` or ``name:key=value,key=value``; raises BotError naming what is wrong."""
    name, _, rest = text.strip().partition(":")
    info = bot_info(name.strip())
    known = {p.name: p for p in info.params}
    params: dict[str, ParamValue] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not _KEY.fullmatch(key):
            raise BotError(f"'{item}' in '{text}' is not a parameter (write key=value)")
        if key not in known:
            names = ", ".join(known) or "none"
            raise BotError(f"bot '{info.name}' has no parameter '{key}' (its parameters: {names})")
        if key in params:
            raise BotError(f"parameter '{key}' given twice in '{text}'")
        params[key] = _value(known[key], raw.strip(), info.name)
    return BotSpec(info.name, tuple(sorted(params.items())))


def _value(param: Param, raw: str, bot: str) -> ParamValue:
    where = f"{bot}:{param.name}"
    try:
        if param.kind is bool:
            if raw.lower() not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError
            value: ParamValue = raw.lower() in ("true", "yes", "1")
        elif param.kind is int:
            if not re.fullmatch(r"[+-]?\d{1,18}", raw):
                raise ValueError
            value = int(raw)
        elif param.kind is float:
            if len(raw) > 30:
                raise ValueError
            value = float(raw)
            if value != value or value in (float("inf"), float("-inf")):
                raise ValueError
        else:
            value = raw
    except ValueError:
        raise BotError(f"{where}: '{raw[:40]}' is not a {param.kind.__name__}") from None
    if param.low is not None and not isinstance(value, str) and value < param.low:
        raise BotError(f"{where}: {value} is below the smallest allowed value, {param.low}")
    return value


def parse_players(text: str) -> list[BotSpec]:
    """A list of bot specs: ``heuristic,mcts:iterations=200,exploration=0.5,random``."""
    return [parse_spec(item) for item in split_players(text)]


def split_players(text: str) -> list[str]:
    """The seats of a line-up, each a bot spec with its parameters (``mcts:iterations=200,
    exploration=0.5``: the second part is a parameter of the first) or another seat kind
    (``human``)."""
    items: list[str] = []
    for part in text.split(","):
        token = part.strip()
        if not token:
            raise BotError(f"an empty bot name in '{text}'")
        if "=" in token and ":" not in token.split("=", 1)[0] and items:
            items[-1] += "," + token  # a parameter of the bot before
        else:
            items.append(token)
    return items


def bot_seed(game_seed: int, seat: int, salt: int = 0) -> int:
    """The seed of the bot in ``seat`` for the game ``game_seed``: a stream of its own, so
    the same seed gives the same bots' draws under any rule set."""
    return derive(game_seed, "bot", seat, salt)


def make_bot(name: str, seed: int) -> Bot:
    """The bot of spec ``name`` (``random``, ``mcts:iterations=50``) seeded with ``seed``;
    raises BotError for an unknown bot or parameter."""
    return parse_spec(name).make(seed)
