"""Measures by name: ``parse_measure("rouge-su4")`` and friends.

Names are case-insensitive: ``rouge-<n>``, ``rouge-l``, ``rouge-w-<weight>``,
``rouge-s<k>``, ``rouge-su<k>``, ``rouge-s*``, ``rouge-su*``,
``rouge-topic-<tags>`` and ``rouge-topicuniq-<tags>``.
"""

from __future__ import annotations

import re

from rouge2.errors import UserError
from rouge2.measures.base import Measure, PairStats
from rouge2.measures.lcs import LCS, WLCS
from rouge2.measures.ngram import NGram
from rouge2.measures.skipgram import SkipBigram

__all__ = ["Measure", "PairStats", "parse_measure", "MEASURE_NAMES_HELP"]

MEASURE_NAMES_HELP = (
    "rouge-<n> (e.g. rouge-1, rouge-2), rouge-l, rouge-w-<weight> (e.g. rouge-w-1.2), "
    "rouge-s<k>, rouge-su<k> (e.g. rouge-su4), rouge-s*, rouge-su*, "
    "rouge-topic-<tags>, rouge-topicuniq-<tags> (e.g. rouge-topic-nn|jj)"
)

_N = re.compile(r"rouge-(\d+)$")
_W = re.compile(r"rouge-w(?:-(\d+(?:\.\d+)?|\.\d+))?$")
_S = re.compile(r"rouge-(su|s)(\d+|\*)$")
_TOPIC = re.compile(r"rouge-(topicuniq|topic)-(.+)$")


def parse_measure(name: str, **options) -> Measure:
    """The measure called ``name``; a one-line error for names it does not know."""
    if isinstance(name, Measure):
        return name
    key = str(name).strip().lower()
    if key == "rouge-l":
        return LCS()
    m = _N.match(key)
    if m:
        n = int(m.group(1))
        if n < 1:
            raise UserError(f"unknown measure {name!r}: n-gram size must be at least 1")
        return NGram(n)
    m = _W.match(key)
    if m:
        weight = float(m.group(1)) if m.group(1) else 1.2
        if weight <= 0:
            raise UserError(f"unknown measure {name!r}: ROUGE-W weight must be greater than 0")
        return WLCS(weight)
    m = _S.match(key)
    if m:
        dist = None if m.group(2) == "*" else int(m.group(2))
        return SkipBigram(dist, unigrams=m.group(1) == "su")
    m = _TOPIC.match(key)
    if m:
        from rouge2.measures.topic import Topic

        return Topic(m.group(2), unique=m.group(1) == "topicuniq", **options)
    raise UserError(f"unknown measure {name!r}: use {MEASURE_NAMES_HELP}")
