"""Meta-evaluation: how well do the scores agree with human judgments?

Joins per-summary scores (a run's rows, or ``per_summary.jsonl`` read by
:mod:`rouge2.io.results`) to human judgments (``Judgments``: one table per
dimension) by task and system, then for every (level, variant, measure,
score, dimension) computes the chosen statistics (Pearson, Spearman and
Kendall τ-b by default; any of :data:`rouge2.stats.correlation.STATISTICS`)
with bootstrap intervals, and for chosen pairs of metrics a paired test of
their difference (:mod:`rouge2.stats.correlation`, after Deutsch, Dror and
Roth 2021).

A *metric* is one score of one measure in one variant, written
``measure[/score][@variant]``: ``rouge-1`` (its F), ``rouge-1/recall``,
``rouge-1/recall@wordnet``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rouge2.errors import UserError
from rouge2.measures import canonical_measure
from rouge2.registry import suggest
from rouge2.stats.correlation import COEFFICIENTS, DEFAULT_STATISTICS, LEVELS, STATISTICS, CorrelationResult, compare
from rouge2.stats.correlation.results import correlation_many
from rouge2.stats.correlation.statistics import level_names, resolve

SCORES = ("recall", "precision", "fmeasure")


class Judgments(Protocol):
    """Human scores: ``scores[dimension][(system, task)]`` (see rouge2.io.judgments)."""

    source: str
    scores: dict[str, dict[tuple[str, str], float]]

    @property
    def dimensions(self) -> list[str]: ...

    def systems(self) -> set[str]: ...

    def tasks(self) -> set[str]: ...


@dataclass(frozen=True)
class Metric:
    """One score of one measure in one variant (``None``: a run without variants)."""

    measure: str
    score: str = "fmeasure"
    variant: str | None = None

    def __str__(self) -> str:
        return f"{self.measure}/{self.score}" + (f"@{self.variant}" if self.variant else "")

    @classmethod
    def parse(cls, text: str) -> Metric:
        """``measure[/score][@variant]``."""
        if not isinstance(text, str) or not text.strip():
            raise UserError(f"expected a metric such as rouge-1/recall@wordnet, got {text!r}")
        rest, _, variant = text.strip().partition("@")
        measure, _, score = rest.partition("/")
        score = score.strip().lower() or "fmeasure"
        if score not in SCORES:
            raise UserError(f"metric {text!r}: unknown score {score!r}{suggest(score, SCORES)}; "
                            f"use recall, precision or fmeasure")
        return cls(canonical_measure(measure), score, variant.strip() or None)


@dataclass(frozen=True)
class MetaSpec:
    """What to correlate and how (the ``meta_evaluation`` section, or ``rouge2 correlate``'s flags)."""

    judgments: Path | None = None
    dimensions: tuple[str, ...] | None = None       # None: every dimension of the file
    levels: tuple[str, ...] = ("system",)
    scores: tuple[str, ...] = SCORES
    measures: tuple[str, ...] | None = None         # None: every measure scored
    resampling: str = "both"
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 0
    compare: tuple[tuple[Metric, Metric], ...] = ()
    permutation: str = "both"
    statistics: tuple[str, ...] = DEFAULT_STATISTICS   # names in rouge2.stats.correlation.STATISTICS
    test: str = "permutation"                         # of the comparisons: permutation or williams


@dataclass
class Scores:
    """``tables[(variant, measure, score)][(system, task)] = value``."""

    tables: dict[tuple[str | None, str, str], dict[tuple[str, str], float]] = field(default_factory=dict)
    variants: list[str | None] = field(default_factory=list)
    measures: list[str] = field(default_factory=list)

    def add(self, variant: str | None, task: str, system: str, scores: dict[str, Any]) -> None:
        if variant not in self.variants:
            self.variants.append(variant)
        for m, s in scores.items():
            if m not in self.measures:
                self.measures.append(m)
            for stat in SCORES:
                value = s[stat] if isinstance(s, dict) else getattr(s, stat)
                self.tables.setdefault((variant, m, stat), {})[(system, task)] = float(value)

    def table(self, metric: Metric) -> dict[tuple[str, str], float]:
        got = self.tables.get((metric.variant, metric.measure, metric.score))
        if got is None:
            if metric.variant not in self.variants:
                shown = [v for v in self.variants if v]
                raise UserError(f"metric {metric}: no variant {metric.variant!r}"
                                f"{suggest(metric.variant or '', shown)}; variants: "
                                f"{', '.join(shown) or 'none (the run has no variants)'}")
            raise UserError(f"metric {metric}: the results have no measure {metric.measure!r}; "
                            f"measures: {', '.join(self.measures)}")
        return got

    def systems(self) -> set[str]:
        return {s for table in self.tables.values() for s, _ in table}

    def tasks(self) -> set[str]:
        return {t for table in self.tables.values() for _, t in table}


def check_overlap(scores: Scores, judgments: Judgments) -> None:
    """One-line errors when the judgments name systems the results do not have, or share no task."""
    systems = scores.systems()
    unknown = sorted(judgments.systems() - systems)
    if unknown:
        raise UserError(f"{judgments.source}: system {unknown[0]!r} is not in the results"
                        f"{suggest(unknown[0], sorted(systems))} ({len(unknown)} unknown; systems in the "
                        f"results: {', '.join(sorted(systems)[:10])}{'...' if len(systems) > 10 else ''})")
    if not judgments.tasks() & scores.tasks():
        some = sorted(judgments.tasks())[0]
        raise UserError(f"{judgments.source}: no task of the judgments is in the results (e.g. {some!r}); "
                        f"check that both name tasks the same way")


def _metrics(scores: Scores, spec: MetaSpec) -> Iterator[Metric]:
    measures = spec.measures if spec.measures is not None else scores.measures
    for variant in scores.variants:
        for m in measures:
            for stat in spec.scores:
                yield Metric(canonical_measure(m), stat, variant)


def _dimensions(judgments: Judgments, spec: MetaSpec) -> list[str]:
    dims = list(spec.dimensions) if spec.dimensions is not None else judgments.dimensions
    for d in dims:
        if d not in judgments.scores:
            raise UserError(f"{judgments.source}: no dimension {d!r}{suggest(d, judgments.dimensions)}; "
                            f"dimensions: {', '.join(judgments.dimensions)}")
    return dims


def statistics_by_level(spec: MetaSpec, notes: list[str] | None = None) -> dict[str, tuple[str, ...]]:
    """The statistics computed at each level: each where it is defined; a
    note for a statistic some asked level cannot give, an error when no
    asked level can."""
    chosen = resolve(spec.statistics)
    plan = {level: tuple(s.name for s in chosen if level in s.levels) for level in spec.levels}
    for s in chosen:
        missing = [level for level in spec.levels if level not in s.levels]
        if len(missing) == len(spec.levels):
            raise UserError(f"statistic {s.name} is defined at the {level_names(s.levels)} level"
                            f"{'s' if len(s.levels) > 1 else ''} only; add --level {s.levels[0]}")
        if missing and notes is not None:
            why = " (it needs at least 2 items per system, and a task has one per system)" \
                if s.engine == "soft" and "summary" in missing else ""
            notes.append(f"note: {s.name} is not computed at the {level_names(tuple(missing))} level"
                         f"{'s' if len(missing) > 1 else ''}{why}")
    return {level: names for level, names in plan.items() if names}


def _row(level: str, metric: Metric, dim: str, result: CorrelationResult, keys: list[str],
         spec: MetaSpec) -> dict[str, Any]:
    d = result.to_dict()
    row: dict[str, Any] = {"level": level, "variant": metric.variant, "measure": metric.measure,
                           "score": metric.score, "dimension": dim, "n": d["n"]}
    for key in keys:
        row[key] = d.get(key) or {"value": None, "ci": [None, None]}
    row.update(resampling=spec.resampling, resamples=spec.resamples, confidence=spec.confidence)
    return row


def _same_cells(scores: Scores, metrics: list[Metric]) -> list[list[Metric]]:
    """The metrics grouped by the (system, task) cells they score: a group is
    correlated in one pass, sharing the human side of every resample."""
    groups: dict[frozenset[tuple[str, str]], list[Metric]] = {}
    for m in metrics:
        groups.setdefault(frozenset(scores.table(m)), []).append(m)
    return list(groups.values())


def correlations(scores: Scores, judgments: Judgments, spec: MetaSpec, *,
                 notes: list[str] | None = None, tick: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """One object per (level, variant, measure, score, dimension), in that
    order; ``notes`` collects one-line notes (statistics a level cannot give,
    metrics that correlate negatively at the system level); ``tick(k)`` after
    each level of k metrics."""
    check_overlap(scores, judgments)
    dims = _dimensions(judgments, spec)
    plan = statistics_by_level(spec, notes)
    keys = {level: [STATISTICS.get(n).key for n in names] for level, names in plan.items()}
    got: dict[tuple[str, Metric, str], dict[str, Any]] = {}
    metrics = list(_metrics(scores, spec))
    for dim in dims:
        for group in _same_cells(scores, metrics):
            res = correlation_many([scores.table(m) for m in group], judgments.scores[dim], plan,
                                   resampling=spec.resampling, resamples=spec.resamples,
                                   confidence=spec.confidence, seed=spec.seed, tick=tick)
            for metric, per in zip(group, res):
                for level, r in per.items():
                    got[(level, metric, dim)] = _row(level, metric, dim, r, keys[level], spec)
    rows = [got[(level, m, d)] for level in spec.levels if level in plan for m in metrics for d in dims]
    if notes is not None:
        notes.extend(negative_warnings(rows))
    return rows


def negative_warnings(rows: Iterable[dict[str, Any]]) -> list[str]:
    """One line per metric whose system-level correlation with a dimension is negative."""
    out: dict[str, list[str]] = {}
    for r in rows:
        if r["level"] != "system":
            continue
        neg = [f"{c} {r[c]['value']:+.3f}" for c in COEFFICIENTS
               if isinstance(r.get(c), dict) and r[c]["value"] is not None and r[c]["value"] <= -0.0005]
        if neg:
            metric = str(Metric(r["measure"], r["score"], r["variant"]))
            out.setdefault(metric, []).append(f"{r['dimension']} ({', '.join(neg)})")
    return [f"warning: {m} correlates negatively with the human scores at the system level: {'; '.join(v)}"
            f" - check which score you compare (recall often agrees where F does not)" for m, v in out.items()]


def comparisons(scores: Scores, judgments: Judgments, spec: MetaSpec) -> list[dict[str, Any]]:
    """For each pair of metrics, level and dimension: the paired test of their correlations."""
    if not spec.compare:
        return []
    dims = _dimensions(judgments, spec)
    if spec.test == "williams" and "summary" in spec.levels:
        raise UserError("the Williams test compares two correlations over the same units: use it at the "
                        "system or global level, not summary (or the permutation test)")
    asked = {s.name for s in resolve(spec.statistics)}
    coefficients = tuple(c for c in COEFFICIENTS if c in asked) or COEFFICIENTS
    if spec.test == "williams":
        coefficients = ("pearson",)
    out = []
    for a, b in spec.compare:
        ta, tb = scores.table(a), scores.table(b)
        for level in spec.levels:
            for dim in dims:
                r = compare(ta, tb, judgments.scores[dim], level, permutation=spec.permutation,
                            resampling=spec.resampling, resamples=spec.resamples,
                            confidence=spec.confidence, seed=spec.seed, coefficients=coefficients,
                            test=spec.test).to_dict()
                row: dict[str, Any] = {"level": level, "a": str(a), "b": str(b), "dimension": dim,
                                       "test": spec.test}
                row.update({c: r[c] for c in COEFFICIENTS if c in r})
                row.update(permutation=spec.permutation, resampling=spec.resampling,
                           resamples=spec.resamples, confidence=spec.confidence, seed=spec.seed)
                out.append(row)
    return out


def levels_of(values: Iterable[str]) -> tuple[str, ...]:
    out = []
    for v in values:
        key = v.strip().lower()
        if key not in LEVELS:
            raise UserError(f"unknown level {v!r}{suggest(key, LEVELS)}; use system, summary or global")
        if key not in out:
            out.append(key)
    return tuple(out)
