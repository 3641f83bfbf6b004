"""Threads: rouge2.score_corpus(threads=N) against one thread and against
rouge-score-rs on N threads, in wall time, on distinct pairs.

Usage:
  python benchmarks/bench_threads.py [--pairs 100000] [--threads 2] [--passes 3]
                                     [--measures rouge-1,rouge-2,rouge-l] [--shared PATH]

Each contender runs in a fresh child process (this script with ``--child``)
that generates the pairs first (untimed: bench_memory.py's distinct pairs,
SummEval system summaries and references plus source sentences), then times
one scoring call: wall time (``time.perf_counter``) and CPU time
(``time.process_time``, all threads).  Contenders, in rotating order each
pass:

  rouge2 x1       rouge2.score_corpus(pairs, measures=..., threads=1)
  rouge2 xN       the same with threads=N
  rs x1 / rs xN   rouge_score_rs.RougeScorer(["rouge1", "rouge2", "rougeL"]).score_batch
                  with RAYON_NUM_THREADS=1 / N (its documented thread control)

Each child also prints a digest of every F value; rouge2's must be the same
for every thread count.  Wall time is the question here (threads do not save
CPU time), so run it on a quiet machine: the report gives the median and
the best pass of each contender and the ratios of the medians.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C
from bench_memory import distinct_pairs


def child(args) -> None:
    rows = C.summeval_rows(args.shared)
    pairs = list(distinct_pairs(rows, args.pairs))
    measures = args.measures.split(",")
    digest = hashlib.sha256()
    if args.tool == "rouge2":
        import rouge2

        rouge2.score_corpus(pairs[:200], measures=measures, threads=args.n)  # warm: imports, stemmer
        w0, c0 = time.perf_counter(), time.process_time()
        out = rouge2.score_corpus(pairs, measures=measures, threads=args.n)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        for r in out:
            digest.update(" ".join(s.fmeasure.hex() for s in r.values()).encode())
    else:
        import rouge_score_rs

        scorer = rouge_score_rs.RougeScorer(["rouge1", "rouge2", "rougeL"])
        refs = [r for _, r in pairs]
        cands = [c for c, _ in pairs]
        scorer.score_batch(refs[:200], cands[:200])
        w0, c0 = time.perf_counter(), time.process_time()
        out = scorer.score_batch(refs, cands)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        for r in out:
            digest.update(" ".join(r[k].fmeasure.hex() for k in ("rouge1", "rouge2", "rougeL")).encode())
    print(json.dumps({"wall": wall, "cpu": cpu, "digest": digest.hexdigest()[:16]}))


def run_child(tool: str, n: int, args) -> dict:
    env = dict(os.environ, RAYON_NUM_THREADS=str(n))
    cmd = [sys.executable, __file__, "--child", "--tool", tool, "--n", str(n), "--pairs", str(args.pairs),
           "--measures", args.measures, "--shared", args.shared]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--measures", default="rouge-1,rouge-2,rouge-l")
    ap.add_argument("--no-peer", action="store_true", help="rouge2 alone")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--tool", default="rouge2", help=argparse.SUPPRESS)
    ap.add_argument("--n", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args)
        return 0
    print("bench_threads: wall time of one scoring call per child process, alternating passes")
    C.print_versions(peers=not args.no_peer)
    n = args.threads
    contenders = [("rouge2", 1), ("rouge2", n)]
    if not args.no_peer and C.dist_version("rouge-score-rs"):
        contenders += [("rs", 1), ("rs", n)]
    results: dict = {c: [] for c in contenders}
    for p in range(args.passes):
        order = contenders[p % len(contenders):] + contenders[:p % len(contenders)]
        for c in order:
            results[c].append(run_child(c[0], c[1], args))
    print(f"{args.pairs:,} distinct pairs, {args.measures}, {args.passes} passes; CPUs seen: {os.cpu_count()}, "
          f"usable: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'}")
    med = {}
    for (tool, k), runs in results.items():
        walls = sorted(r["wall"] for r in runs)
        cpus = sorted(r["cpu"] for r in runs)
        med[(tool, k)] = C.median(walls)
        print(f"  {tool:<7} threads={k}: wall median {C.median(walls):.3f} s (best {walls[0]:.3f}), "
              f"{args.pairs / C.median(walls):,.0f} pairs/s; CPU median {C.median(cpus):.3f} s; "
              f"digest {runs[0]['digest']}")
    digests = {r["digest"] for (tool, _), runs in results.items() if tool == "rouge2" for r in runs}
    print(f"rouge2 results identical across thread counts: {len(digests) == 1}")
    print(f"rouge2 threads={n} / threads=1 throughput: {med[('rouge2', 1)] / med[('rouge2', n)]:.2f}x")
    if ("rs", n) in med:
        print(f"rouge2 threads={n} / rouge-score-rs threads={n}: {med[('rs', n)] / med[('rouge2', n)]:.2f}x; "
              f"rouge-score-rs threads={n} / threads=1: {med[('rs', 1)] / med[('rs', n)]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
