"""ROUGE-L and ROUGE-W, summary-level, as ROUGE-1.5.5 computes them.

For every reference sentence the script takes the union of the LCS positions
found against each candidate sentence, then counts a marked reference token
only while both the reference and the candidate still have an unused copy of
that word (so ROUGE-L never exceeds ROUGE-1).  Which LCS the union uses
matters when several exist; the script's traceback prefers a diagonal move on
equal tokens, then "up" (towards earlier reference tokens) on ties.

rouge2 computes the same LCS with a bit-parallel algorithm: one column of the
dynamic-programming table is a single integer whose bits say where the LCS
length grows, so a column costs a few integer operations instead of a loop.
The script's traceback is then replayed on those columns in O(candidate
length) steps (:func:`rouge2.kernels.union_lcs_hit`; ROUGE-W's weighted
table is :func:`rouge2.kernels.wlcs_raw`).  A text given as one sentence
gets sentence-level LCS.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from rouge2 import kernels as _kernels
from rouge2.kernels import lcs_marks, position_masks
from rouge2.kernels import wlcs_marks as _wlcs_marks
from rouge2.measures.base import MEASURES, BatchSpec, Measure, PairStats, measure_key
from rouge2.measures.ngram import sentence_ids, token_ids
from rouge2.synonyms.matching import larger_hit


class LCS(Measure):
    """ROUGE-L (summary-level union LCS; sentence-level for one-sentence texts).

    With ``flat`` (``rouge-l-flat``) both texts are taken as one sentence
    each, whatever their sentences: the LCS of the whole token streams, as
    ROUGE-1.5.5 computes ROUGE-L for texts written on one line and as
    rouge-score's ``rougeL`` does.
    """

    uses_sentences = True

    def __init__(self, flat: bool = False):
        self.flat = flat
        self.name = "rouge-l-flat" if flat else "rouge-l"

    def stats(self, cand, ref) -> PairStats:
        if self.flat:
            return self._flat_stats(cand, ref)
        ref_sents = ref.sentences
        base = sum(len(s) for s in ref_sents)
        cand_total = len(cand.tokens)
        if not base or not cand_total:
            return PairStats(0, base, cand_total)
        if self.relation is not None:
            # Synonyms never lower the hit: the larger of the plain hit and
            # the synonym-aware one (docs/synonyms.md, "Monotone").
            hit = larger_hit(self.relation, lambda: self._synonym_hits(cand, ref),
                             lambda: self._plain_hit(cand, ref), min(base, cand_total))
            return PairStats(hit, base, cand_total)
        return PairStats(self._plain_hit(cand, ref), base, cand_total)

    def _plain_hit(self, cand, ref) -> int:
        """ROUGE-1.5.5's summary-level union-LCS hit count (non-empty texts)."""
        return _kernels.union_lcs_hit(token_ids(cand), sentence_ids(cand), token_ids(ref),
                                      sentence_ids(ref))

    def _flat_stats(self, cand, ref) -> PairStats:
        base = len(ref.tokens)
        cand_total = len(cand.tokens)
        if not base or not cand_total:
            return PairStats(0, base, cand_total)
        if self.relation is not None:
            hit = larger_hit(self.relation, lambda: self._synonym_hits(cand, ref),
                             lambda: _kernels.lcs_length(token_ids(ref), token_ids(cand)), min(base, cand_total))
            return PairStats(hit, base, cand_total)
        return PairStats(_kernels.lcs_length(token_ids(ref), token_ids(cand)), base, cand_total)

    def _synonym_hits(self, cand, ref) -> int:
        """Union LCS where related words also match, then a maximum clipped matching.

        The LCS table uses "equal or related" in place of equality; the marked
        reference words are then matched to the candidate's words, each
        occurrence used once, maximizing the number of matches (without
        synonyms this is exactly the script's clipping).
        """
        from rouge2.synonyms.matching import max_matching

        rel = self.relation
        assert rel is not None  # called only with synonyms
        marked: Counter = Counter()
        if self.flat:
            cand_sents, ref_sents = [cand.surface], [ref.surface]
        else:
            cand_sents, ref_sents = sentence_surfaces(cand), sentence_surfaces(ref)
        for sent in ref_sents:
            m = len(sent)
            if not m:
                continue
            masks = position_masks(sent)
            union = 0
            for peer in cand_sents:
                if not peer:
                    continue
                related = {}
                for tok in set(peer):
                    mk = 0
                    for rt, msk in masks.items():
                        if rel.tok(tok, rt):
                            mk |= msk
                    related[tok] = mk
                union |= lcs_marks(related, m, peer)
            while union:
                low = union & -union
                marked[sent[low.bit_length() - 1]] += 1
                union ^= low
        return max_matching(Counter(flat_surface(cand)), marked, rel)


def sentence_surfaces(text):
    """Per-sentence unstemmed words (the sentences when limits make them differ)."""
    lengths = [len(s) for s in text.sentences]
    if sum(lengths) != len(text.surface):
        return text.sentences
    out, start = [], 0
    for n in lengths:
        out.append(text.surface[start : start + n])
        start += n
    return out


def flat_surface(text):
    """The words :func:`sentence_surfaces` cuts into sentences, as one list (the
    unigram counts the clipping uses)."""
    if sum(len(s) for s in text.sentences) != len(text.surface):
        return text.tokens
    return text.surface


class WLCS(Measure):
    """ROUGE-W with weighting function f(k) = k ** weight.

    Statistics follow the script: ``hit`` sums f(run length) over the
    consecutive runs of counted LCS tokens, ``ref_total`` is
    f(Σ_sentences f(sentence length)) and ``cand_total`` is f(candidate
    length); recall and precision apply f⁻¹ to hit/total.
    """

    uses_sentences = True

    def __init__(self, weight: float = 1.2):
        if weight <= 0:
            raise ValueError("ROUGE-W weight must be greater than 0")
        self.weight = float(weight)
        self.name = f"rouge-w-{format_weight(weight)}"

    def _f(self, x):
        return x ** self.weight

    def _finv(self, x):
        return x ** (1 / self.weight)

    def _raw(self, cand, ref):
        """(weighted hit, Σ f(reference sentence length)) as the script counts them.

        With synonyms the hit is the larger of the plain hit and the
        synonym-aware one (:meth:`_synonym_hit`), so synonyms never lower it.
        """
        hit, base = self._plain_raw(cand, ref)
        if self.relation is not None and base:
            plain = hit
            hit = larger_hit(self.relation, lambda: self._synonym_hit(cand, ref), lambda: plain, float("inf"))
        return hit, base

    def _plain_raw(self, cand, ref):
        return _kernels.wlcs_raw(token_ids(cand), sentence_ids(cand), token_ids(ref),
                                 sentence_ids(ref), self.weight)

    def _synonym_hit(self, cand, ref) -> float:
        """The weighted hit with "equal or related" in the table and a maximum matching.

        The weighted-LCS table matches related words as well; the marked
        reference positions are then kept greedily in reference order as
        long as all kept positions can still be matched to distinct
        candidate words (:func:`~rouge2.synonyms.matching.ordered_matching`:
        a maximum matching, the script's clipping when only equality
        counts).  Runs are counted over the kept positions as the script
        counts them.
        """
        from rouge2.synonyms.matching import ordered_matching

        w = self.weight
        rel = self.relation
        assert rel is not None  # called only with synonyms
        ref_sents, cand_sents = sentence_surfaces(ref), sentence_surfaces(cand)
        masks = []
        seq: list[str] = []
        for sent in ref_sents:
            m = len(sent)
            mask = [0] * m
            if m:
                for peer in cand_sents:
                    if peer:
                        _wlcs_marks(sent, peer, w, mask, rel.tok)
            masks.append(mask)
            seq.extend(sent[j] for j in range(m) if mask[j])
        kept = iter(ordered_matching(seq, Counter(flat_surface(cand)), rel))
        hit = 0.0
        for sent, mask in zip(ref_sents, masks):
            m = len(sent)
            run = 0
            for j in range(m):
                if mask[j] and next(kept):
                    run += 1
                    if j + 1 == m or not mask[j + 1]:
                        hit += run ** w
                        run = 0
        return hit

    def stats(self, cand, ref) -> PairStats:
        hit, base = self._raw(cand, ref)
        return PairStats(hit, base ** self.weight, len(cand.tokens) ** self.weight)

    def recall(self, s: PairStats) -> float:
        return self._finv(s.hit / s.ref_total) if s.ref_total else 0.0

    def precision(self, s: PairStats) -> float:
        return self._finv(s.hit / s.cand_total) if s.cand_total else 0.0

    def stats_and_key(self, cand, ref):
        # The script ranks references by f⁻¹(hit / Σ f(len)), before its
        # second application of f to the total.  It divides by zero on an
        # empty reference; rouge2 ranks that reference 0.
        s, base = self.stats_and_base(cand, ref)
        return s, self.key_from(s, base)

    def stats_and_base(self, cand, ref):
        hit, base = self._raw(cand, ref)
        return PairStats(hit, base ** self.weight, len(cand.tokens) ** self.weight), base

    def key_from(self, s: PairStats, key_base: float) -> float:
        return self._finv(s.hit / key_base) if key_base else 0.0

    def best_key(self, s: PairStats) -> float:
        base = s.ref_total ** (1 / self.weight) if s.ref_total else 0.0
        return self._finv(s.hit / base) if base else 0.0


def format_weight(w: float) -> str:
    """Weight as the script prints it (Perl number formatting: 1.2, 1.5, 2)."""
    text = "%.15g" % float(w)
    return text


#: the largest ROUGE-W weight.  The reference total is f applied twice, as
#: ROUGE-1.5.5 does (f(sum of f(sentence length))), so it grows like
#: k ** (weight ** 2) and must stay finite for any text length (k up to
#: 2**31 words: (2**31) ** (5.5 ** 2) < 1e283 < 1.8e308, with room to add
#: totals over evaluations); 32 let a 30-word reference overflow.
MAX_WEIGHT = 5.5

_L = {"rouge-l": "rouge-l", "rougelsum": "rouge-l", "rouge-lsum": "rouge-l",
      "rouge-l-flat": "rouge-l-flat", "rougel": "rouge-l-flat"}
_W = re.compile(r"rouge-?w-?(\d+(?:\.\d*)?|\.\d+)$")


def _match_l(flat: bool):
    def match(name: str) -> str | None:
        found = _L.get(measure_key(name))
        return found if found is not None and found.endswith("-flat") == flat else None
    return match


def _match_w(name: str) -> str | None:
    key = measure_key(name)
    if key in ("rouge-w", "rougew"):
        return "rouge-w-1.2"
    m = _W.match(key)
    if m is None:
        return None
    weight = float(m.group(1))
    if not (0 < weight <= MAX_WEIGHT) or not math.isfinite(weight):
        raise MEASURES.refuse(name, f"the ROUGE-W weight must be above 0 and at most {MAX_WEIGHT:g}")
    return f"rouge-w-{format_weight(weight)}"


def _batch_l(m: Measure) -> BatchSpec | None:
    if type(m) is not LCS:
        return None
    return BatchSpec("lcs-flat" if m.flat else "lcs", synonyms=True)


def _batch_w(m: Measure) -> BatchSpec | None:
    return BatchSpec("wlcs", weight=m.weight) if type(m) is WLCS else None


def _capabilities(batch, sentences: bool) -> dict:
    return {"batch": batch, "needs_tagger": False, "uses_sentences": sentences,
            "default_score": "fmeasure", "options": ()}


MEASURES.register_family(
    "rouge-l", _match_l(False), "ROUGE-L: summary-level union LCS over the sentences (rouge-score's rougeLsum)",
    examples=("rouge-l", "rougeLsum"), capabilities=_capabilities(_batch_l, True))(lambda canonical: LCS())
MEASURES.register_family(
    "rouge-l-flat", _match_l(True), "ROUGE-L over each whole text as one sentence (rouge-score's rougeL)",
    examples=("rouge-l-flat", "rougeL"), capabilities=_capabilities(_batch_l, False))(
        lambda canonical: LCS(flat=True))
MEASURES.register_family(
    "rouge-w-<weight>", _match_w, "ROUGE-W: weighted LCS, f(k) = k^weight, 0 < weight <= 5.5 (rouge-w: 1.2)",
    examples=("rouge-w-1.2", "rouge-w"), capabilities=_capabilities(_batch_w, True))(
        lambda canonical: WLCS(float(canonical[len("rouge-w-"):])))
