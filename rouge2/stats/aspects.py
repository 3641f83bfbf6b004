"""Per-aspect analysis: coverage and mentions of each aspect, per variant and system.

The per-pair data (:class:`~rouge2.measures.aspect_coverage.PairAspects`)
comes from :class:`rouge2.measures.aspect_coverage.AspectCoverage`; this
module only adds it up.  Definitions (docs/aspects.md, "Per-aspect analysis"), for one variant,
system and aspect a:

* the **aspect words** of a text are the distinct lexicon entries of a that
  occur in it (:mod:`rouge2.aspects.match`);
* a pair's ``reference_words`` is the sum over the task's references of
  their aspect words (weighted by idf with ``topic_weights: idf``), its
  ``covered_words`` the same sum over the words the summary has too; its
  **coverage** is covered / reference words;
* ``tasks``: the tasks where at least one reference *mentions* a (at least
  ``min_mentions`` hits);
* ``coverage``: the mean of the pair coverage over those tasks, with a
  percentile bootstrap interval over tasks (``ci_low``, ``ci_high``;
  seeded with ``"<seed>|<variant>|<system>|<aspect>|aspect-coverage"``);
* ``reference_words``, ``covered_words``: summed over those tasks;
* ``mention_recall``: of the (task, reference) pairs whose reference mentions
  a, the share where the summary mentions it too; ``mention_precision``: of
  the (task, reference) pairs where the summary mentions a, the share whose
  reference mentions it.  Summed over the aspects these are ROUGE-Aspect's
  pooled hit and totals.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rouge2.measures.aspect_coverage import AspectCounts, PairAspects
from rouge2.stats.bootstrap import bootstrap_interval, mean
from rouge2.stats.coverage import natural_key

#: the columns of ``aspects.csv``, in order
CSV_COLUMNS = ("variant", "system", "aspect", "tasks", "reference_words", "covered_words", "coverage",
               "ci_low", "ci_high", "mention_recall", "mention_precision")


@dataclass(frozen=True)
class Bootstrap:
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 0


class AspectStats:
    """Adds up :class:`PairAspects` per variant; answers per (variant, system, aspect).

    Memory grows with pairs x aspects (counts and the words of each pair's
    aspects), never with the texts."""

    def __init__(self, aspects: Sequence[str], empty: Sequence[str] = ()) -> None:
        self.aspects = tuple(aspects)
        #: aspects with no word left after analysis (never mentioned)
        self.empty = tuple(empty)
        self.pairs: dict[str | None, dict[tuple[str, str], PairAspects]] = {}

    def add(self, variant: str | None, pair: PairAspects) -> None:
        self.pairs.setdefault(variant, {})[(pair.task, pair.system)] = pair

    @property
    def variants(self) -> list[str | None]:
        return list(self.pairs)

    def systems(self, variant: str | None) -> list[str]:
        return sorted({s for _, s in self.pairs.get(variant, {})}, key=natural_key)

    def tasks_of(self, variant: str | None, system: str) -> list[str]:
        return sorted((t for t, s in self.pairs.get(variant, {}) if s == system), key=natural_key)

    def task_coverage(self, variant: str | None, system: str, aspect: str) -> dict[str, float]:
        """Task -> the pair's coverage of ``aspect``, over the tasks whose
        references mention it."""
        out = {}
        for task in self.tasks_of(variant, system):
            c = self.pairs[variant][(task, system)].aspects.get(aspect)
            if c is not None and c.ref_mentions and c.coverage is not None:
                out[task] = c.coverage
        return out

    def unmentioned(self, variant: str | None = None) -> list[str]:
        """Aspects of the lexicon that no reference of the run mentions."""
        mentioned = {a for p in self.pairs.get(variant, {}).values()
                     for a, c in p.aspects.items() if c.ref_mentions}
        return [a for a in self.aspects if a not in mentioned]

    def row(self, variant: str | None, system: str, aspect: str,
            bootstrap: Bootstrap | None = Bootstrap()) -> dict[str, Any]:
        """One row of ``aspects.csv``."""
        pairs = [self.pairs[variant][(t, system)] for t in self.tasks_of(variant, system)]
        counts = [p.aspects[aspect] for p in pairs if aspect in p.aspects]
        scored = [c for c in counts if c.ref_mentions and c.coverage is not None]
        values = [c.covered_words / c.reference_words for c in scored]
        ref_m = sum(c.ref_mentions for c in counts)
        cand_m = sum(c.cand_mentions for c in counts)
        hits = sum(c.mention_hits for c in counts)
        row: dict[str, Any] = {
            "variant": "" if variant is None else variant, "system": system, "aspect": aspect,
            "tasks": len(scored),
            "reference_words": sum(c.reference_words for c in scored),
            "covered_words": sum(c.covered_words for c in scored),
            "coverage": mean(values) if values else None, "ci_low": None, "ci_high": None,
            "mention_recall": hits / ref_m if ref_m else None,
            "mention_precision": hits / cand_m if cand_m else None,
        }
        if bootstrap is not None and values:
            rng = random.Random(f"{bootstrap.seed}|{row['variant']}|{system}|{aspect}|aspect-coverage")
            row["ci_low"], row["ci_high"] = bootstrap_interval(values, bootstrap.resamples,
                                                               bootstrap.confidence, rng)
        return row

    def rows(self, bootstrap: Bootstrap | None = Bootstrap()) -> list[dict[str, Any]]:
        """Every row of ``aspects.csv``: variants in run order, systems in natural
        order, aspects in lexicon order."""
        return [self.row(v, s, a, bootstrap) for v in self.variants for s in self.systems(v)
                for a in self.aspects]

    def words(self, variant: str | None, system: str, aspect: str, status: str,
              top: int | None = None) -> list[tuple[str, int]]:
        """The aspect words a system most often ``missed`` / ``covered`` /
        ``added``, counted in tasks (ties by word)."""
        counts: Counter[str] = Counter()
        for t in self.tasks_of(variant, system):
            c = self.pairs[variant][(t, system)].aspects.get(aspect)
            if c is not None:
                counts.update(set(getattr(c, status)))
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        return ranked[:top] if top is not None else ranked


def aspect_table(rows: Iterable[dict[str, Any]], aspects: Sequence[str], value: str = "coverage",
                 confidence: float | None = None, max_rows: int | None = None) -> str:
    """Systems x aspects as console text (one table per variant): each cell the
    ``value`` in percent, with its interval when there is one; with
    ``max_rows``, that many systems and the rest counted in one line."""
    by_variant: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    for row in rows:
        by_variant.setdefault(row["variant"], {}).setdefault(row["system"], {})[row["aspect"]] = row
    out: list[str] = []
    for variant, systems in by_variant.items():
        title = f"aspect {value}" + (f" [{variant}]" if variant else "") + " (%" + (
            f", {confidence * 100:g}% interval" if confidence else "") + "; n: tasks)"
        table = [["system", *aspects]]
        shown = list(systems.items())[:max_rows] if max_rows else list(systems.items())
        for system, per in shown:
            table.append([system, *(_cell(per.get(a), value) for a in aspects)])
        widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
        out.append(title)
        for k, r in enumerate(table):
            out.append("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i])
                                 for i, c in enumerate(r)).rstrip())
            if k == 0:
                out.append("  ".join("-" * w for w in widths))
        if len(shown) < len(systems):
            out.append(f"... {len(systems) - len(shown)} more systems (every row: aspects.csv)")
    return "\n".join(out) + "\n" if out else ""


def _cell(row: dict[str, Any] | None, value: str) -> str:
    if row is None or row.get(value) is None:
        return "-"
    text = f"{100 * row[value]:.1f}"
    if value == "coverage" and row.get("ci_low") is not None:
        text += f" [{100 * row['ci_low']:.1f}, {100 * row['ci_high']:.1f}]"
    return text + f" n{row['tasks']}"


__all__ = ["CSV_COLUMNS", "AspectCounts", "AspectStats", "Bootstrap", "PairAspects", "aspect_table"]
