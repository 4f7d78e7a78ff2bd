"""The barbarians' primitives and the decisions of an attack (docs/rules.md, "The
barbarians").

When the ship attacks, its strength, the defence, who wins what and who loses what are
the rule set's: the `attack` hook and the hooks it runs (rules/base/turn.yaml). What
stays here are the verbs they use: the Defender of Catan card, the choice of a progress
deck by a tied defender (`reward`), and the choice of the city a weakest defender loses
(`pillage`), after which the `city_lost` hook says what becomes of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core import progress
from ckdsl.core.decisions import Asked, Option, Verb
from ckdsl.core.pieces import pillageable
from ckdsl.core.tasks import PillageTask, Task, expect

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def _pillage_options(game: Game, task: Task) -> tuple[Option, ...]:
    return tuple(("lose_city", i) for i in pillageable(game, expect(task, PillageTask).player))


def _on_pillage(game: Game, player: int, option: Option) -> None:
    game.state.queue.pop(0)
    game.run_hook("city_lost", player, {"c": option[1]})


def _reward_options(game: Game, task: Task) -> tuple[Option, ...]:
    decks = game.state.decks
    return tuple(("reward", deck.id) for k, deck in enumerate(game.rules.decks) if decks[k])


def _on_reward(game: Game, player: int, option: Option) -> None:
    game.state.queue.pop(0)
    deck = next(k for k, d in enumerate(game.rules.decks) if d.id == option[1])
    progress.draw(game, player, deck)


DECISIONS = (
    Asked("pillage", _on_pillage, _pillage_options),
    Asked("reward", _on_reward, _reward_options),
)
VERBS = (Verb("lose_city", "lose city {1}"), Verb("reward", "draw {1}"))
