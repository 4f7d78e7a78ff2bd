"""The work a game owes before its turn goes on, as typed plain data: the queue's tasks,
the frames of running effects, trade offers and the turn's modifiers.

Each task kind is a ``NamedTuple`` whose first field is its kind, so a task is still a
plain tuple (cheap to copy, compare and digest: ``GameState.copy``, ``GameState.digest``)
while mypy checks who builds and reads it. Tasks waiting for a player's answer become
decisions of the same kind (``Game.task_decision``); the others run on their own
(``AUTO_TASKS`` of the modules that own them).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, TypeAlias, TypedDict, TypeVar

from ckdsl.core.values import Value, Variables

FrameSource = Literal["card", "ability", "hook", "action"]


class Frame(TypedDict):
    """Where a running effect of the rule set stands (``ckdsl.dsl.runtime`` runs it): which
    program (its source and id), who runs it, the next instruction, its variables, the
    loops it is inside, the items picked so far by an `up to` choice, where a skipped
    choice resumes (-1: none), and who answers its open question."""

    src: FrameSource
    id: str
    me: int
    pc: int
    vars: Variables
    loops: list[list[Any]]  # [items, index] of a `for`, [count, index] of a `repeat`
    picked: list[Value]
    skip: int
    asker: int


class Offer(TypedDict):
    """A trade offer to the other players (docs/rules.md, "Trading"), shared by the tasks
    that collect the answers and the one in which its maker picks a partner."""

    # "from" is a keyword: the functional form names it.
    give: dict[str, int]
    get: dict[str, int]
    accepted: list[int]


OfferFrom = TypedDict("OfferFrom", {"from": int})


class TradeOffer(Offer, OfferFrom):
    """An offer and the player who made it."""


class _Modifier(TypedDict):
    player: int
    kind: Literal["cost", "discount", "rate"]
    value: int | dict[str, int]  # a rate or a discount, or a price


class Modifier(_Modifier, total=False):
    """A change to a player's prices or rates until the end of the turn (or for good),
    granted by a card (`grant`, docs/dsl.md)."""

    target: str  # the piece (or `improvement`) a price or discount is for
    goods: list[str]  # the goods a rate is for
    once: bool  # spent by the first purchase it lowers
    always: bool  # does not lapse at the end of the turn


# --- the tasks ----------------------------------------------------------------------------


class EffectTask(NamedTuple):
    """A card, ability, hook or action of the rule set running (``ckdsl.dsl.runtime``)."""

    kind: Literal["effect"]
    frame: Frame


class DiscardTask(NamedTuple):
    """``player`` discards ``amount`` resources or commodities, one answer each."""

    kind: Literal["discard"]
    player: int
    amount: int


class GoldTask(NamedTuple):
    """``player`` takes ``amount`` resources of their choice (a gold field), one by one."""

    kind: Literal["gold"]
    player: int
    amount: int


class DiscardProgressTask(NamedTuple):
    """``player`` discards ``amount`` progress cards down to the hand limit."""

    kind: Literal["discard_progress"]
    player: int
    amount: int


class RobberTask(NamedTuple):
    """``player`` moves the robber."""

    kind: Literal["robber"]
    player: int


class StealTask(NamedTuple):
    """``player`` steals from a player next to the robber."""

    kind: Literal["steal"]
    player: int


class RewardTask(NamedTuple):
    """``player`` draws a progress card of their choice of deck."""

    kind: Literal["reward"]
    player: int


class PillageTask(NamedTuple):
    """``player`` picks the city the barbarians take."""

    kind: Literal["pillage"]
    player: int


class MetropolisTask(NamedTuple):
    """``player`` picks the city that takes the metropolis of track ``track`` (its index)."""

    kind: Literal["metropolis"]
    player: int
    track: int


class RelocateTask(NamedTuple):
    """``player`` puts their displaced knight (its level and status) back on their network,
    anywhere but ``was``."""

    kind: Literal["relocate"]
    player: int
    level: int
    active: bool
    was: int


class RespondTask(NamedTuple):
    """``player`` accepts or declines a trade offer."""

    kind: Literal["respond"]
    player: int
    offer: TradeOffer


class PartnerTask(NamedTuple):
    """``player``, who made the offer, picks a partner among those who accepted."""

    kind: Literal["partner"]
    player: int
    offer: TradeOffer


class PhaseTask(NamedTuple):
    """``player`` plays the rule set's phase ``phase``."""

    kind: Literal["phase"]
    player: int
    phase: str


class HookTask(NamedTuple):
    """The rule set's hook ``hook`` runs for ``player`` (its turn in the queue comes)."""

    kind: Literal["hook"]
    player: int
    hook: str


class EndTurnTask(NamedTuple):
    """``player``'s turn ends (queued behind work the end of the turn waits for)."""

    kind: Literal["end_turn"]
    player: int


class CloseTurnTask(NamedTuple):
    """The turn of ``player`` closes: its modifiers lapse."""

    kind: Literal["close_turn"]
    player: int


class BeginTurnTask(NamedTuple):
    """``player``'s turn begins."""

    kind: Literal["begin_turn"]
    player: int


Task: TypeAlias = (
    EffectTask | DiscardTask | GoldTask | DiscardProgressTask | RobberTask | StealTask
    | RewardTask | PillageTask | MetropolisTask | RelocateTask | RespondTask | PartnerTask
    | PhaseTask | HookTask | EndTurnTask | CloseTurnTask | BeginTurnTask
)  # fmt: skip
"""A piece of work in the queue."""


TaskT = TypeVar("TaskT", bound=tuple[object, ...])


def expect(task: Task, kind: type[TaskT]) -> TaskT:
    """``task`` as the kind a handler owns (the tables route each kind to its handlers,
    so a task of another kind is a bug: it raises rather than be misread)."""
    if not isinstance(task, kind):
        raise TypeError(f"expected a {kind.__name__}, found {task!r}")
    return task
