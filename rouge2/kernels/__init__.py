"""The hot loops, in C when available: one place chooses, once, at import.

rouge2's innermost loops (tokenizing with the ROUGE-1.5.5 byte rules,
interning tokens as integer ids, counting shared n-grams, the LCS and the
script's LCS traceback) have two implementations:

* :mod:`rouge2.kernels.python`, the pure-Python reference (the definition);
* ``rouge2.kernels._speedups``, built from ``_speedups.c`` when a C compiler
  is present at install time, giving identical results faster.

This module picks one of them when it is first imported and every other
module calls the functions below, never the implementations directly.
``ROUGE2_PURE_PYTHON=1`` in the environment forces the Python versions (CI
runs the exactness tests both ways).

The kernels form the ground floor of rouge2: they know nothing of texts,
measures or options, only of strings and integer ids.

``HAVE_C``
    whether the C kernels are in use.
``ngram_hits(cand_ids, ref_ids, n)``, ``lcs_length(a_ids, b_ids)``
    clipped shared n-grams; length of a longest common subsequence.
``rouge155_tokens(text)``
    the ROUGE-1.5.5 tokenizer (words of ``[a-z0-9]``, lowercased).
``token_ids(tokens, vocab)``
    ``[vocab[t] for t in tokens]``, unseen words getting the next free ids.
``BATCH``, ``PY_BATCH``
    the batch path's kernels (texts to packed ids, all pairs and measures
    scored in one call), chosen and pure-Python; ``finish_many`` their
    bulk P/R/F in C (None on the Python path).
``lcs_marks_small(a_ids, b_ids)``
    the script's LCS traceback as a bit mask over ``a_ids`` (at most 64
    ids), in C only; ``None`` on the Python path, where callers use
    :func:`rouge2.kernels.python.lcs_marks` on position masks instead.
"""

from __future__ import annotations

import os

from rouge2.kernels import python
from rouge2.kernels.python import clipped_hits, mask_lcs_length, packed_ngrams, position_masks


def _load_c():
    if os.environ.get("ROUGE2_PURE_PYTHON", "").strip() not in ("", "0"):
        return None
    try:
        from rouge2.kernels import _speedups
    except ImportError:
        return None
    return _speedups


_C = _load_c()
HAVE_C = _C is not None

if _C is not None:
    ngram_hits = _C.ngram_hits
    lcs_length = _C.lcs_length
    rouge155_tokens = _C.rouge155_tokens
    token_ids = _C.token_ids
    lcs_marks_small = _C.lcs_marks
    finish_many = _C.finish_many
else:
    ngram_hits = python.ngram_hits
    lcs_length = python.lcs_length
    rouge155_tokens = python.rouge155_tokens
    token_ids = python.token_ids
    lcs_marks_small = None
    finish_many = None


class BatchKernels:
    """The batch-path kernels of one implementation (see ``batch.h``):
    ``analyze_texts``, ``analyze_pairs``, ``raw_words``, ``score_pairs``; each implementation
    keeps its own raw vocabulary, so ids from one never go to the other."""

    def __init__(self, impl, name: str):
        self.name = name
        self.analyze_texts = impl.analyze_texts
        self.analyze_pairs = impl.analyze_pairs
        self.raw_words = impl.raw_words
        self.score_pairs = impl.score_pairs

    def __repr__(self) -> str:
        return f"<BatchKernels {self.name}>"


#: the pure-Python batch kernels (the definition) and the chosen ones
PY_BATCH = BatchKernels(python, "python")
BATCH = BatchKernels(_C, "c") if _C is not None else PY_BATCH

#: the pure-Python references under their own names (for tests and fallbacks)
py_ngram_hits = python.ngram_hits
py_lcs_length = python.lcs_length
py_rouge155_tokens = python.rouge155_tokens
py_token_ids = python.token_ids
lcs_marks = python.lcs_marks

__all__ = [
    "BATCH",
    "BatchKernels",
    "HAVE_C",
    "PY_BATCH",
    "finish_many",
    "clipped_hits",
    "lcs_length",
    "lcs_marks",
    "lcs_marks_small",
    "mask_lcs_length",
    "ngram_hits",
    "packed_ngrams",
    "position_masks",
    "py_lcs_length",
    "py_ngram_hits",
    "py_rouge155_tokens",
    "py_token_ids",
    "rouge155_tokens",
    "token_ids",
]
