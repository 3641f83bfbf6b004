"""The scorer: options and measures prepared once, then called per pair.

``rouge2.score`` scores one pair, ``rouge2.score_corpus`` many; both build a
:class:`Scorer`.  Build one yourself when scoring in a loop: it keeps the
analysed references, the loaded stemmer, synonym data and tagger.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from rouge2.analysis.analyzer import Analyzer
from rouge2.analysis.languages import topic_route_error
from rouge2.analysis.stem import STEMMERS
from rouge2.analysis.stopwords import load_stopwords
from rouge2.errors import UserError
from rouge2.measures import canonical_measure, parse_measure
from rouge2.measures.base import Measure, PairStats
from rouge2.measures.weights import DocumentFrequencies
from rouge2.pos.tagger import load_tagger
from rouge2.scoring.batch import (
    CHUNK,
    PYTHON_LOCK,
    StatsChunk,
    batch_plan,
    check_threads,
    ordered_map,
    per_pair_chunk,
)
from rouge2.scoring.checks import check_references, check_text
from rouge2.scoring.options import OPTION_NAMES, Options
from rouge2.stats.combine import combine
from rouge2.stats.prf import Score, finish
from rouge2.synonyms.combine import load_synonyms
from rouge2.synonyms.matching import relation_for

DEFAULT_MEASURES = ("rouge-1", "rouge-2", "rouge-l")


def canonical_measures(measures: Sequence[Any] | str) -> list[str]:
    """Canonical names of ``measures``, each once (a one-line error for a repeat)."""
    if isinstance(measures, (str, Measure)):
        measures = [measures]
    if not measures:
        raise UserError("no measures given: name at least one, e.g. 'rouge-1'")
    seen: dict[str, Any] = {}
    for m in measures:
        name = canonical_measure(m)
        if name in seen:
            first = seen[name]
            same = "" if str(first) == str(m) else f" (as {first!r} and {m!r})"
            raise UserError(f"measure {name!r} is asked for twice{same}")
        seen[name] = m
    return list(seen)


class Scorer:
    """Settings and measures prepared once; call :meth:`score` per pair.

    ``Scorer(measures, stem=True)`` or ``Scorer(measures, options=Options(...))``;
    results are keyed by canonical measure names (``rougeL`` -> ``rouge-l-flat``).
    """

    def __init__(self, measures: Sequence[Any] = DEFAULT_MEASURES, options: Options | None = None,
                 analyzer: Analyzer | None = None, **kwargs: Any):
        """``analyzer``: share another scorer's analyzer (and its cache of
        analysed texts); it must have been built from the same analysis options."""
        self.options = o = Options.make(options, **kwargs)
        if isinstance(measures, (str, Measure)):
            measures = [measures]
        names = canonical_measures(measures)
        if isinstance(o.stem, str):
            stemmer = STEMMERS.get(o.stem)
            stem_fn, stem_min = (None, 4) if stemmer is None else (stemmer.stem, stemmer.min_length)
        else:
            stem_fn, stem_min = o.stem, 1
        self.analyzer = analyzer if analyzer is not None else Analyzer(
            tokenizer=o.tokenizer,
            stemmer=stem_fn,
            stopwords=load_stopwords(o.stopwords),
            word_limit=o.word_limit,
            byte_limit=o.byte_limit,
            stem_min_length=stem_min,
            sentences=o.sentences,
        )
        self.mode = o.multi_reference
        self.alpha = o.alpha
        self.rounding = o.rounding
        # Each family's factory takes the options it declares (capability "options").
        values = {key: getattr(o, key) for key in OPTION_NAMES}
        self.measures: dict[str, Measure] = {name: parse_measure(m, **values)
                                             for name, m in zip(names, measures)}
        self.synonyms = None
        if o.synonyms:
            self.synonyms = load_synonyms(list(o.synonyms), lemmas=o.synonym_lemmas)
            if self.synonyms is not None:
                key = self.analyzer.stem_token if self.analyzer.stems else None
                relation = relation_for(self.synonyms, None, key=key)
                for m in self.measures.values():
                    m.use_synonyms(relation)
        self.tagger = None
        if any(m.needs_tagger for m in self.measures.values()):
            if o.language not in ("none", "en") and o.tagger == "spacy":
                raise topic_route_error(o.language)  # never the English tagger on another language
            self.tagger = load_tagger(o.tagger)
            for m in self.measures.values():
                if m.needs_tagger:
                    m.prepare(self.analyzer, self.tagger)
        for m in self.measures.values():  # measures that read the analysis only (rouge-aspect)
            if not m.needs_tagger and hasattr(m, "prepare"):
                m.prepare(self.analyzer)
        #: measures weighted over the run's references (topic_weights: idf)
        self.weighted: dict[str, Any] = {n: m for n, m in self.measures.items() if getattr(m, "weighted", False)}
        if self.weighted and self.synonyms is not None:
            raise UserError("topic_weights: idf does not combine with synonyms yet: give one or the "
                            "other (docs/topics.md, \"Generic words\")")
        #: whether :meth:`fit` gave the weighted measures their document frequencies
        self.fitted = False

    def frequencies(self, references: Iterable[Any]) -> dict[str, DocumentFrequencies]:
        """Per weighted measure, the document frequencies of its units over
        ``references`` (texts; each distinct text counted once)."""
        out = {name: DocumentFrequencies() for name in self.weighted}
        references = list(references)
        if self.tagger is not None:  # topic measures: tag the references in batches first
            self.prefetch(references)
        for text in references:
            text = check_text(text, "reference")
            analysed = self.analyzer.analyze(text)
            for name, m in self.weighted.items():
                out[name].add(m.document_units(analysed), text if isinstance(text, str) else "\n".join(text))
        return out

    def fit(self, references: Iterable[Any] | None = None,
            frequencies: dict[str, DocumentFrequencies] | None = None) -> None:
        """Weights over the run's references (``topic_weights: idf``): from
        ``references``, or document ``frequencies`` computed before."""
        if not self.weighted:
            return
        if frequencies is None:
            frequencies = self.frequencies(references or ())
        for name, m in self.weighted.items():
            m.fit(frequencies[name])
        self.fitted = True

    def _fit_pair(self, references: Sequence[Any]) -> None:
        """Without :meth:`fit`, weights come from the pair's own references."""
        if self.weighted and not self.fitted:
            freq = self.frequencies(references)
            for name, m in self.weighted.items():
                m.fit(freq[name])

    def prefetch(self, texts: Iterable[Any]) -> None:
        """Tag many texts in batches up front (each distinct text once)."""
        if self.tagger is not None:
            distinct = list(dict.fromkeys(t for t in texts if isinstance(t, str)))
            for i in range(0, len(distinct), 512):
                self.tagger.tag_many(distinct[i : i + 512])

    def analyze(self, text):
        return self.analyzer.analyze(text)

    def pair_stats(self, candidate, references) -> dict[str, list[tuple[PairStats, float]]]:
        """Per measure: (statistics, -f B key) against each reference, in order."""
        candidate = check_text(candidate, "candidate")
        references = check_references(references)
        self._fit_pair(references)
        cand = self.analyzer.analyze(candidate, cache=False)
        refs = [self.analyze(r) for r in references]
        return {
            name: [m.stats_and_key(cand, r) for r in refs] for name, m in self.measures.items()
        }

    def score(self, candidate, references) -> dict[str, Score]:
        """Per canonical measure name: the :class:`Score` of ``candidate`` against ``references``."""
        check_text(candidate, "candidate")
        if isinstance(references, str):
            references = (references,)
        else:
            references = check_references(references)
        self._fit_pair(references)
        analyze = self.analyzer.analyze
        cand = analyze(candidate, cache=False)
        alpha = self.alpha
        rounding = self.rounding
        out = {}
        if len(references) == 1:
            # Every multi-reference mode agrees on a single reference.
            ref = analyze(references[0])
            for name, m in self.measures.items():
                s = m.stats(cand, ref)
                out[name] = finish(m.precision(s), m.recall(s), alpha, rounding)
            return out
        refs = [analyze(r) for r in references]
        mode = self.mode
        for name, m in self.measures.items():
            if mode == "best":
                pairs = [m.stats_and_key(cand, r) for r in refs]
                out[name] = combine(m, [p[0] for p in pairs], mode, alpha,
                                    [p[1] for p in pairs], rounding)
            else:
                out[name] = combine(m, [m.stats(cand, r) for r in refs], mode, alpha,
                                    rounding=rounding)
        return out


#: Scorers built by :func:`score`, by (measures, options), most recent last: a
#: loop of ``score()`` calls with the same settings reuses the loaded stemmer,
#: synonym data, tagger and analysed references instead of rebuilding them.
_SCORERS: dict[tuple, Scorer] = {}
_SCORERS_KEPT = 8


def cached_scorer(measures: Sequence[Any], **options: Any) -> Scorer:
    """A :class:`Scorer` for these settings, shared with earlier calls with the same ones."""
    opts = Options.make(**options)
    names = tuple(canonical_measures(measures if not isinstance(measures, (str, Measure))
                                     else [measures]))
    if any(isinstance(m, Measure) for m in ([measures] if isinstance(measures, Measure) else measures)):
        return Scorer(measures, options=opts)  # custom measure objects carry their own state
    key = (names, opts)
    try:
        scorer = _SCORERS.pop(key)
    except TypeError:  # an unhashable custom option: no sharing
        return Scorer(names, options=opts)
    except KeyError:
        scorer = Scorer(names, options=opts)
        if len(_SCORERS) >= _SCORERS_KEPT:
            del _SCORERS[next(iter(_SCORERS))]
    _SCORERS[key] = scorer
    return scorer


def score(candidate: str, references, measures: Sequence[str] = DEFAULT_MEASURES, **options):
    """Score one candidate against one reference or a list of references.

    Returns a dict from canonical measure name to :class:`~rouge2.stats.prf.Score`.
    Calls with the same measures and options share one :class:`Scorer`.
    """
    return cached_scorer(measures, **options).score(candidate, references)


def _check_pairs(pairs: list, offset: int = 0) -> list:
    """``pairs`` if each is a (candidate, references) pair; a clear TypeError otherwise."""
    for i, pair in enumerate(pairs, offset):
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise TypeError(f"pairs[{i}] must be a (candidate, references) pair, got "
                            f"{type(pair).__name__}; or call score_corpus(predictions, references)")
    return pairs


def _pair_chunks(predictions, size: int):
    """Pairs from an iterable of pairs, checked, ``size`` at a time (a
    generator of pairs is never held whole)."""
    try:
        it = iter(predictions)
    except TypeError:
        raise TypeError("score_corpus expects (candidate, references) pairs, or "
                        "predictions and references as two lists") from None
    done = 0
    while True:
        chunk = list(islice(it, size))
        if not chunk:
            return
        yield _check_pairs(chunk, done)
        done += len(chunk)


def _pairs(predictions, references) -> list[tuple[Any, Any]]:
    if references is None:
        return [pair for chunk in _pair_chunks(predictions, 1 << 16) for pair in chunk]
    predictions, references = list(predictions), list(references)
    if references and all(isinstance(r, str) and _is_measure(r) for r in references) and \
            predictions and all(isinstance(p, (tuple, list)) and len(p) == 2 for p in predictions):
        raise TypeError(f"score_corpus(pairs, {references!r}): the measures go by keyword, "
                        f"score_corpus(pairs, measures={references!r})")
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} predictions but {len(references)} references: "
                         f"give one reference (or list of references) per prediction")
    return list(zip(predictions, references))


def _is_measure(name: str) -> bool:
    try:
        canonical_measure(name)
    except UserError:
        return False
    return True


def score_corpus(predictions, references=None, *, measures: Sequence[str] = DEFAULT_MEASURES,
                 threads: int = 1, **options):
    """Score many pairs; one dict per pair, in order.

    ``score_corpus(pairs)`` takes ``(candidate, references)`` pairs;
    ``score_corpus(predictions, references)`` takes two aligned lists (as
    Hugging Face ``evaluate`` does), each reference a text or a list of texts.
    ``threads``: score that many chunks of pairs at a time (the same results).
    """
    threads = check_threads(threads)
    scorer = Scorer(measures, **options)
    plan = batch_plan(scorer, measures)
    if plan is not None and references is None and not isinstance(predictions, (list, tuple)) \
            and not scorer.weighted:
        # A stream of pairs: scored chunk by chunk, never held whole.
        out: list = []
        for got in ordered_map(plan.score_pairs, _pair_chunks(predictions, CHUNK), threads):
            out.extend(got)
        return out
    pairs = _pairs(predictions, references)
    if scorer.weighted:  # topic_weights: idf over all the references of the call
        scorer.fit(_references(pairs))
    if plan is not None:
        return plan.score_pairs(pairs, threads=threads)
    if scorer.tagger is not None:
        scorer.prefetch([c for c, _ in pairs] + _references(pairs))
    return [scorer.score(c, r) for c, r in pairs]


def _references(pairs: Sequence[tuple[Any, Any]]) -> list[Any]:
    """Every reference text of ``pairs``, in order."""
    return [x for _, r in pairs for x in ([r] if isinstance(r, str) else r)]


def corpus_stats(pairs: Iterable, measures: Sequence[str] = DEFAULT_MEASURES, *, threads: int = 1,
                 **options):
    """Per pair, per measure: the list of PairStats against each reference."""
    threads = check_threads(threads)
    scorer = Scorer(measures, **options)
    if scorer.weighted:
        pairs = list(pairs)
        scorer.fit(_references(pairs))
    plan = batch_plan(scorer, measures)
    if plan is not None:
        def chunk_stats(res, part):
            if res is not None:
                return plan.stats_dicts(res)
            with PYTHON_LOCK:
                return [{name: [s for s, _ in v] for name, v in scorer.pair_stats(c, r).items()}
                        for c, r in part]

        return [x for got in plan.map_chunks(chunk_stats, list(pairs), threads=threads) for x in got]
    out = []
    for c, r in pairs:
        stats = scorer.pair_stats(c, r)
        out.append({name: [s for s, _ in v] for name, v in stats.items()})
    return out


def iter_corpus_stats(pairs: Iterable[tuple[Any, Any]], measures: Sequence[Any] = ("rouge-1",
                      "rouge-2", "rouge-l"), *, chunk: int = CHUNK, threads: int = 1,
                      **options: Any) -> Iterator[StatsChunk]:
    """The statistics of ``(candidate, references)`` pairs as compact
    :class:`StatsChunk` arrays, ``chunk`` pairs at a time: memory stays flat
    however many pairs there are (only the vocabulary is kept).

    Options are those of :func:`rouge2.score_corpus`; the batch kernels
    count when the settings allow it, the per-pair path otherwise, with the
    same numbers either way.  ``threads``: chunks counted at a time.
    """
    threads = check_threads(threads)
    scorer = Scorer(measures, **options)
    if scorer.weighted:  # topic_weights: idf needs every reference first (memory grows)
        pairs = list(pairs)
        scorer.fit(_references(pairs))
    plan = batch_plan(scorer, measures)
    names = tuple(scorer.measures)

    if plan is None:
        for start, buf in _runs(pairs, chunk):
            yield per_pair_chunk(scorer, buf, start)
        return
    batch = plan

    def one(item):
        start, buf = item
        res = batch.chunk(buf)
        if res is None:
            with PYTHON_LOCK:
                return per_pair_chunk(scorer, buf, start)
        return StatsChunk(start, names, batch.full_stats(res), res.ref_starts)

    yield from ordered_map(one, _runs(pairs, chunk), threads)


def _runs(pairs: Iterable, size: int) -> Iterator[tuple[int, list]]:
    """``(index of the first, pairs)`` of consecutive runs of ``size`` pairs."""
    it = iter(pairs)
    start = 0
    while True:
        buf = list(islice(it, size))
        if not buf:
            return
        yield start, buf
        start += len(buf)
