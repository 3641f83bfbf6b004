"""Combine per-reference statistics into one score, and F-measure settings.

Multi-reference modes (named explicitly, because tools disagree silently):

``pooled``   ROUGE-1.5.5 ``-f A``: add hits and unit counts over all
             references, then divide (the default).
``best``     ROUGE-1.5.5 ``-f B``: the reference with the best recall (as the
             script ranks it); the first one wins a tie.
``average``  the Java ROUGE 2.0 tool: recall and precision averaged over the
             references, F from the averages.
``max-f``    rouge-score and MATLAB: the reference giving the highest F.
"""

from __future__ import annotations

from typing import Sequence

from rouge2.errors import UserError
from rouge2.measures.base import Measure, PairStats
from rouge2.stats.prf import ZERO_SCORE, Score, fmeasure, score_from_stats

MULTI_REFERENCE_MODES = ("pooled", "best", "average", "max-f")
_ALIASES = {"a": "pooled", "b": "best", "avg": "average", "mean": "average", "max_f": "max-f", "maxf": "max-f"}


def normalize_mode(mode: str) -> str:
    key = str(mode).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in MULTI_REFERENCE_MODES:
        raise UserError(
            f"unknown multi_reference mode {mode!r}: use one of {', '.join(MULTI_REFERENCE_MODES)}"
        )
    return key


def resolve_alpha(alpha: float | None = None, beta: float | None = None) -> float:
    """α for F = PR/((1-α)P + αR); β (F-β, as the Java tool takes it) maps to 1/(1+β²)."""
    if alpha is not None and beta is not None:
        raise UserError("give alpha or beta, not both")
    if beta is not None:
        beta = float(beta)
        if beta < 0:
            raise UserError(f"beta must be 0 or more, got {beta}")
        return 1.0 / (1.0 + beta * beta)
    if alpha is None:
        return 0.5
    alpha = float(alpha)
    if not 0.0 <= alpha <= 1.0:
        raise UserError(f"alpha must be between 0 and 1, got {alpha}")
    return alpha


def pick_best(keys: Sequence[float]) -> int:
    """Index of the first maximum, as the script's strict ``>`` from -1 picks it."""
    best = -1.0
    index = 0
    for i, k in enumerate(keys):
        if k > best:
            best = k
            index = i
    return index


def combine(
    measure: Measure,
    per_ref: Sequence[PairStats],
    mode: str = "pooled",
    alpha: float = 0.5,
    keys: Sequence[float] | None = None,
) -> Score:
    """One score from a candidate's statistics against each of its references."""
    if not per_ref:
        return ZERO_SCORE
    if mode == "pooled":
        total = per_ref[0]
        for s in per_ref[1:]:
            total = total + s
        return score_from_stats(measure, total, alpha)
    if mode == "best":
        if keys is None:
            keys = [measure.best_key(s) for s in per_ref]
        return score_from_stats(measure, per_ref[pick_best(keys)], alpha)
    scores = [score_from_stats(measure, s, alpha) for s in per_ref]
    if mode == "average":
        p = sum(s.precision for s in scores) / len(scores)
        r = sum(s.recall for s in scores) / len(scores)
        return Score(p, r, fmeasure(p, r, alpha))
    if mode == "max-f":
        best = 0
        for i, s in enumerate(scores):
            if s.fmeasure > scores[best].fmeasure:
                best = i
        return scores[best]
    raise UserError(f"unknown multi_reference mode {mode!r}")
