"""The hot loops, in C when available: the one place that chooses, once, at import.

rouge2's innermost loops have two implementations with the same signatures:

* :mod:`rouge2.kernels.python`, the pure-Python reference (the definition);
* ``rouge2.kernels._speedups``, built from ``_speedups.c`` (and
  ``analyze.h``, ``batch.h``, ``paired.h``, ``synonyms.h``, ``prf.h``, ``stats_kernels.h``,
  ``rouge_score.h``) when a C compiler is present at install time, giving
  identical results faster; ``_speedups.pyi`` types every export.

This module picks one of them when it is first imported; every other module
calls the names below and never imports an implementation itself.
``ROUGE2_PURE_PYTHON=1`` in the environment forces the Python versions (CI
runs the exactness tests both ways).

The kernels form the ground floor of rouge2: they take strings, integer ids
and numbers and return numbers (the one exception, :data:`records`, packs
numbers into a tuple type its caller gives).  They know nothing of measures,
options, multi-reference modes or result objects.

``HAVE_C``
    whether the C kernels are in use (for reports and tests: no module
    branches on it).
``ngram_hits(cand_ids, ref_ids, n)``, ``lcs_length(a_ids, b_ids)``
    clipped shared n-grams; length of a longest common subsequence.
``union_lcs_hit(cand, cand_sents, ref, ref_sents)``, ``wlcs_raw(..., weight)``
    ROUGE-1.5.5's summary-level LCS hit and ROUGE-W's (weighted hit,
    Σ f(sentence length)) of one pair of id sequences.
``rouge155_tokens(text)``
    the ROUGE-1.5.5 tokenizer (words of ``[a-z0-9]``, lowercased).
``token_ids(tokens, vocab)``
    ``[vocab[t] for t in tokens]``, unseen words getting the next free ids.
``rouge155_stemmer(table, fallback, memo_limit)``
    a memoizing ROUGE-1.5.5 ``-m`` stemmer with ``.stem(token)`` and
    ``.stem_many(tokens, min_length)``: the Porter variant of
    ``porter155.h`` plus the exception dict ``table`` (``fallback`` for the
    tokens C does not take), or in Python ``fallback`` (the uncached
    definition) for every new token.  ``table`` may be a callable returning
    the dict, called on first need.  The memo is emptied at ``memo_limit``.
``BATCH``, ``PY_BATCH``, ``DEFAULT_BATCH``
    the batch path's kernels (texts to packed ids, every pair and measure of
    a chunk scored in one call; ROUGE-N and ROUGE-L with a synonym relation
    in word ids, ``synonym_stats``), chosen and pure-Python; the ones the
    scoring layer uses by default (None without C).
``prf_many``
    bulk P/R/F from batch statistics, C only (None otherwise); called by
    :func:`rouge2.stats.prf.prf_many` alone, which has the definitions.
``records(values, names, factory)``
    per pair ``{name: factory(P, R, F)}`` from a flat array of floats.
``int_column(values, start, step)``
    ``values[start::step]`` of a float64 buffer as int32 bytes, or None when
    one is not a whole number within 32 bits (the stream's count columns).
``perl_resample_table(n, count)``, ``indexed_sums(values, table, n)``
    ROUGE-1.5.5's bootstrap draws (Perl's srand/rand) as a flat int32 table,
    and per row of ``n`` indices the sum of the values there (left to right).
``words_below(words, n)``, ``signed_sums(diffs, words, n)``
    ``random.Random.randrange(n)`` and ``random() < 0.5`` coins from raw
    Mersenne Twister words drawn in bulk (:mod:`rouge2.stats.resample`).
``mt_words(state, m)``, ``mt_bootstrap_sums(state, values, rows)``, ``mt_signed_sums(state, diffs, rows)``
    the same, running the Mersenne Twister from a ``random.Random`` state
    (returning the advanced state).
``mt_paired_sums(state, columns, rows)``
    the paired bootstrap (``paired.h``): per resample one multiset of task
    indices drawn from the state, counted, and every column's sum of
    count × value in task order.
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

Pure-Python definitions used by the per-pair synonym-aware paths (which
match words through a relation given as a Python function): ``clipped_hits``,
``packed_ngrams``, ``position_masks``, ``mask_lcs_length``, ``lcs_marks``,
``wlcs_marks``, ``skip_bigram_counts``, and Perl's drand48 constants.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

from rouge2.kernels import python
from rouge2.kernels import rouge_score as _py_rouge_score
from rouge2.kernels.python import (  # Perl's drand48
    DRAND48_A,
    DRAND48_C,
    DRAND48_SEED,
    M_LCS,
    M_LCS_FLAT,
    M_NGRAM,
    M_SKIP,
    M_WLCS,
    MASK48,
    SCALE48,
    clipped_hits,
    lcs_marks,
    mask_lcs_length,
    packed_ngrams,
    position_masks,
    skip_bigram_counts,
    wlcs_marks,
)


def _load_c() -> ModuleType | None:
    if os.environ.get("ROUGE2_PURE_PYTHON", "").strip() not in ("", "0"):
        return None
    try:
        from rouge2.kernels import _speedups
    except ImportError:
        return None
    if not hasattr(_speedups, "synonym_stats"):  # an extension built from older sources
        return None
    return _speedups


_C = _load_c()
HAVE_C = _C is not None
_impl: Any = _C if _C is not None else python

ngram_hits = _impl.ngram_hits
lcs_length = _impl.lcs_length
union_lcs_hit = _impl.union_lcs_hit
wlcs_raw = _impl.wlcs_raw
rouge155_tokens = _impl.rouge155_tokens
token_ids = _impl.token_ids
rouge155_stemmer = _C.Rouge155Stemmer if _C is not None else python.MemoStemmer
perl_resample_table = _impl.perl_resample_table
indexed_sums = _impl.indexed_sums
words_below = _impl.words_below
signed_sums = _impl.signed_sums
mt_words = _impl.mt_words
mt_bootstrap_sums = _impl.mt_bootstrap_sums
mt_signed_sums = _impl.mt_signed_sums
mt_paired_sums = _impl.mt_paired_sums
prf_many = _C.prf_many if _C is not None else None
records = _C.records if _C is not None else None
int_column = _C.int_column if _C is not None else python.int_column
# meta-evaluation's resampling loops (stats_kernels.h), C only: without them
# rouge2.stats.correlation computes the same numbers itself
corr_resample = _C.corr_resample if _C is not None else None
corr_permute = _C.corr_permute if _C is not None else None
accuracy_resample = _C.accuracy_resample if _C is not None else None
spa_resample = _C.spa_resample if _C is not None else None


class BatchKernels:
    """The batch-path kernels of one implementation (see ``analyze.h``,
    ``batch.h`` and ``synonyms.h``): ``analyze_pairs``, ``raw_words``,
    ``score_pairs``, ``synonym_stats``.  Each
    implementation keeps its own raw vocabulary, so ids from one never go to
    the other."""

    def __init__(self, impl: Any, name: str):
        self.name = name
        self.analyze_pairs = impl.analyze_pairs
        self.raw_words = impl.raw_words
        self.score_pairs = impl.score_pairs
        self.synonym_stats = impl.synonym_stats

    def __repr__(self) -> str:
        return f"<BatchKernels {self.name}>"


#: the rouge-score drop-in's kernels (rouge_score.h)
rouge_score_prf = _C.rouge_score_prf if _C is not None else _py_rouge_score.rouge_score_prf
nltk_porter_stem = _C.nltk_porter_stem if _C is not None else None

#: the pure-Python batch kernels (the definition) and the chosen ones
PY_BATCH = BatchKernels(python, "python")
BATCH = BatchKernels(_C, "c") if _C is not None else PY_BATCH
#: the batch kernels the scoring layer uses unless told otherwise: the C
#: ones; None without them (the per-pair path is faster than the Python
#: batch kernels, which exist to define and test the C ones)
DEFAULT_BATCH: BatchKernels | None = BATCH if _C is not None else None

#: the pure-Python references under their own names (for tests)
py_ngram_hits = python.ngram_hits
py_lcs_length = python.lcs_length
py_rouge155_tokens = python.rouge155_tokens
py_token_ids = python.token_ids

__all__ = [
    "BATCH",
    "DEFAULT_BATCH",
    "DRAND48_A",
    "DRAND48_C",
    "DRAND48_SEED",
    "HAVE_C",
    "MASK48",
    "M_LCS",
    "M_LCS_FLAT",
    "M_NGRAM",
    "M_SKIP",
    "M_WLCS",
    "PY_BATCH",
    "SCALE48",
    "BatchKernels",
    "accuracy_resample",
    "clipped_hits",
    "corr_permute",
    "corr_resample",
    "indexed_sums",
    "int_column",
    "lcs_length",
    "lcs_marks",
    "mask_lcs_length",
    "mt_bootstrap_sums",
    "mt_paired_sums",
    "mt_signed_sums",
    "mt_words",
    "ngram_hits",
    "nltk_porter_stem",
    "packed_ngrams",
    "perl_resample_table",
    "position_masks",
    "prf_many",
    "py_lcs_length",
    "py_ngram_hits",
    "py_rouge155_tokens",
    "py_token_ids",
    "records",
    "rouge155_stemmer",
    "rouge155_tokens",
    "rouge_score_prf",
    "signed_sums",
    "skip_bigram_counts",
    "spa_resample",
    "token_ids",
    "union_lcs_hit",
    "wlcs_marks",
    "wlcs_raw",
    "words_below",
]
