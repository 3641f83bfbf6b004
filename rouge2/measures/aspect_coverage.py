"""The per-aspect data of one (task, system) pair, for ``aspects.csv`` and the report.

:class:`AspectCoverage` is built from a run's scorer (its analyzer, its
synonyms when ``aspect_synonyms``) and the ``aspects`` options; it runs where
the scoring runs (worker processes with ``--jobs``), so it returns plain
data (:class:`PairAspects`), which :mod:`rouge2.stats.aspects` adds up.
Definitions there and in docs/aspects.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rouge2.aspects.lexicon import load_lexicon
from rouge2.aspects.match import AspectMatcher, TextAspects
from rouge2.errors import UserError
from rouge2.measures.weights import DocumentFrequencies


@dataclass(frozen=True)
class AspectCounts:
    """One aspect in one (task, system) pair, pooled over the task's references."""

    reference_words: float = 0.0   # sum over references of their aspect words (weights)
    covered_words: float = 0.0     # ... that the summary has too
    ref_mentions: int = 0          # references that mention the aspect
    mention_hits: int = 0          # references that mention it, when the summary does too
    cand_mentions: int = 0         # references, when the summary mentions it (else 0)
    covered: tuple[str, ...] = ()  # reference aspect words the summary has (as in the lexicon)
    missed: tuple[str, ...] = ()   # reference aspect words it does not have
    added: tuple[str, ...] = ()    # summary aspect words no reference has

    @property
    def coverage(self) -> float | None:
        return self.covered_words / self.reference_words if self.reference_words else None


@dataclass
class PairAspects:
    """The per-aspect data of one (task, system) pair."""

    task: str
    system: str
    references: int
    aspects: dict[str, AspectCounts] = field(default_factory=dict)


class AspectCoverage:
    """Per-aspect coverage and mentions of pairs, under one option set."""

    def __init__(self, scorer: Any):
        o = scorer.options
        lexicon = load_lexicon(o.aspects)
        if lexicon is None:
            raise UserError("the per-aspect analysis needs an aspect lexicon (aspects: PATH)")
        relation = None
        if o.aspect_synonyms:
            relation = next((m.relation for m in scorer.measures.values()
                             if getattr(m, "relation", None) is not None), None)
        self.analyzer = scorer.analyzer
        self.matcher = AspectMatcher(lexicon, scorer.analyzer, top=o.aspect_top, lemmas=o.aspect_lemmas,
                                     relation=relation, assign=o.aspect_assign)
        self.min_mentions = o.aspect_min_mentions
        self.weighted = o.topic_weights == "idf"
        self.frequencies: DocumentFrequencies | None = None

    @property
    def aspects(self) -> tuple[str, ...]:
        return self.matcher.aspects

    @property
    def empty(self) -> tuple[str, ...]:
        return self.matcher.empty

    # -- weights: aspect words by their idf over the references ---------------
    def word_key(self, wid: int) -> tuple[str, ...]:
        return self.matcher.words[wid].key

    def frequencies_of(self, references: Iterable[Any]) -> DocumentFrequencies:
        """Document frequencies of the aspect words (analysed entries) over ``references``."""
        freq = DocumentFrequencies()
        for text in references:
            found = self.matcher.find(self.analyzer.analyze(text))
            freq.add({self.word_key(w) for ws in found.words.values() for w in ws},
                     text if isinstance(text, str) else "\n".join(text))
        return freq

    def fit(self, frequencies: DocumentFrequencies) -> None:
        self.frequencies = frequencies

    def _weight(self, wids: Iterable[int]) -> float:
        f = self.frequencies
        if not self.weighted or f is None:
            return float(len(set(wids)))
        return sum(f.idf(self.word_key(w)) for w in sorted(set(wids)))  # a fixed order: the same sum anywhere

    # -- one pair ----------------------------------------------------------------
    def pair(self, task: str, system: str, candidate: Any, references: Sequence[Any]) -> PairAspects:
        find = self.matcher.find
        cand = find(self.analyzer.analyze(candidate, cache=False))
        refs = [find(self.analyzer.analyze(r)) for r in references]
        if self.weighted and self.frequencies is None:  # no fit: the pair's own references
            self.frequencies = self.frequencies_of(references)
            try:
                return self._pair(task, system, cand, refs)
            finally:
                self.frequencies = None
        return self._pair(task, system, cand, refs)

    def _pair(self, task: str, system: str, cand: TextAspects, refs: list[TextAspects]) -> PairAspects:
        out = PairAspects(task, system, len(refs))
        words = self.matcher.words
        c_mentioned = cand.mentioned(self.min_mentions)
        for aspect in self.aspects:
            c_words = cand.words.get(aspect, frozenset())
            ref_words = [r.words.get(aspect, frozenset()) for r in refs]
            union = frozenset().union(*ref_words)
            ref_m = sum(1 for r in refs if aspect in r.mentioned(self.min_mentions))
            if not union and not c_words and not ref_m:
                continue
            mentioned = aspect in c_mentioned
            out.aspects[aspect] = AspectCounts(
                reference_words=sum(self._weight(w) for w in ref_words),
                covered_words=sum(self._weight(w & c_words) for w in ref_words),
                ref_mentions=ref_m,
                mention_hits=ref_m if mentioned else 0,
                cand_mentions=len(refs) if mentioned else 0,
                covered=_texts(words, union & c_words), missed=_texts(words, union - c_words),
                added=_texts(words, c_words - union))
        return out


def _texts(words, ids: Iterable[int]) -> tuple[str, ...]:
    return tuple(sorted(words[i].text for i in ids))


__all__ = ["AspectCounts", "AspectCoverage", "PairAspects"]
