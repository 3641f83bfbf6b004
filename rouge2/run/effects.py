"""What each variant changed against its baseline: ``variant_effects.csv``,
the drill-down of the summaries that moved most, and the console summary.

The pairs compared are each variant against the first (the baseline), then
the pairs of ``compare_variants`` not among them (``[a, b]``: variant ``a``
against baseline ``b``).  The numbers are defined in
:mod:`rouge2.stats.effects`; with ``meta_evaluation:`` each row is repeated
per level, dimension and coefficient with the change in the correlation
(:func:`rouge2.stats.correlation.compare`: the variant's correlation minus
the baseline's, a paired bootstrap interval and a permutation p).
docs/synonym-experiments.md has the definitions and an example.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from typing import Any

from rouge2.run import compare as run_compare
from rouge2.stats.aggregate import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, STAT_NAMES
from rouge2.stats.correlation import COEFFICIENTS
from rouge2.stats.correlation import compare as compare_correlations
from rouge2.stats.effects import rank_tau, score_effect
from rouge2.stats.meta import Metric, Scores

__all__ = ["DRILLDOWN_TOP", "Drilldown", "console", "correlation_effects", "effect_pairs", "effect_rows"]

#: summaries kept per (variant, baseline, measure) in the drill-down
DRILLDOWN_TOP = 20


def effect_pairs(cfg: Any) -> list[tuple[str, str]]:
    """``(baseline, variant)`` pairs: each variant against the first, then
    ``compare_variants`` (``[a, b]`` is ``a`` against ``b``) not already there."""
    names = [n for n, _ in cfg.variants]
    pairs = [(names[0], v) for v in names[1:]]
    for a, b in cfg.compare_variants:
        if (b, a) not in pairs:
            pairs.append((b, a))
    return pairs


def _bootstrap(cfg: Any) -> tuple[int, float, int]:
    bs = cfg.bootstrap
    return (bs.resamples, bs.confidence, bs.seed) if bs is not None else (DEFAULT_RESAMPLES, DEFAULT_CONFIDENCE, 0)


def effect_rows(cfg: Any, variants: Mapping[Any, Any]) -> list[dict[str, Any]]:
    """One row per (variant against baseline, measure, score): the columns of
    :data:`~rouge2.stats.effects.EFFECT_COLUMNS` (plus ``summaries``)."""
    resamples, confidence, seed = _bootstrap(cfg)
    rows: list[dict[str, Any]] = []
    for base, var in effect_pairs(cfg):
        vb, vv = variants[base], variants[var]
        keys = [k for k in vb.pairs if k in vv.pairs]
        for m in cfg.measures:
            for score in STAT_NAMES:
                got = score_effect([getattr(vb.pairs[k][m], score) for k in keys],
                                   [getattr(vv.pairs[k][m], score) for k in keys],
                                   resamples=resamples, confidence=confidence, seed=seed,
                                   label=f"effects|{base}|{var}|{m}|{score}")
                tau = rank_tau({s: e[m][score] for s, e in vb.systems.items()},
                               {s: e[m][score] for s, e in vv.systems.items()})
                rows.append({"variant": var, "baseline": base, "measure": m, "score": score, **got,
                             "rank_tau": tau})
    return rows


def correlation_effects(cfg: Any, scores: Scores, judgments: Any, dimensions: list[str],
                        known: Iterable[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
    """With ``meta_evaluation:``: per (variant against baseline, measure,
    level, dimension, coefficient), on the measure's compared score (or the
    first of ``meta_evaluation.scores`` when that is not among them), the
    change in the correlation with the human scores, its paired bootstrap
    interval and permutation p.  ``known``: the run's correlation
    comparisons; a pair of metrics they already tested (same settings) is
    taken from them, not computed again."""
    spec = cfg.meta_evaluation
    measures = spec.measures if spec.measures is not None else cfg.measures
    coefficients = tuple(c for c in COEFFICIENTS if c in spec.statistics) or COEFFICIENTS
    done = {(r["a"], r["b"], r["level"], r["dimension"]): r for r in known if r.get("test") == "permutation"}
    rows: list[dict[str, Any]] = []
    for base, var in effect_pairs(cfg):
        for m in measures:
            score = compared_score(cfg, m)
            a, b = Metric(m, score, var), Metric(m, score, base)
            for level in spec.levels:
                for dim in dimensions:
                    r = done.get((str(a), str(b), level, dim)) or compare_correlations(
                        scores.table(a), scores.table(b), judgments.scores[dim], level,
                        permutation=spec.permutation, resampling=spec.resampling, resamples=spec.resamples,
                        confidence=spec.confidence, seed=spec.seed, coefficients=coefficients).to_dict()
                    rows.extend(_correlation_row(var, base, m, score, level, dim, c, r[c])
                                for c in coefficients if c in r)
    return rows


def compared_score(cfg: Any, measure: str) -> str:
    """The score a measure's correlation changes are given for: its compared
    score (``compare.score`` or its default) when ``meta_evaluation.scores``
    has it, else the first of those."""
    asked = cfg.meta_evaluation.scores
    score = run_compare.measure_score(cfg, measure)
    return score if score in asked else asked[0]


def _correlation_row(var: str, base: str, m: str, score: str, level: str, dim: str, c: str,
                     d: Mapping[str, Any]) -> dict[str, Any]:
    ci = d.get("ci") or [None, None]
    return {"variant": var, "baseline": base, "measure": m, "score": score, "level": level,
            "dimension": dim, "coefficient": c, "baseline_correlation": d.get("b"),
            "variant_correlation": d.get("a"), "correlation_delta": d.get("difference"),
            "correlation_ci_low": ci[0], "correlation_ci_high": ci[1], "correlation_p_value": d.get("p_value")}


class Drilldown:
    """The :data:`DRILLDOWN_TOP` summaries whose compared score moved most
    (largest ``|variant - baseline|``, earlier summaries first on a tie) per
    (variant against baseline, measure), with the synonym matches they used;
    fed one scored summary at a time, memory bounded."""

    def __init__(self, cfg: Any, top: int = DRILLDOWN_TOP) -> None:
        self.pairs = effect_pairs(cfg) if cfg.variants else []
        self.scores = {m: run_compare.measure_score(cfg, m) for m in cfg.measures}
        self.top = top
        self.heaps: dict[tuple[str, str, str], list] = {}
        self.seen = 0

    def add(self, item: Any, per_variant: Mapping[Any, Any], explained: Mapping[Any, Any]) -> None:
        self.seen += 1
        for base, var in self.pairs:
            for m, score in self.scores.items():
                b = getattr(per_variant[base][0][m], score)
                v = getattr(per_variant[var][0][m], score)
                if v == b:
                    continue
                heap = self.heaps.setdefault((base, var, m), [])
                key = (abs(v - b), -self.seen)
                if len(heap) >= self.top and key <= heap[0][:2]:
                    continue
                row = {"variant": var, "baseline": base, "measure": m, "score": score, "task": item.task,
                       "system": item.system, "baseline_value": b, "variant_value": v, "delta": v - b,
                       "variant_matches": _matched(explained.get(var), m),
                       "baseline_matches": _matched(explained.get(base), m)}
                entry = (*key, row)
                if len(heap) < self.top:
                    heapq.heappush(heap, entry)
                else:
                    heapq.heapreplace(heap, entry)

    def rows(self) -> list[dict[str, Any]]:
        """Per (variant, baseline, measure) in the run's order, the largest moves first."""
        out: list[dict[str, Any]] = []
        for base, var in self.pairs:
            for m in self.scores:
                heap = self.heaps.get((base, var, m), [])
                out.extend(row for *_, row in sorted(heap, key=lambda e: (-e[0], -e[1])))
        return out


def _matched(explained: Any, measure: str) -> str:
    """``reference~candidate xK; ...``: a summary's synonym matches for one measure, most first."""
    if not explained:
        return ""
    log = explained[0].get(measure)
    if not log:
        return ""
    pairs = sorted(log.items(), key=lambda kv: (-kv[1], kv[0]))
    return "; ".join(f"{r}~{c}" + (f" x{k}" if k > 1 else "") for (r, c), k in pairs)


def _fmt(x: Any, sign: bool = True) -> str:
    if x is None:
        return "-"
    return f"{x:+.5f}" if sign else f"{x:.5f}"


def _short(score: str) -> str:
    return {"recall": "R", "precision": "P", "fmeasure": "F"}.get(score, score)


def _effect_lines(cfg: Any, effects: list[dict[str, Any]], limit: int) -> list[str]:
    scores = {m: run_compare.measure_score(cfg, m) for m in cfg.measures}
    chosen = [e for e in effects if e["score"] == scores[e["measure"]]]
    _, confidence, _ = _bootstrap(cfg)
    head = ["variant", "baseline", "measure", "delta", f"{confidence:.0%} CI", "p", "changed", "rank tau"]
    body = [[e["variant"], e["baseline"], f"{e['measure']} {_short(e['score'])}", _fmt(e["delta"]),
             f"[{_fmt(e['ci_low'])}, {_fmt(e['ci_high'])}]", f"{e['p_value']:.3g}",
             f"{e['changed_share']:.0%}", "-" if e["rank_tau"] is None else f"{e['rank_tau']:+.3f}"]
            for e in chosen]
    return _table(head, body, limit, "variant_effects.csv")


def _correlation_lines(cfg: Any, correlations: list[dict[str, Any]], limit: int) -> list[str]:
    first = correlations[0]["coefficient"]
    shown = [c for c in correlations if c["coefficient"] == first]
    head = ["variant", "measure", "level", "dimension", f"{first} base", "variant", "delta", "CI", "p"]
    body = [[c["variant"], f"{c['measure']} {_short(c['score'])}", c["level"], c["dimension"],
             _fmt(c["baseline_correlation"]), _fmt(c["variant_correlation"]), _fmt(c["correlation_delta"]),
             f"[{_fmt(c['correlation_ci_low'])}, {_fmt(c['correlation_ci_high'])}]",
             "-" if c["correlation_p_value"] is None else f"{c['correlation_p_value']:.3g}"] for c in shown]
    return _table(head, body, limit, "variant_effects.csv")


def _table(head: list[str], body: list[list[str]], limit: int, where: str) -> list[str]:
    """Aligned rows, at most ``limit`` of them (the rest counted)."""
    if limit <= 0:
        return [f"{len(body)} rows: {where}"] if body else []
    shown = body[:limit]
    widths = [max(len(r[i]) for r in [head, *shown]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head, *shown]]
    if len(body) > limit:
        lines.append(f"... {len(body) - limit} more in {where}")
    return lines


def console(cfg: Any, effects: list[dict[str, Any]], correlations: list[dict[str, Any]],
            synonym_lines: Iterable[str] = (), limits: Mapping[str, int] | None = None) -> str:
    """The answer to "did my variant change scores, rankings, agreement with
    humans, and is it significant?" in at most 30 lines: per variant and
    measure the change of its compared score (interval, p, share of
    summaries changed, Kendall tau of the rankings); with meta-evaluation
    the change of the first coefficient per level and dimension; the
    synonym sources' coverage lines."""
    limits = dict(limits or {})
    lines = ["what the variants changed (each against its baseline; every number: variant_effects.csv)"]
    lines += _effect_lines(cfg, effects, limits.get("effects", 12))
    if correlations:
        lines.append("agreement with human scores: change in the correlation")
        lines += _correlation_lines(cfg, correlations, limits.get("effect correlations", 8))
    lines += list(synonym_lines)[:limits.get("synonym lines", 6)]
    return "\n".join(lines[:30]) + "\n"
