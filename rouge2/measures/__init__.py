"""Measures by name: :data:`MEASURES` gives every measure its canonical name.

Each family registers itself beside its code (``ngram.py``, ``lcs.py``,
``skipgram.py``, ``topic.py``; plugins through the ``rouge2.measures`` entry
points); this module only reads the registry.

Canonical names (used as result keys, CSV columns, JSON keys and in the
signature, whatever spelling was asked for):

=============================  ==============================================
``rouge-<n>``                  ROUGE-N, n >= 1 (``rouge-1``, ``rouge-2``, ...)
``rouge-l``                    ROUGE-L, summary-level over the text's sentences
                               (ROUGE-1.5.5's; sentence-level for one-sentence
                               texts)
``rouge-l-flat``               ROUGE-L over the whole text as one sentence,
                               whatever its sentences (rouge-score's ``rougeL``)
``rouge-w-<weight>``           ROUGE-W with weight > 1 is usual (``rouge-w-1.2``)
``rouge-s<k>``, ``rouge-s*``   skip-bigrams with at most k words between (S*: any)
``rouge-su<k>``, ``rouge-su*`` the same plus unigrams
``rouge-topic-<tags>``         ROUGE-Topic over parts of speech (``rouge-topic-nn|jj``)
``rouge-topicuniq-<tags>``     ROUGE-TopicUniq
``rouge-aspect``               ROUGE-Aspect: the reference's aspects the summary
                               mentions (needs ``aspects=``, a lexicon)
=============================  ==============================================

Names are case-insensitive.  Accepted spellings besides the canonical ones:
rouge-score's ``rouge1``..``rouge9``, ``rougeL`` (= ``rouge-l-flat``) and
``rougeLsum`` (= ``rouge-l``); ``rouge-w`` (= ``rouge-w-1.2``, the usual
weight); leading zeros (``rouge-01``); ``_`` for ``-``.  Topic tags are
written in their canonical order (``rouge-topicuniq-jj|nn|nns`` is
``rouge-topicuniq-nn|jj``).  An unknown name gets a one-line error with the
closest known spelling.
"""

from __future__ import annotations

from typing import Any

from rouge2.errors import UserError
from rouge2.measures.base import MEASURES, BatchSpec, Measure, PairStats, batch_spec, measure_capability
from rouge2.measures.lcs import MAX_WEIGHT
from rouge2.measures.ngram import MAX_N

__all__ = ["MAX_N", "MAX_WEIGHT", "MEASURES", "MEASURE_FORMS", "BatchSpec", "Measure", "PairStats",
           "batch_spec", "canonical_measure", "default_score", "measure_capability", "measure_forms",
           "parse_measure"]


def measure_forms() -> str:
    """The forms of measure names, for messages and docs (from :data:`MEASURES`)."""
    return MEASURES.choices()


def __getattr__(name: str) -> Any:
    if name == "MEASURE_FORMS":  # read from the registry, which loads its modules lazily
        return measure_forms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def canonical_measure(name: Any) -> str:
    """The canonical name of measure ``name`` (see the module docstring)."""
    if isinstance(name, Measure):
        return name.name
    if not isinstance(name, str):
        raise UserError(f"a measure name must be text, got {name!r} ({type(name).__name__}); "
                        f"use one of: {measure_forms()}")
    return MEASURES.canonical(name)


def parse_measure(name: Any, **options: Any) -> Measure:
    """The measure called ``name``, built by its family's factory; ``options``
    are the :class:`~rouge2.scoring.options.Options` fields it declares
    (capability ``options``), others are left out.  A one-line
    :class:`UserError` for names it does not know."""
    if isinstance(name, Measure):
        return name
    canonical = canonical_measure(name)
    wanted = MEASURES.capability(canonical, "options", ())
    return MEASURES.get(canonical, **{k: v for k, v in options.items() if k in wanted})


def default_score(name: Any) -> str:
    """The score a measure is compared and ranked on when the user names none:
    its family's capability ``default_score`` (``fmeasure`` for N, L, W, S,
    SU; ``recall`` for Topic, TopicUniq, Aspect); ``fmeasure`` for a custom
    measure object no family registered."""
    return measure_capability(name, "default_score", "fmeasure")
