"""``rouge2 score``: one candidate file against reference files, printed as a table."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rouge2 import files
from rouge2.errors import UserError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, no usage dump
        raise UserError(message)


def read_text(path: str, encoding: str = "utf-8") -> str:
    return files.read_text(path, encoding, what="summary file").replace("\r\n", "\n")


def main(argv: list[str]) -> int:
    from rouge2.cli.options import add_option_flags, options_from_args
    from rouge2.scoring.scorer import DEFAULT_MEASURES, Scorer

    ap = _Parser(prog="rouge2 score", description="Score one candidate against references.")
    ap.add_argument("-c", "--candidate", required=True, help="candidate file, one sentence per line")
    ap.add_argument("-r", "--references", required=True, nargs="+", help="reference files")
    ap.add_argument("-m", "--measures", nargs="+", default=list(DEFAULT_MEASURES))
    ap.add_argument("--encoding", default="utf-8")
    add_option_flags(ap)
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = ap.parse_args(argv)
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
