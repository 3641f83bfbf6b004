"""The batch path: many pairs scored with texts as packed integer ids.

:func:`batch_plan` decides, once, which of a :class:`~rouge2.scoring.scorer.Scorer`'s
measures go through the batch path; :class:`BatchPlan` then scores pairs
chunk by chunk: each distinct text of a chunk analysed once into raw word
ids (:mod:`rouge2.kernels`, in C without the GIL), every pair, reference
and batch measure counted in one kernel call.  ROUGE-N and ROUGE-L with the
scorer's synonyms are counted by a second call over the same ids
(``synonym_stats``: the relation resolved once per vocabulary,
:mod:`rouge2.synonyms.ids`; without word or byte limits).  The other
measures of the same call (ROUGE-W/S/SU and topic measures with synonyms,
measure objects the kernels do not know) are scored pair by pair on the
same chunk, and the results merged in the scorer's measure order.  Stemming and stopwords are applied per
distinct *word*, not per token: a remap array takes each raw word id to its
final id (or drops it).

Every setting of the analysis is on the batch path: the ``rouge155``,
``unicode`` and ``character`` tokenizers, the three sentence modes,
ROUGE-1.5.5's word and byte limits, stemming, stopwords; every
multi-reference mode and rounding.
Numbers are identical to the per-pair path (tests/test_batch.py checks it on
random texts): the kernels compute the same statistics, and P/R/F and the
multi-reference modes come from :mod:`rouge2.stats.combine`.

``threads=N`` scores N chunks at a time in a thread pool; the results, and
their order, are those of one thread (the raw word ids may differ, and no
number depends on them).

``ROUGE2_NO_BATCH=1`` (read at import; :data:`ENABLED` in code) turns the
batch path off everywhere, for differential checks of the callers.
"""

from __future__ import annotations

import os
import threading
import unicodedata
from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from rouge2 import kernels as _kernels
from rouge2.analysis import analyzer as _analyzer_mod
from rouge2.analysis import tokenize as tokenize_mod
from rouge2.analysis.sentences import line_sentences, one_sentence, rule_sentences
from rouge2.analysis.tokenize import character_tokens, unicode_tokens
from rouge2.errors import UserError
from rouge2.kernels import M_LCS, M_LCS_FLAT, M_NGRAM, M_SKIP, M_WLCS
from rouge2.measures.base import Measure, PairStats, batch_spec, synonym_batch_spec
from rouge2.measures.lcs import WLCS
from rouge2.scoring.checks import check_references, check_text
from rouge2.scoring.topic_batch import TopicBatch, chunk_texts, shared_tokens
from rouge2.stats.combine import combine, combine_many, combine_values, entry_stats
from rouge2.synonyms.ids import indexable, shared_relation

#: pairs scored per kernel call; only the vocabulary outlives a chunk
CHUNK = 4096

#: False: :func:`batch_plan` gives no plan, so every caller takes the
#: per-pair path (``ROUGE2_NO_BATCH=1``; for differential checks)
ENABLED = os.environ.get("ROUGE2_NO_BATCH", "") in ("", "0")

# -- which measures: one decision per measure ---------------------------------

#: a BatchSpec's kind -> the kernels' measure code
_KERNEL_KINDS = {"ngram": M_NGRAM, "lcs": M_LCS, "lcs-flat": M_LCS_FLAT, "wlcs": M_WLCS, "skip": M_SKIP}


def measure_spec(m: Measure):
    """The batch kernels' ``(kind, n, unigrams, weight)`` for ``m``, or None
    when ``m`` is scored pair by pair: the measure family's ``batch``
    capability (:func:`rouge2.measures.base.batch_spec`) in the kernels'
    terms, the one per-measure decision."""
    spec = batch_spec(m)
    if spec is None or spec.kind not in _KERNEL_KINDS:
        return None
    return (_KERNEL_KINDS[spec.kind], spec.n, spec.unigrams, spec.weight)


def synonym_spec(m: Measure, scorer, analysis: tuple):
    """The batch kernels' spec of ``m`` counted *with* the scorer's synonyms
    (:func:`rouge2.measures.base.synonym_batch_spec`: ROUGE-N, ROUGE-L), or
    None: the measure has no synonyms or another relation than the
    scorer's, the matcher's look-ups cost the size of the vocabulary, or a
    word or byte limit cuts the texts (those stay per pair)."""
    rel = getattr(m, "relation", None)
    matcher = getattr(scorer, "synonyms", None)
    if rel is None or rel is not getattr(scorer, "relation", None) or matcher is None or not indexable(matcher):
        return None
    if analysis[2] or analysis[3]:
        return None
    spec = synonym_batch_spec(m)
    if spec is None or spec.kind not in _KERNEL_KINDS:
        return None
    return (_KERNEL_KINDS[spec.kind], spec.n, spec.unigrams, spec.weight)


def is_batch_topic(m: Measure, tagger: Any, byte_text: bool = False) -> bool:
    """Whether ``m`` is a topic measure the batch path counts: its ``batch``
    capability says ``topic`` (no synonyms, no idf weights), the scorer has
    a tagger, and the texts are not bytes read as latin-1 (ROUGE-1.5.5's
    readers tag nothing).  See :mod:`rouge2.scoring.topic_batch`."""
    spec = batch_spec(m)
    return spec is not None and spec.kind == "topic" and tagger is not None and not byte_text \
        and getattr(m, "tagger", None) is tagger


# -- which analysis settings ----------------------------------------------------

_SENTENCE_CODES = {line_sentences: 0, rule_sentences: 1, one_sentence: 2}

#: more words or bytes than any text has (limits are C integers in the kernels)
_NO_TEXT_IS_LONGER = 2 ** 62


def _tokenizer_code(fn) -> int | None:
    """The kernels' code of a tokenizer function: 0 ROUGE-1.5.5's rules,
    1 ``unicode``, 2 ``character``; None for the others (segmenters, plugins)."""
    if fn is _kernels.rouge155_tokens or fn is _kernels.py_rouge155_tokens:
        return 0
    return {unicode_tokens: 1, character_tokens: 2}.get(fn)


#: what the C Unicode tokenizers take from their Python definitions (see
#: rouge2/kernels/unitok.h): the classifiers, the category and the normalizer
_UNICODE_DEFS = (tokenize_mod._word_label, tokenize_mod._grapheme_class, unicodedata.category,
                 unicodedata.normalize)


def analysis_spec(analyzer, byte_text: bool = False) -> tuple | None:
    """What the analysis kernels need to analyse texts as ``analyzer`` does:
    ``(tokenizer, sentences, word_limit, byte_limit, byte_text, defs, raw)``
    (``defs``: the Unicode tokenizers' definitions, see
    ``rouge2/kernels/unitok.h``; ``raw``: the analyzer's own definition,
    :meth:`~rouge2.analysis.analyzer.Analyzer.raw_streams`); None when its
    tokenizer or sentence splitting has no kernel, or a length limit is past
    C's integers (``-l 1e300``).  ``byte_text``: the texts
    are bytes decoded as latin-1 (ROUGE-1.5.5's readers), so a byte limit
    counts characters."""
    tok = _tokenizer_code(analyzer._tokenize)
    sent = _SENTENCE_CODES.get(analyzer._split)
    if tok is None or sent is None or (byte_text and tok != 0):
        return None
    if max(analyzer.word_limit or 0, analyzer.byte_limit or 0) >= 1 << 62:  # past C's integers
        return None

    def raw(text: str):
        return analyzer.raw_streams(text, byte_text)

    # a limit no text reaches acts as its C-sized equivalent (rouge155 -l 1e300)
    word_limit, byte_limit = min(analyzer.word_limit, _NO_TEXT_IS_LONGER), min(analyzer.byte_limit,
                                                                              _NO_TEXT_IS_LONGER)
    return (tok, sent, word_limit, byte_limit, byte_text, None if tok == 0 else _UNICODE_DEFS, raw)


def batch_plan(scorer, measures: Any = None, kernels=None, byte_text: bool = False) -> BatchPlan | None:
    """A :class:`BatchPlan` for ``scorer``, or None when none of its measures
    can take the batch path (the one place this is decided).

    ``measures``: what the caller asked for (unused: measure objects are
    decided one by one, like names); ``kernels``: the batch kernels to use
    (default: :data:`rouge2.kernels.DEFAULT_BATCH`; None there means the
    per-pair path); ``byte_text``: see :func:`analysis_spec`.
    """
    if kernels is None:
        kernels = _kernels.DEFAULT_BATCH if ENABLED else None
        if kernels is None:
            return None
    analysis = analysis_spec(scorer.analyzer, byte_text)
    if analysis is None:
        return None
    specs = {name: measure_spec(m) or synonym_spec(m, scorer, analysis) for name, m in scorer.measures.items()}
    topics = [name for name, m in scorer.measures.items() if is_batch_topic(m, scorer.tagger, byte_text)]
    if not topics and all(s is None for s in specs.values()):
        return None
    return BatchPlan(scorer, specs, analysis, kernels, topics)


# -- word remaps ------------------------------------------------------------------

class WordRemap:
    """Raw word id -> final id after stopwords and stemming (-1: dropped),
    grown as the vocabulary grows; shared by plans with the same kernels,
    named stemmer and stopwords, and safe to use from several threads."""

    def __init__(self):
        self.ids = array("i")
        self.final: dict[str, int] = {}
        self.lock = threading.Lock()
        self._snapshot: memoryview | None = None

    def covering(self, kernels, finish, nwords: int) -> memoryview:
        """The remap (int32) covering raw ids below ``nwords``, as a
        read-only snapshot that later growth leaves alone."""
        with self.lock:
            ids = self.ids
            if len(ids) < nwords:
                final = self.final
                for w in kernels.raw_words(len(ids)):
                    toks = finish([w])[0]
                    ids.append(final.setdefault(toks[0], len(final)) if toks else -1)
                self._snapshot = None
            if self._snapshot is None:
                self._snapshot = memoryview(ids.tobytes()).cast("i")
            return self._snapshot


#: the per-pair parts of threaded scoring (measures the kernels do not
#: count, chunks they cannot take, taggers, the analyzer's caches) run one
#: thread at a time: the kernels' parts run in parallel, these never do
PYTHON_LOCK = threading.RLock()


#: word remaps shared by plans with the same kernels, named stemmer and
#: stopwords, most recent last: a loop of score_corpus calls stems each
#: distinct word once, not once a call
_REMAPS: dict = {}
_REMAPS_KEPT = 4


def _shared_remap(kernels, options) -> WordRemap:
    """The remap for these settings: shared when the stemmer is named (a
    custom stemmer function gets its own)."""
    if not isinstance(options.stem, str):
        return WordRemap()
    key = (id(kernels), options.stem, options.stopwords)
    try:
        found = _REMAPS.pop(key)
    except TypeError:  # unhashable stopwords: no sharing
        return WordRemap()
    except KeyError:
        found = WordRemap()
        if len(_REMAPS) >= _REMAPS_KEPT:
            del _REMAPS[next(iter(_REMAPS))]
    _REMAPS[key] = found
    return found


def _cast(buf, fmt: Any):
    return memoryview(buf).cast(fmt) if isinstance(buf, bytes) else buf


def _pair_empties(spans, remap, ids, cands, ref_starts, refs) -> list:
    """Per pair ``(candidate empty, number of empty reference entries)``: a
    text is empty when none of its flat raw ids is kept by ``remap`` (None:
    every id is kept)."""
    drops = remap is not None and -1 in remap
    empty = []
    for t in range(len(spans) // 4):
        a, b = spans[4 * t + 2], spans[4 * t + 3]
        empty.append(a == b or (drops and all(remap[i] < 0 for i in ids[a:b])))
    return [(empty[cands[p]], sum(1 for e in range(ref_starts[p], ref_starts[p + 1]) if empty[refs[e]]))
            for p in range(len(cands))]


# -- threads ----------------------------------------------------------------------

def check_threads(threads: Any) -> int:
    """``threads`` as a whole number >= 1 (a one-line error otherwise)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise UserError(f"threads must be a whole number >= 1, got {threads!r}")
    return threads


def ordered_map(fn: Callable[[Any], Any], items: Iterable, threads: int = 1) -> Iterator:
    """``fn(item)`` for each item, in order; with ``threads`` > 1 in a thread
    pool, at most ``2 * threads`` items in flight (the kernels release the
    GIL, so chunks are counted in parallel)."""
    if threads <= 1:
        for item in items:
            yield fn(item)
        return
    with ThreadPoolExecutor(threads, thread_name_prefix="rouge2") as pool:
        pending: deque = deque()
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) >= 2 * threads:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def chunk_ranges(n: int, chunk: int) -> list[tuple[int, int]]:
    return [(start, min(start + chunk, n)) for start in range(0, n, chunk)]


# -- the plan ------------------------------------------------------------------------

@dataclass
class Chunk:
    """One chunk's statistics: the batch measures' flat array (see
    :class:`StatsChunk`) and, per pair, the other measures' ``(PairStats,
    key_base)`` against each reference; ``empties`` per pair when asked."""

    stats: Any
    ref_starts: Any
    rest: list | None
    empties: list | None = None


class BatchPlan:
    """A scorer's settings in the batch kernels' terms, plus its word remap.

    ``names`` / ``measures``: all of the scorer's measures, in order;
    ``batch_names``: those the kernels count, from the analysed texts
    (``kernel_names``, their ``specs``) or from the topic tokens
    (``topic_names``, :mod:`rouge2.scoring.topic_batch`); the others
    (``rest_names``) are scored pair by pair on the same chunks.
    """

    def __init__(self, scorer, specs: dict, analysis: tuple, kernels, topics: Sequence[str] = ()):
        self.scorer = scorer
        self.kernels = kernels
        self.analysis = analysis
        self.names = list(scorer.measures)
        self.measures = list(scorer.measures.values())
        self.kernel_names = [n for n in self.names if specs[n] is not None]
        self.batch_names = [n for n in self.names if specs[n] is not None or n in topics]
        self.rest_names = [n for n in self.names if n not in self.batch_names]
        self.specs = [specs[n] for n in self.kernel_names]
        #: the kernel measures counted with synonyms: (column, kind, n) for
        #: the kernels' synonym_stats, and the relation in raw word ids
        self.synonym_specs = [(k, self.specs[k][0], self.specs[k][1]) for k, n in enumerate(self.kernel_names)
                              if scorer.measures[n].relation is not None]
        self.relation = shared_relation(kernels, scorer.synonyms) if self.synonym_specs else None
        self.topic = TopicBatch(scorer, [n for n in self.names if n in topics],
                                shared_tokens(scorer.analyzer, scorer.tagger)) if topics else None
        self._batch_measures = [scorer.measures[n] for n in self.batch_names]
        a = scorer.analyzer
        self._identity = a._stemmer is None and not a._stopwords
        self.remap = _shared_remap(kernels, scorer.options)
        #: warn (once a process) about a text with letters but no tokens, as
        #: the analyzer does (ROUGE-1.5.5's tokenizer, no length limit)
        self.warn_foreign = analysis[0] == 0 and not a.word_limit and not a.byte_limit

    # -- statistics -------------------------------------------------------
    def chunk(self, pairs: Sequence, start: int = 0, stop: int | None = None,
              empties: bool = False) -> Chunk | None:
        """The statistics of ``pairs[start:stop]`` (``(candidate, references)``
        pairs); None when a text is not a ``str`` (a tuple of sentences, or a
        mistake the per-pair path reports)."""
        if stop is None:
            stop = len(pairs)
        res = self.kernels.analyze_pairs(pairs, start, stop, self.analysis)
        if res is None:
            return None
        packed, nwords, empty, cands, ref_starts, refs = res
        if empty and self.warn_foreign and not _analyzer_mod._warned_foreign:
            self._warn_foreign(empty)
        remap = None if self._identity else self.remap.covering(self.kernels, self.scorer.analyzer._finish,
                                                                nwords)
        stats = self.kernels.score_pairs(packed, remap, cands, ref_starts, refs, self.specs) \
            if self.specs else b""
        if self.relation is not None:
            with PYTHON_LOCK:  # the matcher answers for the new words
                relation = self.relation.covering(self.kernels, nwords)
            stats = self.kernels.synonym_stats(packed, remap, cands, ref_starts, refs, stats, len(self.specs),
                                               self.synonym_specs, relation)
        stats, ref_starts = _cast(stats, "d"), _cast(ref_starts, "q")
        if self.topic is not None:
            stats = self._with_topics(stats, pairs[start:stop], ref_starts[len(ref_starts) - 1])
        flags = None
        if empties:
            flags = _pair_empties(_cast(packed[2], "q"), remap, _cast(packed[0], "i"), _cast(cands, "i"),
                                  ref_starts, _cast(refs, "i"))
        rest = self._rest(pairs[start:stop]) if self.rest_names else None
        return Chunk(stats, ref_starts, rest, flags)

    def _with_topics(self, stats, pairs: Sequence, nent: int):
        """The kernel measures' ``stats`` and the topic measures' of the same
        ``pairs`` as one array, in :attr:`batch_names` order."""
        topic = self.topic
        assert topic is not None  # chunk() checks it
        with PYTHON_LOCK:  # the tagger and the topic vocabulary
            texts, cands, ref_starts, refs = chunk_texts(pairs)
            lists = topic.token_lists(texts)
        parts = [(stats, self.kernel_names)] if self.kernel_names else []
        parts += [(_cast(got, "d"), [name]) for got, name in
                  zip(topic.stats(self.kernels, lists, cands, ref_starts, refs), topic.names)]
        if len(parts) == 1:
            return parts[0][0]
        m = len(self.batch_names)
        out = array("d", bytes(8 * 4 * m * nent))
        for got, names in parts:
            if not isinstance(got, array):
                got = array("d", bytes(got))
            width = len(names)
            for i, name in enumerate(names):
                k = self.batch_names.index(name)
                for j in range(4):
                    out[k * 4 + j::4 * m] = got[i * 4 + j::4 * width]
        return out

    def _rest(self, pairs: Sequence) -> list:
        """Per pair, ``{name: [(PairStats, key_base) against each reference]}``
        of the measures the kernels do not count."""
        sc = self.scorer
        analyze = sc.analyzer.analyze
        measures = [(n, sc.measures[n]) for n in self.rest_names]
        out = []
        with PYTHON_LOCK:
            if sc.tagger is not None:
                sc.prefetch([t for c, r in pairs for t in ([c, r] if isinstance(r, str) else [c, *r])])
            for c, r in pairs:
                cand = analyze(c, cache=False)
                refs = [analyze(x) for x in ((r,) if isinstance(r, str) else r)]
                out.append({n: [m.stats_and_base(cand, x) for x in refs] for n, m in measures})
        return out

    def chunk_stats(self, pairs: Sequence, start: int = 0, stop: int | None = None):
        """``(stats, ref_starts)`` of ``pairs[start:stop]`` for every measure,
        laid out as :class:`StatsChunk` describes; None as :meth:`chunk`."""
        res = self.chunk(pairs, start, stop)
        return None if res is None else (self.full_stats(res), res.ref_starts)

    def full_stats(self, res: Chunk):
        """The chunk's statistics of every measure in one float array."""
        if not res.rest:
            return res.stats
        m, mb = len(self.names), len(self.batch_names)
        nent = res.ref_starts[len(res.ref_starts) - 1]
        out = array("d", bytes(8 * 4 * m * nent))
        for kb, name in enumerate(self.batch_names):
            k = self.names.index(name)
            for j in range(4):
                out[k * 4 + j::4 * m] = array("d", res.stats[kb * 4 + j::4 * mb])
        for name in self.rest_names:
            k = self.names.index(name)
            e = 0
            for per_pair in res.rest:
                for s, base in per_pair[name]:
                    i = (e * m + k) * 4
                    out[i:i + 4] = array("d", (s.hit, s.ref_total, s.cand_total, base))
                    e += 1
        return out

    def _warn_foreign(self, texts):
        """rouge2's once-a-process warning for a text with letters but no tokens."""
        split = self.scorer.analyzer.split
        for text in texts:
            if not text.isascii():
                _analyzer_mod.warn_if_foreign(split(text))
                if _analyzer_mod._warned_foreign:
                    return

    # -- scores -----------------------------------------------------------
    def _batch_scores(self, res: Chunk, use_c: bool = True) -> list[dict]:
        o = self.scorer.options
        return combine_many(self._batch_measures, self.batch_names, res.stats, res.ref_starts,
                            o.multi_reference, o.alpha, o.rounding, use_c=use_c)

    def prf_values(self, res: Chunk) -> bytes | None:
        """The chunk's P, R and F as flat float64 bytes (three per pair and
        measure, in the scorer's measure order; the floats :meth:`scores`
        gives), or None when some measure is scored pair by pair or the C
        kernels are not there."""
        if self.rest_names:
            return None
        o = self.scorer.options
        return combine_values(self._batch_measures, res.stats, res.ref_starts, o.multi_reference, o.alpha,
                              o.rounding)

    def _rest_scores(self, res: Chunk) -> list[dict]:
        o = self.scorer.options
        ms = self.scorer.measures
        out = []
        for per_pair in res.rest or ():
            out.append({n: combine(ms[n], [s for s, _ in got], o.multi_reference, o.alpha,
                                   [ms[n].key_from(s, b) for s, b in got], o.rounding)
                        for n, got in per_pair.items()})
        return out

    def _merge(self, first: list[dict], second: list[dict]) -> list[dict]:
        """Per pair the two dicts as one, in the scorer's measure order."""
        names = self.names
        return [{n: (a[n] if n in a else b[n]) for n in names} for a, b in zip(first, second)]

    def scores(self, res: Chunk, use_c: bool = True) -> list[dict]:
        """Per pair ``{name: Score}`` of a chunk (what ``Scorer.score`` gives)."""
        batch = self._batch_scores(res, use_c)
        return self._merge(batch, self._rest_scores(res)) if self.rest_names else batch

    def scores_and_stats(self, res: Chunk) -> tuple[list[dict], list[dict]]:
        """``(scores, stats)`` of a chunk: per pair ``{name: Score}`` and
        ``{name: [PairStats against each reference]}`` (counts as ints,
        ROUGE-W's weighted values as floats), as ``Scorer.pair_stats`` and
        :func:`~rouge2.stats.combine.combine` give them."""
        return self.scores(res), self.stats_dicts(res)

    def stats_dicts(self, res: Chunk) -> list[dict]:
        """Per pair ``{name: [PairStats against each reference]}`` of a chunk."""
        stats = self._batch_stats_dicts(res)
        if self.rest_names:
            rest = [{n: [s for s, _ in got] for n, got in per_pair.items()} for per_pair in res.rest or ()]
            stats = self._merge(stats, rest)
        return stats

    def _batch_stats_dicts(self, res: Chunk) -> list[dict]:
        m = len(self.batch_names)
        vals = res.stats.tolist()
        ref_starts = res.ref_starts
        make = tuple.__new__
        kinds = [(k * 4, name, not isinstance(meas, WLCS))
                 for k, (name, meas) in enumerate(zip(self.batch_names, self._batch_measures))]
        step = m * 4
        per_pair = []
        for p in range(len(ref_starts) - 1):
            base0, base1 = ref_starts[p] * step, ref_starts[p + 1] * step
            entry = {}
            for off, name, ints in kinds:
                if ints:
                    entry[name] = [make(PairStats, (int(vals[i]), int(vals[i + 1]), int(vals[i + 2])))
                                   for i in range(base0 + off, base1, step)]
                else:
                    entry[name] = [make(PairStats, (vals[i], vals[i + 1], vals[i + 2]))
                                   for i in range(base0 + off, base1, step)]
            per_pair.append(entry)
        return per_pair

    # -- whole inputs -----------------------------------------------------
    def map_chunks(self, fn: Callable[[Chunk | None, Sequence], Any], pairs: Sequence,
                   chunk: int = CHUNK, threads: int = 1, empties: bool = False) -> Iterator:
        """``fn(chunk statistics, pairs of the chunk)`` for each chunk of
        ``pairs`` in order (statistics None: the chunk needs the per-pair
        path); ``threads`` chunks at a time."""
        def one(bounds):
            part = pairs[bounds[0]:bounds[1]]
            return fn(self.chunk(part, empties=empties), part)

        return ordered_map(one, chunk_ranges(len(pairs), chunk), threads)

    def score_pairs(self, pairs: Iterable[tuple[Any, Any]], chunk: int = CHUNK,
                    use_c: bool = True, threads: int = 1) -> list[dict]:
        """``{name: Score}`` per pair, in order (what ``Scorer.score`` gives)."""
        if not isinstance(pairs, list):
            pairs = list(pairs)
        score = self.scorer.score

        def scores(res, part):
            if res is not None:
                return self.scores(res, use_c)
            with PYTHON_LOCK:
                return [score(c, r) for c, r in part]

        out: list[dict] = []
        for got in self.map_chunks(scores, pairs, chunk, threads):
            out.extend(got)
        return out

    def iter_stats(self, pairs: Iterable[tuple[Any, Any]], chunk: int = CHUNK, threads: int = 1):
        """Per chunk of pairs: ``(scores, stats)`` as :meth:`scores_and_stats`
        gives them, the per-pair path standing in for chunks it cannot take."""
        if not isinstance(pairs, list):
            pairs = list(pairs)

        def both(res, part):
            if res is not None:
                return self.scores_and_stats(res)
            with PYTHON_LOCK:
                return per_pair_scores(self.scorer, part)

        yield from self.map_chunks(both, pairs, chunk, threads)


def per_pair_scores(scorer, pairs) -> tuple[list[dict], list[dict]]:
    """``(scores, stats)`` of ``pairs`` through the per-pair path: per pair
    ``{name: Score}`` and ``{name: [PairStats against each reference]}``."""
    o = scorer.options
    scores, stats = [], []
    for c, r in pairs:
        per_measure = scorer.pair_stats(c, r)
        sc, st = {}, {}
        for name, got in per_measure.items():
            per_ref = [x[0] for x in got]
            st[name] = per_ref
            sc[name] = combine(scorer.measures[name], per_ref, o.multi_reference, o.alpha,
                               [x[1] for x in got], o.rounding)
        scores.append(sc)
        stats.append(st)
    return scores, stats


@dataclass(frozen=True)
class StatsChunk:
    """Sufficient statistics of a run of consecutive pairs, in flat arrays.

    ``stats[(e * len(names) + k) * 4 : ... + 4]`` is ``(hit, ref_total,
    cand_total, key_base)`` of measure ``names[k]`` for reference entry
    ``e``; pair ``start + p``'s entries are ``ref_starts[p]`` to
    ``ref_starts[p + 1] - 1``, in reference order.  ``key_base`` is
    ROUGE-W's Σ f(sentence length) (the total before its second weighting,
    which ``-f B`` ranks by) and ``ref_total`` for every other measure.
    """

    start: int
    names: tuple
    stats: Any  # float64 buffer (memoryview or array('d'))
    ref_starts: Any  # int64 buffer

    def __len__(self) -> int:
        """The number of pairs."""
        return len(self.ref_starts) - 1

    def pair_stats(self, p: int, k: int) -> list:
        """Measure ``k``'s PairStats of pair ``start + p`` against each reference."""
        m = len(self.names)
        return [entry_stats(self.stats, e, m, k)[0]
                for e in range(self.ref_starts[p], self.ref_starts[p + 1])]


def per_pair_chunk(scorer, pairs, start: int) -> StatsChunk:
    """A :class:`StatsChunk` through the per-pair path (settings the batch
    kernels do not cover)."""
    analyze = scorer.analyzer.analyze
    stats = array("d")
    ref_starts = array("q", [0])
    for c, r in pairs:
        cand = analyze(check_text(c, "candidate"), cache=False)
        refs = [analyze(x) for x in ([r] if isinstance(r, str) else check_references(r))]
        for ref in refs:
            for m in scorer.measures.values():
                s, base = m.stats_and_base(cand, ref)
                stats.extend((s.hit, s.ref_total, s.cand_total, base))
        ref_starts.append(ref_starts[-1] + len(refs))
    return StatsChunk(start, tuple(scorer.measures), stats, ref_starts)
