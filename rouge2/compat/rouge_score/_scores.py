"""rouge-score's result types and F-measure, without numpy.

:mod:`rouge2.compat.rouge_score.scoring` re-exports them beside its
``BootstrapAggregator`` (which needs numpy); the scorer imports them from
here, so scoring pairs never loads numpy.
"""

from __future__ import annotations

import abc
import collections

__all__ = ["AggregateScore", "BaseScorer", "Score", "fmeasure"]


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F-measure of one pair."""


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Bootstrap interval of a score: ``low``, ``mid`` (median) and ``high``."""


class BaseScorer(abc.ABC):
    """What a scorer provides: ``score(target, prediction) -> {type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """Scores of ``prediction`` against ``target``, by score type."""


def fmeasure(precision, recall):
    """Balanced F-measure, written as rouge-score evaluates it (same float)."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
