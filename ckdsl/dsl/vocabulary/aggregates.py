"""The aggregates and list words: list, count, sum, min, max, any, all, and the two truth values."""

from __future__ import annotations

from collections.abc import Sequence

from ckdsl.core.allow import Env
from ckdsl.core.values import Value
from ckdsl.dsl.base.registry import function
from ckdsl.dsl.base.types import (
    ANY,
    BOOL,
    INT,
    list_of,
)

# --- numbers and selections ---------------------------------------------------------------


@function("list", (list_of(ANY),), list_of(ANY), "the items of a selection, picked now", reads=())
def _list(env: Env, items: Sequence[Value]) -> list[Value]:
    return list(items)


@function("count", (list_of(ANY),), INT, "how many items a list or selection has", reads=())
def _count(env: Env, items: Sequence[Value]) -> int:
    return len(items)


@function("sum", (list_of(INT),), INT, "the sum of a list or selection of numbers", reads=())
def _sum(env: Env, items: list[int]) -> int:
    return sum(items)


@function("min", (INT, INT), INT, "the smaller of two numbers", reads=())
def _min2(env: Env, a: int, b: int) -> int:
    return min(a, b)


@function("max", (INT, INT), INT, "the larger of two numbers", reads=())
def _max2(env: Env, a: int, b: int) -> int:
    return max(a, b)


@function(
    "min", (list_of(INT),), INT, "the smallest number of a list or selection (0 if empty)", reads=()
)
def _min(env: Env, items: list[int]) -> int:
    return min(items, default=0)


@function(
    "max", (list_of(INT),), INT, "the largest number of a list or selection (0 if empty)", reads=()
)
def _max(env: Env, items: list[int]) -> int:
    return max(items, default=0)


@function("any", (list_of(BOOL),), BOOL, "whether a selection has any item (or any true)", reads=())
def _any(env: Env, items: list[bool]) -> bool:
    return any(items)


@function("all", (list_of(BOOL),), BOOL, "whether every item of a list is true", reads=())
def _all(env: Env, items: list[bool]) -> bool:
    return all(items)


@function("true", (), BOOL, "yes", reads=())
def _true(env: Env) -> bool:
    return True


@function("false", (), BOOL, "no", reads=())
def _false(env: Env) -> bool:
    return False
