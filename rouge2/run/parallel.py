"""Scoring a run's input items, here or in worker processes (``--jobs N``).

Each item is scored by a :class:`PairScorer` built once per process; results
come back in input order, so the outputs of ``--jobs N`` are identical to one
process.  Items travel in chunks of whole tasks where possible (a worker then
analyses a task's references once), and at most ``2 * jobs`` chunks are in
flight, so memory does not grow with the input.
"""

from __future__ import annotations

from typing import Any, Iterable

from rouge2.io.inputs import InputItem
from rouge2.measures.base import PairStats
from rouge2.scoring.options import Options
from rouge2.scoring.scorer import Scorer
from rouge2.stats.combine import combine
from rouge2.stats.prf import Score


def analysis_key(o: Options) -> tuple:
    """The options that decide how a text is analysed: option sets that agree on
    them share one analyzer, so each text is analysed (and tagged) once."""
    return (o.tokenizer, o.sentences, o.stem, o.stopwords, o.word_limit, o.byte_limit)


class PairScorer:
    """Scores one input item under every option set (variant): per measure the
    statistics against each reference and the combined score; the topic
    coverage (under the first set) when the report is on."""

    def __init__(self, measures: tuple[str, ...], option_sets, report_topics: str | None):
        if isinstance(option_sets, Options):
            option_sets = ((None, option_sets),)
        analyzers: dict[tuple, Any] = {}
        self.scorers: dict[Any, Scorer] = {}
        for name, options in option_sets:
            key = analysis_key(options)
            scorer = Scorer(measures, options=options, analyzer=analyzers.get(key))
            analyzers.setdefault(key, scorer.analyzer)
            self.scorers[name] = scorer
        self.scorer = next(iter(self.scorers.values()))
        self.coverage = None
        if report_topics is not None:
            from rouge2.io.topic_report import TopicCoverage

            self.coverage = TopicCoverage(self.scorer, report_topics)

    @staticmethod
    def _score(sc: Scorer, item: InputItem) -> tuple[dict[str, Score], dict[str, list[PairStats]]]:
        o = sc.options
        per_measure = sc.pair_stats(item.candidate, list(item.references))
        scores: dict[str, Score] = {}
        stats: dict[str, list[PairStats]] = {}
        for name, pairs in per_measure.items():
            per_ref = [p[0] for p in pairs]
            stats[name] = per_ref
            scores[name] = combine(sc.measures[name], per_ref, o.multi_reference, o.alpha,
                                   [p[1] for p in pairs], o.rounding)
        return scores, stats

    def __call__(self, item: InputItem) -> tuple[dict[Any, tuple[dict[str, Score], dict]], Any]:
        per_variant = {name: self._score(sc, item) for name, sc in self.scorers.items()}
        cov = None
        if self.coverage is not None:
            cov = self.coverage.pair(item.task, item.system, _text(item.candidate),
                                     [_text(r) for r in item.references], item.reference_names)
        return per_variant, cov


def _text(t) -> str:
    return t if isinstance(t, str) else "\n".join(t)


# Worker-process side of --jobs (top-level, so the spawn start method can pickle them).
_WORKER: PairScorer | None = None


def _init_worker(measures, option_sets, report_topics) -> None:
    global _WORKER
    _WORKER = PairScorer(measures, option_sets, report_topics)


def _score_chunk(chunk: list[InputItem]) -> list:
    assert _WORKER is not None
    return [_WORKER(item) for item in chunk]


#: a chunk is closed at the first task boundary after this many items ...
CHUNK_ITEMS = 16
#: ... and in any case at this many (one task with very many systems)
CHUNK_MAX_ITEMS = 128


def chunks(items: Iterable[InputItem]) -> Iterable[list[InputItem]]:
    """Consecutive items, whole tasks together where possible."""
    chunk: list[InputItem] = []
    for item in items:
        if chunk and (len(chunk) >= CHUNK_MAX_ITEMS
                      or (len(chunk) >= CHUNK_ITEMS and item.task != chunk[-1].task)):
            yield chunk
            chunk = []
        chunk.append(item)
    if chunk:
        yield chunk


def scored(items: Iterable[InputItem], pair_scorer: PairScorer, jobs: int,
           worker_args: tuple) -> Iterable[tuple[InputItem, Any]]:
    """``(item, pair_scorer(item))`` in input order, computed here (``jobs`` 1)
    or by ``jobs`` spawned processes."""
    if jobs <= 1:
        for item in items:
            yield item, pair_scorer(item)
        return
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker,
                               initargs=worker_args)
    try:
        window: deque = deque()
        for chunk in chunks(items):
            window.append((chunk, pool.submit(_score_chunk, chunk)))
            while len(window) >= 2 * jobs:
                done, fut = window.popleft()
                yield from zip(done, fut.result())
        while window:
            done, fut = window.popleft()
            yield from zip(done, fut.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
