"""The bodies of the vocabulary's one-line functions, written into the Python text that
calls them."""

from __future__ import annotations

import ast as pyast
import builtins
import inspect
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from types import FunctionType

from ckdsl.dsl.base.registry import FunctionImpl
from ckdsl.dsl.compiler.program import Fn, Namespace
from ckdsl.dsl.compiler.pycode import _const_of, _me, _name, _text, _var_of

# A function of the vocabulary whose body is one `return` of an expression is written
# into the text in place of its call (``_inline``): ``active(k)`` becomes
# ``env.game.state.knight_active[env.vars['k']]``. Its arguments take the place of its
# parameters; an argument that is more than a variable, ``me`` or a constant only when
# each parameter is read once, in order, and always (so every argument is computed once,
# in the order of the call); the names the body reads from its module are looked up once.


@dataclass(frozen=True)
class _Template:
    """The body of a function of the vocabulary, ready to be written in place of a call:
    its text with a placeholder for each parameter (``_slot``), and the names it reads
    from its module under their names in the namespace."""

    text: str
    params: int  # how many, besides the environment
    names: Namespace
    in_order: bool  # each parameter read once, in order, and always (see above)


_TEMPLATES: dict[FunctionImpl, _Template | None] = {}


def _slot(k: int) -> str:
    """The placeholder of parameter ``k`` in a template's text (a control character can
    be in no other part of the text: the text of a string is its ``repr``)."""
    return f"\x01{k}\x01"


def _inline(impl: FunctionImpl, args: list[Fn]) -> tuple[str, Namespace] | None:
    """The text of ``impl(env, *args)`` with the body of ``impl`` written out, and the
    names it needs besides those of ``args`` (None: ``impl`` is not written out)."""
    if impl not in _TEMPLATES:
        _TEMPLATES[impl] = _template(impl)
    template = _TEMPLATES[impl]
    if template is None or template.params != len(args):
        return None
    simple = all(_var_of(a) is not None or _const_of(a) is not None or a is _me for a in args)
    if not (simple or template.in_order):
        return None
    text = template.text
    for k, a in enumerate(args):
        text = text.replace(_slot(k), f"({_text(a)})")
    return f"({text})", template.names


def _template(impl: FunctionImpl) -> _Template | None:
    """The body of ``impl`` if it can be written in place of its calls (see ``_inline``)."""
    if not isinstance(impl, FunctionType) or impl.__closure__ or impl.__defaults__:
        return None
    code = impl.__code__
    if code.co_kwonlyargcount or code.co_posonlyargcount:
        return None
    if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return None
    try:
        tree = pyast.parse(textwrap.dedent(inspect.getsource(impl)))
    except (OSError, TypeError, SyntaxError):
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, pyast.FunctionDef) or node.name != impl.__name__:
        return None
    body = node.body
    if body and isinstance(body[0], pyast.Expr) and isinstance(body[0].value, pyast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], pyast.Return) or body[0].value is None:
        return None
    expr = body[0].value
    params = [a.arg for a in node.args.args]
    if not params:
        return None
    bound: set[str] = set()  # names the body binds itself (a comprehension's, a lambda's)
    for sub in pyast.walk(expr):
        if isinstance(sub, pyast.Name) and not isinstance(sub.ctx, pyast.Load):
            bound.add(sub.id)
        elif isinstance(sub, pyast.arg):
            bound.add(sub.arg)
        elif isinstance(sub, (pyast.NamedExpr, pyast.Await, pyast.Yield, pyast.YieldFrom)):
            return None
    namespace = impl.__globals__
    if bound & {"env", *params, *namespace} or any(b.startswith("_") for b in bound):
        return None
    names: Namespace = {}
    for sub in pyast.walk(expr):
        if isinstance(sub, pyast.Name) and sub.id not in params and sub.id not in bound:
            if sub.id in namespace:
                names[sub.id] = namespace[sub.id]
            elif not hasattr(builtins, sub.id):
                return None
    read = [n.id for n in _in_order(expr) if isinstance(n, pyast.Name) and n.id in params[1:]]
    in_order = read == params[1:] and not any(_unordered(n) for n in pyast.walk(expr))
    values = {p: _slot(k) for k, p in enumerate(params[1:])}
    values[params[0]] = "env"
    values.update({key: _name(obj) for key, obj in names.items()})

    class Put(pyast.NodeTransformer):
        def visit_Name(self, node: pyast.Name) -> pyast.expr:
            found = values.get(node.id)
            return node if found is None else pyast.Name(found, pyast.Load())

    text = pyast.unparse(Put().visit(expr))
    namespace = {_name(obj): obj for obj in names.values()}
    return _Template(text, len(params) - 1, namespace, in_order)


def _unordered(node: pyast.AST) -> bool:
    """Whether Python may skip part of ``node``, or compute its parts in another order than
    they are written (``_in_order`` would not say in what order its names are read)."""
    if isinstance(node, pyast.Compare):
        return len(node.ops) > 1  # a chain stops at its first false comparison
    return isinstance(node, (pyast.BoolOp, pyast.IfExp, pyast.Lambda, pyast.comprehension,
                             pyast.Dict, pyast.Starred))  # fmt: skip


def _in_order(node: pyast.AST) -> Iterator[pyast.AST]:
    """The nodes of an expression in the order they are written (the order Python
    computes them, but in the nodes ``_unordered`` finds)."""
    yield node
    for child in pyast.iter_child_nodes(node):
        yield from _in_order(child)
