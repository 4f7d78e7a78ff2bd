"""The mcts bot: information-set Monte Carlo tree search over the player's own turn.

The bot knows only its view, so each iteration plays on a *determinization*: a complete
game consistent with the view, its hidden parts (the opponents' hands and progress cards,
the decks' order, the dice to come) sampled afresh (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012: single-observer ISMCTS). The
tree holds the bot's own decisions from the current one to the end of its turn (the main
phase's actions, a card's choices, a card played before the roll); a child is counted as
available only in the determinizations where it is legal, and chosen by UCB1 among those.

An iteration descends the tree, adds one child, ends the turn there, then lets one round
go by: the other players roll and end their turns (their discards, robber and steals by the
heuristic's quick rules), so the dice, the 7s and a barbarian attack of that round weigh
on the result. The position is then valued by the heuristic's value function
(``features.Evaluator``) and squashed to [0, 1] around the value of the position before
the search. Decisions outside the turn's course (discards, answers to offers, setup) are
left to the heuristic bot.

The root's children are the heuristic's best ``width`` answers (by its one-answer-ahead
values, plus its trade offer, plus ending the turn); deeper nodes take answers in a fixed
order of verbs (build first, trade last), trades ranked by the hand they leave.

``iterations`` bounds the search per decision, ``time`` (seconds per decision) too: the
search stops before an iteration that would overrun the budget, so a decision never takes
more than the budget plus a small fraction. With ``time`` the answers depend on the
machine's speed; with ``iterations`` alone they are exactly reproducible.
"""

from __future__ import annotations

import math
import random
import time as clock
from typing import TYPE_CHECKING

from ckdsl.bots.base import BotInfo, Param, register
from ckdsl.bots.heuristic import HeuristicBot
from ckdsl.bots.weights import BUNDLED
from ckdsl.core.decisions import Decision, IllegalAnswer, Option
from ckdsl.rng import derive

if TYPE_CHECKING:
    from ckdsl.core.view import PlayerView
    from ckdsl.turn.game import Game

VERSION = "1"

# Decisions of the bot's turn that the tree searches.
_SEARCHED = ("main", "roll", "choose_", "optional")
# Deeper nodes try answers in this order of verbs (unlisted verbs come before `end`).
_VERB_ORDER = ("city", "settlement", "improve", "knight", "promote", "activate", "play",
               "city_wall", "displace", "chase", "road", "move_knight", "choose", "do", "skip",
               "bank", "roll", "end")  # fmt: skip
_RANK = {verb: k for k, verb in enumerate(_VERB_ORDER)}
_STEPS = 400  # a bound on the answers of one iteration (a turn always ends sooner)
_DETERMINIZATIONS = 8


class Node:
    """One of the bot's decisions in the tree: its children by answer, visits, total
    reward, and how many times it was available."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Option, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class MctsBot:
    """ISMCTS with the heuristic's value at the leaves."""

    def __init__(
        self,
        seed: int,
        iterations: int = 200,
        time: float = 0.0,
        exploration: float = 0.7,
        width: int = 8,
        scale: float = 100.0,
        weights: str = BUNDLED,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.budget = time
        self.exploration = exploration
        self.width = width
        self.scale = scale
        self.heuristic = HeuristicBot(self.rng.getrandbits(64), weights)
        self.last_iterations = 0  # of the last search (for tests and curious users)

    def choose(self, view: PlayerView) -> Option:
        began = clock.perf_counter()
        decision = view.decision
        options = decision.options
        if len(options) == 1 and decision.kind != "main":
            return options[0]
        if not decision.kind.startswith(_SEARCHED):
            return self.heuristic.choose(view)
        return self.search(view, began)

    # --- the search ---------------------------------------------------------------------

    def search(self, view: PlayerView, began: float) -> Option:
        me = view.player
        heuristic = self.heuristic
        deadline = began + self.budget if self.budget > 0 else math.inf
        samples = [view.determinize(self.rng)]
        first = samples[0]
        root_options = self.root_options(first, me, view.decision, deadline)
        if len(root_options) == 1:
            self.last_iterations = 0
            return root_options[0]
        reference = heuristic.evaluator(first).value(first, me)
        root = Node()
        slowest = 0.0
        done = 0
        while done < self.iterations:
            now = clock.perf_counter()
            if now + 1.5 * slowest > deadline:
                break
            if len(samples) < _DETERMINIZATIONS:
                samples.append(view.determinize(self.rng))
            game = samples[done % len(samples)].clone(log=False)
            game.state.rng["dice"] = self.rng.getrandbits(64)
            self.iterate(game, me, root, root_options, reference)
            done += 1
            slowest = max(slowest, clock.perf_counter() - now)
        self.last_iterations = done
        if not root.children:
            return root_options[0]
        return max(root_options, key=lambda o: _visits(root, o))

    def root_options(
        self, game: Game, me: int, decision: Decision, deadline: float
    ) -> list[Option]:
        """The answers the root may take: the heuristic's best ``width`` (its own choice
        first), its trade offer if it would make one, and ending the turn."""
        heuristic = self.heuristic
        options = list(decision.options)
        if decision.kind != "main":
            return options
        scored: list[tuple[float, int, Option]] = []
        for k, option in enumerate(options):
            if option[0] == "end":
                continue
            if clock.perf_counter() > deadline:
                break
            scored.append((heuristic.after(game, me, option, 1), -k, option))
        scored.sort(reverse=True)
        chosen = [option for _, _, option in scored[: self.width]]
        offer = heuristic.offer(game, me)
        if offer is not None:
            chosen.append(offer)
        chosen.append(("end",))
        return chosen

    def iterate(
        self, game: Game, me: int, root: Node, root_options: list[Option], reference: float
    ) -> None:
        node, path = root, [root]
        legal: list[Option] | None = root_options
        for _ in range(_STEPS):
            decision = self.next_mine(game, me)
            if decision is None:
                break
            if legal is None:
                legal = self.ordered(game, me, decision)
            else:  # the root: its answers that are legal in this determinization
                listed = set(decision.options)
                legal = [o for o in legal if o[0] == "offer" or o in listed]
            if not legal:
                break
            children = node.children
            for option in legal:
                child = children.get(_key(option))
                if child is not None:
                    child.avail += 1
            fresh = next((o for o in legal if _key(o) not in children), None)
            if fresh is not None:
                child = children[_key(fresh)] = Node()
                child.avail = 1
                path.append(child)
                if self.play(game, fresh):
                    self.end_turn(game, me)
                break
            option = max(legal, key=lambda o: self.ucb(children[_key(o)]))
            node = children[_key(option)]
            path.append(node)
            if not self.play(game, option):
                break
            legal = None
        self.round(game, me)
        value = self.heuristic.evaluator(game).value(game, me)
        reward = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, (value - reference) / self.scale))))
        for visited in path:
            visited.visits += 1
            visited.total += reward

    def ucb(self, node: Node) -> float:
        if not node.visits:
            return math.inf
        mean = node.total / node.visits
        return mean + self.exploration * math.sqrt(math.log(max(1, node.avail)) / node.visits)

    @staticmethod
    def play(game: Game, option: Option) -> bool:
        try:
            game.answer(option)
        except IllegalAnswer:  # legal at the root's sample, not in this one
            return False
        return True

    def ordered(self, game: Game, me: int, decision: Decision) -> list[Option]:
        """A deeper node's answers, at most ``width`` of them and ending the turn: by verb,
        trades by the hand they leave."""
        options = decision.options
        if decision.kind != "main":
            return list(options)
        heuristic = self.heuristic
        ev = heuristic.evaluator(game)
        mine = game.state.players[me]
        targets = ev.targets(game, me)
        limit = ev.hand_limit(game, me)
        index = game.rules.good_index

        def key(option: Option) -> tuple[int, float]:
            if option[0] != "bank":
                return (_RANK.get(option[0], len(_RANK) - 1), 0.0)
            hand = mine.hand[:]
            hand[index[option[1]]] -= mine.rates[index[option[1]]]
            hand[index[option[2]]] += 1
            return (_RANK["bank"], -ev.hand_value(hand, mine.rates, targets, limit))

        ranked = sorted((o for o in options if o[0] != "end"), key=key)[: self.width - 1]
        return [*ranked, ("end",)]

    # --- playing the rest out ----------------------------------------------------------

    def next_mine(self, game: Game, me: int) -> Decision | None:
        """Answer what is not the bot's to search (others' answers within its turn, its
        discards...) until a decision of its turn that the tree searches; None once its
        turn is over or the game ended."""
        state = game.state
        heuristic = self.heuristic
        for _ in range(_STEPS):
            decision = game.pending
            if decision.kind == "over" or state.current != me:
                return None
            if decision.player == me and decision.kind.startswith(_SEARCHED):
                return decision
            game.answer(heuristic.quick(game, decision.player, decision))
        return None

    def end_turn(self, game: Game, me: int) -> None:
        """Finish the bot's turn at once: end it, and answer what that asks."""
        state = game.state
        for _ in range(_STEPS):
            decision = game.pending
            if decision.kind == "over" or state.current != me:
                return
            if decision.player == me and decision.kind == "main":
                game.answer(("end",))
            elif decision.player == me and decision.kind == "roll":
                game.answer(("roll",))
            else:
                game.answer(self.heuristic.quick(game, decision.player, decision))

    def round(self, game: Game, me: int) -> None:
        """The others' turns until the bot's next roll: they roll and end; everything else
        is answered by the heuristic's quick rules."""
        state = game.state
        quick = self.heuristic.quick
        for _ in range(_STEPS):
            decision = game.pending
            kind = decision.kind
            if kind == "over":
                return
            if state.current == me and not state.rolled and kind == "roll":
                return
            if kind == "roll":
                game.answer(("roll",))
            elif kind == "main":
                game.answer(("end",))
            else:
                game.answer(quick(game, decision.player, decision))


def _key(option: Option) -> Option:
    """An answer as a key of the tree: a trade offer's goods (dicts) as sorted pairs."""
    if option[0] != "offer":
        return option
    return tuple(tuple(sorted(part.items())) if isinstance(part, dict) else part for part in option)


def _visits(root: Node, option: Option) -> tuple[int, float]:
    child = root.children.get(_key(option))
    if child is None:
        return (-1, 0.0)
    return (child.visits, child.total)


def _make(stream: int, /, **params: object) -> MctsBot:
    """The bot for the seat's ``seed``; the ``seed`` parameter varies it (same game, other
    searches)."""
    salt = params.pop("seed", 0)
    if salt:
        stream = derive(stream, "mcts", str(salt))
    return MctsBot(stream, **params)  # type: ignore[arg-type]


register(
    BotInfo(
        "mcts",
        VERSION,
        "information-set MCTS over its own turn, the heuristic's value at the leaves",
        (
            Param("iterations", int, 200, "search iterations per decision (at most)", low=1),
            Param("time", float, 0.0, "seconds per decision (0: no limit but iterations)", 0),
            Param("exploration", float, 0.7, "UCB1's exploration constant", low=0),
            Param("seed", int, 0, "varies the bot's own random stream for the same game", 0),
            Param("width", int, 8, "answers the root considers (the heuristic's best)", low=2),
            Param("scale", float, 100.0, "value difference that counts as one logit", 1),
            Param("weights", str, BUNDLED, "the heuristic's weights file"),
        ),
        _make,
    )
)
