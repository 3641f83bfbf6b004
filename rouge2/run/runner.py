"""Execute a validated :class:`~rouge2.config.yaml_config.RunConfig`.

1. Build the scorer from the config's :class:`~rouge2.scoring.options.Options`
   (bad options, unknown stopword lists, missing tagger models fail here,
   before any text is read).
2. Stream the input items; score each (task, system) pair against all its
   references (:mod:`rouge2.run.parallel`, ``--jobs`` processes): per measure
   the statistics against each reference, combined by the
   ``multi_reference`` mode into a score (:mod:`rouge2.stats.combine`).
   Per-summary rows (scores and statistics) stream into staged files.
   The systems named in ``compare`` and the topic report's ``contrast`` are
   checked as soon as the inputs are read (:func:`check_systems`).
3. Aggregate with :mod:`rouge2.stats.aggregate`: system means over tasks,
   bootstrap intervals, paired tests.  Each phase (scoring, bootstrap,
   tests) has its own progress bar (:mod:`rouge2.run.progress`).
4. Publish every output file at once (:class:`~rouge2.io.atomic.OutputTransaction`);
   a failure anywhere before leaves no output behind.  An existing file is
   replaced only if rouge2 wrote it (:mod:`rouge2.io.ownership`; checked
   before scoring too), unless ``overwrite``.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rouge2.config.yaml_config import RunConfig
from rouge2.errors import UserError
from rouge2.io import writers as out
from rouge2.io.atomic import OutputTransaction
from rouge2.io.inputs import InputItem, count_items, list_pairs, read_inputs
from rouge2.io.ownership import OutputGuard
from rouge2.registry import suggest
from rouge2.run.parallel import PairScorer, Workers, scored
from rouge2.run.progress import NO_PROGRESS, Progress
from rouge2.scoring.batch import check_threads
from rouge2.scoring.signature import data_versions, signature, signature_line
from rouge2.stats.aggregate import by_system, compare, ranking, ranking_agreement, summarize
from rouge2.stats.prf import Score
from rouge2.stats.significance import DEFAULT_TEST, DEFAULT_TEST_RESAMPLES


@dataclass
class VariantResult:
    """The scores of one option set: per pair, per system, and its comparisons."""

    name: str | None
    pairs: dict[tuple[str, str], dict[str, Score]] = field(default_factory=dict)
    systems: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    comparisons: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RunResult:
    """What a run computed (also what the JSON summary holds).

    ``variants`` holds one :class:`VariantResult` per option set (one, named
    ``None``, for a run without variants); ``pairs``, ``systems`` and
    ``comparisons`` are the first one's."""

    variants: dict[str | None, VariantResult] = field(default_factory=dict)
    num_references: dict[tuple[str, str], int] = field(default_factory=dict)
    variant_comparisons: list[dict[str, Any]] = field(default_factory=list)
    rankings: dict[str, Any] = field(default_factory=dict)
    correlations: list[dict[str, Any]] = field(default_factory=list)
    correlation_comparisons: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    written: list[Path] = field(default_factory=list)
    console: str = ""
    #: texts with no words after preprocessing (empty, punctuation only, all
    #: stopwords): they score 0, and the console and summary say how many
    empty_candidates: int = 0
    empty_references: int = 0

    @property
    def main(self) -> VariantResult:
        return next(iter(self.variants.values()))

    @property
    def pairs(self) -> dict[tuple[str, str], dict[str, Score]]:
        return self.main.pairs

    @property
    def systems(self) -> dict[str, dict[str, dict[str, Any]]]:
        return self.main.systems

    @property
    def comparisons(self) -> list[dict[str, Any]]:
        return self.main.comparisons


def run(cfg: RunConfig, *, items: Iterable[InputItem] | None = None, stdout=None,
        progress: bool | Progress | None = None, jobs: int = 1, overwrite: bool = False,
        threads: int = 1) -> RunResult:
    """Run ``cfg``; return what was computed.  Outputs are written only if
    everything succeeded.  ``jobs`` > 1 scores in that many processes
    (results identical to ``jobs`` 1); ``threads`` > 1 scores that many
    chunks at a time in threads of this process (the same results; with
    ``jobs`` > 1 each process scores alone).  An existing output file that rouge2
    did not write stops the run before scoring, unless ``overwrite`` or
    ``outputs.overwrite`` is true.  ``progress``: progress bars on stderr
    (True, False, None = only on a terminal, or a :class:`Progress`)."""
    if not isinstance(jobs, int) or jobs < 1:
        raise UserError(f"--jobs: expected a whole number of processes >= 1, got {jobs!r}")
    stdout = sys.stdout if stdout is None else stdout
    o = cfg.outputs
    declared = [o.csv, o.per_summary_jsonl, o.per_summary_csv, o.summary_json, o.topic_report,
                o.topic_report_csv, o.systems_csv, o.variants_csv, o.correlations_json,
                o.correlations_csv]
    if o.topic_report is not None:
        from rouge2.io.topic_report import report_paths

        declared += [p for kind, p in report_paths(o.topic_report).items() if kind not in ("html", "folder")]
    guard = OutputGuard(declared, overwrite=overwrite or o.overwrite)
    judgments = None
    if cfg.meta_evaluation is not None:  # read before scoring: a bad file fails fast
        from rouge2.io.judgments import read_judgments

        judgments = read_judgments(cfg.meta_evaluation.judgments, cfg.meta_evaluation.dimensions)
    report_topics = None
    if o.topic_report is not None:
        from rouge2.io.topic_report import report_topics as _report_topics

        report_topics = _report_topics(cfg)
    option_sets = cfg.option_sets
    pair_scorer = PairScorer(cfg.measures, option_sets, report_topics)
    scorer = pair_scorer.scorer
    versions = data_versions(cfg.options, cfg.measures, scorer.tagger)
    if cfg.variants:
        versions["variants"] = {name: data_versions(opts, cfg.measures, pair_scorer.scorers[name].tagger)
                                for name, opts in cfg.variants}
    result = RunResult(variants={name: VariantResult(name) for name, _ in option_sets})
    input_hash = hashlib.sha256()

    with Workers(jobs, (cfg.measures, option_sets, report_topics)) as workers, OutputTransaction() as tx:
        # one run at a time into a folder: a second one stops here, before scoring
        tx.hold(Path(p).parent for p in declared if p is not None)
        jsonl = tx.open(o.per_summary_jsonl) if o.per_summary_jsonl else None
        long_csv = out.PerSummaryCsv(tx.open(o.per_summary_csv, newline=""),
                                     variants=bool(cfg.variants)) if o.per_summary_csv else None
        report = None
        if pair_scorer.coverage is not None:
            from rouge2.io.topic_report import TopicReportWriter

            cov = pair_scorer.coverage
            bs = cfg.bootstrap
            contrast = o.topic_report_contrast
            if contrast is None and cfg.compare is not None:
                contrast = cfg.compare.pairs
            report = TopicReportWriter(tx.open(o.topic_report_csv, newline=""), cov.selection,
                                       synonyms=cov.relation is not None, title=cfg.name,
                                       resamples=bs.resamples if bs else 0,
                                       confidence=bs.confidence if bs else 0.95,
                                       seed=bs.seed if bs else 0, contrast=contrast,
                                       top=o.topic_report_top, task_order=o.topic_report_task_order,
                                       auxiliaries=cov.auxiliaries)
        seen: set[tuple[str, str]] = set()

        def checked(stream: Iterable[InputItem]) -> Iterable[InputItem]:
            for item in stream:
                key = (item.task, item.system)
                if key in seen:
                    raise UserError(f"{cfg.inputs.path}: task {item.task!r} has system {item.system!r} "
                                    f"twice; each (task, system) pair must appear once")
                seen.add(key)
                for part in (item.task, item.system, item.candidate, *item.references):
                    text = part if isinstance(part, str) else "\n".join(part)
                    input_hash.update(text.encode("utf-8"))
                    input_hash.update(b"\x00")
                input_hash.update(b"\x01")
                yield item

        stream = read_inputs(cfg.inputs) if items is None else items
        results = scored(checked(stream), pair_scorer, workers, threads=check_threads(threads))
        bars = progress if isinstance(progress, Progress) else Progress(progress)
        scoring = bars.phase("scoring", _count(cfg, items) if bars.enabled else None, "summaries")
        try:
            for item, (per_variant, cov, (empty_candidate, empty_references)) in scoring.wrap(results):
                key = (item.task, item.system)
                result.empty_candidates += empty_candidate
                result.empty_references += empty_references
                result.num_references[key] = len(item.references)
                for name, (scores, stats) in per_variant.items():
                    result.variants[name].pairs[key] = scores
                    extra = {"variant": name} if cfg.variants else {}
                    if jsonl is not None:
                        out.write_jsonl_record(jsonl, out.per_summary_record(
                            item.task, item.system, item.reference_names, scores, stats, **extra))
                    if long_csv is not None:
                        long_csv.write(item.task, item.system, len(item.references), scores, variant=name)
                if report is not None:
                    report.add(item.system, cov)
        except BaseException:
            if report is not None:
                report.close()
            raise
        finally:
            scoring.close()
            results.close()  # stops worker processes early on a failure
        if not result.pairs:
            raise UserError(f"{cfg.inputs.path}: no summaries to score")
        check_systems(cfg, {s for _, s in result.pairs})

        for v in result.variants.values():
            _aggregate(cfg, v, bars, workers)
            v.comparisons = _compare(cfg, v, bars, workers)
        if cfg.variants:
            result.rankings = _rankings(cfg, result)
            result.variant_comparisons = _compare_variants(cfg, result, workers)
        if cfg.meta_evaluation is not None:
            _meta_evaluate(cfg, result, judgments)
        result.summary = _summary(cfg, result, versions, input_hash.hexdigest())

        if o.csv:
            with tx.open(o.csv) as f:
                out.write_java_csv(f, _java_groups(cfg, result))
        if o.summary_json:
            with tx.open(o.summary_json) as f:
                out.write_json(f, result.summary)
        if o.systems_csv and not cfg.variants:  # with variants, variants.csv holds every variant's
            with tx.open(o.systems_csv, newline="") as f:
                out.write_systems_csv(f, result.systems, cfg.measures)
        if o.variants_csv and cfg.variants:
            with tx.open(o.variants_csv, newline="") as f:
                out.write_variants_csv(f, {n: v.systems for n, v in result.variants.items()}, cfg.measures)
        if cfg.meta_evaluation is not None:
            if o.correlations_json:
                with tx.open(o.correlations_json) as f:
                    out.write_json(f, {"correlations": result.correlations,
                                       "comparisons": result.correlation_comparisons})
            if o.correlations_csv:
                with tx.open(o.correlations_csv, newline="") as f:
                    f.write(out.correlations_csv(result.correlations))
        if report is not None:
            with tx.open(o.topic_report) as f:
                report.finish(f, open_file=tx.open, html_path=o.topic_report)
        result.console = _console(cfg, result)
        result.written = guard.commit(tx)
    if o.console:
        stdout.write(result.console)
        if result.written:
            stdout.write("wrote " + ", ".join(str(p) for p in result.written) + "\n")
    return result


def _count(cfg: RunConfig, items: Iterable[InputItem] | None) -> int | None:
    """The number of items to score, when it is cheap to know (for the bar's total)."""
    if items is not None:
        return len(items) if hasattr(items, "__len__") else None
    return count_items(cfg.inputs)


def check_systems(cfg: RunConfig, systems: Iterable[str]) -> None:
    """Every system named in ``compare.pairs`` and ``outputs.topic_report.contrast``
    is one of ``systems``; else a one-line :class:`UserError` at the pair's
    line, with a did-you-mean and the known systems."""
    known = sorted(set(systems), key=out.natural_key)
    lookup = set(known)
    named = [("compare.pairs", cfg.compare.pairs if cfg.compare else ()),
             ("outputs.topic_report.contrast", cfg.outputs.topic_report_contrast or ())]
    for key, pairs in named:
        for i, pair in enumerate(pairs):
            for name in pair:
                if name in lookup:
                    continue
                where = cfg.locations.get(f"{key}[{i}]") or str(cfg.source or "<config>")
                shown = ", ".join(known[:30]) + (f", ... ({len(known)} in all)" if len(known) > 30 else "")
                raise UserError(f"{where}: {key}: no system named {name!r} in the inputs"
                                f"{suggest(name, known)}; systems: {shown}")


def check(cfg: RunConfig) -> dict[str, int]:
    """What ``rouge2 run --check`` does after validating the config: list the
    inputs' (task, system) pairs without scoring (:func:`~rouge2.io.inputs.list_pairs`;
    for java-project and rouge155-xml no summary is read), refuse a pair
    given twice, and check the system names of ``compare`` and the topic
    report's ``contrast``.  Returns the counts of tasks, systems and summaries."""
    seen: set[tuple[str, str]] = set()
    for task, system in list_pairs(cfg.inputs):
        if (task, system) in seen:
            raise UserError(f"{cfg.inputs.path}: task {task!r} has system {system!r} twice; "
                            f"each (task, system) pair must appear once")
        seen.add((task, system))
    if not seen:
        raise UserError(f"{cfg.inputs.path}: no summaries to score")
    systems = {s for _, s in seen}
    check_systems(cfg, systems)
    return {"tasks": len({t for t, _ in seen}), "systems": len(systems), "summaries": len(seen)}


def _label(variant: str | None, rest: str) -> str:
    """The bootstrap / test stream label: variants add their name, so a run
    without variants keeps the streams (and numbers) it always had."""
    return rest if variant is None else f"{variant}|{rest}"


def _aggregate(cfg: RunConfig, result: VariantResult, progress: Progress = NO_PROGRESS,
               workers: Workers | None = None) -> None:
    """System means and bootstrap intervals, one (system, measure) unit at a
    time, in the workers when the bootstrap is big enough."""
    bs = cfg.bootstrap
    systems = by_system(result.pairs)
    units, keys = [], []
    for system, tasks in systems.items():
        for m in cfg.measures:
            units.append((summarize, ([result.pairs[(t, system)][m] for t in tasks],),
                          {"resamples": bs.resamples if bs else None,
                           "confidence": bs.confidence if bs else 0.95,
                           "seed": bs.seed if bs else 0, "label": _label(result.name, f"{system}|{m}")}))
            keys.append((system, m))
    draws = sum(3 * len(args[0]) for _, args, _ in units) * (bs.resamples if bs else 0)
    with progress.phase("bootstrap", len(units), "jobs", show=bs is not None) as phase:
        for (system, m), entry in zip(keys, _map(workers, units, draws)):
            result.systems.setdefault(system, {})[m] = entry
            phase.tick()


def _map(workers: Workers | None, units: list, draws: float):
    if workers is None:
        return (fn(*args, **kwargs) for fn, args, kwargs in units)
    return workers.map(units, draws)


def _compare(cfg: RunConfig, result: VariantResult, progress: Progress = NO_PROGRESS,
             workers: Workers | None = None) -> list[dict[str, Any]]:
    if cfg.compare is None:
        return []
    tasks = by_system(result.pairs)
    phase = progress.phase("tests", len(cfg.compare.pairs) * len(cfg.measures), "tests")
    units, keys = [], []
    for a, b in cfg.compare.pairs:
        for name in (a, b):
            if name not in tasks:
                raise UserError(f"{cfg.source}: compare.pairs: no system named {name!r} in the inputs; "
                                f"systems: {', '.join(tasks)}")
        common = sorted(set(tasks[a]) & set(tasks[b]))
        if not common:
            raise UserError(f"{cfg.source}: compare.pairs: {a!r} and {b!r} share no task")
        for m in cfg.measures:
            units.append((compare, ([result.pairs[(t, a)][m] for t in common],
                                    [result.pairs[(t, b)][m] for t in common]),
                          {"test": cfg.compare.test, "resamples": cfg.compare.resamples,
                           "seed": cfg.compare.seed, "label": _label(result.name, f"{a}|{b}|{m}")}))
            keys.append((a, b, m))
    draws = sum(len(args[0]) for _, args, _ in units) * cfg.compare.resamples
    comparisons = []
    for (a, b, m), c in zip(keys, _map(workers, units, draws)):
        comparisons.append({"system_a": a, "system_b": b, "measure": m, **c})
        phase.tick()
    phase.close()
    return comparisons


def _rankings(cfg: RunConfig, result: RunResult) -> dict[str, Any]:
    """Each variant's ranking of the systems per measure, and how alike two variants rank them."""
    names = list(result.variants)
    ranks = {n: {m: ranking(result.variants[n].systems, m) for m in cfg.measures} for n in names}
    agreement = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for m in cfg.measures:
                agreement.append({"variant_a": a, "variant_b": b, "measure": m, "score": "fmeasure",
                                  **ranking_agreement(result.variants[a].systems,
                                                      result.variants[b].systems, m)})
    return {"rankings": ranks, "agreement": agreement}


def _compare_variants(cfg: RunConfig, result: RunResult, workers: Workers | None = None) -> list[dict[str, Any]]:
    """For each system, the paired test of its per-task F under two variants."""
    c = cfg.compare
    test = c.test if c else DEFAULT_TEST
    resamples = c.resamples if c else DEFAULT_TEST_RESAMPLES
    seed = c.seed if c else 0
    units, keys = [], []
    for a, b in cfg.compare_variants:
        va, vb = result.variants[a], result.variants[b]
        for system, tasks in by_system(va.pairs).items():
            common = [t for t in tasks if (t, system) in vb.pairs]
            for m in cfg.measures:
                units.append((compare, ([va.pairs[(t, system)][m] for t in common],
                                        [vb.pairs[(t, system)][m] for t in common]),
                              {"test": test, "resamples": resamples, "seed": seed,
                               "label": f"{a}|{b}|{system}|{m}"}))
                keys.append((a, b, system, m))
    draws = sum(len(args[0]) for _, args, _ in units) * resamples
    return [{"variant_a": a, "variant_b": b, "system": system, "measure": m, **row}
            for (a, b, system, m), row in zip(keys, _map(workers, units, draws))]


def _meta_evaluate(cfg: RunConfig, result: RunResult, judgments) -> None:
    from rouge2.stats.meta import Scores, comparisons, correlations

    scores = Scores()
    for name, v in result.variants.items():
        for (task, system), per in v.pairs.items():
            scores.add(name, task, system, per)
    spec = cfg.meta_evaluation
    try:
        result.correlations = correlations(scores, judgments, spec)
        result.correlation_comparisons = comparisons(scores, judgments, spec)
    except UserError as exc:
        raise UserError(f"{cfg.source}: meta_evaluation: {exc}") from None


def _labels(cfg: RunConfig, options=None, variant: str | None = None) -> dict[str, str]:
    o = options if options is not None else cfg.options
    labels = out.java_labels(cfg.measures, stopwords=o.stopwords != "none", stem=o.stem != "none",
                             synonyms=bool(o.synonyms))
    if variant is not None:
        labels = {m: f"{label} [{variant}]" for m, label in labels.items()}
    return labels


def _java_groups(cfg: RunConfig, result: RunResult) -> Iterable[list[out.JavaRow]]:
    by_task: dict[str, list[str]] = {}
    for t, s in result.pairs:
        by_task.setdefault(t, []).append(s)
    for name, options in cfg.option_sets:
        v = result.variants[name]
        labels = _labels(cfg, options, name)
        for task in sorted(by_task):
            systems = sorted(by_task[task])
            for m in cfg.measures:
                group = []
                for system in systems:
                    s = v.pairs[(task, system)][m]
                    group.append(out.JavaRow(labels[m], task, system, s.recall, s.precision, s.fmeasure,
                                             result.num_references[(task, system)]))
                yield group


def _summary(cfg: RunConfig, result: RunResult, versions: dict[str, Any],
             inputs_sha256: str) -> dict[str, Any]:
    tasks = {t for t, _ in result.pairs}
    nrefs = sorted(set(result.num_references.values()))
    return {
        "rouge2_run_summary": 1,
        "name": cfg.name,
        "config": str(cfg.source) if cfg.source else None,
        "signature": signature(cfg.settings(), versions, inputs_sha256),
        "signature_line": signature_line(cfg.options, versions,
                                         nrefs[0] if len(nrefs) == 1 else "varies"),
        "counts": {"tasks": len(tasks), "systems": len(result.systems),
                   "summaries": len(result.pairs)},
        **({"systems": result.systems, "comparisons": result.comparisons} if not cfg.variants else {
            "variants": {n: {"systems": v.systems, "comparisons": v.comparisons}
                         for n, v in result.variants.items()},
            "rankings": result.rankings,
            "variant_comparisons": result.variant_comparisons,
        }),
        **({"correlations": result.correlations,
            "correlation_comparisons": result.correlation_comparisons}
           if cfg.meta_evaluation is not None else {}),
        "notes": {
            "empty_texts": {"candidates": result.empty_candidates,
                            "references": result.empty_references,
                            "meaning": "no words after preprocessing; such a pair scores 0"},
            "system_scores": "mean over the system's tasks of recall, precision and F",
            "multi_reference": cfg.options.multi_reference,
            "bootstrap": None if cfg.bootstrap is None else
            "percentile intervals over tasks resampled with replacement",
        },
    }


def _console(cfg: RunConfig, result: RunResult) -> str:
    c = result.summary["counts"]

    def n(k: int, word: str) -> str:
        return f"{k} {word}{'' if k == 1 else 's'}"

    title = (f"rouge2 run{': ' + cfg.name if cfg.name else ''} - {n(c['systems'], 'system')}, "
             f"{n(c['tasks'], 'task')}, {n(c['summaries'], 'summary').replace('summarys', 'summaries')}; "
             f"multi_reference={cfg.options.multi_reference}; "
             f"signature {result.summary['signature']['sha256'][:12]}")
    text = ""
    for name, options in cfg.option_sets:
        v = result.variants[name]
        if name is not None:
            text += f"{title}\n\nvariant {name}:\n" if not text else f"\nvariant {name}:\n"
        text += out.format_system_table(v.systems, cfg.measures, rank_by=cfg.outputs.rank_by,
                                        rank_score=cfg.outputs.rank_by_score,
                                        title=title if name is None else None,
                                        confidence=cfg.bootstrap.confidence if cfg.bootstrap else None)
        text += out.format_comparisons(v.comparisons)
    text += "\n"
    if result.empty_candidates or result.empty_references:
        text += (f"note: {n(result.empty_candidates, 'candidate')} and "
                 f"{n(result.empty_references, 'reference')} have no words after preprocessing "
                 "(empty, punctuation only or all stopwords); they score 0 (rouge2 docs measures)\n")
    if cfg.variants:
        text += out.format_variant_rankings(result.rankings)
        text += out.format_variant_comparisons(result.variant_comparisons)
    if cfg.meta_evaluation is not None:
        text += "\ncorrelation with human judgments\n"
        text += out.format_correlations(result.correlations, result.correlation_comparisons)
    text += result.summary["signature_line"] + "\n"
    return text
