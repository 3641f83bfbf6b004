"""``rouge2 score``: score predictions against references from the command line.

Corpus mode (sacreBLEU-style), line-aligned files, one summary a line::

    rouge2 score -r refs.txt [refs2.txt ...] -i preds.txt [preds2.txt ...]
    cat preds.txt | rouge2 score -r refs.txt
    rouge2 score -i rows.jsonl            # {"prediction": ..., "references": [...]} a line

prints the corpus mean R, P and F per measure with bootstrap intervals and
the signature; with several ``-i`` files, one row per system, ranked, and a
paired significance test of each against the first.  ``--json`` prints the
same as JSON.

Single-pair mode (a whole file is one summary)::

    rouge2 score -c cand.txt -r ref1.txt ref2.txt
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rouge2 import files
from rouge2.errors import UserError
from rouge2.limits import MAX_RESAMPLES, MAX_TEST_RESAMPLES, check_count
from rouge2.stats.aggregate import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, compare
from rouge2.stats.significance import DEFAULT_TEST, DEFAULT_TEST_RESAMPLES, TESTS


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        raise UserError(f"{message} (see 'rouge2 score -h')")


def read_text(path: str, encoding: str = "utf-8") -> str:
    return files.read_text(path, encoding, what="summary file").replace("\r\n", "\n")


def _lines(path: str, encoding: str, what: str) -> list[str]:
    """The lines of a line-aligned file (``-`` is standard input)."""
    if path == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        text = files.decode(data, "<stdin>", encoding)
    else:  # streamed: a corpus file has no size limit
        return [line.rstrip("\n").rstrip("\r") for _, line in files.decoded_lines(path, encoding, what)]
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line
    return lines


def _jsonl(path: str, encoding: str) -> tuple[list[str], list[list[str]]]:
    preds: list[str] = []
    refs: list[list[str]] = []
    stdin = ((i + 1, line) for i, line in enumerate(sys.stdin)) if path == "-" else None
    for where, row in files.jsonl_objects(path, encoding, lines=stdin):
        if "prediction" not in row or "references" not in row:
            raise UserError(f"{where}: expected an object with 'prediction' and 'references' fields")
        p, r = row["prediction"], row["references"]
        r = [r] if isinstance(r, str) else r
        if not isinstance(p, str) or not isinstance(r, list) or not r or not all(isinstance(x, str) for x in r):
            raise UserError(f"{where}: 'prediction' must be a text and 'references' a text or a "
                            f"non-empty list of texts")
        preds.append(p)
        refs.append(r)
    if not preds:
        raise UserError(f"{path}: no rows to score")
    return preds, refs


def _read_corpus(args) -> tuple[dict[str, list[str]], list[list[str]]]:
    """System name -> predictions, and the references of each line."""
    inputs = args.input or ["-"]
    if len(inputs) == 1 and inputs[0].endswith(".jsonl") and not args.references:
        preds, refs = _jsonl(inputs[0], args.encoding)
        return {Path(inputs[0]).name: preds}, refs
    if not args.references:
        raise UserError("give the reference file(s) with -r (one file per reference set, one "
                        "summary a line), or a JSONL file with -i rows.jsonl")
    if inputs == ["-"] and sys.stdin.isatty():
        raise UserError("no predictions: give -i FILE, or pipe them in (one summary a line)")
    ref_sets = [(p, _lines(p, args.encoding, "reference file")) for p in args.references]
    n, first = len(ref_sets[0][1]), ref_sets[0][0]
    for path, lines in ref_sets[1:]:
        if len(lines) != n:
            raise UserError(f"{first} has {n} lines but {path} has {len(lines)}: reference files "
                            f"must be line-aligned")
    systems: dict[str, list[str]] = {}
    for path in inputs:
        lines = _lines(path, args.encoding, "prediction file")
        if len(lines) != n:
            raise UserError(f"{path} has {len(lines)} lines but {first} has {n}: predictions and "
                            f"references must be line-aligned (one summary a line)")
        name = "stdin" if path == "-" else path
        if name in systems:
            raise UserError(f"{path} is given twice with -i")
        systems[name] = lines
    refs = [[lines[i] for _, lines in ref_sets] for i in range(n)]
    return systems, refs


def _fmt(x: float) -> str:
    return f"{x:.5f}"


def _count(n: int) -> str:
    return f"{n} summar{'y' if n == 1 else 'ies'}"


def _table(result, name: str | None = None) -> list[str]:
    pct = f"{result.confidence * 100:g}%"
    ci = bool(result.resamples)
    rows = [["measure", "recall", "precision", "F"] + ([f"{pct} CI of F"] if ci else [])]
    for m, per in result.scores.items():
        lo, hi = per["fmeasure"]["ci"]
        rows.append([m, _fmt(per["recall"]["mean"]), _fmt(per["precision"]["mean"]),
                     _fmt(per["fmeasure"]["mean"])] + ([f"[{_fmt(lo)}, {_fmt(hi)}]"] if ci else []))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = [f"{name} ({_count(len(result))})" if name else _count(len(result))]
    for k, r in enumerate(rows):
        out.append("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def _per_summary(path: str, results: dict[str, Any]) -> None:
    from rouge2.io.atomic import OutputTransaction

    with OutputTransaction() as tx, tx.open(path) as f:
        for system, result in results.items():
            for i, (scores, stats) in enumerate(zip(result.per_summary, result.stats)):
                row: dict[str, Any] = {"line": i + 1}
                if len(results) > 1:
                    row["system"] = system
                row["scores"] = {m: {"recall": s.recall, "precision": s.precision,
                                     "fmeasure": s.fmeasure} for m, s in scores.items()}
                row["stats"] = {m: [[x.hit, x.ref_total, x.cand_total] for x in v]
                                for m, v in stats.items()}
                f.write(json.dumps(row) + "\n")


def corpus_main(args) -> int:
    from rouge2.cli.options import option_values
    from rouge2.scoring.evaluate import evaluate

    systems, refs = _read_corpus(args)
    kw = option_values(args)
    results = {name: evaluate(preds, refs, args.measures, confidence=args.confidence,
                              resamples=args.resamples, seed=args.seed, threads=args.threads, **kw)
               for name, preds in systems.items()}
    names = list(results)
    first = results[names[0]]
    comparisons = []
    if len(names) > 1:
        for other in names[1:]:
            for m in first.measures:
                c = compare([s[m] for s in results[other].per_summary],
                            [s[m] for s in first.per_summary], test=args.test,
                            resamples=args.test_resamples, seed=args.seed, label=f"{other}|{names[0]}|{m}")
                comparisons.append({"system": other, "baseline": names[0], "measure": m, **c})
    if args.per_summary:
        _per_summary(args.per_summary, results)
    if args.json:
        if len(names) == 1:
            out: dict[str, Any] = first.to_dict()
        else:
            out = {"systems": {n: r.to_dict() for n, r in results.items()},
                   "comparisons": comparisons, "signature": first.signature}
        json.dump(out, sys.stdout, indent=2)
        print()
        return 0
    if len(names) == 1:
        print("\n".join(_table(first)))
    else:
        key = first.measures[0]
        ranked = sorted(names, key=lambda n: -results[n].scores[key]["fmeasure"]["mean"])
        print(f"{len(names)} systems ranked by {key} F; p: paired {args.test} test against "
              f"{names[0]} ({args.test_resamples} resamples)")
        for m in first.measures:
            print(f"\n{m}")
            head = ["rank", "system", "recall", "precision", "F", f"{first.confidence * 100:g}% CI of F", "p"]
            rows = [head]
            for rank, n in enumerate(ranked, 1):
                per = results[n].scores[m]
                lo, hi = per["fmeasure"]["ci"]
                p = next((c["p_value"] for c in comparisons if c["system"] == n and c["measure"] == m), None)
                rows.append([str(rank), n, _fmt(per["recall"]["mean"]), _fmt(per["precision"]["mean"]),
                             _fmt(per["fmeasure"]["mean"]), f"[{_fmt(lo)}, {_fmt(hi)}]",
                             "baseline" if n == names[0] else f"{p:.4f}"])
            widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
            for k, r in enumerate(rows):
                print("  ".join(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i])
                                for i, c in enumerate(r)).rstrip())
                if k == 0:
                    print("  ".join("-" * w for w in widths))
    print(first.signature)
    return 0


def pair_main(args) -> int:
    from rouge2.cli.options import options_from_args
    from rouge2.scoring.scorer import Scorer

    scorer = Scorer(args.measures, options=options_from_args(args))
    cand = read_text(args.candidate, args.encoding)
    refs = [read_text(r, args.encoding) for r in args.references]
    result = scorer.score(cand, refs)
    if args.json:
        json.dump({k: v._asdict() for k, v in result.items()}, sys.stdout, indent=2)
        print()
        return 0
    width = max(len(k) for k in result)
    print(f"{'measure':<{width}}  {'recall':>8} {'precision':>9} {'F':>8}")
    for name, s in result.items():
        print(f"{name:<{width}}  {s.recall:8.5f} {s.precision:9.5f} {s.fmeasure:8.5f}")
    return 0


def main(argv: list[str]) -> int:
    from rouge2.cli.options import add_option_flags, add_threads_flag
    from rouge2.scoring.scorer import DEFAULT_MEASURES

    ap = _Parser(prog="rouge2 score",
                 description="Score predictions against references: corpus means with intervals "
                             "(line-aligned files or JSONL), or one candidate file (-c).",
                 epilog="Example: rouge2 score -r refs.txt -i preds.txt --stem (rouge2 docs scoring)")
    ap.add_argument("-i", "--input", nargs="+", metavar="FILE",
                    help="prediction file(s), one summary a line (several files: several systems); "
                         "'-' or nothing: standard input; a .jsonl file with prediction and references fields")
    ap.add_argument("-r", "--references", nargs="+", metavar="FILE",
                    help="reference file(s): one file per reference set, line-aligned with the predictions "
                         "(with -c: each file is one whole reference)")
    ap.add_argument("-c", "--candidate", metavar="FILE",
                    help="single-pair mode: the whole file is one candidate")
    ap.add_argument("-m", "--measures", nargs="+", default=list(DEFAULT_MEASURES), metavar="NAME")
    ap.add_argument("--encoding", default="utf-8")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--per-summary", metavar="FILE", help="write each summary's scores (JSONL)")
    ap.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE,
                    help=f"interval confidence (default {DEFAULT_CONFIDENCE})")
    ap.add_argument("--resamples", type=int, default=DEFAULT_RESAMPLES,
                    help=f"bootstrap resamples (0: no intervals; default {DEFAULT_RESAMPLES})")
    ap.add_argument("--seed", type=int, default=0, help="random seed of intervals and tests (default 0)")
    ap.add_argument("--test", choices=TESTS, default=DEFAULT_TEST,
                    help=f"paired test of each system against the first (several -i files; default {DEFAULT_TEST})")
    ap.add_argument("--test-resamples", type=int, default=DEFAULT_TEST_RESAMPLES, metavar="N",
                    help=f"resamples of the paired test (default {DEFAULT_TEST_RESAMPLES})")
    add_threads_flag(ap)
    add_option_flags(ap)
    args = ap.parse_args(argv)
    check_count(args.resamples, "--resamples", 0, MAX_RESAMPLES)
    check_count(args.test_resamples, "--test-resamples", 1, MAX_TEST_RESAMPLES)
    if args.candidate:
        if args.input:
            raise UserError("give -c (one candidate file) or -i (line-aligned predictions), not both")
        if not args.references:
            raise UserError("give the reference file(s) with -r")
        return pair_main(args)
    return corpus_main(args)
