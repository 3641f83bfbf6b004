"""Precision, recall and F from sufficient statistics: the one place they are computed.

Every door (the API, ``rouge2 score``, ``rouge2 run``, ``rouge2 rouge155``)
turns a measure's :class:`~rouge2.measures.base.PairStats` into P, R and F
through this module.  The batch path's bulk version, :func:`scores_many`,
has a C fast path (``rouge2.kernels.prf_many``, numbers in and numbers out,
the same arithmetic as :func:`finish` and the multi-reference modes of
:mod:`rouge2.stats.combine`); this module is its only caller.

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

from collections.abc import Sequence
from typing import Any, NamedTuple

from rouge2 import kernels
from rouge2.measures.base import Measure, PairStats
from rouge2.measures.lcs import WLCS
from rouge2.measures.ngram import NGram
from rouge2.measures.skipgram import SkipBigram
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


#: the ``-f B`` ranking a kernel reproduces: recall, recall as "%.5f", ROUGE-W's
KEY_RECALL, KEY_RECALL5, KEY_WLCS = range(3)


def kernel_prf_spec(measure: Measure) -> tuple[float, int] | None:
    """``(weight, key kind)`` when ``measure``'s P, R and ``-f B`` key are
    the plain ratios (weight 0.0) or ROUGE-W's f⁻¹ of them, as the bulk
    kernel computes them; None for any other measure (a subclass that
    redefines them)."""
    t = type(measure)
    if isinstance(measure, WLCS) and t.recall is WLCS.recall and t.precision is WLCS.precision \
            and t.key_from is WLCS.key_from:
        return float(measure.weight), KEY_WLCS
    if measure.plain_ratios and t.key_from is Measure.key_from:
        if t.best_key is Measure.best_key:
            return 0.0, KEY_RECALL
        if t.best_key in (NGram.best_key, SkipBigram.best_key):
            return 0.0, KEY_RECALL5
    return None


def prf_values(measures: Sequence[Measure], stats: Any, ref_starts: Any, mode_code: int, alpha: float,
               rounding: str) -> bytes | None:
    """P, R and F of every pair and measure from a batch statistics array, in
    bulk in C: float64 bytes, ``(P, R, F)`` at ``(p * M + k) * 3``
    (``mode_code``: the multi-reference mode's kernel code, see
    :mod:`rouge2.stats.combine`).  None when the C kernels are not built or a
    measure's P/R are not the kernel's (the caller then combines pair by
    pair with :func:`finish`)."""
    if kernels.prf_many is None:
        return None
    specs = [kernel_prf_spec(m) for m in measures]
    known = [s for s in specs if s is not None]
    if len(known) != len(specs):
        return None
    values: bytes = kernels.prf_many(stats, ref_starts, [w for w, _ in known], [k for _, k in known],
                                     mode_code, float(alpha), rounding == "rouge155")
    return values


def scores_many(measures: Sequence[Measure], names: Sequence[str], stats: Any, ref_starts: Any,
                mode_code: int, alpha: float, rounding: str) -> list[dict[str, Score]] | None:
    """Per pair ``{name: Score}`` from a batch statistics array, in bulk in C
    (:func:`prf_values` packed into :class:`Score` objects); None as there."""
    if kernels.records is None:
        return None
    values = prf_values(measures, stats, ref_starts, mode_code, alpha, rounding)
    if values is None:
        return None
    out: list[dict[str, Score]] = kernels.records(values, tuple(names), Score)
    return out
