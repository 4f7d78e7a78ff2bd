"""A game: the state plus the one path that changes it, ``answer``.

``Game.pending`` is the decision owed now (who, what kind, every legal option);
``Game.answer(option)`` checks the option, applies it and leaves the game at its next
decision. Bots, people, scenarios and replays all go through ``answer``, so a game is
fully determined by its rule set, map layout, seed and the list of answers.

The turn flow follows the base rules as the rule set states them (source §2-§9 and
design §7); the Cities & Knights systems (event die outcomes, barbarians, knights,
improvements, progress cards) hook into ``_resolve_event_face`` and the main phase in issue 5.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ckdsl.engine import board_rules
from ckdsl.engine.compiled import Bundle, CompiledRules
from ckdsl.engine.decisions import Decision, IllegalAnswer, Option
from ckdsl.engine.state import CITY, EMPTY, NOBODY, SETTLEMENT, GameState, PlayerState, Task

if TYPE_CHECKING:
    from ckdsl.board import Layout, Topology

OVER = Decision(NOBODY, "over", ())


class Game:
    """One game on one board under one compiled rule set."""

    def __init__(
        self,
        rules: CompiledRules,
        topology: Topology,
        layout: Layout,
        players: int,
        seed: int,
        rng: random.Random | None = None,
    ) -> None:
        """``rng``: the game's RNG if the layout was already drawn from it (else a new one
        seeded with ``seed``)."""
        low, high = rules.param("players_min"), rules.param("players_max")
        if not low <= players <= high:
            raise ValueError(f"this rule set is for {low} to {high} players, not {players}")
        self.rules = rules
        self.topo = topology
        self.layout = layout
        self.n = players
        self.terrain: tuple[str, ...] = layout.terrain
        by_number: dict[int, list[int]] = {}
        for tile, number in enumerate(layout.number):
            if number is not None:
                by_number.setdefault(number, []).append(tile)
        self.tiles_by_number = {n: tuple(ts) for n, ts in by_number.items()}
        # What each tile yields, indexed by what stands on the corner (SETTLEMENT, CITY;
        # index EMPTY is never read).
        self.tile_yields = tuple(
            (rules.production[t]["settlement"],) * 2 + (rules.production[t]["city"],)
            for t in self.terrain
        )
        self._orders = tuple(
            tuple((p + k) % players for k in range(players)) for p in range(players)
        )
        # Harbors: which goods an intersection lets its owner trade at a better rate.
        self.harbor_at: dict[int, str] = {}
        for edge, kind in zip(topology.harbor_edges, layout.harbors, strict=True):
            for i in topology.edge_ends[edge]:
                self.harbor_at[i] = kind
        second = rules.param("second_setup_piece")
        self.setup_order: tuple[tuple[int, str], ...] = tuple(
            [(p, step) for p in range(players) for step in ("settlement", "road")]
            + [(p, step) for p in reversed(range(players)) for step in (second, "road")]
        )
        goods = len(rules.goods)
        pieces = [
            PlayerState(
                hand=[0] * goods,
                supply=dict(rules.supply),
                rates=[rules.param("bank_trade_rate")] * goods,
            )
            for _ in range(players)
        ]
        self.state = GameState(
            seed=seed,
            rng=rng or random.Random(seed),
            players=pieces,
            building=[EMPTY] * len(topology.inter_tiles),
            owner=[NOBODY] * len(topology.inter_tiles),
            wall=[False] * len(topology.inter_tiles),
            road=[NOBODY] * len(topology.edge_ends),
            robber=layout.robber,
            bank=list(rules.bank),
            robber_unlocked=not rules.param("robber_locked_until_first_attack"),
        )
        self._decision: Decision | None = None
        self.history: list[Option] = []  # every answer applied, in order (the save file)
        self._handlers = {
            name[4:]: getattr(self, name) for name in dir(self) if name.startswith("_on_")
        }

    # --- the decision path -----------------------------------------------------------

    @property
    def pending(self) -> Decision:
        """The decision owed now (``kind == "over"`` once the game has ended)."""
        if self._decision is None:
            self._decision = self._decide()
        return self._decision

    def answer(self, option: Option) -> None:
        """Apply ``option`` to the pending decision, or raise IllegalAnswer and change nothing."""
        decision = self.pending
        if decision.kind == "over":
            raise IllegalAnswer("the game is over")
        option = tuple(option)
        if option not in decision.options:
            if not option or not decision.accepts_open(option[0]):
                raise IllegalAnswer(f"not a legal answer to this '{decision.kind}' decision")
            self._check_open(decision, option)
        self._decision = None
        self.history.append(option)
        self._handlers[decision.kind](decision.player, option)
        self._check_winner()

    def refresh(self) -> None:
        """Forget the cached pending decision, after the state was changed directly
        (a scenario's position, a test)."""
        self._decision = None

    # --- computing the next decision ---------------------------------------------------

    def _decide(self) -> Decision:
        state = self.state
        if state.over:
            return OVER
        while state.queue:
            decision = self._task_decision(state.queue[0])
            if decision.options:
                return decision
            state.queue.pop(0)  # nothing to choose from: the task lapses (e.g. empty bank)
        if state.setup_step < len(self.setup_order):
            return self._setup_decision()
        if not state.rolled:
            return Decision(state.current, "roll", (("roll",),))
        return Decision(state.current, "main", self._main_options(state.current))

    def _setup_decision(self) -> Decision:
        state, topo = self.state, self.topo
        player, step = self.setup_order[state.setup_step]
        if step == "road":
            home = state.players[player].buildings[-1]
            spots = [e for e in topo.inter_edges[home] if state.road[e] == NOBODY]
            return Decision(player, "setup_road", tuple(("road", e) for e in spots))
        spots = [i for i in range(len(state.building)) if board_rules.distance_ok(topo, state, i)]
        return Decision(player, f"setup_{step}", tuple((step, i) for i in spots))

    def _task_decision(self, task: Task) -> Decision:
        kind, player = task[0], task[1]
        state = self.state
        hand = state.players[player].hand
        goods = self.rules.goods
        options: tuple[Option, ...]
        if kind == "discard":
            options = tuple(("discard", goods[g]) for g in range(len(goods)) if hand[g])
        elif kind == "gold":
            options = tuple(("take", goods[g]) for g in self.rules.resources if state.bank[g])
        elif kind == "robber":
            options = tuple(("robber", t) for t in range(len(self.terrain)) if t != state.robber)
        elif kind == "steal":
            options = tuple(("steal", q) for q in self._victims(player))
        elif kind == "respond":
            offer = task[2]
            can_pay = _has(hand, self._bundle(offer["get"]))
            options = (("accept",), ("decline",)) if can_pay else (("decline",),)
        elif kind == "partner":
            offer = task[2]
            options = (*(("partner", q) for q in offer["accepted"]), ("cancel",))
        else:  # pragma: no cover - a task kind without a decision is a bug
            raise AssertionError(f"unknown task {task!r}")
        return Decision(player, kind, options)

    def _main_options(self, player: int) -> tuple[Option, ...]:
        state, topo, rules = self.state, self.topo, self.rules
        me = state.players[player]
        hand, supply, costs = me.hand, me.supply, rules.costs
        options: list[Option] = []
        if supply.get("road", 0) and _has(hand, costs["road"]):
            options += [("road", e) for e in board_rules.road_spots(topo, state, player)]
        if supply.get("settlement", 0) and _has(hand, costs["settlement"]):
            spots = board_rules.settlement_spots(topo, state, player)
            options += [("settlement", i) for i in spots]
        building = state.building
        if supply.get("city", 0) and _has(hand, costs["city"]):
            options += [("city", i) for i in me.buildings if building[i] == SETTLEMENT]
        if supply.get("city_wall", 0) and _has(hand, costs["city_wall"]):
            walls = state.wall
            options += [
                ("city_wall", i) for i in me.buildings if building[i] == CITY and not walls[i]
            ]
        goods, bank, rates = rules.goods, state.bank, me.rates
        for g, held in enumerate(hand):
            if held >= rates[g]:
                options += [
                    ("bank", goods[g], goods[h]) for h in range(len(goods)) if h != g and bank[h]
                ]
        options.append(("end",))
        return tuple(options)

    def _victims(self, player: int) -> list[int]:
        state = self.state
        found = {
            state.owner[i]
            for i in self.topo.tile_corners[state.robber]
            if state.owner[i] not in (NOBODY, player)
        }
        return sorted(q for q in found if sum(state.players[q].hand))

    # --- open answers (trade offers) ---------------------------------------------------

    def _check_open(self, decision: Decision, option: Option) -> None:
        """Check an offer to the other players: ("offer", give, get), each {good: amount}."""
        if len(option) != 3 or not isinstance(option[1], dict) or not isinstance(option[2], dict):
            raise IllegalAnswer("an offer names what you give and what you ask for")
        give, get = option[1], option[2]
        for side in (give, get):
            if not side:
                raise IllegalAnswer("an offer must give something and ask for something")
            for good, amount in side.items():
                if good not in self.rules.good_index:
                    raise IllegalAnswer(f"'{good}' is not a resource or commodity")
                if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
                    raise IllegalAnswer(f"the amount of {good} must be a whole number >= 1")
        if set(give) & set(get):
            raise IllegalAnswer("an offer cannot give and ask for the same good")
        if not _has(self.state.players[decision.player].hand, self._bundle(give)):
            raise IllegalAnswer("you do not hold what you offer")
        limit = self.rules.param("trade_offers_per_turn")
        if self.state.offers_made >= limit:
            raise IllegalAnswer(f"at most {limit} trade offers per turn")

    def _bundle(self, amounts: dict[str, int]) -> Bundle:
        index = self.rules.good_index
        return tuple((index[g], n) for g, n in amounts.items())

    # --- applying answers: setup -------------------------------------------------------

    def _on_setup_settlement(self, player: int, option: Option) -> None:
        self.place_building(player, option[1], SETTLEMENT)
        self.state.setup_step += 1

    def _on_setup_city(self, player: int, option: Option) -> None:
        i = option[1]
        self.place_building(player, i, CITY)
        # Source §2: the second placement yields start resources, one per terrain around it.
        state, rules = self.state, self.rules
        hand = state.players[player].hand
        for tile in self.topo.inter_tiles[i]:
            production = rules.production[self.terrain[tile]]["settlement"]
            for g, amount in production.goods:
                got = min(amount, state.bank[g])
                if got:
                    hand[g] += got
                    state.bank[g] -= got
                    self._log("produce", player, goods={rules.goods[g]: got})
            if production.choice:
                state.queue.append(("gold", player, production.choice))
        state.setup_step += 1

    def _on_setup_road(self, player: int, option: Option) -> None:
        self.place_road(player, option[1])
        state = self.state
        state.setup_step += 1
        if state.setup_step == len(self.setup_order):
            self._begin_turn(0)

    # --- applying answers: the turn ----------------------------------------------------

    def _on_roll(self, player: int, option: Option) -> None:
        state, rules = self.state, self.rules
        if state.fixed_rolls:  # a scenario fixed these dice
            white, red, face = state.fixed_rolls.pop(0)
        else:
            rng = state.rng
            white = rng.choice(rules.white_faces)
            red = rng.choice(rules.red_faces)
            face = rng.choice(rules.event_faces)
        state.dice = (white, red, face)
        state.rolled = True
        self._log("roll", player, white=white, red=red, face=face, total=white + red)
        self._resolve_event_face(player, face, red)
        if white + red == 7:
            self._seven(player)
        else:
            self._produce(white + red)

    def _resolve_event_face(self, player: int, face: str, red: int) -> None:
        """Hook for the Cities & Knights event die (barbarians, progress cards: issue 5)."""

    def _seven(self, player: int) -> None:
        """Source §8: discards over the hand limit, then the robber if it is unlocked."""
        state = self.state
        for q in self._from(player):
            held = sum(state.players[q].hand)
            if held > self._hand_limit(q):
                state.queue.append(("discard", q, held // 2))
        if state.robber_unlocked:
            state.queue.append(("robber", player))

    def _hand_limit(self, player: int) -> int:
        """Source §9: the hand limit, raised by each city wall, up to the cap."""
        params = self.rules.params
        walls = sum(1 for i in self.state.players[player].buildings if self.state.wall[i])
        bonus = params["hand_limit"] + walls * params["city_wall_hand_bonus"]
        return int(min(bonus, params["hand_limit_cap"]))

    def _produce(self, number: int) -> None:
        """Source §4: every building next to a tile with this number yields, but not
        under the robber; if the bank cannot pay everyone a good, nobody gets it unless
        only one player is owed it (official shortage rule)."""
        state, rules, topo = self.state, self.rules, self.topo
        owed: dict[int, dict[int, int]] = {}
        gold: list[tuple[int, int]] = []
        building, owner_of = state.building, state.owner
        for tile in self.tiles_by_number.get(number, ()):
            if tile == state.robber:
                continue
            yields = self.tile_yields[tile]
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
        # owed: player -> good -> amount; checked good by good against the bank.
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
                    self._log("shortage", NOBODY, good=rules.goods[g])
                else:
                    owed[takers[0]][g] = bank[g]
        for p in self._from(state.current):
            goods = owed.get(p)
            if not goods:
                continue
            hand = state.players[p].hand
            for g, amount in goods.items():
                hand[g] += amount
                bank[g] -= amount
            names = rules.goods
            named = {names[g]: n for g, n in sorted(goods.items()) if n}
            if named:
                self._log("produce", p, goods=named)
        if gold:
            gold.sort(key=lambda pc: (pc[0] - state.current) % self.n)
            state.queue += [("gold", owner, count) for owner, count in gold]

    def _on_main(self, player: int, option: Option) -> None:
        verb = option[0]
        if verb == "end":
            self._end_turn(player)
        elif verb == "bank":
            self._bank_trade(player, option[1], option[2])
        elif verb == "offer":
            self._offer(player, option[1], option[2])
        else:
            self._pay(player, self.rules.costs[verb])
            if verb == "road":
                self.place_road(player, option[1])
            elif verb == "settlement":
                self.place_building(player, option[1], SETTLEMENT)
            elif verb == "city":
                self.place_building(player, option[1], CITY)
            else:  # city_wall
                state = self.state
                state.wall[option[1]] = True
                state.players[player].supply["city_wall"] -= 1
                self._log("build", player, piece="city_wall", at=option[1])

    def _end_turn(self, player: int) -> None:
        self._log("end_turn", player)
        self._begin_turn((player + 1) % self.n)

    def _begin_turn(self, player: int) -> None:
        state = self.state
        state.turn += 1
        state.current = player
        state.rolled = False
        state.offers_made = 0
        if state.turn > self.rules.param("turn_limit"):
            state.over = True
            self._log("unfinished", NOBODY, turns=state.turn - 1)
            return
        self._log("turn", player, turn=state.turn)

    def _on_discard(self, player: int, option: Option) -> None:
        self._move_one(player, option[1], to_bank=True)
        self._log("discard", player, good=option[1])
        self._count_down()

    def _on_gold(self, player: int, option: Option) -> None:
        self._move_one(player, option[1], to_bank=False)
        self._log("produce", player, goods={option[1]: 1})
        self._count_down()

    def _move_one(self, player: int, good: str, *, to_bank: bool) -> None:
        """One card of ``good`` from the player's hand to the bank, or the other way."""
        g = self.rules.good_index[good]
        step = -1 if to_bank else 1
        self.state.players[player].hand[g] += step
        self.state.bank[g] -= step

    def _count_down(self) -> None:
        """One of the cards a task asks for is done; the task ends with its last one."""
        queue = self.state.queue
        kind, who, left = queue[0]
        if left > 1:
            queue[0] = (kind, who, left - 1)
        else:
            queue.pop(0)

    def _on_robber(self, player: int, option: Option) -> None:
        state = self.state
        state.robber = option[1]
        self._log("robber", player, tile=option[1])
        state.queue[0] = ("steal", player)

    def _on_steal(self, player: int, option: Option) -> None:
        state = self.state
        victim = option[1]
        hand = state.players[victim].hand
        pick = state.rng.randrange(sum(hand))
        g = 0
        while pick >= hand[g]:
            pick -= hand[g]
            g += 1
        hand[g] -= 1
        state.players[player].hand[g] += 1
        state.queue.pop(0)
        self._log("steal", player, victim=victim, good=self.rules.goods[g])

    # --- trading -----------------------------------------------------------------------

    def _bank_trade(self, player: int, give: str, get: str) -> None:
        """Bank 4:1, harbors 3:1 and 2:1 (source §5; rates in the rule set's parameters)."""
        state = self.state
        me = state.players[player]
        g, h = self.rules.good_index[give], self.rules.good_index[get]
        rate = me.rates[g]
        me.hand[g] -= rate
        state.bank[g] += rate
        me.hand[h] += 1
        state.bank[h] -= 1
        self._log("bank_trade", player, give={give: rate}, get={get: 1})

    def _offer(self, player: int, give: dict[str, int], get: dict[str, int]) -> None:
        state = self.state
        state.offers_made += 1
        offer = {"from": player, "give": dict(give), "get": dict(get), "accepted": []}
        self._log("offer", player, give=offer["give"], get=offer["get"])
        others = [q for q in self._from(player) if q != player]
        state.queue[:0] = [("respond", q, offer) for q in others] + [("partner", player, offer)]

    def _on_respond(self, player: int, option: Option) -> None:
        offer = self.state.queue.pop(0)[2]
        if option[0] == "accept":
            offer["accepted"].append(player)
        self._log(option[0], player, offerer=offer["from"])

    def _on_partner(self, player: int, option: Option) -> None:
        state = self.state
        offer = state.queue.pop(0)[2]
        if option[0] == "cancel":
            self._log("trade_cancelled", player)
            return
        partner = option[1]
        mine, theirs = state.players[player].hand, state.players[partner].hand
        for g, n in self._bundle(offer["give"]):
            mine[g] -= n
            theirs[g] += n
        for g, n in self._bundle(offer["get"]):
            theirs[g] -= n
            mine[g] += n
        self._log("trade", player, partner=partner, give=offer["give"], get=offer["get"])

    # --- pieces --------------------------------------------------------------------------

    def _pay(self, player: int, cost: Bundle) -> None:
        hand, bank = self.state.players[player].hand, self.state.bank
        for g, n in cost:
            hand[g] -= n
            bank[g] += n

    def place_road(self, player: int, edge: int) -> None:
        """Put a road of ``player`` on ``edge`` (paid or not: the caller decides)."""
        state = self.state
        state.road[edge] = player
        me = state.players[player]
        me.roads.append(edge)
        me.supply["road"] -= 1
        self._log("build", player, piece="road", at=edge)
        me.road_length = board_rules.longest_road(self.topo, state, player)
        self._award_longest_road()

    def place_building(self, player: int, i: int, kind: int) -> None:
        """Put a settlement or city of ``player`` on ``i`` (a city on their own settlement
        upgrades it); used by the setup, the main phase and scenarios alike."""
        state, points = self.state, self.rules.points
        me = state.players[player]
        upgrade = kind == CITY and state.building[i] == SETTLEMENT
        if upgrade:  # the settlement goes back to the supply
            me.supply["settlement"] += 1
            me.points -= points["settlement"]
        else:
            me.buildings.append(i)
            state.owner[i] = player
            self._harbor(me, i)
        piece = "city" if kind == CITY else "settlement"
        me.supply[piece] -= 1
        me.points += points[piece]
        state.building[i] = kind
        self._log("build", player, piece=piece, at=i)
        if not upgrade:  # a new building may cut another player's road (source §16)
            cut = {state.road[e] for e in self.topo.inter_edges[i]} - {player, NOBODY}
            for q in cut:
                state.players[q].road_length = board_rules.longest_road(self.topo, state, q)
            if cut:
                self._award_longest_road()

    def _harbor(self, me: PlayerState, i: int) -> None:
        """A building on a harbor lowers its owner's bank rate (source §5)."""
        kind = self.harbor_at.get(i)
        if kind is None:
            return
        params = self.rules.params
        if kind == "generic":
            rate = params["generic_harbor_rate"]
            me.rates = [min(r, rate) for r in me.rates]
        else:
            g = self.rules.good_index[kind]
            me.rates[g] = min(me.rates[g], params["special_harbor_rate"])

    def _award_longest_road(self) -> None:
        """Source §16: the longest road of at least the minimum length; the holder keeps
        it on a tie; if it is broken and others tie for the lead, nobody holds it."""
        state, rules = self.state, self.rules
        best = max(p.road_length for p in state.players)
        holder = state.longest_road_holder
        leaders = [q for q, p in enumerate(state.players) if p.road_length == best]
        if best < rules.longest_road_min:
            new = NOBODY
        elif holder in leaders:
            new = holder
        else:
            new = leaders[0] if len(leaders) == 1 else NOBODY
        if new == holder:
            return
        if holder != NOBODY:
            state.players[holder].points -= rules.longest_road_points
        if new != NOBODY:
            state.players[new].points += rules.longest_road_points
        state.longest_road_holder = new
        self._log("longest_road", new, previous=holder, length=best)

    def recount_points(self, player: int) -> int:
        """The player's victory points counted afresh from the board (tests compare this
        with the tracked ``points``)."""
        state, points = self.state, self.rules.points
        total = 0
        for i in state.players[player].buildings:
            total += points["city" if state.building[i] == CITY else "settlement"]
        if state.longest_road_holder == player:
            total += self.rules.longest_road_points
        return total

    # --- the end -------------------------------------------------------------------------

    def _check_winner(self) -> None:
        """Source §16: the game is won with enough points, during one's own turn only."""
        state = self.state
        if state.over or state.turn == 0:
            return
        target = self.rules.params["points_to_win"]
        if self.rules.params["win_on_own_turn_only"]:
            candidates = [state.current]
        else:
            candidates = list(self._from(state.current))
        for p in candidates:
            if state.players[p].points >= target:
                state.winner = p
                state.over = True
                state.queue.clear()
                self._log("win", p, points=state.players[p].points)
                return

    # --- helpers -------------------------------------------------------------------------

    def _from(self, player: int) -> tuple[int, ...]:
        """Every player in turn order, starting with ``player``."""
        return self._orders[player]

    def _log(self, event: str, player: int, **details: Any) -> None:
        self.state.log.append({"event": event, "player": player, **details})


def _has(hand: list[int], cost: Bundle) -> bool:
    """Whether ``hand`` holds ``cost`` (a plain loop: faster than all() on the hot path)."""
    for g, n in cost:  # noqa: SIM110
        if hand[g] < n:
            return False
    return True
