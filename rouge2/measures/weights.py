"""Unit weights of the topic and aspect measures: ``topic_weights``.

``none`` (the default): every unit weighs 1, the paper's measures.

``idf``: a unit weighs its smoothed inverse document frequency over the
run's references (docs/topics.md, "Generic words")::

    idf(u) = ln((1 + N) / (1 + df(u))) + 1

where N is the number of distinct reference texts of the run and df(u) the
number of them that contain unit u (a topic word's stem for ROUGE-Topic and
TopicUniq, an aspect for ROUGE-Aspect).  The +1 inside the fraction is
add-one smoothing (a unit no reference has, such as a candidate's own word,
gets ln(1 + N) + 1); the +1 outside keeps a unit every reference has at
weight 1, never 0.  It is scikit-learn's ``smooth_idf`` formula.

Weighted statistics are still sufficient statistics: ``hit`` is the sum of
the weights of the matched units, ``ref_total`` and ``cand_total`` the sums
of the weights on each side, so references combine, and intervals and tests
resample, exactly as with counts.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Hashable, Iterable

from rouge2.registry import Registry

#: the unit weightings of the topic and aspect measures
TOPIC_WEIGHTS: Registry = Registry("topic weighting")
TOPIC_WEIGHTS.add("none", "none", "every topic word (aspect) weighs 1, as in the paper",
                  aliases=("false", "off"))
TOPIC_WEIGHTS.add("idf", "idf", "a topic word (aspect) weighs its inverse document frequency over "
                                "the run's references: ln((1+N)/(1+df))+1")


class DocumentFrequencies:
    """How many documents (distinct reference texts) contain each unit.

    Plain data (picklable: worker processes receive it); :meth:`add` each
    document's units once, then read :meth:`idf`."""

    def __init__(self) -> None:
        self.documents = 0
        self.df: Counter = Counter()
        self._seen: set[bytes] = set()

    def add(self, units: Iterable[Hashable], text: str | None = None) -> None:
        """Count one document's units (each distinct unit once).  With ``text``,
        a text seen before is not counted again (references shared by many
        systems count once)."""
        if text is not None:
            digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).digest()
            if digest in self._seen:
                return
            self._seen.add(digest)
        self.documents += 1
        self.df.update(set(units))

    def idf(self, unit: Hashable) -> float:
        """``ln((1 + N) / (1 + df(unit))) + 1`` (see the module docstring)."""
        return math.log((1 + self.documents) / (1 + self.df.get(unit, 0))) + 1.0

    def __getstate__(self) -> dict:
        return {"documents": self.documents, "df": self.df}  # the seen set stays here

    def __setstate__(self, state: dict) -> None:
        self.documents = state["documents"]
        self.df = state["df"]
        self._seen = set()

    def __repr__(self) -> str:
        return f"DocumentFrequencies(documents={self.documents}, units={len(self.df)})"


__all__ = ["TOPIC_WEIGHTS", "DocumentFrequencies"]
