"""The rouge-score drop-in's scores in pure Python: the definitions of ``rouge_score.h``.

Tokens are the maximal runs of ASCII letters and digits, A-Z lowercased
(:func:`rouge2.kernels.python.rouge155_tokens`; the caller passes
``str.lower()`` of a text that is not ASCII, which makes them rouge-score's
tokens).  ``stem`` is None or a function word -> stem, applied to tokens
longer than 3 characters (the caller passes nltk's Porter stemmer; the C
kernel carries its own copy of it).

For each rouge type, rouge-score's ``(precision, recall, F)``: rougeN's
clipped n-gram hits over ``max(tokens - n + 1, 1)`` n-grams of each side;
rougeL's LCS length and rougeLsum's hits over each side's tokens, or None
(rouge-score's int zero score) when a side has no token; F is
``2 * p * r / (p + r)``, or 0.0 when ``p + r`` is 0.

rougeLsum (rouge-score's ``_summary_level_lcs``): the lines of each text are
its sentences.  For each target line, in order, the positions on the LCS
traceback against each prediction line (a diagonal step on equal tokens,
else towards earlier target positions on ties: :func:`lcs_marks`) are
united; each such token, in position order, is a hit while both texts still
have an unmatched copy of it, and then uses one copy of each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from rouge2.kernels.python import lcs_length, lcs_marks, ngram_hits, position_masks, rouge155_tokens, token_ids

__all__ = ["rouge_score_prf"]

Stem = Callable[[str], str]


def _ids(text: str, stem: Stem | None, vocab: dict[str, int]) -> list[int]:
    words = rouge155_tokens(text)
    if stem is not None:
        words = [stem(w) if len(w) > 3 else w for w in words]
    return token_ids(words, vocab)


def lsum_hits(t_lines: list[list[int]], p_lines: list[list[int]]) -> int:
    """rougeLsum's hits of the target lines against the prediction lines (each non-empty)."""
    left_t = Counter(tok for line in t_lines for tok in line)
    left_p = Counter(tok for line in p_lines for tok in line)
    hits = 0
    for ref in t_lines:
        masks = position_masks(ref)
        union = 0
        for cand in p_lines:
            union |= lcs_marks(masks, len(ref), cand)
        while union:
            low = union & -union
            union ^= low
            tok = ref[low.bit_length() - 1]
            if left_p[tok] > 0 and left_t[tok] > 0:
                hits += 1
                left_p[tok] -= 1
                left_t[tok] -= 1
    return hits


def _prf(hits: int, cand_total: int, ref_total: int) -> tuple[float, float, float]:
    precision = hits / cand_total
    recall = hits / ref_total
    return precision, recall, 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def rouge_score_prf(target: str, prediction: str, orders: tuple[int, ...], lcs: bool, lsum: bool,
                    stem: Stem | None) -> tuple[tuple[float, float, float] | None, ...]:
    """(P, R, F) for each n in ``orders``, then rougeL if ``lcs``, then rougeLsum if ``lsum``."""
    vocab: dict[str, int] = {}
    if lsum:
        lines = [[ids for ids in (_ids(line, stem, vocab) for line in text.split("\n")) if ids]
                 for text in (target, prediction)]
        t = [tok for line in lines[0] for tok in line]
        p = [tok for line in lines[1] for tok in line]
    else:
        t = _ids(target, stem, vocab)
        p = _ids(prediction, stem, vocab)
    out: list[tuple[float, float, float] | None] = []
    for n in orders:
        if n < 1:
            raise ValueError("rouge_score_prf() orders must be positive")
        out.append(_prf(ngram_hits(p, t, n), max(len(p) - n + 1, 1), max(len(t) - n + 1, 1)))
    if lcs:
        out.append(_prf(lcs_length(t, p), len(p), len(t)) if t and p else None)
    if lsum:
        out.append(_prf(lsum_hits(lines[0], lines[1]), len(p), len(t)) if t and p else None)
    return tuple(out)
