"""A run's synonym explanations: which synonym pairs fired (``synonym_matches.csv``)
and how much of each synonym source the data touches (dictionary coverage).

The pairs are noted where the scoring runs (:class:`rouge2.run.parallel.PairScorer`
with ``explain``, which the run asks for when it writes
``synonym_matches.csv``); this module sums them
(:class:`~rouge2.synonyms.explain.MatchTable`) and turns them into the
file's rows, the coverage rows of ``summary.json``, the console lines and
the warnings.  docs/synonym-experiments.md has the definitions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rouge2.synonyms.explain import MatchTable, coverage, coverage_warnings

__all__ = ["SynonymReport", "explaining"]


def explaining(cfg: Any) -> bool:
    """Whether a run notes its synonym matches: it writes ``synonym_matches.csv``."""
    return getattr(cfg.outputs, "synonym_matches", None) is not None and \
        any(o.synonyms for _, o in cfg.option_sets)


class SynonymReport:
    """The synonym matches and data words of every variant that explains its synonyms."""

    def __init__(self, cfg: Any, pair_scorer: Any) -> None:
        self.variants = [n for n, _ in cfg.option_sets]
        self.measures = list(cfg.measures)
        self.matchers = {name: pair_scorer.scorers[name].synonyms for name in self.variants
                         if name in pair_scorer.explained}
        self.table = MatchTable()
        self.words: dict[Any, set[str]] = {name: set() for name in self.matchers}
        self._coverage: dict[Any, list[dict[str, Any]]] | None = None

    def add(self, item: Any, explained: Mapping[Any, Any]) -> None:
        """One scored summary's notes: ``{variant: (matches per measure, words)}``."""
        for name, (matches, words) in explained.items():
            self.words[name].update(words)
            for m, log in matches.items():
                self.table.add(name, m, log, item.task, item.system)

    def rows(self) -> list[dict[str, Any]]:
        """The rows of ``synonym_matches.csv``."""
        return self.table.rows(self.variants, self.measures)

    def coverage(self) -> dict[Any, list[dict[str, Any]]]:
        """Per variant, per synonym source: entries, in the data, fired (computed once)."""
        if self._coverage is None:
            self._coverage = {name: coverage(m, self.words[name], self.table.pairs(name))
                              for name, m in self.matchers.items()}
        return self._coverage

    def warnings(self) -> list[str]:
        """One line per synonym source that matched nothing, naming it."""
        return [w for name, rows in self.coverage().items() for w in coverage_warnings(rows, name)]

    def summary(self) -> dict[str, Any]:
        """The ``synonyms`` section of ``summary.json``."""
        per = {("" if n is None else n): {"sources": rows,
                                          "matches": sum(c[0] for k, c in self.table.cells.items() if k[0] == n),
                                          "pairs": len({k[2:] for k in self.table.cells if k[0] == n})}
               for n, rows in self.coverage().items()}
        return {"variants": per,
                "definitions": "docs/synonym-experiments.md: entries are a source's words; in_data those "
                               "occurring in the analysed texts (or whose inflections do, lemma-aware); "
                               "fired those in a synonym match a maximum matching used"}

    def console(self) -> list[str]:
        """One line per variant: each source's coverage; then the warnings."""
        lines = []
        for name, rows in self.coverage().items():
            parts = [f"{r['source']} {r['fired']:,} fired / {r['in_data']:,} in the data / {r['entries']:,} words"
                     if r["entries"] is not None else f"{r['source']} (cannot list its words)" for r in rows]
            where = "synonyms" if name is None else f"synonyms of {name}"
            lines.append(f"{where}: {'; '.join(parts)} (synonym_matches.csv)")
        return lines + self.warnings()
