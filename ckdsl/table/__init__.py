"""Human play: a person's seat at the terminal and the local web table.

Both are front ends only: every answer a person gives goes through ``Game.answer``, and a
seat is shown only what its player may see (``ckdsl.core.view``).
"""
