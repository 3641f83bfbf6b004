"""A run's paired comparisons of systems: which pairs, which score, Holm's correction.

``compare:`` in a config names the pairs (a list, or ``all``: every pair of
systems) and the score tested: ``recall``, ``precision``, ``fmeasure`` or
``coverage`` (the per-aspect coverage of :mod:`rouge2.stats.aspects`); without
``score`` each measure is tested on its default score (F for N/L/W/S, recall
for Topic, TopicUniq and Aspect).  Every comparison carries its Holm-Bonferroni
adjusted p-value (``p_adjusted``), over the family of the comparisons that
test one score of one measure (or one aspect's coverage) in one variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rouge2.errors import UserError
from rouge2.measures import default_score
from rouge2.registry import suggest
from rouge2.stats.aggregate import adjust, all_pairs, by_system, compare, compare_values
from rouge2.stats.coverage import natural_key


def system_pairs(cfg: Any, systems: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs ``compare`` asks for: every pair (``pairs: all``, systems in
    natural order) or the listed ones."""
    if cfg.compare.all_pairs:
        return all_pairs(sorted(systems, key=natural_key))
    return list(cfg.compare.pairs)


def measure_score(cfg: Any, measure: str) -> str:
    """The score a measure is compared on: ``compare.score`` or the measure's default."""
    c = cfg.compare
    score = c.score if c is not None else None
    return score if score not in (None, "coverage") else default_score(measure)


def _label(variant: str | None, rest: str) -> str:
    return rest if variant is None else f"{variant}|{rest}"


def _common(tasks: dict[str, list[str]], a: str, b: str, where: str) -> list[str]:
    for name in (a, b):
        if name not in tasks:
            raise UserError(f"{where}: compare.pairs: no system named {name!r} in the inputs; "
                            f"systems: {', '.join(tasks)}")
    common = sorted(set(tasks[a]) & set(tasks[b]))
    if not common:
        raise UserError(f"{where}: compare.pairs: {a!r} and {b!r} share no task")
    return common


def measure_units(cfg: Any, variant: Any) -> tuple[list, list]:
    """The (function, args, kwargs) units of the measure comparisons of one
    variant, and their keys ``(a, b, measure, score)``."""
    tasks = by_system(variant.pairs)
    units, keys = [], []
    for a, b in system_pairs(cfg, list(tasks)):
        common = _common(tasks, a, b, str(cfg.source))
        for m in cfg.measures:
            units.append((compare, ([variant.pairs[(t, a)][m] for t in common],
                                    [variant.pairs[(t, b)][m] for t in common]),
                          {"test": cfg.compare.test, "resamples": cfg.compare.resamples,
                           "seed": cfg.compare.seed, "label": _label(variant.name, f"{a}|{b}|{m}"),
                           "score": measure_score(cfg, m)}))
            keys.append((a, b, m))
    return units, keys


def check_aspects(cfg: Any, known: Sequence[str]) -> tuple[str, ...]:
    """The aspects compared on coverage: ``compare.aspects`` (each one of the
    lexicon's, else a one-line error at its line) or all of them."""
    asked = cfg.compare.aspects
    if asked is None:
        return tuple(known)
    for name in asked:
        if name not in known:
            where = cfg.locations.get("compare.aspects") or str(cfg.source or "<config>")
            raise UserError(f"{where}: compare.aspects: no aspect named {name!r} in the lexicon"
                            f"{suggest(name, known)}; aspects: {', '.join(known)}")
    return tuple(asked)


def coverage_units(cfg: Any, variant: str | None, stats: Any) -> tuple[list, list]:
    """The units of the per-aspect coverage comparisons of one variant (over
    the tasks both systems have whose references mention the aspect)."""
    aspects = check_aspects(cfg, stats.aspects)
    units, keys = [], []
    for a, b in system_pairs(cfg, stats.systems(variant)):
        for aspect in aspects:
            ca = stats.task_coverage(variant, a, aspect)
            cb = stats.task_coverage(variant, b, aspect)
            common = sorted(set(ca) & set(cb), key=natural_key)
            units.append((compare_values, ([ca[t] for t in common], [cb[t] for t in common]),
                          {"test": cfg.compare.test, "resamples": cfg.compare.resamples,
                           "seed": cfg.compare.seed, "score": "coverage",
                           "label": _label(variant, f"{a}|{b}|aspect:{aspect}|coverage")}))
            keys.append((a, b, aspect))
    return units, keys


def comparisons(cfg: Any, variant: Any, aspect_stats: Any, run_units: Callable[[list, float], Any],
                tick: Callable[[], None] = lambda: None) -> list[dict[str, Any]]:
    """Every comparison of one variant, with Holm-adjusted p-values.
    ``run_units(units, draws)`` runs the test units (in workers or here)."""
    if cfg.compare is None:
        return []
    if cfg.compare.score == "coverage":
        if aspect_stats is None:
            raise UserError(f"{cfg.source}: compare.score: coverage needs an 'aspects' section")
        units, keys = coverage_units(cfg, variant.name, aspect_stats)
        kind = "aspect"
    else:
        units, keys = measure_units(cfg, variant)
        kind = "measure"
    draws = sum(len(args[0]) for _, args, _ in units) * cfg.compare.resamples
    out = []
    for (a, b, what), c in zip(keys, run_units(units, draws)):
        out.append({"system_a": a, "system_b": b, kind: what, **c})
        tick()
    return adjust(out, family=(kind, "score"))


def unit_count(cfg: Any, systems: int, aspects: int) -> int:
    """How many tests :func:`comparisons` runs per variant (for progress bars)."""
    if cfg.compare is None:
        return 0
    pairs = systems * (systems - 1) // 2 if cfg.compare.all_pairs else len(cfg.compare.pairs)
    per = aspects if cfg.compare.score == "coverage" else len(cfg.measures)
    return pairs * per


__all__ = ["check_aspects", "comparisons", "measure_score", "system_pairs", "unit_count"]
