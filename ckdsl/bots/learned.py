"""The learned bot: a value fitted on self-play games, one answer ahead.

Its value of a position is the log-odds that the player wins, from a logistic regression
over a few plain numbers of the position (``ckdsl.bots.descriptors``: points, the lead,
expected production, the hand, levels, knights, cards missing for a purchase...). The
model lives in ``rules/bots/learned.yaml``: the coefficients and, beside them, the record
of the games they were fitted on (bots, seeds, rule set, positions, the fit), written by
``tools/fit_learned.py``, then of the tuning of five of them by ``ckdsl tune``. It shares
nothing with the heuristic's value: other features, and weights that come from games'
outcomes, not from a person.

At each decision the bot fills its view's hidden parts with a sample
(``PlayerView.determinize``), plays each answer on a clone of it and keeps the answer whose
position has the highest log-odds; in the main phase it ends the turn when no action gains
more than ``margin``. A roll is never looked at (its value is the position's), only the
cards that may be played before it. Since version 3 it answers another player's offer
by the hand the trade would leave it, and before ending its turn offers one card for one
when that card completes a purchase.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ckdsl.bots.base import BotError, BotInfo, Param, register
from ckdsl.bots.descriptors import NAMES, Describer
from ckdsl.core import trade
from ckdsl.core.decisions import IllegalAnswer, Option
from ckdsl.core.tasks import RespondTask
from ckdsl.paths import rules_dir

if TYPE_CHECKING:
    from ckdsl.core.view import PlayerView
    from ckdsl.turn.game import Game

# 2: the bundled model's five main coefficients tuned by ``ckdsl tune`` (its record.tuned):
# 14 of 200 games won against three heuristic bots, 7.0% [4.2%, 11.4%], against 2.5%
# [1.1%, 5.7%] for version 1, the fit alone. 3: four numbers more (the metropolis race,
# the defence against the barbarians, the cities at risk, the nearness of the win) fitted
# on top of version 2's model, and trades with the other players (docs/bots.md).
VERSION = "3"
BUNDLED = "bundled"
MODEL_FILE = "rules/bots/learned.yaml"
# Each version's bundled model: version 2's is kept as it was shipped (it reads the first
# 19 descriptors), so ``learned:version=2`` plays on as it did.
MODELS = {2: "learned-v2.yaml", 3: "learned.yaml"}
# Main-phase actions the bot takes in one turn at most (a guard against a model that
# would value some exchange back and forth).
_ACTIONS_PER_TURN = 30
# Answers that change nothing by themselves: valued as the position before them.
_NEUTRAL = ("roll", "end")
# After a bank trade, the purchases looked at (not another trade, nor the end).
_NOT_AFTER_TRADE = ("bank", "end", "offer", "play")
# A card's choices answered after it is played, at most.
_SETTLE_STEPS = 8


@dataclass(frozen=True)
class Model:
    """A logistic model: log-odds = intercept + sum of coefficient x (x - mean) / scale,
    over the descriptors it names (``indices``: their places in :data:`NAMES`; an earlier
    version's model reads fewer of them)."""

    names: tuple[str, ...]
    intercept: float
    coefficients: tuple[float, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    indices: tuple[int, ...]

    def logit(self, x: list[float]) -> float:
        """The log-odds of the descriptors ``x`` (every one of :data:`NAMES`, in order)."""
        total = self.intercept
        for c, i, m, s in zip(self.coefficients, self.indices, self.means, self.scales,
                              strict=True):  # fmt: skip
            total += c * (x[i] - m) / s
        return total

    def probability(self, x: list[float]) -> float:
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, self.logit(x)))))


def load_model(path: str = BUNDLED, version: int = int(VERSION)) -> Model:
    """The model of ``path`` (``bundled``: the version's own, ``rules/bots/learned.yaml``
    for the last); raises BotError naming the file and what is wrong."""
    from ckdsl.userfiles import UnsafeFile, read_user_yaml

    file = rules_dir() / "bots" / MODELS[version] if path == BUNDLED else Path(path)
    try:  # a regular file only (a FIFO or a device would never end), UTF-8, plain YAML
        data = read_user_yaml(file)
    except UnsafeFile as exc:
        raise BotError(f"{file}: cannot read the model ({exc.message})") from None
    if not isinstance(data, dict):
        raise BotError(f"{file}: not a model of the learned bot (not a mapping)")
    try:
        features = data["features"]
        names = tuple(str(f["name"]) for f in features)
        unknown = [n for n in names if n not in NAMES]
        if unknown or len(set(names)) != len(names):
            raise BotError(
                f"{file}: the features are {list(names)}; this bot reads each of "
                f"{list(NAMES)} at most once ({', '.join(unknown) or 'one twice'})"
            )
        return Model(
            names,
            float(data["intercept"]),
            tuple(float(f["coefficient"]) for f in features),
            tuple(float(f["mean"]) for f in features),
            tuple(float(f["scale"]) or 1.0 for f in features),
            tuple(NAMES.index(n) for n in names),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise BotError(f"{file}: not a model of the learned bot ({exc!r})") from None


class LearnedBot:
    """One answer ahead on a sample of the view, by the fitted model's log-odds."""

    def __init__(
        self, seed: int, model: str = BUNDLED, margin: float = 0.01, version: int = int(VERSION)
    ) -> None:
        if version not in MODELS:
            known = ", ".join(str(v) for v in MODELS)
            raise BotError(f"learned:version: {version} is not a version (they are: {known})")
        self.rng = random.Random(seed)
        self.version = version
        self.model = load_model(model, version)
        self.margin = margin
        self._describers: dict[str, Describer] = {}
        self._turn = (-1, 0)  # (turn, main-phase actions taken in it)

    def value(self, game: Game, me: int) -> float:
        """The log-odds that ``me`` wins ``game``, by the model."""
        key = game.rules.ruleset_hash
        describer = self._describers.get(key)
        if describer is None:
            describer = self._describers[key] = Describer(game.rules)
        return self.model.logit(describer.describe(game, me))

    def choose(self, view: PlayerView) -> Option:
        decision = view.decision
        options = decision.options
        if len(options) == 1:
            return options[0]
        me = view.player
        main = decision.kind in ("main", "phase")
        if main:
            turn, taken = self._turn
            if turn == view.state.turn and taken >= _ACTIONS_PER_TURN:
                return ("end",) if ("end",) in options else options[0]
        game = view.determinize(self.rng)
        here = self.value(game, me)
        if decision.kind == "respond" and self.version >= 3:
            return self.respond(game, me, here)
        best, best_value = options[0], -math.inf
        for option in options:
            worth = here if option[0] in _NEUTRAL else self.after(game, me, option)
            if worth > best_value:
                best, best_value = option, worth
        if main:
            if ("end",) in options and best_value <= here + self.margin:
                offer = self.offer(game, me, here) if self.version >= 3 else None
                return ("end",) if offer is None else offer
            turn, taken = self._turn
            self._turn = (view.state.turn, taken + 1 if turn == view.state.turn else 1)
        return best

    def offer(self, game: Game, me: int, here: float) -> Option | None:
        """One card for one to the other players, before ending the turn: the card that
        a purchase of the rule set lacks alone, for the good held most beyond that
        purchase's cost, if the hand it would leave is worth more than ``margin`` by the
        model (the first offer of the turn only, and one the rules allow)."""
        state, rules = game.state, game.rules
        if state.offers_made or trade.offer_refused(game, me) is not None:
            return None
        hand = state.players[me].hand
        best: tuple[float, int, int] | None = None
        for name in sorted(rules.costs):
            cost = rules.costs[name]
            short = [(g, n - hand[g]) for g, n in cost if hand[g] < n]
            if len(short) != 1 or short[0][1] != 1:
                continue
            need = dict(cost)
            spare = [(hand[g] - need.get(g, 0), -g) for g in range(len(hand))]
            extra, first = max(spare)  # the most held beyond the cost; the first good on ties
            give, get = -first, short[0][0]
            if extra <= 0:
                continue
            copy = game.clone(log=False)
            swapped = copy.state.players[me].hand
            swapped[give] -= 1
            swapped[get] += 1
            worth = self.value(copy, me)
            if worth > here + self.margin and (best is None or worth > best[0]):
                best = (worth, give, get)
        if best is None:
            return None
        return ("offer", {rules.goods[best[1]]: 1}, {rules.goods[best[2]]: 1})

    def respond(self, game: Game, me: int, here: float) -> Option:
        """Accept another player's offer if the hand it leaves is worth more than
        ``margin`` by the model, and its maker is not within two points of winning.
        (Accepting changes nothing by itself: the trade is made when the maker picks a
        partner, so the hand after the trade is valued here.)"""
        task = game.state.queue[0]
        if not isinstance(task, RespondTask):  # pragma: no cover - a respond decision's task
            return ("decline",)
        offer = task.offer
        maker = game.state.players[offer["from"]]
        if maker.points >= game.rules.number("points_to_win") - 2:
            return ("decline",)
        copy = game.clone(log=False)
        hand = copy.state.players[me].hand
        index = game.rules.good_index
        for good, amount in offer["give"].items():
            hand[index[good]] += amount
        for good, amount in offer["get"].items():
            hand[index[good]] -= amount
        return ("accept",) if self.value(copy, me) > here + self.margin else ("decline",)

    def after(self, game: Game, me: int, option: Option) -> float:
        """The log-odds for ``me`` after answering ``option`` on a clone of ``game`` and
        making the choices that follow within it (a card's target, a good...), each the
        best one answer ahead. A bank trade is worth the better of the hand it leaves and
        the best purchase it then pays for (a trade is a step towards a purchase)."""
        copy = answered(game, option)
        if copy is None:
            return -math.inf
        self.settle(copy, me)
        worth = self.value(copy, me)
        if option[0] == "bank" and copy.peek() is None and copy.state.current == me:
            for then in copy.pending.options:
                if then[0] not in _NOT_AFTER_TRADE:
                    worth = max(worth, self.one_ahead(copy, me, then))
        return worth

    def one_ahead(self, game: Game, me: int, option: Option) -> float:
        """The log-odds for ``me`` right after ``option``, nothing more played."""
        copy = answered(game, option)
        return -math.inf if copy is None else self.value(copy, me)

    def settle(self, game: Game, me: int) -> None:
        """Answer ``me``'s choices that follow an answer (until a turn's decision or
        another player's), each the best one answer ahead."""
        for _ in range(_SETTLE_STEPS):
            decision = game.peek()
            if decision is None or decision.kind == "over" or decision.player != me:
                return
            if decision.kind in ("main", "phase", "roll"):
                return
            best = max(decision.options, key=lambda o: self.one_ahead(game, me, o))
            game.answer(best)


def answered(game: Game, option: Option) -> Game | None:
    """A clone of ``game`` with ``option`` answered; None if this sample refuses it (legal
    in the real game, not here: a card the sample dealt elsewhere)."""
    copy = game.clone(log=False)
    try:
        copy.answer(option)
    except IllegalAnswer:
        return None
    return copy


register(
    BotInfo(
        "learned",
        VERSION,
        "a logistic value fitted on self-play games (not the heuristic's), one answer ahead",
        (
            Param("model", str, BUNDLED, f"a model file ({BUNDLED}: {MODEL_FILE})"),
            Param("margin", float, 0.01, "log-odds an action must gain over ending the turn", 0),
            Param(
                "version", int, int(VERSION), "the bot's version: 2 plays as version 2 did", low=2
            ),
        ),
        LearnedBot,
    )
)
