"""The batch path: many pairs scored with texts as packed integer ids.

:func:`batch_plan` decides, once, whether a :class:`~rouge2.scoring.scorer.Scorer`'s
settings can go through the batch path; :class:`BatchPlan` then scores pairs
chunk by chunk (each distinct text of a chunk analysed once, in C, into raw
word ids; every pair, reference and measure counted in one kernel call).
Stemming and stopwords are applied per distinct *word*, not per token: a
remap array takes each raw word id to its final id (or drops it).

Numbers are identical to the per-pair path (tests/test_batch.py checks it on
random texts): the kernels compute the same statistics, and P/R/F and the
multi-reference modes come from rouge2.stats.combine.

Not covered (the per-pair path is used): synonyms, topic measures, Measure
objects, tokenizers other than ``rouge155``, the ``splitter`` sentences,
word/byte limits, and the pure-Python mode (``ROUGE2_PURE_PYTHON=1``).
``ROUGE2_NO_BATCH=1`` (read at import; :data:`ENABLED` in code) turns the
batch path off everywhere, for differential checks of the callers.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rouge2 import kernels as _kernels
from rouge2.analysis import analyzer as _analyzer_mod
from rouge2.kernels.python import M_LCS, M_LCS_FLAT, M_NGRAM, M_SKIP, M_WLCS
from rouge2.measures.base import Measure, PairStats
from rouge2.measures.lcs import LCS, WLCS
from rouge2.measures.ngram import NGram
from rouge2.measures.skipgram import SkipBigram
from rouge2.scoring.checks import check_references, check_text
from rouge2.stats.combine import combine, combine_many, entry_stats

#: pairs scored per kernel call; only the vocabulary outlives a chunk
CHUNK = 4096

#: False: :func:`batch_plan` gives no plan for the default kernels, so every
#: caller takes the per-pair path (``ROUGE2_NO_BATCH=1``; for differential checks)
ENABLED = os.environ.get("ROUGE2_NO_BATCH", "") in ("", "0")


#: n-gram sizes and skip distances above this go the per-pair path (the
#: kernels take them as C integers, and add to them)
MAX_KERNEL_N = 2 ** 31


def measure_spec(m: Measure):
    """The kernel's ``(kind, n, unigrams, weight)`` for ``m``; None if it has none."""
    t = type(m)
    if getattr(m, "relation", None) is not None:
        return None
    if t is NGram:
        return (M_NGRAM, m.n, 0, 0.0) if m.n <= MAX_KERNEL_N else None
    if t is LCS:
        return (M_LCS_FLAT if m.flat else M_LCS, 0, 0, 0.0)
    if t is WLCS:
        return (M_WLCS, 0, 0, m.weight)
    if t is SkipBigram:
        if m.max_skip is not None and m.max_skip > MAX_KERNEL_N:
            return None
        return (M_SKIP, -1 if m.max_skip is None else m.max_skip, int(m.unigrams), 0.0)
    return None


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


def batch_plan(scorer, measures: Any = None, kernels=None) -> BatchPlan | None:
    """A :class:`BatchPlan` for ``scorer``, or None when its settings need the
    per-pair path (the one place this is decided).

    ``measures``: what the caller asked for (Measure objects there mean the
    per-pair path); ``kernels``: the batch kernels to use (default: C when
    built, otherwise None is returned).
    """
    if kernels is None:
        if not _kernels.HAVE_C or not ENABLED:
            return None
        kernels = _kernels.BATCH
    if measures is not None:
        items = [measures] if isinstance(measures, (str, Measure)) else list(measures)
        if any(isinstance(m, Measure) for m in items):
            return None
    o = scorer.options
    a = scorer.analyzer
    if (o.tokenizer != "rouge155" or a.tokenizer_name != "rouge155" or o.synonyms
            or scorer.synonyms is not None or scorer.tagger is not None
            or a.word_limit or a.byte_limit or a.sentences not in ("lines", "none")):
        return None
    specs = [measure_spec(m) for m in scorer.measures.values()]
    if any(s is None for s in specs):
        return None
    return BatchPlan(scorer, specs, kernels)


#: word remaps (raw id -> final id, plus final word -> id) shared by plans
#: with the same kernels, named stemmer and stopwords, most recent last: a
#: loop of score_corpus calls stems each distinct word once, not once a call
_REMAPS: dict = {}
_REMAPS_KEPT = 4


def _shared_remap(kernels, options) -> tuple[array, dict]:
    """The remap for these settings: shared when the stemmer is named (a
    custom stemmer function gets its own)."""
    fresh = (array("i"), {})
    if not isinstance(options.stem, str):
        return fresh
    key = (id(kernels), options.stem, options.stopwords)
    try:
        found = _REMAPS.pop(key)
    except TypeError:  # unhashable stopwords: no sharing
        return fresh
    except KeyError:
        found = fresh
        if len(_REMAPS) >= _REMAPS_KEPT:
            del _REMAPS[next(iter(_REMAPS))]
    _REMAPS[key] = found
    return found


def _cast(buf, fmt: str):
    return memoryview(buf).cast(fmt) if isinstance(buf, bytes) else buf


def _pair_empties(ids, sent_starts, text_sents, remap, cands, ref_starts, refs) -> list:
    """Per pair ``(candidate empty, number of empty reference entries)`` from
    :func:`analyze_pairs`' layout: a text is empty when none of its raw ids
    is kept by ``remap`` (None: every id is kept)."""
    ids = _cast(ids, "i")
    sent_starts = _cast(sent_starts, "q")
    text_sents = _cast(text_sents, "q")
    cands = _cast(cands, "i")
    refs = _cast(refs, "i")
    drops = remap is not None and -1 in remap
    ntexts = len(text_sents) - 1
    empty = []
    for t in range(ntexts):
        a, b = sent_starts[text_sents[t]], sent_starts[text_sents[t + 1]]
        if a == b:
            empty.append(True)
        elif not drops:
            empty.append(False)
        else:
            empty.append(all(remap[i] < 0 for i in ids[a:b]))
    out = []
    for p in range(len(cands)):
        out.append((empty[cands[p]],
                    sum(1 for e in range(ref_starts[p], ref_starts[p + 1]) if empty[refs[e]])))
    return out


class BatchPlan:
    """A scorer's settings in the batch kernels' terms, plus its word remap."""

    def __init__(self, scorer, specs, kernels):
        self.scorer = scorer
        self.kernels = kernels
        self.specs = specs
        self.names = list(scorer.measures)
        self.measures = list(scorer.measures.values())
        self.lines = scorer.analyzer.sentences == "lines"
        a = scorer.analyzer
        self._identity = a._stemmer is None and not a._stopwords
        self.remap, self._final = _shared_remap(kernels, scorer.options)
        #: warn (once a process) about a text with letters but no tokens, as
        #: the analyzer does for str texts (not for ROUGE-1.5.5's byte texts)
        self.warn_foreign = True

    # -- words ---------------------------------------------------------
    def _sync(self, nwords: int):
        """The remap array covering raw ids below ``nwords`` (None: identity)."""
        if self._identity:
            return None
        remap = self.remap
        if len(remap) < nwords:
            finish = self.scorer.analyzer._finish
            final = self._final
            for w in self.kernels.raw_words(len(remap)):
                toks = finish([w])[0]
                remap.append(final.setdefault(toks[0], len(final)) if toks else -1)
        return remap

    # -- pairs ---------------------------------------------------------
    def chunk_stats(self, pairs: Sequence, start: int = 0, stop: int | None = None):
        """``(stats, ref_starts)`` of ``pairs[start:stop]`` (``(candidate,
        references)`` pairs), as :func:`rouge2.kernels.python.score_pairs`
        lays them out; None when a text is not a ``str`` (a tuple of
        sentences, or a mistake the per-pair path reports)."""
        res = self.chunk_stats_empty(pairs, start, stop, empties=False)
        return None if res is None else res[:2]

    def chunk_stats_empty(self, pairs: Sequence, start: int = 0, stop: int | None = None,
                          empties: bool = True):
        """:meth:`chunk_stats` plus, per pair, ``(candidate is empty, how many
        references are empty)``: texts without a token after stemming and
        stopwords, as ``AnalyzedText.is_empty`` says (None unless ``empties``)."""
        if stop is None:
            stop = len(pairs)
        res = self.kernels.analyze_pairs(pairs, start, stop, self.lines)
        if res is None:
            return None
        ids, sent_starts, text_sents, nwords, empty, cands, ref_starts, refs = res
        if empty and self.warn_foreign and not _analyzer_mod._warned_foreign:
            self._warn_foreign(empty)
        remap = self._sync(nwords)
        stats = self.kernels.score_pairs(ids, sent_starts, text_sents, remap, cands,
                                         ref_starts, refs, self.specs)
        if isinstance(stats, bytes):
            stats = memoryview(stats).cast("d")
        if isinstance(ref_starts, bytes):
            ref_starts = memoryview(ref_starts).cast("q")
        flags = None
        if empties:
            flags = _pair_empties(ids, sent_starts, text_sents, remap, cands, ref_starts, refs)
        return stats, ref_starts, flags

    def _warn_foreign(self, texts):
        """rouge2's once-a-process warning for a text with letters but no tokens."""
        split = self.scorer.analyzer.split
        for text in texts:
            if not text.isascii():
                _analyzer_mod.warn_if_foreign(split(text))
                if _analyzer_mod._warned_foreign:
                    return

    def _scores(self, stats, ref_starts, use_c: bool = True) -> list[dict]:
        o = self.scorer.options
        return combine_many(self.measures, self.names, stats, ref_starts, o.multi_reference,
                            o.alpha, o.rounding, use_c=use_c)

    def score_pairs(self, pairs: Iterable[tuple[Any, Any]], chunk: int = CHUNK,
                    use_c: bool = True) -> list[dict]:
        """``{name: Score}`` per pair, in order (what ``Scorer.score`` gives)."""
        if not isinstance(pairs, list):
            pairs = list(pairs)
        out: list[dict] = []
        for start in range(0, len(pairs), chunk):
            stop = min(start + chunk, len(pairs))
            res = self.chunk_stats(pairs, start, stop)
            if res is None:
                score = self.scorer.score
                out.extend(score(c, r) for c, r in pairs[start:stop])
            else:
                out.extend(self._scores(*res, use_c=use_c))
        return out

    def iter_stats(self, pairs: Iterable[tuple[Any, Any]], chunk: int = CHUNK):
        """Per chunk of pairs: ``(scores, stats)`` as :meth:`stats_and_scores`
        gives them, the per-pair path standing in for chunks it cannot take."""
        if not isinstance(pairs, list):
            pairs = list(pairs)
        for start in range(0, len(pairs), chunk):
            stop = min(start + chunk, len(pairs))
            res = self.chunk_stats(pairs, start, stop)
            if res is None:
                yield per_pair_scores(self.scorer, pairs[start:stop])
            else:
                yield self.stats_and_scores(*res)

    def stats_and_scores(self, stats, ref_starts):
        """``(scores, stats)`` of a chunk's statistics: per pair ``{name: Score}``
        and ``{name: [PairStats against each reference]}`` (counts as ints,
        ROUGE-W's weighted values as floats), as ``Scorer.pair_stats`` and
        :func:`~rouge2.stats.combine.combine` give them."""
        return self._scores(stats, ref_starts), self.stats_dicts(stats, ref_starts)

    def stats_dicts(self, stats, ref_starts) -> list[dict]:
        """Per pair ``{name: [PairStats against each reference]}`` of a chunk's
        statistics (counts as ints, ROUGE-W's weighted values as floats)."""
        m = len(self.names)
        vals = stats.tolist()
        make = tuple.__new__
        kinds = [(k * 4, name, not isinstance(meas, WLCS))
                 for k, (name, meas) in enumerate(zip(self.names, self.measures))]
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
