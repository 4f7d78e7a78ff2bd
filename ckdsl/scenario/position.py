"""Placing a scenario's position on a fresh game, without playing up to it.

Every id is checked against the board and the rule set, and every fault is reported at
the line and column of the value in the scenario file. Pieces go through the same
``ckdsl.core.pieces`` functions as in play, so supplies, points and trade rates come out
right; cards are taken out of their decks, so the decks still add up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ckdsl.core import pieces
from ckdsl.core.compiled import NO_LIMIT
from ckdsl.core.frames import ability_tasks
from ckdsl.core.hands import transfer
from ckdsl.core.state import (
    ACTION,
    ACTIVATED_THIS_TURN,
    CITY,
    DAMAGED,
    EMPTY,
    NOBODY,
    PROMOTION,
    SETTLEMENT,
)
from ckdsl.core.tasks import Modifier
from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.dsl.vocabulary.verbs import MODIFIER_KINDS
from ckdsl.jsondata import JsonArray, JsonObject, JsonValue, arr, integer, obj, text
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemas import suggest
from ckdsl.turn.game import Game
from ckdsl.turn.notation import player_name

Report = Callable[[JsonPath, str], None]


def colours(game: Game) -> dict[str, int]:
    """The players of this game by colour."""
    return {player_name(game, p): p for p in range(game.n)}


def player_index(game: Game, colour: JsonValue, at: JsonPath, report: Report) -> int | None:
    known = colours(game)
    if isinstance(colour, str) and colour in known:
        return known[colour]
    names = ", ".join(known)
    report(at, f"no player '{colour}' in this {game.n}-player game{suggest(str(colour), known)} "
               f"(players: {names})")  # fmt: skip
    return None


def edge_of(game: Game, text: str, at: JsonPath, report: Report) -> int | None:
    """The edge '12-13' names, or None after reporting why there is none."""
    a, _, b = text.partition("-")
    count = len(game.topo.inter_tiles)
    if max(len(a), len(b)) > 9:  # not an intersection of any map (and no int of 5,000 digits)
        report(at, f"'{text[:30]}' names no edge (intersections are 0 to {count - 1})")
        return None
    ends = int(a), int(b)
    for i in ends:
        if not 0 <= i < count:
            report(at, f"there is no intersection {i} (the map has 0 to {count - 1})")
            return None
    try:
        return game.topo.edge_id(*ends)
    except KeyError:
        report(at, f"intersections {ends[0]} and {ends[1]} are not joined by an edge")
        return None


def apply_position(game: Game, position: JsonObject, positions: Positions) -> list[Diagnostic]:
    """Put ``position`` on ``game`` (just started, nothing placed); return the faults."""
    placer = _Placer(game, positions)
    placer.place(position)
    return placer.problems


class _Placer:
    def __init__(self, game: Game, positions: Positions) -> None:
        self.game = game
        self.state = game.state
        self.positions = positions
        self.problems: list[Diagnostic] = []
        # What was placed, where it was written: checked against the rules at the end.
        self.buildings: list[tuple[int, JsonPath]] = []
        self.knights: list[tuple[int, JsonPath]] = []
        self.level_paths: dict[int, JsonPath] = {}

    def report(self, path: JsonPath, message: str) -> None:
        self.problems.append(Diagnostic.at(self.positions.value(path), message, path))

    def report_key(self, path: JsonPath, message: str) -> None:
        self.problems.append(Diagnostic.at(self.positions.key(path), message, path))

    def place(self, position: JsonObject) -> None:
        game, state = self.game, self.state
        base: JsonPath = ("position",)
        phase = position.get("phase", "before_roll")
        if phase != "setup":  # "setup": the game starts at its first setup placement
            state.setup_step = len(game.setup_order)
            state.turn = integer(position.get("turn_number", 1))
            turn = position.get("turn")
            if turn is not None:
                state.current = player_index(game, turn, (*base, "turn"), self.report) or 0
            state.rolled = phase == "after_roll"
        reached: list[tuple[int, str]] = []
        for colour, spec in obj(position.get("players") or {}).items():
            at: JsonPath = (*base, "players", colour)
            p = player_index(game, colour, at, self.report_key)
            if p is not None:
                reached += self.player(p, obj(spec), at)
        # after the hands have taken their cards: what is set is what the deck holds
        self.decks(obj(position.get("decks") or {}), (*base, "decks"))
        self.counters(obj(position.get("counters") or {}), (*base, "counters"))
        if "robber" in position:
            tile = self.tile(integer(position["robber"]), (*base, "robber"))
            if tile is not None:
                state.robber = tile
        if "barbarians" in position:
            self.barbarians(integer(position["barbarians"]), (*base, "barbarians"))
        if "attacks" in position:
            state.attacks = integer(position["attacks"])
            state.robber_unlocked = state.attacks > 0 or state.robber_unlocked
        if "robber_unlocked" in position:
            state.robber_unlocked = bool(position["robber_unlocked"])
        if "merchant" in position:
            self.merchant(obj(position["merchant"]), (*base, "merchant"))
        for track, spec in obj(position.get("metropolises") or {}).items():
            self.metropolis(track, spec, (*base, "metropolises", track))
        if "longest_road" in position:
            where = (*base, "longest_road")
            holder = player_index(game, position["longest_road"], where, self.report)
            if holder is not None:
                _give_longest_road(game, holder)
        if not position.get("unchecked") and not self.problems:  # a broken one: fix that first
            self.check_rules()
        pieces.refresh_all_rates(game)
        game.events.clear()  # the position is not history
        # The abilities of the levels placed take hold as if they had been reached.
        game.push(*[t for p, lid in reached for t in ability_tasks(game, "reached", p, lid)])
        game.refresh()

    # --- the rules a position must keep (unless `unchecked: true`) ------------------

    def check_rules(self) -> None:
        """A position the rules could not reach makes a scenario test nothing real: the
        distance rule, knights on their owner's network and of a level the owner may
        have, improvements only with a city (docs/rules.md). Each at the piece's line."""
        game, state, topo = self.game, self.state, self.game.topo
        hint = " (mark the position `unchecked: true` if it is deliberate)"
        for i, at in self.buildings:
            near = [j for j in topo.inter_neighbors[i] if state.building[j] != EMPTY]
            if near and state.building[i] != EMPTY:
                self.report(at, f"a building at {i} next to the one at {near[0]} breaks the "
                                f"distance rule{hint}")  # fmt: skip
        levels = game.rules.knight_levels
        for i, at in self.knights:
            owner = state.knight[i]
            if owner == NOBODY:
                continue
            roads = [e for e in topo.inter_edges[i] if state.road[e] == owner]
            if not roads:
                self.report(at, f"the knight at {i} is off {player_name(game, owner)}'s road "
                                f"network{hint}")  # fmt: skip
            needs = levels[state.knight_level[i] - 1].requires
            if needs is not None and state.players[owner].levels[needs[0]] < needs[1]:
                track = game.rules.tracks[needs[0]]
                level = f"{track.levels[needs[1] - 1]} ({track.id} {needs[1]})"
                self.report(at, f"a {levels[state.knight_level[i] - 1].id} needs {level}{hint}")
        for p, at in self.level_paths.items():
            me = state.players[p]
            has_city = any(state.building[i] in (CITY, DAMAGED) and state.owner[i] == p
                           for i in range(len(state.building)))  # fmt: skip
            if any(me.levels) and not has_city:
                self.report_key(at, f"{player_name(game, p)} has city improvements but no "
                                    f"city{hint}")  # fmt: skip

    # --- the board ------------------------------------------------------------------

    def tile(self, tile: int, at: JsonPath) -> int | None:
        count = len(self.game.terrain)
        if tile >= count:
            self.report(at, f"there is no tile {tile} (the map has 0 to {count - 1})")
            return None
        return tile

    def free_spot(self, i: int, at: JsonPath) -> bool:
        state = self.state
        count = len(self.game.topo.inter_tiles)
        if not 0 <= i < count:
            self.report(at, f"there is no intersection {i} (the map has 0 to {count - 1})")
            return False
        if state.building[i] != EMPTY:
            owner = player_name(self.game, state.owner[i])
            self.report(at, f"intersection {i} already holds a building of {owner}")
            return False
        if state.knight[i] != NOBODY:
            owner = player_name(self.game, state.knight[i])
            self.report(at, f"intersection {i} already holds a knight of {owner}")
            return False
        return True

    def barbarians(self, position: int, at: JsonPath) -> None:
        track = self.game.rules.barbarian_track
        if position >= track:
            self.report(at, f"the barbarians' track has {track} steps: the ship stands on 0 "
                            f"to {track - 1} (it attacks on reaching {track})")  # fmt: skip
        else:
            self.state.barbarians = position

    def merchant(self, spec: JsonObject, at: JsonPath) -> None:
        tile = self.tile(integer(spec["tile"]), (*at, "tile"))
        owner = player_index(self.game, spec["owner"], (*at, "owner"), self.report)
        if tile is not None and owner is not None:
            pieces.move_merchant(self.game, owner, tile)

    def metropolis(self, track: str, spec: JsonValue, at: JsonPath) -> None:
        game, state = self.game, self.state
        t = game.rules.track_index.get(track)
        if t is None:
            known = game.rules.track_index
            self.report_key(at, f"unknown track '{track}'{suggest(track, known)}")
            return
        i = spec if isinstance(spec, int) else integer(obj(spec)["at"])
        where = at if isinstance(spec, int) else (*at, "at")
        if not 0 <= i < len(state.building) or state.building[i] != CITY:
            self.report(where, f"intersection {i} holds no city to carry a metropolis")
            return
        if i in state.metropolis:
            self.report(where, f"the city at {i} already carries a metropolis")
            return
        pieces.set_metropolis(game, t, i)
        state.metropolis_kept[t] = isinstance(spec, dict) and bool(spec.get("kept"))

    def decks(self, spec: JsonObject, at: JsonPath) -> None:
        game = self.game
        for track, listed in spec.items():
            t = game.rules.track_index.get(track)
            if t is None or game.rules.tracks[t].deck < 0:
                known = game.rules.track_index
                self.report_key((*at, track), f"unknown track '{track}'{suggest(track, known)}")
                continue
            deck = self.state.decks[game.rules.tracks[t].deck]
            if isinstance(listed, dict):
                self.deck_order(deck, [text(c) for c in arr(listed["order"])], (*at, track))
                continue
            cards = [text(card) for card in arr(listed)]
            for k, card in reversed(list(enumerate(cards))):
                if card not in deck:
                    self.report((*at, track, k), self.missing_card(card, track))
                    continue
                deck.remove(card)
                deck.append(card)  # the top is the end of the list

    def counters(self, spec: JsonObject, at: JsonPath) -> None:
        """The rule set's counters (`counters:` of a variant): a number, or for a counter
        kept per player, a number per colour (the others keep their start)."""
        game, counters = self.game, self.state.counters
        for counter, value in spec.items():
            found = game.rules.counters.get(counter)
            if found is None:
                known = game.rules.counters
                hint = suggest(counter, known) if known else " (the rule set has none)"
                self.report_key((*at, counter), f"unknown counter '{counter}'{hint}")
                continue
            per = found[0]
            if per == "player":
                if not isinstance(value, dict):
                    self.report((*at, counter), f"'{counter}' is kept per player: give a "
                                "number per colour ({red: 1})")  # fmt: skip
                    continue
                values = counters[counter]
                assert isinstance(values, list)
                for colour, n in value.items():
                    q = player_index(game, colour, (*at, counter, colour), self.report_key)
                    if q is not None:
                        values[q] = integer(n)
            elif isinstance(value, dict):
                self.report((*at, counter), f"'{counter}' is one number for the game")
            else:
                counters[counter] = integer(value)

    def deck_order(self, deck: list[str], order: list[str], at: JsonPath) -> None:
        """The whole deck, top card first: the cards it holds now, each as often."""
        held, named = Counter(deck), Counter(order)
        if held == named:
            deck[:] = reversed(order)  # the top is the end of the list
            return
        for card in order:
            if card not in self.game.rules.cards:
                self.report((*at, "order"), self.missing_card(card, ""))
                return
        missing, extra = held - named, named - held
        said = []
        if missing:
            said.append("it also holds " + _counted(missing))
        if extra:
            said.append("it does not hold " + _counted(extra))
        self.report_key(
            (*at, "order"),
            f"`order` must name every card the deck holds ({sum(held.values())}, the cards "
            f"in hands taken out): {'; '.join(said)}",
        )

    def missing_card(self, card: str, where: str) -> str:
        cards = self.game.rules.cards
        if card not in cards:
            return f"unknown progress card '{card}'{suggest(card, cards)}"
        return f"no {card} is left in the {where} deck"

    def take_card(self, card: str, at: JsonPath) -> bool:
        """Take one copy of ``card`` out of its deck; report why if there is none."""
        spec = self.game.rules.cards.get(card)
        if spec is None:
            self.report(at, self.missing_card(card, ""))
            return False
        deck = self.state.decks[spec.deck]
        if card not in deck:
            self.report(at, self.missing_card(card, self.game.rules.decks[spec.deck].id))
            return False
        deck.remove(card)
        return True

    # --- one player -------------------------------------------------------------------

    def player(self, p: int, spec: JsonObject, at: JsonPath) -> list[tuple[int, str]]:
        """Place one player's pieces, cards and levels; the levels reached (player, level),
        whose abilities take hold."""
        game, state = self.game, self.state
        me = state.players[p]
        name = player_name(game, p)
        for piece, kind in (("settlements", SETTLEMENT), ("cities", CITY), ("damaged", DAMAGED)):
            supply_id = "settlement" if kind == SETTLEMENT else "city"
            for k, i in enumerate(map(integer, arr(spec.get(piece) or []))):
                where = (*at, piece, k)
                if not self.free_spot(i, where):
                    continue
                if me.supply[supply_id] <= 0:
                    self.report(where, f"{name} has no {supply_id} left in supply")
                    continue
                pieces.place_building(game, p, i, kind)
                self.buildings.append((i, where))
        for k, i in enumerate(map(integer, arr(spec.get("walls") or []))):
            where = (*at, "walls", k)
            if not (0 <= i < len(state.building) and state.owner[i] == p
                    and state.building[i] == CITY):  # fmt: skip
                self.report(where, f"intersection {i} holds no city of {name}")
            elif state.wall[i] or me.supply["city_wall"] <= 0:
                self.report(where, f"no city wall can go on {i} (already walled, or none left)")
            else:
                pieces.place_wall(game, p, i)
        for k, road in enumerate(map(text, arr(spec.get("roads") or []))):
            where = (*at, "roads", k)
            e = edge_of(game, road, where, self.report)
            if e is None:
                continue
            if state.road[e] != NOBODY:
                self.report(where, f"edge {road} already holds a road")
            elif me.supply["road"] <= 0:
                self.report(where, f"{name} has no road left in supply")
            else:
                pieces.place_road(game, p, e)
        for k, knight in enumerate(arr(spec.get("knights") or [])):
            self.knight(p, obj(knight), (*at, "knights", k))
        self.hand(p, obj(spec.get("hand") or {}), (*at, "hand"))
        for k, card in enumerate(map(text, arr(spec.get("progress") or []))):
            where = (*at, "progress", k)
            spec_of = game.rules.cards.get(card)
            if spec_of is not None and spec_of.timing == "on_draw":
                self.report(where, f"{card} is shown when drawn, never held: list it under "
                                   "`revealed`")  # fmt: skip
            elif self.take_card(card, where):
                me.progress.append(card)
        for k, card in enumerate(map(text, arr(spec.get("revealed") or []))):
            where = (*at, "revealed", k)
            if self.take_card(card, where):
                if not game.rules.cards[card].points:
                    self.report(where, f"{card} is not a points card: list it under `progress`")
                me.revealed.append(card)
                game.add_points(p, game.rules.cards[card].points)
        if "defender" in spec:
            left = pieces.defenders_left(game)
            count = integer(spec["defender"])
            if count > left and game.rules.defender_supply != NO_LIMIT:
                self.report((*at, "defender"), f"there are only {game.rules.defender_supply} "
                                               "Defender of Catan cards")  # fmt: skip
            else:
                me.defender = count
                game.add_points(p, count * game.rules.defender_points)
        self.modifiers(p, arr(spec.get("modifiers") or []), (*at, "modifiers"))
        if spec.get("levels"):
            self.level_paths[p] = (*at, "levels")
        return self.levels(p, obj(spec.get("levels") or {}), (*at, "levels"))

    def knight(self, p: int, spec: JsonObject, at: JsonPath) -> None:
        game = self.game
        levels = game.rules.knight_levels
        given = spec.get("level", 1)
        if isinstance(given, str):
            ids = [lv.id for lv in levels]
            if given not in ids:
                self.report((*at, "level"), f"unknown knight level '{given}'{suggest(given, ids)}")
                return
            level = ids.index(given) + 1
        else:
            level = integer(given)
        if not 1 <= level <= len(levels):
            self.report((*at, "level"), f"knight levels go from 1 to {len(levels)}")
            return
        i = integer(spec["at"])
        if not self.free_spot(i, (*at, "at")):
            return
        if not self.state.players[p].supply[levels[level - 1].id]:
            name = player_name(game, p)
            self.report(at, f"{name} has no {levels[level - 1].id} left in supply")
            return
        active = bool(spec.get("active", False))
        pieces.place_knight(game, p, i, level, active)
        self.knights.append((i, at))
        self.knight_flags(i, level, active, spec, at)

    def knight_flags(
        self, i: int, level: int, active: bool, spec: JsonObject, at: JsonPath
    ) -> None:
        """What the knight did this turn (the `allow` conditions of `activate`, `promote`
        and `knight_acts` read it): activated, promoted n times, acted n times."""
        activated = bool(spec.get("activated_this_turn", False))
        promoted = integer(spec.get("promoted_this_turn", 0))
        acted = integer(spec.get("acted_this_turn", 0))
        if activated and not active and not acted:
            self.report((*at, "activated_this_turn"), "a knight activated this turn is active "
                        "(unless it has acted since): say `active: true`")  # fmt: skip
        if promoted > level - 1:
            self.report((*at, "promoted_this_turn"), f"a level {level} knight cannot have been "
                        f"promoted {promoted} times")  # fmt: skip
        limit = (ACTION // PROMOTION) - 1  # the bits the flags keep for promotions
        if promoted > limit:
            return
        self.state.knight_flags[i] = (
            ACTIVATED_THIS_TURN * activated + PROMOTION * promoted + ACTION * acted
        )

    def modifiers(self, p: int, listed: JsonArray, at: JsonPath) -> None:
        """Modifiers in force, written as `grant` says them: `{rate: 2, on: [cloth]}`,
        `{discount: 1, on: improvement, once: true}`, `{price: {grain: 1}, on: city}`."""
        game, rules = self.game, self.game.rules
        for k, item in enumerate(listed):
            spec, where = obj(item), (*at, k)
            kinds = [kind for kind in MODIFIER_KINDS if kind in spec]
            if len(kinds) != 1:
                self.report(where, "a modifier is one of rate, discount or price")
                continue
            word = kinds[0]
            value = spec[word]
            on = spec["on"]
            mod: Modifier = {
                "player": p,
                "kind": MODIFIER_KINDS[word],
                "value": dict(obj(value)) if word == "price" else integer(value),  # type: ignore[arg-type]
            }
            if word == "rate":
                goods = [text(g) for g in on] if isinstance(on, list) else [text(on)]
                unknown = [g for g in goods if g not in rules.good_index]
                if unknown:
                    self.report((*where, "on"), f"'{unknown[0]}' is not a resource or "
                                f"commodity{suggest(unknown[0], rules.goods)}")  # fmt: skip
                    continue
                mod["goods"] = goods
            else:
                mod["target"] = text(on)
            if spec.get("once"):
                mod["once"] = True
            if spec.get("always"):
                mod["always"] = True
            self.state.modifiers.append(mod)
            if word == "rate":
                pieces.refresh_rates(game, p)

    def hand(self, p: int, goods: JsonObject, at: JsonPath) -> None:
        game, state = self.game, self.state
        for good, amount in goods.items():
            n = integer(amount)
            g = game.rules.good_index.get(good)
            if g is None:
                self.report((*at, good), f"'{good}' is not a resource or commodity"
                                         f"{suggest(good, game.rules.goods)}")  # fmt: skip
            elif state.bank[g] < n:
                self.report((*at, good), f"the bank holds only {state.bank[g]} {good}, not {n}")
            else:
                transfer(game, NOBODY, p, g, n)

    def levels(self, p: int, spec: JsonObject, at: JsonPath) -> list[tuple[int, str]]:
        game = self.game
        reached: list[tuple[int, str]] = []
        for track, value in spec.items():
            level = integer(value)
            t = game.rules.track_index.get(track)
            if t is None:
                known = game.rules.track_index
                self.report_key((*at, track), f"unknown track '{track}'{suggest(track, known)}")
                continue
            levels = game.rules.tracks[t].levels
            if level > len(levels):
                self.report((*at, track), f"the {track} track has {len(levels)} levels")
                continue
            self.state.players[p].levels[t] = level
            reached += [(p, lid) for lid in levels[:level]]
        return reached


def _give_longest_road(game: Game, holder: int) -> None:
    state, bonus = game.state, game.rules.longest_road_points
    if state.longest_road_holder != NOBODY:
        state.players[state.longest_road_holder].points -= bonus
    state.longest_road_holder = holder
    state.players[holder].points += bonus


def _counted(cards: Counter[str]) -> str:
    return ", ".join(f"{n} × {card}" if n > 1 else card for card, n in sorted(cards.items()))
