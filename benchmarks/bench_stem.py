"""ROUGE-1.5.5's -m stemmer: the C kernel against the Python definition.

usage: python benchmarks/bench_stem.py [--passes N] [--shared PATH]

Every token of SummEval (sources, references and system summaries, the
ROUGE-1.5.5 tokenizer) is stemmed as the scorer stems it: tokens of 4+
characters.  Cases, each timed in alternating passes (CPU time, this
process), median pass reported:

  distinct    each distinct token once, no memo: rouge155_stem_uncached
              (Python) against a fresh C Rouge155Stemmer's stem_many
  all-tokens  every token with a fresh memo: kernels.python.MemoStemmer
              against the C Rouge155Stemmer (stem_many, min_length 4)
  first-call  a fresh process: import rouge2.analysis.stem and stem one
              word (the exception table is read on the first new word),
              with the C kernels and with ROUGE2_PURE_PYTHON=1; CPU of the
              whole child, and of the import and the first call alone

The stems are checked equal before timing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C

CHILD = r"""
import json, time
t0 = time.process_time()
from rouge2.analysis.stem import rouge155_stem
t1 = time.process_time()
rouge155_stem("generalizations")
t2 = time.process_time()
print("CHILD " + json.dumps({"import": t1 - t0, "first": t2 - t1}))
"""


def tokens_of(rows, tokenize):
    out = []
    for row in rows:
        texts = [row["src"], *row["ref_summs"], *(s["sys_summ"] for s in row["sys_summs"].values())]
        for text in texts:
            out.extend(tokenize(text))
    return out


def timed(fn) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def alternate(fns: dict, passes: int) -> dict:
    times = {k: [] for k in fns}
    for _ in range(passes):
        for k, fn in fns.items():
            times[k].append(timed(fn))
    return {k: C.median(v) for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--passes", type=int, default=7)
    ap.add_argument("--first-call-passes", type=int, default=5)
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args()

    from rouge2 import kernels
    from rouge2.analysis.stem import exception_table, rouge155_stem_uncached
    from rouge2.kernels import python as py_kernels

    print("bench_stem: ROUGE-1.5.5 -m stemming, C kernel vs the Python definition, CPU time")
    C.print_versions(peers=False)
    try:
        from rouge2.kernels import _speedups
    except ImportError:
        sys.exit("error: rouge2.kernels._speedups is not built; nothing to compare")

    rows = C.summeval_rows(args.shared)
    tokens = tokens_of(rows, kernels.rouge155_tokens)
    distinct = sorted({t for t in tokens if len(t) >= 4})
    exception_table()  # read once, outside the timings
    print(f"SummEval: {len(tokens):,} tokens, {len(distinct):,} distinct of 4+ characters")

    def c_stemmer():
        return _speedups.Rouge155Stemmer(exception_table(), rouge155_stem_uncached)

    def py_stemmer():
        return py_kernels.MemoStemmer(exception_table(), rouge155_stem_uncached)

    want = [rouge155_stem_uncached(t) for t in distinct]
    assert c_stemmer().stem_many(distinct) == want, "C and Python stems differ"
    assert c_stemmer().stem_many(tokens, 4) == py_stemmer().stem_many(tokens, 4), "C and Python stems differ"
    print("check: C and Python stems identical on all distinct words and all tokens")

    cases = {
        "distinct": ({"python": lambda: [rouge155_stem_uncached(t) for t in distinct],
                      "c": lambda: c_stemmer().stem_many(distinct)}, len(distinct), "words"),
        "all-tokens": ({"python": lambda: py_stemmer().stem_many(tokens, 4),
                        "c": lambda: c_stemmer().stem_many(tokens, 4)}, len(tokens), "tokens"),
    }
    print(f"\n{'case':<11} {'python s':>9} {'C s':>9} {'python/s':>12} {'C/s':>12} {'C speed-up':>10}")
    for name, (fns, count, unit) in cases.items():
        med = alternate(fns, args.passes)
        print(f"{name:<11} {med['python']:>9.4f} {med['c']:>9.4f} {C.fmt_rate(count / med['python']):>12} "
              f"{C.fmt_rate(count / med['c']):>12} {med['python'] / med['c']:>9.1f}x")
    print(f"(rates in {cases['distinct'][2]} or {cases['all-tokens'][2]} per CPU second; median of "
          f"{args.passes} alternating passes)")

    env_c = {k: v for k, v in os.environ.items() if k != "ROUGE2_PURE_PYTHON"}
    env_py = dict(env_c, ROUGE2_PURE_PYTHON="1")
    runs: dict[str, list] = {"c": [], "python": []}
    for _ in range(args.first_call_passes):
        for label, env in (("c", env_c), ("python", env_py)):
            cpu, proc = C.run_child_cpu([sys.executable, "-c", CHILD], capture_output=True, text=True,
                                        env=env, cwd=str(C.REPO))
            if proc.returncode != 0:
                sys.exit(f"error: first-call child failed: {proc.stderr.strip()[-800:]}")
            line = [x for x in proc.stdout.splitlines() if x.startswith("CHILD ")][-1]
            runs[label].append((cpu, json.loads(line[6:])))
    print(f"\nfirst-call (fresh process; median of {args.first_call_passes}):")
    for label, rs in runs.items():
        print(f"  {label:<7} child {C.median([r[0] for r in rs]):.3f} s, "
              f"import rouge2.analysis.stem {C.median([r[1]['import'] for r in rs]):.4f} s, "
              f"first rouge155_stem call {C.median([r[1]['first'] for r in rs]) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
