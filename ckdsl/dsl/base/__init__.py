"""What every part of the effect DSL shares: the syntax tree (``ast``), the types
(``types``), the registry of its words with their typed signatures (``registry``), and its
errors (``errors``: a fault a check finds, a word that fails as it runs). It imports
nothing else of the DSL: the parser makes the tree, the vocabulary registers its words
here, the compiler checks against them, the runtime runs them.
"""
