"""Which synonyms fired, and how much of each synonym source the data touches.

While a relation explains (:attr:`~rouge2.synonyms.matching.PositionwiseRelation.log`
is a Counter), every maximum matching notes the synonym matches it *used*:
for each matched pair of distinct units, each position whose words differ
(and, with a stemmer, whose stems differ) adds one match of
``(reference word, candidate word)`` per matched occurrence.  ROUGE-L and
ROUGE-W note them only when the synonym-aware hit is larger than the plain
one (:func:`~rouge2.synonyms.matching.larger_hit`).  Nothing is noted, and
nothing costs, unless explaining is asked for.

:class:`MatchTable` sums the notes of many pairs into the rows of
``synonym_matches.csv``; :func:`coverage` counts, per synonym source, its
entries (words), those occurring in the data and those that fired.
Definitions: docs/synonym-experiments.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rouge2.synonyms.base import SynonymMatcher

__all__ = ["MATCH_COLUMNS", "MatchTable", "coverage", "coverage_warnings", "members"]

#: the columns of ``synonym_matches.csv``
MATCH_COLUMNS = ("variant", "measure", "reference_word", "candidate_word", "matches",
                 "example_task", "example_system")


class MatchTable:
    """``(variant, measure, reference word, candidate word)`` -> matches, with
    the first (task, system) where the pair matched as its example."""

    def __init__(self) -> None:
        self.cells: dict[tuple[Any, str, str, str], list[Any]] = {}

    def add(self, variant: str | None, measure: str, log: Mapping[tuple[str, str], int],
            task: str, system: str) -> None:
        """One pair's notes for one measure (``log``: ``(reference word,
        candidate word) -> matches``)."""
        cells = self.cells
        for (ref, cand), k in log.items():
            cell = cells.get((variant, measure, ref, cand))
            if cell is None:
                cells[(variant, measure, ref, cand)] = [k, task, system]
            else:
                cell[0] += k

    def __len__(self) -> int:
        return len(self.cells)

    def rows(self, variants: Sequence[str | None] = (), measures: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The rows of ``synonym_matches.csv``: by variant and measure (in the
        orders given), then most matches first, then the words."""
        v_order = {v: i for i, v in enumerate(variants)}
        m_order = {m: i for i, m in enumerate(measures)}
        keys = sorted(self.cells, key=lambda k: (v_order.get(k[0], len(v_order)), str(k[0]),
                                                 m_order.get(k[1], len(m_order)), k[1],
                                                 -self.cells[k][0], k[2], k[3]))
        return [dict(zip(MATCH_COLUMNS, ("" if v is None else v, m, r, c, *self.cells[(v, m, r, c)])))
                for v, m, r, c in keys]

    def pairs(self, variant: str | None) -> set[tuple[str, str]]:
        """The (reference word, candidate word) pairs that fired in ``variant``, any measure."""
        return {(r, c) for v, _, r, c in self.cells if v == variant}


def members(matcher: SynonymMatcher) -> tuple[SynonymMatcher, ...]:
    """The sources of a matcher: a union's members, else the matcher itself."""
    return tuple(getattr(matcher, "members", (matcher,)))


def _source_coverage(src: SynonymMatcher, data_words: Iterable[str],
                     fired: Iterable[tuple[str, str]]) -> dict[str, Any]:
    words = src.vocabulary()
    row: dict[str, Any] = {"source": src.name, "signature": src.signature, "entries": None,
                           "in_data": None, "fired": None}
    if words is None:
        return row
    in_data = {f for w in data_words for f in src.forms(w) if f in words}
    fired_words: set[str] = set()
    for ref, cand in fired:
        if src.matches(ref, cand):
            for w in (ref, cand):
                fired_words.update(f for f in src.forms(w) if f in words)
    row.update(entries=len(words), in_data=len(in_data), fired=len(fired_words))
    return row


def coverage(matcher: SynonymMatcher, data_words: Iterable[str],
             fired: Iterable[tuple[str, str]]) -> list[dict[str, Any]]:
    """Per source of ``matcher``: ``entries`` (its words), ``in_data`` (those
    occurring in ``data_words``, as a word or as the base form of one when
    the source is lemma-aware) and ``fired`` (those that took part, so, in a
    used synonym match the source relates: ``fired`` are the (reference
    word, candidate word) pairs of :meth:`MatchTable.pairs`)."""
    data = set(data_words)
    pairs = list(fired)
    return [_source_coverage(src, data, pairs) for src in members(matcher)]


def coverage_warnings(rows: Iterable[dict[str, Any]], variant: str | None = None) -> list[str]:
    """One line per source that matched nothing (naming it)."""
    out = []
    where = "" if variant is None else f" (variant {variant})"
    for r in rows:
        if r["fired"] == 0:
            out.append(f"warning: synonym source {r['source']}{where} matched nothing: none of its "
                       f"{r['entries']:,} words fired ({r['in_data']:,} occur in the data)")
    return out
