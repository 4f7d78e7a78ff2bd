"""Text to syntax tree: the Lark LALR parser of ``grammars/effects.lark``, and syntax
errors a newcomer understands.

Lark reports what it expected in terminal names (``_NL``, ``COLON``); this module turns the
common slips into named hints ("`if` needs a colon at the end of its line") and every other
error into "unexpected X; expected Y" in words, always at the line and column of the token
at fault. Indentation is checked by our own post-lexer so that a bad dedent or a stray
closing bracket is an error with a position, never an exception from inside Lark.

A parse tree becomes the syntax tree (``ckdsl.dsl.base.ast``) through ``_ToAst``, a Lark
``Transformer``: a table with one method per rule of the grammar, each given the node's
line and column (Lark's ``propagate_positions``), so every syntax node keeps its own.
"""

from __future__ import annotations

import io
import pickle
import re
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.lark import PostLex
from lark.tree import Meta

from ckdsl.dsl.base import ast
from ckdsl.dsl.base.errors import DslError
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
    """The parser Lark builds from the grammar (building it is a quarter of a command's
    start; loading it, a few ms), kept in the cache on disk (``ckdsl.rules.disk``, under
    ckdsl's code digest, which covers the grammar and Lark's version): read back only
    from a folder and an entry that pass its checks, never from a pickle Lark reads on
    its own."""
    from ckdsl.rules import disk  # (not every parse needs the cache: only the first)

    found = disk.load("parser", "effects")
    if found is not None and isinstance(found[0], dict):
        with suppress(Exception):  # an entry Lark cannot read back: built again
            return Lark.__new__(Lark)._load(found[0], **_RUNTIME_OPTIONS)
    grammar = (grammars_dir() / "effects.lark").read_text(encoding="utf-8")
    built = Lark(grammar, parser="lalr", maybe_placeholders=True, **_RUNTIME_OPTIONS)
    # Saved with the grammar's rules too (the fuzz tests read them), as Lark's own
    # ``cache_grammar`` does (which it allows only with its own cache).
    built.__serialize_fields__ = [*built.__serialize_fields__, "grammar"]
    saved = io.BytesIO()
    built.save(saved, exclude_options=_RUNTIME_OPTIONS)
    disk.store("parser", "effects", (), pickle.loads(saved.getvalue()))
    return built


_RUNTIME_OPTIONS = {"postlex": _Indenter(), "propagate_positions": True}
"""Lark's options that are not saved with its parser: given again when it is loaded."""


MAX_DIGITS = 18  # the digits of a number literal in an effect


def parse(text: str) -> ast.Effect:
    """Parse an effect; raises DslError (line and column in ``text``) on a syntax error."""
    return _parse(text, _TO_AST)


def parse_expression(text: str) -> ast.Expr:
    """Parse a formula: one expression (written as ``let value = <formula>``)."""
    if "\n" in text.strip():
        raise DslError(1, 1, "a formula is one expression on one line")
    try:
        effect = _parse(_FORMULA_PREFIX + text.strip(), _FORMULA_TO_AST)
    except DslError as err:
        col = err.col - len(_FORMULA_PREFIX) if err.line == 1 else err.col
        raise DslError(err.line, max(col, 1), err.message, err.hint) from None
    stmt = effect.body[0] if len(effect.body) == 1 else None
    if not isinstance(stmt, ast.Let) or isinstance(stmt.value, ast.Choose):
        raise DslError(1, 1, "a formula is one expression, without `choose`")
    return stmt.value


MAX_SYNTAX_ERRORS = 20
"""How many syntax errors of one effect are reported at most."""


def syntax_errors(text: str, first: DslError) -> list[DslError]:
    """Every syntax error of the effect ``text`` that can be told apart, ``first`` (the
    one ``parse`` raised) among them, in the order of the text: as a compiler goes on
    after an error, each faulty line is set aside (read as `stop`, or as `if true:` when
    a block follows it) and the effect read again. An error on a line already set aside
    is the mending's, not the author's: the search stops there."""
    lines = text.split("\n")
    found, mended = [first], set()
    error = first
    while len(found) < MAX_SYNTAX_ERRORS:
        k = error.line - 1
        if not 0 <= k < len(lines) or k in mended or not lines[k].strip():
            break
        lines[k] = _set_aside(lines, k)
        mended.add(k)
        try:
            parse("\n".join(lines))
        except DslError as again:
            if again.line - 1 in mended:
                break
            found.append(again)
            error = again
            continue
        break
    return sorted(found, key=lambda e: (e.line, e.col))


def _set_aside(lines: list[str], k: int) -> str:
    """Line ``k`` as a statement that reads and does nothing wrong: `stop`, or `if true:`
    when the lines after it are a block (a faulty block header keeps its block)."""
    indent = lines[k][: len(lines[k]) - len(lines[k].lstrip())]
    after = next((line for line in lines[k + 1 :] if line.strip()), "")
    opens = len(after) - len(after.lstrip()) > len(indent)
    return indent + ("if true:" if opens else "stop")


def _parse(text: str, to_ast: _ToAst) -> ast.Effect:
    """The syntax tree of ``text``, its positions counted by ``to_ast`` (an effect's own, or
    a formula's inside its ``let``)."""
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark().parse(source)
    except DslError:
        raise
    except UnexpectedInput as exc:
        raise _syntax_error(exc, source) from None
    except RecursionError:
        raise DslError(1, 1, "nested too deeply to read", "split it with `let`") from None
    try:
        return to_ast.transform(tree)
    except VisitError as exc:  # a leaf refused (a number too long): its own message
        if isinstance(exc.orig_exc, DslError):
            raise exc.orig_exc from None
        raise
    except RecursionError:
        raise DslError(1, 1, "nested too deeply to read", "split it with `let`") from None


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


def _unknown_verb(first: str, indent: int, line: int) -> DslError | None:
    """A statement that starts with a word that is neither a keyword nor a verb (``destroy
    road 12-13``): say so, rather than what the parser tripped on further along."""
    from ckdsl.dsl.base.registry import VERBS  # the vocabulary registers its verbs on import

    if not VERBS or first in KEYWORDS or first in VERBS:
        return None
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", first):
        return None
    from difflib import get_close_matches

    close = get_close_matches(first, list(VERBS), n=1)
    hint = (
        f"did you mean `{close[0]}`? (`ckdsl vocabulary` lists the verbs)"
        if close
        else ("`ckdsl vocabulary` lists the verbs")
    )
    return DslError(line, indent + 1, f"unknown verb '{first}'", hint)


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
    unknown = _unknown_verb(first, indent, line)
    if unknown is not None:
        return unknown
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

Block = tuple[ast.Stmt, ...]
Branch = tuple[ast.Expr, Block]

RAW_TOKENS = frozenset(
    {"COMPARE", "IN", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT",
     "TO", "FROM", "AT", "BY", "ON", "WITH", "PAYING", "FOR"}
)  # fmt: skip
"""The terminals kept in the tree that reach their rule as Lark tokens (an operator or a
clause's preposition: the rule reads its text and position); every other kept terminal
has a token callback in ``_ToAst`` that makes it a leaf of the syntax tree."""


@dataclass(frozen=True, slots=True)
class _Else:
    """An ``else:`` block on its way into its ``if``: a type of its own, so that ``if_stmt``
    tells it from an ``elif`` branch by its type."""

    body: Block


@dataclass(frozen=True, slots=True)
class _Choice:
    """A ``choose`` on its way into its ``let``: the candidates' name defaults to the let's
    name, which only ``let_stmt`` knows."""

    line: int
    col: int
    kind: ast.Name
    var: ast.Name | None
    up_to: ast.Expr | None
    source: ast.Expr | None
    where: ast.Expr | None
    by: ast.Expr | None

    def bound(self, let_name: str) -> ast.Choose:
        var = self.var.id if self.var is not None else let_name
        return ast.Choose(self.line, self.col, self.kind.id, var, self.up_to, self.source,
                          self.where, self.by, self.kind.line, self.kind.col)  # fmt: skip


@v_args(inline=True, meta=True)
class _ToAst(Transformer[Token, ast.Effect]):
    """The Lark tree of an effect to its ``ast`` nodes, bottom-up: one method per rule or
    alias of grammars/effects.lark that makes a tree node, given the node's position
    (``meta``, Lark's ``propagate_positions``) and its children, already converted; and one
    per terminal that is a leaf of the syntax tree (``NAME``, ``NUMBER``, ``STRING``: Lark
    calls these with the token alone). Rules marked ``?`` in the grammar that keep a single
    child never make a node (Lark inlines them); tests/dsl/test_tables.py checks that every
    other rule, and every kept terminal not in ``RAW_TOKENS``, has its method.

    Every position goes through ``_at``: a formula is parsed as ``let value = <formula>``,
    and its converter (``shift``) moves line 1's columns back to the formula's own.
    """

    def __init__(self, shift: int = 0) -> None:
        super().__init__(visit_tokens=True)
        self.shift = shift
        # `v_args` makes each method a descriptor that builds a new wrapper (copying the
        # function's name and doc) at every lookup, that is once per tree node, which would
        # cost more than the conversion itself: bind each once, on the instance, where
        # Lark's lookup finds it first.
        for name in CALLBACKS:
            setattr(self, name, getattr(self, name))

    def _at(self, where: Meta | Token) -> tuple[int, int]:
        """1-based line and column of a node (its meta) or token, in the effect's text."""
        line, col = where.line or 1, where.column or 1
        return (line, col - self.shift) if line == 1 else (line, col)

    # --- leaves (named after their terminal: that is how Lark finds them)

    def NAME(self, token: Token) -> ast.Name:
        return ast.Name(*self._at(token), str(token))

    def NUMBER(self, token: Token) -> ast.Number:
        if len(token) > MAX_DIGITS:  # no count or amount needs more; int() of 5,000 digits fails
            line, col = self._at(token)
            message = f"a number of {len(token):,} digits: numbers in effects have at most"
            raise DslError(line, col, f"{message} {MAX_DIGITS}")
        return ast.Number(*self._at(token), int(token))

    def STRING(self, token: Token) -> ast.Text:
        return ast.Text(*self._at(token), str(token)[1:-1])

    # --- statements

    def start(self, meta: Meta, *body: ast.Stmt) -> ast.Effect:
        return ast.Effect(body)

    def block(self, meta: Meta, *body: ast.Stmt) -> Block:
        return body

    def let_stmt(self, meta: Meta, name: ast.Name, value: ast.Expr | _Choice) -> ast.Let:
        if isinstance(value, _Choice):
            return ast.Let(*self._at(meta), name.id, value.bound(name.id))
        return ast.Let(*self._at(meta), name.id, value)

    def require_stmt(self, meta: Meta, cond: ast.Expr, message: ast.Text | None) -> ast.Require:
        text = message.value if message is not None else None
        return ast.Require(*self._at(meta), cond, text)

    def stop_stmt(self, meta: Meta) -> ast.Stop:
        return ast.Stop(*self._at(meta))

    def action(self, meta: Meta, verb: ast.Name, *rest: ast.Expr | ast.Clause) -> ast.Action:
        """Arguments, clauses and flags in the order written; a flag is a Name argument."""
        args = tuple(k for k in rest if not isinstance(k, ast.Clause))
        clauses = tuple(k for k in rest if isinstance(k, ast.Clause))
        return ast.Action(*self._at(meta), verb.id, args, clauses)

    def clause(self, meta: Meta, prep: Token, value: ast.Expr) -> ast.Clause:
        return ast.Clause(*self._at(meta), str(prep), value)

    def if_stmt(
        self, meta: Meta, cond: ast.Expr, body: Block, *rest: Branch | _Else | None
    ) -> ast.If:
        branches = [(cond, body)]
        orelse = None
        for part in rest:  # the elif branches, then the else (None when there is none)
            if isinstance(part, _Else):
                orelse = part.body
            elif part is not None:
                branches.append(part)
        return ast.If(*self._at(meta), tuple(branches), orelse)

    def elif_part(self, meta: Meta, cond: ast.Expr, body: Block) -> Branch:
        return cond, body

    def else_part(self, meta: Meta, body: Block) -> _Else:
        return _Else(body)

    def for_stmt(
        self, meta: Meta, var: ast.Name, source: ast.Expr, where: ast.Expr | None, body: Block
    ) -> ast.For:
        return ast.For(*self._at(meta), var.id, source, where, body)

    def repeat_stmt(self, meta: Meta, count: ast.Expr, body: Block) -> ast.Repeat:
        return ast.Repeat(*self._at(meta), count, body)

    def optional_stmt(self, meta: Meta, by: ast.Expr | None, body: Block) -> ast.Optional:
        return ast.Optional(*self._at(meta), by, body)

    def choose(
        self,
        meta: Meta,
        up_to: ast.Expr | None,
        kind: ast.Name,
        var: ast.Name | None,
        source: ast.Expr | None,
        where: ast.Expr | None,
        by: ast.Expr | None,
    ) -> _Choice:
        return _Choice(*self._at(meta), kind, var, up_to, source, where, by)

    # --- expressions

    def group(self, meta: Meta, inner: ast.Expr) -> ast.Expr:
        """``(expr)`` is its expression (the node only marks, for Lark's positions, that an
        expression it begins begins at the parenthesis)."""
        return inner

    def call(
        self, meta: Meta, func: ast.Name, args: tuple[ast.Expr, ...] | ast.Expr | None
    ) -> ast.Call:
        """``f()``, ``f(x)`` (its one argument may be an ``each`` selection), ``f(x, y)``."""
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        return ast.Call(*self._at(meta), func.id, args)

    def arguments(self, meta: Meta, *args: ast.Expr) -> tuple[ast.Expr, ...]:
        """Two or more arguments (a single one comes to ``call`` as it is)."""
        return args

    def each(
        self,
        meta: Meta,
        value: ast.Expr | None,
        var: ast.Name,
        source: ast.Expr,
        where: ast.Expr | None,
    ) -> ast.Each:
        return ast.Each(*self._at(meta), value, var.id, source, where)

    def or_expr(self, meta: Meta, *operands: ast.Expr) -> ast.Expr:
        return self._chain(meta, "or", operands)

    def and_expr(self, meta: Meta, *operands: ast.Expr) -> ast.Expr:
        return self._chain(meta, "and", operands)

    def _chain(self, meta: Meta, op: str, operands: tuple[ast.Expr, ...]) -> ast.Expr:
        """``a or b or c`` groups to the left; every link stands where the chain starts."""
        line, col = self._at(meta)
        out = operands[0]
        for right in operands[1:]:
            out = ast.Binary(line, col, op, out, right)
        return out

    def sum(self, meta: Meta, first: ast.Expr, *rest: Token | ast.Expr) -> ast.Expr:
        return self._arithmetic(first, rest)

    def product(self, meta: Meta, first: ast.Expr, *rest: Token | ast.Expr) -> ast.Expr:
        return self._arithmetic(first, rest)

    def _arithmetic(self, first: ast.Expr, rest: tuple[Token | ast.Expr, ...]) -> ast.Expr:
        """``a + b - c``: operators and operands alternate; each operation stands at its
        operator, and they group to the left."""
        out = first
        for op, right in zip(rest[::2], rest[1::2], strict=True):
            if not isinstance(op, Token) or isinstance(right, Token):  # pragma: no cover
                raise AssertionError(f"operator and operand expected, not {op!r} {right!r}")
            out = ast.Binary(*self._at(op), str(op), out, right)
        return out

    def compare(self, meta: Meta, left: ast.Expr, op: Token, right: ast.Expr) -> ast.Binary:
        return ast.Binary(*self._at(op), str(op), left, right)

    def member(self, meta: Meta, left: ast.Expr, op: Token, right: ast.Expr) -> ast.Binary:
        return ast.Binary(*self._at(op), "in", left, right)

    def not_member(self, meta: Meta, left: ast.Expr, op: Token, right: ast.Expr) -> ast.Binary:
        """``a not in b``, at its ``in`` (the ``not`` is a keyword the tree drops)."""
        return ast.Binary(*self._at(op), "not in", left, right)

    def conditional(
        self, meta: Meta, then: ast.Expr, cond: ast.Expr, orelse: ast.Expr
    ) -> ast.Conditional:
        return ast.Conditional(*self._at(meta), then, cond, orelse)

    def negation(self, meta: Meta, operand: ast.Expr) -> ast.Unary:
        return ast.Unary(*self._at(meta), "not", operand)

    def negative(self, meta: Meta, operand: ast.Expr) -> ast.Unary:
        return ast.Unary(*self._at(meta), "-", operand)

    def list_of(self, meta: Meta, *items: ast.Expr | None) -> ast.ListOf:
        return ast.ListOf(*self._at(meta), tuple(k for k in items if k is not None))

    def bundle(self, meta: Meta, *pairs: ast.Pair | None) -> ast.Bundle:
        return ast.Bundle(*self._at(meta), tuple(p for p in pairs if p is not None))

    def pair(self, meta: Meta, key: ast.Name, value: ast.Expr) -> ast.Pair:
        return ast.Pair(key.line, key.col, key.id, value)


CALLBACKS = frozenset(name for name in vars(_ToAst) if not name.startswith("_"))
"""What ``_ToAst`` converts: rules and aliases of the grammar, and terminals (upper case)."""

_FORMULA_PREFIX = "let value = "
_TO_AST = _ToAst()
_FORMULA_TO_AST = _ToAst(shift=len(_FORMULA_PREFIX))
