"""Topic measures on the batch path (issue 22, target 3).

Once a text's tags are known, ROUGE-Topic is unigram counting over the
text's topic tokens (the tagged words whose part of speech the selector
takes, tokenized, without stopwords, stemmed: :meth:`rouge2.measures.topic.Topic._units`),
and ROUGE-TopicUniq the same over the distinct ones.  So the distinct texts
of a chunk are tagged in one batch (the tagger's own cache keeps every text
it has tagged), each tagged word is taken to its topic token ids once (a
vocabulary of its own), and each topic measure's token ids are counted by the
batch kernels' unigram counting (``score_pairs`` with an n-gram spec of
size 1), the same clipped overlap the per-pair path computes.  TopicUniq
packs each text's distinct ids (set semantics: the hit is the size of the
intersection).

Measures with synonyms or ``topic_weights: idf`` stay on the per-pair path
(their ``batch`` capability says None).  Numbers are identical to the
per-pair path (tests/test_topic_batch.py checks it, C and pure Python, on
SummEval and on random texts).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import accumulate, chain
from typing import Any

from rouge2.kernels import M_NGRAM
from rouge2.measures.topic import Topic, annotate
from rouge2.pos.tagger import Tagger

#: the unigram count spec of the batch kernels: (kind, n, unigrams, weight)
UNIGRAMS = (M_NGRAM, 1, 0, 0.0)


def chunk_texts(pairs: Sequence) -> tuple[list[str], array, array, array]:
    """The distinct texts of ``pairs`` in order of first appearance (each
    candidate, then its references), and per pair its candidate's index, its
    first reference entry (plus the end) and each reference's index, as the
    batch kernels take them."""
    index: dict[str, int] = {}
    add = index.setdefault
    cands, refs, ref_starts = array("i"), array("i"), array("q", [0])
    for c, r in pairs:
        cands.append(add(c, len(index)))
        if isinstance(r, str):
            refs.append(add(r, len(index)))
        else:
            refs.extend([add(x, len(index)) for x in r])
        ref_starts.append(len(refs))
    return list(index), cands, ref_starts, refs


def annotate_texts(tagger: Any, texts: list[str]) -> list:
    """``(word, tag, universal tag)`` of each text, as :func:`rouge2.measures.topic.annotate`
    gives them one by one; a :class:`~rouge2.pos.tagger.Tagger` that keeps
    its ``annotate`` tags them in one batch (``annotate_many``)."""
    if isinstance(tagger, Tagger) and type(tagger).annotate is Tagger.annotate:
        return tagger.annotate_many(texts)
    return [annotate(tagger, t) for t in texts]


class TopicTokens:
    """Tagged words to topic token ids, for one tagger and one analyzer's
    settings: each word tokenized, stopwords dropped, stemmed (the per-pair
    path's steps), each distinct stem one id; and, per topic measure, each
    text's topic token ids, kept by text as the tagger keeps its tags (a
    text is mapped once, then looked up).  Bounded: past
    :data:`TEXTS_LIMIT` texts or :data:`WORDS_LIMIT` words it starts afresh
    (between chunks: ids are only compared within one)."""

    def __init__(self, analyzer):
        self.analyzer = analyzer
        self.vocab: dict[str, int] = {}
        self.words: dict[str, tuple[int, ...]] = {}
        #: per selector key: (word, tag, universal tag) -> its topic token ids
        self.tables: dict[Any, dict[tuple[str, str, str], tuple[int, ...]]] = {}
        #: per (selector key, unique): text -> its topic token ids (int32 bytes)
        self.texts: dict[Any, dict[str, bytes]] = {}
        self.ntexts = 0

    def reset(self) -> None:
        self.vocab.clear()
        self.words.clear()
        self.tables.clear()
        self.texts.clear()
        self.ntexts = 0

    def word_ids(self, word: str) -> tuple[int, ...]:
        """The topic token ids of one tagged word (empty: all stopwords)."""
        ids = self.words.get(word)
        if ids is None:
            a = self.analyzer
            stop = a._stopwords
            vocab = self.vocab
            ids = self.words[word] = tuple(vocab.setdefault(a.stem_token(tok), len(vocab))
                                           for tok in a._tokenize(word) if tok not in stop)
        return ids

    def tagged_ids(self, annotated: Sequence[tuple[str, str, str]], measure: Topic) -> list[int]:
        """The topic token ids of one tagged text for ``measure``, in order
        (:meth:`rouge2.measures.topic.Topic._units`, as ids): each distinct
        ``(word, tag, universal tag)`` decided once per selector, a text
        then mapped by a C-level ``map`` over its tagged words."""
        table = self.tables.get(measure._key)
        if table is None:
            table = self.tables[measure._key] = {}
        try:
            return list(chain.from_iterable(map(table.__getitem__, annotated)))
        except (KeyError, TypeError):  # a word not decided yet (or tags given as lists)
            pass
        select = measure.selector.select
        out: list[int] = []
        for word, tag, upos in annotated:
            key = (word, tag, upos)
            ids = table.get(key)
            if ids is None:
                ids = table[key] = self.word_ids(word) if select(tag, upos) else ()
            out.extend(ids)
        return out

    def lists(self, tagger: Any, sources: list[str], measures: Sequence[Topic]) -> list[list[bytes]]:
        """Per measure, each text's topic token ids (distinct ones for
        TopicUniq) as int32 bytes; the texts not seen before are tagged in
        one batch."""
        if self.ntexts > TEXTS_LIMIT or sum(map(len, self.tables.values())) > WORDS_LIMIT:
            self.reset()
        caches = [self.texts.setdefault((m._key, m.unique), {}) for m in measures]
        todo = list(dict.fromkeys(s for s in sources if any(s not in c for c in caches)))
        if todo:
            self.ntexts += len(todo)
            for annotated, text in zip(annotate_texts(tagger, todo), todo):
                for m, cache in zip(measures, caches):
                    ids = self.tagged_ids(annotated, m)
                    cache[text] = array("i", dict.fromkeys(ids) if m.unique else ids).tobytes()
        return [[cache[s] for s in sources] for cache in caches]


#: topic token vocabularies shared by plans with the same tagger, tokenizer,
#: stemmer and stopwords, most recent last: a loop of score_corpus calls
#: maps each tagged text once, not once a call
_SHARED: dict = {}
_SHARED_KEPT = 4
#: at most this many texts (per measure) or words kept by one vocabulary
TEXTS_LIMIT = 1 << 20
WORDS_LIMIT = 1 << 21


def shared_tokens(analyzer, tagger: Any) -> TopicTokens:
    """The :class:`TopicTokens` for ``tagger`` and ``analyzer``'s tokenizer,
    stemmer and stopwords."""
    try:
        key = (tagger, analyzer._tokenize, analyzer._stemmer, analyzer._stem_min,
               frozenset(analyzer._stopwords))
        found = _SHARED.pop(key)
    except TypeError:  # an unhashable tagger, tokenizer or stemmer: not shared
        return TopicTokens(analyzer)
    except KeyError:
        found = TopicTokens(analyzer)
        if len(_SHARED) >= _SHARED_KEPT:
            del _SHARED[next(iter(_SHARED))]
    _SHARED[key] = found
    return found


def pack(per_text: Sequence[bytes]) -> tuple[array, array, array]:
    """Texts given as int32 token id bytes, packed as the batch kernels take
    them: ``(ids, bounds, spans)``, each text's flat tokens and no sentences
    (unigram counting reads only the flat tokens)."""
    ids = array("i")
    ids.frombytes(b"".join(per_text))
    ends = list(accumulate(len(b) >> 2 for b in per_text))
    spans = array("q", chain.from_iterable((0, 0, a, b) for a, b in zip([0, *ends], ends)))
    return ids, array("q"), spans


class TopicBatch:
    """The topic measures of a :class:`~rouge2.scoring.batch.BatchPlan`,
    counted chunk by chunk: :meth:`stats` gives the same flat layout as the
    kernels' ``score_pairs`` (``(hit, ref_total, cand_total, key_base)`` per
    reference entry and measure)."""

    def __init__(self, scorer, names: Sequence[str], tokens: TopicTokens):
        self.names = list(names)
        self.measures: list[Topic] = [scorer.measures[n] for n in self.names]
        self.analyzer = scorer.analyzer
        self.tagger = scorer.tagger
        self.tokens = tokens

    def sources(self, texts: list[str]) -> list[str]:
        """What the tagger sees of each text: the raw text, or what a length
        limit keeps of it (``AnalyzedText.tag_source``)."""
        a = self.analyzer
        if not a.word_limit and not a.byte_limit:
            return texts
        return [a._limited(a.split(t), False)[0] for t in texts]

    def token_lists(self, texts: list[str]) -> list[list[bytes]]:
        """Per measure, each text's topic token ids (distinct ones for TopicUniq)."""
        return self.tokens.lists(self.tagger, self.sources(texts), self.measures)

    def stats(self, kernels, per_measure: list[list[bytes]], cands, ref_starts, refs) -> list:
        """Per measure, the kernels' flat statistics of the chunk."""
        return [kernels.score_pairs(pack(lists), None, cands, ref_starts, refs, [UNIGRAMS])
                for lists in per_measure]
