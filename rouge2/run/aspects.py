"""The per-aspect analysis of a run with an aspect lexicon (``aspects:``).

The pairs' per-aspect data is computed where the scoring runs
(:class:`rouge2.run.parallel.PairScorer`, one
:class:`~rouge2.measures.aspect_coverage.AspectCoverage` per variant); this module
collects it into :class:`~rouge2.stats.aspects.AspectStats` and turns it into
the rows of ``aspects.csv``, the console table, the warnings and the JSON
summary's ``aspects`` section.
"""

from __future__ import annotations

from typing import Any

from rouge2.stats.aspects import AspectStats, Bootstrap, aspect_table


def new_stats(pair_scorer: Any) -> AspectStats | None:
    """An empty :class:`AspectStats` for the run's lexicon, or None without one."""
    if not pair_scorer.aspects:
        return None
    first = next(iter(pair_scorer.aspects.values()))
    empty = sorted({a for cov in pair_scorer.aspects.values() for a in cov.empty})
    return AspectStats(first.aspects, empty)


def rows(stats: AspectStats, bootstrap: Any) -> list[dict[str, Any]]:
    """The rows of ``aspects.csv`` (intervals with the run's ``bootstrap`` settings)."""
    bs = None if bootstrap is None else Bootstrap(bootstrap.resamples, bootstrap.confidence, bootstrap.seed)
    return stats.rows(bs)


def warnings(stats: AspectStats, lexicon: str) -> list[str]:
    """One line per aspect that cannot be scored: no word left after the
    analysis, or mentioned by no reference (its coverage stays empty)."""
    out = []
    if stats.empty:
        out.append(f"warning: aspect{'s' if len(stats.empty) > 1 else ''} {', '.join(stats.empty)} of "
                   f"{lexicon} {'have' if len(stats.empty) > 1 else 'has'} no word left after the run's "
                   f"analysis (stopwords, tokenizer): never mentioned, coverage empty")
    for variant in stats.variants:
        missing = [a for a in stats.unmentioned(variant) if a not in stats.empty]
        if missing:
            where = "" if variant is None else f" (variant {variant})"
            out.append(f"warning: no reference mentions aspect{'s' if len(missing) > 1 else ''} "
                       f"{', '.join(missing)}{where}; {'their' if len(missing) > 1 else 'its'} coverage "
                       f"is empty (aspects.csv: tasks 0)")
    return out


def console(stats: AspectStats, table_rows: list[dict[str, Any]], confidence: float | None,
            lexicon: str, max_rows: int | None = None) -> str:
    """The systems x aspects table (coverage with intervals; at most
    ``max_rows`` systems) and the warnings."""
    text = "\n" + aspect_table(table_rows, stats.aspects, "coverage", confidence, max_rows)
    for line in warnings(stats, lexicon):
        text += line + "\n"
    return text


def summary(stats: AspectStats, table_rows: list[dict[str, Any]], options: Any) -> dict[str, Any]:
    """The JSON summary's ``aspects`` section."""
    lexicon = options.aspects
    return {
        "lexicon": lexicon if isinstance(lexicon, str) else getattr(lexicon, "name", "custom"),
        "aspects": list(stats.aspects),
        "top": options.aspect_top, "min_mentions": options.aspect_min_mentions,
        "lemmas": options.aspect_lemmas, "synonyms": options.aspect_synonyms,
        "assign": options.aspect_assign,
        "weights": options.topic_weights,
        "empty": list(stats.empty),
        "unmentioned": {("" if v is None else v): stats.unmentioned(v) for v in stats.variants},
        "rows": table_rows,
        "definitions": "docs/aspects.md: coverage = mean over the tasks whose references mention the "
                       "aspect of covered / reference aspect words; mention recall and precision "
                       "pooled over (task, reference) pairs",
    }


__all__ = ["console", "new_stats", "rows", "summary", "warnings"]
