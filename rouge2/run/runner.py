"""Execute a validated :class:`~rouge2.config.yaml_config.RunConfig`.

1. Build the scorer first (bad options, unknown stopword lists, missing
   tagger models fail here, before any text is read).
2. Stream the input items; score each (task, system) pair against all its
   references with the configured ``multi_reference`` mode; keep only the
   scores (never the texts); stream per-summary rows into staged files.
3. Aggregate: the Java CSV has one row per (task, system, measure) - the
   pair's score as the multi-reference mode combined it (``average`` is the
   Java tool's: P and R averaged over references, F from the averages).
   System scores are the mean over the system's tasks of R, P and F (as
   ROUGE-1.5.5 averages its per-evaluation scores).  Bootstrap intervals
   resample tasks; comparisons are paired over the tasks both systems have.
4. Publish every output file at once (:class:`OutputTransaction`); a failure
   anywhere before leaves no output behind.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from rouge2.errors import UserError
from rouge2.config.yaml_config import RunConfig
from rouge2.io.inputs import InputItem, read_inputs
from rouge2.io import writers as out
from rouge2.io.atomic import OutputTransaction
from rouge2.scoring.signature import _component_versions, signature
from rouge2.stats.bootstrap import bootstrap_interval, mean as _mean
from rouge2.stats.significance import paired_test

Triple = tuple[float, float, float]  # recall, precision, fmeasure


@dataclass
class RunResult:
    """What a run computed (also what the JSON summary holds)."""

    pairs: dict[tuple[str, str], dict[str, Triple]] = field(default_factory=dict)
    num_references: dict[tuple[str, str], int] = field(default_factory=dict)
    systems: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    written: list[Path] = field(default_factory=list)
    console: str = ""
    #: texts with no words after preprocessing (empty, punctuation only, all
    #: stopwords): they score 0, and the console and summary say how many
    empty_candidates: int = 0
    empty_references: int = 0


# ---------------------------------------------------------------------------
# scoring


def _default_scorer_factory(measures: Sequence[str], **options):
    from rouge2.scoring.scorer import Scorer

    return Scorer(list(measures), **options)


def _triple(score: Any) -> Triple:
    try:
        return float(score.recall), float(score.precision), float(score.fmeasure)
    except AttributeError:
        p, r, f = score  # Score is (precision, recall, fmeasure)
        return float(r), float(p), float(f)


def _lookup(scores: Mapping[str, Any], measure: str) -> Any:
    if measure in scores:
        return scores[measure]
    for key, value in scores.items():
        if str(key).lower() == measure:
            return value
    raise KeyError(measure)



# ---------------------------------------------------------------------------
# the run


class _PairScorer:
    """Scores one input item: the measures' triples, and the topic coverage
    when the report is on.  Built once per process (``--jobs``: per worker)."""

    def __init__(self, factory: Callable[..., Any], measures: Sequence[str],
                 options: Mapping[str, Any], report_topics: str | None, scorer: Any = None):
        self.measures = list(measures)
        self.scorer = scorer if scorer is not None else factory(list(measures), **options)
        self.coverage = None
        if report_topics is not None:
            from rouge2.io.topic_report import TopicCoverage

            self.coverage = TopicCoverage(self.scorer, report_topics)

    def __call__(self, item: InputItem):
        scores = self.scorer.score(item.candidate, list(item.references))
        triples = {m: _triple(_lookup(scores, m)) for m in self.measures}
        cov = None
        if self.coverage is not None:
            cov = self.coverage.pair(item.task, item.system, item.candidate, item.references,
                                     item.reference_names)
        return triples, cov


# Worker-process side of --jobs (top-level, so the spawn start method can pickle them).
_WORKER: _PairScorer | None = None


def _init_worker(factory, measures, options, report_topics) -> None:
    global _WORKER
    _WORKER = _PairScorer(factory, measures, options, report_topics)


def _score_chunk(chunk: list[InputItem]) -> list:
    assert _WORKER is not None
    return [_WORKER(item) for item in chunk]


#: a chunk is closed at the first task boundary after this many items ...
CHUNK_ITEMS = 16
#: ... and in any case at this many (one task with very many systems)
CHUNK_MAX_ITEMS = 128


def _chunks(items: Iterable[InputItem]) -> Iterable[list[InputItem]]:
    """Consecutive items, whole tasks together where possible (a worker then
    analyses a task's references once)."""
    chunk: list[InputItem] = []
    for item in items:
        if chunk and (len(chunk) >= CHUNK_MAX_ITEMS
                      or (len(chunk) >= CHUNK_ITEMS and item.task != chunk[-1].task)):
            yield chunk
            chunk = []
        chunk.append(item)
    if chunk:
        yield chunk


def _scored(items: Iterable[InputItem], pair_scorer: _PairScorer, jobs: int,
            worker_args: tuple) -> Iterable[tuple[InputItem, Any]]:
    """``(item, (triples, coverage))`` in input order, computed here (``jobs``
    1) or by ``jobs`` spawned processes.  At most ``2 * jobs`` chunks are in
    flight, so memory does not grow with the input."""
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
        for chunk in _chunks(items):
            window.append((chunk, pool.submit(_score_chunk, chunk)))
            while len(window) >= 2 * jobs:
                done, fut = window.popleft()
                yield from zip(done, fut.result())
        while window:
            done, fut = window.popleft()
            yield from zip(done, fut.result())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run(cfg: RunConfig, *, scorer_factory: Callable[..., Any] | None = None,
        items: Iterable[InputItem] | None = None, stdout=None, progress: bool | None = None,
        jobs: int = 1) -> RunResult:
    """Run ``cfg``; return what was computed.  Outputs are written only if
    everything succeeded.  ``jobs`` > 1 scores in that many processes
    (results identical to ``jobs`` 1)."""
    if not isinstance(jobs, int) or jobs < 1:
        raise UserError(f"--jobs: expected a whole number of processes >= 1, got {jobs!r}")
    stdout = sys.stdout if stdout is None else stdout
    factory = scorer_factory or _default_scorer_factory
    options = cfg.score_options()
    try:
        scorer = factory(cfg.measures, **options)
    except ImportError as exc:
        raise UserError(f"{cfg.source}: measures: this installation cannot compute "
                        f"{', '.join(cfg.measures)} ({exc})") from None
    o = cfg.outputs
    report_topics = None
    if o.topic_report is not None:
        from rouge2.io.topic_report import report_topics as _report_topics

        report_topics = _report_topics(cfg)
    try:
        pair_scorer = _PairScorer(factory, cfg.measures, options, report_topics, scorer=scorer)
    except ImportError as exc:
        raise UserError(f"{cfg.source}: outputs.topic_report: this installation cannot tag "
                        f"parts of speech ({exc})") from None
    versions = _component_versions(cfg, scorer)
    result = RunResult()
    measures = list(cfg.measures)
    input_hash = hashlib.sha256()

    with OutputTransaction() as tx:
        jsonl = tx.open(o.per_summary_jsonl) if o.per_summary_jsonl else None
        long_csv = out.PerSummaryCsv(tx.open(o.per_summary_csv, newline="")) if o.per_summary_csv else None
        report = None
        if pair_scorer.coverage is not None:
            from rouge2.io.topic_report import TopicReportWriter

            report = TopicReportWriter(tx.open(o.topic_report_csv, newline=""),
                                       pair_scorer.coverage.selection,
                                       synonyms=pair_scorer.coverage.relation is not None,
                                       title=cfg.name)
        seen: set[tuple[str, str]] = set()

        def checked(stream: Iterable[InputItem]) -> Iterable[InputItem]:
            for item in stream:
                key = (item.task, item.system)
                if key in seen:
                    raise UserError(f"{cfg.inputs.path}: task {item.task!r} has system {item.system!r} "
                                    f"twice; each (task, system) pair must appear once")
                seen.add(key)
                analyzer = getattr(pair_scorer.scorer, "analyzer", None)
                if analyzer is not None:
                    if analyzer.analyze(item.candidate, cache=False).is_empty:
                        result.empty_candidates += 1
                    result.empty_references += sum(
                        1 for r in item.references if analyzer.analyze(r).is_empty)
                for part in (item.task, item.system, item.candidate, *item.references):
                    input_hash.update(part.encode("utf-8"))
                    input_hash.update(b"\x00")
                input_hash.update(b"\x01")
                yield item

        stream = read_inputs(cfg.inputs) if items is None else items
        scored = _scored(checked(stream), pair_scorer, jobs,
                         (factory, measures, options, report_topics))
        try:
            for item, (triples, cov) in _progress(scored, progress):
                key = (item.task, item.system)
                result.pairs[key] = triples
                result.num_references[key] = len(item.references)
                if jsonl is not None:
                    out.write_jsonl_record(jsonl, out.per_summary_record(
                        item.task, item.system, item.reference_names, triples))
                if long_csv is not None:
                    long_csv.write(item.task, item.system, len(item.references), triples)
                if report is not None:
                    report.add(item.system, cov)
        except BaseException:
            if report is not None:
                report.close()
            raise
        finally:
            scored.close()  # stops worker processes early on a failure
        if not result.pairs:
            raise UserError(f"{cfg.inputs.path}: no summaries to score")

        _aggregate(cfg, result)
        result.comparisons = _compare(cfg, result)
        result.summary = _summary(cfg, result, versions, input_hash.hexdigest())

        if o.csv:
            with tx.open(o.csv) as f:
                out.write_java_csv(f, _java_groups(cfg, result))
        if o.summary_json:
            with tx.open(o.summary_json) as f:
                out.write_json(f, result.summary)
        if report is not None:
            with tx.open(o.topic_report) as f:
                report.finish(f)
        result.console = _console(cfg, result)
        result.written = tx.commit()
    if o.console:
        stdout.write(result.console)
        if result.written:
            stdout.write("wrote " + ", ".join(str(p) for p in result.written) + "\n")
    return result


def _progress(stream: Iterable[InputItem], enabled: bool | None):
    """A tqdm progress bar on an interactive stderr; the plain stream otherwise."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return stream
    try:
        from tqdm import tqdm
    except ImportError:
        return stream
    return tqdm(stream, desc="scoring", unit=" summaries", file=sys.stderr, leave=False)


def _systems(result: RunResult) -> list[str]:
    return sorted({s for _, s in result.pairs})


def _tasks_of(result: RunResult, system: str) -> list[str]:
    return sorted(t for t, s in result.pairs if s == system)


def _aggregate(cfg: RunConfig, result: RunResult) -> None:
    bs = cfg.bootstrap
    for system in _systems(result):
        tasks = _tasks_of(result, system)
        per_measure: dict[str, dict[str, Any]] = {}
        for m in cfg.measures:
            rs = [result.pairs[(t, system)][m][0] for t in tasks]
            ps = [result.pairs[(t, system)][m][1] for t in tasks]
            fs = [result.pairs[(t, system)][m][2] for t in tasks]
            entry: dict[str, Any] = {"recall": _mean(rs), "precision": _mean(ps),
                                     "fmeasure": _mean(fs), "tasks": len(tasks)}
            if bs is not None:
                ci = {}
                for name, values in (("recall", rs), ("precision", ps), ("fmeasure", fs)):
                    rng = random.Random(f"{bs.seed}|{system}|{m}|{name}")
                    ci[name] = list(bootstrap_interval(values, bs.resamples, bs.confidence, rng))
                entry["ci"] = ci
            per_measure[m] = entry
        result.systems[system] = per_measure


def _compare(cfg: RunConfig, result: RunResult) -> list[dict[str, Any]]:
    if cfg.compare is None:
        return []
    known = _systems(result)
    comparisons = []
    for a, b in cfg.compare.pairs:
        for name in (a, b):
            if name not in result.systems:
                raise UserError(f"{cfg.source}: compare.pairs: no system named {name!r} in the inputs; "
                                f"systems: {', '.join(known)}")
        common = sorted(set(_tasks_of(result, a)) & set(_tasks_of(result, b)))
        if not common:
            raise UserError(f"{cfg.source}: compare.pairs: {a!r} and {b!r} share no task")
        for m in cfg.measures:
            fa = [result.pairs[(t, a)][m][2] for t in common]
            fb = [result.pairs[(t, b)][m][2] for t in common]
            rng = random.Random(f"{cfg.compare.seed}|{a}|{b}|{m}")
            p = paired_test(fa, fb, cfg.compare.test, cfg.compare.resamples, rng)
            comparisons.append({
                "system_a": a, "system_b": b, "measure": m, "score": "fmeasure",
                "mean_a": _mean(fa), "mean_b": _mean(fb), "difference": _mean(fa) - _mean(fb),
                "p_value": p, "test": cfg.compare.test, "tasks": len(common),
                "resamples": cfg.compare.resamples, "seed": cfg.compare.seed,
            })
    return comparisons


def _labels(cfg: RunConfig) -> dict[str, str]:
    p = cfg.preprocess
    return out.java_labels(cfg.measures, stopwords=p.stopwords is not False,
                           stem=p.stem is not False, synonyms=p.synonyms is not False)


def _java_groups(cfg: RunConfig, result: RunResult) -> Iterable[list[out.JavaRow]]:
    labels = _labels(cfg)
    tasks = sorted({t for t, _ in result.pairs})
    by_task: dict[str, list[str]] = {}
    for t, s in result.pairs:
        by_task.setdefault(t, []).append(s)
    for task in tasks:
        systems = sorted(by_task[task])
        for m in cfg.measures:
            group = []
            for system in systems:
                r, p, f = result.pairs[(task, system)][m]
                group.append(out.JavaRow(labels[m], task, system, r, p, f,
                                         result.num_references[(task, system)]))
            yield group


def _summary(cfg: RunConfig, result: RunResult, versions: Mapping[str, Any],
             inputs_sha256: str) -> dict[str, Any]:
    tasks = {t for t, _ in result.pairs}
    return {
        "rouge2_run_summary": 1,
        "name": cfg.name,
        "config": str(cfg.source) if cfg.source else None,
        "signature": signature(cfg, versions, inputs_sha256),
        "counts": {"tasks": len(tasks), "systems": len(result.systems),
                   "summaries": len(result.pairs)},
        "systems": result.systems,
        "comparisons": result.comparisons,
        "notes": {
            "empty_texts": {"candidates": result.empty_candidates,
                            "references": result.empty_references,
                            "meaning": "no words after preprocessing; such a pair scores 0"},
            "system_scores": "mean over the system's tasks of recall, precision and F",
            "multi_reference": cfg.multi_reference,
            "bootstrap": None if cfg.bootstrap is None else
            "percentile intervals over tasks resampled with replacement",
        },
    }


def _console(cfg: RunConfig, result: RunResult) -> str:
    labels = _labels(cfg)
    rows = []
    for system, per in result.systems.items():
        for m in cfg.measures:
            e = per[m]
            rows.append({"system": system, "measure": labels[m], "recall": e["recall"],
                         "precision": e["precision"], "fmeasure": e["fmeasure"],
                         "tasks": e["tasks"], "ci": (e.get("ci") or {}).get("fmeasure")})
    c = result.summary["counts"]
    def n(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 else 's'}"

    title = (f"rouge2 run{': ' + cfg.name if cfg.name else ''} - {n(c['systems'], 'system')}, "
             f"{n(c['tasks'], 'task')}, {n(c['summaries'], 'summary').replace('summarys', 'summaries')}; "
             f"multi_reference={cfg.multi_reference}; "
             f"signature {result.summary['signature']['sha256'][:12]}")
    text = out.format_console_table(rows, title=title,
                                    confidence=cfg.bootstrap.confidence if cfg.bootstrap else None)
    if result.empty_candidates or result.empty_references:
        text += (f"note: {n(result.empty_candidates, 'candidate')} and "
                 f"{n(result.empty_references, 'reference')} have no words after preprocessing "
                 "(empty, punctuation only or all stopwords); they score 0 (docs/measures.md)\n")
    return text + out.format_comparisons(result.comparisons)
