"""The effect DSL: grammar (grammars/effects.lark), parser, vocabulary, compiler, runtime.

A card's effect is text in the rule set; ``program.check_rules`` reports its faults at
``file:line:col`` when a rule set is validated, ``program.compile_programs`` compiles every
effect once per rule set, and ``runtime`` runs them inside a game through the same
decision path as every other move.
"""
