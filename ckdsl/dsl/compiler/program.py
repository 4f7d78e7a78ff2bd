"""What compiling makes: a :class:`Program` of instructions, and the :class:`Names` it resolves.

A program is a flat tuple of instructions (an opcode, then its operands) whose expressions
are Python closures, run by ``ckdsl.dsl.runtime``; :class:`ChooseSpec` describes a choice
it asks for. :class:`Names` holds what an effect may name: the rule set's ids, parameters
and the vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import ckdsl.dsl.vocabulary  # noqa: F401  (registers every word)
from ckdsl.core.allow import Env
from ckdsl.dsl.base.types import (
    CARD,
    COMMODITY,
    COUNTER,
    HOOK,
    PHASE,
    PIECE,
    RESOURCE,
    TERRAIN,
    TRACK,
    Type,
)
from ckdsl.jsondata import JsonValue
from ckdsl.rules.schemas import load_schema

Fn = Callable[[Env], Any]

Instruction: TypeAlias = "tuple[Any, ...]"
"""One instruction of a compiled program: its operation (``ACT``, ``BRANCH``...), then
its operands, whose kinds depend on the operation (see ``Compiler.emit``'s callers)."""

Namespace: TypeAlias = "dict[str, object]"
"""The names compiled Python text reads (``_o<id>`` for each object it calls)."""

# Instruction opcodes (the first item of each instruction tuple).
LET, CHOOSE, REQUIRE, ACT, JUMP, BRANCH, FOR, NEXT, REPEAT, AGAIN, OPTIONAL, STOP = range(12)

# Where a choice looks when it has no `from`: the selector of its kind.
DEFAULT_SOURCE = {
    "tile": "tiles",
    "intersection": "intersections",
    "edge": "edges",
    "player": "players",
    "knight": "knights",
    "road": "roads",
    "city": "cities",
    "resource": "resources",
    "commodity": "commodities",
    "good": "goods",
    "track": "tracks",
    "terrain": "terrains",
}


@dataclass(frozen=True, slots=True)
class ChooseSpec:
    """A choice: what kind of thing, from where, filtered how, asked of whom."""

    kind: str
    var: str  # where the answer goes
    binder: str  # the name each candidate has in `where`
    source: Fn
    where: Fn | None
    by: Fn | None
    up_to: Fn | None
    on_empty: int  # -1: the effect ends; else: jump to this instruction
    line: int
    col: int
    # The same as one function each (``selection_code``, ``candidate_code``: compiled to
    # Python, or closures under ``closures_only``): the candidates, and whether there is one.
    candidates: Fn
    any_candidate: Fn


@dataclass(frozen=True)
class Program:
    """A compiled effect: instructions, and the effect's line of each (for messages when
    one fails)."""

    code: tuple[Instruction, ...]
    lines: tuple[int, ...]
    # What of the state the instructions up to each one read (``Function.reads``; None:
    # something undeclared): ``opening_reads`` keys the cache of a card's playability.
    reads_at: tuple[frozenset[str] | None, ...] = ()

    @property
    def opening_reads(self) -> frozenset[str] | None:
        """What the opening reads of the state (``Function.reads``), or None if it reads
        something undeclared (its playability is then never kept)."""
        opening = self.opening
        if not opening:
            return frozenset()
        at = len(opening) - 1
        return self.reads_at[at] if at < len(self.reads_at) else None

    @property
    def opening(self) -> tuple[Instruction, ...]:
        """The instructions that decide whether the effect can start: its first `let`s and
        `require`s, up to and with its first choice (it stops at anything else)."""
        out = []
        for ins in self.code:
            if ins[0] not in (LET, REQUIRE, CHOOSE):
                break
            out.append(ins)
            if ins[0] == CHOOSE:
                break
        return tuple(out)


@dataclass(frozen=True)
class Names:
    """What names mean besides variables and the vocabulary: the rule set's ids (with
    their types) and its parameters (with their values)."""

    ids: dict[str, Type] = field(default_factory=dict)
    params: Mapping[str, JsonValue] = field(default_factory=dict)
    goods: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: Mapping[str, JsonValue]) -> Names:
        """The names of a rule set's merged data (read defensively: it may be broken)."""

        def keys(section: str) -> list[str]:
            value = data.get(section)
            return list(value) if isinstance(value, dict) else []

        ids: dict[str, Type] = {}
        for section, kind in (
            ("terrains", TERRAIN),
            ("cards", CARD),
            ("tracks", TRACK),
            ("resources", RESOURCE),
            ("commodities", COMMODITY),
            ("hooks", HOOK),
            ("counters", COUNTER),
            ("phases", PHASE),
            ("pieces", PIECE),
        ):
            for key in keys(section):
                ids[key] = kind
        params = data.get("parameters")
        numeric = _numeric_parameters()
        values = {
            # A number or true/false; a numeric parameter with a bad value (reported by
            # the schema) still names a number, so no formula fails because of it.
            k: v if isinstance(v, int) else 0
            for k, v in (params.items() if isinstance(params, dict) else ())
            if isinstance(v, int) or k in numeric
        }
        return cls(ids, values, frozenset(keys("resources") + keys("commodities")))


def _numeric_parameters() -> frozenset[str]:
    """The parameters the schema declares as numbers or true/false."""
    spec = load_schema("rules")["properties"]["parameters"]["properties"]
    return frozenset(k for k, v in spec.items() if v.get("type") in ("integer", "boolean"))
