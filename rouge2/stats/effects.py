"""What a variant changed against a baseline: the rows of ``variant_effects.csv``.

For one measure and score, over the summaries both variants scored
(``b_i`` the baseline's score of summary i, ``v_i`` the variant's):

* ``baseline_mean``, ``variant_mean``: the means of ``b`` and ``v``;
  ``delta`` = ``variant_mean - baseline_mean``;
* ``ci_low``, ``ci_high``: the percentile bootstrap interval of the mean of
  the differences ``d_i = v_i - b_i`` (summaries resampled with
  replacement, ``resamples`` times, from ``random.Random(f"{seed}|{label}")``);
* ``p_value``: the paired bootstrap test of "mean d = 0" on the same draws:
  ``(1 + #{|mean_r - mean d| >= |mean d|}) / (1 + resamples)`` (1 with
  fewer than two summaries);
* ``changed_share``: the share of summaries with ``v_i != b_i``;
* ``rank_tau``: Kendall's tau-b between the two system rankings (the
  system means of the score), as ``scipy.stats.kendalltau``.

Definitions with an example: docs/synonym-experiments.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rouge2.stats.bootstrap import mean, percentile
from rouge2.stats.correlation import kendall_tau_b
from rouge2.stats.resample import bootstrap_sums

__all__ = ["CORRELATION_COLUMNS", "DRILLDOWN_COLUMNS", "EFFECT_COLUMNS", "effect_table", "rank_tau",
           "score_effect"]

#: the columns of ``variant_effects.csv`` (without the meta-evaluation's)
EFFECT_COLUMNS = ("variant", "baseline", "measure", "score", "baseline_mean", "variant_mean", "delta",
                  "ci_low", "ci_high", "p_value", "changed_share", "rank_tau")
#: the columns ``meta_evaluation:`` adds to ``variant_effects.csv``
CORRELATION_COLUMNS = ("level", "dimension", "coefficient", "baseline_correlation", "variant_correlation",
                       "correlation_delta", "correlation_ci_low", "correlation_ci_high", "correlation_p_value")
#: the columns of ``variant_drilldown.csv``
DRILLDOWN_COLUMNS = ("variant", "baseline", "measure", "score", "task", "system", "baseline_value",
                     "variant_value", "delta", "variant_matches", "baseline_matches")


def score_effect(baseline: Sequence[float], variant: Sequence[float], *, resamples: int,
                 confidence: float, seed: int, label: str) -> dict[str, Any]:
    """``baseline_mean`` ... ``changed_share`` of two aligned lists of per-summary scores."""
    if len(baseline) != len(variant):
        raise ValueError("score_effect: the two lists must be aligned (one score per summary each)")
    n = len(baseline)
    b_mean, v_mean = mean(baseline), mean(variant)
    diffs = [v - b for b, v in zip(baseline, variant)]
    out: dict[str, Any] = {"baseline_mean": b_mean, "variant_mean": v_mean, "delta": v_mean - b_mean,
                           "ci_low": None, "ci_high": None, "p_value": 1.0,
                           "changed_share": (sum(1 for d in diffs if d != 0) / n) if n else 0.0,
                           "summaries": n}
    if n < 2 or resamples < 1:
        return out
    observed = mean(diffs)
    means = sorted(s / n for s in bootstrap_sums(diffs, resamples, random.Random(f"{seed}|{label}")))
    tail = (1.0 - confidence) / 2.0
    hits = sum(1 for m in means if abs(m - observed) >= abs(observed) - 1e-12)
    out.update(ci_low=percentile(means, tail), ci_high=percentile(means, 1.0 - tail),
               p_value=(hits + 1) / (resamples + 1))
    return out


def rank_tau(baseline: Mapping[str, float], variant: Mapping[str, float]) -> float | None:
    """Kendall's tau-b between two system rankings (system -> mean score),
    over the systems both have; None when undefined (fewer than two
    systems, or one side all tied)."""
    common = sorted(set(baseline) & set(variant))
    if len(common) < 2:
        return None
    tau = kendall_tau_b([baseline[s] for s in common], [variant[s] for s in common])
    return None if math.isnan(tau) else tau


def effect_table(effects: list[dict[str, Any]], correlations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of ``variant_effects.csv``: each effect row, repeated per
    correlation change of its (variant, baseline, measure, score) when there
    are any (with ``meta_evaluation:``)."""
    by_key: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for c in correlations:
        by_key.setdefault((c["variant"], c["baseline"], c["measure"], c["score"]), []).append(c)
    out = []
    for e in effects:
        base = {k: e[k] for k in EFFECT_COLUMNS}
        extra = by_key.get((e["variant"], e["baseline"], e["measure"], e["score"]))
        if correlations and not extra:
            out.append({**base, **dict.fromkeys(CORRELATION_COLUMNS)})
        for c in extra or ():
            out.append({**base, **{k: c[k] for k in CORRELATION_COLUMNS}})
        if not correlations:
            out.append(base)
    return out
