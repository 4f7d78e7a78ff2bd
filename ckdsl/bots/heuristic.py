"""The heuristic bot: a value function over the rule set's features, one answer ahead.

At each decision the bot fills the hidden parts of its view with a sample
(``PlayerView.determinize``), then:

- in the main phase, and wherever an answer changes the board (setup spots, a card's
  choices, which city to lose...), it plays each answer on a clone of that sample,
  lets what follows on its own happen (a card's effect runs to its end, its own later
  choices made by the quick rules below), and keeps the answer whose position is worth
  most (``features.Evaluator``); the main phase ends when no action gains more than a
  margin;
- a setup placement looks ahead at the spots that would produce most only, and after an
  offer nobody took, the turn ends as it was to end (no second look at every answer);
- bank trades, discards and goods of choice change only the hand, so they are valued on
  the hand alone, without a clone;
- the robber goes where it hurts the others most (the leaders first) and itself least; a
  steal takes from the leader;
- it offers the other players one fair trade a turn (one card for one) when a card would
  complete a purchase, and accepts an offer that makes its own hand worth more, unless
  the offerer is close to winning.

Nothing in it names a card, a piece or a good: it plays every variant unchanged.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ckdsl.bots.base import BotError, BotInfo, Param, register
from ckdsl.bots.features import Evaluator, city_value
from ckdsl.bots.weights import BUNDLED, WEIGHTS_FILE, Weights, load_weights
from ckdsl.core import trade
from ckdsl.core.decisions import Decision, IllegalAnswer, Option
from ckdsl.core.tasks import RespondTask, expect

if TYPE_CHECKING:
    from ckdsl.core.view import PlayerView
    from ckdsl.turn.game import Game

# 2: choices looked at one answer ahead (was two), setup spots shortlisted, and no second
# look at the main phase after an offer nobody took.
# 3: the opponents' cards, progress cards, knights and best settlement spot, and city
# walls, in the value; a card's own choices, looked at ahead, made by looking ahead too
# (``lookahead.card_choices``); new weights. Version 2 plays on as ``version=2``.
# 4: knights next to the tiles the player produces on (``knight_cover``), a knight that
# acts valued as active again on the next turn (``lookahead.reactivate_later``), one
# metropolis race run (``targets.metropolis``), progress cards beyond the hand limit less
# one worth little (``progress_at_risk``). Version 3 plays on as ``version=3``.
VERSION = "4"
VERSIONS = (2, 3, 4)

# Decisions whose answers change the board or a card's course: looked at one answer ahead.
_LOOKAHEAD = ("setup_", "choose_", "optional", "reward", "relocate", "lose_city", "metropolis")
# How many of the engine's automatic steps to let happen after an answer, at most.
_SETTLE_STEPS = 60
# Setup steps that place a building on an intersection, and how many of their spots are
# looked at one answer ahead: those that would produce most (``Evaluator.spot_value``).
# The spot chosen after looking at every one was among the first seven so ranked in each
# of 320 setup placements of 40 games; each one looked at costs a clone and a value.
_SETUP_SPOTS = ("setup_settlement", "setup_city")
_SETUP_SHORTLIST = 12
# The engine's verbs of a knight's action, after which the knight is inactive
# (``acted_and_activated``).
_KNIGHT_ACTS = ("move_knight", "displace", "chase")


class HeuristicBot:
    """A greedy player over ``features.Evaluator``, seeded for its samples."""

    def __init__(self, seed: int, weights: str = BUNDLED, version: int = 4) -> None:
        if version not in VERSIONS:
            known = ", ".join(str(v) for v in VERSIONS)
            raise BotError(f"heuristic:version: {version} is not a version (they are: {known})")
        self.rng = random.Random(seed)
        self.weights: Weights = load_weights(weights, version)
        # How many more answers a card's own choices may look at, in the look ahead at one
        # answer (``decide``; renewed for each answer looked at).
        self._budget = 0
        # A card's choices made that way in this turn, by the choice and its options.
        self._chosen: dict[tuple[str, tuple[Option, ...]], Option] = {}
        self._chosen_turn = -1
        # What playing each held card gained when valued in this turn beyond its change
        # to the hand, and that change (``played``).
        self._gains: dict[Option, tuple[float, list[int]]] = {}
        self._gains_turn = -1
        self._evaluators: dict[tuple[str, int], Evaluator] = {}
        # The main phase in which this bot last made an offer instead of ending its turn
        # (``main``): if no trade came of it, the same decision comes back.
        self._offered: tuple[object, ...] | None = None

    def evaluator(self, game: Game) -> Evaluator:
        key = (game.rules.ruleset_hash, id(game.topo))
        found = self._evaluators.get(key)
        if found is None:
            found = self._evaluators[key] = Evaluator(game.rules, game.topo, self.weights)
        return found

    # --- the protocol -------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Option:
        decision = view.decision
        options = decision.options
        if len(options) == 1 and decision.kind != "main":
            return options[0]
        # Listed only for a look ahead (``listed``): the quick rules read the view's options.
        game = view.determinize(self.rng, list_now=False)
        # One answer ahead: the choices that follow (a card's second choice) by the quick
        # rules. Two ahead cost 15% more time and won no more games: 303 of 600 against
        # it, 95% Wilson [0.465, 0.545] (paired seeds, seats swapped).
        return self.decide(game, view.player, decision, depth=1)

    def decide(self, game: Game, me: int, decision: Decision, depth: int) -> Option:
        """The answer to ``decision`` in ``game`` (a sample of the player's view)."""
        kind, options = decision.kind, decision.options
        if kind in ("main", "phase"):  # a phase (special build) is a main phase cut down
            return self.main(game, me, options)
        if kind == "roll":
            return self.roll(game, me, options)
        every = kind.startswith("setup_") or len(options) <= self.weights.max_options
        if depth > 0 and kind.startswith(_LOOKAHEAD) and every:
            if self._chosen_turn == game.state.turn:
                found = self._chosen.get((kind, options))
                if found is not None:  # looked at when the card was valued, this turn
                    return found
            if kind in _SETUP_SPOTS and len(options) > _SETUP_SHORTLIST:
                options = self.shortlist(game, options, _SETUP_SHORTLIST)
            return self.best_ahead(game, me, options, depth)
        if (
            depth == 0
            and 0 < len(options) <= self._budget
            and kind.startswith(_LOOKAHEAD)
            and not kind.startswith("setup_")
        ):
            # A card's own choice inside a look ahead (the player to rob, the tiles to
            # swap, the knight to displace): each answer looked at too, while the budget
            # lasts, so the card is valued by its best use rather than its first. Its
            # choices are looked at in turn, each one answer ahead (a later choice, in
            # the look at an earlier one's answers, by the quick rules), as the bot looks
            # at everything. The same choice comes back at each decision of the turn,
            # and when the card is played: its answer is kept for the turn.
            key = (kind, options)
            turn = game.state.turn
            if self._chosen_turn != turn:
                self._chosen_turn = turn
                self._chosen.clear()
            found = self._chosen.get(key)
            if found is None:
                self._budget -= len(options)
                found = self._chosen[key] = self.best_ahead(game, me, options, 0)
            return found
        return self.quick(game, me, decision)

    # --- looking ahead ------------------------------------------------------------------

    def best_ahead(self, game: Game, me: int, options: tuple[Option, ...], depth: int) -> Option:
        listed(game)
        best, best_value = options[0], float("-inf")
        for option in options:
            value = self.after(game, me, option, depth)
            if value > best_value:
                best, best_value = option, value
        return best

    def shortlist(self, game: Game, options: tuple[Option, ...], size: int) -> tuple[Option, ...]:
        """The ``size`` options placing a building on the intersections that would produce
        most, in their order among ``options``."""
        ev = self.evaluator(game)
        worth = [ev.spot_value(game, option[1]) for option in options]
        ranked = sorted(range(len(options)), key=lambda k: -worth[k])
        return tuple(options[k] for k in sorted(ranked[:size]))

    def after(self, game: Game, me: int, option: Option, depth: int) -> float:
        """The value for ``me`` of answering ``option`` on a clone, once what follows on
        its own has happened."""
        copy = self.ahead(game, me, option, depth)
        if copy is None:
            return float("-inf")
        return self.evaluator(copy).value(copy, me)

    def ahead(self, game: Game, me: int, option: Option, depth: int) -> Game | None:
        """A clone of ``game`` where ``option`` was answered and what follows on its own
        has happened (None: not legal in this sample)."""
        copy = game.clone(log=False)
        try:
            copy.answer(option)
        except IllegalAnswer:  # legal in the real game, not in this sample (a hidden card)
            return None
        self.settle(copy, me, depth - 1)
        return copy

    def settle(self, game: Game, me: int, depth: int) -> None:
        """Play on until it is a turn's decision again (mine or another's) or a setup
        step: my choices the way ``decide`` makes them at ``depth``, the others' by the
        quick rules from their side."""
        state = game.state
        for _ in range(_SETTLE_STEPS):
            known = game.peek()
            if known is None:  # a turn's (or setup's) decision: only my roll goes on
                if state.current != me or state.rolled or state.turn == 0:
                    return
                option: Option = ("roll",)
                game.answer(option)
                continue
            decision = known
            kind = decision.kind
            if kind == "over" or kind == "main" or kind.startswith("setup_"):
                return
            if kind == "roll":
                if decision.player != me:
                    return
                option = ("roll",)
            elif decision.player == me:
                option = self.decide(game, me, decision, depth)
            else:
                option = self.quick(game, decision.player, decision)
            try:
                game.answer(option)
            except IllegalAnswer:  # pragma: no cover - quick rules answer listed options
                return

    # --- the main phase -----------------------------------------------------------------

    def main(self, game: Game, me: int, options: tuple[Option, ...]) -> Option:
        state = game.state
        mine = state.players[me]
        # After an offer nobody took, the position is the one where the turn was to end
        # (the same hand, the same hands' sizes, the same options): it ends now, without
        # valuing every answer again on another sample.
        seen = (state.turn, me, tuple(mine.hand), tuple([sum(p.hand) for p in state.players]),
                len(mine.progress), options)  # fmt: skip
        if seen == self._offered and options[-1] == ("end",):
            self._offered = None
            return options[-1]
        self._offered = None
        listed(game)
        ev = self.evaluator(game)
        now = ev.value(game, me)
        looked = 0
        scored: list[tuple[Option, float]] = []
        kept: list[Option] = []  # cards valued by a gain kept from earlier in the turn
        for option in options:
            verb = option[0]
            if verb in ("end", "pass", "bank"):
                continue
            if looked >= self.weights.max_options:
                break
            looked += 1
            if verb == "play" and self.weights.card_choices:
                value, fresh = self.played(game, me, option, now, False)
                if not fresh:
                    kept.append(option)
            else:
                value = self.after(game, me, option, 1)
            if verb in _KNIGHT_ACTS and self.weights.card_choices:
                value = max(value, self.acted_and_activated(game, me, option))
            scored.append((option, value))
        while True:
            best: Option = options[-1]  # ending the turn (or the phase)
            best_value = now + self.weights.margin
            for option, value in scored:
                if value > best_value:
                    best, best_value = option, value
            if best not in kept:
                break
            # A card about to be played on a gain kept from earlier: valued again now.
            kept.remove(best)
            value = self.played(game, me, best, now, True)[0]
            scored = [(o, value if o == best else v) for o, v in scored]
        trades = [o for o in options if o[0] == "bank"]
        if trades:
            targets = ev.targets(game, me)
            limit = ev.hand_limit(game, me)
            held = ev.hand_value(mine.hand, mine.rates, targets, limit)
            index = game.rules.good_index
            for option in trades:
                g, h = index[option[1]], index[option[2]]
                hand = mine.hand[:]
                hand[g] -= mine.rates[g]
                hand[h] += 1
                value = now - held + ev.hand_value(hand, mine.rates, targets, limit)
                if value > best_value:
                    best, best_value = option, value
        if best == ("end",):
            offer = self.offer(game, me)
            if offer is not None:
                self._offered = seen
                return offer
        return best

    def played(
        self, game: Game, me: int, option: Option, now: float, fresh: bool
    ) -> tuple[float, bool]:
        """The value of playing a held card (``option``) now, and whether it was valued
        afresh: a card's choices are looked at ahead (``lookahead.card_choices``), the
        costliest look of the main phase, so the card is played on a clone once a turn,
        and again when ``fresh``: before the card is played (a value kept is never what
        plays a card). In between, what it did to the player's hand is valued again on
        the hand held now (the goods it gives are worth more or less as the hand is
        spent), the rest of its gain kept."""
        state = game.state
        mine = state.players[me]
        if self._gains_turn != state.turn:
            self._gains_turn = state.turn
            self._gains.clear()
        found = self._gains.get(option)
        if found is not None and not fresh:
            rest, change = found
            return now + rest + self.hand_gain(game, me, change), False
        self._budget = self.weights.card_choices
        copy = self.ahead(game, me, option, 1)
        self._budget = 0
        if copy is None:
            self._gains[option] = (float("-inf"), [])
            return float("-inf"), True
        value = self.evaluator(copy).value(copy, me)
        held = copy.state.players[me].hand
        change = [held[g] - n for g, n in enumerate(mine.hand)]
        self._gains[option] = (value - now - self.hand_gain(game, me, change), change)
        return value, True

    def hand_gain(self, game: Game, me: int, change: list[int]) -> float:
        """What adding ``change`` to the player's hand (none below 0) is worth, on the
        hand alone."""
        if not any(change):
            return 0.0
        ev = self.evaluator(game)
        mine = game.state.players[me]
        targets = ev.targets(game, me)
        limit = ev.hand_limit(game, me)
        hand = [max(0, n + change[g]) for g, n in enumerate(mine.hand)]
        return ev.hand_value(hand, mine.rates, targets, limit) - ev.hand_value(
            mine.hand, mine.rates, targets, limit
        )

    def acted_and_activated(self, game: Game, me: int, option: Option) -> float:
        """The value after a knight's action (a move, a displacement, a chase), counting
        the knight active again (it is inactive after acting, docs/rules.md "Knights"):
        activated now, if the rule set allows it this turn and the hand pays, or on a
        later turn (``reactivated_later``). A move looked at alone would count a knight
        lost for the defence: the defence counts at an attack, and a knight can be made
        active again before it. After a move and its activation now, also what the
        knight, active again, may do from where it stands (chase the robber, displace a
        knight): a move is what brings a knight within reach."""
        before = set([o for o in game.pending.options if o[0] == "activate"])
        copy = game.clone(log=False)
        copy.answer(option)
        self.settle(copy, me, 0)
        pending = copy.pending
        if pending.kind != "main" or pending.player != me:
            return float("-inf")
        # Where the knight stands after acting: moved or displacing (to option[2]), or
        # chasing from where it stood (option[1]).
        value = float("-inf")
        if self.weights.reactivate_later:
            value = self.reactivated_later(copy, me, option[2] if len(option) > 2 else option[1])
        again = [o for o in pending.options if o[0] == "activate" and o not in before]
        if not again:
            return value
        copy.answer(again[0])
        self.settle(copy, me, 0)
        value = max(value, self.evaluator(copy).value(copy, me))
        if option[0] == _KNIGHT_ACTS[0]:  # a move: what the knight reaches from there
            pending = copy.pending
            if pending.kind == "main" and pending.player == me:
                knight = again[0][1]
                for follow in pending.options:
                    if follow[0] in _KNIGHT_ACTS[1:] and follow[1] == knight:
                        value = max(value, self.after(copy, me, follow, 0))
        return value

    def reactivated_later(self, game: Game, me: int, knight: int) -> float:
        """The value of ``game`` where the player's ``knight`` is inactive, knowing it may
        be activated on the player's next turn, before the barbarians come: with the
        chance that they do not attack in the rolls until then (the others' turns and
        the player's own next roll, ``Evaluator.attack_chance``), the knight counts as
        active, less what the activation's price would be worth in the hand."""
        ev = self.evaluator(game)
        inactive = ev.value(game, me)
        state = game.state
        safe = 1.0 - ev.attack_chance(game, game.n)
        if safe <= 0.0 or state.knight[knight] != me or state.knight_active[knight]:
            return inactive
        price = [0] * len(state.players[me].hand)
        for g, n in game.rules.activate_cost:
            price[g] += n
        state.knight_active[knight] = True  # (on the sample only, put back below)
        active = ev.value(game, me) - self.hand_gain(game, me, price)
        state.knight_active[knight] = False
        return safe * active + (1.0 - safe) * inactive

    def offer(self, game: Game, me: int) -> Option | None:
        """One card for one, to complete the most valuable purchase that lacks one or two
        cards, giving the good held most beyond what that purchase needs: the first offer
        of the turn only, and only if the hand is then worth more."""
        state, rules = game.state, game.rules
        if state.offers_made or trade.offer_refused(game, me) is not None:
            return None  # (the first offer of the turn only, and one the rules allow)
        ev = self.evaluator(game)
        mine = state.players[me]
        hand = mine.hand
        targets = ev.targets(game, me)
        for cost, _ in sorted(targets, key=lambda t: -t[1]):
            need = dict(cost)
            short = {g: n - hand[g] for g, n in cost if hand[g] < n}
            if not short or sum(short.values()) > 2:
                continue
            extra = [(n - need.get(g, 0), -g) for g, n in enumerate(hand) if n > need.get(g, 0)]
            if not extra:
                return None
            give = -max(extra)[1]
            get = max(short, key=lambda g: (short[g], -g))
            limit = ev.hand_limit(game, me)
            after = hand[:]
            after[give] -= 1
            after[get] += 1
            gain = ev.hand_value(after, mine.rates, targets, limit) - ev.hand_value(
                hand, mine.rates, targets, limit
            )
            if gain <= self.weights.margin:
                return None
            return ("offer", {rules.goods[give]: 1}, {rules.goods[get]: 1})
        return None

    def roll(self, game: Game, me: int, options: tuple[Option, ...]) -> Option:
        """Roll, unless a card played before the roll is worth more than a roll is."""
        plays = [o for o in options if o != ("roll",)]
        if not plays:
            return ("roll",)
        listed(game)
        rolled = 0.0
        for _ in range(3):  # a roll's value: the mean of three rolls of the sample
            copy = game.clone(log=False)
            copy.state.rng["dice"] = self.rng.getrandbits(64)
            rolled += self.after(copy, me, ("roll",), 1) / 3
        best: Option = ("roll",)  # typed: mypyc would narrow it to a 1-tuple of str
        best_value = rolled
        for option in plays:
            value = self.after(game, me, option, 2)
            if value > best_value:
                best, best_value = option, value
        return best

    # --- quick rules ------------------------------------------------------------------------

    def quick(self, game: Game, player: int, decision: Decision) -> Option:
        """An answer without looking ahead, from ``player``'s side."""
        kind, options = decision.kind, decision.options
        ev = self.evaluator(game)
        state = game.state
        if kind == "phase":  # another's special build, looking ahead: they pass
            return options[-1]
        if kind in ("discard", "gold"):
            me = state.players[player]
            targets = ev.targets(game, player)
            limit = ev.hand_limit(game, player)
            index = game.rules.good_index
            step = -1 if kind == "discard" else 1

            def kept(option: Option) -> float:
                hand = me.hand[:]
                hand[index[option[1]]] += step
                return ev.hand_value(hand, me.rates, targets, limit)

            return max(options, key=kept)
        if kind == "robber":
            return max(options, key=lambda o: ev.tile_harm(game, o[1], player))
        if kind == "steal":  # the leader; "steal nothing" (a variant's) only if no one
            victims = [o for o in options if o[0] == "steal"]
            if not victims:
                return options[0]
            return max(victims, key=lambda o: (state.players[o[1]].points, -o[1]))
        if kind == "pillage":
            return min(options, key=lambda o: city_value(ev, game, o[1]))
        if kind == "respond":
            return self.respond(game, player, options)
        if kind == "partner":
            partners = [o for o in options if o[0] == "partner"]
            if partners:
                return min(partners, key=lambda o: (state.players[o[1]].points, o[1]))
            return options[0]
        if kind == "optional":
            return ("do",)
        if kind == "choose_player":
            others = [o for o in options if o[0] == "choose" and o[2] != player]
            if others:
                return max(others, key=lambda o: state.players[o[2]].points)
        if kind == "choose_tile":
            tiles = [o for o in options if o[0] == "choose"]
            if tiles:
                return max(tiles, key=lambda o: ev.tile_harm(game, o[2], player))
        return options[0]

    def respond(self, game: Game, player: int, options: tuple[Option, ...]) -> Option:
        """Accept an offer that makes my hand worth more, unless the offerer is near the
        win."""
        if ("accept",) not in options:
            return ("decline",)
        state, rules = game.state, game.rules
        offer = expect(state.queue[0], RespondTask).offer
        if state.players[offer["from"]].points >= rules.number("points_to_win") - 2:
            return ("decline",)
        ev = self.evaluator(game)
        me = state.players[player]
        targets = ev.targets(game, player)
        limit = ev.hand_limit(game, player)
        hand = me.hand[:]
        for good, n in offer["give"].items():
            hand[rules.good_index[good]] += n
        for good, n in offer["get"].items():
            hand[rules.good_index[good]] -= n
        gain = ev.hand_value(hand, me.rates, targets, limit) - ev.hand_value(
            me.hand, me.rates, targets, limit
        )
        return ("accept",) if gain > self.weights.margin else ("decline",)


def listed(game: Game) -> None:
    """List the pending decision of a sample now, once, before its clones are made (each
    clone would list it again)."""
    game.pending  # noqa: B018 - listed and kept by the game


register(
    BotInfo(
        "heuristic",
        VERSION,
        "a value function over the rule set's features, one answer ahead through clones",
        (
            Param("weights", str, BUNDLED, f"a weights file ({BUNDLED}: {WEIGHTS_FILE})"),
            Param(
                "version",
                int,
                int(VERSION),
                "the bot's version: 2 or 3 plays as that version did (with the bundled"
                " weights, those of that version)",
                low=2,
            ),
        ),
        HeuristicBot,
    )
)
