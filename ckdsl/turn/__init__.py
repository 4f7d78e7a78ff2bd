"""The turn machine: a game's decisions, run on the compiled rule set.

``ckdsl.turn.game.Game`` is the entry point: the setup, the turn (``turn``), the
progress cards played (``cards``), the actions of the main phase (``actions``), the
notation of answers (``notation``) and why an answer is refused (``refusals``,
``refused_moves``). It runs the rule set's effects through the DSL (``ckdsl.dsl``) over
the board core (``ckdsl.core``). Nothing is imported here.
"""
