"""Long texts: summary-level ROUGE-L and the drop-in's rougeLsum against
sentence-level ROUGE-L on the same pair of 32k-token texts.

Usage:
  python benchmarks/bench_long.py [--tokens 32000] [--passes 5] [--shared PATH]

The pair: the candidate is SummEval system-summary sentences and the
reference SummEval reference sentences (split at " . ", one sentence a line),
each taken in file order until it holds ``--tokens`` ROUGE-1.5.5 tokens.  Timed, CPU time
(``time.process_time``), alternating passes, median:

  sentence-level   rouge2.score(c, r, ["rouge-l-flat"]): the LCS of the whole token streams
  summary-level    rouge2.score(c, r, ["rouge-l"]): ROUGE-1.5.5's union LCS, sentence by sentence
  rougeLsum        rouge2.compat.rouge_score.RougeScorer(["rougeLsum"]).score(r, c)
  sentence, drop-in  the same scorer's rougeL (for reference)

Each call analyses the texts afresh (the analysis cache is cleared).  The
summary-level results are also computed with the pure-Python kernels
(rouge2.kernels.python.union_lcs_hit) on the same id lists and checked equal.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C

import rouge2
from rouge2.compat.rouge_score import rouge_scorer


def long_text(sentences, tokens: int) -> str:
    """Sentences, one a line, until they hold ``tokens`` ROUGE-1.5.5 tokens."""
    from rouge2.kernels import rouge155_tokens

    out, n = [], 0
    for s in sentences:
        out.append(s)
        n += len(rouge155_tokens(s))
        if n >= tokens:
            break
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=32000)
    ap.add_argument("--passes", type=int, default=5)
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    rows = C.summeval_rows(args.shared)
    sys_sents = [x.strip() for row in rows for name in sorted(row["sys_summs"])
                 for x in row["sys_summs"][name]["sys_summ"].split(" . ") if x.strip()]
    ref_sents = [x.strip() for row in rows for ref in row["ref_summs"] for x in ref.split(" . ") if x.strip()]
    cand, ref = long_text(sys_sents, args.tokens), long_text(ref_sents, args.tokens)
    scorer = rouge2.Scorer(["rouge-l", "rouge-l-flat"])
    a_c, a_r = scorer.analyze(cand), scorer.analyze(ref)
    print("bench_long: one pair of long texts, CPU time, alternating passes")
    C.print_versions(peers=False)
    print(f"candidate: {len(a_c.tokens):,} tokens in {len(a_c.sentences):,} lines; "
          f"reference: {len(a_r.tokens):,} tokens in {len(a_r.sentences):,} lines")
    drop = rouge_scorer.RougeScorer(["rougeL", "rougeLsum"])

    def ours(measure):
        def fn():
            scorer.analyzer.clear_cache()
            return rouge2.Scorer([measure]).score(cand, ref)[measure]
        return fn

    cases = {
        "sentence-level (rouge-l-flat)": ours("rouge-l-flat"),
        "summary-level (rouge-l)": ours("rouge-l"),
        "drop-in rougeLsum": lambda: rouge_scorer.RougeScorer(["rougeLsum"]).score(ref, cand)["rougeLsum"],
        "drop-in rougeL": lambda: rouge_scorer.RougeScorer(["rougeL"]).score(ref, cand)["rougeL"],
    }
    for fn in cases.values():
        fn()  # warm: imports, vocabularies
    times: dict[str, list[float]] = {k: [] for k in cases}
    names = list(cases)
    for p in range(args.passes):
        for name in names[p % len(names):] + names[:p % len(names)]:
            t0 = time.process_time()
            cases[name]()
            times[name].append(time.process_time() - t0)
    base = statistics.median(times["sentence-level (rouge-l-flat)"])
    for name in names:
        med = statistics.median(times[name])
        print(f"  {name:<31} {med * 1e3:9.1f} ms  ({med / base:5.2f}x sentence-level)")
    # the same numbers as the pure-Python definition
    from rouge2.kernels import python as py
    from rouge2.measures.ngram import sentence_ids, token_ids

    got = scorer.score(cand, ref)["rouge-l"]
    hit = py.union_lcs_hit(token_ids(a_c), sentence_ids(a_c), token_ids(a_r), sentence_ids(a_r))
    print(f"summary-level hit {hit:,} (pure-Python definition), recall {got.recall!r}: "
          f"{'equal' if got.recall == hit / len(a_r.tokens) else 'DIFFERENT'}")
    d = drop.score(ref, cand)
    print(f"drop-in rougeLsum F {d['rougeLsum'].fmeasure!r}, rougeL F {d['rougeL'].fmeasure!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
