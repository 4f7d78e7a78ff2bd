"""The registry of the effect DSL's words: every verb and function, with its typed
signature and one-line doc, and the decorators that add one.

The grammar knows only the shapes (``verb argument... clause...``, ``name(arguments)``);
what the names mean is this registry, so the compiler can report an unknown name, a wrong
number of arguments or a wrong type at validate time, and ``ckdsl vocabulary`` and
docs/dsl.md can list it. The words themselves are in ``ckdsl.dsl.vocabulary`` (cards, the
board, pieces, goods; ``vocabulary.turn``: the turn's hooks), which register themselves
here when imported (``compiler`` imports them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from ckdsl.core.values import Value
from ckdsl.dsl.base.types import Type

if TYPE_CHECKING:
    from ckdsl.core.allow import Env


Args: TypeAlias = "list[Value]"
"""A verb's arguments, in the order of its parameters. The DSL's checker has given each
the type of its parameter before the program runs (``ckdsl.dsl.compiler``), so a verb
reads ``args[k]`` as that type (``ckdsl.dsl.values``: narrowing that says so)."""

Clauses: TypeAlias = "dict[str, Value]"
"""A verb's clauses by their preposition (``from``, ``to``, ``by``...), typed likewise."""

VerbImpl: TypeAlias = "Callable[[Env, Args, Clauses, frozenset[str]], None]"
FunctionImpl: TypeAlias = "Callable[..., Value]"


@dataclass(frozen=True, slots=True)
class Function:
    """A function or selector: ``points(p)``, ``opponents``. Pure: it changes nothing."""

    name: str
    params: tuple[Type, ...]
    result: Type
    doc: str
    impl: FunctionImpl
    # What of the state it reads (``READS``), so a formula calling only such functions
    # can be cached on those parts; None: not declared (never cached).
    reads: frozenset[str] | None = None
    may_fail: bool = False  # it may stop the effect (EffectFailure)

    @property
    def form(self) -> str:
        """How it is written: ``points(a player)``, ``opponents``."""
        return (
            f"{self.name}({', '.join(str(p) for p in self.params)})" if self.params else self.name
        )


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: Type
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Verb:
    """A verb: ``give 1 g from p to me``. Positional parameters, then clauses by their
    preposition, then flag words (``free``, ``once``)."""

    name: str
    params: tuple[Param, ...]
    clauses: dict[str, Param]
    flags: frozenset[str]
    doc: str
    impl: VerbImpl
    example: str = ""
    decides: dict[str, str] = field(default_factory=dict)  # word -> choice kind if no `at`


FUNCTIONS: dict[str, list[Function]] = {}
VERBS: dict[str, Verb] = {}

AGGREGATES = {"count", "sum", "min", "max", "any", "all", "list"}
"""Functions that also take a selection: ``count(each t in tiles where ...)``."""


READS = frozenset({"points", "current", "board", "buildings", "knights"})
"""The parts of the state a function may declare it reads: the players' points (which
change only through ``Game.add_points``, which counts the changes), whose turn it is, the
board as stamped (where the pieces stand, the supplies they come from and the number
tokens: every change goes through ``Game.board_changed``, which draws a new
``board_stamp``), the buildings (``building``, ``owner``, ``wall`` and each player's
``buildings``) and the knights (``knight``, ``knight_level``, ``knight_active`` and each
player's ``knights``). What reads nothing of the state (the rule set, the topology)
declares ``reads=()``. A formula that calls only functions declaring what they read may be
kept by those parts, by a caller that keys on every one of them (a card's playability:
``ckdsl.turn.cards.why_not``; the heuristic bot's values: ``ckdsl.bots.features``)."""


def function(
    name: str,
    params: tuple[Type, ...],
    result: Type,
    doc: str,
    *,
    reads: tuple[str, ...] | None = None,
    may_fail: bool = False,
) -> Callable[[FunctionImpl], FunctionImpl]:
    assert reads is None or set(reads) <= READS, reads
    declared = frozenset(reads) if reads is not None else None

    def register(impl: FunctionImpl) -> FunctionImpl:
        found = Function(name, params, result, doc, impl, declared, may_fail)
        FUNCTIONS.setdefault(name, []).append(found)
        return impl

    return register


def verb(
    name: str,
    params: tuple[Param, ...],
    doc: str,
    *,
    clauses: dict[str, Param] | None = None,
    flags: tuple[str, ...] = (),
    example: str = "",
    decides: dict[str, str] | None = None,
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def register(impl: Callable[..., None]) -> Callable[..., None]:
        VERBS[name] = Verb(
            name, params, clauses or {}, frozenset(flags), doc, impl, example, decides or {}
        )
        return impl

    return register
