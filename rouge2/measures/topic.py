"""ROUGE-Topic and ROUGE-TopicUniq (Ganesan 2018): coverage of chosen parts of speech.

Topic units are the candidate's and the reference's unigrams whose Penn tag
belongs to the selection (``NN|JJ``: nouns, proper nouns included, and
adjectives).  Texts are tagged on their raw form; stopword removal and
stemming then apply to both sides alike.

ROUGE-Topic      hit = clipped overlap of the two topic multisets,
                 R = hit / |REF_pos|, P = hit / |SYS_pos|
ROUGE-TopicUniq  the same on the sets of distinct topic units
With synonyms the overlap is the maximum matching through the relation.
"""

from __future__ import annotations

from collections import Counter

from rouge2.measures.base import Measure, PairStats
from rouge2.kernels import clipped_hits


class Topic(Measure):
    needs_tagger = True

    def __init__(self, spec: str, unique: bool = False, synonyms=None, tagger=None):
        from rouge2.pos.topics import TopicSelector

        self.selector = TopicSelector.parse(spec)
        self.unique = unique
        self.name = f"rouge-topic{'uniq' if unique else ''}-{str(self.selector).lower()}"
        self._key = ("topic", str(self.selector))
        self.analyzer = None
        self.tagger = tagger

    def prepare(self, analyzer, tagger=None) -> None:
        """Attach the run's analyzer and tagger (the Scorer calls this)."""
        from rouge2.pos.tagger import load_tagger

        self.analyzer = analyzer
        if tagger is not None:
            self.tagger = tagger
        if self.tagger is None or isinstance(self.tagger, str):
            self.tagger = load_tagger(self.tagger)

    def units(self, text) -> list[tuple[str, str, str]]:
        """(stem, word, tag) of the text's topic words, in order."""
        if self.analyzer is None:
            from rouge2.analysis.analyzer import Analyzer

            self.prepare(Analyzer())
        select = self.selector.select
        return text.feature(
            self._key,
            lambda t: [u for u in self.analyzer.analyze_tagged(t, self.tagger) if select(u[2])],
        )

    def _counts(self, units):
        if self.relation is None:
            counts = Counter(stem for stem, _, _ in units)
        else:
            # One representative word per stem, so a stem counts once in TopicUniq.
            counts = Counter()
            first = {}
            for stem, word, _ in units:
                counts[first.setdefault(stem, word)] += 1
        if self.unique:
            counts = Counter(dict.fromkeys(counts, 1))
        return counts

    def stats(self, cand, ref) -> PairStats:
        c = self._counts(self.units(cand))
        r = self._counts(self.units(ref))
        c_total, r_total = sum(c.values()), sum(r.values())
        if not c_total or not r_total:
            return PairStats(0, r_total, c_total)
        if self.relation is None:
            return PairStats(clipped_hits(c, r), r_total, c_total)
        from rouge2.synonyms.matching import max_matching

        return PairStats(max_matching(c, r, self.relation), r_total, c_total)
