"""Text to syntax tree: the Lark LALR parser of ``grammars/effects.lark``, and syntax
errors a newcomer understands.

Lark reports what it expected in terminal names (``_NL``, ``COLON``); this module turns the
common slips into named hints ("`if` needs a colon at the end of its line") and every other
error into "unexpected X; expected Y" in words, always at the line and column of the token
at fault. Indentation is checked by our own post-lexer so that a bad dedent or a stray
closing bracket is an error with a position, never an exception from inside Lark.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lark import PostLex

from ckdsl.dsl import ast
from ckdsl.dsl.errors import DslError
from ckdsl.paths import grammars_dir

KEYWORDS = frozenset(
    {"let", "require", "else", "stop", "if", "elif", "for", "in", "where", "repeat",
     "optional", "choose", "up", "to", "from", "at", "by", "on", "with", "paying", "each",
     "and", "or", "not"}
)  # fmt: skip
BLOCK_KEYWORDS = ("if", "elif", "else", "for", "repeat", "optional")
TAB = 4
_OPEN = {"LPAR": "(", "LSQB": "[", "LBRACE": "{"}
_CLOSE = {"RPAR": "(", "RSQB": "[", "RBRACE": "{"}


class _Indenter(PostLex):
    """Python-style INDENT/DEDENT tokens, with errors that carry a position."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        levels = [0]
        brackets: list[Token] = []
        last: Token | None = None
        for token in stream:
            last = token
            if token.type == "_NL":
                if brackets:
                    continue  # inside brackets a line break is only a space
                yield token
                text = token.value.rsplit("\n", 1)[1]
                indent = text.count(" ") + text.count("\t") * TAB
                line = (token.end_line or token.line or 1) if "\n" in token.value else token.line
                if indent > levels[-1]:
                    levels.append(indent)
                    yield Token.new_borrow_pos("_INDENT", text, token)
                else:
                    while indent < levels[-1]:
                        levels.pop()
                        yield Token.new_borrow_pos("_DEDENT", text, token)
                    if indent != levels[-1]:
                        raise DslError(
                            line or 1,
                            indent + 1,
                            "this line's indentation does not line up with any block above",
                            "indent it exactly as far as the lines of the block it belongs to",
                        )
                continue
            if token.type in _OPEN:
                brackets.append(token)
            elif token.type in _CLOSE:
                if not brackets:
                    raise DslError(token.line or 1, token.column or 1, f"'{token}' closes nothing")
                opened = brackets.pop()
                if opened.type[1:] != token.type[1:]:
                    raise DslError(
                        token.line or 1,
                        token.column or 1,
                        f"'{token}' does not match the '{opened}' opened at "
                        f"{opened.line}:{opened.column}",
                    )
            yield token
        if brackets:
            opened = brackets[-1]
            raise DslError(opened.line or 1, opened.column or 1, f"'{opened}' is never closed")
        while len(levels) > 1:
            levels.pop()
            yield Token.new_borrow_pos("_DEDENT", "", last) if last else Token("_DEDENT", "")


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (grammars_dir() / "effects.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        postlex=_Indenter(),
        propagate_positions=True,
        maybe_placeholders=True,
    )


def parse(text: str) -> ast.Effect:
    """Parse an effect; raises DslError (line and column in ``text``) on a syntax error."""
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark().parse(source)
    except DslError:
        raise
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source) from None
    return ast.Effect(tuple(_statements(tree.children)))


def parse_expression(text: str) -> ast.Expr:
    """Parse a formula: one expression (written as ``let value = <formula>``)."""
    if "\n" in text.strip():
        raise DslError(1, 1, "a formula is one expression on one line")
    prefix = "let value = "
    try:
        effect = parse(prefix + text.strip())
    except DslError as err:
        col = err.col - len(prefix) if err.line == 1 else err.col
        raise DslError(err.line, max(col, 1), err.message, err.hint) from None
    stmt = effect.body[0] if len(effect.body) == 1 else None
    if not isinstance(stmt, ast.Let) or isinstance(stmt.value, ast.Choose):
        raise DslError(1, 1, "a formula is one expression, without `choose`")
    shifted: ast.Expr = _shift(stmt.value, len(prefix))
    return shifted


def _shift(expr: Any, by: int) -> Any:
    """The same tree with columns of line 1 moved ``by`` to the left."""
    if isinstance(expr, tuple):
        return tuple(_shift(e, by) for e in expr)
    if not isinstance(expr, ast.Node):
        return expr
    fields = {name: _shift(getattr(expr, name), by) for name in expr.__dataclass_fields__}
    if expr.line == 1:
        fields["col"] = expr.col - by
    return type(expr)(**fields)


# --- syntax errors in words -------------------------------------------------------------

_TERMINALS = {
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the effect",
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": 'a text in quotes ("...")',
    "COMPARE": "a comparison (==, !=, <, <=, >, >=)",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "SLASH": "'/'",
    "PERCENT": "'%'",
}


_VALUE_START = {"NAME", "NUMBER", "STRING", "LPAR", "LSQB", "LBRACE", "MINUS", "NOT"}


def _describe(terminal: str) -> str:
    if terminal in _TERMINALS:
        return _TERMINALS[terminal]
    if terminal.lower() in KEYWORDS:
        return f"`{terminal.lower()}`"
    return terminal.lower()


def _found(token: Token) -> str:
    """The unexpected token in words: "name 'grain'", "`stop`", "end of the line"."""
    kind, value = token.type, str(token.value)
    if kind == "NAME":
        return f"name '{value}'"
    if kind == "NUMBER":
        return f"number {value}"
    if kind == "STRING":
        return f"text {value}"
    if kind in ("_NL", "$END"):
        return "end of the line"
    if kind.lower() in KEYWORDS:
        return f"`{value}`"
    return f"'{value}'"


def _expected(terminals: set[str]) -> str:
    words = set()
    if terminals & {"NAME", "NUMBER"}:
        words.add("a value (a name, a number, ...)")
        terminals = terminals - _VALUE_START
    words |= {_describe(t) for t in terminals}
    ordered = sorted(words, key=lambda w: (not w.startswith("a value"), w))
    if len(ordered) > 5:
        ordered = [*ordered[:5], "..."]
    return " or ".join(ordered)


def _syntax_error(exc: UnexpectedInput, source: str) -> DslError:
    lines = source.split("\n")
    if isinstance(exc, UnexpectedCharacters):
        line, col = exc.line, exc.column
        char = exc.char
        if char == '"':
            return DslError(
                line, col, "this text in quotes never ends", 'end it with " on the same line'
            )
        if char == "=":
            return DslError(line, col, "unexpected '='", "to compare, write '=='")
        return DslError(line, col, f"unexpected character '{char}'")
    if isinstance(exc, UnexpectedEOF):
        return DslError(len(lines), 1, "the effect ends in the middle of a statement")
    assert isinstance(exc, UnexpectedToken)
    token: Token = exc.token
    expected = {t for t in exc.expected if not t.startswith("__")}
    line = token.line if token.line is not None else len(lines)
    col = token.column if token.column is not None else 1
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    first = text.strip().split(" ", 1)[0].rstrip(":") if text.strip() else ""
    above = next(
        (t for t in reversed(lines[: line - 1]) if t.strip() and not t.strip().startswith("#")), ""
    )
    indent = len(text) - len(text.lstrip())
    if token.type == "_NL" and "COLON" in expected and first in BLOCK_KEYWORDS:
        return DslError(line, len(text.rstrip()) + 1, f"`{first}` needs a colon at the end",
                        f"write `{text.strip()}:`")  # fmt: skip
    if token.type == "_INDENT":
        return DslError(
            line + 1,
            1,
            "unexpected indentation",
            "only the lines of a block (after a line ending in ':') are indented",
        )
    if above.split("#")[0].rstrip().endswith(":") and col == indent + 1:
        return DslError(line, col, "a block must follow the ':' of the line above",
                        "indent the lines of the block")  # fmt: skip
    glued = re.match(r"(let|if|elif|for|repeat|require|optional|choose)([A-Za-z0-9_]+)$", first)
    if glued and token.type != "_NL":
        keyword, rest = glued.groups()
        return DslError(
            line,
            indent + 1,
            f"unknown statement '{first}'",
            f"keywords need a space after them: did you mean `{keyword} {rest}`?",
        )
    if first == "let" and "==" in text:
        return DslError(line, text.index("==") + 1, "unexpected '=='", "`let` takes a single '='")
    if first == "let" and token.type == "EQUAL":
        return DslError(line, col, "`let` needs a name before '='", "write `let NAME = value`")
    if token.type == "EQUAL" and "COMPARE" in expected:
        return DslError(line, col, "unexpected '='", "to compare, write '==' (`let` takes '=')")
    if (
        first in ("elif", "else")
        and token.type in ("COLON", "NAME", "_NL")
        and "ELSE" not in expected
    ):
        return DslError(line, indent + 1, f"`{first}` without an `if` block just above it")
    if token.type in ("PLUS", "MINUS", "STAR", "SLASH", "PERCENT") and first not in KEYWORDS:
        return DslError(line, col, f"unexpected '{token}'",
                        "a verb's argument is one value: put a calculation in parentheses, "
                        "like `discard (hand_size(p) / 2) by p`")  # fmt: skip
    if token.type == "NAME" and str(token.value) in ("then", "do", "end", "endif"):
        return DslError(line, col, f"unexpected '{token}'", "blocks need no words: end the line "
                                   "with ':' and indent the block")  # fmt: skip
    before = text[: col - 1]
    if sum(before.count(c) for c in "([{") > sum(before.count(c) for c in ")]}"):
        expected.discard("_NL")  # inside brackets a line break is no end
    return DslError(line, col, f"unexpected {_found(token)}; expected {_expected(expected)}")


# --- parse tree to syntax tree ----------------------------------------------------------


def _pos(node: Tree[Any] | Token) -> tuple[int, int]:
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    meta = node.meta
    return getattr(meta, "line", 1), getattr(meta, "column", 1)


def _statements(children: list[Any]) -> Iterator[ast.Stmt]:
    for child in children:
        if isinstance(child, Tree):
            yield _statement(child)


def _block(tree: Tree[Any]) -> tuple[ast.Stmt, ...]:
    return tuple(_statements(tree.children))


def _statement(tree: Tree[Any]) -> ast.Stmt:
    line, col = _pos(tree)
    kind, kids = tree.data, tree.children
    if kind == "let_stmt":
        name, value = kids
        return ast.Let(line, col, str(name), _choose(value, str(name)) if _is(value, "choose")
                       else _expr(value))  # fmt: skip
    if kind == "require_stmt":
        cond, message = kids
        return ast.Require(line, col, _expr(cond), str(message)[1:-1] if message else None)
    if kind == "stop_stmt":
        return ast.Stop(line, col)
    if kind == "action":
        verb, rest = kids[0], kids[1:]
        args = tuple(
            ast.Name(*_pos(k.children[0]), str(k.children[0])) if _is(k, "flag") else _expr(k)
            for k in rest
            if not _is(k, "clause")
        )
        clauses = tuple(
            ast.Clause(*_pos(k), str(k.children[0]), _expr(k.children[1]))
            for k in rest
            if _is(k, "clause")
        )
        return ast.Action(line, col, str(verb), args, clauses)
    if kind == "if_stmt":
        branches = [(_expr(kids[0]), _block(kids[1]))]
        orelse = None
        for part in kids[2:]:
            if _is(part, "elif_part"):
                branches.append((_expr(part.children[0]), _block(part.children[1])))
            elif _is(part, "else_part"):
                orelse = _block(part.children[0])
        return ast.If(line, col, tuple(branches), orelse)
    if kind == "for_stmt":
        var, _, source, where, body = kids
        return ast.For(line, col, str(var), _expr(source), _where(where), _block(body))
    if kind == "repeat_stmt":
        return ast.Repeat(line, col, _expr(kids[0]), _block(kids[1]))
    if kind == "optional_stmt":
        by, body = kids
        return ast.Optional(line, col, _expr(by.children[1]) if by else None, _block(body))
    raise AssertionError(f"unknown statement {kind}")  # pragma: no cover


def _is(node: Any, kind: str) -> bool:
    return isinstance(node, Tree) and node.data == kind


def _where(node: Any) -> ast.Expr | None:
    return _expr(node.children[0]) if node is not None else None


def _choose(tree: Tree[Any], let_name: str) -> ast.Choose:
    line, col = _pos(tree)
    up_to, kind, var, source, where, by = tree.children
    return ast.Choose(
        line,
        col,
        str(kind),
        str(var) if var is not None else let_name,
        _expr(up_to.children[1]) if up_to is not None else None,
        _expr(source.children[1]) if source is not None else None,
        _where(where),
        _expr(by.children[1]) if by is not None else None,
        *_pos(kind),
    )


_BINARY = {"or_expr": "or", "and_expr": "and"}


def _expr(node: Any) -> ast.Expr:
    line, col = _pos(node)
    if isinstance(node, Token):  # pragma: no cover - every token sits inside a rule
        raise AssertionError(f"bare token {node!r}")
    kind, kids = node.data, node.children
    if kind == "number":
        return ast.Number(line, col, int(kids[0]))
    if kind == "text":
        return ast.Text(line, col, str(kids[0])[1:-1])
    if kind == "name":
        return ast.Name(line, col, str(kids[0]))
    if kind == "call":
        name, args = kids
        if args is None:
            return ast.Call(line, col, str(name), ())
        if args.data == "each":
            value, var, _, source, where = args.children
            each = ast.Each(
                *_pos(args),
                _expr(value) if value is not None else None,
                str(var),
                _expr(source),
                _where(where),
            )
            return ast.Call(line, col, str(name), (each,))
        return ast.Call(line, col, str(name), tuple(_expr(a) for a in args.children))
    if kind in _BINARY:
        out = _expr(kids[0])
        for right in kids[1:]:
            out = ast.Binary(line, col, _BINARY[kind], out, _expr(right))
        return out
    if kind in ("sum", "product"):
        out = _expr(kids[0])
        for k in range(1, len(kids), 2):
            op = kids[k]
            out = ast.Binary(op.line or line, op.column or col, str(op), out, _expr(kids[k + 1]))
        return out
    if kind == "compare":
        left, op, right = kids
        return ast.Binary(op.line or line, op.column or col, str(op), _expr(left), _expr(right))
    if kind == "member":
        left, op, right = kids
        return ast.Binary(op.line or line, op.column or col, "in", _expr(left), _expr(right))
    if kind == "not_member":
        left, op, right = kids
        return ast.Binary(op.line or line, op.column or col, "not in", _expr(left), _expr(right))
    if kind == "conditional":
        then, cond, orelse = kids
        return ast.Conditional(line, col, _expr(then), _expr(cond), _expr(orelse))
    if kind == "negation":
        return ast.Unary(line, col, "not", _expr(kids[0]))
    if kind == "negative":
        return ast.Unary(line, col, "-", _expr(kids[1]))
    if kind == "list_of":
        return ast.ListOf(line, col, tuple(_expr(k) for k in kids if k is not None))
    if kind == "bundle":
        pairs = tuple(
            ast.Pair(*_pos(p.children[0]), str(p.children[0]), _expr(p.children[1]))
            for p in kids
            if p is not None
        )
        return ast.Bundle(line, col, pairs)
    raise AssertionError(f"unknown expression {kind}")  # pragma: no cover
