"""Scores and bootstrap aggregation, as ``rouge_score.scoring`` (0.1.2) has them.

``Score``, ``AggregateScore``, ``BaseScorer`` and ``fmeasure`` behave as
rouge-score's.  :class:`BootstrapAggregator` computes what rouge-score's
computes, with one addition: a ``seed`` (default 0), so the same scores
always give the same intervals.

What the aggregator computes (read from rouge-score's source, and checked
against it in tests/test_compat_rouge_score.py): for each score type, the
added scores form an ``n x 3`` matrix (precision, recall, F).  It draws
``n_samples`` bootstrap samples of ``n`` rows with replacement
(``RandomState.choice(arange(n), size=n)``), takes the column means of each,
and reports the ``(1 - confidence_interval) / 2``, 50th and
``1 - (1 - confidence_interval) / 2`` percentiles of those means (numpy's
default linear interpolation) as ``low``, ``mid`` and ``high``.

So ``mid`` is the *median of the bootstrap means*, not the plain mean of the
scores (rouge-score's docstring says "mean"; it is within bootstrap noise of
it, and equal to it when all scores are equal).

With ``seed=s`` the draws come from ``numpy.random.RandomState(s)``, a fresh
one at each :meth:`BootstrapAggregator.aggregate`, going through the score
types in the order they were first added.  That is exactly the sequence
rouge-score draws from numpy's global generator, so its numbers after
``numpy.random.seed(s)`` equal this class's with ``seed=s``.
``seed=None`` uses numpy's global generator, as rouge-score does (not
reproducible unless the caller seeds it).
"""

from __future__ import annotations

import collections
import operator

from rouge2.compat.errors import CompatValueError, MissingDependency
from rouge2.compat.rouge_score._scores import AggregateScore, BaseScorer, Score, fmeasure

try:
    import numpy as np
except ImportError:  # at import, not after a long scoring run: one line saying what to install
    raise MissingDependency("rouge2.compat needs numpy for its BootstrapAggregator, as rouge-score and "
                            "Hugging Face evaluate do: pip install 'rouge2[compat]'") from None

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]


def _as_int(value):
    """``value`` as an int if it is an integer (numpy ints too, not bools), else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


class BootstrapAggregator:
    """Collects per-pair scores and gives bootstrap intervals of their mean.

    ``confidence_interval`` in [0, 1], ``n_samples`` > 0 bootstrap samples,
    ``seed`` an int for reproducible intervals (default 0) or None for
    numpy's global generator (rouge-score's behaviour).
    """

    def __init__(self, confidence_interval=0.95, n_samples=1000, seed=0):
        if not 0 <= confidence_interval <= 1:
            raise CompatValueError(
                f"confidence_interval must be in range [0, 1], got {confidence_interval!r}"
            )
        count = _as_int(n_samples)
        if count is None or count <= 0:
            raise CompatValueError(f"n_samples must be a positive int, got {n_samples!r}")
        if seed is not None:
            seed_int = _as_int(seed)
            if seed_int is None or not 0 <= seed_int < 2**32:
                raise CompatValueError(f"seed must be an int in [0, 2**32) or None, got {seed!r}")
            seed = seed_int
        self._n_samples = count
        self._confidence_interval = confidence_interval
        self._seed = seed
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores) -> None:
        """Add one pair's scores: a dict from score type to ``Score``."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict:
        """``{score type: AggregateScore(low, mid, high)}`` over the added scores."""
        rng = np.random if self._seed is None else np.random.RandomState(self._seed)
        result = {}
        for score_type, scores in self._scores.items():
            matrix = np.vstack(tuple(scores))
            bounds = self._percentiles(rng, matrix)
            make = type(scores[0])
            low, mid, high = (make(*bounds[j, :]) for j in range(3))
            result[score_type] = AggregateScore(low=low, mid=mid, high=high)
        return result

    def _percentiles(self, rng, matrix):
        """(3, measures) array: the low, mid and high percentiles of the bootstrap means."""
        rows = matrix.shape[0]
        means = np.zeros((self._n_samples, matrix.shape[1]))
        population = np.arange(rows)
        for i in range(self._n_samples):
            drawn = rng.choice(population, size=rows)
            means[i, :] = np.mean(matrix[drawn, :], axis=0)
        tail = (1 - self._confidence_interval) / 2
        q = 100 * np.array([tail, 0.5, 1 - tail])
        return np.percentile(means, q, axis=0)
