"""The heuristic bot's value of a position, from features read off the rule set.

Every feature is computed from what the rule set and the board say, never from a card,
piece or good named in Python: the dice's faces give the number probabilities, the
terrains' yields give production, the pieces' and tracks' costs give what each good is
worth and how close a hand is to its next purchase, the DSL's barbarian formulas give the
threat, the parameters give the hand limit and the points to win. So the same bot plays
any variant. The weights come from ``rules/bots/heuristic.yaml``.

A value is from one player's side and reads only what that player may know: their own
hand, and everyone's public pieces, points, levels and card counts. The bot computes it on
determinized games (``PlayerView.determinize``) whose hidden parts are samples.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ckdsl.bots.weights import Weights
from ckdsl.core import board_rules, improvements, knights, pieces
from ckdsl.core.building import cost_of
from ckdsl.core.compiled import Bundle
from ckdsl.core.state import CITY, DAMAGED, EMPTY, NOBODY, SETTLEMENT
from ckdsl.turn.turn import hand_limit

if TYPE_CHECKING:
    from ckdsl.board import Topology
    from ckdsl.core.compiled import CompiledRules
    from ckdsl.turn.game import Game


def dice_odds(rules: CompiledRules) -> dict[int, float]:
    """The probability of each production total, from the dice's faces."""
    whites, reds = rules.white_faces, rules.red_faces
    odds: dict[int, float] = {}
    share = 1.0 / (len(whites) * len(reds))
    for a in whites:
        for b in reds:
            odds[a + b] = odds.get(a + b, 0.0) + share
    return odds


def good_values(rules: CompiledRules) -> tuple[float, ...]:
    """What each good is worth: how much the rule set's purchases ask for it (pieces,
    knight actions, every level of every track), relative to the average good, so a good
    nothing costs is worth little and a good everything costs is worth much."""
    demand = [0.0] * len(rules.goods)
    bundles: list[Bundle] = [*rules.costs.values(), rules.activate_cost, rules.promote_cost]
    for bundle in bundles:
        for g, n in bundle:
            demand[g] += n
    for track in rules.tracks:
        demand[track.commodity] += sum(track.costs) / max(1, len(track.costs))
    mean = sum(demand) / len(demand) if demand else 1.0
    return tuple(0.35 + 0.65 * d / mean if mean else 1.0 for d in demand)


_V = TypeVar("_V")

_KEEP = 2048
"""How many answers a kept table holds before it starts afresh (a game keeps a few
hundred of each)."""


class Kept(Generic[_V]):
    """Answers kept under a small key, each with copies of the lists it was computed from:
    an answer is given again only while those lists are equal (comparing lists costs a
    fraction of hashing them). The most recent answers of a key are tried first."""

    __slots__ = ("depth", "size", "table")

    def __init__(self, depth: int = 8) -> None:
        self.table: dict[Hashable, list[tuple[tuple[list[Any], ...], _V]]] = {}
        self.size = 0
        self.depth = depth  # answers kept under one key

    def get(self, key: Hashable, lists: tuple[list[Any], ...]) -> _V | None:
        bucket = self.table.get(key)
        if bucket is not None:
            for seen, value in bucket:
                if seen == lists:
                    return value
        return None

    def put(self, key: Hashable, lists: tuple[list[Any], ...], value: _V) -> None:
        if self.size >= _KEEP:
            self.clear()
        bucket = self.table.get(key)
        if bucket is None:
            bucket = self.table[key] = []
        bucket.insert(0, (tuple([x[:] for x in lists]), value))
        self.size += 1
        if len(bucket) > self.depth:
            bucket.pop()
            self.size -= 1

    def clear(self) -> None:
        self.table.clear()
        self.size = 0


_READ_PARTS = frozenset({"points", "current", "buildings", "knights"})


def formulas_kept(*reads: frozenset[str] | None) -> bool | None:
    """Whether formulas that read these parts of the state (``ckdsl.dsl.base.registry.READS``;
    None: anything) may be kept (``Evaluator.formulas``): None if not, else whether the
    key must hold the points."""
    if any(r is None or not r <= _READ_PARTS for r in reads):
        return None
    return any("points" in r for r in reads if r is not None)


class Formulas:
    """What the rule set's formulas give in one position: each player's part of the
    defence, the barbarians' strength, and each player's hand limit and the cities the
    barbarians may take (those two when first asked). ``Evaluator.formulas`` keeps it by
    everything the formulas read (and the buildings and metropolises, which decide the
    cities at risk), so a position that differs in nothing of that shares it."""

    __slots__ = ("_at_risk", "_limits", "defence", "shares", "strength")

    def __init__(self, game: Game) -> None:
        programs = game.rules.programs
        self.shares = [programs.defence_of(game, p) for p in range(game.n)]
        self.defence = sum(self.shares)
        self.strength = programs.barbarian_strength(game)
        self._limits: list[int | None] = [None] * game.n
        self._at_risk: list[int] | None = None

    def limit(self, game: Game, player: int) -> int:
        found = self._limits[player]
        if found is None:
            found = self._limits[player] = hand_limit(game, player)
        return found

    def at_risk(self, game: Game) -> list[int]:
        """The players with a city the barbarians may take."""
        found = self._at_risk
        if found is None:
            found = self._at_risk = [p for p in range(game.n) if pieces.pillageable(game, p)]
        return found


def _keep(table: dict[Hashable, _V], key: Hashable, value: _V) -> None:
    if len(table) >= _KEEP:
        table.clear()
    table[key] = value


class Evaluator:
    """The value of a position for one player: ``value(game, player)``.

    A search values thousands of positions that differ from each other in a piece or a
    hand. What depends only on a few lists of the state (the players' production, the
    settlement spots and what they would produce, the improvements' prices, what the
    levels and the trade rates are worth) is kept, keyed by everything it reads (the
    production and the spots under the game's yield and board stamps, which the engine
    renews whenever what they read changes, ``ckdsl.core.derived``), and computed the
    same way whenever it is computed: the same inputs give the same floats, kept or not.
    The rule set's formulas (defence, the barbarians' strength, the hand limit) are kept
    by what they read when the vocabulary declares it (``Formulas``), else asked every
    time, as they may read anything; so is what may be promoted. The board's yields are
    one game's: the answers that read them start afresh for another game."""

    def __init__(self, rules: CompiledRules, topology: Topology, weights: Weights) -> None:
        self.rules = rules
        self.topo = topology
        self.w = weights
        self.odds = dice_odds(rules)
        self.goods = good_values(rules)
        self.mean_good = sum(self.goods[g] for g in rules.resources) / max(1, rules.resource_count)
        self.bank_rate = rules.number("bank_trade_rate")
        self.target_points = rules.number("points_to_win")
        self.points = rules.points
        # Kept for the board of ``_yields`` (a game's tile yields, never changed in it).
        self._yields: object = None
        self._productions: dict[Hashable, list[tuple[list[float], float]]] = {}
        self._spots: dict[Hashable, tuple[list[int], list[int]]] = {}
        self._spot_values: dict[Hashable, list[float | None]] = {}
        self._amounts: dict[tuple[int, int], float] = {}
        self._best_spots: Kept[float] = Kept(depth=4)
        self._opponent_spots: dict[Hashable, float] = {}
        # Kept for any board.
        self._levels: dict[Hashable, float] = {}
        self._rates: dict[Hashable, float] = {}
        self._attack_chances: dict[tuple[int, int], float] = {}
        # Progress cards a player keeps safe from the next draw (docs/rules.md, "The
        # progress-card hand limit"): the limit less one (no limit: all of them).
        limit = rules.params.get("progress_hand_limit")
        self.progress_kept = limit - 1 if isinstance(limit, int) and limit > 0 else 1 << 30
        self._improvements: dict[Hashable, tuple[Bundle | None, ...]] = {}
        # The rule set's formulas, kept by what they read when they declare it.
        programs = rules.programs
        self._kept = formulas_kept(
            programs.strength_reads, programs.defence_reads, programs.discard_limit_reads
        )
        self._formulas: Kept[Formulas] = Kept(depth=16)

    def _board(self, game: Game) -> None:
        """Forget what was kept for another game's board."""
        self._yields = game.tile_yields
        self._productions.clear()
        self._spots.clear()
        self._spot_values.clear()
        self._amounts.clear()
        self._best_spots.clear()
        self._opponent_spots.clear()

    # --- production ------------------------------------------------------------------------

    def production(self, game: Game, player: int) -> list[float]:
        """Expected goods per roll of each good for ``player`` (the robber's tile yields
        nothing; goods of choice count at the mean resource value)."""
        state = game.state
        out = [0.0] * len(self.goods)
        numbers, robber, odds = state.numbers, state.robber, self.odds
        yields = game.tile_yields
        inter_tiles = self.topo.inter_tiles
        building = state.building
        for i in state.players[player].buildings:
            kind = building[i]
            for t in inter_tiles[i]:
                if t == robber:
                    continue
                p = odds.get(numbers[t] or 0, 0.0)
                if not p:
                    continue
                made = yields[t][kind]
                for g, n in made.goods:
                    out[g] += p * n
                if made.choice:  # goods of choice: spread over the resources
                    for g in self.rules.resources:
                        out[g] += p * made.choice / self.rules.resource_count
        return out

    def productions(self, game: Game) -> list[tuple[list[float], float]]:
        """Every player's production and its value, kept under the game's yield stamps
        (``ckdsl.core.derived``: new ones whenever a building next to a numbered tile,
        the robber or the number tokens change, which is everything this reads): a
        search values many positions that differ in a hand, a road or a knight, not in
        the buildings. Not to be changed by the caller."""
        if game.tile_yields is not self._yields:
            self._board(game)
        key = tuple(game.yield_stamps.values())
        found = self._productions.get(key)
        if found is None:
            found = [(made, self.production_value(made)) for made in
                     (self.production(game, p) for p in range(game.n))]  # fmt: skip
            _keep(self._productions, key, found)
        return found

    def production_value(self, made: Sequence[float]) -> float:
        goods = self.goods
        total = 0.0
        kinds = 0
        for g, x in enumerate(made):
            if x:
                total += goods[g] * x
                kinds += 1
        return self.w.production * total + self.w.diversity * kinds

    def spot_value(self, game: Game, i: int) -> float:
        """What a settlement on ``i`` would produce, valued."""
        state = game.state
        total = 0.0
        for t in self.topo.inter_tiles[i]:
            p = self.odds.get(state.numbers[t] or 0, 0.0)
            if p and t != state.robber:
                for g, n in game.tile_yields[t][SETTLEMENT].goods:
                    total += p * n * self.goods[g]
                choice = game.tile_yields[t][SETTLEMENT].choice
                total += p * choice * self.mean_good
        return self.w.production * total

    def spot_values(self, game: Game) -> list[float | None]:
        """``spot_value`` of every intersection, kept for the same robber and number
        tokens, each filled in when first asked (None until then)."""
        state = game.state
        if game.tile_yields is not self._yields:
            self._board(game)
        key = (state.robber, tuple(state.numbers))
        found = self._spot_values.get(key)
        if found is None:
            found = [None] * len(self.topo.inter_tiles)
            _keep(self._spot_values, key, found)
        return found

    # --- the hand --------------------------------------------------------------------------

    def targets(
        self,
        game: Game,
        player: int,
        spots_now: list[int] | None = None,
        spots_near: list[int] | None = None,
    ) -> list[tuple[Bundle, float]]:
        """What the player could buy next, each with its price now and its weight (the
        settlement spots on the network and one road away, if the caller has them)."""
        state, rules, w = game.state, game.rules, self.w.targets
        me = state.players[player]
        supply = me.supply
        out: list[tuple[Bundle, float]] = []
        mods = bool(state.modifiers)
        if supply["settlement"]:
            if spots_now is None:
                spots_now = self.spots(game, player)[0]
            if spots_now:
                out.append((self._price(game, player, "settlement", mods), w["settlement"]))
            else:
                if spots_near is None:
                    spots_near = self.spots(game, player)[1]
                if spots_near:
                    price = self._price(game, player, "settlement", mods)
                    out.append((price, w["settlement"] * 0.5))
        building, wall = state.building, state.wall
        cities: list[int] = []
        others = unwalled = False
        for i in me.buildings:
            if building[i] == CITY:
                cities.append(i)
                if not wall[i]:
                    unwalled = True
            else:
                others = True
        if others and supply["city"]:
            out.append((self._price(game, player, "city", mods), w["city"]))
        if unwalled and supply["city_wall"]:
            out.append((self._price(game, player, "city_wall", mods), w["city_wall"]))
        if supply["road"]:
            out.append((self._price(game, player, "road", mods), w["road"]))
        if me.roads and supply[rules.knight_levels[0].id]:
            out.append((self._price(game, player, "knight", mods), w["knight"]))
        mine = me.knights
        if mine:
            active = state.knight_active
            for i in mine:
                if not active[i]:
                    out.append((rules.activate_cost, w["activate"] * (0.5 + self.urgency(game))))
                    break
            for i in mine:
                if knights.can_promote_knight(game, player, i):
                    out.append((rules.promote_cost, w["promote"]))
                    break
        if cities and w["improvement"]:
            prices = self.improvement_prices(game, player, cities, mods)
            way = [0.0] * len(prices)
            if w["metropolis"]:
                # The race run: one track, the metropolis nearest (a track's levels are
                # paid in its own commodity; three races at once win none).
                ways = [self.metropolis_way(game, player, t) for t in range(len(prices))]
                best = max(range(len(ways)), key=lambda t: ways[t])
                way[best] = ways[best]
            for t, level in enumerate(prices):
                if level is not None:
                    out.append((level, w["improvement"] + w["metropolis"] * way[t]))
        return out

    def metropolis_way(self, game: Game, player: int, t: int) -> float:
        """How far the player's next level of track ``t`` goes towards its metropolis (the
        engine's rule, ``improvements``: a free one is taken at the track's metropolis
        level, a held one that is not kept for good at its take level): 1 for the level
        that takes it, (level / metropolis level)² on the way to a free one, else 0."""
        state = game.state
        track = game.rules.tracks[t]
        level = state.players[player].levels[t] + 1
        held = state.metropolis[t]
        if held == NOBODY:
            return min(1.0, level / max(1, track.metropolis_level)) ** 2
        takes = (
            level >= track.take_level
            and not state.metropolis_kept[t]
            and state.owner[held] != player
        )
        return 1.0 if takes else 0.0

    def _price(self, game: Game, player: int, piece: str, mods: bool) -> Bundle:
        cost = game.rules.costs[piece]
        return cost_of(game, player, piece, cost)[0] if mods else cost

    def improvement_prices(
        self, game: Game, player: int, cities: list[int], mods: bool
    ) -> tuple[Bundle | None, ...]:
        """The price of the next level of each track (None: none may be bought), for a
        player with these cities; kept by what ``improvement_price`` reads when no card
        changes a price."""
        if mods:
            return tuple(self._improvement_prices(game, player))
        state = game.state
        owner, metropolis = state.owner, state.metropolis
        key = (
            player,
            tuple(state.players[player].levels),
            tuple(cities),
            tuple(metropolis),
            tuple([owner[i] if i != NOBODY else NOBODY for i in metropolis]),
        )
        found = self._improvements.get(key)
        if found is None:
            found = tuple(self._improvement_prices(game, player))
            _keep(self._improvements, key, found)
        return found

    def _improvement_prices(self, game: Game, player: int) -> list[Bundle | None]:
        out: list[Bundle | None] = []
        for t in range(len(game.rules.tracks)):
            found = improvements.improvement_price(game, player, t)
            out.append(None if found is None else found[0])
        return out

    def hand_value(
        self,
        hand: Sequence[int],
        rates: Sequence[int],
        targets: list[tuple[Bundle, float]],
        limit: int,
    ) -> float:
        """Cards held: a little each, more for closeness to each target, less beyond the
        hand limit (a 7 would take half). Closeness counts the cards the bank would give
        for the surplus, at the player's rates, as half a card each."""
        goods = self.goods
        total = 0
        raw = 0.0
        spare_all = 0
        for g, n in enumerate(hand):
            if n:
                total += n
                raw += goods[g] * (n if n < 4 else 4)
                spare_all += n // rates[g]
        w = self.w
        value = w.hand_card * raw
        for cost, weight in targets:
            need = 0
            missing = 0
            spare = spare_all
            for g, n in cost:
                need += n
                have = hand[g]
                if have < n:
                    missing += n - have
                    spare -= have // rates[g]
                else:
                    spare -= have // rates[g] - (have - n) // rates[g]
            if not need:
                continue
            if missing:
                left = missing - 0.5 * spare
                close = 1.0 - left / need if left > 0 else 1.0
            else:
                close = 1.0
            value += weight * close * close
        if total > limit:  # a 7 would take half of it
            value -= w.over_limit * (total // 2)
        return value

    # --- the board -------------------------------------------------------------------------

    def near_spots(self, game: Game, player: int) -> list[int]:
        """Free intersections one road beyond the player's network where the distance rule
        allows a settlement."""
        state, topo = game.state, self.topo
        road, edge_ends, inter_edges = state.road, topo.edge_ends, topo.inter_edges
        seen: set[int] = set()
        found: list[int] = []
        for i in board_rules.network_ends(topo, state, player):
            for e in inter_edges[i]:
                if road[e] == NOBODY:
                    a, b = edge_ends[e]
                    j = b if a == i else a
                    if j not in seen:
                        seen.add(j)
                        if board_rules.distance_ok(topo, state, j):
                            found.append(j)
        found.sort()
        return found

    def spots(self, game: Game, player: int) -> tuple[list[int], list[int]]:
        """The settlement spots on the player's network (``settlement_spots``) and one
        road away (``near_spots``), kept under the game's board stamp (``ckdsl.core.
        derived``: a new one whenever a building, a road or a knight is placed, moved or
        removed, which is everything these read). Not to be changed by the caller."""
        key = (player, game.board_stamp)
        found = self._spots.get(key)
        if found is None:
            state = game.state
            found = (
                board_rules.settlement_spots(self.topo, state, player),
                self.near_spots(game, player),
            )
            _keep(self._spots, key, found)
        return found

    def best_spot(self, game: Game, player: int) -> float:
        """The value of the best settlement spot on the player's network
        (``board_rules.settlement_spots``, ``spot_value``)."""
        values = self.spot_values(game)
        best = 0.0
        for i in board_rules.settlement_spots(self.topo, game.state, player):
            x = values[i]
            if x is None:
                x = values[i] = self.spot_value(game, i)
            if x > best:
                best = x
        return best

    def opponent_spots(self, game: Game, player: int) -> float:
        """The best settlement spot of each opponent, weighted and summed: what the
        opponents' expansion reads. Kept under the board stamp and the robber (numbers
        included: swapping them renews the stamp), then by everything it reads (the
        opponents' roads, the buildings, knights and number tokens, the robber), not the
        board stamp: the player's own road or activation, which a search mostly tries,
        leaves it as it was."""
        state = game.state
        if game.tile_yields is not self._yields:
            self._board(game)
        key = (player, game.board_stamp, state.robber)
        found = self._opponent_spots.get(key)
        if found is not None:
            return found
        players = state.players
        roads = [p.roads for q, p in enumerate(players) if q != player]
        lists: tuple[list[Any], ...] = (state.building, state.knight, state.numbers, *roads)
        wide = (player, state.robber, tuple([len(r) for r in roads]))
        kept = self._best_spots.get(wide, lists)
        if kept is None:
            kept = 0.0
            for q, other in enumerate(players):
                if q != player and other.supply["settlement"]:
                    kept += self.w.opponent_expansion * self.best_spot(game, q)
            self._best_spots.put(wide, lists, kept)
        _keep(self._opponent_spots, key, kept)
        return kept

    def expansion(self, game: Game, now: list[int], near: list[int]) -> float:
        """The best settlement spot on the network, and one road away, valued."""
        values = self.spot_values(game)
        best_now: float | None = None
        for i in now:
            x = values[i]
            if x is None:
                x = values[i] = self.spot_value(game, i)
            if best_now is None or x > best_now:
                best_now = x
        best_near: float | None = None
        for i in near:
            if i in now:
                continue
            x = values[i]
            if x is None:
                x = values[i] = self.spot_value(game, i)
            if best_near is None or x > best_near:
                best_near = x
        w = self.w
        return w.expansion_now * (0.0 if best_now is None else best_now) + (
            w.expansion_near * (0.0 if best_near is None else best_near)
        )

    def urgency(self, game: Game) -> float:
        """How close the barbarians are, from 1/length (just left) to 1 (one step away)."""
        length = game.rules.barbarian_track
        return (game.state.barbarians + 1) / length if length else 0.0

    def attack_chance(self, game: Game, rolls: int) -> float:
        """The chance that the barbarian ship attacks within ``rolls`` rolls of the event
        die: its faces (``dice.event_die``) advance it, the attack comes at the end of its
        track (``barbarians.track_length``). Kept by the distance left and ``rolls``."""
        length = game.rules.barbarian_track
        left = length - game.state.barbarians
        if not length or left <= 0:
            return 1.0 if length else 0.0
        key = (left, rolls)
        found = self._attack_chances.get(key)
        if found is None:
            found = self._attack_chances[key] = _reach_chance(game.rules, left, rolls)
        return found

    def formulas(self, game: Game) -> Formulas:
        """What the rule set's formulas give now (``Formulas``), kept by everything they
        may read when they declare what they read (``formulas_kept``): the board's lists
        of buildings and knights (which also decide each player's: the engine keeps them
        equal as sets, and the vocabulary reads them sorted), whose turn it is, the
        metropolises (which decide the cities at risk) and, if read, the points. Else
        asked afresh."""
        kept = self._kept
        if kept is None:
            return Formulas(game)
        state = game.state
        key: tuple[Hashable, ...] = (state.current, tuple(state.metropolis))
        if kept:
            key = (*key, tuple([p.points for p in state.players]))
        lists = (state.building, state.owner, state.wall, state.knight, state.knight_level,
                 state.knight_active)  # fmt: skip
        found = self._formulas.get(key, lists)
        if found is None:
            found = Formulas(game)
            self._formulas.put(key, lists, found)
        return found

    def barbarian_value(self, game: Game, player: int, found: Formulas | None = None) -> float:
        """Defence when the ship is near: the city at risk for the weakest, the Defender
        point for the strongest, each weighted by how near the ship is."""
        w = self.w
        if found is None:
            found = self.formulas(game)
        shares = found.shares
        urgency = self.urgency(game)
        mine = shares[player]
        value = w.defence * mine * urgency
        if found.strength > found.defence:
            at_risk = found.at_risk(game)
            if player in at_risk and mine <= min(shares[p] for p in at_risk):
                value -= w.city_at_risk * urgency
        elif mine > 0 and all(mine > s for p, s in enumerate(shares) if p != player):
            value += w.defender_chance * urgency
        return value

    def levels_value(self, game: Game, player: int) -> float:
        """The player's improvement levels, and the races for the metropolises not yet
        taken (kept by everyone's levels and the metropolises)."""
        state = game.state
        players = state.players
        key = (player, tuple([tuple(p.levels) for p in players]), tuple(state.metropolis))
        found = self._levels.get(key)
        if found is not None:
            return found
        w = self.w
        mine = players[player].levels
        value = 0.0
        for t, track in enumerate(self.rules.tracks):
            level = mine[t]
            value += w.level_value(level)
            if state.metropolis[t] == NOBODY and level:
                best_other = max(
                    (p.levels[t] for q, p in enumerate(players) if q != player), default=0
                )
                if level > best_other:
                    value += w.metropolis_race * level / track.metropolis_level
        _keep(self._levels, key, value)
        return value

    # --- the whole position ----------------------------------------------------------------

    def value(self, game: Game, player: int) -> float:
        """The value of ``game`` for ``player``."""
        state, w = game.state, self.w
        if state.over:
            if state.winner == player:
                return w.win
            if state.winner != NOBODY:
                return -w.win
        me = state.players[player]
        value = w.points * me.points
        productions = self.productions(game)
        made = productions[player][0]
        value += productions[player][1]
        now: list[int] = []
        near: list[int] = []
        if me.supply["settlement"]:
            now, near = self.spots(game, player)
            value += self.expansion(game, now, near)
        targets = self.targets(game, player, now, near)
        found = self.formulas(game)
        value += self.hand_value(me.hand, me.rates, targets, found.limit(game, player))
        value += self.levels_value(game, player)
        value += self.barbarian_value(game, player, found)
        knight_level = state.knight_level
        value += w.knight_strength * sum([knight_level[i] for i in me.knights])
        held = len(me.progress)
        kept = min(held, self.progress_kept)
        value += w.progress_card * kept + w.progress_at_risk * (held - kept)
        value += self.rates_value(me.rates, made)
        value += w.road_length * min(me.road_length, 8)
        best_points = 0
        best_production = 0.0
        players = state.players
        for q in range(game.n):
            if q != player:
                best_points = max(best_points, players[q].points)
                best_production = max(best_production, productions[q][1])
        value -= w.opponent_points * best_points
        value -= w.opponent_production / max(1.0, w.production) * best_production
        if w.wall:
            wall = state.wall
            value += w.wall * sum([1 for i in me.buildings if wall[i]])
        if w.opponent_cards or w.opponent_progress or w.opponent_knights or w.opponent_expansion:
            value -= self.opponents_value(game, player)
        if w.knight_blocks:
            value += w.knight_blocks * self.blocking(game, player)
        if w.knight_cover:
            value += w.knight_cover * self.cover(game, player)
        return value

    def cover(self, game: Game, player: int) -> float:
        """What the player's buildings make on the tiles next to the player's knights
        (docs/rules.md, "Knights": a knight chases the robber from a tile it stands
        next to), the robber's tile counted three times: a knight there can free it now,
        one elsewhere guards the tile for the next 7."""
        state = game.state
        mine = state.players[player].knights
        if not mine:
            return 0.0
        inter_tiles = self.topo.inter_tiles
        covered: set[int] = set()
        for i in mine:
            covered.update(inter_tiles[i])
        total = 0.0
        robber = state.robber
        for t in covered:
            made = self.tile_worth(game, t, player)
            total += 3.0 * made if t == robber else made
        return total

    def tile_worth(self, game: Game, tile: int, player: int) -> float:
        """What the player's buildings on ``tile``'s corners make there a roll, valued."""
        state = game.state
        p = self.odds.get(state.numbers[tile] or 0, 0.0)
        if not p:
            return 0.0
        if game.tile_yields is not self._yields:
            self._board(game)
        total = 0.0
        for i in self.topo.tile_corners[tile]:
            if state.building[i] != EMPTY and state.owner[i] == player:
                total += self._amount(game, tile, state.building[i])
        return p * total

    def _amount(self, game: Game, tile: int, kind: int) -> float:
        """What a building of ``kind`` makes on ``tile``, valued (kept per board)."""
        amounts = self._amounts
        amount = amounts.get((tile, kind))
        if amount is None:
            made = game.tile_yields[tile][kind]
            worth = sum(self.goods[g] * n for g, n in made.goods)
            amount = amounts[tile, kind] = worth + made.choice * self.mean_good
        return amount

    def blocking(self, game: Game, player: int) -> float:
        """Knights standing where two networks meet (docs/rules.md, "Knights": a knight
        blocks the others' roads and settlements there): the levels of the player's
        knights on an intersection an opponent's road touches, less the opponents'
        knights on one the player's road touches (each of those blocks the player itself,
        so it counts in full, not averaged over the opponents)."""
        state = game.state
        road, level = state.road, state.knight_level
        inter_edges = self.topo.inter_edges
        mine = 0.0
        theirs = 0.0
        for owner, other in enumerate(state.players):
            for i in other.knights:
                for e in inter_edges[i]:
                    r = road[e]
                    if r != NOBODY and r != owner and (owner == player or r == player):
                        if owner == player:
                            mine += level[i]
                        else:
                            theirs += level[i]
                        break
        return mine - theirs

    def opponents_value(self, game: Game, player: int) -> float:
        """What the opponents hold that a card or a knight can take from them: their cards
        and progress cards, their knights' strength, and the best settlement spot each
        has on their network (a knight standing on it blocks it), averaged over them."""
        state, w = game.state, self.w
        knight_level = state.knight_level
        total = 0.0
        for q, other in enumerate(state.players):
            if q == player:
                continue
            total += w.opponent_cards * sum(other.hand)
            total += w.opponent_progress * len(other.progress)
            total += w.opponent_knights * sum([knight_level[i] for i in other.knights])
        if w.opponent_expansion:
            total += self.opponent_spots(game, player)
        return total / max(1, game.n - 1)

    def rates_value(self, rates: Sequence[int], made: Sequence[float]) -> float:
        """Trade rates better than the bank's, weighted by what the player produces of
        each good (kept by rates and production)."""
        key = (tuple(rates), tuple(made))
        found = self._rates.get(key)
        if found is None:
            bank_rate = self.bank_rate
            found = self.w.rates * sum(
                [(bank_rate - r) / bank_rate * (made[g] * 6 + 0.3) for g, r in enumerate(rates)]
            )
            _keep(self._rates, key, found)
        return found

    def hand_limit(self, game: Game, player: int) -> int:
        """The rule set's `turn.discard_limit` for ``player`` (``Formulas``)."""
        return self.formulas(game).limit(game, player)

    def tile_harm(self, game: Game, tile: int, player: int) -> float:
        """How much the robber on ``tile`` hurts the others (the leaders most) less how
        much it hurts ``player``: what the tile's corners would produce, valued."""
        state = game.state
        p = self.odds.get(state.numbers[tile] or 0, 0.0)
        if not p:
            return 0.0
        if game.tile_yields is not self._yields:
            self._board(game)
        harm = 0.0
        for i in self.topo.tile_corners[tile]:
            kind = state.building[i]
            if kind == EMPTY:
                continue
            owner = state.owner[i]
            amount = self._amount(game, tile, kind)
            if owner == player:
                harm -= 2.0 * amount
            else:
                lead = 1.0 + state.players[owner].points / max(1, self.target_points)
                harm += amount * lead
        return p * harm


def _reach_chance(rules: CompiledRules, left: int, rolls: int) -> float:
    """The chance that ``rolls`` throws of the event die advance the ship ``left`` steps
    or more (each face counted as often as the die shows it)."""
    faces = rules.event_faces
    steps = [rules.face_ship.get(face, 0) for face in faces]
    # chances[k]: the ship advanced k steps (k < left) and has not yet arrived
    chances = [1.0] + [0.0] * (left - 1)
    arrived = 0.0
    for _ in range(rolls):
        after = [0.0] * left
        for k, p in enumerate(chances):
            if not p:
                continue
            for step in steps:
                if k + step >= left:
                    arrived += p / len(steps)
                else:
                    after[k + step] += p / len(steps)
        chances = after
    return arrived


def city_value(evaluator: Evaluator, game: Game, i: int) -> float:
    """What the city on ``i`` produces beyond a settlement, valued (the one to lose)."""
    state = game.state
    total = 0.0
    for t in evaluator.topo.inter_tiles[i]:
        p = evaluator.odds.get(state.numbers[t] or 0, 0.0)
        kind = CITY if state.building[i] in (CITY, DAMAGED) else SETTLEMENT
        for g, n in game.tile_yields[t][kind].goods:
            total += p * n * evaluator.goods[g]
    return total
