"""From per-pair scores to system scores: means, bootstrap intervals, paired tests.

A system's score for a measure is the mean over its tasks of the per-pair
recall, precision and F (as ROUGE-1.5.5 averages its per-evaluation scores
with ``-t 0``).  Intervals resample tasks with replacement (percentile
bootstrap, paired: each resample is one multiset of tasks shared by every
measure and score, docs/statistics.md); comparisons are paired over the
tasks both systems have.

Every random stream is seeded from the run's seed and a label naming what is
resampled (the intervals: ``"<seed>|bootstrap"``, the same resampled tasks
for every system, variant and measure; a test: ``"<seed>|<label>"``), so a
number never depends on what else the run computed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rouge2.stats.bootstrap import mean, paired_intervals
from rouge2.stats.correlation import kendall_tau_b, spearman
from rouge2.stats.prf import Score
from rouge2.stats.significance import holm, paired_test

STAT_NAMES = ("recall", "precision", "fmeasure")
#: bootstrap defaults of every door (API, CLI, YAML)
DEFAULT_RESAMPLES = 1000
DEFAULT_CONFIDENCE = 0.95


def bootstrap_rng(seed: int) -> random.Random:
    """The paired bootstrap's random stream: one per seed, whatever the
    system, variant or measure (the same resampled tasks for all of them)."""
    return random.Random(f"{seed}|bootstrap")


def summarize(scores: Mapping[str, Sequence[Score]], *, resamples: int | None = None,
              confidence: float = 0.95, seed: int = 0) -> dict[str, dict[str, Any]]:
    """Per measure, the mean recall, precision and F of its ``scores`` (one per
    task, aligned across measures), with intervals when ``resamples`` is
    given (:func:`summarize_columns`)."""
    columns = {m: {"recall": [s.recall for s in per], "precision": [s.precision for s in per],
                   "fmeasure": [s.fmeasure for s in per]} for m, per in scores.items()}
    return summarize_columns(columns, resamples=resamples, confidence=confidence, seed=seed)


def summarize_columns(columns: Mapping[str, Mapping[str, Sequence[float]]], *, resamples: int | None = None,
                      confidence: float = 0.95, seed: int = 0,
                      tick: Callable[[int], object] | None = None) -> dict[str, dict[str, Any]]:
    """:func:`summarize` of each measure's ``recall``, ``precision`` and
    ``fmeasure`` given as columns (lists, or ``array('d')`` as a streamed
    corpus keeps them), aligned by task.  The intervals of every column come
    from one paired bootstrap (:func:`rouge2.stats.bootstrap.paired_intervals`
    seeded by :func:`bootstrap_rng`); ``tick(k)`` as ``k`` resamples are done."""
    out: dict[str, dict[str, Any]] = {}
    for m, cols in columns.items():
        entry: dict[str, Any] = {name: mean(values) for name, values in cols.items()}
        entry["tasks"] = len(cols["recall"])
        out[m] = entry
    if resamples:
        keys = [(m, name) for m, cols in columns.items() for name in cols]
        intervals = paired_intervals([columns[m][name] for m, name in keys], resamples, confidence,
                                     bootstrap_rng(seed), tick)
        for (m, name), ci in zip(keys, intervals):
            out[m].setdefault("ci", {})[name] = list(ci)
    return out


def compare(a: Sequence[Score], b: Sequence[Score], *, test: str, resamples: int, seed: int,
            label: str, score: str = "fmeasure") -> dict[str, Any]:
    """A paired test of mean ``score`` over aligned per-task scores ``a`` and ``b``
    (p = 1 with fewer than two pairs)."""
    return compare_values([getattr(s, score) for s in a], [getattr(s, score) for s in b], test=test,
                          resamples=resamples, seed=seed, label=label, score=score)


def compare_values(va: Sequence[float], vb: Sequence[float], *, test: str, resamples: int, seed: int,
                   label: str, score: str) -> dict[str, Any]:
    """A paired test of the means of aligned per-task values ``va`` and ``vb``
    (``score`` names what they are: recall, precision, fmeasure, coverage)."""
    if len(va) < 2:
        # One paired value is no evidence: every bootstrap resample equals it
        # (the test would report its smallest p) and a swap only flips its sign.
        p = 1.0
    else:
        rng = random.Random(f"{seed}|{label}")
        p = paired_test(va, vb, test, resamples, rng)
    return {
        "score": score, "mean_a": mean(va), "mean_b": mean(vb),
        "difference": mean(va) - mean(vb), "p_value": p, "test": test,
        "tasks": len(va), "resamples": resamples, "seed": seed,
    }


def adjust(comparisons: list[dict[str, Any]], family: Sequence[str] = ("measure", "score")) -> list[dict[str, Any]]:
    """Add ``p_adjusted`` (Holm-Bonferroni) to each comparison, over the
    comparisons that agree on the ``family`` keys (by default the pairs of
    systems tested on one measure and score); ``correction`` says so."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, c in enumerate(comparisons):
        groups.setdefault(tuple(c.get(k) for k in family), []).append(i)
    for members in groups.values():
        for i, p in zip(members, holm([comparisons[i]["p_value"] for i in members])):
            comparisons[i]["p_adjusted"] = p
            comparisons[i]["correction"] = "holm"
            comparisons[i]["family_size"] = len(members)
    return comparisons


def all_pairs(systems: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pair of ``systems``, in their order."""
    return [(a, b) for i, a in enumerate(systems) for b in systems[i + 1:]]


def by_system(pairs: Mapping[tuple[str, str], Mapping[str, Score]]) -> dict[str, list[str]]:
    """System -> its tasks (sorted), from ``(task, system) -> scores``."""
    out: dict[str, list[str]] = {}
    for task, system in pairs:
        out.setdefault(system, []).append(task)
    return {s: sorted(t) for s, t in sorted(out.items())}


def ranking(systems: Mapping[str, Mapping[str, Mapping[str, Any]]], measure: str,
            score: str = "fmeasure") -> list[str]:
    """Systems by decreasing mean ``score`` of ``measure`` (ties by name)."""
    return sorted(systems, key=lambda s: (-systems[s][measure][score], s))


def ranking_agreement(a: Mapping[str, Mapping[str, Mapping[str, Any]]],
                      b: Mapping[str, Mapping[str, Mapping[str, Any]]], measure: str,
                      score: str = "fmeasure") -> dict[str, Any]:
    """How far two variants rank the systems alike: Kendall tau-b and Spearman of
    their system means of ``measure`` (over the systems both have)."""
    common = sorted(set(a) & set(b))
    x = [a[s][measure][score] for s in common]
    y = [b[s][measure][score] for s in common]
    return {"systems": len(common), "kendall": kendall_tau_b(x, y), "spearman": spearman(x, y),
            "same_order": ranking({s: a[s] for s in common}, measure, score)
            == ranking({s: b[s] for s in common}, measure, score)}
