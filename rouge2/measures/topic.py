"""ROUGE-Topic and ROUGE-TopicUniq (Ganesan 2018): coverage of chosen parts of speech.

Topic units are the candidate's and the reference's unigrams whose part of
speech belongs to the selection (``NN|JJ``: nouns, proper nouns included, and
adjectives; ``NOUN|ADJ``: by universal tag).  Verb-tagged auxiliaries (is,
was, has, ...) are left out unless ``auxiliaries=True`` or the spec names
``AUX``.  Texts are tagged on their raw form; stopword removal and stemming
then apply to both sides alike.

ROUGE-Topic      hit = clipped overlap of the two topic multisets,
                 R = hit / |REF_pos|, P = hit / |SYS_pos|
ROUGE-TopicUniq  the same on the sets of distinct topic units
With synonyms the overlap is the maximum matching through the relation.
"""

from __future__ import annotations

import re
from collections import Counter

from rouge2.analysis.analyzer import Analyzer
from rouge2.errors import UserError
from rouge2.kernels import clipped_hits
from rouge2.measures.base import MEASURES, BatchSpec, Measure, PairStats, measure_key
from rouge2.pos.tagger import load_tagger
from rouge2.pos.topics import TopicSelector, upos_of
from rouge2.synonyms.matching import max_matching

#: (stem, word, tag, universal tag) of one topic token
TopicUnit = tuple[str, str, str, str]


def annotate(tagger, text: str) -> list[tuple[str, str, str]]:
    """``(word, tag, universal tag)`` of ``text`` from any tagger: one with
    ``annotate`` (every :class:`rouge2.pos.Tagger`), or one with only ``tag``
    (the universal tag is then derived from the Penn tag)."""
    fn = getattr(tagger, "annotate", None)
    if fn is not None:
        return fn(text)
    return [(w, t, upos_of(w, t)) for w, t in tagger.tag(text)]


class Topic(Measure):
    needs_tagger = True

    def __init__(self, spec: str, unique: bool = False, synonyms=None, tagger=None,
                 auxiliaries: bool = False, weights: str = "none"):
        self.selector = TopicSelector.parse(spec, auxiliaries=auxiliaries)
        self.unique = unique
        self.auxiliaries = bool(auxiliaries)
        self.name = f"rouge-topic{'uniq' if unique else ''}-{str(self.selector).lower()}"
        self._key = ("topic", str(self.selector), self.auxiliaries)
        self.analyzer = None
        self.tagger = tagger
        #: topic_weights: "idf" weighs each topic word by its inverse document
        #: frequency over the run's references (rouge2.measures.weights)
        self.weighting = weights
        self.frequencies = None

    def prepare(self, analyzer, tagger=None) -> None:
        """Attach the run's analyzer and tagger (the Scorer calls this)."""
        self.analyzer = analyzer
        if tagger is not None:
            self.tagger = tagger
        if self.tagger is None or isinstance(self.tagger, str):
            self.tagger = load_tagger(self.tagger)

    def units(self, text) -> list[TopicUnit]:
        """(stem, word, tag, universal tag) of the text's topic words, in order."""
        if self.analyzer is None:
            self.prepare(Analyzer())
        return text.feature(self._key, self._units)

    def _units(self, text) -> list[TopicUnit]:
        # The analyzer's steps for tagged text (Analyzer.analyze_tagged), with
        # the universal tag kept: tag the raw text (what a length limit
        # keeps), tokenize each tagged word, drop stopwords, stem; a token
        # keeps its word's tags.
        a = self.analyzer
        assert a is not None  # units() prepared it
        stop = a._stopwords
        tokenize = a._tokenize
        stem = a.stem_token
        select = self.selector.select
        source = text.tag_source if text.tag_source is not None else (
            text.source or " ".join(text.surface))
        out = []
        for word, tag, upos in annotate(self.tagger, source):
            if not select(tag, upos):
                continue
            for tok in tokenize(word):
                if tok not in stop:
                    out.append((stem(tok), tok, tag, upos))
        return out

    def _counts(self, units):
        if self.relation is None:
            counts = Counter(u[0] for u in units)
        else:
            # One representative word per stem, so a stem counts once in TopicUniq.
            counts = Counter()
            first: dict[str, str] = {}
            for u in units:
                counts[first.setdefault(u[0], u[1])] += 1
        if self.unique:
            counts = Counter(dict.fromkeys(counts, 1))
        return counts

    @property
    def weighted(self) -> bool:
        return self.weighting == "idf"

    def fit(self, frequencies) -> None:
        """Use these document frequencies (of topic stems) for the weights."""
        self.frequencies = frequencies

    def document_units(self, text) -> set[str]:
        """What a reference contributes to the document frequencies: its topic stems."""
        return {u[0] for u in self.units(text)}

    def _weighted_stats(self, c: Counter, r: Counter) -> PairStats:
        # counts keyed by stem (no synonyms with weights): sums of idf weights
        assert self.frequencies is not None  # stats() checks it
        idf = self.frequencies.idf
        hit = sum(min(n, r[u]) * idf(u) for u, n in c.items() if u in r)
        return PairStats(hit, sum(n * idf(u) for u, n in r.items()), sum(n * idf(u) for u, n in c.items()))

    def stats(self, cand, ref) -> PairStats:
        c = self._counts(self.units(cand))
        r = self._counts(self.units(ref))
        if self.frequencies is not None and self.weighted and self.relation is None:
            return self._weighted_stats(c, r)
        c_total, r_total = sum(c.values()), sum(r.values())
        if not c_total or not r_total:
            return PairStats(0, r_total, c_total)
        if self.relation is None:
            return PairStats(clipped_hits(c, r), r_total, c_total)
        return PairStats(max_matching(c, r, self.relation), r_total, c_total)


_TOPIC = re.compile(r"rouge-?(topicuniq|topic)-(.+)$")


def _matcher(kind: str):
    def match(name: str) -> str | None:
        m = _TOPIC.match(measure_key(name))
        if m is None or m.group(1) != kind:
            return None
        try:
            selector = TopicSelector.parse(m.group(2))
        except UserError as exc:
            raise MEASURES.refuse(name, str(exc)) from None
        return f"rouge-{kind}-{str(selector).lower()}"
    return match


def _topic(canonical: str, topic_auxiliaries: bool = False, topic_weights: str = "none") -> Topic:
    kind, spec = canonical[len("rouge-"):].split("-", 1)
    return Topic(spec, unique=kind == "topicuniq", auxiliaries=topic_auxiliaries, weights=topic_weights)


def topic_tags(canonical: str) -> str:
    """The parts of speech a topic measure selects (``nn|jj`` of ``rouge-topic-nn|jj``)."""
    return canonical.split("-", 2)[2]


def _batch(m: Topic) -> BatchSpec | None:
    """Counted by the batch path (unigrams over the topic tokens,
    :mod:`rouge2.scoring.topic_batch`) unless weighted by idf."""
    return None if m.weighted else BatchSpec("topic", 1)


# "topic_tags": canonical name -> its parts of speech (the topic report reads them)
_CAPABILITIES = {"batch": _batch, "needs_tagger": True, "uses_sentences": False,
                 "default_score": "recall", "options": ("topic_auxiliaries", "topic_weights"),
                 "topic_tags": topic_tags}
MEASURES.register_family("rouge-topic-<tags>", _matcher("topic"),
                         "ROUGE-Topic: overlap of the words with the chosen parts of speech (NN|JJ, NOUN|ADJ)",
                         examples=("rouge-topic-nn|jj",), capabilities=_CAPABILITIES)(_topic)
MEASURES.register_family("rouge-topicuniq-<tags>", _matcher("topicuniq"),
                         "ROUGE-TopicUniq: ROUGE-Topic on the sets of distinct topic words",
                         examples=("rouge-topicuniq-nn|jj",), capabilities=_CAPABILITIES)(_topic)
