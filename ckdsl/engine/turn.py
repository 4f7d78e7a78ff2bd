"""The turn: the roll, the event die, production, the 7 and the robber, the end of a turn.

Source §3-§8 and design §7: the event die is resolved before production (a barbarian
attack, with the cities it costs, comes first; then the progress cards of a gate), then
every building next to a tile with the rolled number yields, or on a 7 everyone over the
hand limit discards half and the robber moves once it is unlocked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl import rng
from ckdsl.dsl.runtime import ability_tasks
from ckdsl.engine import barbarians, progress
from ckdsl.engine.decisions import Decision, Option
from ckdsl.engine.pieces import refresh_rates
from ckdsl.engine.state import EMPTY, NOBODY, Task

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


def decision(game: Game) -> Decision:
    """Before the roll: roll (or play a card allowed before it); after it: the main phase."""
    state = game.state
    player = state.current
    if state.rolled:
        return game.main_decision(player)
    options: list[Option] = [("roll",)]
    progress.play_options(game, player, "before_roll", options)
    return Decision(player, "roll", tuple(options))


def _on_roll(game: Game, player: int, option: Option) -> None:
    if option[0] == "play":
        progress.play(game, player, option[1])
        return
    state, rules = game.state, game.rules
    if state.fixed_rolls:  # a scenario fixed these dice
        white, red, face = state.fixed_rolls.pop(0)
    else:
        # Three draws from the dice stream on every roll, even when a card has set the
        # production dice, so the rolls of two games on one seed stay in step.
        streams = state.rng
        white = rng.choice(streams, "dice", rules.white_faces)
        red = rng.choice(streams, "dice", rules.red_faces)
        face = rng.choice(streams, "dice", rules.event_faces)
    if state.next_dice is not None:  # Alchemist: the production dice were chosen
        white, red = state.next_dice
        state.next_dice = None
    state.dice = (white, red, face)
    state.rolled = True
    total = white + red
    game.log("roll", player, white=white, red=red, face=face, total=total)
    # Design §7: the event die first (an attack before production), then production.
    state.queue.append(("event", player, face, red))
    state.queue.append(("seven", player) if total == 7 else ("produce", player, total))


def _event(game: Game, task: Task) -> None:
    _, player, face, red = task
    rules = game.rules
    if face in rules.face_ship:
        barbarians.advance(game, player, rules.face_ship[face])
    elif face in rules.face_gate:
        progress.gate(game, player, rules.face_gate[face], red)


# --- production ---------------------------------------------------------------------------


def _produce(game: Game, task: Task) -> None:
    """Source §4: every building next to a tile with this number yields, but not under the
    robber; if the bank cannot pay everyone a good, nobody gets it unless only one player
    is owed it (official shortage rule). A player who gets nothing may have an ability
    for it (the Aqueduct)."""
    _, roller, number = task
    state, rules, topo = game.state, game.rules, game.topo
    owed: dict[int, dict[int, int]] = {}
    gold: list[tuple[int, int]] = []
    building, owner_of = state.building, state.owner
    for tile in game.tiles_by_number.get(number, ()):
        if tile == state.robber:
            continue
        yields = game.tile_yields[tile]
        for i in topo.tile_corners[tile]:
            kind = building[i]
            if kind == EMPTY:
                continue
            owner = owner_of[i]
            production = yields[kind]
            mine = owed.get(owner)
            if mine is None:
                mine = owed[owner] = {}
            for g, amount in production.goods:
                mine[g] = mine.get(g, 0) + amount
            if production.choice:
                gold.append((owner, production.choice))
    bank = state.bank
    totals: dict[int, int] = {}
    for due in owed.values():
        for g, amount in due.items():
            totals[g] = totals.get(g, 0) + amount
    for g, total in totals.items():
        if total > bank[g]:
            takers = [p for p, due in owed.items() if g in due]
            if len(takers) > 1:
                for p in takers:
                    del owed[p][g]
                game.log("shortage", NOBODY, good=rules.goods[g])
            else:
                owed[takers[0]][g] = bank[g]
    got_nothing = []
    gold_owners = {owner for owner, _ in gold}
    names = rules.goods
    for p in game.order_from(roller):
        goods = owed.get(p)
        named = {names[g]: n for g, n in sorted(goods.items()) if n} if goods else {}
        if named:
            hand = state.players[p].hand
            for g, amount in goods.items():  # type: ignore[union-attr]
                hand[g] += amount
                bank[g] -= amount
            game.log("produce", p, goods=named)
        elif p not in gold_owners:
            got_nothing.append(p)
    tasks: list[Task] = []
    if gold:
        gold.sort(key=lambda pc: (pc[0] - roller) % game.n)
        tasks += [("gold", owner, count) for owner, count in gold]
    for p in got_nothing:
        tasks += ability_tasks(game, "nothing_produced", p)
    game.push(*tasks)


def _seven(game: Game, task: Task) -> None:
    """Source §8: everyone over the hand limit discards half, then the robber moves if it
    is unlocked (before the first attack a 7 means discards only)."""
    roller = task[1]
    state = game.state
    tasks: list[Task] = []
    for q in game.order_from(roller):
        held = sum(state.players[q].hand)
        if held > hand_limit(game, q):
            tasks.append(("discard", q, held // 2))
    if state.robber_unlocked:
        tasks.append(("robber", roller))
    game.push(*tasks)


def hand_limit(game: Game, player: int) -> int:
    """Source §9: the hand limit, raised by each city wall, up to the cap."""
    params = game.rules.params
    state = game.state
    walls = sum(1 for i in state.players[player].buildings if state.wall[i])
    bonus = params["hand_limit"] + walls * params["city_wall_hand_bonus"]
    return int(min(bonus, params["hand_limit_cap"]))


def _discard_options(game: Game, task: Task) -> tuple[Option, ...]:
    hand, goods = game.state.players[task[1]].hand, game.rules.goods
    return tuple(("discard", goods[g]) for g in range(len(goods)) if hand[g])


def _on_discard(game: Game, player: int, option: Option) -> None:
    move_one(game, player, option[1], to_bank=True)
    game.log("discard", player, good=option[1])
    count_down(game)


def _gold_options(game: Game, task: Task) -> tuple[Option, ...]:
    bank, goods = game.state.bank, game.rules.goods
    return tuple(("take", goods[g]) for g in game.rules.resources if bank[g])


def _on_gold(game: Game, player: int, option: Option) -> None:
    move_one(game, player, option[1], to_bank=False)
    game.log("produce", player, goods={option[1]: 1})
    count_down(game)


def move_one(game: Game, player: int, good: str, *, to_bank: bool) -> None:
    """One card of ``good`` from the player's hand to the bank, or the other way."""
    g = game.rules.good_index[good]
    step = -1 if to_bank else 1
    game.state.players[player].hand[g] += step
    game.state.bank[g] -= step


def count_down(game: Game) -> None:
    """One of the cards a task asks for is done; the task ends with its last one."""
    queue = game.state.queue
    task = queue[0]
    if task[2] > 1:
        queue[0] = (*task[:2], task[2] - 1, *task[3:])
    else:
        queue.pop(0)


# --- the robber ------------------------------------------------------------------------------


def _robber_options(game: Game, task: Task) -> tuple[Option, ...]:
    robber = game.state.robber
    return tuple(("robber", t) for t in range(len(game.terrain)) if t != robber)


def _on_robber(game: Game, player: int, option: Option) -> None:
    state = game.state
    state.robber = option[1]
    game.log("robber", player, tile=option[1])
    state.queue[0] = ("steal", player)


def victims(game: Game, player: int, tile: int) -> list[int]:
    """Players other than ``player`` with a building next to ``tile`` and a card to lose."""
    state = game.state
    found = {
        state.owner[i]
        for i in game.topo.tile_corners[tile]
        if state.owner[i] not in (NOBODY, player)
    }
    return sorted(q for q in found if sum(state.players[q].hand))


def _steal_options(game: Game, task: Task) -> tuple[Option, ...]:
    return tuple(("steal", q) for q in victims(game, task[1], game.state.robber))


def _on_steal(game: Game, player: int, option: Option) -> None:
    game.state.queue.pop(0)
    steal(game, player, option[1])


def steal(game: Game, player: int, victim: int) -> str | None:
    """Take one random resource or commodity from ``victim`` (none if the hand is empty)."""
    state = game.state
    hand = state.players[victim].hand
    total = sum(hand)
    if not total:
        return None
    pick = rng.below(state.rng, "other", total)
    g = 0
    while pick >= hand[g]:
        pick -= hand[g]
        g += 1
    hand[g] -= 1
    state.players[player].hand[g] += 1
    good = game.rules.goods[g]
    game.log("steal", player, victim=victim, good=good)
    return good


# --- the end of a turn ---------------------------------------------------------------------


def _on_end(game: Game, player: int, option: Option) -> None:
    """Source §12: a player who ends the turn with more progress cards than the limit off
    their turn discards down to it first."""
    over = len(game.state.players[player].progress) - game.rules.param("progress_hand_limit")
    if over > 0:
        game.push(("discard_progress", player, over), ("end_turn", player))
    else:
        end_turn(game, player)


def _end_turn_task(game: Game, task: Task) -> None:
    end_turn(game, task[1])


def end_turn(game: Game, player: int) -> None:
    state = game.state
    game.log("end_turn", player)
    if state.modifiers:  # every modifier lasts until the end of the turn it was granted in
        holders = {mod["player"] for mod in state.modifiers if not mod.get("always")}
        state.modifiers = [mod for mod in state.modifiers if mod.get("always")]
        for p in holders:
            refresh_rates(game, p)
    begin_turn(game, (player + 1) % game.n)


def begin_turn(game: Game, player: int) -> None:
    state = game.state
    if state.turn >= game.rules.param("turn_limit"):  # stopped: ``turn`` stays the last one
        state.over = True
        game.log("unfinished", NOBODY, turns=state.turn)
        return
    state.turn += 1
    state.current = player
    state.rolled = False
    state.offers_made = 0
    flags = state.knight_flags
    for i in range(len(flags)):
        if flags[i]:
            flags[i] = 0
    game.log("turn", player, turn=state.turn)


HANDLERS = {
    "roll": _on_roll,
    "discard": _on_discard,
    "gold": _on_gold,
    "robber": _on_robber,
    "steal": _on_steal,
}
MAIN_VERBS = {"end": _on_end}
TASK_OPTIONS = {
    "discard": _discard_options,
    "gold": _gold_options,
    "robber": _robber_options,
    "steal": _steal_options,
}
AUTO_TASKS = {
    "event": _event,
    "produce": _produce,
    "seven": _seven,
    "end_turn": _end_turn_task,
}
