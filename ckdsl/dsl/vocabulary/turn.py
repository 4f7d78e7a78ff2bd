"""The vocabulary of the turn: what the rule set's hooks read and do (docs/dsl.md,
"Hooks").

The roll, the event die, production, the 7, the barbarian attack and its outcomes are
written in the DSL (rules/base/turn.yaml); these are the words they use. Each verb is a
primitive (it moves pieces, cards or counters, or opens a decision of the engine); which
of them happen, when and to whom is the rule set's.
"""

from __future__ import annotations

from ckdsl.core import pieces
from ckdsl.core.allow import Env, allowed
from ckdsl.core.production import produce, roll_dice
from ckdsl.core.state import ACTION, ACTIVATED_THIS_TURN, NOBODY, PROMOTION
from ckdsl.core.state import CITY as CITY_KIND
from ckdsl.core.tasks import PhaseTask, PillageTask, RewardTask, RobberTask
from ckdsl.core.values import name, number
from ckdsl.dsl.base.errors import EffectFailure, bounded
from ckdsl.dsl.base.registry import Args, Clauses, Param, function, verb
from ckdsl.dsl.base.types import (
    BOOL,
    CITY,
    COUNTER,
    HOOK,
    INT,
    KNIGHT,
    PHASE,
    PLAYER,
    TILE,
    TRACK,
    list_of,
    words,
)

# --- the roll --------------------------------------------------------------------------------


def _dice(env: Env) -> tuple[int, int, str]:
    dice = env.game.state.dice
    return dice if dice is not None else (0, 0, "")


@function("dice_total", (), INT, "the sum of the white and red dice of the last roll")
def _dice_total(env: Env) -> int:
    white, red, _ = _dice(env)
    return white + red


@function("white_die", (), INT, "the white die of the last roll")
def _white_die(env: Env) -> int:
    return _dice(env)[0]


@function("red_die", (), INT, "the red die of the last roll")
def _red_die(env: Env) -> int:
    return _dice(env)[1]


@function(
    "event_ships", (), INT, "how far the event die of the last roll moves the ship (0: a gate)"
)
def _event_ships(env: Env) -> int:
    return env.game.rules.face_ship.get(_dice(env)[2], 0)


@function("gate_rolled", (TRACK,), BOOL, "whether the event die of the last roll shows t's gate")
def _gate_rolled(env: Env, track: str) -> bool:
    rules = env.game.rules
    return rules.face_gate.get(_dice(env)[2]) == rules.track_index[track]


@function(
    "gate_track",
    (),
    TRACK,
    "the track whose gate the event die of the last roll shows",
    may_fail=True,  # a roll whose event die shows the ship
)
def _gate_track(env: Env) -> str:
    rules = env.game.rules
    t = rules.face_gate.get(_dice(env)[2])
    if t is None:
        raise EffectFailure("the event die shows no gate", "stop_no_gate")
    return rules.tracks[t].id


@function(
    "draws",
    (PLAYER, TRACK, INT),
    BOOL,
    "whether p's level in track t draws a progress card when the red die shows n",
)
def _draws(env: Env, p: int, track: str, red: int) -> bool:
    t = env.game.rules.track_index[track]
    level = env.game.state.players[p].levels[t]
    return bool(level) and red in env.game.rules.tracks[t].draws_on[level - 1]


@function("turn_number", (), INT, "how many turns have begun (0 during setup)")
def _turn_number(env: Env) -> int:
    return env.game.state.turn


@verb(
    "produce",
    (Param("number", INT),),
    "every settlement and city next to a tile with this number yields, not under the "
    "robber; if the bank is short of a good for several players, none of them gets it",
    example="produce dice_total",
)
def _produce(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    produce(env.game, env.me, number(args[0]))


@function("discard_limit", (PLAYER,), INT, "how many cards p may hold when a 7 is rolled")
def _discard_limit(env: Env, p: int) -> int:
    formula = env.game.rules.programs.discard_limit
    return int(formula(Env(env.game, p, {"p": p}))) if formula is not None else 1 << 30


@verb(
    "rob",
    (),
    "I (or `by` p) move the robber to a tile it may go to and steal a card from a player "
    "next to it",
    clauses={"by": Param("player", PLAYER, True)},
    example="rob",
)
def _rob(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    env.game.push(RobberTask("robber", number(clauses.get("by", env.me))))


@function(
    "robber_may_go", (TILE,), BOOL, "whether I may move the robber to tile t (`allow: robber`)"
)
def _robber_may_go(env: Env, t: int) -> bool:
    return allowed(env.game, "robber", env.me, t=t)


# --- the barbarians ----------------------------------------------------------------------------


@function("attack_at", (), INT, "where on its track the barbarian ship attacks")
def _attack_at(env: Env) -> int:
    return env.game.rules.barbarian_track


@function("barbarian_strength", (), INT, "the barbarians' strength now (`barbarians.strength`)")
def _barbarian_strength(env: Env) -> int:
    return env.game.rules.programs.barbarian_strength(env.game)


@function("defence", (PLAYER,), INT, "p's share of the defence now (`barbarians.defence`)")
def _defence(env: Env, p: int) -> int:
    return env.game.rules.programs.defence_of(env.game, p)


@function(
    "pillageable", (PLAYER,), list_of(CITY), "p's cities the barbarians can take (no metropolis)"
)
def _pillageable(env: Env, p: int) -> list[int]:
    return pieces.pillageable(env.game, p)


@function("settlements_left", (PLAYER,), INT, "how many settlement pieces p has in supply")
def _settlements_left(env: Env, p: int) -> int:
    return env.game.state.players[p].supply["settlement"]


@function(
    "defenders_left",
    (),
    INT,
    "how many Defender of Catan cards are left (with `supply: unlimited`, `turn_limit` less "
    "those given: never none)",
)
def _defenders_left(env: Env) -> int:
    return pieces.defenders_left(env.game)


@verb(
    "advance",
    (Param("what", words("barbarians")), Param("steps", INT)),
    "move the barbarian ship that many steps along its track",
    example="advance barbarians 1",
)
def _advance(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    state = env.game.state
    state.barbarians = bounded(state.barbarians + number(args[1]), "barbarians")
    env.game.log("barbarians", env.me, position=state.barbarians)


@verb(
    "reset",
    (Param("what", words("barbarians")),),
    "the barbarian ship goes back to the start of its track, and the attack is counted",
    example="reset barbarians",
)
def _reset(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    state = env.game.state
    state.barbarians = 0
    state.attacks += 1


@verb(
    "roll",
    (Param("what", words("again")),),
    "I roll the three dice again (from the game's dice stream) and the `after_roll` hook "
    "runs for the new roll; the effect then goes on (write `stop` after it in `after_roll`)",
    example="roll again",
)
def _roll_again(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    roll_dice(env.game, env.me)
    env.game.run_hook("after_roll", env.me)


@verb(
    "unlock",
    (Param("what", words("robber")),),
    "the robber may move from now on",
    example="unlock robber",
)
def _unlock(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    state = env.game.state
    if not state.robber_unlocked:
        state.robber_unlocked = True
        env.game.log("robber_unlocked", env.me)


@verb(
    "log",
    (
        Param("what", words("attack")),
        Param("strength", INT),
        Param("defence", INT),
        Param("won", BOOL),
    ),
    "the log tells of a barbarian attack: its strength, the defence, and whether it was won",
    example="log attack s d won",
)
def _log(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    _, strength, defence, won = args
    env.game.log("attack", env.me, strength=strength, defence=defence, won=bool(won))


@verb(
    "award",
    (Param("what", words("defender")),),
    "give p a Defender of Catan card and its points, if one is left",
    clauses={"to": Param("player", PLAYER)},
    example="award defender to me",
)
def _award(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    pieces.award_defender(env.game, number(clauses["to"]))


@verb(
    "reward",
    (Param("player", PLAYER),),
    "p draws a progress card from a deck of their choice",
    example="reward me",
)
def _reward(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    env.game.push(RewardTask("reward", number(args[0])))


@verb(
    "pillage",
    (Param("player", PLAYER),),
    "p chooses one of their cities the barbarians can take; the `city_lost` hook says "
    "what becomes of it",
    example="pillage me",
)
def _pillage(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    env.game.push(PillageTask("pillage", number(args[0])))


@verb(
    "downgrade",
    (Param("city", CITY),),
    "city c becomes a settlement (a settlement piece from its owner's supply) and loses its "
    "wall; with no settlement piece left the effect stops there, and the log says so",
    example="downgrade c",
)
def _downgrade(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game, i = env.game, number(args[0])
    owner = game.state.owner[i]
    lacking = owner != NOBODY and game.state.players[owner].supply["settlement"] <= 0
    if lacking and game.state.building[i] == CITY_KIND:
        raise EffectFailure(
            f"no settlement piece is left for the city at {i} to become (`damage c` or "
            "`remove city c` say what happens then)"
        )
    pieces.reduce_city(game, i, damaged=False)


@verb(
    "damage",
    (Param("city", CITY),),
    "city c becomes a damaged city: it loses its wall, counts and produces as a "
    "settlement, and must be rebuilt before any other city",
    example="damage c",
)
def _damage(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    pieces.reduce_city(env.game, number(args[0]), damaged=True)


# --- knights this turn --------------------------------------------------------------------------


@function("activated_this_turn", (KNIGHT,), BOOL, "whether knight k was activated this turn")
def _activated_this_turn(env: Env, k: int) -> bool:
    return bool(env.game.state.knight_flags[k] & ACTIVATED_THIS_TURN)


@function("promotions_this_turn", (KNIGHT,), INT, "how many times knight k was promoted this turn")
def _promotions_this_turn(env: Env, k: int) -> int:
    return (env.game.state.knight_flags[k] % ACTION) // PROMOTION


@function("actions_this_turn", (KNIGHT,), INT, "how many times knight k has acted this turn")
def _actions_this_turn(env: Env, k: int) -> int:
    return env.game.state.knight_flags[k] // ACTION


# --- hooks, phases, counters ---------------------------------------------------------------------


@verb(
    "run",
    (Param("hook", HOOK),),
    "run a hook of the rule set, for me (or `for` p: p is `me` in it)",
    clauses={"for": Param("player", PLAYER, True)},
    example="run best_defender for p",
)
def _run(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    env.game.run_hook(name(args[0]), number(clauses.get("for", env.me)))


@verb(
    "phase",
    (Param("phase", PHASE),),
    "p plays a phase of the rule set: the moves and actions it lists, until they end it",
    clauses={"by": Param("player", PLAYER)},
    example="phase special_build by p",
)
def _phase(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    env.game.push(PhaseTask("phase", number(clauses["by"]), name(args[0])))


def _counter_value(env: Env, counter: str, p: int) -> int:
    """A counter's value: the game's, or ``p``'s if it counts per player."""
    value = env.game.state.counters[counter]
    return value[p] if isinstance(value, list) else value


@function("counter", (COUNTER,), INT, "a counter's value (mine, if it counts per player)")
def _counter(env: Env, counter: str) -> int:
    return _counter_value(env, counter, env.me)


@function("counter", (COUNTER, PLAYER), INT, "a counter's value for p")
def _counter_of(env: Env, counter: str, p: int) -> int:
    return _counter_value(env, counter, p)


@verb(
    "add",
    (Param("amount", INT),),
    "add that many to a counter (mine, or `for` p's, if it counts per player; a negative "
    "amount, in parentheses, takes away: `add (-1) to c`)",
    clauses={"to": Param("counter", COUNTER), "for": Param("player", PLAYER, True)},
    example="add 1 to hired",
)
def _add(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    p, counter, amount = number(clauses.get("for", env.me)), name(clauses["to"]), number(args[0])
    if p == NOBODY:
        return
    counters = env.game.state.counters
    value = counters[counter]
    # (a counter doubled again and again stops: ``bounded``)
    now = bounded((value[p] if isinstance(value, list) else value) + amount, counter)
    if isinstance(value, list):
        value[p] = now
    else:
        counters[counter] = now
