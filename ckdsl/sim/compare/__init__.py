"""Compare a base rule set with its variants: pure functions over the results' DataFrames.

:func:`~ckdsl.sim.compare.analysis.compare` takes one DataFrame of games per rule set (as
``ckdsl.sim.store.read_results`` returns it: one row per game, keyed by ``(seed_index,
lineup, rotation)``) and returns a :class:`ComparisonReport`: a summary of each rule set
and, for each variant, its differences from the base with confidence intervals, tests and
corrections for multiplicity.

How the numbers are made
------------------------

- **Per-game values first.** Every metric becomes one number per game (:func:`game_table`);
  NaN where it is undefined for that game (the winner's points of an unfinished game, the
  turn a metropolis was first taken when nobody took it). Unfinished games are never
  dropped: a seat's win rate and the finished share count them in the denominator.
- **One rule set.** A proportion (a seat's win rate, the finished share, a metropolis
  taken) gets a Wilson interval on the effective number of games (the games over the design
  effect of their clustering in seeds, ``stats.seeds.clustered_wilson``); a mean (turns,
  attacks per game) gets a t (or bootstrap) interval over the **seeds**: the games of one
  seed (its seat rotations and line-ups) are reduced to their mean first, because they share
  the board and the dice. Seat balance is Hotelling's T² on the per-seed win shares
  (``stats.seeds``), the χ² over games kept beside it for reference.
- **Variant against base.** Games are matched on ``(seed_index, lineup, rotation)`` where
  both rule sets played the same game seed: that is the paired design (common random
  numbers). Each metric is reduced to one value per seed over the matched games
  (``stats.block_means``), then compared with the paired t (or bootstrap) interval of the
  per-seed differences (``stats.diff_paired_mean``). When each seed has a single game, a
  0/1 metric uses Newcombe's paired interval and McNemar's test (``stats.diff_paired``).
  Without matched games (different seeds) the comparison falls back to independent
  samples (Newcombe's hybrid score interval, Welch's t) and says so.
- **Does the variant change seat balance?** One test, Hotelling's T² on the per-seed
  changes of the seats' win shares (the variant × seat interaction, paired on seeds), rather
  than one collinear test per seat.
- **Many metrics.** The headline metrics (by default the seat-balance change, finished share,
  turns, winning margin, lead changes, decisiveness; ``headline`` chooses) form one family
  over all the variants, corrected with Holm's method; the exploratory panel (everything
  else, each seat's win rate included) is corrected with Benjamini–Hochberg. A difference is
  *significant* when its adjusted p-value is below 1 − level.
- **Planning and equivalence.** Each paired difference carries its minimum detectable
  effect at ``power``, and, given a margin, Schuirmann's TOST verdict (``stats.planning``).
- **Line-ups.** With several line-ups on the same seeds, each headline metric's line-up ×
  variant interaction, paired on seeds (``ckdsl.sim.compare.sensitivity``).
- **Pairing gain.** For game length, the first seat's win and the finished share, the
  variance of the paired difference against that of independent samples
  (``stats.pairing_gain``): how many times more seeds an unpaired design would need.

Everything is deterministic: rows are sorted by key before use, labels and metric names are
in a fixed order, the bootstrap takes ``seed``, and :meth:`ComparisonReport.to_json` has no
timestamps or timings (the optional ``run`` section, with the games' seconds, is left out
unless asked for).

The modules, each importing only those above it:

- ``specs``: what is measured (:func:`~ckdsl.sim.compare.specs.metric_specs`, the headline
  family, the readers of a results frame's cells);
- ``tables``: one value per game and metric (``game_table``), the pairing (``paired_blocks``);
- ``summaries``: one rule set's estimates (``summarize_ruleset``);
- ``differences``: a variant against the base, paired or independent;
- ``verdicts``: a difference in words (``format_delta``, ``verdict``);
- ``analysis``: :func:`~ckdsl.sim.compare.analysis.compare` and its ``ComparisonReport``.
"""
