"""The game engine: state (plain data), decisions, and the turn flow of the rule set.

``ckdsl.engine.game.Game`` is the entry point; each rule system (the turn, building,
knights, improvements, progress cards, trade, the barbarians) is a module of its own.
Nothing is imported here, so that the DSL's vocabulary may use the engine's small modules
(``compiled``, ``state``) without loading the whole game.
"""
