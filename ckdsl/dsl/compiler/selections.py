"""Loops over selections compiled as Python text: aggregates, the items a loop or a choice runs
over, filters."""

from __future__ import annotations

import ast as pyast
import functools
from collections.abc import Callable, Iterable
from typing import Any

from ckdsl.core.allow import Env
from ckdsl.dsl.base.errors import out_of_budget
from ckdsl.dsl.compiler.closures import has_item, selected_items
from ckdsl.dsl.compiler.program import Fn, Namespace
from ckdsl.dsl.compiler.pycode import _code, _define, _text, to_python

# --- loops as Python ---------------------------------------------------------------------
#
# A selection (``each x in s where c``: an aggregate, a `for`, a choice's candidates) runs
# its condition once per item. Each is compiled to one Python function with the texts of
# its parts written into the loop (``_define``), so an item costs no call of its own. Each
# computes what the closures do (``aggregate_closure``, ``selected_items``...), in the
# same order, binding and restoring the item's name the same way. Their own names begin
# with ``_`` (an inlined body binds none such: ``_template``).


def _names(*fns: Fn | None) -> Namespace:
    found: Namespace = {}
    for fn in fns:
        if fn is not None:
            found.update(_code(fn)[1])
    return found


def _bind(var: str) -> list[str]:
    """The lines that keep what ``var`` names before a selection lends it to its items."""
    return ["    _v = env.vars", f"    _had, _old = {var!r} in _v, _v.get({var!r})"]


def _restore(var: str, pad: str = "    ") -> list[str]:
    """The lines that put back what ``var`` named (``restore_name``)."""
    return [f"{pad}if _had:", f"{pad}    _v[{var!r}] = _old", f"{pad}else:",
            f"{pad}    _v.pop({var!r}, None)"]  # fmt: skip


def _local(fn: Fn, item: str | None = None) -> str:
    """The text of ``fn`` inside a compiled loop: the variables' dict read from the local
    ``_v`` (``env.vars``), and the variable ``item`` (the one the loop binds to ``_x``
    just before) read as ``_x``: the same values, without the lookups."""
    return _localized(_text(fn), item)


@functools.lru_cache(maxsize=4096)
def _localized(text: str, item: str | None) -> str:
    if "env.vars" not in text:
        return text
    tree = pyast.parse(text, mode="eval")

    class Local(pyast.NodeTransformer):
        def visit_Subscript(self, node: pyast.Subscript) -> pyast.expr:
            if (
                item is not None
                and _is_env_vars(node.value)
                and isinstance(node.slice, pyast.Constant)
                and node.slice.value == item
                and isinstance(node.ctx, pyast.Load)
            ):
                return pyast.Name("_x", pyast.Load())
            self.generic_visit(node)
            return node

        def visit_Attribute(self, node: pyast.Attribute) -> pyast.expr:
            if _is_env_vars(node):
                return pyast.Name("_v", pyast.Load())
            self.generic_visit(node)
            return node

    return pyast.unparse(Local().visit(tree).body)


def _is_env_vars(node: pyast.expr) -> bool:
    return (
        isinstance(node, pyast.Attribute)
        and node.attr == "vars"
        and isinstance(node.value, pyast.Name)
        and node.value.id == "env"
    )


def _charged(source: Fn, pad: str = "    ") -> list[str]:
    """The lines that put the items of ``source`` in ``_items`` and pay for them
    (``charge``: one step of the budget per item)."""
    return [f"{pad}_items = {_local(source)}", f"{pad}env.budget -= len(_items)",
            f"{pad}if env.budget < 0:", f"{pad}    _over()"]  # fmt: skip


def _aggregate_code(func: str, source: Fn, var: str, where: Fn | None, value: Fn | None) -> Fn:
    """The aggregate as one compiled function (``aggregate_closure``, step for step)."""
    src = "_items"  # computed (``_charged``) before the first item is bound
    test = f"if {_local(where, var)}:" if where is not None else "if True:"
    item = _local(value, var) if value is not None else "_x"
    names = {**_names(source, where, value), "_over": out_of_budget}
    if func == "all" and value is None:
        if where is None:
            return _define(["def _f(env):", "    return True"], names)
        lines = ["def _f(env):", *_bind(var), *_charged(source), "    try:",
                 f"        for _x in {src}:", f"            _v[{var!r}] = _x",
                 f"            if not ({_local(where, var)}):",
                 "                return False", "        return True", "    finally:",
                 *_restore(var, "        ")]  # fmt: skip
        return _define(lines, names)
    if func == "any" and value is None:
        lines = ["def _f(env):", *_bind(var), *_charged(source), "    try:",
                 f"        for _x in {src}:", f"            _v[{var!r}] = _x",
                 f"            {test}", "                return True", "        return False",
                 "    finally:", *_restore(var, "        ")]  # fmt: skip
        return _define(lines, names)
    if func == "count":
        lines = ["def _f(env):", *_bind(var), *_charged(source), "    _n = 0",
                 f"    for _x in {src}:",
                 f"        _v[{var!r}] = _x", f"        {test}", "            _n += 1",
                 *_restore(var), "    return _n"]  # fmt: skip
        return _define(lines, names)
    result = {"sum": "sum(_out)", "min": "min(_out, default=0)", "max": "max(_out, default=0)",
              "any": "any(_out)", "all": "all(_out)", "list": "_out"}[func]  # fmt: skip
    lines = ["def _f(env):", *_bind(var), *_charged(source), "    _out = []", "    try:",
             f"        for _x in {src}:", f"            _v[{var!r}] = _x", f"            {test}",
             f"                _out.append({item})", "    finally:", *_restore(var, "        "),
             f"    return {result}"]  # fmt: skip
    return _define(lines, names)


def selection_code(source: Fn, var: str, where: Fn | None) -> Fn:
    """The distinct items of ``source`` that pass ``where`` (``var`` naming each), as one
    compiled function: ``selected_items`` (a loop's items, a choice's candidates)."""
    if not to_python():
        return lambda env: selected_items(env, source, var, where)
    if where is None:
        return _define(["def _f(env):", "    _v = env.vars",
                        f"    return list(dict.fromkeys({_local(source)}))"],
                       _names(source))  # fmt: skip
    lines = ["def _f(env):", "    _v = env.vars", *_charged(source),
             f"    _had, _old = {var!r} in _v, _v.get({var!r})", "    _kept = {}",
             "    for _x in _items:", f"        _v[{var!r}] = _x",
             f"        if {_local(where, var)}:", "            _kept[_x] = None",
             *_restore(var), "    return list(_kept)"]  # fmt: skip
    return _define(lines, {**_names(source, where), "_over": out_of_budget})


def candidate_code(source: Fn, var: str, where: Fn | None) -> Fn:
    """Whether ``source`` has an item that passes ``where``, as one compiled function
    (``has_item``: it stops at the first, and leaves ``var`` naming it)."""
    if not to_python():
        return lambda env: has_item(env, source, var, where)
    test = f"if {_local(where, var)}:" if where is not None else "if True:"
    lines = ["def _f(env):", "    _v = env.vars", *_charged(source), "    for _x in _items:",
             f"        _v[{var!r}] = _x", f"        {test}", "            return True",
             "    return False"]  # fmt: skip
    return _define(lines, {**_names(source, where), "_over": out_of_budget})


def filter_code(condition: Fn, var: str) -> Callable[[Env, Iterable[Any]], list[Any]]:
    """``f(env, items)``: the items for which ``condition`` holds, each named ``var``
    meanwhile (``allow.allowed_items``), as one compiled function."""
    lines = ["def _f(env, _items):", "    _v = env.vars", "    _out = []",
             "    for _x in _items:", f"        _v[{var!r}] = _x",
             f"        if {_local(condition, var)}:", "            _out.append(_x)",
             "    return _out"]  # fmt: skip
    return _define(lines, _names(condition))


def first_code(condition: Fn, var: str) -> Callable[[Env, Iterable[Any]], Any]:
    """``f(env, items)``: the first item for which ``condition`` holds (None if none),
    each named ``var`` meanwhile (``Game.check_winner``), as one compiled function."""
    lines = ["def _f(env, _items):", "    _v = env.vars", "    for _x in _items:",
             f"        _v[{var!r}] = _x", f"        if {_local(condition, var)}:",
             "            return _x", "    return None"]  # fmt: skip
    return _define(lines, _names(condition))
