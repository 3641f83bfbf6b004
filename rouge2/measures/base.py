"""What every measure shares: sufficient statistics, and the registry of measures.

A measure only has to say how to count one (candidate, reference) pair; all
aggregation happens on :class:`PairStats`, never on text.

:data:`MEASURES` holds every measure family, each registered beside its code
(one module per family in ``rouge2.measures``; plugins through the
``rouge2.measures`` entry points).  A family's ``match`` takes a spelling to
the canonical name (result key, CSV column, JSON key, signature); its factory
builds the :class:`Measure`.  Capabilities every measure family declares:

``batch``           ``measure -> BatchSpec | None``: what the batch kernels
                    count for this measure object (None: the per-pair path)
``needs_tagger``    the measure reads part-of-speech tags
``uses_sentences``  its numbers depend on the sentence splitting
``default_score``   the score compared by default (``fmeasure``, ``recall``)
``options``         the :class:`~rouge2.scoring.options.Options` fields its
                    factory takes, by name (``topic_auxiliaries``)
``topic_tags``      (topic measures) ``canonical name -> parts of speech``
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rouge2.registry import Registry


class PairStats(NamedTuple):
    """Sufficient statistics of one candidate against one reference.

    ``hit`` is the number of matched units, ``ref_total`` and ``cand_total``
    the number of units on each side.  ROUGE-W stores weighted values (see
    docs/measures.md); every other measure stores counts.
    """

    hit: float
    ref_total: float
    cand_total: float

    def __add__(self, other):  # pooled combination
        return PairStats(
            self.hit + other.hit,
            self.ref_total + other.ref_total,
            self.cand_total + other.cand_total,
        )


ZERO = PairStats(0, 0, 0)


class BatchSpec(NamedTuple):
    """What the batch kernels count for one measure (capability ``batch``)."""

    kind: str         # "ngram", "lcs", "lcs-flat", "wlcs", "skip"; "topic": unigrams of the topic tokens
    n: int = 0        # the n-gram size; the largest skip (-1: any)
    unigrams: int = 0  # skip-bigrams plus unigrams (ROUGE-SU)
    weight: float = 0.0  # the ROUGE-W weight
    synonyms: bool = False  # the kernels count it with a synonym relation too (rouge2/kernels/synonyms.h)


#: the largest n-gram size or skip distance the batch kernels take (C integers)
MAX_KERNEL_N = 2 ** 31


def measure_key(name: str) -> str:
    """How measure names compare: case-insensitive, ``_`` read as ``-``."""
    return name.strip().lower().replace("_", "-")


#: every measure family by name (see the module docstring)
MEASURES: Registry[Any] = Registry("measure", packages=("rouge2.measures",), group="rouge2.measures",
                                   fold=measure_key)


def measure_capability(measure: Any, key: str, default: Any = None) -> Any:
    """Capability ``key`` of a measure name or :class:`Measure` object
    (``default`` for a measure object no family registered)."""
    name = measure.name if isinstance(measure, Measure) else measure
    if isinstance(measure, Measure) and name not in MEASURES:
        return default
    return MEASURES.capability(name, key, default)


def batch_spec(measure: Measure) -> BatchSpec | None:
    """What the batch kernels count for ``measure``; None: the per-pair path
    (a measure with synonyms, a family without a kernel, a custom object)."""
    if getattr(measure, "relation", None) is not None or measure.name not in MEASURES:
        return None
    spec = MEASURES.capability(measure.name, "batch")
    return spec(measure) if callable(spec) else None


def synonym_batch_spec(measure: Measure) -> BatchSpec | None:
    """What the batch kernels count for ``measure`` *with* its synonym
    relation: the family's spec when it says the kernels take synonyms
    (``BatchSpec.synonyms``), else None (the per-pair path)."""
    if measure.name not in MEASURES:
        return None
    spec = MEASURES.capability(measure.name, "batch")
    got = spec(measure) if callable(spec) else None
    return got if got is not None and got.synonyms else None


class Measure:
    """One ROUGE measure: counts a pair, turns counts into recall and precision."""

    name: str = ""
    #: which part of AnalyzedText the measure reads: "tokens" or "sentences"
    uses_sentences = False
    #: synonym relation (rouge2.synonyms.matching.PositionwiseRelation) or None
    relation = None
    #: a tagger is needed (topic measures)
    needs_tagger = False
    #: recall is hit / ref_total and precision hit / cand_total (the base
    #: methods, not overridden); set for each subclass automatically
    plain_ratios = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.plain_ratios = cls.recall is Measure.recall and cls.precision is Measure.precision

    def prepare(self, analyzer, tagger=None) -> None:
        """Attach the run's analyzer and tagger (measures that need a tagger;
        the Scorer calls this)."""

    def use_synonyms(self, relation) -> None:
        """Let units match through ``relation`` as well as by equality."""
        self.relation = relation

    def stats(self, cand, ref) -> PairStats:
        raise NotImplementedError

    def recall(self, s: PairStats) -> float:
        return s.hit / s.ref_total if s.ref_total else 0.0

    def precision(self, s: PairStats) -> float:
        return s.hit / s.cand_total if s.cand_total else 0.0

    def best_key(self, s: PairStats) -> float:
        """The value ROUGE-1.5.5's ``-f B`` compares to pick the best reference."""
        return self.recall(s)

    def key_from(self, s: PairStats, key_base: float) -> float:
        """The ``-f B`` ranking value from statistics plus the batch path's
        ``key_base`` (ROUGE-W's total before its second weighting)."""
        return self.best_key(s)

    def stats_and_base(self, cand, ref) -> tuple[PairStats, float]:
        """Statistics plus the batch path's ``key_base`` (see :meth:`key_from`)."""
        s = self.stats(cand, ref)
        return s, s.ref_total

    def stats_and_key(self, cand, ref) -> tuple[PairStats, float]:
        """Statistics plus the ``-f B`` ranking value, computed together."""
        s = self.stats(cand, ref)
        return s, self.best_key(s)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def perl_round5(x: float) -> float:
    """``sprintf("%7.5f", x)`` read back as a number, as the script compares it."""
    return float("%.5f" % x)
