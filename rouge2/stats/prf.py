"""Precision, recall and F from sufficient statistics: the one place they are computed.

Every door (the API, ``rouge2 score``, ``rouge2 run``, ``rouge2 rouge155``)
turns a measure's :class:`~rouge2.measures.base.PairStats` into P, R and F
through this module.
"""

from __future__ import annotations

from typing import NamedTuple

from rouge2.measures.base import Measure, PairStats


class Score(NamedTuple):
    """Precision, recall and F-measure of one measure (unrounded floats)."""

    precision: float
    recall: float
    fmeasure: float


ZERO_SCORE = Score(0.0, 0.0, 0.0)


def fmeasure(precision: float, recall: float, alpha: float = 0.5) -> float:
    """ROUGE-1.5.5's F = P·R / ((1-α)·P + α·R); 0 when undefined.

    α = 0.5 is the harmonic mean; α = 1/(1+β²) gives the usual F-β.
    """
    denom = (1.0 - alpha) * precision + alpha * recall
    if denom > 0:
        return precision * recall / denom
    return 0.0


def score_from_stats(measure: Measure, s: PairStats, alpha: float = 0.5) -> Score:
    p = measure.precision(s)
    r = measure.recall(s)
    return Score(p, r, fmeasure(p, r, alpha))
