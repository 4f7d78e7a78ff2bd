"""``python -m ckdsl`` runs the command line."""

from ckdsl.cli import main

main()
