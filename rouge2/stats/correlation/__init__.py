"""Meta-evaluation statistics: how well metric scores agree with human judgments.

Meta-evaluation asks how well a metric agrees with human judgments, and
whether variant A agrees better than variant B.  This package answers both,
following Deutsch, Dror and Roth (2021), "A Statistical Analysis of
Summarization Evaluation Metrics Using Resampling Methods" (TACL 9), and the
pairwise accuracies of WMT23/24.  Definitions, with formulas, are in
``docs/meta-evaluation.md``; in short:

* :mod:`.coefficients`: :func:`pearson`, :func:`spearman` (average ranks for
  ties) and :func:`kendall_tau_b`, equal to ``scipy.stats.pearsonr``,
  ``spearmanr`` and ``kendalltau`` (variant ``'b'``); ``nan`` when undefined;
* :mod:`.accuracy` and :mod:`.soft`: pairwise accuracy, tie-calibrated
  pairwise accuracy and soft pairwise accuracy;
* :mod:`.tables`: score tables and their alignment; :mod:`.levels`: the
  ``system``, ``summary`` and ``global`` levels (:data:`LEVELS`);
* :mod:`.draws` and :mod:`.resampling`: the bootstrap and permutation draws
  and distributions (C kernels when built, the same numbers);
* :mod:`.results`: :func:`correlation` (any statistics of
  :data:`STATISTICS` at one level, with bootstrap percentile intervals) and
  :func:`compare` (is metric A's correlation higher than metric B's? a
  permutation test or the Williams test, plus a paired bootstrap interval).

Everything random comes from ``random.Random(seed)`` through
``Random.random()`` alone, whose sequence Python keeps stable across
versions, so a seed gives the same numbers everywhere.
"""

from __future__ import annotations

from rouge2.stats.correlation import accuracy as _accuracy  # noqa: F401  (registers its statistics)
from rouge2.stats.correlation import soft as _soft  # noqa: F401  (registers its statistic)
from rouge2.stats.correlation.coefficients import (
    COEFFICIENTS,
    kendall_tau_b,
    pearson,
    rankdata,
    spearman,
)
from rouge2.stats.correlation.draws import bootstrap_draws, permutation_draws
from rouge2.stats.correlation.resampling import (
    SCORE_TOLERANCE,
    bootstrap_samples,
    paired_bootstrap_samples,
    permutation_samples,
)
from rouge2.stats.correlation.results import (
    TESTS,
    TIE_TOLERANCE,
    ComparisonResult,
    CorrelationResult,
    Difference,
    Estimate,
    compare,
    correlate,
    correlation,
    percentile,
)
from rouge2.stats.correlation.statistics import DEFAULT_STATISTICS, STATISTICS, Statistic
from rouge2.stats.correlation.tables import ALTERNATIVES, LEVELS, SCHEMES, ScoreTable
from rouge2.stats.correlation.williams import williams

__all__ = [
    "ALTERNATIVES",
    "COEFFICIENTS",
    "DEFAULT_STATISTICS",
    "LEVELS",
    "SCHEMES",
    "SCORE_TOLERANCE",
    "STATISTICS",
    "TESTS",
    "TIE_TOLERANCE",
    "ComparisonResult",
    "CorrelationResult",
    "Difference",
    "Estimate",
    "ScoreTable",
    "Statistic",
    "bootstrap_draws",
    "bootstrap_samples",
    "compare",
    "correlate",
    "correlation",
    "kendall_tau_b",
    "paired_bootstrap_samples",
    "pearson",
    "percentile",
    "permutation_draws",
    "permutation_samples",
    "rankdata",
    "spearman",
    "williams",
]
