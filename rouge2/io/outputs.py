"""The run outputs, one catalogue: every file ``rouge2 run`` can write.

Each entry of :data:`OUTPUTS` (a :class:`~rouge2.registry.Registry` of kind
"run output") is registered here, beside its writer, once.  Its name is the
``outputs.<name>`` key of the YAML config; its :class:`OutputSpec` holds the
default file name, how the file is written (after the statistics, or
streamed while the summaries are scored), whether it is conditional on a
config section (``variants``, ``meta_evaluation``) and how the console
groups it.  Everything else reads the catalogue:

* the config schema (:mod:`rouge2.config.yaml_config`): the ``outputs``
  keys, their defaults and which section each needs;
* the ownership guard and the folder lock (:func:`declared_paths`): every
  file a run may write is checked before scoring and its folder locked;
* the writer loop of :mod:`rouge2.run.runner` (:func:`start`): one sink per
  active output, fed each scored summary, finished after the statistics.

Adding an output is one :func:`register` line with its writer.

Every door that writes files (``run``, ``score --per-summary``,
``correlate --csv``, ``rouge155-shim``, ``convert-properties -o``) goes
through :class:`OutputFiles`: targets checked by
:mod:`rouge2.io.ownership`, staged and published together by
:mod:`rouge2.io.atomic` (docs/safety.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from rouge2.errors import UserError
from rouge2.files import InputRecord
from rouge2.io import writers as out
from rouge2.io.aspect_report import write_aspect_report, write_aspects_csv
from rouge2.io.atomic import OutputTransaction
from rouge2.io.ownership import MANIFEST, OVERRIDE_HINT, OutputGuard, check_target
from rouge2.io.topic_report import TopicReportWriter, report_paths
from rouge2.registry import Registry

__all__ = ["OUTPUTS", "OutputFiles", "OutputSpec", "active", "declared_paths", "format_written", "start", "write_files"]


@dataclass(frozen=True)
class OutputSpec:
    """How one run output is written.

    ``write(handle, cfg, result)`` writes the whole file after the
    statistics; ``stream(handle, cfg)`` instead returns a writer whose
    ``add(item, per_variant)`` is called for each scored summary (memory
    stays flat).  ``needs`` names the config section the output exists for
    (``None``: always); ``when(cfg)`` can turn it off for a run (the systems
    CSV when variants.csv holds every variant's).  ``sink`` replaces both
    for an output with its own life cycle (the topic report)."""

    default: str
    write: Callable[[IO[str], Any, Any], None] | None = None
    stream: Callable[[IO[str], Any], Any] | None = None
    needs: str | None = None
    when: Callable[[Any], bool] | None = None
    newline: str | None = "\n"
    group: str = "results"
    #: the config key takes a file name, ``true`` or ``false`` (else the schema parses it itself)
    generic: bool = True
    sink: Callable[[Any, Path], Any] | None = None
    #: every file written for the configured path (default: the path itself)
    paths: Callable[[Path], list[Path]] | None = None


OUTPUTS: Registry[OutputSpec] = Registry("run output")


def register(name: str, spec: OutputSpec, summary: str, version: str = "1") -> OutputSpec:
    """Register a run output: its passport holds the spec, and as
    capabilities (for listings: ``rouge2 components "run output"``) its
    default file name, the section it needs, whether it is streamed, its
    console group.  Bump ``version`` when the file's content changes."""
    return OUTPUTS.add(name, spec, summary, version=version, capabilities={
        "default_file": spec.default, "needs": spec.needs, "group": spec.group,
        "streamed": spec.stream is not None or spec.sink is not None})


# ---------------------------------------------------------------------------
# sinks: what the runner feeds


class _Final:
    """An output written whole after the statistics."""

    def __init__(self, spec: OutputSpec, path: Path, ctx: Any) -> None:
        self.spec, self.path, self.ctx = spec, path, ctx

    def add(self, item, per_variant, coverage) -> None:
        pass

    def finish(self, result) -> None:
        assert self.spec.write is not None
        with self.ctx.open(self.path, newline=self.spec.newline) as f:
            self.spec.write(f, self.ctx.cfg, result)

    def close(self) -> None:
        pass


class _Stream:
    """An output written a summary at a time while scoring."""

    def __init__(self, spec: OutputSpec, path: Path, ctx: Any) -> None:
        assert spec.stream is not None
        self.writer = spec.stream(ctx.open(path, newline=spec.newline), ctx.cfg)

    def add(self, item, per_variant, coverage) -> None:
        self.writer.add(item, per_variant)

    def finish(self, result) -> None:
        pass

    def close(self) -> None:
        pass


@dataclass
class OutputContext:
    """What a sink needs from the run: the config, the transaction's ``open``,
    and the topic coverage scorer (when the report is on)."""

    cfg: Any
    open: Callable[..., IO[str]]
    coverage: Any = None


def active(cfg: Any) -> list[tuple[str, OutputSpec, Path]]:
    """``(name, spec, path)`` of every output this run writes, in catalogue order."""
    chosen = []
    for entry in OUTPUTS:
        spec = entry.value
        path = getattr(cfg.outputs, entry.name, None)
        if path is None:
            continue
        if spec.needs is not None and not getattr(cfg, spec.needs, None):
            continue
        if spec.when is not None and not spec.when(cfg):
            continue
        chosen.append((entry.name, spec, Path(path)))
    return chosen


def declared_paths(cfg: Any) -> list[Path]:
    """Every file the run will write whose name is known before scoring."""
    paths: list[Path] = []
    for _, spec, path in active(cfg):
        paths += spec.paths(path) if spec.paths is not None else [path]
    return paths


def start(cfg: Any, ctx: OutputContext) -> list[Any]:
    """One sink per active output (streamed files are opened now)."""
    sinks = []
    try:
        for _, spec, path in active(cfg):
            if spec.sink is not None:
                sinks.append(spec.sink(ctx, path))
            elif spec.stream is not None:
                sinks.append(_Stream(spec, path, ctx))
            else:
                sinks.append(_Final(spec, path, ctx))
    except BaseException:
        for s in sinks:
            s.close()
        raise
    return sinks


# ---------------------------------------------------------------------------
# the writers


def java_groups(cfg: Any, result: Any) -> Iterable[list[out.JavaRow]]:
    """The Java tool's CSV rows: per variant, task and measure, one row per system."""
    by_task: dict[str, list[str]] = {}
    for t, s in result.pairs:
        by_task.setdefault(t, []).append(s)
    for name, options in cfg.option_sets:
        v = result.variants[name]
        labels = out.java_labels(cfg.measures, stopwords=options.stopwords != "none",
                                 stem=options.stem != "none", synonyms=bool(options.synonyms))
        if name is not None:
            labels = {m: f"{label} [{name}]" for m, label in labels.items()}
        for task in sorted(by_task):
            for m in cfg.measures:
                group = []
                for system in sorted(by_task[task]):
                    s = v.pairs[(task, system)][m]
                    group.append(out.JavaRow(labels[m], task, system, s.recall, s.precision, s.fmeasure,
                                             result.num_references[(task, system)]))
                yield group


class _JsonlRows:
    def __init__(self, handle: IO[str], cfg: Any) -> None:
        self.handle, self.variants = handle, bool(cfg.variants)

    def add(self, item, per_variant: Mapping) -> None:
        for name, (scores, stats) in per_variant.items():
            extra = {"variant": name} if self.variants else {}
            out.write_jsonl_record(self.handle, out.per_summary_record(
                item.task, item.system, item.reference_names, scores, stats, **extra))


class _CsvRows:
    def __init__(self, handle: IO[str], cfg: Any) -> None:
        self.writer = out.PerSummaryCsv(handle, variants=bool(cfg.variants))

    def add(self, item, per_variant: Mapping) -> None:
        for name, (scores, _) in per_variant.items():
            self.writer.write(item.task, item.system, len(item.references), scores, variant=name)


def _write_correlations_json(f: IO[str], cfg: Any, result: Any) -> None:
    out.write_json(f, {"correlations": result.correlations,
                       "comparisons": result.correlation_comparisons})


def write_correlations_csv(f: IO[str], cfg: Any, result: Any) -> None:
    f.write(out.correlations_csv(result.correlations))


# ---------------------------------------------------------------------------
# the topic report (its own life cycle: a streamed CSV, then the pages)


class _TopicReport:
    def __init__(self, ctx: OutputContext, html: Path) -> None:
        cfg, cov = ctx.cfg, ctx.coverage
        o, bs = cfg.outputs, cfg.bootstrap
        contrast = o.topic_report_contrast
        if contrast is None and cfg.compare is not None and cfg.compare.pairs:
            contrast = cfg.compare.pairs
        self.html, self.ctx = html, ctx
        variant = (o.topic_report_variant or cfg.variants[0][0]) if cfg.variants else None
        self.report = TopicReportWriter(ctx.open(html.with_suffix(".csv"), newline=""), cov.selection,
                                        synonyms=cov.relation is not None, title=_report_title(cfg, variant),
                                        variant=variant, links=_report_links(cfg, html),
                                        resamples=bs.resamples if bs else 0,
                                        confidence=bs.confidence if bs else 0.95,
                                        seed=bs.seed if bs else 0, contrast=contrast,
                                        top=o.topic_report_top, task_order=o.topic_report_task_order,
                                        auxiliaries=cov.auxiliaries)

    def add(self, item, per_variant, coverage) -> None:
        self.report.add(item.system, coverage)

    def finish(self, result) -> None:
        with self.ctx.open(self.html) as f:
            self.report.finish(f, open_file=self.ctx.open, html_path=self.html)

    def close(self) -> None:
        self.report.close()


def _report_title(cfg: Any, variant: str | None) -> str | None:
    """The topic report's title: the run's name, and with variants the one it
    shows (``outputs.topic_report.variant``, default the first) and its synonyms."""
    if variant is None:
        return cfg.name
    synonyms = "+".join(s if isinstance(s, str) else "inline" for s in dict(cfg.variants)[variant].synonyms)
    return f"{cfg.name + ' ' if cfg.name else ''}[variant {variant}; synonyms: {synonyms or 'none'}]"


def _report_links(cfg: Any, html: Path) -> list[tuple[str, str]]:
    """The topic report's links to the run's other pages: the aspect heatmap."""
    page = getattr(cfg.outputs, "aspect_report", None)
    if page is None or not getattr(cfg, "aspects", False):
        return []
    return [("Aspect coverage (systems x aspects)", Path(os.path.relpath(page, html.parent)).as_posix())]


def _write_aspect_report(f: IO[str], cfg: Any, result: Any) -> None:
    summary = result.summary.get("aspects", {})
    write_aspect_report(f, result.aspect_stats, result.aspects, title=cfg.name,
                        settings={k: summary.get(k) for k in ("lexicon", "top", "min_mentions", "assign", "weights")},
                        confidence=cfg.bootstrap.confidence if cfg.bootstrap else None)


def _topic_paths(html: Path) -> list[Path]:
    return [html, html.with_suffix(".csv"),
            *(p for kind, p in report_paths(html).items() if kind not in ("html", "folder"))]


# ---------------------------------------------------------------------------
# the catalogue

register("csv", OutputSpec("results.csv", write=lambda f, cfg, r: out.write_java_csv(f, java_groups(cfg, r))),
         "per-system scores in the Java ROUGE 2.0 tool's CSV format")
register("per_summary_jsonl", OutputSpec("per_summary.jsonl", stream=_JsonlRows, group="per summary"),
         "each summary's scores and statistics, one JSON object a line")
register("per_summary_csv", OutputSpec("per_summary.csv", stream=_CsvRows, newline="", group="per summary"),
         "each summary's scores, one line per measure")
register("summary_json", OutputSpec("summary.json", write=lambda f, cfg, r: out.write_json(f, r.summary)),
         "everything computed, with the signature")
register("systems_csv", OutputSpec(
    "systems.csv", newline="", when=lambda cfg: not cfg.variants,
    write=lambda f, cfg, r: out.write_systems_csv(f, r.systems, cfg.measures)),
    "one row per system and measure (runs without variants)")
register("variants_csv", OutputSpec(
    "variants.csv", newline="", needs="variants",
    write=lambda f, cfg, r: out.write_variants_csv(f, {n: v.systems for n, v in r.variants.items()},
                                                   cfg.measures)),
    "one row per variant, system and measure")
register("correlations_json", OutputSpec("correlations.json", write=_write_correlations_json,
                                         needs="meta_evaluation", group="meta-evaluation"),
         "correlations with human judgments and their paired tests")
register("correlations_csv", OutputSpec("correlations.csv", write=write_correlations_csv, newline="",
                                        needs="meta_evaluation", group="meta-evaluation"),
         "correlations with human judgments, one row each")
register("aspects_csv", OutputSpec("aspects.csv", write=lambda f, cfg, r: write_aspects_csv(f, r.aspects),
                                   newline="", needs="aspects", group="aspects"),
         "per (variant, system, aspect): coverage with its interval, mention recall and precision")
register("aspect_report", OutputSpec("aspects.html", write=_write_aspect_report, needs="aspects",
                                     group="aspects"),
         "the systems x aspects heatmap page, drilling down to tasks and words")
register("topic_report", OutputSpec("topic_coverage", generic=False, sink=_TopicReport, paths=_topic_paths,
                                    group="topic report"),
         "the topic-coverage report: HTML pages, CSV and JSON")


# ---------------------------------------------------------------------------
# the layer every door writes through


class OutputFiles:
    """A door's output files: checked (:func:`~rouge2.io.ownership.check_target`),
    staged and published together (:class:`~rouge2.io.atomic.OutputTransaction`).

    ``hold``: lock the folders for the whole command (``rouge2 run``);
    otherwise they are locked briefly now (to finish or undo a publication
    an interrupted command left there) and again to publish."""

    def __init__(self, paths: Sequence[str | Path | None], *, overwrite: bool = False,
                 inputs: InputRecord | None = None, hint: str = OVERRIDE_HINT,
                 lock_hint: str = "choose another outputs.dir", hold: bool = False) -> None:
        for raw in paths:
            if raw is not None and not str(raw).strip():
                raise UserError("an output file name is empty; give a file name")
        self.guard = OutputGuard([None if p is None else Path(p) for p in paths], overwrite=overwrite,
                                 inputs=inputs, hint=hint, check=False)
        seen: dict[str, Path] = {}
        for p in self.guard.paths:  # kinds, names and inputs first: nothing is created for them
            if p.name in ("", ".", ".."):
                raise UserError(f"cannot write {p}: give a file name, not a folder")
            check_target(p, overwrite=True, inputs=inputs, hint=hint)
            real = os.path.join(os.path.realpath(p.parent), p.name)
            if real in seen and seen[real] != p:
                raise UserError(f"cannot write {p}: it is the same file as {seen[real]}, which this "
                                f"command writes too; give each output its own file")
            seen.setdefault(real, p)
        self.tx = OutputTransaction(prepare=self.guard.prepare, hint=lock_hint)
        self.written: list[Path] = []
        try:
            folders = [p.parent for p in self.guard.paths]
            if hold:
                self.tx.hold(folders)
            else:
                self.tx.tidy(folders)
            self.guard.check()
        except BaseException:
            self.tx.abort()
            raise

    def open(self, path: str | Path, newline: str | None = "\n", executable: bool = False) -> IO[str]:
        return self.tx.open(path, newline=newline, executable=executable)

    def write_text(self, path: str | Path, text: str) -> None:
        self.tx.write_text(path, text)

    def commit(self) -> list[Path]:
        """Publish; the files written (the manifests left out)."""
        self.written = [p for p in self.tx.commit() if p.name != MANIFEST]
        return self.written

    def abort(self) -> None:
        self.tx.abort()

    def __enter__(self) -> OutputFiles:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort()


def declared_inputs(paths: Iterable[str | Path | None]) -> InputRecord:
    """An :class:`~rouge2.files.InputRecord` of the given input paths (those that exist)."""
    record = InputRecord()
    for p in paths:
        if p is None or str(p) == "-":
            continue
        try:
            record.add(p, os.stat(p))
        except (OSError, ValueError):
            pass
    return record


def write_files(files: Mapping[str | Path, Callable[[IO[str]], None]], *, overwrite: bool = False,
                inputs: InputRecord | None = None, hint: str = OVERRIDE_HINT,
                lock_hint: str = "write the file elsewhere") -> list[Path]:
    """Write each ``path: writer(handle)`` through :class:`OutputFiles`, all or none."""
    with OutputFiles(list(files), overwrite=overwrite, inputs=inputs, hint=hint, lock_hint=lock_hint) as o:
        for path, writer in files.items():
            with o.open(path, newline="") as f:
                writer(f)
    return o.written


# ---------------------------------------------------------------------------
# the console's list of files written


def _shown_folder(folder: Path) -> str:
    """``folder`` relative to the current folder when it is inside it."""
    try:
        rel = os.path.relpath(folder)
    except ValueError:  # pragma: no cover - another drive (Windows)
        return str(folder)
    return str(folder) if rel.startswith("..") else rel


def format_written(paths: Sequence[Path], folder: Path, *, verbose: bool = False) -> str:
    """The files a run wrote, named relative to its output folder: one line,
    files of a sub-folder counted (``topic_coverage_files/: 127 files``),
    files elsewhere by their path; ``verbose``: one line per file."""
    if not paths:
        return ""
    base = os.path.realpath(folder)
    names: list[str] = []
    outside: list[str] = []
    for p in paths:
        real = os.path.realpath(p)
        if real.startswith(base + os.sep):
            names.append(os.path.relpath(real, base))
        else:
            outside.append(str(p))
    head = f"wrote {len(paths)} file{'s' if len(paths) != 1 else ''} in {_shown_folder(Path(folder))}"
    if verbose:
        return head + ":\n" + "".join(f"  {n}\n" for n in names + outside)
    top = [n for n in names if os.sep not in n]
    nested: dict[str, int] = {}
    for n in names:
        if os.sep in n:
            first = n.split(os.sep)[0] + os.sep
            nested[first] = nested.get(first, 0) + 1
    parts = [", ".join(top)] if top else []
    parts += [f"{sub}: {k} file{'s' if k != 1 else ''}" for sub, k in nested.items()]
    if outside:
        parts.append("elsewhere: " + ", ".join(outside))
    more = " (--verbose lists each)" if nested else ""
    return f"{head}: {'; '.join(parts)}{more}\n"
