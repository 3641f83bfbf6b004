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
import os
import sys
from collections.abc import Iterable, Iterator, Sized
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rouge2 import files
from rouge2.config.yaml_config import RunConfig
from rouge2.errors import UserError
from rouge2.io import writers as out
from rouge2.io.inputs import InputItem, count_items, list_pairs, read_inputs
from rouge2.io.judgments import read_judgments
from rouge2.io.outputs import OutputContext, OutputFiles, declared_paths, format_written
from rouge2.io.outputs import start as start_outputs
from rouge2.io.topic_report import report_topics
from rouge2.limits import MAX_VARIANT_GRID
from rouge2.registry import suggest
from rouge2.run import aspects as run_aspects
from rouge2.run import compare as run_compare
from rouge2.run import effects as run_effects
from rouge2.run.parallel import PairScorer, Workers, scored
from rouge2.run.progress import NO_PROGRESS, Progress
from rouge2.run.synonyms import SynonymReport, explaining
from rouge2.scoring.batch import check_threads
from rouge2.scoring.signature import data_versions, signature, signature_line
from rouge2.stats.aggregate import by_system, compare, ranking, ranking_agreement, summarize
from rouge2.stats.meta import Scores, comparisons, correlations
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
    correlation_notes: list[str] = field(default_factory=list)  # e.g. a metric that correlates negatively
    summary: dict[str, Any] = field(default_factory=dict)
    written: list[Path] = field(default_factory=list)
    console: str = ""
    #: texts with no words after preprocessing (empty, punctuation only, all
    #: stopwords): they score 0, and the console and summary say how many
    empty_candidates: int = 0
    empty_references: int = 0
    #: the per-aspect analysis (runs with an aspect lexicon): its data and the rows of aspects.csv
    aspect_stats: Any = None
    aspects: list[dict[str, Any]] = field(default_factory=list)
    #: which synonym pairs fired, and the sources' coverage (runs that write synonym_matches.csv)
    synonyms: SynonymReport | None = None
    #: variants: what each changed against its baseline (rows of rouge2.run.effects), the
    #: change of the correlations (meta_evaluation), the summaries that moved most
    effects: list[dict[str, Any]] = field(default_factory=list)
    effect_correlations: list[dict[str, Any]] = field(default_factory=list)
    drilldown: run_effects.Drilldown | None = None

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
        verbose: bool = False, threads: int = 1) -> RunResult:
    """Run ``cfg``; return what was computed.  Outputs are written only if
    everything succeeded.  ``jobs`` > 1 scores in that many processes
    (results identical to ``jobs`` 1); ``threads`` > 1 scores that many
    chunks at a time in threads of this process (the same results; with
    ``jobs`` > 1 each process scores alone).  An existing output file that rouge2
    did not write stops the run before scoring, unless ``overwrite`` or
    ``outputs.overwrite`` is true; an input of the run is never replaced.
    ``progress``: progress bars on stderr (True, False, None = only on a
    terminal, or a :class:`Progress`).  ``verbose``: list every file written
    on the console (else they are counted by group)."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 1:
        raise UserError(f"--jobs: expected a whole number of processes >= 1, got {jobs!r}")
    threads = check_threads(threads)
    stdout = sys.stdout if stdout is None else stdout
    bars = progress if isinstance(progress, Progress) else Progress(progress)
    outer = files.active_records()
    with files.recording() as inputs:
        for record in outer:  # e.g. the config, read by the command line before the run
            inputs.update(record)
        _declare_inputs(cfg, inputs)
        setup = _Setup(cfg)  # reads the judgments, stopword lists, dictionaries: inputs too
        outputs = OutputFiles(declared_paths(cfg), overwrite=overwrite or cfg.outputs.overwrite,
                              inputs=inputs, hold=True)  # one run at a time into a folder
        with outputs:
            result = RunResult(variants={name: VariantResult(name) for name, _ in cfg.option_sets})
            result.aspect_stats = run_aspects.new_stats(setup.pair_scorer)
            if setup.pair_scorer.explained:
                result.synonyms = SynonymReport(cfg, setup.pair_scorer)
            if cfg.variants:
                result.drilldown = run_effects.Drilldown(cfg)
            if setup.pair_scorer.weighted:  # topic_weights: idf over the run's references, read first
                items = list(items) if items is not None else None
                setup.fit(cfg, items)
            worker_args = (cfg.measures, cfg.option_sets, setup.report_topics, setup.frequencies,
                           explaining(cfg))
            with Workers(jobs, worker_args) as workers:
                ctx = OutputContext(cfg, outputs.open, setup.pair_scorer.coverage)
                sinks = start_outputs(cfg, ctx)
                try:
                    digest = _score_items(cfg, result, setup.pair_scorer, workers, sinks, bars, items,
                                          threads=check_threads(threads))
                    _statistics(cfg, result, bars, workers, setup.judgments)
                    result.summary = _summary(cfg, result, setup.versions, digest)
                    for sink in sinks:
                        sink.finish(result)
                finally:
                    for sink in sinks:
                        sink.close()
            result.console = _console(cfg, result)
        result.written = outputs.written
    if cfg.outputs.console:
        stdout.write(result.console)
        stdout.write(format_written(result.written, cfg.outputs.dir, verbose=verbose))
    return result


def _declare_inputs(cfg: RunConfig, inputs: files.InputRecord) -> None:
    """The files the run will read, known before it reads them (the ones it
    reads are noted as it goes): so no output replaces one of them."""
    if cfg.source is not None:
        inputs.add(cfg.source, _stat(cfg.source))
    path = cfg.inputs.path
    if cfg.inputs.format == "java-project":
        for sub in ("reference", "system"):
            inputs.add_folder(path / sub)
    elif path is not None:
        inputs.add(path, _stat(path))
    if cfg.meta_evaluation is not None:
        inputs.add(cfg.meta_evaluation.judgments, _stat(cfg.meta_evaluation.judgments))


def _stat(path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


class _Setup:
    """What a run builds before reading any summary: the judgments (a bad
    file fails fast), the topic report's topics, the scorers and the data
    versions of the signature."""

    def __init__(self, cfg: RunConfig) -> None:
        self.judgments = None
        if cfg.meta_evaluation is not None:
            self.judgments = read_judgments(cfg.meta_evaluation.judgments, cfg.meta_evaluation.dimensions)
        self.report_topics: Any = None
        if cfg.outputs.topic_report is not None:
            self.report_topics = report_topics(cfg)
            if cfg.variants:  # the report shows one variant, named in it
                self.report_topics = (self.report_topics, cfg.outputs.topic_report_variant or cfg.variants[0][0])
        self.pair_scorer = PairScorer(cfg.measures, cfg.option_sets, self.report_topics, explain=explaining(cfg))
        #: topic_weights: idf - the document frequencies over the run's references (:meth:`fit`)
        self.frequencies: dict | None = None
        self.versions = data_versions(cfg.options, cfg.measures, self.pair_scorer.scorer.tagger)
        if cfg.variants:
            self.versions["variants"] = {
                name: data_versions(opts, cfg.measures, self.pair_scorer.scorers[name].tagger)
                for name, opts in cfg.variants}


    def fit(self, cfg: RunConfig, items: list[InputItem] | None) -> None:
        """Read the references once before scoring and weigh the units by their
        inverse document frequency over them (``topic_weights: idf``)."""
        stream = read_inputs(cfg.inputs) if items is None else items
        self.frequencies = self.pair_scorer.frequencies(r for item in stream for r in item.references)
        self.pair_scorer.apply(self.frequencies)


def _checked(cfg: RunConfig, stream: Iterable[InputItem], digest) -> Iterator[InputItem]:
    """The items, each (task, system) pair once, hashed into ``digest`` (the
    signature's input hash); a grid of variants is bounded."""
    seen: set[tuple[str, str]] = set()
    cells = len(cfg.option_sets) * len(cfg.measures)
    for item in stream:
        key = (item.task, item.system)
        if key in seen:
            raise UserError(f"{cfg.inputs.path}: task {item.task!r} has system {item.system!r} "
                            f"twice; each (task, system) pair must appear once")
        seen.add(key)
        if cfg.variants and len(seen) * cells > MAX_VARIANT_GRID:
            raise UserError(f"{cfg.inputs.path}: {len(cfg.option_sets):,} variants x {len(seen):,} "
                            f"summaries x {len(cfg.measures)} measures is more than "
                            f"{MAX_VARIANT_GRID:,} scores, an implausibly large grid; use fewer "
                            f"variants or measures, or split the inputs")
        for part in (item.task, item.system, item.candidate, *item.references):
            text = part if isinstance(part, str) else "\n".join(part)
            digest.update(text.encode("utf-8", "surrogateescape"))
            digest.update(b"\x00")
        digest.update(b"\x01")
        yield item


def _score_items(cfg: RunConfig, result: RunResult, pair_scorer: PairScorer, workers: Workers,
                 sinks: list, bars: Progress, items: Iterable[InputItem] | None, *,
                 threads: int = 1) -> str:
    """Score every item (here or in the workers, ``threads`` batch chunks at a
    time), feed the sinks; the inputs' SHA-256."""
    digest = hashlib.sha256()
    stream = read_inputs(cfg.inputs) if items is None else items
    results = scored(_checked(cfg, stream, digest), pair_scorer, workers, threads=threads)
    scoring = bars.phase("scoring", _count(cfg, items) if bars.enabled else None, "summaries")
    try:
        for item, (per_variant, cov, (empty_candidate, empty_references), aspects, explained) in \
                scoring.wrap(results):
            key = (item.task, item.system)
            result.empty_candidates += empty_candidate
            result.empty_references += empty_references
            result.num_references[key] = len(item.references)
            for name, (scores, _) in per_variant.items():
                result.variants[name].pairs[key] = scores
            for sink in sinks:
                sink.add(item, per_variant, cov)
            if result.aspect_stats is not None:
                for name, pair_aspects in aspects.items():
                    result.aspect_stats.add(name, pair_aspects)
            if result.synonyms is not None:
                result.synonyms.add(item, explained)
            if result.drilldown is not None:
                result.drilldown.add(item, per_variant, explained)
    finally:
        scoring.close()
        results.close()  # stops worker processes early on a failure
    if not result.pairs:
        raise UserError(f"{cfg.inputs.path}: no summaries to score")
    check_systems(cfg, {s for _, s in result.pairs})
    return digest.hexdigest()


def _statistics(cfg: RunConfig, result: RunResult, bars: Progress, workers: Workers, judgments) -> None:
    """System means and intervals, the per-aspect rows, paired tests, variant
    rankings and tests, correlations."""
    if result.aspect_stats is not None:
        result.aspects = run_aspects.rows(result.aspect_stats, cfg.bootstrap)
    for v in result.variants.values():
        _aggregate(cfg, v, bars, workers)
        v.comparisons = _compare(cfg, v, bars, workers, result.aspect_stats)
    if cfg.variants:
        result.rankings = _rankings(cfg, result)
        result.variant_comparisons = _compare_variants(cfg, result, workers)
        result.effects = run_effects.effect_rows(cfg, result.variants)
    if cfg.meta_evaluation is not None:
        _meta_evaluate(cfg, result, judgments, bars)


def _count(cfg: RunConfig, items: Iterable[InputItem] | None) -> int | None:
    """The number of items to score, when it is cheap to know (for the bar's total)."""
    if items is not None:
        return len(items) if isinstance(items, Sized) else None
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


def _aggregate(cfg: RunConfig, result: VariantResult, progress: Progress = NO_PROGRESS,
               workers: Workers | None = None) -> None:
    """System means and bootstrap intervals, one system (all its measures,
    one paired bootstrap) at a time, in the workers when the bootstrap is
    big enough."""
    bs = cfg.bootstrap
    systems = by_system(result.pairs)
    units = [(summarize, ({m: [result.pairs[(t, system)][m] for t in tasks] for m in cfg.measures},),
              {"resamples": bs.resamples if bs else None, "confidence": bs.confidence if bs else 0.95,
               "seed": bs.seed if bs else 0})
             for system, tasks in systems.items()]
    draws = sum(len(tasks) * (1 + len(cfg.measures)) for tasks in systems.values()) * (bs.resamples if bs else 0)
    with progress.phase("bootstrap", len(units), "jobs", show=bs is not None) as phase:
        for system, entries in zip(systems, _map(workers, units, draws)):
            result.systems.setdefault(system, {}).update(entries)
            phase.tick()


def _map(workers: Workers | None, units: list, draws: float):
    if workers is None:
        return (fn(*args, **kwargs) for fn, args, kwargs in units)
    return workers.map(units, draws)


def _compare(cfg: RunConfig, result: VariantResult, progress: Progress = NO_PROGRESS,
             workers: Workers | None = None, aspect_stats: Any = None) -> list[dict[str, Any]]:
    """The paired tests ``compare`` asks for (:mod:`rouge2.run.compare`)."""
    if cfg.compare is None:
        return []
    total = run_compare.unit_count(cfg, len(by_system(result.pairs)),
                                   len(aspect_stats.aspects) if aspect_stats is not None else 0)
    with progress.phase("tests", total, "tests") as phase:
        return run_compare.comparisons(cfg, result, aspect_stats,
                                       lambda units, draws: _map(workers, units, draws), phase.tick)


def _rankings(cfg: RunConfig, result: RunResult) -> dict[str, Any]:
    """Each variant's ranking of the systems per measure, and how alike two
    variants rank them: each variant against the first (the baseline), and
    the pairs named in ``compare_variants``; linear in the number of variants."""
    names = list(result.variants)
    scores = {m: run_compare.measure_score(cfg, m) for m in cfg.measures}
    ranks = {n: {m: ranking(result.variants[n].systems, m, scores[m]) for m in cfg.measures} for n in names}
    pairs = [(names[0], b) for b in names[1:]]
    pairs += [p for p in cfg.compare_variants if p not in pairs and p[::-1] not in pairs]
    agreement = []
    for a, b in pairs:
        for m in cfg.measures:
            agreement.append({"variant_a": a, "variant_b": b, "measure": m, "score": scores[m],
                              **ranking_agreement(result.variants[a].systems,
                                                  result.variants[b].systems, m, scores[m])})
    return {"rankings": ranks, "scores": scores, "agreement": agreement}


def _compare_variants(cfg: RunConfig, result: RunResult, workers: Workers | None = None) -> list[dict[str, Any]]:
    """For each system, the paired test of its per-task scores under two variants
    (each measure's default score, or ``compare.score``)."""
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
                               "label": f"{a}|{b}|{system}|{m}", "score": run_compare.measure_score(cfg, m)}))
                keys.append((a, b, system, m))
    draws = sum(len(args[0]) for _, args, _ in units) * resamples
    return [{"variant_a": a, "variant_b": b, "system": system, "measure": m, **row}
            for (a, b, system, m), row in zip(keys, _map(workers, units, draws))]


def _meta_evaluate(cfg: RunConfig, result: RunResult, judgments, progress: Progress = NO_PROGRESS) -> None:
    scores = Scores()
    for name, v in result.variants.items():
        for (task, system), per in v.pairs.items():
            scores.add(name, task, system, per)
    spec = cfg.meta_evaluation
    try:
        with progress.phase("correlations", None, "metrics") as phase:
            result.correlations = correlations(scores, judgments, spec, notes=result.correlation_notes,
                                               tick=phase.tick)
        result.correlation_comparisons = comparisons(scores, judgments, spec)
        if cfg.variants:
            dims = list(spec.dimensions) if spec.dimensions is not None else judgments.dimensions
            result.effect_correlations = run_effects.correlation_effects(cfg, scores, judgments, dims,
                                                                         result.correlation_comparisons)
    except UserError as exc:
        raise UserError(f"{cfg.source}: meta_evaluation: {exc}") from None


def _summary(cfg: RunConfig, result: RunResult, versions: dict[str, Any],
             inputs_sha256: str) -> dict[str, Any]:
    tasks = {t for t, _ in result.pairs}
    nrefs = sorted(set(result.num_references.values()))
    return {
        "rouge2_run_summary": 1,
        "name": cfg.name,
        "config": str(cfg.source) if cfg.source else None,
        "signature": signature(cfg.settings(), versions, inputs_sha256),
        "signature_line": signature_line(cfg.options, versions, nrefs[0] if len(nrefs) == 1 else "varies",
                                         variants=cfg.variants),
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
        **({"aspects": run_aspects.summary(result.aspect_stats, result.aspects, cfg.options)}
           if result.aspect_stats is not None else {}),
        **({"synonyms": result.synonyms.summary()} if result.synonyms is not None else {}),
        **({"variant_effects": {"pairs": [list(p) for p in run_effects.effect_pairs(cfg)],
                                "rows": result.effects, "correlations": result.effect_correlations}}
           if cfg.variants else {}),
        "notes": {
            "empty_texts": {"candidates": result.empty_candidates,
                            "references": result.empty_references,
                            "meaning": "no words after preprocessing; such a pair scores 0"},
            "system_scores": "mean over the system's tasks of recall, precision and F",
            "multi_reference": cfg.options.multi_reference,
            "correlation": list(result.correlation_notes),
            "bootstrap": None if cfg.bootstrap is None else
            "percentile intervals over tasks resampled with replacement",
        },
    }


#: the console summary's length in lines, whatever the run (every detail is in the files)
CONSOLE_LINES = 40
def _console(cfg: RunConfig, result: RunResult) -> str:
    """The run's summary, at most about :data:`CONSOLE_LINES` lines whatever
    the run's size: the first option set's table, one line per variant and
    per pair of variants, the paired tests and the correlations.  Tables are
    cut until the whole fits (the best rows kept, the rest counted): the
    tests and correlations to two rows, the systems to eight, then the tests
    and correlations to one line each, the systems to three.  Every detail is
    in the files."""
    limits = {"systems": out.CONSOLE_ROWS, "tests": 12, "correlations": 12, "correlation tests": 6,
              "effects": 12, "effect correlations": 8}
    text = _console_text(cfg, result, limits)
    for state in _cuts(limits):
        if text.count("\n") + 1 <= CONSOLE_LINES:  # + 1: the line naming the files written
            break
        text = _console_text(cfg, result, state)
    return text


def _cuts(limits: dict[str, int]) -> Iterator[dict[str, int]]:
    """Ever smaller console tables, in the order :func:`_console` cuts them."""
    others = ("tests", "correlations", "correlation tests", "effects", "effect correlations")
    state = dict(limits)
    stages = [(others, 2), (("systems",), 8), (("correlation tests",), 0), (("tests",), 0),
              (("correlations",), 0), (("effect correlations",), 0), (("systems",), 3)]
    for keys, floor in stages:
        while any(state[k] > floor for k in keys):
            k = max(keys, key=lambda k: state[k])
            state[k] = floor if floor == 0 else state[k] - 1
            yield dict(state)


def _console_text(cfg: RunConfig, result: RunResult, limits: dict[str, int]) -> str:
    c = result.summary["counts"]
    title = (f"rouge2 run{': ' + cfg.name if cfg.name else ''} - {_n(c['systems'], 'system')}, "
             f"{_n(c['tasks'], 'task')}, {_n(c['summaries'], 'summary', 'summaries')}; "
             f"multi_reference={cfg.options.multi_reference}; "
             f"signature {result.summary['signature']['sha256'][:12]}")
    name, v = next(iter(result.variants.items()))
    head = "" if name is None else f"{title}\n\nvariant {name} ({_n(len(result.variants), 'variant')} in all):\n"
    parts = [head + out.format_system_table(v.systems, cfg.measures, rank_by=cfg.outputs.rank_by,
                                            rank_score=cfg.outputs.rank_by_score,
                                            scores={m: run_compare.measure_score(cfg, m) for m in cfg.measures},
                                            title=title if name is None else None,
                                            confidence=cfg.bootstrap.confidence if cfg.bootstrap else None,
                                            max_rows=limits["systems"]),
             out.format_comparisons(v.comparisons, limit=limits["tests"])]
    if result.empty_candidates or result.empty_references:
        parts.append(f"note: {_n(result.empty_candidates, 'candidate')} and "
                     f"{_n(result.empty_references, 'reference')} have no words after preprocessing "
                     "(empty, punctuation only or all stopwords); they score 0 (rouge2 docs measures)\n")
    if cfg.variants:
        measure = cfg.outputs.rank_by or cfg.measures[0]
        named = {n: x.systems for n, x in result.variants.items() if n is not None}
        ranks = out.format_variant_rankings(result.rankings, named, measure).strip("\n")
        tests = out.format_variant_comparisons(result.variant_comparisons).strip("\n")
        parts.append(ranks + ("\n" + tests if tests else "") + "\n")
    if cfg.variants and result.effects:
        parts.append(run_effects.console(cfg, result.effects, result.effect_correlations,
                                         result.synonyms.console() if result.synonyms is not None else (),
                                         limits))
    elif result.synonyms is not None:
        parts.append("\n".join(result.synonyms.console()) + "\n")
    if result.aspect_stats is not None:
        parts.append(run_aspects.console(result.aspect_stats, result.aspects,
                                         cfg.bootstrap.confidence if cfg.bootstrap else None,
                                         result.summary["aspects"]["lexicon"], max_rows=limits["systems"]))
    if cfg.meta_evaluation is not None:
        parts.append("correlation with human judgments\n" + out.format_correlations(
            result.correlations, result.correlation_comparisons, limit=limits["correlations"],
            cmp_limit=limits["correlation tests"]) + "".join(note + "\n" for note in _few(result.correlation_notes)))
    parts.append(result.summary["signature_line"] + "\n")
    return "\n".join(part.strip("\n") + "\n" for part in parts if part.strip())


def _few(notes: list[str], limit: int = 3) -> list[str]:
    """At most ``limit`` of the correlation notes for the console; all of them are in
    summary.json (``notes.correlation``)."""
    if len(notes) <= limit:
        return notes
    rest = len(notes) - (limit - 1)
    more = f"note: {rest} more correlation notes like these are in summary.json (notes.correlation)"
    return [*notes[:limit - 1], more]


def _n(k: int, word: str, plural: str | None = None) -> str:
    return f"{k} {word if k == 1 else (plural or word + 's')}"
