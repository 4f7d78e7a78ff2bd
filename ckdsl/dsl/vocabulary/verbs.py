"""The verbs: what effects do (gain, pay, give, take, steal, discard, move, build, improve, place,
remove, promote, activate, displace, swap, draw, grant, set, seize, reveal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal

from ckdsl.core import building, improvements, knights, pieces
from ckdsl.core.allow import Env, allowed
from ckdsl.core.hands import steal, transfer
from ckdsl.core.progress import draw, hand_limit
from ckdsl.core.state import CITY as CITY_KIND
from ckdsl.core.state import DAMAGED, EMPTY, NOBODY
from ckdsl.core.state import SETTLEMENT as SETTLEMENT_KIND
from ckdsl.core.tasks import DiscardProgressTask, DiscardTask, Modifier
from ckdsl.core.values import Value, bundle, items, name, number
from ckdsl.dsl.base.errors import EffectFailure
from ckdsl.dsl.base.registry import Args, Clauses, Param, verb
from ckdsl.dsl.base.types import (
    ANY,
    BUNDLE,
    CARD,
    GOOD,
    INT,
    INTERSECTION,
    KNIGHT,
    PLAYER,
    TILE,
    TRACK,
    words,
)

if TYPE_CHECKING:
    from ckdsl.turn.game import Game

# ===== verbs ===============================================================================


def _hand_move(game: Game, giver: int, taker: int, good: str, n: int) -> int:
    """Up to ``n`` of ``good`` from one hand to another (or the bank: NOBODY)."""
    return transfer(game, giver, taker, game.rules.good_index[good], n)


@verb(
    "gain",
    (Param("amount", INT), Param("good", GOOD)),
    "p (default: me) takes that many of a good from the bank, as many as it holds",
    clauses={"to": Param("player", PLAYER, True)},
    example="gain 2 grain",
)
def _gain(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    n, good, p = number(args[0]), name(args[1]), number(clauses.get("to", env.me))
    moved = _hand_move(env.game, NOBODY, p, good, n)
    if moved:
        env.game.log("produce", p, goods={good: moved})


@verb(
    "pay",
    (Param("amount", INT), Param("good", GOOD)),
    "p (default: me) pays that many of a good to the bank, as many as they hold",
    clauses={"from": Param("player", PLAYER, True)},
    example="pay 1 ore",
)
def _pay(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    n, good, p = number(args[0]), name(args[1]), number(clauses.get("from", env.me))
    moved = _hand_move(env.game, p, NOBODY, good, n)
    if moved:
        env.game.log("pay", p, goods={good: moved})


@verb(
    "give",
    (Param("amount", INT), Param("good", GOOD)),
    "one player gives another up to that many of a good (as many as they hold)",
    clauses={"from": Param("giver", PLAYER), "to": Param("taker", PLAYER)},
    example="give 1 g from p to me",
)
def _give(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    giver, taker = number(clauses["from"]), number(clauses["to"])
    _transfer(env, number(args[0]), name(args[1]), giver, taker)


@verb(
    "take",
    (Param("amount", INT), Param("good", GOOD)),
    "take up to that many of a good from p (as many as they hold), for me or `to` q",
    clauses={"from": Param("player", PLAYER), "to": Param("taker", PLAYER, True)},
    example="take 2 r from p",
)
def _take(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    giver, taker = number(clauses["from"]), number(clauses.get("to", env.me))
    _transfer(env, number(args[0]), name(args[1]), giver, taker)


def _transfer(env: Env, n: int, good: str, giver: int, taker: int) -> None:
    if giver == taker:
        return
    moved = _hand_move(env.game, giver, taker, good, n)
    if moved:
        env.game.log("give", giver, partner=taker, goods={good: moved})


@verb(
    "steal",
    (Param("amount", INT),),
    "take that many random resources or commodities from p, one by one (none if the "
    "rule set's `steal` condition does not allow it)",
    clauses={"from": Param("player", PLAYER), "to": Param("taker", PLAYER, True)},
    example="steal 1 from p",
)
def _steal(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    taker, victim = number(clauses.get("to", env.me)), number(clauses["from"])
    if taker == victim or not allowed(env.game, "steal", taker, victim=victim):
        return  # from me to me nothing moves; else the rule set's `steal` decides
    for _ in range(min(number(args[0]), sum(env.game.state.players[victim].hand))):
        if steal(env.game, taker, victim) is None:
            break


@verb(
    "discard",
    (Param("amount", INT),),
    "p discards that many resources or commodities of their choice, one at a time",
    clauses={"by": Param("player", PLAYER)},
    example="discard (hand_size(p) / 2) by p",
)
def _discard(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    p = number(clauses["by"])
    n = min(number(args[0]), sum(env.game.state.players[p].hand))
    if n > 0:
        env.game.push(DiscardTask("discard", p, n))


@verb(
    "move",
    (Param("piece", words("robber", "merchant")),),
    "move the robber or the merchant to tile t (the merchant is then mine, or `by` p's)",
    clauses={"to": Param("tile", TILE), "by": Param("player", PLAYER, True)},
    example="move robber to t",
)
def _move(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game, tile = env.game, number(clauses["to"])
    if args[0] == "robber":
        pieces.move_robber(game, env.me, tile)
    else:
        pieces.move_merchant(game, number(clauses.get("by", env.me)), tile)


@verb(
    "build",
    (Param("piece", words("road", "settlement", "city", "city_wall", "knight")),),
    "build a piece for me, at its usual cost, `free`, or `paying` goods; without `at`, "
    "I choose where among the legal places",
    clauses={
        "at": Param("place", ANY, True),
        "paying": Param("price", BUNDLE, True),
    },
    flags=("free",),
    example="build road free",
    decides={
        "road": "edge",
        "settlement": "intersection",
        "city": "intersection",
        "city_wall": "intersection",
        "knight": "intersection",
    },
)
def _build(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    at = clauses.get("at")
    if at is None:
        return
    paying = clauses.get("paying")
    price = env.game.bundle(_price(paying)) if paying is not None else None
    piece, place, free = name(args[0]), number(at), "free" in flags
    building.try_build(env.game, env.me, piece, place, price=price, free=free)


@verb(
    "improve",
    (Param("track", TRACK),),
    "raise my level in a track by one, at its cost or `free`",
    flags=("free",),
    example="improve science free",
)
def _improve(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    t = env.game.rules.track_index[name(args[0])]
    improvements.try_improve(env.game, env.me, t, free="free" in flags)


@verb(
    "place",
    (Param("piece", words("knight")),),
    "put a knight of mine (or `for` p) on a free intersection, of level `with` n (default "
    "1), inactive, free; any level, whatever the improvements",
    clauses={
        "at": Param("place", INTERSECTION),
        "with": Param("level", INT, True),
        "for": Param("player", PLAYER, True),
    },
    example="place knight at i with 2",
)
def _place(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    state = game.state
    p, i = number(clauses.get("for", env.me)), number(clauses["at"])
    level = number(clauses.get("with", 1))
    levels = game.rules.knight_levels
    if not 1 <= level <= len(levels) or not state.players[p].supply[levels[level - 1].id]:
        return
    if state.building[i] != EMPTY or state.knight[i] != NOBODY:
        return
    pieces.place_knight(game, p, i, level, False)


@verb(
    "remove",
    (Param("piece", words("knight", "road", "settlement", "city", "wall")), Param("which", ANY)),
    "take a knight, road, settlement, city (a damaged one too) or city wall off the board, "
    "back to its owner's supply (a city's wall and metropolis go with it); nothing if that "
    "piece is not there",
    example="remove road r",
)
def _remove(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    state = game.state
    piece, at = name(args[0]), number(args[1])
    places = state.road if piece == "road" else state.knight
    if not 0 <= at < len(places):  # `which` is any number (a road is an edge's index)
        where = "edge" if piece == "road" else "intersection"
        last = len(places) - 1
        raise EffectFailure(
            f"there is no {where} {at} on this board (0 to {last})",
            f"stop_no_{where}", value=at, last=last,
        )  # fmt: skip
    if piece == "knight" and state.knight[at] != NOBODY:
        pieces.remove_knight(game, at)
    elif piece == "road" and state.road[at] != NOBODY:
        pieces.remove_road(game, at)
    elif piece == "wall" and state.wall[at]:
        pieces.remove_wall(game, at)
        game.log("removed", state.owner[at], piece="city_wall", at=at)
    elif state.building[at] in BUILDING_WORDS.get(piece, ()):
        pieces.remove_building(game, at)


BUILDING_WORDS = {"settlement": (SETTLEMENT_KIND,), "city": (CITY_KIND, DAMAGED)}
"""What `remove settlement` and `remove city` take: a damaged city is a city."""


@verb(
    "promote",
    (Param("knight", KNIGHT),),
    "raise knight k one level (the level's requirement applies), at its cost or `free`",
    flags=("free",),
    example="promote k free",
)
def _promote(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    knights.try_promote(env.game, number(args[0]), free="free" in flags)


@verb(
    "activate",
    (Param("knight", KNIGHT),),
    "activate knight k (it may not act this turn), at its cost or `free`",
    flags=("free",),
    example="activate k free",
)
def _activate(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    knights.try_activate(env.game, number(args[0]), free="free" in flags)


@verb(
    "deactivate",
    (Param("knight", KNIGHT),),
    "make knight k inactive",
    example="deactivate k",
)
def _deactivate(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    state, at = env.game.state, number(args[0])
    if state.knight_active[at]:  # logged like `activate` (docs/events.md)
        state.knight_active[at] = False
        env.game.log("deactivate", state.knight[at], at=at)


@verb(
    "displace",
    (Param("knight", KNIGHT),),
    "take knight k off its intersection: its owner puts it on a free place of their "
    "network, or it is removed if there is none",
    example="displace k",
)
def _displace(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    k = number(args[0])
    owner = game.state.knight[k]
    if owner == NOBODY:
        return
    game.log("displace", env.me, at=k, to=k, victim=owner)
    level, active = pieces.remove_knight(game, k)
    knights.displace_to_network(game, owner, level, active, k)


@verb(
    "swap",
    (Param("tile", TILE),),
    "swap the number tokens of two tiles",
    clauses={"with": Param("other", TILE)},
    example="swap a with b",
)
def _swap(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    a, b = number(args[0]), number(clauses["with"])
    numbers = game.state.numbers
    numbers[a], numbers[b] = numbers[b], numbers[a]
    game.index_numbers()
    game.log("swap", env.me, tile=a, other=b)


@verb(
    "draw",
    (Param("track", TRACK),),
    "the top card of a track's progress deck goes to me (or `to` p)",
    clauses={"to": Param("player", PLAYER, True)},
    example="draw politics to p",
)
def _draw(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    deck = env.game.rules.tracks[env.game.rules.track_index[name(args[0])]].deck
    if deck >= 0:
        draw(env.game, number(clauses.get("to", env.me)), deck)


def _price(value: Value) -> Mapping[str, int]:
    """Goods paid: none negative (a price of -5 brick would pay the player from the bank,
    and the bank would go below zero)."""
    goods = bundle(value)
    for good, n in goods.items():
        if n < 0:
            raise EffectFailure(
                f"a price of {n} {good}: it must be 0 or more", "stop_negative", value=n
            )
    return goods


MODIFIER_KINDS: dict[str, Literal["cost", "discount", "rate"]] = {  # `grant` word: kind
    "price": "cost",
    "discount": "discount",
    "rate": "rate",
}


@verb(
    "grant",
    (Param("kind", words("rate", "discount", "price")), Param("value", ANY)),
    "a modifier for me until the end of the turn (`always`: for good; `once`: used up by "
    "one purchase): `rate n on goods` trades them n:1 with the bank, `discount n on "
    "improvement` takes n commodities off, `price {..} on city` sets a price",
    clauses={"on": Param("target", ANY)},
    flags=("once", "always"),
    example="grant rate 2 on g",
)
def _grant(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    kind, value, target = name(args[0]), args[1], clauses["on"]
    price = _price(value) if kind == "price" else None
    if price is None and number(value) < (1 if kind == "rate" else 0):
        # a rate of 0 or less, or a discount below 0, would take goods from nowhere
        lowest = "1" if kind == "rate" else "0"
        raise EffectFailure(
            f"a {kind} of {number(value)}: it must be {lowest} or more", "stop_negative",
            value=number(value),
        )  # fmt: skip
    mod: Modifier = {
        "player": env.me,
        "kind": MODIFIER_KINDS[kind],
        "value": dict(price) if price is not None else number(value),
    }
    if kind == "rate":
        mod["goods"] = (
            [name(g) for g in items(target)] if isinstance(target, list) else [name(target)]
        )
    else:
        mod["target"] = name(target)
    if "once" in flags:
        mod["once"] = True
    if "always" in flags:
        mod["always"] = True
    game.state.modifiers.append(mod)
    game.log("modifier", env.me, kind=kind)
    if kind == "rate":
        pieces.refresh_rates(game, env.me)


@verb(
    "set",
    (Param("what", words("dice")), Param("white", INT), Param("red", INT)),
    "the next roll's white and red dice show these numbers (the event die rolls as usual)",
    example="set dice w r",
)
def _set(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    white, red = number(args[1]), number(args[2])
    env.game.state.next_dice = (white, red)
    env.game.log("dice_set", env.me, white=white, red=red)


@verb(
    "seize",
    (Param("card", CARD),),
    "take a progress card from p's hand into mine (over the hand limit, I discard one)",
    clauses={"from": Param("player", PLAYER)},
    example="seize c from p",
)
def _seize(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game, card, victim = env.game, name(args[0]), number(clauses["from"])
    held = game.state.players[victim].progress
    if card not in held or victim == env.me:
        return
    held.remove(card)
    mine = game.state.players[env.me].progress
    mine.append(card)
    game.log("seize", env.me, victim=victim, card=card)
    over = len(mine) - hand_limit(game, env.me)
    if over > 0:
        game.push(DiscardProgressTask("discard_progress", env.me, over))


@verb(
    "reveal",
    (Param("player", PLAYER),),
    "p shows me their progress cards",
    example="reveal p",
)
def _reveal(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    p = number(args[0])
    shown = list(env.game.state.players[p].progress)
    env.game.log("reveal_hand", p, viewer=env.me, cards=shown)


GRANT_TARGETS = frozenset({"improvement", "road", "settlement", "city", "city_wall", "knight"})
