"""The game engine: plain-data state, decisions and answers, the base turn flow.

It knows nothing about files or terminals: a game is built from a compiled rule set
(``compiled.compile_rules``), a board topology and a layout; ``ckdsl.session`` does the
loading.
"""

from ckdsl.engine.compiled import CompiledRules, compile_rules
from ckdsl.engine.decisions import Decision, IllegalAnswer, Option
from ckdsl.engine.game import Game

__all__ = ["CompiledRules", "Decision", "Game", "IllegalAnswer", "Option", "compile_rules"]
