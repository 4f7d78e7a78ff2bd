"""``python -m ckdsl`` runs the command line."""

try:
    from ckdsl.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line loads: no traceback
    raise SystemExit(130) from None

main()
