"""ROUGE-S and ROUGE-SU: skip-bigram co-occurrence.

A skip-bigram is an ordered pair of tokens with at most ``max_skip`` tokens
between them (unlimited for S*).  Like ROUGE-1.5.5 the pairs are formed over
the whole text.  SU adds unigrams the way the script does: it adds the
unigram of every token that starts a pair, i.e. every token but the last.
"""

from __future__ import annotations

import re

from rouge2.kernels import clipped_hits, skip_bigram_counts
from rouge2.measures.base import MAX_KERNEL_N, MEASURES, BatchSpec, Measure, PairStats, measure_key, perl_round5


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


_S = re.compile(r"rouge-?(su|s)-?(\d+|\*)$")


def _matcher(kind: str):
    def match(name: str) -> str | None:
        m = _S.match(measure_key(name))
        if m is None or m.group(1) != kind:
            return None
        dist = m.group(2)
        return f"rouge-{kind}{dist if dist == '*' else int(dist)}"
    return match


def _batch_skip(m: Measure) -> BatchSpec | None:
    if type(m) is not SkipBigram or (m.max_skip is not None and m.max_skip > MAX_KERNEL_N):
        return None
    return BatchSpec("skip", -1 if m.max_skip is None else m.max_skip, int(m.unigrams))


def _skipgram(canonical: str) -> SkipBigram:
    unigrams = canonical.startswith("rouge-su")
    dist = canonical[len("rouge-su" if unigrams else "rouge-s"):]
    return SkipBigram(None if dist == "*" else int(dist), unigrams=unigrams)


_CAPABILITIES = {"batch": _batch_skip, "needs_tagger": False, "uses_sentences": False,
                 "default_score": "fmeasure", "options": ()}
MEASURES.register_family("rouge-s<k>", _matcher("s"),
                         "ROUGE-S: skip-bigrams with at most k words between (rouge-s*: any)",
                         examples=("rouge-s4", "rouge-s*"), capabilities=_CAPABILITIES)(_skipgram)
MEASURES.register_family("rouge-su<k>", _matcher("su"), "ROUGE-SU: ROUGE-S plus unigrams (rouge-su*: any)",
                         examples=("rouge-su4", "rouge-su*"), capabilities=_CAPABILITIES)(_skipgram)
