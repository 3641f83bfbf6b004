"""``rouge2 correlate RESULTS --judgments FILE``: how well do a run's scores agree with humans?

RESULTS is a run's output folder or its ``per_summary.jsonl``; FILE holds
human judgments (task, system, one column per dimension; or the SummEval
file).  Prints Pearson, Spearman and Kendall τ-b with bootstrap intervals
per level, variant, measure, score and dimension; ``--compare A B`` adds a
paired test of two metrics (``measure[/score][@variant]``).
"""

from __future__ import annotations

import argparse
import json
import sys

from rouge2.errors import UserError
from rouge2.schemas import correlate_document


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UserError(f"{message} (see 'rouge2 correlate -h')")


def _settings(args, spec) -> dict:
    """The ``settings`` of the ``rouge2.correlate/1`` document."""
    return {"results": args.results, "judgments": args.judgments, "levels": list(spec.levels),
            "scores": list(spec.scores), "resampling": spec.resampling, "permutation": spec.permutation,
            "resamples": spec.resamples, "confidence": spec.confidence, "seed": spec.seed}


def main(argv: list[str]) -> int:
    from rouge2.io.judgments import read_judgments
    from rouge2.io.results import read_results
    from rouge2.io.writers import format_correlations
    from rouge2.limits import MAX_RESAMPLES, check_count
    from rouge2.stats.correlation import SCHEMES
    from rouge2.stats.meta import MetaSpec, Metric, comparisons, correlations, levels_of

    ap = _Parser(prog="rouge2 correlate",
                 description="Correlate a run's per-summary scores with human judgments "
                             "(rouge2 docs meta-evaluation).")
    ap.add_argument("results", help="a run's output folder or its per_summary.jsonl")
    ap.add_argument("--judgments", required=True, metavar="FILE",
                    help="JSONL/CSV/TSV rows (task, system, one column per dimension) or the SummEval file")
    ap.add_argument("--dimension", action="append", metavar="NAME",
                    help="a judgment dimension (repeat for several; default: every dimension)")
    ap.add_argument("--level", action="append", metavar="LEVEL",
                    help="system (default), summary or global (repeat for several)")
    ap.add_argument("--score", action="append", choices=("recall", "precision", "fmeasure"),
                    help="which score of each measure (repeat; default: all three)")
    ap.add_argument("--measure", action="append", metavar="NAME", help="only these measures (repeat)")
    ap.add_argument("--compare", nargs=2, action="append", metavar=("A", "B"),
                    help="paired test: does metric A (measure[/score][@variant]) correlate better than B?")
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
    args = ap.parse_args(argv)
    check_count(args.resamples, "--resamples", 1, MAX_RESAMPLES)
    if not 0 < args.confidence < 1:
        raise UserError("--confidence must be between 0 and 1 (e.g. 0.95)")

    scores = read_results(args.results)
    judgments = read_judgments(args.judgments, args.dimension)
    spec = MetaSpec(
        dimensions=tuple(args.dimension) if args.dimension else None,
        levels=levels_of(args.level or ["system"]),
        scores=tuple(dict.fromkeys(args.score)) if args.score else ("recall", "precision", "fmeasure"),
        measures=tuple(args.measure) if args.measure else None,
        resampling=args.resampling, resamples=args.resamples, confidence=args.confidence,
        seed=args.seed, permutation=args.permutation,
        compare=tuple((Metric.parse(a), Metric.parse(b)) for a, b in (args.compare or [])),
    )
    rows = correlations(scores, judgments, spec)
    cmp_rows = comparisons(scores, judgments, spec)
    if args.csv:
        from rouge2.io.atomic import atomic_write_text
        from rouge2.io.writers import correlations_csv

        atomic_write_text(args.csv, correlations_csv(rows))
    if args.json:
        json.dump(correlate_document(_settings(args, spec), rows, cmp_rows), sys.stdout, indent=1)
        print()
    else:
        sys.stdout.write(format_correlations(rows, cmp_rows))
    return 0
