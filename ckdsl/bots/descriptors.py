"""A player's position as a short vector of numbers, read from what that player may see.

The ``learned`` bot's value is a logistic regression over these numbers
(``rules/bots/learned.yaml``, fitted by ``tools/fit_learned.py``), and the PettingZoo
environment (``ckdsl.envs``) gives them to a learning agent. They are deliberately plain
counts and rates, read from the rule set (costs, yields, dice faces, the hand-limit
formula) and never from the heuristic's weights or value: a second pair of eyes.

Every number reads only the public board, the player's own hand and the public counts
(hand sizes, progress-card counts), so a view's masked state gives the same vector as the
whole game (the tests check it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core import board_rules
from ckdsl.core.compiled import Bundle
from ckdsl.core.state import CITY, EMPTY, NOBODY
from ckdsl.turn.turn import hand_limit

if TYPE_CHECKING:
    from ckdsl.core.compiled import CompiledRules
    from ckdsl.turn.game import Game

NAMES: tuple[str, ...] = (
    "points",  # my victory points
    "lead",  # my points less the best opponent's
    "production",  # goods I expect per roll (the dice's odds x my buildings' yields)
    "opponent_production",  # the best opponent's
    "kinds",  # kinds of goods I produce
    "hand",  # resources and commodities in my hand
    "over_limit",  # cards beyond my hand limit (a 7 takes half)
    "levels",  # improvement levels, all tracks
    "knights",  # knight strength on the board
    "active",  # strength of my active knights
    "progress",  # progress cards in my hand
    "rates",  # goods I trade with the bank below its rate
    "road_length",
    "spots",  # intersections on my roads where a settlement may stand
    "cities",
    "walls",
    "missing_settlement",  # cards missing for a settlement
    "missing_city",
    "missing_improvement",  # commodities missing for the cheapest next level
    # Version 3's numbers (earlier models read the ones above, by name).
    "resource_production",  # resources (of choice too) I expect per roll
    "scarcest",  # the expected rolls of my scarcest resource (dice odds, capped)
    "rolls_to_settlement",  # rolls my production needs to pay a settlement (capped)
    "rolls_to_city",
    "rolls_to_improvement",  # for the nearest next level
    "commodities",  # commodities in my hand
    "best_level",  # my highest improvement level
    "level_lead",  # my best track's level less the best opponent's level on it
    "metropolises",  # metropolises I hold
    "defence",  # my share of the defence (active knight strength) less the best opponent's
    "attack_risk",  # cities of mine at risk if the barbarians came now, by their nearness
    "road_lead",  # my road length less the best opponent's
    "near_win",  # points within 4 of the points to win (0 before)
    "opponent_hand",  # the best opponent's hand size (public)
    "opponent_progress",  # progress cards the opponents hold (public counts)
)
"""The numbers of :func:`Describer.describe`, in order."""


def dice_odds(rules: CompiledRules) -> dict[int, float]:
    """The probability of each production number (white die + red die)."""
    odds: dict[int, float] = {}
    share = 1.0 / (len(rules.white_faces) * len(rules.red_faces))
    for white in rules.white_faces:
        for red in rules.red_faces:
            odds[white + red] = odds.get(white + red, 0.0) + share
    return odds


# The most rolls a "rolls to" number counts (a good never produced, a purchase far off).
ROLLS_CAP = 20.0


def missing(hand: list[int], cost: Bundle) -> int:
    """How many cards ``hand`` lacks to pay ``cost``."""
    short = 0
    for good, amount in cost:
        if hand[good] < amount:
            short += amount - hand[good]
    return short


def rolls_to(hand: list[int], cost: Bundle, made: list[float]) -> float:
    """Rolls until my production pays ``cost`` from ``hand`` without trading: the slowest
    good's shortfall over its expected yield per roll, at most ROLLS_CAP."""
    worst = 0.0
    for good, amount in cost:
        short = amount - hand[good]
        if short > 0:
            rate = made[good]
            worst = max(worst, ROLLS_CAP if rate <= 0 else min(ROLLS_CAP, short / rate))
    return worst


class Describer:
    """Describes positions of games of one rule set (its dice odds and costs kept)."""

    def __init__(self, rules: CompiledRules) -> None:
        self.rules = rules
        self.odds = dice_odds(rules)
        self.settlement_cost: Bundle = rules.costs.get("settlement", ())
        self.city_cost: Bundle = rules.costs.get("city", ())

    def production(self, game: Game, player: int) -> tuple[list[float], float]:
        """Goods per roll ``player`` expects: per good, and goods of the owner's choice."""
        state = game.state
        topo = game.topo
        out = [0.0] * len(self.rules.goods)
        choice = 0.0
        for i in state.players[player].buildings:
            kind = state.building[i]
            for t in topo.inter_tiles[i]:
                number = state.numbers[t]
                if t == state.robber or number is None:
                    continue
                p = self.odds.get(number, 0.0)
                made = game.tile_yields[t][kind]
                for good, amount in made.goods:
                    out[good] += p * amount
                choice += p * made.choice
        return out, choice

    def describe(self, game: Game, me: int) -> list[float]:
        """The numbers of :data:`NAMES` for player ``me`` in ``game`` (a game or a view's
        sample: only what ``me`` may see is read)."""
        state = game.state
        rules = self.rules
        players = state.players
        mine = players[me]
        others = [p for p in range(game.n) if p != me]
        made, choice = self.production(game, me)
        best_other = max((players[p].points for p in others), default=0)
        other_made = max((_total(self.production(game, p)) for p in others), default=0.0)
        hand = mine.hand
        cards = sum(hand)
        limit = hand_limit(game, me)
        knights = active = 0
        strengths = rules.knight_levels
        for i in mine.knights:
            level = state.knight_level[i]
            strength = strengths[level - 1].strength if 0 < level <= len(strengths) else 0
            knights += strength
            if state.knight_active[i]:
                active += strength
        cities = walls = 0
        for i in mine.buildings:
            cities += state.building[i] == CITY
            walls += state.wall[i]
        bank_rate = rules.number("bank_trade_rate")
        improvement = min(
            (
                max(0, track.costs[level] - hand[track.commodity])
                for track, level in zip(rules.tracks, mine.levels, strict=True)
                if level < len(track.costs)
            ),
            default=0,
        )
        return [
            float(mine.points),
            float(mine.points - best_other),
            sum(made) + choice,
            other_made,
            float(sum(1 for amount in made if amount > 0)),
            float(cards),
            float(max(0, cards - limit)),
            float(sum(mine.levels)),
            float(knights),
            float(active),
            float(len(mine.progress)),
            float(sum(1 for rate in mine.rates if rate < bank_rate)),
            float(mine.road_length),
            float(len(self.spots(game, me))),
            float(cities),
            float(walls),
            float(missing(hand, self.settlement_cost)),
            float(missing(hand, self.city_cost)),
            float(improvement),
            *self.more(game, me, made, choice),
        ]

    def more(self, game: Game, me: int, made: list[float], choice: float) -> list[float]:
        """Version 3's numbers (after ``missing_improvement`` in :data:`NAMES`)."""
        state = game.state
        rules = self.rules
        players = state.players
        mine = players[me]
        hand = mine.hand
        others = [p for p in range(game.n) if p != me]
        resources = rules.resources
        spread = [made[g] + choice / max(1, len(resources)) if g in resources else made[g]
                  for g in range(len(made))]  # fmt: skip
        scarcest = min((spread[g] for g in resources), default=0.0)
        to_improvement = min(
            (
                rolls_to(hand, ((track.commodity, track.costs[level]),), spread)
                for track, level in zip(rules.tracks, mine.levels, strict=True)
                if level < len(track.costs)
            ),
            default=0.0,
        )
        best_level = max(mine.levels, default=0)
        level_lead = max(
            (
                level - max((players[p].levels[t] for p in others), default=0)
                for t, level in enumerate(mine.levels)
            ),
            default=0,
        )
        metropolises = sum(1 for i in state.metropolis if i != NOBODY and state.owner[i] == me)
        programs = rules.programs
        shares = [programs.defence_of(game, p) for p in range(game.n)]
        strength = programs.barbarian_strength(game)
        cities = sum(1 for i in mine.buildings if state.building[i] == CITY)
        exposed = max(0, cities - metropolises)
        lost = strength > sum(shares) and shares[me] <= min(shares)
        distance = max(1, rules.barbarian_track - state.barbarians)
        to_win = rules.number("points_to_win")
        return [
            sum(made[g] for g in resources) + choice,
            min(ROLLS_CAP, 1.0 / scarcest) if scarcest > 0 else ROLLS_CAP,
            rolls_to(hand, self.settlement_cost, spread),
            rolls_to(hand, self.city_cost, spread),
            to_improvement,
            float(sum(hand[g] for g in rules.commodities)),
            float(best_level),
            float(level_lead),
            float(metropolises),
            float(shares[me] - max((shares[p] for p in others), default=0)),
            exposed / distance if lost else 0.0,
            float(mine.road_length - max((players[p].road_length for p in others), default=0)),
            float(max(0, mine.points - (to_win - 4))),
            float(max((sum(players[p].hand) for p in others), default=0)),
            float(sum(len(players[p].progress) for p in others)),
        ]

    @staticmethod
    def spots(game: Game, me: int) -> list[int]:
        """Where ``me`` could place a settlement on its roads (empty, apart, no knight)."""
        state = game.state
        return [
            i
            for i in board_rules.settlement_spots(game.topo, state, me)
            if state.building[i] == EMPTY and state.knight[i] == NOBODY
        ]


def _total(production: tuple[list[float], float]) -> float:
    made, choice = production
    return sum(made) + choice
