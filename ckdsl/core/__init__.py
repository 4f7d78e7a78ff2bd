"""The board core: the state (plain data) and the primitives the DSL's words call.

Each rule system's board-level part (building, knights, improvements, progress cards,
trade, production, the barbarians) is a module of its own, over ``state``, the decisions
and tasks a game queues, and the rule set compiled for play (``compiled``). It imports
nothing above it: the DSL (``ckdsl.dsl``) calls it, and the turn machine
(``ckdsl.turn``, where ``ckdsl.turn.game.Game`` is the entry point) runs the DSL.
Nothing is imported here, so that the DSL's vocabulary may use the small modules
(``compiled``, ``state``) without loading the rest.
"""
