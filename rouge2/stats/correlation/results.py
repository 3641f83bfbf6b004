"""The public computations: a statistic with its interval, and two metrics compared."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from rouge2.errors import UserError
from rouge2.stats.correlation.accuracy import accuracy_values
from rouge2.stats.correlation.coefficients import COEFFICIENTS, NAN, check_coefficients, corr, vec
from rouge2.stats.correlation.draws import BootstrapDraws, packed_bootstrap
from rouge2.stats.correlation.levels import Level, level_n, prepare
from rouge2.stats.correlation.resampling import bootstrap_values, paired_bootstrap
from rouge2.stats.correlation.resampling import permutation as permutation_test
from rouge2.stats.correlation.soft import spa_values
from rouge2.stats.correlation.statistics import STATISTICS, Statistic, level_names, resolve
from rouge2.stats.correlation.tables import (
    ALTERNATIVES,
    Data,
    ScoreTable,
    check_confidence,
    check_level,
    check_resamples,
    check_scheme,
)
from rouge2.stats.correlation.williams import williams

#: Two correlation differences closer than this count as equal when a
#: resampled difference is compared with the observed one (rounding noise
#: must not decide a tie; correlations are bounded by 1 in absolute value).
TIE_TOLERANCE = 1e-12

#: The tests of ``compare``: the paired permutation test (any coefficient,
#: any level) or the Williams test (Pearson, system or global level).
TESTS = ("permutation", "williams")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th quantile (0 <= q <= 1) by linear interpolation between
    order statistics at position q (n - 1), as ``numpy.percentile``'s
    default; ``nan`` values are left out, ``nan`` if none is left."""
    s = sorted(v for v in values if v == v)
    if not s:
        return NAN
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    t = pos - lo
    if lo + 1 >= len(s):
        return s[-1]
    a, b = s[lo], s[lo + 1]
    # numpy's _lerp: exact at both ends
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def interval(values: Sequence[float], confidence: float) -> tuple[float, float]:
    tail = (1 - confidence) / 2
    return percentile(values, tail), percentile(values, 1 - tail)


def jsonable(x: Any) -> Any:
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, dict):
        return {k: jsonable(v) for k, v in x.items()}
    if hasattr(x, "to_dict"):
        return x.to_dict()
    return x


@dataclass(frozen=True)
class Estimate:
    """A statistic and its bootstrap percentile interval (and, for
    tie-calibrated accuracy, the tie threshold ε chosen on the data)."""

    value: float
    ci: tuple[float, float]
    epsilon: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"value": jsonable(self.value), "ci": jsonable(list(self.ci))}
        if self.epsilon is not None:
            out["epsilon"] = jsonable(self.epsilon)
        return out


@dataclass(frozen=True)
class CorrelationResult:
    """What :func:`correlation` returns; ``to_dict()`` is JSON-ready
    (undefined numbers become ``null``).

    ``n`` counts what was correlated: systems (system level), tasks where a
    statistic is defined (summary level; the largest count over the
    statistics) or cells (global level).  ``extra`` holds the statistics
    other than the three coefficients, by JSON key."""

    level: str
    n: int
    pearson: Estimate | None
    spearman: Estimate | None
    kendall: Estimate | None
    resampling: str
    resamples: int
    confidence: float
    seed: int
    n_systems: int
    n_tasks: int
    n_cells: int
    extra: Mapping[str, Estimate] = field(default_factory=dict)

    def estimates(self) -> dict[str, Estimate]:
        """Every statistic computed, by JSON key, in registry order."""
        got = {c: getattr(self, c) for c in COEFFICIENTS if getattr(self, c) is not None}
        got.update(self.extra)
        return {e.value.key: got[e.value.key] for e in STATISTICS if e.value.key in got}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"level": self.level, "n": self.n}
        out.update({k: e.to_dict() for k, e in self.estimates().items()})
        out.update(resampling=self.resampling, resamples=self.resamples,
                   confidence=self.confidence, seed=self.seed, n_systems=self.n_systems,
                   n_tasks=self.n_tasks, n_cells=self.n_cells)
        return out


def correlate(metric: ScoreTable, human: ScoreTable, level: str = "system",
              coefficient: str = "pearson") -> float:
    """One coefficient at one level (no resampling)."""
    data, lv, _ = prepare([metric, human], ["metric", "human"], level, (coefficient,))
    (vals,), _ = lv.values([data.flat[0]])
    return vals[0]


def _chosen(coefficients: Sequence[str] | str, statistics: Sequence[str] | str | None,
            level: str) -> tuple[Statistic, ...]:
    if statistics is None:
        return tuple(STATISTICS.get(c) for c in check_coefficients(coefficients))
    chosen = resolve(statistics)
    for s in chosen:
        if level not in s.levels:
            raise UserError(f"{s.name} is defined at the {level_names(s.levels)} level"
                            f"{'s' if len(s.levels) > 1 else ''}, not at the {level} level")
    return chosen


def _accuracy_estimates(data: Data, level: str, keys: set[str], draws: BootstrapDraws,
                        confidence: float) -> tuple[int, dict[str, Estimate]]:
    tie = "tie_calibrated_accuracy" in keys
    point = accuracy_values(data, level, None, tie)
    boot = accuracy_values(data, level, draws, tie)
    out = {}
    if "pairwise_accuracy" in keys:
        out["pairwise_accuracy"] = Estimate(point.pairwise[0], interval(boot.pairwise, confidence))
    if tie:
        out["tie_calibrated_accuracy"] = Estimate(point.calibrated[0], interval(boot.calibrated, confidence),
                                                  epsilon=point.epsilon[0])
    return point.n, out


@dataclass(frozen=True)
class Settings:
    """How the intervals are computed (shared by every level and statistic)."""

    resampling: str = "both"
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 0


def _at_level(data: Data, level: str, chosen: tuple[Statistic, ...], st: Settings) -> list[CorrelationResult]:
    """The statistics of every metric table of ``data`` (all but the last,
    the human table) at ``level``; the coefficients of all of them in one
    pass over the resamples."""
    q = len(data.flat) - 1
    draws = packed_bootstrap(data.ns, data.nt, st.resampling, st.resamples, st.seed)
    est: list[dict[str, Estimate]] = [{} for _ in range(q)]
    ns = [0] * q
    which = tuple(s.name for s in chosen if s.engine == "correlation")
    if which:
        lv = Level(data, level, which)
        points = bootstrap_values(data, lv, data.flat[:-1], None)
        samples = bootstrap_values(data, lv, data.flat[:-1], draws)
        for i in range(q):
            ns[i] = level_n(data, level, i)
            est[i].update({c: Estimate(v[0], interval(x, st.confidence))
                           for c, v, x in zip(which, points[i], samples[i])})
    keys = {s.key for s in chosen if s.engine == "accuracy"}
    soft = any(s.engine == "soft" for s in chosen)
    for i in range(q) if keys or soft else ():
        view = data.view(i)
        if keys:
            k, got = _accuracy_estimates(view, level, keys, draws, st.confidence)
            ns[i] = max(ns[i], k)
            est[i].update(got)
        if soft:
            point = spa_values(view, None, st.resamples, st.seed)[0]
            est[i]["soft_pairwise_accuracy"] = Estimate(
                point, interval(spa_values(view, draws, st.resamples, st.seed), st.confidence))
            ns[i] = max(ns[i], data.ns)
    return [CorrelationResult(level, n, e.get("pearson"), e.get("spearman"), e.get("kendall"),
                              st.resampling, st.resamples, float(st.confidence), st.seed,
                              data.ns, data.nt, data.ncells, {k: v for k, v in e.items() if k not in COEFFICIENTS})
            for n, e in zip(ns, est)]


def correlation_many(metrics: Sequence[ScoreTable], human: ScoreTable, levels: Mapping[str, Sequence[str]], *,
                     resampling: str = "both", resamples: int = 1000, confidence: float = 0.95, seed: int = 0,
                     tick: Callable[[int], None] | None = None) -> list[dict[str, CorrelationResult]]:
    """:func:`correlation` of several metrics at several levels (``levels``
    maps each level to the statistics wanted there), sharing the human
    side of every resample.  Only cells every table scores are used: give
    metrics scored on the same (system, task) cells to get each one's own
    correlation.  ``tick(len(metrics))`` after each level."""
    check_confidence(confidence)
    st = Settings(check_scheme(resampling, "resampling scheme"), resamples, float(confidence), seed)
    chosen = {check_level(level): _chosen(COEFFICIENTS, names, level) for level, names in levels.items()}
    names = [f"metric {i + 1}" for i in range(len(metrics))] if len(metrics) > 1 else ["metric"]
    data = Data([*metrics, human], [*names, "human"])
    out: list[dict[str, CorrelationResult]] = [{} for _ in metrics]
    for level, stats in chosen.items():
        for res, r in zip(out, _at_level(data, level, stats, st)):
            res[level] = r
        if tick is not None:
            tick(len(metrics))
    return out


def correlation_levels(metric: ScoreTable, human: ScoreTable, levels: Mapping[str, Sequence[str]], *,
                       resampling: str = "both", resamples: int = 1000, confidence: float = 0.95,
                       seed: int = 0) -> dict[str, CorrelationResult]:
    """:func:`correlation` at several levels of one aligned table: ``levels``
    maps each level to the statistics wanted there."""
    check_confidence(confidence)
    st = Settings(check_scheme(resampling, "resampling scheme"), resamples, float(confidence), seed)
    chosen = {check_level(level): _chosen(COEFFICIENTS, names, level) for level, names in levels.items()}
    data = Data([metric, human], ["metric", "human"])
    return {level: _at_level(data, level, stats, st)[0] for level, stats in chosen.items()}


def correlation(metric: ScoreTable, human: ScoreTable, level: str = "system", *,
                resampling: str = "both", resamples: int = 1000, confidence: float = 0.95,
                seed: int = 0, coefficients: Sequence[str] = COEFFICIENTS,
                statistics: Sequence[str] | str | None = None) -> CorrelationResult:
    """The statistics at ``level`` with bootstrap percentile intervals.

    ``resampling`` is ``systems``, ``tasks`` or ``both`` (BOOT-SYSTEMS,
    BOOT-INPUTS, BOOT-BOTH).  Resamples where a statistic is undefined
    are left out of its interval.  ``statistics`` names any of
    :data:`~rouge2.stats.correlation.statistics.STATISTICS` (default: the
    ``coefficients``)."""
    check_confidence(confidence)
    st = Settings(check_scheme(resampling, "resampling scheme"), resamples, float(confidence), seed)
    level = check_level(level)
    chosen = _chosen(coefficients, statistics, level)
    data = Data([metric, human], ["metric", "human"])
    return _at_level(data, level, chosen, st)[0]


def p_values(observed: float, samples: Sequence[float]) -> tuple[float, float]:
    """(one-sided p for r_A > r_B, two-sided p) of a permutation test: the
    share of defined null samples at least as extreme as the observed
    difference."""
    vals = [v for v in samples if v == v]
    if observed != observed or not vals:
        return NAN, NAN
    tol = TIE_TOLERANCE
    greater = sum(1 for v in vals if v >= observed - tol)
    two = sum(1 for v in vals if abs(v) >= abs(observed) - tol)
    return greater / len(vals), two / len(vals)


@dataclass(frozen=True)
class Difference:
    """One coefficient of a comparison: r(A, human), r(B, human), their
    difference with its paired-bootstrap percentile interval, and the
    test's p-values (one-sided: H1 r_A > r_B).  The Williams test adds its
    statistic ``t``, degrees of freedom ``df`` and r(A, B)."""

    a: float
    b: float
    difference: float
    ci: tuple[float, float]
    p_value: float
    p_one_sided: float
    p_two_sided: float
    t: float | None = None
    df: int | None = None
    r_ab: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"a": self.a, "b": self.b, "difference": self.difference, "ci": list(self.ci),
               "p_value": self.p_value, "p_one_sided": self.p_one_sided, "p_two_sided": self.p_two_sided}
        if self.t is not None:
            out.update(t=self.t, df=self.df, r_ab=self.r_ab)
        return cast(dict[str, Any], jsonable(out))


@dataclass(frozen=True)
class ComparisonResult:
    """What :func:`compare` returns; ``to_dict()`` is JSON-ready."""

    level: str
    permutation: str
    resampling: str
    alternative: str
    resamples: int
    confidence: float
    seed: int
    n_systems: int
    n_tasks: int
    n_cells: int
    pearson: Difference | None
    spearman: Difference | None
    kendall: Difference | None
    test: str = "permutation"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"level": self.level, "test": self.test, "permutation": self.permutation,
                               "resampling": self.resampling, "alternative": self.alternative,
                               "resamples": self.resamples, "confidence": self.confidence, "seed": self.seed,
                               "n_systems": self.n_systems, "n_tasks": self.n_tasks, "n_cells": self.n_cells}
        for c in COEFFICIENTS:
            d = getattr(self, c)
            if d is not None:
                out[c] = d.to_dict()
        return out


def _check_test(test: str, level: str, which: tuple[str, ...]) -> str:
    if test not in TESTS:
        raise UserError(f"unknown test {test!r}; use one of {', '.join(TESTS)}")
    if test == "williams":
        if level == "summary":
            raise UserError("the Williams test compares two correlations over the same units: use it at the "
                            "system or global level, not the summary level (or use --test permutation)")
        if "pearson" not in which:
            raise UserError("the Williams test compares Pearson correlations; ask for pearson")
    return test


def _williams_difference(data: Data, lv: Level, va: float, vb: float, ci: tuple[float, float],
                         alternative: str) -> Difference:
    x, y = data.flat[0], data.flat[1]
    if lv.level == "system":
        x, y = lv.row_means(x), lv.row_means(y)
    r_ab = corr(vec(x, None, None, True, False, False), vec(y, None, None, True, False, False), ("pearson",))[0]
    w = williams(va, vb, r_ab, len(x))
    p = w.p_two_sided if alternative == "two-sided" else w.p_one_sided
    return Difference(va, vb, va - vb, ci, p, w.p_one_sided, w.p_two_sided, w.t, w.df, r_ab)


def compare(metric_a: ScoreTable, metric_b: ScoreTable, human: ScoreTable, level: str = "system", *,
            permutation: str = "both", resampling: str = "both", alternative: str = "two-sided",
            resamples: int = 1000, confidence: float = 0.95, seed: int = 0,
            coefficients: Sequence[str] = COEFFICIENTS, test: str = "permutation") -> ComparisonResult:
    """Does metric A correlate with the human scores better than metric B?

    Only cells scored by A, B and the humans are used.  ``p_value`` is the
    ``test``'s: the permutation test (``permutation`` = ``systems``/``tasks``/
    ``both``: PERM-SYSTEMS/-INPUTS/-BOTH) or the Williams test (Pearson;
    system or global level); ``alternative`` chooses which p-value that
    is: ``two-sided`` (default; H1: r_A != r_B) or ``greater`` (H1: r_A >
    r_B).  ``ci`` is the paired bootstrap percentile interval of r_A - r_B
    (``resampling``).  Both use ``resamples`` draws from ``seed``."""
    if alternative not in ALTERNATIVES:
        raise UserError(f"unknown alternative {alternative!r}; use one of {', '.join(ALTERNATIVES)}")
    check_confidence(confidence)
    check_resamples(resamples)
    permutation = check_scheme(permutation, "permutation scheme")
    resampling = check_scheme(resampling, "resampling scheme")
    data, lv, which = prepare([metric_a, metric_b, human], ["metric_a", "metric_b", "human"],
                               level, coefficients)
    test = _check_test(test, lv.level, which)
    (va, vb), _ = lv.values([lv.keep(data.flat[0]), lv.keep(data.flat[1])])
    boot = paired_bootstrap(data, lv, resampling, resamples, seed)
    diffs: dict[str, Difference] = {}
    if test == "williams":
        i = which.index("pearson")
        diffs["pearson"] = _williams_difference(data, lv, va[i], vb[i], interval(boot["pearson"], confidence),
                                                alternative)
    else:
        observed, perm = permutation_test(data, lv, permutation, resamples, seed)
        for c, x, y in zip(which, va, vb):
            p1, p2 = p_values(observed[c], perm[c])
            diffs[c] = Difference(x, y, x - y, interval(boot[c], confidence),
                                  p2 if alternative == "two-sided" else p1, p1, p2)
    return ComparisonResult(level, permutation, resampling, alternative, resamples,
                            float(confidence), seed, data.ns, data.nt, data.ncells,
                            diffs.get("pearson"), diffs.get("spearman"), diffs.get("kendall"), test)
