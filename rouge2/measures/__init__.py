"""Measures by name: one parser gives every measure its canonical name.

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

import math
import re

from rouge2.errors import UserError
from rouge2.measures import aspect
from rouge2.measures.base import Measure, PairStats
from rouge2.measures.lcs import LCS, WLCS, format_weight
from rouge2.measures.ngram import NGram
from rouge2.measures.skipgram import SkipBigram
from rouge2.registry import suggest

__all__ = ["MEASURE_FORMS", "Measure", "PairStats", "canonical_measure", "default_score", "parse_measure"]

#: the forms of measure names, for messages and docs
MEASURE_FORMS = (
    "rouge-<n> (rouge-1, rouge-2, ...), rouge-l, rouge-l-flat, rouge-w-<weight> (rouge-w-1.2), "
    "rouge-s<k>, rouge-su<k> (rouge-su4), rouge-s*, rouge-su*, "
    "rouge-topic-<tags>, rouge-topicuniq-<tags> (rouge-topic-nn|jj), rouge-aspect; "
    "rouge-score's rouge1, rougeL, rougeLsum are accepted too"
)

#: the largest ROUGE-W weight.  The reference total is f applied twice, as
#: ROUGE-1.5.5 does (f(sum of f(sentence length))), so it grows like
#: k ** (weight ** 2) and must stay finite for any text length (k up to
#: 2**31 words: (2**31) ** (5.5 ** 2) < 1e283 < 1.8e308, with room to add
#: totals over evaluations); 32 let a 30-word reference overflow.
MAX_WEIGHT = 5.5
#: the largest n-gram size accepted (a larger n only ever finds no n-gram)
MAX_N = 1_000_000

_ALIASES = {
    "rougel": "rouge-l-flat",
    "rougelsum": "rouge-l",
    "rouge-lsum": "rouge-l",
    "rouge-w": "rouge-w-1.2",
    "rougew": "rouge-w-1.2",
}
_N = re.compile(r"rouge-?(\d+)$")
_W = re.compile(r"rouge-?w-?(\d+(?:\.\d*)?|\.\d+)$")
_S = re.compile(r"rouge-?(su|s)-?(\d+|\*)$")
_TOPIC = re.compile(r"rouge-?(topicuniq|topic)-(.+)$")

#: spellings suggested by the did-you-mean
_EXAMPLES = ("rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-l-flat", "rouge-w-1.2",
             "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*", "rouge-topic-nn|jj",
             "rouge-topicuniq-nn|jj", "rouge1", "rouge2", "rougeL", "rougeLsum")


def _unknown(name, why: str = "") -> UserError:
    if not isinstance(name, str):
        return UserError(f"a measure name must be text, got {name!r} ({type(name).__name__}); "
                         f"use {MEASURE_FORMS}")
    hint = suggest(name, {e.lower(): e for e in _EXAMPLES}) if not why else ""
    detail = f": {why}" if why else ""
    return UserError(f"unknown measure {name!r}{detail}{hint}; use {MEASURE_FORMS}")


def canonical_measure(name) -> str:
    """The canonical name of measure ``name`` (see the module docstring)."""
    if isinstance(name, Measure):
        return name.name
    if not isinstance(name, str):
        raise _unknown(name)
    if aspect.canonical(name):  # issue 18: until the MEASURES registry lands
        return aspect.NAME
    key = name.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    if key in ("rouge-l", "rouge-l-flat"):
        return key
    m = _N.match(key)
    if m:
        n = int(m.group(1))
        if n < 1:
            raise _unknown(name, "the n-gram size must be at least 1")
        if n > MAX_N:
            raise _unknown(name, f"the n-gram size must be at most {MAX_N}")
        return f"rouge-{n}"
    m = _W.match(key)
    if m:
        weight = float(m.group(1))
        if not (0 < weight <= MAX_WEIGHT) or not math.isfinite(weight):
            raise _unknown(name, f"the ROUGE-W weight must be above 0 and at most {MAX_WEIGHT:g}")
        return f"rouge-w-{format_weight(weight)}"
    m = _S.match(key)
    if m:
        dist = m.group(2)
        if dist != "*":
            dist = str(int(dist))
        return f"rouge-{m.group(1)}{dist}"
    m = _TOPIC.match(key)
    if m:
        from rouge2.pos.topics import TopicSelector

        try:
            selector = TopicSelector.parse(m.group(2))
        except UserError as exc:
            raise _unknown(name, str(exc)) from None
        return f"rouge-{m.group(1)}-{str(selector).lower()}"
    raise _unknown(name)


def default_score(name) -> str:
    """The score compared and ranked by default for measure ``name``:
    ``recall`` for ROUGE-Topic, TopicUniq and Aspect (coverage measures),
    ``fmeasure`` for the others (until the MEASURES registry's
    ``default_score`` capability says so)."""
    canonical = canonical_measure(name)
    if canonical == aspect.NAME or _TOPIC.match(canonical):
        return "recall"
    return "fmeasure"


def parse_measure(name, **options) -> Measure:
    """The measure called ``name``; a one-line :class:`UserError` for names it does not know."""
    if isinstance(name, Measure):
        return name
    canonical = canonical_measure(name)
    if canonical == aspect.NAME:
        return aspect.Aspect(**options)
    if canonical == "rouge-l":
        return LCS()
    if canonical == "rouge-l-flat":
        return LCS(flat=True)
    m = _N.match(canonical)
    if m:
        return NGram(int(m.group(1)))
    m = _W.match(canonical)
    if m:
        return WLCS(float(m.group(1)))
    m = _S.match(canonical)
    if m:
        dist = None if m.group(2) == "*" else int(m.group(2))
        return SkipBigram(dist, unigrams=m.group(1) == "su")
    m = _TOPIC.match(canonical)
    from rouge2.measures.topic import Topic

    return Topic(m.group(2), unique=m.group(1) == "topicuniq", **options)
