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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ckdsl.engine import board_rules, improvements, knights, pieces
from ckdsl.engine.building import cost_of
from ckdsl.engine.compiled import Bundle
from ckdsl.engine.state import CITY, DAMAGED, EMPTY, NOBODY, SETTLEMENT
from ckdsl.engine.turn import hand_limit
from ckdsl.stamps import Stamp, StampedCache

if TYPE_CHECKING:
    from ckdsl.board import Topology
    from ckdsl.engine.compiled import CompiledRules
    from ckdsl.engine.game import Game

TARGETS = ("settlement", "city", "city_wall", "knight", "activate", "promote", "improvement",
           "road")  # fmt: skip


@dataclass(frozen=True)
class Weights:
    """The weights of ``rules/bots/heuristic.yaml`` (see the comments there)."""

    version: str
    points: float
    win: float
    production: float
    diversity: float
    hand_card: float
    over_limit: float
    targets: dict[str, float]
    levels: tuple[float, ...]
    level_step: float
    metropolis_race: float
    knight_strength: float
    defence: float
    city_at_risk: float
    defender_chance: float
    progress_card: float
    rates: float
    expansion_now: float
    expansion_near: float
    road_length: float
    opponent_points: float
    opponent_production: float
    margin: float
    max_options: int

    def level_value(self, level: int) -> float:
        table = self.levels
        if level < len(table):
            return table[level]
        return table[-1] + (level - len(table) + 1) * self.level_step


BUNDLED = "bundled"
WEIGHTS_FILE = "rules/bots/heuristic.yaml"


_WEIGHTS: StampedCache[str, Weights] = StampedCache(maxsize=8)


def load_weights(path: str = BUNDLED) -> Weights:
    """The weights file ``path`` (``bundled``: the one shipped with ckdsl); raises
    ValueError naming what is missing or wrong. Cached while the file is unchanged."""
    from ckdsl.paths import rules_dir

    file = rules_dir() / "bots" / "heuristic.yaml" if path == BUNDLED else Path(path)
    return _WEIGHTS.get(str(file.resolve()), lambda: _read_weights(file))


def _read_weights(file: Path) -> tuple[Weights, tuple[Stamp]]:
    import yaml

    stamp = Stamp.of(file)  # before reading: an edit while reading fails the next check
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read the weights file {file}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise ValueError(f"{file}: not valid YAML ({exc})") from None
    try:
        w: dict[str, Any] = data["weights"]
        look: dict[str, Any] = data.get("lookahead") or {}
        targets = {t: float(w["targets"].get(t, 0.0)) for t in TARGETS}
        numbers = {
            name: float(w[name])
            for name in Weights.__dataclass_fields__
            if name not in ("version", "targets", "levels", "margin", "max_options")
        }
        weights = Weights(
            version=str(data.get("version", "1")),
            targets=targets,
            levels=tuple(float(x) for x in w["levels"]),
            margin=float(look.get("margin", 0.5)),
            max_options=int(look.get("max_options", 40)),
            **numbers,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"{file}: a weight is missing or not a number ({exc})") from None
    return weights, (stamp,)


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


class Evaluator:
    """The value of a position for one player: ``value(game, player)``."""

    def __init__(self, rules: CompiledRules, topology: Topology, weights: Weights) -> None:
        self.rules = rules
        self.topo = topology
        self.w = weights
        self.odds = dice_odds(rules)
        self.goods = good_values(rules)
        self.mean_good = sum(self.goods[g] for g in rules.resources) / max(1, rules.resource_count)
        self.bank_rate = rules.number("bank_trade_rate")
        self._production_key: tuple[object, object, int, list[int], list[int | None]] | None = None
        self._production_found: list[tuple[list[float], float]] = []
        self.target_points = rules.number("points_to_win")
        self.points = rules.points

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
        """Every player's production and its value. A search values many positions
        that differ from each other in a hand or a knight, not in the buildings: the last
        answer is kept for as long as the buildings, the robber and the number tokens (and
        the board they stand on) stay the same."""
        state = game.state
        key = self._production_key
        if (
            key is not None
            and key[0] is game.tile_yields
            and key[1] is game.tiles_by_number
            and key[2] == state.robber
            and key[3] == state.building
            and key[4] == state.numbers
        ):
            return self._production_found
        found = [(made, self.production_value(made)) for made in
                 (self.production(game, p) for p in range(game.n))]  # fmt: skip
        self._production_key = (game.tile_yields, game.tiles_by_number, state.robber,
                                state.building[:], state.numbers[:])  # fmt: skip
        self._production_found = found
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
        costs = rules.costs
        mods = bool(state.modifiers)

        def price(piece: str) -> Bundle:
            return cost_of(game, player, piece, costs[piece])[0] if mods else costs[piece]

        if supply["settlement"]:
            if spots_now is None:
                spots_now = board_rules.settlement_spots(self.topo, state, player)
            if spots_now:
                out.append((price("settlement"), w["settlement"]))
            else:
                if spots_near is None:
                    spots_near = self.near_spots(game, player)
                if spots_near:
                    out.append((price("settlement"), w["settlement"] * 0.5))
        if supply["city"] and any(state.building[i] != CITY for i in me.buildings):
            out.append((price("city"), w["city"]))
        if supply["city_wall"] and any(
            state.building[i] == CITY and not state.wall[i] for i in me.buildings
        ):
            out.append((price("city_wall"), w["city_wall"]))
        if supply["road"]:
            out.append((price("road"), w["road"]))
        levels = rules.knight_levels
        if supply[levels[0].id] and me.roads:
            out.append((price("knight"), w["knight"]))
        if me.knights:
            active = state.knight_active
            if any(not active[i] for i in me.knights):
                out.append((rules.activate_cost, w["activate"] * (0.5 + self.urgency(game))))
            if any(knights.can_promote_knight(game, player, i) for i in me.knights):
                out.append((rules.promote_cost, w["promote"]))
        if w["improvement"] and any(state.building[i] == CITY for i in me.buildings):
            for t in range(len(rules.tracks)):
                found = improvements.improvement_price(game, player, t)
                if found is not None:
                    out.append((found[0], w["improvement"]))
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
        road, edge_ends = state.road, topo.edge_ends
        found: set[int] = set()
        for i in board_rules.network_ends(topo, state, player):
            for e in topo.inter_edges[i]:
                if road[e] == NOBODY:
                    a, b = edge_ends[e]
                    j = b if a == i else a
                    if board_rules.distance_ok(topo, state, j):
                        found.add(j)
        return sorted(found)

    def expansion(self, game: Game, now: list[int], near: list[int]) -> float:
        """The best settlement spot on the network, and one road away, valued."""
        best_now = max((self.spot_value(game, i) for i in now), default=0.0)
        best_near = max((self.spot_value(game, i) for i in near if i not in now), default=0.0)
        return self.w.expansion_now * best_now + self.w.expansion_near * best_near

    def urgency(self, game: Game) -> float:
        """How close the barbarians are, from 1/length (just left) to 1 (one step away)."""
        length = game.rules.barbarian_track
        return (game.state.barbarians + 1) / length if length else 0.0

    def barbarian_value(self, game: Game, player: int) -> float:
        """Defence when the ship is near: the city at risk for the weakest, the Defender
        point for the strongest, each weighted by how near the ship is."""
        rules, w = game.rules, self.w
        programs = rules.programs
        shares = [programs.defence_of(game, p) for p in range(game.n)]
        urgency = self.urgency(game)
        mine = shares[player]
        value = w.defence * mine * urgency
        if programs.barbarian_strength(game) > sum(shares):
            at_risk = [p for p in range(game.n) if pieces.pillageable(game, p)]
            if player in at_risk and mine <= min(shares[p] for p in at_risk):
                value -= w.city_at_risk * urgency
        elif mine > 0 and all(mine > s for p, s in enumerate(shares) if p != player):
            value += w.defender_chance * urgency
        return value

    def levels_value(self, game: Game, player: int) -> float:
        state, rules, w = game.state, game.rules, self.w
        mine = state.players[player].levels
        value = 0.0
        for t, track in enumerate(rules.tracks):
            level = mine[t]
            value += w.level_value(level)
            if state.metropolis[t] == NOBODY and level:
                best_other = max(
                    (p.levels[t] for q, p in enumerate(state.players) if q != player), default=0
                )
                if level > best_other:
                    value += w.metropolis_race * level / track.metropolis_level
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
            now = board_rules.settlement_spots(self.topo, state, player)
            near = self.near_spots(game, player)
            value += self.expansion(game, now, near)
        targets = self.targets(game, player, now, near)
        value += self.hand_value(me.hand, me.rates, targets, self.hand_limit(game, player))
        value += self.levels_value(game, player)
        value += self.barbarian_value(game, player)
        value += w.knight_strength * sum(state.knight_level[i] for i in me.knights)
        value += w.progress_card * len(me.progress)
        bank_rate = self.bank_rate
        value += w.rates * sum(
            (bank_rate - r) / bank_rate * (made[g] * 6 + 0.3) for g, r in enumerate(me.rates)
        )
        value += w.road_length * min(me.road_length, 8)
        best_points = 0
        best_production = 0.0
        for q in range(game.n):
            if q != player:
                best_points = max(best_points, state.players[q].points)
                best_production = max(best_production, productions[q][1])
        value -= w.opponent_points * best_points
        value -= w.opponent_production / max(1.0, w.production) * best_production
        return value

    def hand_limit(self, game: Game, player: int) -> int:
        return hand_limit(game, player)

    def tile_harm(self, game: Game, tile: int, player: int) -> float:
        """How much the robber on ``tile`` hurts the others (the leaders most) less how
        much it hurts ``player``: what the tile's corners would produce, valued."""
        state = game.state
        p = self.odds.get(state.numbers[tile] or 0, 0.0)
        if not p:
            return 0.0
        yields = game.tile_yields[tile]
        harm = 0.0
        for i in self.topo.tile_corners[tile]:
            kind = state.building[i]
            if kind == EMPTY:
                continue
            owner = state.owner[i]
            made = yields[kind]
            amount = sum(self.goods[g] * n for g, n in made.goods) + made.choice * self.mean_good
            if owner == player:
                harm -= 2.0 * amount
            else:
                lead = 1.0 + state.players[owner].points / max(1, self.target_points)
                harm += amount * lead
        return p * harm


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
