"""ROUGE-Aspect: which of the reference's aspects a summary mentions (docs/aspects.md).

A text *mentions* an aspect of the lexicon (``aspects=``) when it has at
least ``min_mentions`` hits of the aspect's entries
(:mod:`rouge2.aspects.match`, after the run's analysis).  With A_sys and
A_ref the aspects the summary and a reference mention::

    hit = |A_sys ∩ A_ref|    ref_total = |A_ref|    cand_total = |A_sys|
    R = hit / ref_total      (the share of the reference's aspects the summary mentions)
    P = hit / cand_total     (the share of the summary's aspects the reference mentions)

F and several references as for every measure (``multi_reference``).  With
``topic_weights: idf`` each aspect weighs its inverse document frequency over
the run's references (:mod:`rouge2.measures.weights`): sums of weights
instead of counts.
"""

from __future__ import annotations

from typing import Any

from rouge2.analysis.analyzer import Analyzer
from rouge2.aspects.lexicon import Lexicon, load_lexicon
from rouge2.aspects.match import AspectMatcher, TextAspects
from rouge2.errors import UserError
from rouge2.measures.base import MEASURES, Measure, PairStats, measure_key
from rouge2.measures.weights import DocumentFrequencies

NAME = "rouge-aspect"

#: the Options fields the measure takes
OPTIONS = ("aspects", "aspect_top", "aspect_min_mentions", "aspect_lemmas", "aspect_synonyms",
           "aspect_assign", "topic_weights")


class Aspect(Measure):
    """ROUGE-Aspect over a lexicon; :meth:`prepare` binds it to the run's analyzer."""

    def __init__(self, aspects: Any = "none", aspect_top: int = 0, aspect_min_mentions: int = 1,
                 aspect_lemmas: bool = False, aspect_synonyms: bool = False,
                 aspect_assign: str = "sentence", topic_weights: str = "none", **_: Any):
        lexicon = load_lexicon(aspects)
        if lexicon is None:
            raise UserError("rouge-aspect needs an aspect lexicon: give aspects (YAML 'aspects: PATH', "
                            "command line --aspects PATH, Python aspects=PATH)")
        self.name = NAME
        self.lexicon: Lexicon = lexicon
        self.top = int(aspect_top)
        self.min_mentions = int(aspect_min_mentions)
        self.lemmas = bool(aspect_lemmas)
        self.synonyms = bool(aspect_synonyms)
        self.assign = aspect_assign
        self.weighting = topic_weights
        self.frequencies: DocumentFrequencies | None = None
        self.matcher: AspectMatcher | None = None
        self._relation = None

    # -- set-up (the Scorer calls these) ----------------------------------------
    def prepare(self, analyzer, tagger=None) -> None:
        """Bind the lexicon to the run's analysis (tokenizer, stopwords, stemmer)."""
        self.matcher = AspectMatcher(self.lexicon, analyzer, top=self.top, lemmas=self.lemmas,
                                     relation=self._relation if self.synonyms else None,
                                     assign=self.assign)

    def use_synonyms(self, relation) -> None:
        """The run's synonyms: lexicon words match their synonyms with ``aspect_synonyms``
        (the aspect-level count itself has nothing to match through synonyms)."""
        self._relation = relation
        if self.matcher is not None and self.synonyms:
            self.matcher.relation = relation

    @property
    def weighted(self) -> bool:
        return self.weighting == "idf"

    def fit(self, frequencies: DocumentFrequencies) -> None:
        """Use these document frequencies (of aspects) for the weights."""
        self.frequencies = frequencies

    # -- counting -------------------------------------------------------------------
    def found(self, text) -> TextAspects:
        if self.matcher is None:  # a measure used on its own: the default analysis
            self.prepare(Analyzer())
        assert self.matcher is not None
        return self.matcher.find(text)

    def mentioned(self, text) -> frozenset[str]:
        """The aspects ``text`` (analysed) mentions."""
        return self.found(text).mentioned(self.min_mentions)

    def document_units(self, text) -> frozenset[str]:
        """What a reference contributes to the document frequencies: its aspects."""
        return self.mentioned(text)

    def _weight(self, aspects: frozenset[str]) -> float:
        f = self.frequencies
        if not self.weighted or f is None:
            return float(len(aspects))
        # in a fixed order: a set's order depends on the process's string hashing,
        # and a float sum on its order (--jobs workers may be fresh interpreters)
        return sum(f.idf(a) for a in sorted(aspects))

    def stats(self, cand, ref) -> PairStats:
        a_sys, a_ref = self.mentioned(cand), self.mentioned(ref)
        if not self.weighted:
            return PairStats(len(a_sys & a_ref), len(a_ref), len(a_sys))
        return PairStats(self._weight(a_sys & a_ref), self._weight(a_ref), self._weight(a_sys))


def canonical(name: str) -> str | None:
    """``rouge-aspect`` for its spellings (``rouge_aspect``, ``ROUGE-Aspect``,
    ``rougeaspect``), None for other names."""
    key = measure_key(name)
    return NAME if key in ("rouge-aspect", "rougeaspect", "rouge-aspects") else None


MEASURES.register_family(
    NAME, canonical, "ROUGE-Aspect: the share of the reference's aspects (from a lexicon, aspects=) "
    "the summary mentions", examples=(NAME,),
    capabilities={"batch": False, "needs_tagger": False, "uses_sentences": False,
                  "default_score": "recall", "options": OPTIONS})(lambda canonical, **options: Aspect(**options))

__all__ = ["NAME", "OPTIONS", "Aspect", "canonical"]
