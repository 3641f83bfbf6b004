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
``rouge155_stemmer(table, fallback, memo_limit)``
    a memoizing ROUGE-1.5.5 ``-m`` stemmer with ``.stem(token)`` and
    ``.stem_many(tokens, min_length)``: ``_speedups.Rouge155Stemmer`` (the
    Porter variant of ``porter155.h`` plus the exception dict ``table``;
    ``fallback`` only for tokens C does not take, non-ASCII or with a
    newline) or, in Python, :class:`rouge2.kernels.python.MemoStemmer`
    calling ``fallback``, the uncached definition, for every new token.
    ``table`` may be a callable returning the dict, called on first need.
    The memo is emptied when it holds ``memo_limit`` tokens.
``porter155_stem(word)``
    the Porter variant alone in C (ASCII words without newlines), ``None``
    on the Python path; for tests.
``BATCH``, ``PY_BATCH``
    the batch path's kernels (texts to packed ids, all pairs and measures
    scored in one call), chosen and pure-Python; ``finish_many`` their
    bulk P/R/F in C (None on the Python path).
``lcs_marks_small(a_ids, b_ids)``
    the script's LCS traceback as a bit mask over ``a_ids`` (at most 64
    ids), in C only; ``None`` on the Python path, where callers use
    :func:`rouge2.kernels.python.lcs_marks` on position masks instead.
``perl_resample_table(n, count)``, ``indexed_sums(values, table, n)``
    ROUGE-1.5.5's bootstrap draws (Perl's srand/rand) as a flat int32 table,
    and per row of ``n`` indices the sum of the values there (left to right).
``words_below(words, n)``, ``signed_sums(diffs, words, n)``
    ``random.Random.randrange(n)`` and ``random() < 0.5`` coins from raw
    Mersenne Twister words drawn in bulk (:mod:`rouge2.stats.resample`).
``corr_resample``, ``corr_permute``, ``accuracy_resample``, ``spa_resample``
    meta-evaluation's bootstrap and permutation loops (``stats_kernels.h``),
    in C only (``None`` on the Python path, where
    :mod:`rouge2.stats.correlation` computes the same numbers itself).
``rouge_score_prf(target, prediction, orders, lcs, lsum, stem)``, ``nltk_porter_stem(word)``
    the rouge-score drop-in's (P, R, F) of rougeN, rougeL and rougeLsum in
    one call per pair, and nltk's Porter stemmer (``rouge_score.h``;
    definitions in :mod:`rouge2.kernels.rouge_score` and
    :mod:`rouge2.analysis.porter_nltk`); ``nltk_porter_stem`` is None on the
    Python path.
``mt_words(state, m)``, ``mt_bootstrap_sums(state, values, rows)``, ``mt_signed_sums(state, diffs, rows)``
    the same, generating the Mersenne Twister words from a
    ``random.Random`` state (returning the advanced state), in C only
    (``None`` on the Python path, where callers draw with ``getrandbits``).
"""

from __future__ import annotations

import os

from rouge2.kernels import python
from rouge2.kernels import rouge_score as _py_rouge_score
from rouge2.kernels.python import (  # Perl's drand48
    DRAND48_A,
    DRAND48_C,
    DRAND48_SEED,
    MASK48,
    SCALE48,
    clipped_hits,
    mask_lcs_length,
    packed_ngrams,
    position_masks,
)


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
    rouge155_stemmer = _C.Rouge155Stemmer
    porter155_stem = _C.porter155_stem
    # an extension built from an older _speedups.c lacks these: Python then
    perl_resample_table = getattr(_C, "perl_resample_table", python.perl_resample_table)
    indexed_sums = getattr(_C, "indexed_sums", python.indexed_sums)
    words_below = getattr(_C, "words_below", python.words_below)
    signed_sums = getattr(_C, "signed_sums", python.signed_sums)
    mt_words = getattr(_C, "mt_words", None)
    mt_bootstrap_sums = getattr(_C, "mt_bootstrap_sums", None)
    mt_signed_sums = getattr(_C, "mt_signed_sums", None)
    if None in (mt_words, mt_bootstrap_sums, mt_signed_sums):
        mt_words = mt_bootstrap_sums = mt_signed_sums = None
    finish_many = _C.finish_many
    # meta-evaluation resampling (stats_kernels.h): None when the extension predates them
    corr_resample = getattr(_C, "corr_resample", None)
    corr_permute = getattr(_C, "corr_permute", None)
    accuracy_resample = getattr(_C, "accuracy_resample", None)
    spa_resample = getattr(_C, "spa_resample", None)
else:
    ngram_hits = python.ngram_hits
    lcs_length = python.lcs_length
    rouge155_tokens = python.rouge155_tokens
    token_ids = python.token_ids
    lcs_marks_small = None
    rouge155_stemmer = python.MemoStemmer
    porter155_stem = None
    perl_resample_table = python.perl_resample_table
    indexed_sums = python.indexed_sums
    words_below = python.words_below
    signed_sums = python.signed_sums
    mt_words = mt_bootstrap_sums = mt_signed_sums = None
    finish_many = None
    corr_resample = corr_permute = accuracy_resample = spa_resample = None


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


#: the rouge-score drop-in's kernels (rouge_score.h), from an extension that has them
rouge_score_prf = getattr(_C, "rouge_score_prf", _py_rouge_score.rouge_score_prf)
nltk_porter_stem = getattr(_C, "nltk_porter_stem", None)

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
    "DRAND48_A",
    "DRAND48_C",
    "DRAND48_SEED",
    "HAVE_C",
    "MASK48",
    "PY_BATCH",
    "SCALE48",
    "BatchKernels",
    "accuracy_resample",
    "clipped_hits",
    "corr_permute",
    "corr_resample",
    "finish_many",
    "indexed_sums",
    "lcs_length",
    "lcs_marks",
    "lcs_marks_small",
    "mask_lcs_length",
    "mt_bootstrap_sums",
    "mt_signed_sums",
    "mt_words",
    "ngram_hits",
    "nltk_porter_stem",
    "packed_ngrams",
    "perl_resample_table",
    "porter155_stem",
    "position_masks",
    "py_lcs_length",
    "py_ngram_hits",
    "py_rouge155_tokens",
    "py_token_ids",
    "rouge155_stemmer",
    "rouge155_tokens",
    "rouge_score_prf",
    "signed_sums",
    "spa_resample",
    "token_ids",
    "words_below",
]
