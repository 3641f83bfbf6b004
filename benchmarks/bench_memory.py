"""Peak memory of rouge2.score_corpus on 10k, 100k and 1M distinct pairs.

Usage:
  python benchmarks/bench_memory.py [--sizes 10000,100000,1000000]
                                    [--measures rouge-1,rouge-2,rouge-l] [--shared PATH]

Each measurement is a fresh child process (this script with ``--child``) that
reads its peak resident set size from ``getrusage(RUSAGE_SELF).ru_maxrss``
at the end.  Three children per size:

  baseline     imports rouge2, builds a Scorer, loads SummEval and draws every
               pair from the generator without scoring it: the floor
  score_corpus ``rouge2.score_corpus(generator, measures=measures)``, the result list
               kept (as a caller gets it)
  Scorer loop  ``Scorer.score`` per pair, each result dropped: what is left
               without the result list (analysis caches, interned tokens)
  compact      ``rouge2.iter_corpus_stats(generator, measures)``, each chunk's
               arrays dropped after use: the compact-statistics path, whose
               memory should not grow with the corpus (only the vocabulary)

``--modes`` picks some of them (default: all four).

Pairs are generated lazily (the generator holds only SummEval itself), and
are distinct without invented words: pair i takes document d = i mod 100 and
system s = (i div 100) mod 16 of SummEval, a = i div 1600, and

  candidate = the system summary (d, s) + source sentence pool[(17a + s) mod P]
  reference = reference a mod 11 of document d + pool[a] + pool[(a + 1 + s) mod P]

where pool holds the P = 1,337 distinct source-article sentences of at least
5 words (SummEval's ``src`` split at " . ").  Every reference text is
distinct for i < 100 x 16 x P (2.1M), so every pair is distinct.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C

SYSTEMS = 16


def sentence_pool(rows):
    pool = [x.strip() for row in rows for x in row["src"].split(" . ") if len(x.split()) >= 5]
    return list(dict.fromkeys(pool))


def distinct_pairs(rows, n: int):
    """Yield n distinct (candidate, reference) pairs, one at a time."""
    pool = sentence_pool(rows)
    sys_names = sorted(rows[0]["sys_summs"])[:SYSTEMS]
    docs = len(rows)
    limit = docs * SYSTEMS * len(pool)
    if n > limit:
        sys.exit(f"error: at most {limit} distinct pairs can be generated from this data, asked {n}")
    P = len(pool)
    for i in range(n):
        d = i % docs
        s = (i // docs) % SYSTEMS
        a = i // (docs * SYSTEMS)
        row = rows[d]
        cand = row["sys_summs"][sys_names[s]]["sys_summ"] + " " + pool[(17 * a + s) % P]
        refs = row["ref_summs"]
        ref = refs[a % len(refs)] + " " + pool[a] + " " + pool[(a + 1 + s) % P]
        yield cand, ref


def child(mode: str, n: int, shared: str, measures: list[str]) -> None:
    import rouge2

    rows = C.summeval_rows(shared)
    t0 = time.process_time()
    gen = distinct_pairs(rows, n)
    if mode == "baseline":
        rouge2.Scorer(measures)
        count = sum(1 for _ in gen)
    elif mode == "score_corpus":
        out = rouge2.score_corpus(gen, measures=measures)
        count = len(out)
    elif mode == "compact":
        count = 0
        for chunk in rouge2.iter_corpus_stats(gen, measures):
            count += len(chunk)
    elif mode == "scorer-loop":
        scorer = rouge2.Scorer(measures)
        count = 0
        for c, r in gen:
            scorer.score(c, r)
            count += 1
    else:
        raise SystemExit(f"unknown mode {mode}")
    cpu = time.process_time() - t0
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print("CHILD " + json.dumps({"mode": mode, "n": count, "peak_kib": peak_kib, "cpu": cpu}))


MODES = ["baseline", "score_corpus", "scorer-loop", "compact"]


def run_child(mode, n, shared, measures):
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", mode, str(n),
           "--shared", shared, "--measures", ",".join(measures)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: child {mode} {n} failed: {proc.stderr.strip()[-800:]}")
    line = [x for x in proc.stdout.splitlines() if x.startswith("CHILD ")][-1]
    res = json.loads(line[6:])
    if res["n"] != n:
        sys.exit(f"error: child {mode} scored {res['n']} pairs, not {n}")
    return res


def parse_size(text: str) -> int:
    t = text.strip().lower().replace("_", "")
    mult = 1
    if t.endswith("k"):
        mult, t = 1000, t[:-1]
    elif t.endswith("m"):
        mult, t = 1_000_000, t[:-1]
    return int(float(t) * mult)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10k,100k,1M", help="comma-separated pair counts (10k, 1M, 2500 ...)")
    ap.add_argument("--measures", default="rouge-1,rouge-2,rouge-l")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    ap.add_argument("--modes", default=",".join(MODES), help=f"comma-separated, of {', '.join(MODES)}")
    ap.add_argument("--child", nargs=2, metavar=("MODE", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    measures = [m.strip() for m in args.measures.split(",") if m.strip()]
    if args.child:
        child(args.child[0], int(args.child[1]), args.shared, measures)
        return 0
    try:
        sizes = [parse_size(x) for x in args.sizes.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--sizes: not a list of numbers: {args.sizes!r}")
    if not sizes or min(sizes) < 1:
        ap.error("--sizes: give positive pair counts")
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not modes or any(m not in MODES for m in modes):
        ap.error(f"--modes: choose from {', '.join(MODES)}")

    print("bench_memory: peak RSS of rouge2.score_corpus on distinct pairs, one fresh process per figure")
    C.print_versions(peers=False)
    print(f"measures: {', '.join(measures)}; one reference per pair; ru_maxrss of the child (KiB -> MiB)")
    rows = C.summeval_rows(args.shared)
    print(f"pairs: generated lazily from SummEval, pool of {len(sentence_pool(rows))} source sentences")
    results = {}
    for n in sizes:
        results[n] = {mode: run_child(mode, n, args.shared, measures) for mode in modes}
        r = results[n]
        print(f"  measured {n:>9,} pairs: " + ", ".join(
            f"{m} {r[m]['peak_kib'] / 1024:.1f} MiB ({r[m]['cpu']:.1f} s CPU)" for m in modes),
            flush=True)
    first = sizes[0]
    print(f"\nPeak RSS (MiB) per mode; (ratio = peak / peak at {first:,} pairs)")
    for m in modes:
        print(f"  {m:>13}: " + ", ".join(
            f"{n:,}: {results[n][m]['peak_kib'] / 1024:.1f} "
            f"({results[n][m]['peak_kib'] / results[first][m]['peak_kib']:.2f}x)" for n in sizes))
    if [m for m in MODES if m in modes] != ["baseline", "score_corpus", "scorer-loop"] + \
            (["compact"] if "compact" in modes else []):
        return 0

    first = sizes[0]
    mib = lambda n, m: results[n][m]["peak_kib"] / 1024  # noqa: E731
    print(f"\nPeak RSS (MiB); ratio = peak / peak at {first:,} pairs; net = peak - baseline")
    print(f"  {'pairs':>9} {'baseline':>9} {'score_corpus':>13} {'ratio':>6} {'net':>8} {'net B/pair':>11} "
          f"{'Scorer loop':>12} {'ratio':>6} {'net':>8} {'pairs/s':>9}")
    for n in sizes:
        base = mib(n, "baseline")
        sc, lp = mib(n, "score_corpus"), mib(n, "scorer-loop")
        rate = n / results[n]["score_corpus"]["cpu"] if results[n]["score_corpus"]["cpu"] else float("inf")
        print(f"  {n:>9,} {base:9.1f} {sc:13.1f} {sc / mib(first, 'score_corpus'):6.2f} {sc - base:8.1f} "
              f"{(sc - base) * 1048576 / n:11.0f} {lp:12.1f} {lp / mib(first, 'scorer-loop'):6.2f} "
              f"{lp - base:8.1f} {C.fmt_rate(rate):>9}")
    print("note: pairs/s = CPU time of the score_corpus child's scoring (time.process_time), pair generation included")
    return 0


if __name__ == "__main__":
    sys.exit(main())
