"""Precision, recall and F from sufficient statistics: the one place they are computed.

Every door (the API, ``rouge2 score``, ``rouge2 run``, ``rouge2 rouge155``)
turns a measure's :class:`~rouge2.measures.base.PairStats` into P, R and F
through this module.

F is ROUGE-1.5.5's ``F = P·R / ((1-α)·P + α·R)`` (0 when undefined);
α = 0.5 is the harmonic mean and α = 1/(1+β²) the usual F-β.

Rounding (the ``rounding`` option):

``none``
    P, R and F as computed (the default).
``rouge155``
    what ROUGE-1.5.5 prints and averages for each evaluation: R and P
    rounded to 5 decimals (``%7.5f``), F computed from the rounded values
    and rounded again.  Published 1.5.5 numbers are reproduced only this way.
"""

from __future__ import annotations

from typing import NamedTuple

from rouge2.measures.base import Measure, PairStats
from rouge2.registry import Registry


class Score(NamedTuple):
    """Precision, recall and F-measure of one measure."""

    precision: float
    recall: float
    fmeasure: float


ZERO_SCORE = Score(0.0, 0.0, 0.0)


def fmeasure(precision: float, recall: float, alpha: float = 0.5) -> float:
    """ROUGE-1.5.5's F = P·R / ((1-α)·P + α·R); 0 when undefined."""
    denom = (1.0 - alpha) * precision + alpha * recall
    if denom > 0:
        return precision * recall / denom
    return 0.0


def round5(x: float) -> float:
    """``sprintf("%7.5f", x)`` read back as a number, as the script does."""
    return float("%.5f" % x)


ROUNDING: Registry[str] = Registry("rounding")
ROUNDING.add("none", "none", "P, R and F as computed", aliases=("false", "no", "off"))
ROUNDING.add("rouge155", "rouge155",
             "ROUGE-1.5.5's per-evaluation rounding: R and P to 5 decimals, F from them",
             aliases=("rouge-1.5.5", "script"))


def finish(precision: float, recall: float, alpha: float = 0.5, rounding: str = "none") -> Score:
    """The :class:`Score` of ``precision`` and ``recall`` under ``rounding``."""
    if rounding == "rouge155":
        p, r = round5(precision), round5(recall)
        return Score(p, r, round5(fmeasure(p, r, alpha)))
    return Score(precision, recall, fmeasure(precision, recall, alpha))


def score_from_stats(measure: Measure, s: PairStats, alpha: float = 0.5,
                     rounding: str = "none") -> Score:
    """P, R and F of one measure's statistics."""
    return finish(measure.precision(s), measure.recall(s), alpha, rounding)
