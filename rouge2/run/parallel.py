"""Scoring a run's input items, and its statistics, here or in worker processes (``--jobs N``).

Each item is scored by a :class:`PairScorer` built once per process; results
come back in input order, so the outputs of ``--jobs N`` are identical to one
process.  Items travel in chunks of whole tasks where possible (a worker then
analyses a task's references once), and at most ``2 * jobs`` chunks are in
flight, so memory does not grow with the input.

The bootstrap intervals and paired tests are split into (system, measure)
work units (:meth:`Workers.map`); each unit's random stream is seeded by its
own label, so a unit's numbers do not depend on where it runs, and results
are merged in unit order.

One pool of :class:`Workers` serves a whole run.  It has at most as many
processes as usable CPU cores (more cannot speed up this CPU-bound work;
they only add start-up and switching), starts on first use, and on Linux
forks its workers, which then start in milliseconds with every module
already loaded (elsewhere, or when the calling program runs other threads,
they are spawned: a fresh interpreter each).

Workers die with the run: each asks the kernel for SIGKILL when its parent
dies (:func:`die_with_parent`), so ``kill -9`` of a run leaves no orphan
computing on, and a forked worker closes its copy of the output folders'
locks at once (:mod:`rouge2.io.atomic`), so no worker ever holds one.
A run that stops (a signal, an error) kills its workers rather than waiting
for them (:meth:`Workers.close`), and workers are forked with the stopping
signals blocked until they have their own dispositions, so a signal sent to
the whole process group ends every one of them.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from math import ceil
from typing import Any

from rouge2.io.atomic import blocked_stop_signals, deferred_signals, unblock_stop_signals
from rouge2.io.inputs import InputItem
from rouge2.io.topic_report import TopicCoverage
from rouge2.limits import usable_cores
from rouge2.measures.aspect_coverage import AspectCoverage
from rouge2.measures.base import PairStats
from rouge2.scoring.batch import CHUNK, PYTHON_LOCK, batch_plan, ordered_map
from rouge2.scoring.options import Options
from rouge2.scoring.scorer import Scorer
from rouge2.stats.prf import Score


def analysis_key(o: Options) -> tuple:
    """The options that decide how a text is analysed: option sets that agree on
    them share one analyzer, so each text is analysed (and tagged) once."""
    return (o.tokenizer, o.sentences, o.stem, o.stopwords, o.word_limit, o.byte_limit)


class PairScorer:
    """Scores one input item under every option set (variant): per measure the
    statistics against each reference and the combined score; the topic
    coverage (under the first set) when the report is on."""

    def __init__(self, measures: tuple[str, ...], option_sets, report_topics: str | tuple | None,
                 frequencies: dict | None = None, explain: bool = False):
        """``explain``: note which synonym pairs each variant with synonyms
        matched, and the words of its texts (docs/synonym-experiments.md)."""
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
        #: per variant with synonyms, when explaining: it gets ``(matches, words)`` per item
        self.explained = frozenset(name for name, sc in self.scorers.items()
                                   if explain and sc.relation is not None)
        #: per variant, its batch plan (None: the per-pair path, which a variant
        #: that explains its synonyms takes: it notes each matching's pairs)
        self.plans = {name: None if name in self.explained else batch_plan(sc)
                      for name, sc in self.scorers.items()}
        #: whether :meth:`score_items` gains anything over one item at a time
        self.batched = any(p is not None for p in self.plans.values())
        self.coverage = None
        if report_topics is not None:
            # "spec" or ("spec", variant): the report shows that variant (default: the first)
            spec, variant = report_topics if isinstance(report_topics, tuple) else (report_topics, None)
            self.coverage = TopicCoverage(self.scorers.get(variant, self.scorer), spec)
        #: per variant, its per-aspect analysis (runs with an aspect lexicon)
        self.aspects = {name: AspectCoverage(sc) for name, sc in self.scorers.items()
                        if sc.options.aspects != "none"}
        if frequencies is not None:
            self.apply(frequencies)

    # -- topic_weights: idf over the run's references ------------------------
    @property
    def weighted(self) -> bool:
        """Whether a measure or the aspect analysis weighs units by idf."""
        return any(sc.weighted for sc in self.scorers.values()) or any(
            a.weighted for a in self.aspects.values())

    def frequencies(self, references) -> dict:
        """Per variant, the document frequencies its weights need, over
        ``references`` (an iterable of reference texts, read once)."""
        refs = list(references) if not isinstance(references, list) else references
        out: dict = {}
        for name, sc in self.scorers.items():
            entry: dict = {"measures": sc.frequencies(refs) if sc.weighted else {}}
            if name in self.aspects and self.aspects[name].weighted:
                entry["aspects"] = self.aspects[name].frequencies_of(refs)
            out[name] = entry
        return out

    def apply(self, frequencies: dict) -> None:
        """Give every variant the document frequencies of :meth:`frequencies`."""
        for name, entry in frequencies.items():
            self.scorers[name].fit(frequencies=entry["measures"])
            if "aspects" in entry:
                self.aspects[name].fit(entry["aspects"])

    def _score(self, name: Any, sc: Scorer, item: InputItem,
               explained: dict) -> tuple[dict[str, Score], dict[str, list[PairStats]]]:
        """One variant's scores and statistics of ``item``; a variant that
        explains its synonyms puts ``(matches, words)`` in ``explained``."""
        if name in self.explained:
            per_measure, matches, words = sc.explained_stats(item.candidate, list(item.references))
            explained[name] = (matches, words)
        else:
            per_measure = sc.pair_stats(item.candidate, list(item.references))
        return sc.combined(per_measure)

    def __call__(self, item: InputItem) -> tuple[dict[Any, tuple[dict[str, Score], dict]], Any, tuple[bool, int],
                                                 dict, dict]:
        explained: dict = {}
        per_variant = {name: self._score(name, sc, item, explained) for name, sc in self.scorers.items()}
        return self._finish(item, per_variant, None, explained)

    def score_items(self, items: Sequence[InputItem]) -> list:
        """``[self(item) for item in items]``, the same results, with each
        variant whose settings allow it (:func:`~rouge2.scoring.batch.batch_plan`)
        scored through the batch path, all items in one go."""
        items = list(items)
        if not self.batched or not items:
            with PYTHON_LOCK:
                return [self(item) for item in items]
        per_variant: list[dict] = [{} for _ in items]
        explained: list[dict] = [{} for _ in items]
        empties = None
        pairs = [(item.candidate, item.references) for item in items]
        for k, (name, sc) in enumerate(self.scorers.items()):
            plan = self.plans[name]
            res = plan.chunk(pairs, empties=(k == 0)) if plan is not None else None
            if plan is None or res is None:
                with PYTHON_LOCK:
                    for slot, item, ex in zip(per_variant, items, explained):
                        slot[name] = self._score(name, sc, item, ex)
                continue
            scores, pair_stats = plan.scores_and_stats(res)
            for slot, score, st in zip(per_variant, scores, pair_stats):
                slot[name] = (score, st)
            if k == 0:
                empties = res.empties
        flags = empties if empties is not None else [None] * len(items)
        with PYTHON_LOCK:
            return [self._finish(item, pv, e, ex) for item, pv, e, ex in zip(items, per_variant, flags, explained)]

    def _finish(self, item: InputItem, per_variant: dict, empty, explained: dict) -> tuple:
        """``self(item)``'s result from the item's scores: the topic coverage,
        ``empty`` (texts with no words after preprocessing, which the run
        reports) unless the batch path gave it, the aspects, and what the
        variants that explain their synonyms noted."""
        cov = None
        if self.coverage is not None:
            cov = self.coverage.pair(item.task, item.system, _text(item.candidate),
                                     [_text(r) for r in item.references], item.reference_names)
        if empty is None:
            analyzer = self.scorer.analyzer
            empty = (analyzer.analyze(item.candidate, cache=False).is_empty,
                     sum(1 for r in item.references if analyzer.analyze(r).is_empty))
        aspects = {name: a.pair(item.task, item.system, item.candidate, list(item.references))
                   for name, a in self.aspects.items()}
        return per_variant, cov, empty, aspects, explained


def _text(t) -> str:
    return t if isinstance(t, str) else "\n".join(t)


# Worker-process side of --jobs (top-level, so the spawn start method can pickle them).
_WORKER: PairScorer | None = None
#: PR_SET_PDEATHSIG (linux/prctl.h)
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Make this worker process end when ``parent`` does, however it ends
    (``kill -9`` included): on Linux the kernel sends it SIGKILL
    (``PR_SET_PDEATHSIG``); elsewhere a thread checks once a second that the
    parent is still there.  A parent already gone ends the worker at once."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # died before the call above
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(1)

        threading.Thread(target=watch, name="rouge2-parent-watch", daemon=True).start()


def _start_worker(parent: int, initializer: Callable, args: tuple) -> None:
    die_with_parent(parent)
    quiet_signals()
    # forked with the stop signals blocked (Workers.pool): one sent to the group
    # since is delivered now, to the worker's own dispositions, not the run's
    unblock_stop_signals()
    initializer(*args)


#: signals a worker leaves to its parent (Ctrl-C reaches every process of the terminal's group)
_IGNORED_IN_WORKERS = ("SIGINT",)
#: signals that end a worker at once, without a traceback (a forked worker
#: inherits the run's handlers, which would print one)
_DEFAULT_IN_WORKERS = ("SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM",
                       "SIGPROF", "SIGXCPU")


def quiet_signals() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops and cleans up;
    the workers end with it); the other stopping signals end the worker
    silently (the parent prints the one line)."""
    for names, action in ((_IGNORED_IN_WORKERS, signal.SIG_IGN), (_DEFAULT_IN_WORKERS, signal.SIG_DFL)):
        for name in names:
            sig = getattr(signal, name, None)
            if sig is not None:
                try:
                    signal.signal(sig, action)
                except (OSError, ValueError):  # pragma: no cover
                    pass


def _init_worker(measures, option_sets, report_topics, frequencies=None, explain=False) -> None:
    global _WORKER
    _WORKER = PairScorer(measures, option_sets, report_topics, frequencies, explain)


def _score_chunk(chunk: list[InputItem]) -> list:
    assert _WORKER is not None
    return _WORKER.score_items(chunk)


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


def _runs(items: Iterable[InputItem], size: int) -> Iterator[list[InputItem]]:
    """Consecutive items, ``size`` at a time."""
    chunk: list[InputItem] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _call_units(units: list[tuple[Callable, tuple, dict]]) -> list:
    return [fn(*args, **kwargs) for fn, args, kwargs in units]


#: below this much work (random draws), statistics run in this process:
#: shipping them to workers would cost more than it saves
MIN_PARALLEL_DRAWS = 2_000_000
#: below this many (system, measure, evaluation) scorings, ``rouge2 rouge155``
#: runs in this process: worker start-up and file re-reading would cost more
MIN_PARALLEL_SCORINGS = 400
#: statistics chunks per worker process (balance against per-chunk overhead)
CHUNKS_PER_PROCESS = 4


class Workers:
    """Up to ``jobs`` worker processes for one run, started on first use and
    shared by scoring (:func:`scored`) and statistics (:meth:`map`); at most
    :func:`usable_cores` of them.  Use as a context manager."""

    def __init__(self, jobs: int, worker_args: tuple, initializer: Callable | None = None):
        self.processes = max(1, min(int(jobs), usable_cores()))
        self.worker_args = worker_args
        #: builds a worker's state from ``worker_args`` (default: its PairScorer)
        self.initializer = initializer if initializer is not None else _init_worker
        self._pool: ProcessPoolExecutor | None = None

    @property
    def parallel(self) -> bool:
        return self.processes > 1

    def pool(self):
        if self._pool is None:
            # fork only a single-threaded process (a thread holding a lock at the
            # fork would leave that lock held forever in the child)
            fork = sys.platform.startswith("linux") and threading.active_count() == 1
            method = "fork" if fork else "spawn"
            for stream in (sys.stdout, sys.stderr):  # a forked child must not re-emit buffered text
                try:
                    stream.flush()
                except Exception:  # pragma: no cover - closed or odd streams
                    pass
            # A signal during the fork would run the run's handler inside the
            # at-fork hooks, where its exception is swallowed: deferred instead.
            # And blocked in the system: a worker starts with them blocked (and
            # the deferring handler inherited) until it has its own, so a stop
            # signal to the whole group is acted on by every worker, never
            # swallowed (a worker alive after its sibling died holding the task
            # queue's lock would keep the pool, and so the run, from ending).
            with deferred_signals(), _blocked_while(method == "fork"):
                pool = ProcessPoolExecutor(max_workers=self.processes,
                                           mp_context=multiprocessing.get_context(method),
                                           initializer=_start_worker,
                                           initargs=(os.getpid(), self.initializer, self.worker_args))
                self._pool = pool
                if method == "fork":
                    # A forked worker shares the parent's memory until it writes to it;
                    # its garbage collector would visit (write to) every inherited
                    # object and so copy the whole heap.  Frozen objects are skipped.
                    # The pool forks all its workers at the first task, here.
                    gc.freeze()
                    try:
                        first = pool.submit(int)
                    finally:
                        gc.unfreeze()
            if method == "fork":
                first.result()
        return self._pool

    def close(self, abandon: bool = False) -> None:
        """Shut the pool down; ``abandon``: the run is stopping (a signal, an
        error) and wants no more results: the workers are killed at once
        (:func:`_kill_workers`) instead of finishing the chunks they hold."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if abandon:
            _kill_workers(pool)
        try:
            pool.shutdown(wait=True, cancel_futures=True)
        except BaseException:  # stopped while waiting for them: stop them now
            _kill_workers(pool)
            pool.shutdown(wait=True)
            raise

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close(abandon=exc_type is not None)

    def chunk_size(self, units: int) -> int:
        """Units per chunk: about :data:`CHUNKS_PER_PROCESS` chunks per process."""
        return max(1, ceil(units / (self.processes * CHUNKS_PER_PROCESS)))

    def map(self, units: Sequence[tuple[Callable, tuple, dict]], draws: float) -> Iterator[Any]:
        """``fn(*args, **kwargs)`` for each unit, in unit order; in the workers
        when there are several and the units' work (``draws``, random draws in
        all) is worth it, in chunks of consecutive units (about
        :data:`CHUNKS_PER_PROCESS` per process)."""
        units = list(units)
        if not self.parallel or len(units) < 2 or draws < MIN_PARALLEL_DRAWS:
            for fn, args, kwargs in units:
                yield fn(*args, **kwargs)
            return
        size = self.chunk_size(len(units))
        pool = self.pool()
        futures = [pool.submit(_call_units, units[i:i + size]) for i in range(0, len(units), size)]
        try:
            for fut in futures:
                yield from fut.result()
        finally:
            for fut in futures:
                fut.cancel()


def _blocked_while(condition: bool):
    return blocked_stop_signals() if condition else contextlib.nullcontext()


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's worker processes and let its manager thread see them
    gone, so that ``pool.shutdown(wait=True)`` returns.  Waiting for them
    instead could be forever: a worker killed by a signal while it held a
    queue's lock leaves a sibling blocked on that lock, and one killed while
    writing a result leaves half a message the manager thread would wait to
    read in full while this process holds the pipe's write end open.  So
    that end is closed here (this process never writes to it).  Uses the
    pool's private fields; without them, the usual shutdown."""
    for proc in dict(getattr(pool, "_processes", None) or {}).values():
        with contextlib.suppress(Exception):  # already gone, or reaped meanwhile
            proc.kill()
    results = getattr(pool, "_result_queue", None)
    writer = getattr(results, "_writer", None)
    if writer is not None:
        with contextlib.suppress(OSError):
            writer.close()


def scored(items: Iterable[InputItem], pair_scorer: PairScorer, workers: Workers | int,
           worker_args: tuple | None = None, threads: int = 1) -> Generator[tuple[InputItem, Any], None, None]:
    """``(item, pair_scorer(item))`` in input order, computed here (one
    process, ``threads`` batch chunks at a time) or by the ``workers`` (a
    :class:`Workers`, or a number of processes with ``worker_args``, for a
    pool of its own)."""
    own = not isinstance(workers, Workers)
    pool_of = workers if isinstance(workers, Workers) else Workers(workers, worker_args or ())
    try:
        if not pool_of.parallel:
            if not pair_scorer.batched:
                for item in items:
                    yield item, pair_scorer(item)
                return
            # through the batch path, a chunk at a time (threads: several at once)
            for chunk, got in ordered_map(lambda c: (c, pair_scorer.score_items(c)), _runs(items, CHUNK),
                                          threads):
                yield from zip(chunk, got)
            return
        pool = pool_of.pool()
        window: deque = deque()
        try:
            for chunk in chunks(items):
                window.append((chunk, pool.submit(_score_chunk, chunk)))
                while len(window) >= 2 * pool_of.processes:
                    done, fut = window.popleft()
                    yield from zip(done, fut.result())
            while window:
                done, fut = window.popleft()
                yield from zip(done, fut.result())
        finally:
            for _, fut in window:
                fut.cancel()
    finally:
        if own:
            pool_of.close()
