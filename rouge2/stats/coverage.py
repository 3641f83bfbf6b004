"""Dataset-level topic coverage, from the per-pair data of :mod:`rouge2.measures.coverage`.

Definitions (docs/topics.md, "Dataset-level analysis"):

* **coverage of a pair** (task, system): covered / reference topic words,
  pooled over the task's references (each reference's distinct topic words;
  covered = exact + synonym).  With ``multi_reference: pooled`` this is the
  pair's ROUGE-TopicUniq recall.
* **coverage of a system**: the mean of its pairs' coverage over its tasks
  (tasks whose references have no topic word are left out and counted), with
  a percentile bootstrap interval over tasks
  (:func:`rouge2.stats.bootstrap.bootstrap_interval`, seeded with
  ``"<seed>|<system>|topic-coverage"``).  ``pooled`` is the ratio of the sums
  over all its tasks and references.
* **missed** topic word of a pair: a reference topic word (stem) covered
  against none of the references that contain it; **added**: a candidate
  topic word matched against no reference.  A word's count is the number of
  tasks where the system missed (added) it, its share that count over the
  system's tasks.  Over all systems the unit is the (task, system) pair.
* **family**: the word's universal part of speech (NOUN, PROPN, VERB, ADJ,
  ...): the one it has most often over the run's texts (ties: in
  :data:`FAMILY_ORDER`), so a word (a stem) is one row, never split
  between nouns and proper nouns.
* **contrast** of systems A and B: over the tasks both have, the reference
  topic words A covers and B misses (and the reverse), counted in tasks.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rouge2.measures.coverage import PairCoverage
from rouge2.stats.bootstrap import bootstrap_interval, mean

#: families in display order; other universal tags follow alphabetically
FAMILY_ORDER = ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "AUX", "NUM")
FAMILY_LABELS = {
    "NOUN": "nouns", "PROPN": "proper nouns", "VERB": "verbs", "ADJ": "adjectives",
    "ADV": "adverbs", "AUX": "auxiliaries", "NUM": "numbers", "PRON": "pronouns",
    "ADP": "adpositions", "DET": "determiners", "INTJ": "interjections", "PART": "particles",
    "CCONJ": "conjunctions", "SCONJ": "subordinators", "PUNCT": "punctuation", "SYM": "symbols",
    "X": "other", "": "untagged",
}

_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[tuple[int, int | str], ...], str]:
    """Sort key that orders digit runs by value: task2 < task10 < Task11.

    Names compare part by part, numbers by value and text case-insensitively;
    names equal that way (Task1, task1, task01) then compare exactly, so the
    order is total and deterministic."""
    parts: list[tuple[int, int | str]] = []
    for k, part in enumerate(_DIGITS.split(text)):
        if k % 2:
            parts.append((0, int(part)))
        elif part:
            parts.append((1, part.casefold()))
    return (tuple(parts), text)


def family_sort_key(family: str) -> tuple[int, str]:
    return (FAMILY_ORDER.index(family), "") if family in FAMILY_ORDER else (len(FAMILY_ORDER), family)


def family_label(family: str) -> str:
    return FAMILY_LABELS.get(family, family.lower())


@dataclass(frozen=True)
class BootstrapSettings:
    resamples: int = 1000
    confidence: float = 0.95
    seed: int = 0


@dataclass
class PairSummary:
    """What the dataset-level statistics and the pages keep of one (task, system) pair."""

    coverage: float | None
    counts: dict[str, int]
    covered: frozenset[tuple[str, str]]   # (family, stem) of covered reference topics
    missed: frozenset[tuple[str, str]]
    missed_words: tuple[tuple[str, int], ...] = ()   # (word, references containing it)
    added_words: int = 0                          # distinct candidate topic words added


class CoverageStats:
    """Accumulates :class:`~rouge2.measures.coverage.PairCoverage` data; answers
    the dataset-level questions.  Memory grows with the number of pairs
    (counts and the sets of covered/missed stems), never with the texts."""

    def __init__(self) -> None:
        self.pairs: dict[tuple[str, str], PairSummary] = {}
        self.task_first: dict[str, int] = {}      # task -> order of first appearance
        self.system_first: dict[str, int] = {}
        self.task_references: dict[str, int] = {}
        self.task_topics: dict[str, set[str]] = defaultdict(set)
        # system -> (family, stem) -> number of tasks
        self.missed: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
        self.added: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
        self.present: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)   # a reference topic of the task
        self.used: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)      # a candidate topic of the pair
        self.forms: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self._stem_families: dict[str, Counter[str]] | None = None

    # -- input -----------------------------------------------------------
    def add(self, cov: PairCoverage) -> None:
        key = (cov.task, cov.system)
        if key in self.pairs:
            raise ValueError(f"task {cov.task!r} has system {cov.system!r} twice")
        self._stem_families = None
        self.task_first.setdefault(cov.task, len(self.task_first))
        self.system_first.setdefault(cov.system, len(self.system_first))
        self.task_references[cov.task] = max(self.task_references.get(cov.task, 0),
                                             len(cov.references))
        covered, missed = set(), set()
        missed_words = []
        added_words = 0
        s = cov.system
        topics = self.task_topics[cov.task]
        present, miss, used, add = self.present[s], self.missed[s], self.used[s], self.added[s]
        forms = self.forms
        for stem, word, upos, n_refs, status in cov.reference_topics:
            k = (upos, stem)
            topics.add(stem)
            forms[k][word] += 1
            present[k] += 1
            if status == "missed":
                missed.add(k)
                missed_words.append((word, n_refs))
                miss[k] += 1
            else:
                covered.add(k)
        for stem, word, upos, _, status in cov.candidate_topics:
            k = (upos, stem)
            forms[k][word] += 1
            used[k] += 1
            if status == "added":
                added_words += 1
                add[k] += 1
        self.pairs[key] = PairSummary(cov.coverage, dict(cov.counts), frozenset(covered),
                                       frozenset(missed), tuple(missed_words), added_words)

    # -- orders ----------------------------------------------------------
    def tasks(self, order: str = "natural") -> list[str]:
        """Task names: ``natural`` (task2 < task10), ``input`` (first seen) or ``lexical``."""
        if order == "input":
            return sorted(self.task_first, key=self.task_first.__getitem__)
        if order == "lexical":
            return sorted(self.task_first)
        return sorted(self.task_first, key=natural_key)

    def systems(self) -> list[str]:
        return sorted(self.system_first, key=natural_key)

    def tasks_of(self, system: str) -> list[str]:
        return [t for t in self.tasks() if (t, system) in self.pairs]

    def word(self, family: str, stem: str) -> str:
        """The most frequent surface form of a topic word, over all its
        families (first seen on ties)."""
        forms: Counter[str] = Counter()
        for fam in self._families().get(stem, ()):
            forms.update(self.forms[(fam, stem)])
        if not forms:
            return stem
        return forms.most_common(1)[0][0]

    def _families(self) -> dict[str, Counter[str]]:
        """Stem -> how often it occurs with each family (computed once after the last add)."""
        if self._stem_families is None:
            out: dict[str, Counter[str]] = defaultdict(Counter)
            for (fam, stem), forms in self.forms.items():
                out[stem][fam] += sum(forms.values())
            self._stem_families = dict(out)
        return self._stem_families

    def family_of(self, stem: str) -> str:
        """A word's family: its most frequent universal tag over the run (ties: FAMILY_ORDER)."""
        fams = self._families().get(stem)
        if not fams:
            return ""
        return min(fams, key=lambda f: (-fams[f], family_sort_key(f)))

    def _by_word(self, counts: Counter[tuple[str, str]]) -> Counter[tuple[str, str]]:
        """``(family, stem)`` counts merged per stem, keyed ``(family_of(stem), stem)``."""
        out: Counter[tuple[str, str]] = Counter()
        for (_fam, stem), n in counts.items():
            out[(self.family_of(stem), stem)] += n
        return out

    # -- systems ---------------------------------------------------------
    def system_rows(self, bootstrap: BootstrapSettings | None = BootstrapSettings()) -> list[dict[str, Any]]:
        """One dict per system (natural order of names): coverage with its
        interval, pooled counts, missed and added per task."""
        rows = []
        for system in self.systems():
            tasks = self.tasks_of(system)
            values = [self.pairs[(t, system)].coverage for t in tasks]
            scored = [v for v in values if v is not None]
            totals: Counter[str] = Counter()
            for t in tasks:
                totals.update(self.pairs[(t, system)].counts)
            ref = totals["reference"]
            covered = totals["exact"] + totals["synonym"]
            row: dict[str, Any] = {
                "system": system,
                "tasks": len(tasks),
                "tasks_without_topics": len(values) - len(scored),
                "coverage": mean(scored) if scored else None,
                "ci_low": None,
                "ci_high": None,
                "pooled_coverage": covered / ref if ref else None,
                "exact_share": totals["exact"] / ref if ref else None,
                "synonym_share": totals["synonym"] / ref if ref else None,
                "reference_topics": ref,
                "covered": covered,
                "exact": totals["exact"],
                "synonym": totals["synonym"],
                "missed": totals["missed"],
                "added": totals["added"],
                "missed_per_task": totals["missed"] / len(tasks) if tasks else None,
                "added_per_task": totals["added"] / len(tasks) if tasks else None,
            }
            if bootstrap is not None and scored:
                rng = random.Random(f"{bootstrap.seed}|{system}|topic-coverage")
                low, high = bootstrap_interval(scored, bootstrap.resamples, bootstrap.confidence, rng)
                row["ci_low"], row["ci_high"] = low, high
            rows.append(row)
        return rows

    # -- topic words -------------------------------------------------------
    def topic_rows(self, status: str, system: str | None = None,
                   top: int | None = None) -> list[dict[str, Any]]:
        """The most-missed (``status="missed"``) or most-added (``"added"``)
        topic words of one system, or of all systems (``system=None``), by
        family: the ``top`` words of each family (all with None), families in
        :data:`FAMILY_ORDER`, words by count (descending), then naturally."""
        if status not in ("missed", "added"):
            raise ValueError(f"status must be 'missed' or 'added', not {status!r}")
        source = self.missed if status == "missed" else self.added
        base = self.present if status == "missed" else self.used
        if system is None:
            units = len(self.pairs)
            counts: Counter[tuple[str, str]] = Counter()
            bases: Counter[tuple[str, str]] = Counter()
            for sys_counts in source.values():
                counts.update(sys_counts)
            for sys_counts in base.values():
                for k, n in sys_counts.items():
                    if k in counts:
                        bases[k] += n
        else:
            units = sum(1 for t, s in self.pairs if s == system)
            counts = source.get(system, Counter())
            bases = base.get(system, Counter())
        counts, bases = self._by_word(counts), self._by_word(bases)
        by_family: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
        for (fam, stem), n in counts.items():
            by_family[fam].append((fam, stem, n))
        rows = []
        for fam in sorted(by_family, key=family_sort_key):
            group = by_family[fam]
            if top is not None and len(group) > top:
                # only words that can make the top need their display form and natural key
                group.sort(key=lambda w: -w[2])
                group = [w for w in group if w[2] >= group[top - 1][2]]
            words = [(self.word(f, stem), f, stem, n) for f, stem, n in group]
            words.sort(key=lambda w: (-w[3], natural_key(w[0]), w[2]))
            for word, f, stem, n in words[:top] if top is not None else words:
                rows.append({
                    "scope": "all" if system is None else "system",
                    "system": "" if system is None else system,
                    "status": status,
                    "family": fam,
                    "topic": word,
                    "stem": stem,
                    "tasks": n,
                    "share": n / units if units else None,
                    # tasks where it is a reference topic (missed) / a candidate topic (added)
                    "occurs": bases[(f, stem)],
                    "rate": n / bases[(f, stem)] if bases[(f, stem)] else None,
                })
        return rows

    def top_words(self, status: str, n: int, system: str | None = None) -> list[dict[str, Any]]:
        """The ``n`` most-missed (most-added) words over all families."""
        rows = self.topic_rows(status, system)
        rows.sort(key=lambda r: (-r["tasks"], natural_key(r["topic"]), family_sort_key(r["family"])))
        return rows[:n]

    # -- contrast ----------------------------------------------------------
    def contrast(self, a: str, b: str, top: int | None = None) -> dict[str, Any]:
        """Topic words ``a`` covers and ``b`` misses in the same task, and the
        reverse, over the tasks both systems have."""
        common = [t for t in self.tasks() if (t, a) in self.pairs and (t, b) in self.pairs]
        a_only: Counter[str] = Counter()
        b_only: Counter[str] = Counter()
        for t in common:
            pa, pb = self.pairs[(t, a)], self.pairs[(t, b)]
            a_only.update(_stems(pa.covered) & _stems(pb.missed))
            b_only.update(_stems(pb.covered) & _stems(pa.missed))

        def rows(counts: Counter[str], direction: str) -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = [
                {"system_a": a, "system_b": b, "direction": direction, "family": self.family_of(stem),
                 "topic": self.word(self.family_of(stem), stem), "stem": stem, "tasks": n,
                 "share": n / len(common) if common else None}
                for stem, n in counts.items()]
            out.sort(key=lambda r: (-r["tasks"], family_sort_key(r["family"]),
                                    natural_key(r["topic"]), r["stem"]))
            return out[:top] if top is not None else out

        return {"system_a": a, "system_b": b, "tasks": len(common),
                "a_covers_b_misses": rows(a_only, "a_covers_b_misses"),
                "b_covers_a_misses": rows(b_only, "b_covers_a_misses"),
                "a_covers_b_misses_total": sum(a_only.values()),
                "b_covers_a_misses_total": sum(b_only.values())}

    # -- tasks -------------------------------------------------------------
    def task_rows(self, order: str = "natural") -> list[dict[str, Any]]:
        """One dict per task: systems, references, distinct reference topic
        words, mean / min / max coverage over its systems, best and worst system."""
        by_task: dict[str, list[tuple[str, float | None]]] = defaultdict(list)
        for (t, s), p in self.pairs.items():
            by_task[t].append((s, p.coverage))
        rows = []
        for t in self.tasks(order):
            entries = sorted(by_task[t], key=lambda e: natural_key(e[0]))
            scored = [(s, c) for s, c in entries if c is not None]
            best = max(scored, key=lambda e: e[1], default=None)   # first on ties (natural order)
            worst = min(scored, key=lambda e: e[1], default=None)
            rows.append({
                "task": t, "systems": len(entries), "references": self.task_references.get(t, 0),
                "reference_topics": len(self.task_topics.get(t, ())),
                "mean_coverage": mean([c for _, c in scored]) if scored else None,
                "min_coverage": worst[1] if worst else None,
                "max_coverage": best[1] if best else None,
                "best_system": best[0] if best else "", "worst_system": worst[0] if worst else "",
            })
        return rows

    def default_contrast(self, rows: Sequence[dict[str, Any]] | None = None) -> list[tuple[str, str]]:
        """The two systems with the highest coverage (ties: natural order), when
        there are two."""
        rows = self.system_rows(None) if rows is None else rows
        ranked = sorted((r for r in rows if r["coverage"] is not None),
                        key=lambda r: (-r["coverage"], natural_key(r["system"])))
        return [(ranked[0]["system"], ranked[1]["system"])] if len(ranked) >= 2 else []


def _stems(words: frozenset[tuple[str, str]]) -> set[str]:
    """The stems of ``(family, stem)`` words."""
    return {stem for _, stem in words}


def natural_sorted(items: Iterable[str]) -> list[str]:
    return sorted(items, key=natural_key)


__all__ = [
    "FAMILY_LABELS",
    "FAMILY_ORDER",
    "BootstrapSettings",
    "CoverageStats",
    "family_label",
    "family_sort_key",
    "natural_key",
    "natural_sorted",
]
