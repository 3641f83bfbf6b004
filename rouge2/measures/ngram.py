"""ROUGE-N: clipped n-gram co-occurrence over the whole text.

As in ROUGE-1.5.5, n-grams run across sentence boundaries (the script joins
a summary's lines before counting), and each reference n-gram is matched at
most as often as it occurs in the candidate.

For speed, tokens are interned to integers once per text and the shared
n-grams are counted by :func:`rouge2.kernels.ngram_hits` (exact: n-grams are
compared by their ids, never only by a hash).
"""

from __future__ import annotations

import re
from collections import Counter

from rouge2 import kernels as _kernels
from rouge2.measures.base import MAX_KERNEL_N, MEASURES, BatchSpec, Measure, PairStats, measure_key, perl_round5

_VOCAB: dict[str, int] = {}

_token_ids = _kernels.token_ids


def ids_of(tokens) -> list[int]:
    """Process-wide ids of a list of tokens (no caching)."""
    return _token_ids(tokens, _VOCAB)


def token_ids(text) -> list[int]:
    """The text's tokens as process-wide integer ids (computed once per text)."""
    feats = text.features
    ids = feats.get("ids")
    if ids is None:
        ids = feats["ids"] = _token_ids(text.tokens, _VOCAB)
    return ids


def sentence_ids(text) -> list[list[int]]:
    """The ids of each of the text's sentences (computed once per text)."""
    return text.feature("sentence-ids", lambda t: [ids_of(s) for s in t.sentences])


def surface_ngrams(words, n: int) -> Counter:
    """n-grams of unstemmed words (str for n=1, tuples otherwise) for synonym matching."""
    if n == 1:
        return Counter(words)
    return Counter(zip(*(words[i:] for i in range(n))))


class NGram(Measure):
    def __init__(self, n: int):
        if n < 1:
            raise ValueError("n must be at least 1")
        self.n = n
        self.name = f"rouge-{n}"

    def _surface_counts(self, text):
        n = self.n
        return text.feature(("ngram-surface", n), lambda t: surface_ngrams(t.surface, n))

    def stats(self, cand, ref) -> PairStats:
        c_ids = token_ids(cand)
        r_ids = token_ids(ref)
        n = self.n
        c_total = len(c_ids) - n + 1
        r_total = len(r_ids) - n + 1
        if c_total <= 0 or r_total <= 0:
            return PairStats(0, max(0, r_total), max(0, c_total))
        if self.relation is not None:
            from rouge2.synonyms.matching import max_matching

            hit = max_matching(self._surface_counts(cand), self._surface_counts(ref), self.relation)
            return PairStats(hit, r_total, c_total)
        return PairStats(_kernels.ngram_hits(c_ids, r_ids, n), r_total, c_total)

    def best_key(self, s: PairStats) -> float:
        # The script compares recall after sprintf("%07.5f"), so ties are
        # decided on five decimals and the first reference wins them.
        return perl_round5(s.hit / s.ref_total) if s.ref_total else 0.0


#: the largest n-gram size accepted (a larger n only ever finds no n-gram)
MAX_N = 1_000_000

_N = re.compile(r"rouge-?(\d+)$")


def _match_n(name: str) -> str | None:
    m = _N.match(measure_key(name))
    if m is None:
        return None
    n = int(m.group(1))
    if n < 1:
        raise MEASURES.refuse(name, "the n-gram size must be at least 1")
    if n > MAX_N:
        raise MEASURES.refuse(name, f"the n-gram size must be at most {MAX_N}")
    return f"rouge-{n}"


def _batch_n(m: Measure) -> BatchSpec | None:
    if type(m) is not NGram or m.n > MAX_KERNEL_N:
        return None
    return BatchSpec("ngram", m.n, synonyms=True)


@MEASURES.register_family(
    "rouge-<n>", _match_n, "ROUGE-N: clipped n-gram overlap, n >= 1 (rouge-score's rouge1 too)",
    examples=("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge1", "rouge2"),
    capabilities={"batch": _batch_n, "needs_tagger": False, "uses_sentences": False,
                  "default_score": "fmeasure", "options": ()})
def _ngram(canonical: str) -> NGram:
    return NGram(int(canonical[len("rouge-"):]))
