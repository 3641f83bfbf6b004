"""ROUGE-N: clipped n-gram co-occurrence over the whole text.

As in ROUGE-1.5.5, n-grams run across sentence boundaries (the script joins
a summary's lines before counting), and each reference n-gram is matched at
most as often as it occurs in the candidate.

For speed, tokens are interned to integers once per text and an n-gram is
packed into one integer (``id1 << 32 | id2 ...``), which hashes and compares
much faster than a tuple of strings.  The packing is exact: two n-grams get
the same integer only when their tokens are the same.
"""

from __future__ import annotations

from collections import Counter

from rouge2.measures.base import Measure, PairStats, perl_round5

_VOCAB: dict[str, int] = {}


def token_ids(text) -> list[int]:
    """The text's tokens as process-wide integer ids (computed once per text)."""
    ids = text.features.get("ids")
    if ids is None:
        vocab = _VOCAB
        ids = list(map(vocab.get, text.tokens))
        if None in ids:  # words never seen before get the next free ids
            for pos, (tok, i) in enumerate(zip(text.tokens, ids)):
                if i is None:
                    i = vocab.get(tok)
                    if i is None:
                        i = vocab[tok] = len(vocab)
                    ids[pos] = i
        text.features["ids"] = ids
    return ids


def ngram_counts(ids: list[int], n: int) -> Counter:
    if n == 1:
        return Counter(ids)
    if n == 2:
        return Counter([(a << 32) | b for a, b in zip(ids, ids[1:])])
    keys = ids[: len(ids) - n + 1]
    for k in range(1, n):
        keys = [(key << 32) | b for key, b in zip(keys, ids[k:])]
    return Counter(keys)


def surface_ngrams(words, n: int) -> Counter:
    """n-grams of unstemmed words (str for n=1, tuples otherwise) for synonym matching."""
    if n == 1:
        return Counter(words)
    return Counter(zip(*(words[i:] for i in range(n))))


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
        self._key = ("ngram-ids", n)

    def _features(self, text):
        feats = text.features
        value = feats.get(self._key)
        if value is None:
            ids = token_ids(text)
            value = feats[self._key] = (ngram_counts(ids, self.n), max(0, len(ids) - self.n + 1))
        return value

    def _surface_counts(self, text):
        n = self.n
        return text.feature(("ngram-surface", n), lambda t: surface_ngrams(t.surface, n))

    def stats(self, cand, ref) -> PairStats:
        c_counts, c_total = self._features(cand)
        r_counts, r_total = self._features(ref)
        if not c_total or not r_total:
            return PairStats(0, r_total, c_total)
        if self.relation is not None:
            from rouge2.synonyms.matching import max_matching

            hit = max_matching(self._surface_counts(cand), self._surface_counts(ref), self.relation)
            return PairStats(hit, r_total, c_total)
        return PairStats(clipped_hits(c_counts, r_counts), r_total, c_total)

    def best_key(self, s: PairStats) -> float:
        # The script compares recall after sprintf("%07.5f"), so ties are
        # decided on five decimals and the first reference wins them.
        return perl_round5(s.hit / s.ref_total) if s.ref_total else 0.0
