"""The DSL's visitors are tables, and no table misses an entry.

The parser's converter (``parser._ToAst``: one method per rule of the grammar) and the
pretty-printer (``pretty.statement`` and ``pretty.expr``: one function per node type) are
tables; these tests fail as soon as the grammar gains a rule or ``ast`` a node type that a
table does not handle, instead of letting it surface as a fall-through at run time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import get_args

import pytest

from ckdsl.dsl import parser, pretty
from ckdsl.dsl.base import ast
from ckdsl.dsl.parser import _lark, parse, parse_expression

# Node types that are neither an expression nor a statement: each is printed (and
# compiled) by the node that holds it.
PARTS = {ast.Pair, ast.Clause, ast.Choose}

# One effect with every node type in it (tests below check that it has them all).
EVERY_NODE = """\
let t = choose up to 2 tile x from tiles where x != robber_tile by me
let n = count(each p in opponents where points(p) >= 3) + -2 * 3 % 2
require not (n > 1) or "a" in [1, 2] and n not in [] else "never"
if n == 1:
    gain n grain to me
elif {ore: 1, grain: 2} == {}:
    stop
else:
    repeat sum(points(p) for each p in players):
        optional by me:
            gain (1 if n > 0 else 2) grain
for p in players where p != me:
    steal 1 from p free
"""


def _nodes(value: object) -> Iterator[ast.Node]:
    """Every node of a syntax tree (or of a tuple of them), depth first."""
    if isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)
    elif isinstance(value, ast.Node):
        yield value
        for field in dataclasses.fields(value):
            yield from _nodes(getattr(value, field.name))


def _node_types() -> set[type[ast.Node]]:
    """Every node class of ``ast`` (read from the module: ``slots=True`` dataclasses leave
    their slot-less first draft among ``Node.__subclasses__()``)."""
    return {v for v in vars(ast).values() if isinstance(v, type) and issubclass(v, ast.Node)} - {
        ast.Node
    }


def _tree_names() -> set[str]:
    """The rules and aliases of the grammar for which Lark can make a tree node: all but
    the helpers it makes itself (``__...``) and the ``?`` rules that always keep a single
    child (Lark inlines them)."""
    names = set()
    for rule in _lark().rules:
        if rule.origin.name.startswith("_"):
            continue
        kept = [s for s in rule.expansion if not (s.is_term and s.filter_out)]
        single = len(kept) == 1 and not kept[0].name.startswith("_")
        if rule.options.expand1 and not rule.alias and single:
            continue
        names.add(rule.alias or rule.origin.name)
    return names


def _kept_terminals() -> set[str]:
    """The terminals Lark keeps in the tree (named ones, not starting with ``_``)."""
    return {
        s.name for rule in _lark().rules for s in rule.expansion if s.is_term and not s.filter_out
    }


# --- the parser's converter ---------------------------------------------------------------


def test_every_rule_that_makes_a_tree_node_has_its_converter() -> None:
    missing = _tree_names() - parser.CALLBACKS
    assert not missing, f"rules without a method in parser._ToAst: {sorted(missing)}"


def test_every_kept_terminal_is_converted_or_read_raw() -> None:
    kept = _kept_terminals()
    assert not (kept - parser.CALLBACKS - parser.RAW_TOKENS), "terminals nothing reads"
    assert not (parser.RAW_TOKENS & parser.CALLBACKS)
    assert not (parser.RAW_TOKENS - kept), "RAW_TOKENS names a terminal the tree never keeps"


def test_the_converter_has_no_method_for_a_rule_that_is_gone() -> None:
    stale = parser.CALLBACKS - _tree_names() - _kept_terminals()
    assert not stale, f"parser._ToAst methods for no rule or terminal: {sorted(stale)}"


def test_the_parser_makes_every_node_type() -> None:
    tree = parse(EVERY_NODE)
    assert {type(n) for n in _nodes(tree.body)} == _node_types()


# --- the pretty-printer's tables ------------------------------------------------------------


def test_every_node_type_is_an_expression_a_statement_or_a_part() -> None:
    expressions, statements = set(get_args(ast.Expr)), set(get_args(ast.Stmt))
    assert not (expressions & statements) and not (PARTS & (expressions | statements))
    assert expressions | statements | PARTS == _node_types()


def test_every_statement_type_has_its_printer() -> None:
    assert set(pretty.statement.registry) - {object} == set(get_args(ast.Stmt))


def test_every_expression_type_has_its_printer() -> None:
    assert set(pretty.expr.registry) - {object} == set(get_args(ast.Expr))


def test_every_expression_type_has_a_strength() -> None:
    found = [n for n in _nodes(parse(EVERY_NODE).body) if isinstance(n, get_args(ast.Expr))]
    assert {type(n) for n in found} == set(get_args(ast.Expr))
    assert all(isinstance(pretty._strength(n), int) for n in found)


def test_a_node_without_a_printer_is_an_error_not_a_silent_fallthrough() -> None:
    with pytest.raises(TypeError, match="no printer"):
        pretty.expr(ast.Pair(1, 1, "ore", ast.Number(1, 6, 1)))
    with pytest.raises(TypeError, match="no printer"):
        pretty.statement(ast.Name(1, 1, "x"), 0)


def test_every_node_type_prints_and_parses_back() -> None:
    tree = parse(EVERY_NODE)
    again = parse(pretty.effect(tree))
    assert pretty.effect(again) == pretty.effect(tree)
    assert {type(n) for n in _nodes(again.body)} == _node_types()


# --- positions ------------------------------------------------------------------------------


def test_every_node_stands_at_its_first_token() -> None:
    text = "let x = (a) or b\ngain count((p) for each p in ps where (p) and q) grain to me\n"
    (let, gain) = parse(text).body
    assert isinstance(let, ast.Let) and isinstance(let.value, ast.Binary)
    # An operator chain stands where its text starts, parenthesis included (Lark's
    # container position); the operand itself stands at its own token.
    assert (let.value.line, let.value.col) == (1, 9)
    assert (let.value.left.line, let.value.left.col) == (1, 10)
    assert isinstance(gain, ast.Action) and (gain.line, gain.col) == (2, 1)
    call = gain.args[0]
    assert isinstance(call, ast.Call) and isinstance(call.args[0], ast.Each)
    each = call.args[0]
    assert (each.line, each.col) == (2, 12)
    assert each.where is not None and (each.where.line, each.where.col) == (2, 39)
    clause = gain.clauses[0]
    assert (clause.line, clause.col, clause.prep) == (2, 56, "to")


def test_a_formula_counts_columns_in_its_own_text() -> None:
    expr = parse_expression("a + f(b, {ore: 1})")
    assert isinstance(expr, ast.Binary) and (expr.line, expr.col) == (1, 3)
    assert isinstance(expr.left, ast.Name) and expr.left.col == 1
    call = expr.right
    assert isinstance(call, ast.Call) and call.col == 5
    bundle = call.args[1]
    assert isinstance(bundle, ast.Bundle) and bundle.col == 10 and bundle.pairs[0].col == 11
