"""The two counting kernels of the core path, in C when available.

``ngram_hits`` (clipped shared n-grams) and ``lcs_length`` (longest common
subsequence) take token ids: non-negative ints below 2**64, as
:func:`rouge2.measures.ngram.token_ids` gives them.  The pure-Python
functions below are the reference; ``rouge2._speedups`` (built from
``rouge2/_speedups.c`` when a C compiler is present at install time) gives
the same numbers faster.  ``ROUGE2_PURE_PYTHON=1`` in the environment forces
the Python versions.

``HAVE_C`` says whether the C kernels are in use; ``ngram_hits`` and
``lcs_length`` are whichever implementation was selected.  With C, two more
helpers are taken from the extension (None without it): ``rouge155_tokens``
(the ROUGE-1.5.5 tokenizer returning one shared str object per word, used by
rouge2.analysis.tokenize; reference ``py_rouge155_tokens``) and
``token_ids`` (id interning, used by rouge2.measures.ngram; reference
``py_token_ids``), plus ``lcs_marks`` (ROUGE-1.5.5's LCS traceback for a
sentence of at most 64 words, summary-level ROUGE-L; reference
``rouge2.measures.lcs.lcs_marks``).
"""

from __future__ import annotations

import os
from collections import Counter


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


def packed_ngrams(ids, n: int, width: int) -> Counter:
    """Counts of the n-grams of ``ids``, each packed into one int of ``n * width`` bits.

    Exact (no two n-grams share a key) when every id is below ``2 ** width``.
    """
    if n == 1:
        return Counter(ids)
    keys = list(ids[: len(ids) - n + 1])
    for k in range(1, n):
        keys = [(key << width) | b for key, b in zip(keys, ids[k:])]
    return Counter(keys)


def py_ngram_hits(cand_ids, ref_ids, n: int) -> int:
    """Σ over distinct n-grams of min(count in ``cand_ids``, count in ``ref_ids``)."""
    if n < 1:
        raise ValueError("n must be at least 1")
    if len(cand_ids) < n or len(ref_ids) < n:
        return 0
    # Pack each n-gram into one int, wide enough for the largest id: exact.
    width = max(32, max(cand_ids).bit_length(), max(ref_ids).bit_length())
    return clipped_hits(packed_ngrams(cand_ids, n, width), packed_ngrams(ref_ids, n, width))


def position_masks(tokens) -> dict:
    """token -> bit mask of the positions where it occurs."""
    masks: dict = {}
    for i, tok in enumerate(tokens):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    return masks


def mask_lcs_length(masks: dict, m: int, peer) -> int:
    """LCS length of a sequence of length ``m`` (given by its position masks) and ``peer``.

    Bit-parallel: one integer holds a whole column of the DP table.
    """
    full = (1 << m) - 1
    v = full
    for match in map(masks.get, peer):
        if match:
            u = v & match
            if u:
                v = ((v + u) | (v - u)) & full
    return m - v.bit_count()


def py_lcs_length(a_ids, b_ids) -> int:
    """Length of a longest common subsequence (bit-parallel over Python ints)."""
    if not a_ids or not b_ids:
        return 0
    return mask_lcs_length(position_masks(a_ids), len(a_ids), b_ids)


def _load_c():
    if os.environ.get("ROUGE2_PURE_PYTHON", "").strip() not in ("", "0"):
        return None
    try:
        from rouge2 import _speedups
    except ImportError:
        return None
    return _speedups


_C = _load_c()
HAVE_C = _C is not None

if _C is not None:
    ngram_hits = _C.ngram_hits
    lcs_length = _C.lcs_length
    #: the C ROUGE-1.5.5 tokenizer (rouge2.analysis.tokenize picks it up)
    rouge155_tokens = _C.rouge155_tokens
    #: tokens -> ids through a vocabulary dict (rouge2.measures.ngram uses it)
    token_ids = _C.token_ids
    #: the script's LCS traceback for a sentence of at most 64 ids (rouge2.measures.lcs)
    lcs_marks = _C.lcs_marks
else:
    ngram_hits = py_ngram_hits
    lcs_length = py_lcs_length
    rouge155_tokens = None
    token_ids = None
    lcs_marks = None

__all__ = ["HAVE_C", "ngram_hits", "lcs_length", "py_ngram_hits", "py_lcs_length"]
