"""``rouge2 correlate RESULTS --judgments FILE``: how well do a run's scores agree with humans?

RESULTS is a run's output folder, its ``per_summary.jsonl``, or the
``--per-summary`` file of ``rouge2 score``; FILE holds human judgments
(task, system, one column per dimension; or the SummEval file).  Prints
Pearson, Spearman and Kendall τ-b (or the ``--statistic`` asked for) with
bootstrap intervals per level, variant, measure, score and dimension;
``--compare A B`` adds a paired test of two metrics
(``measure[/score][@variant]``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rouge2.errors import UserError
from rouge2.io.judgments import read_judgments
from rouge2.io.outputs import OutputFiles, declared_inputs
from rouge2.io.results import read_results
from rouge2.io.writers import correlations_csv, format_correlations
from rouge2.limits import MAX_RESAMPLES, check_count
from rouge2.run.progress import Progress
from rouge2.schemas import correlate_document
from rouge2.stats.correlation import DEFAULT_STATISTICS, SCHEMES, STATISTICS, TESTS
from rouge2.stats.meta import MetaSpec, Metric, Scores, comparisons, correlations, levels_of


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UserError(f"{message} (see 'rouge2 correlate -h')")


def _settings(args: argparse.Namespace, spec: MetaSpec) -> dict[str, Any]:
    """The ``settings`` of the ``rouge2.correlate/1`` document."""
    return {"results": args.results, "judgments": args.judgments, "levels": list(spec.levels),
            "scores": list(spec.scores), "statistics": list(spec.statistics), "test": spec.test,
            "resampling": spec.resampling, "permutation": spec.permutation,
            "resamples": spec.resamples, "confidence": spec.confidence, "seed": spec.seed}


def _parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="rouge2 correlate",
                 description="Correlate a run's per-summary scores with human judgments "
                             "(rouge2 docs meta-evaluation).")
    ap.add_argument("results", help="a run's output folder or its per_summary.jsonl, or the file of "
                                    "'rouge2 score --per-summary'")
    ap.add_argument("--judgments", required=True, metavar="FILE",
                    help="JSONL/CSV/TSV rows (task, system, one column per dimension) or the SummEval file")
    ap.add_argument("--dimension", action="append", metavar="NAME",
                    help="a judgment dimension (repeat for several; default: every dimension)")
    ap.add_argument("--level", action="append", metavar="LEVEL",
                    help="system (default), summary or global (repeat for several)")
    ap.add_argument("--score", action="append", choices=("recall", "precision", "fmeasure"),
                    help="which score of each measure (repeat; default: all three)")
    ap.add_argument("--measure", action="append", metavar="NAME", help="only these measures (repeat)")
    ap.add_argument("--statistic", action="append", metavar="NAME",
                    help=f"a statistic (repeat; default: {', '.join(DEFAULT_STATISTICS)}); "
                         f"one of: {STATISTICS.choices()}")
    ap.add_argument("--compare", nargs=2, action="append", metavar=("A", "B"),
                    help="paired test: does metric A (measure[/score][@variant]) correlate better than B?")
    ap.add_argument("--test", default="permutation", choices=TESTS,
                    help="the paired test of --compare: permutation (default; any statistic and level) or "
                         "williams (Pearson, system or global level)")
    ap.add_argument("--resampling", default="both", choices=SCHEMES,
                    help="what the bootstrap resamples: systems, tasks or both (default)")
    ap.add_argument("--permutation", default="both", choices=SCHEMES,
                    help="what the paired permutation test swaps (default both)")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true",
                    help="print a rouge2.correlate/1 JSON document (settings, correlations, comparisons)")
    ap.add_argument("--csv", metavar="FILE", help="also write the correlations as CSV")
    ap.add_argument("--overwrite", action="store_true",
                    help="let --csv replace a file rouge2 did not write (never an input, a device, a link or "
                         "a folder)")
    ap.add_argument("--progress", choices=("auto", "on", "off"), default="auto",
                    help="progress bar on stderr: auto = only on a terminal")
    return ap


def _spec(args: argparse.Namespace) -> MetaSpec:
    check_count(args.resamples, "--resamples", 1, MAX_RESAMPLES)
    if not 0 < args.confidence < 1:
        raise UserError("--confidence must be between 0 and 1 (e.g. 0.95)")
    statistics = tuple(dict.fromkeys(STATISTICS.canonical(s) for s in args.statistic)) if args.statistic \
        else DEFAULT_STATISTICS
    return MetaSpec(
        dimensions=tuple(args.dimension) if args.dimension else None,
        levels=levels_of(args.level or ["system"]),
        scores=tuple(dict.fromkeys(args.score)) if args.score else ("recall", "precision", "fmeasure"),
        measures=tuple(args.measure) if args.measure else None,
        resampling=args.resampling, resamples=args.resamples, confidence=args.confidence,
        seed=args.seed, permutation=args.permutation, statistics=statistics, test=args.test,
        compare=tuple((Metric.parse(a), Metric.parse(b)) for a, b in (args.compare or [])),
    )


def _units(scores: Scores, spec: MetaSpec, dimensions: int) -> int:
    """(metric, dimension, level) combinations: what the progress bar counts."""
    measures = len(spec.measures) if spec.measures is not None else len(scores.measures)
    return len(scores.variants) * measures * len(spec.scores) * dimensions * len(spec.levels)


def _csv_output(args: argparse.Namespace) -> OutputFiles | None:
    """``--csv`` through the output layer, checked before any work: never an
    input of the command, a device or a link, nor a file rouge2 did not
    write unless --overwrite."""
    if args.csv is None:
        return None
    inputs = declared_inputs([args.results, Path(args.results) / "per_summary.jsonl", args.judgments])
    return OutputFiles([args.csv], overwrite=args.overwrite, inputs=inputs,
                       hint="use --overwrite to replace it", lock_hint="write the file elsewhere")


def _output(args: argparse.Namespace, spec: MetaSpec, rows: list[dict[str, Any]],
            cmp_rows: list[dict[str, Any]], csv_out: OutputFiles | None = None) -> None:
    if csv_out is not None:
        with csv_out, csv_out.open(args.csv, newline="") as f:  # the run's correlations.csv format
            f.write(correlations_csv(rows))
    if args.json:
        json.dump(correlate_document(_settings(args, spec), rows, cmp_rows), sys.stdout, indent=1)
        print()
    else:
        sys.stdout.write(format_correlations(rows, cmp_rows))


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    spec = _spec(args)
    csv_out = _csv_output(args)
    scores = read_results(args.results)
    judgments = read_judgments(args.judgments, args.dimension)
    notes: list[str] = []
    bars = Progress({"auto": None, "on": True, "off": False}[args.progress])
    dims = len(spec.dimensions) if spec.dimensions is not None else len(judgments.dimensions)
    with bars.phase("correlations", _units(scores, spec, dims), "metrics") as phase:
        rows = correlations(scores, judgments, spec, notes=notes, tick=phase.tick)
    with bars.phase("comparisons", len(spec.compare), "pairs", show=bool(spec.compare)):
        cmp_rows = comparisons(scores, judgments, spec)
    _output(args, spec, rows, cmp_rows, csv_out)
    sys.stdout.flush()
    for line in notes:
        print(line, file=sys.stderr)
    return 0
