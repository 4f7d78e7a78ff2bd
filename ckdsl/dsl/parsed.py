"""The syntax trees of effects and formulas already parsed, kept on disk.

Parsing an effect is most of what checking it costs, and the rule set's effects rarely
change: ``parse`` and ``parse_expression`` answer from a table of the texts parsed before
(text -> syntax tree, loaded on first use from the cache on disk, ``ckdsl.rules.disk``,
whose key holds ckdsl's source, the grammar and Lark's version), and ask the parser
(``ckdsl.dsl.parser``: Lark) only for a text they have not seen; ``save`` keeps what was
added. A tree is the parser's answer for that exact text (the table is keyed by all of
it), so the checks and the compiler see what the parser would give them. A text with a
syntax error is never in the table: it is parsed, and its error found, every time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.rules import disk

if TYPE_CHECKING:
    from ckdsl.dsl.base import ast

KEEP = 4096
"""How many texts the table keeps (the oldest go first)."""

_TREES: dict[tuple[str, str], ast.Effect | ast.Expr] = {}
"""(``effect`` or ``formula``, text) -> its syntax tree, oldest first."""
_STATE = {"loaded": False, "changed": False}


def parse(text: str) -> ast.Effect:
    """``ckdsl.dsl.parser.parse``, answered from the table when it holds ``text``."""
    from ckdsl.dsl.base import ast

    found = _table().get(("effect", text))
    if isinstance(found, ast.Effect):
        return found
    from ckdsl.dsl.parser import parse as parse_text  # Lark: only for a text not seen

    tree = parse_text(text)
    _add(("effect", text), tree)
    return tree


def parse_expression(text: str) -> ast.Expr:
    """``ckdsl.dsl.parser.parse_expression``, answered from the table when it holds ``text``."""
    from ckdsl.dsl.base import ast

    found = _table().get(("formula", text))
    if found is not None and not isinstance(found, ast.Effect):
        return found
    from ckdsl.dsl.parser import parse_expression as parse_text

    expr = parse_text(text)
    _add(("formula", text), expr)
    return expr


def save() -> None:
    """Keep the table on disk when the process ends if texts were added to it since it
    was loaded."""
    if _STATE["changed"]:
        _STATE["changed"] = False
        disk.store_at_exit("parsed", "trees", _TREES)


def _table() -> dict[tuple[str, str], ast.Effect | ast.Expr]:
    if not _STATE["loaded"]:
        _STATE["loaded"] = True
        found = disk.load("parsed", "trees")
        if found is not None and isinstance(found[0], dict):
            _TREES.update(found[0])
    return _TREES


def _add(key: tuple[str, str], tree: ast.Effect | ast.Expr) -> None:
    _TREES[key] = tree
    while len(_TREES) > KEEP:
        del _TREES[next(iter(_TREES))]
    _STATE["changed"] = True
