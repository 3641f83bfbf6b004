"""ROUGE-S and ROUGE-SU: skip-bigram co-occurrence.

A skip-bigram is an ordered pair of tokens with at most ``max_skip`` tokens
between them (unlimited for S*).  Like ROUGE-1.5.5 the pairs are formed over
the whole text.  SU adds unigrams the way the script does: it adds the
unigram of every token that starts a pair, i.e. every token but the last.
"""

from __future__ import annotations

from rouge2.kernels import clipped_hits, skip_bigram_counts
from rouge2.measures.base import Measure, PairStats, perl_round5


class SkipBigram(Measure):
    def __init__(self, max_skip: int | None, unigrams: bool = False):
        if max_skip is not None and max_skip < 0:
            max_skip = None
        self.max_skip = max_skip
        self.unigrams = unigrams
        dist = "*" if max_skip is None else str(max_skip)
        self.name = f"rouge-{'su' if unigrams else 's'}{dist}"
        self._key = ("skip", max_skip, unigrams)

    def _features(self, text):
        return text.feature(
            self._key, lambda t: skip_bigram_counts(t.tokens, self.max_skip, self.unigrams)
        )

    def stats(self, cand, ref) -> PairStats:
        c_counts, c_total = self._features(cand)
        r_counts, r_total = self._features(ref)
        if not c_total or not r_total:
            return PairStats(0, r_total, c_total)
        if self.relation is not None:
            from rouge2.synonyms.matching import max_matching

            key = ("skip-surface", self.max_skip, self.unigrams)
            build = lambda t: skip_bigram_counts(t.surface, self.max_skip, self.unigrams)[0]  # noqa: E731
            hit = max_matching(cand.feature(key, build), ref.feature(key, build), self.relation)
            return PairStats(hit, r_total, c_total)
        return PairStats(clipped_hits(c_counts, r_counts), r_total, c_total)

    def best_key(self, s: PairStats) -> float:
        return perl_round5(s.hit / s.ref_total) if s.ref_total else 0.0
