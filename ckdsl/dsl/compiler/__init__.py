"""Syntax tree to program: the static checks and the code, in one pass.

Every name is resolved (a variable, a function of the vocabulary, an id of the rule set,
a parameter), every call and verb is checked against its signature, and every expression
gets a type; each fault becomes a ``DslError`` at the exact token. A clean effect becomes
a ``Program``: a flat tuple of instructions whose expressions are Python closures, run by
``ckdsl.dsl.runtime``. The program belongs to the rule set (compiled once); what a paused
effect keeps in the game state is only a frame of plain data: which program, which
instruction, the variables (see ``runtime``).

What runs is faster than closures calling closures: each expression is also written out
as Python text and compiled as one function (``finish``), with the bodies of the
vocabulary's one-line functions written in (``_inline``); loops over selections, a hook
run from its start, a card's opening are compiled the same way (``run_code``...).
``closures_only`` compiles to the closures alone: the reference the tests compare with.

The modules, each importing only those above it:

- ``program``: what compiling makes (``Program``, ``ChooseSpec``, the opcodes) and the
  ``Names`` an effect may use;
- ``pycode``: closures written out as Python text (``finish``, ``closures_only``);
- ``inline``: the vocabulary's one-line functions written into that text (``_inline``);
- ``closures``: what compiled expressions call as they run (aggregates, budgets, guards);
- ``selections``: loops over selections compiled as Python text;
- ``blocks``: a hook run from its start, a card's opening (``run_code``, ``opening_code``);
- ``expressions``: ``ExpressionCompiler``, the checks and code of expressions;
- ``statements``: ``Compiler``, the checks and instructions of statements and verbs.
"""
