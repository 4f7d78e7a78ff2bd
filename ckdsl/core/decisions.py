"""Decisions and answers: the one path by which anything a player does enters a game.

An option is a small tuple of plain values (``("road", 17)``, ``("bank", "brick", "ore")``),
so that options compare, hash and serialise cheaply; ``ckdsl.turn.notation`` gives each a
readable form ("build road 12-13") for people, scenarios and save files.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, TypeAlias, get_args

if TYPE_CHECKING:
    from ckdsl.core.tasks import Task
    from ckdsl.turn.game import Game

Option = tuple[Any, ...]

ChoiceKind: TypeAlias = Literal[
    "choose_tile", "choose_intersection", "choose_edge", "choose_player", "choose_knight",
    "choose_road", "choose_city", "choose_settlement", "choose_building", "choose_card",
    "choose_resource", "choose_commodity", "choose_good", "choose_number", "choose_track",
    "choose_terrain",
]  # fmt: skip
"""A choice in an effect of the rule set (`choose KIND`, docs/dsl.md)."""

TaskKind: TypeAlias = Literal[
    "discard", "gold", "discard_progress", "robber", "steal", "reward", "pillage",
    "metropolis", "relocate", "respond", "partner", "phase",
]  # fmt: skip
"""A decision asked by a task waiting in the queue (``ckdsl.core.tasks``)."""

DecisionKind: TypeAlias = Literal[
    "setup_settlement", "setup_city", "setup_road", "roll", "main", "optional", "over",
    TaskKind, ChoiceKind,
]  # fmt: skip
"""What a decision is about; the game has a handler for each but ``over``."""

CHOICE_DECISIONS: dict[str, ChoiceKind] = {
    kind[len("choose_") :]: kind for kind in get_args(ChoiceKind)
}
"""The decision kind of `choose KIND`, by the DSL's kind."""

# Kinds of answer that are not listed one by one because there are too many to list
# (any bundle of goods for any other): they are checked when given instead.
OPEN_KINDS = {"main": ("offer",)}


class Decision(NamedTuple):
    """Who must decide what now, and every answer they may give."""

    player: int
    kind: DecisionKind
    options: tuple[Option, ...]

    def accepts_open(self, verb: str) -> bool:
        """Whether an unlisted answer starting with ``verb`` may be given (and then checked)."""
        return verb in OPEN_KINDS.get(self.kind, ())


_NEW_TUPLE: Final = tuple.__new__


def new_decision(player: int, kind: DecisionKind, options: tuple[Option, ...]) -> Decision:
    """``Decision(player, kind, options)``, made by ``tuple.__new__`` directly: a
    NamedTuple's own ``__new__`` is Python code, which the compiled build would otherwise
    run for every decision."""
    return _NEW_TUPLE(Decision, (player, kind, options))


class Refusal(NamedTuple):
    """Why an answer is refused, in no language yet: a message key of the locales
    (``messages.refused_*`` in rules/locales/en.yaml) and the values of its placeholders,
    as ids and numbers (a player by colour id, goods as {good: amount}, a piece, card or
    track by id). ``ckdsl.l10n.refusals`` writes it in a language; the engine's
    ``ckdsl.turn.refusals`` finds it."""

    key: str
    fields: Mapping[str, Any] = {}


class IllegalAnswer(Exception):
    """An answer the pending decision does not allow; the game is left unchanged.

    Carries why as a ``Refusal`` (``refusal``: key and fields, for a table to show in its
    language) when the engine knows it; ``reason`` is the English text either way, so a
    scenario's `message:`, a replay's error and a log read the same as before."""

    def __init__(self, reason: str | Refusal) -> None:
        if isinstance(reason, Refusal):
            self.refusal: Refusal | None = reason
            self._reason: str | None = None
        else:
            self.refusal, self._reason = None, reason
        super().__init__(reason)

    @property
    def reason(self) -> str:
        """The reason in English (written when first asked: a bot that catches a refusal
        in its search never pays for the words)."""
        if self._reason is None:
            assert self.refusal is not None
            from ckdsl.l10n.refusals import english  # the locale: only once it is shown

            self._reason = english(self.refusal)
        return self._reason

    def __str__(self) -> str:
        return self.reason


# --- the answers each part of the engine owns ------------------------------------------------
#
# Every kind of answer is registered once, by the module that handles it, with how it
# reads (``ckdsl.turn.notation`` prints and parses answers from these forms); every
# kind of decision once, with its handler and, for a task's decision, the task's options.
# ``ckdsl.turn.game`` gathers them and refuses a second registration of a name.

Handler = Callable[["Game", int, Option], None]
"""Applies an answer of ``player`` (already checked against the decision's options)."""
TaskOptions = Callable[["Game", "Task"], tuple[Option, ...]]
"""The options of the decision a task asks (none: the task lapses)."""
AutoTask = Callable[["Game", "Task"], None]
"""Runs a task that asks nobody."""
MainOptions = Callable[["Game", int, list[Option]], None]
"""Adds a part's options to the main phase's."""


@dataclass(frozen=True, slots=True)
class Verb:
    """A kind of answer: the first element of its options, how it reads, and for a move
    of the main phase what it does.

    ``form`` is the readable answer: ``{k}`` stands for the option's element ``k``,
    ``{k:edge}`` for an edge by its two intersections ("12-13"), ``{k:player}`` for a
    player by colour, ``{k:goods}`` for a bundle ("2 wool + 1 ore"), ``{k:value}`` for a
    chosen value of the kind named by element ``k - 1``."""

    name: str
    form: str
    main: Handler | None = None


@dataclass(frozen=True, slots=True)
class Asked:
    """A kind of decision: who applies its answers, and for a decision a waiting task
    asks, the task's options."""

    kind: DecisionKind
    handler: Handler
    options: TaskOptions | None = None
