"""The vocabulary of the effect DSL: every verb and function cards, abilities and the
rule set's hooks use, with its typed signature, a one-line doc, and the Python that
carries it out against the board core (the registry is ``ckdsl.dsl.base.registry``).

A new verb is one decorated function in one of its modules. Implementations receive an
``Env`` (the game, the player ``me``, the effect's variables) and plain values.

Its modules, by what the words are about: ``turn`` (the turn's hooks: the phases, the
dice, the barbarians), ``players``, ``board``, ``goods``, ``aggregates`` (the functions)
and ``verbs``. Importing this package registers them all, in this order (the order
``ckdsl vocabulary`` lists them in).
"""

# isort: off
from ckdsl.dsl.vocabulary import turn, players, board, goods, aggregates, verbs  # noqa: F401
# isort: on
