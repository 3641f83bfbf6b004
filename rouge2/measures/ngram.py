"""ROUGE-N: clipped n-gram co-occurrence over the whole text.

As in ROUGE-1.5.5, n-grams run across sentence boundaries (the script joins
a summary's lines before counting), and each reference n-gram is matched at
most as often as it occurs in the candidate.
"""

from __future__ import annotations

from collections import Counter

from rouge2.measures.base import Measure, PairStats, perl_round5


def ngram_counts(tokens, n: int) -> Counter:
    if n == 1:
        return Counter(tokens)
    if n == 2:
        return Counter(zip(tokens, tokens[1:]))
    return Counter(zip(*(tokens[i:] for i in range(n))))


def clipped_hits(cand: Counter, ref: Counter) -> int:
    """Σ min(count in candidate, count in reference) over shared units."""
    if len(cand) > len(ref):
        cand, ref = ref, cand
    hit = 0
    get = ref.get
    for unit, c in cand.items():
        r = get(unit)
        if r:
            hit += c if c < r else r
    return hit


class NGram(Measure):
    def __init__(self, n: int):
        if n < 1:
            raise ValueError("n must be at least 1")
        self.n = n
        self.name = f"rouge-{n}"
        self._key = ("ngram", n)

    def _features(self, text):
        n = self.n
        return text.feature(
            self._key, lambda t: (ngram_counts(t.tokens, n), max(0, len(t.tokens) - n + 1))
        )

    def stats(self, cand, ref) -> PairStats:
        c_counts, c_total = self._features(cand)
        r_counts, r_total = self._features(ref)
        if not c_total or not r_total:
            return PairStats(0, r_total, c_total)
        return PairStats(clipped_hits(c_counts, r_counts), r_total, c_total)

    def best_key(self, s: PairStats) -> float:
        # The script compares recall after sprintf("%07.5f"), so ties are
        # decided on five decimals and the first reference wins them.
        return perl_round5(s.hit / s.ref_total) if s.ref_total else 0.0
