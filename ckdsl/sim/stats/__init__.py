"""Statistics for comparing a rule set A (the base) with a variant B on paired seeds.

Every function here is pure and deterministic (the bootstrap takes an explicit seed), returns a
small frozen dataclass, and each result has ``to_json()``: plain JSON data, floats rounded to 6
significant digits, NaN and infinities as ``None``. Differences are always **B − A**.

Which method for what, and why
------------------------------

==========================================  ===============================================
Question                                    Method
==========================================  ===============================================
one proportion (a seat's win rate,          Wilson score interval (:func:`wilson`)
completion, timeouts)
difference of two proportions from          Newcombe's hybrid score interval, "method 10"
independent games                           (:func:`diff_independent`)
difference of two proportions on the        Newcombe's paired "method 10" interval and the
same seeds, one 0/1 outcome per seed        McNemar test (:func:`diff_paired`)
mean of a continuous metric (turns,         t interval, or bootstrap BCa over seeds
VP margin, a per-seed win rate)             (:func:`mean_interval`)
its paired difference B − A                 paired t, or bootstrap BCa of the per-seed
                                            differences (:func:`diff_paired_mean`)
its difference on unpaired designs          Welch t, or a two-sample bootstrap
                                            (:func:`diff_independent_mean`)
was the pairing worth it?                   variance of the paired against the unpaired mean
                                            difference (:func:`pairing_gain`)
are the seats balanced?                     with one game per seed, χ² goodness of fit
                                            to equal shares (``balance.seat_balance``);
                                            with several, Hotelling's T² on the per-seed
                                            win shares (``seeds.seat_balance_by_seed``)
a proportion over games of several seeds    Wilson on the effective number of games
                                            (``seeds.clustered_wilson``)
does the variant change seat balance?       Hotelling's T² on the per-seed changes
                                            (``seeds.seat_change``)
"no change", power, sample size             TOST, minimum detectable effect, seeds needed
                                            (``planning``)
many metrics at once                        Holm (family-wise error) for the headline
                                            metrics, Benjamini–Hochberg (false discovery
                                            rate) for an exploratory panel (:func:`holm`,
                                            :func:`benjamini_hochberg`)
stop as soon as the answer is clear         fishtest's generalised SPRT on a bounded mean
                                            (:class:`Sprt`)
==========================================  ===============================================

- **Wilson, not Wald.** The Wald interval p ± z·√(p(1−p)/n) collapses to a point at 0 and 1
  and undercovers near them; Wilson's score interval (Wilson 1927) stays inside [0, 1] and
  keeps close to its nominal coverage (Newcombe 1998a, Stat Med 17:857). Clopper–Pearson is
  needlessly conservative for reports.
- **Newcombe's square-and-add intervals** combine the two Wilson intervals (Newcombe 1998b,
  Stat Med 17:873, method 10; Newcombe 1998c, Stat Med 17:2635, method 10 for paired data).
  They behave well at small counts and at 0 % and 100 %, where the Wald difference fails.
- **Pairing (common random numbers).** Playing each seed under A and B makes the outcomes
  positively correlated, and the variance of the paired difference is
  var(A) + var(B) − 2·cov(A, B): measurements on catanatron found 2× to 12× fewer games for
  the same precision. So a paired design must be analysed with paired methods (McNemar,
  Newcombe's paired interval, paired t); an independent-samples method throws the gain away.
  :func:`pairing_gain` reports how much was gained, as a diagnostic.
- **The unit of analysis is the seed, never the game.** Experiments play each seed in several
  seat rotations; the games of one seed share the board and the dice and are not independent.
  Reduce every metric to one number per seed first with :func:`block_means` (for example the
  share of the seed's rotations that seat 1 won), in the same block order for A and B, then
  compare with :func:`diff_paired_mean` or run the SPRT on the per-seed differences. Treating
  the games of a block as independent would understate every standard error.
  :func:`diff_paired` (binary, McNemar) is for designs with one 0/1 outcome per seed.
- **t and bootstrap.** With a few hundred seeds the t interval on per-seed values is close to
  its nominal coverage even for skewed metrics (central limit theorem). The bootstrap (BCa,
  Efron 1987, JASA 82:171, resampling whole seeds) makes no normality assumption: use it for
  strongly skewed metrics or as a check on the t interval (it too wants a few dozen seeds
  at least). BCa needs a spread in the data; on degenerate data (every value
  equal, for instance) it cannot be computed, and the percentile interval of the same
  bootstrap distribution is reported instead: ``method`` says which was used. The p-value
  always comes from the t-test (``test`` says which); scipy's bootstrap gives no p-value.
- **Seat balance.** The omnibus test of wins across seats comes before any claim about a
  single seat. With rotated seats the games of a seed are far from independent (the same
  seat wins most of a seed's rotations), so the test runs on per-seed win shares
  (``seeds``); the χ² over games is valid only with one game per seed.
- **Multiplicity.** In a report of twenty unchanged metrics, expect one "significant"
  difference at 5 % by chance alone. Holm (1979, Scand J Stat 6:65) controls the family-wise
  error and is never less powerful than Bonferroni; Benjamini–Hochberg (1995, JRSS B
  57:289) controls the false discovery rate, fit for screening many exploratory metrics.
- **Sequential testing.** Fishtest's generalised SPRT stops a run as soon as the
  log-likelihood ratio of H1 (mean = p1) against H0 (mean = p0) crosses ln(β/(1−α)) or
  ln((1−β)/α), with error rates close to α and β; it needs far fewer games than a fixed-size
  test when the true effect is far from the indifference zone [p0, p1].

The modules: ``results`` (:class:`~ckdsl.sim.stats.results.Interval`, JSON rounding), and
over it ``proportions``, ``means`` (with :func:`~ckdsl.sim.stats.means.block_means` and
:func:`~ckdsl.sim.stats.means.pairing_gain`), ``balance``, ``multiplicity`` and ``sprt``;
``seeds`` (seat statistics with the seed as the unit) and ``planning`` (equivalence, power).
"""
