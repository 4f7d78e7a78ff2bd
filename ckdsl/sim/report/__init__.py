"""Show a :class:`~ckdsl.sim.compare.analysis.ComparisonReport`: a terminal table, plots, one
HTML file.

- ``terminal``: :func:`print_report`, the headline table of each variant against the base
  (A, B, Δ with its interval, p, Holm-adjusted p, significant), the seat-balance tests, the
  pairing gain, the verdicts and any warnings, with rich, on stdout.
- ``plots``: :func:`figures` / :func:`write_plots`, the figures (matplotlib, Agg backend):
  win rate by seat with error bars, game-length distributions, victory-point trajectories,
  barbarian outcomes; each with a caption saying how to read it. ``write_plots`` saves each
  as PNG and SVG, with ``captions.txt``.
- ``page``: :func:`render_html` / :func:`write_html`, one self-contained HTML file (inline
  CSS, the figures as base64 PNG, no script and no external reference) with a header that
  states the design (rules hashes, engine version, bots and versions, seeds, rotations,
  games, stopping rule), the verdicts, the headline tables, the figures, each rule set's
  metrics, the exploratory differences and the methods.
- ``cells``: what the terminal and the page both show (p-values, differences, the design in
  one line).

Matplotlib and rich are imported inside the functions that use them.
"""
