"""Speed of rouge2 against its peers, side by side, on the same SummEval pairs.

Usage:
  python benchmarks/bench_speed.py [--pairs N] [--passes P] [--cases a,b,...]
                                   [--perl PATH/ROUGE-1.5.5.pl] [--perl-pairs N]
                                   [--first-call-pairs N] [--shared PATH]

Pairs: SummEval (CNN/DailyMail), 100 documents x 16 systems, documents in file
order and systems sorted by name; the first ``--pairs`` (default 999).
``--corpus opinosis`` takes the one-reference cases' pairs from Opinosis
instead (each gold review summary against each other one of its topic),
``--corpus summeval-refs`` SummEval's references against each other.

Each case times every contender on the same pairs in alternating passes
(pass 1: A B C, pass 2: B C A, ...; one untimed warm-up pass first), and
reports the median and the minimum over passes of the CPU time of one run:
``time.process_time()`` for in-process contenders (it sums all threads of
this process), ``getrusage(RUSAGE_CHILDREN)`` for child processes.  An
in-process run that took less than ``--min-pass`` CPU seconds in the warm-up
is repeated back to back within each pass, and the pass time divided by the
count.  Wall time is never used: the machine is shared.
pairs/s = pairs / CPU seconds of one run.  "x" = rouge2 pairs/s / peer
pairs/s (= peer CPU / rouge2 CPU): above 1, rouge2 is faster.

Cases (``--cases`` takes their keys):
  r12l        ROUGE-1/2/L, no stemming, one reference
  r12l-stem   the same with stemming (different stemmers: rouge2 = ROUGE-1.5.5 -m)
  r12lsum     ROUGE-1/2/Lsum, summary-level (sentences on lines), one reference
  multiref    ROUGE-1/2/L against all 11 references, max-F over references
              (rouge2 multi_reference="max-f"; the peers' score_multi)
  su4-w       ROUGE-SU4 and ROUGE-W-1.2: rouge2 alone (+ the Perl script)
  perl-r12l   ROUGE-1/2/L against ROUGE-1.5.5.pl -n 2 (only with --perl)
  first-call  a fresh process: import + first call on 100 pairs
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# score_batch of rouge-score-rs uses every core unless told otherwise; this
# must be set before rouge_score_rs is imported.
os.environ["RAYON_NUM_THREADS"] = "1"

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C

import rouge2

try:
    from rouge_score import rouge_scorer as rs_py
except ImportError:
    rs_py = None
try:
    import rouge_score_rs as rs_rust
except ImportError:
    rs_rust = None

R2 = "rouge2"
PEER_COLUMNS = ["rouge-score", "rs.score", "rs.batch", "perl"]
MEASURES = ["rouge-1", "rouge-2", "rouge-l"]


@dataclass
class Contender:
    name: str  # one of R2 / PEER_COLUMNS (the summary column) ...
    label: str  # ... and what exactly is timed
    fn: object  # in-process: callable doing the work; child: callable returning CPU seconds
    child: bool = False
    times: list = field(default_factory=list)
    extra: list = field(default_factory=list)  # per-pass details a child reports
    reps: int = 1  # runs per timed pass (in-process only); times are per run

    def run(self) -> float:
        """CPU seconds of one run (the mean over ``reps`` back-to-back runs)."""
        if self.child:
            return self.fn(self)
        gc.collect()
        t0 = time.process_time()
        for _ in range(self.reps):
            self.fn()
        return (time.process_time() - t0) / self.reps


@dataclass
class Case:
    key: str
    title: str
    n: int
    contenders: list
    notes: list = field(default_factory=list)
    unit: str = "pairs/s"


# ------------------------------------------------------------- contenders


def rouge2_contender(pairs, measures, label=None, **options):
    def fn():
        rouge2.score_corpus(pairs, measures=measures, **options)

    opts = ", ".join(f"{k}={v!r}" for k, v in options.items())
    if label is None:
        label = f"rouge2.score_corpus({opts})" if opts else "rouge2.score_corpus"
    return Contender(R2, label, fn)


def peer_contenders(pairs, types, stem, multi=False):
    out = []
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    if rs_py is not None:
        if multi:
            def fn_py():
                sc = rs_py.RougeScorer(types, use_stemmer=stem)
                for c, r in pairs:
                    sc.score_multi(r, c)
            out.append(Contender("rouge-score", "rouge_score RougeScorer.score_multi loop", fn_py))
        else:
            def fn_py():
                sc = rs_py.RougeScorer(types, use_stemmer=stem)
                for c, r in pairs:
                    sc.score(r, c)
            out.append(Contender("rouge-score", "rouge_score RougeScorer.score loop", fn_py))
    if rs_rust is not None:
        if multi:
            def fn_rs():
                sc = rs_rust.RougeScorer(types, use_stemmer=stem)
                for c, r in pairs:
                    sc.score_multi(r, c)
            out.append(Contender("rs.score", "rouge_score_rs RougeScorer.score_multi loop", fn_rs))
        else:
            def fn_rs():
                sc = rs_rust.RougeScorer(types, use_stemmer=stem)
                for c, r in pairs:
                    sc.score(r, c)

            def fn_batch():
                rs_rust.RougeScorer(types, use_stemmer=stem).score_batch(refs, cands)
            out.append(Contender("rs.score", "rouge_score_rs RougeScorer.score loop", fn_rs))
            out.append(Contender("rs.batch", "rouge_score_rs RougeScorer.score_batch", fn_batch))
    return out


def perl_contender(perl: str, pairs, options, tmp: Path, tag: str):
    """ROUGE-1.5.5.pl on ``pairs`` (files written once, before any timing)."""
    root = tmp / tag
    (root / "p").mkdir(parents=True)
    (root / "m").mkdir()
    xml = ['<ROUGE-EVAL version="1.5.5">']
    for i, (cand, ref) in enumerate(pairs):
        (root / "p" / f"{i}.txt").write_text(cand + "\n", encoding="utf-8")
        (root / "m" / f"{i}.txt").write_text(ref + "\n", encoding="utf-8")
        xml.append(
            f'<EVAL ID="{i}"><PEER-ROOT>{root}/p</PEER-ROOT><MODEL-ROOT>{root}/m</MODEL-ROOT>'
            f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="S">{i}.txt</P></PEERS>'
            f'<MODELS><M ID="R">{i}.txt</M></MODELS></EVAL>'
        )
    xml.append("</ROUGE-EVAL>")
    (root / "settings.xml").write_text("\n".join(xml), encoding="utf-8")
    data = str(Path(perl).parent / "data")
    cmd = ["perl", perl, "-e", data, "-a", "-r", "1", *options, str(root / "settings.xml")]

    def fn(self):
        cpu, proc = C.run_child_cpu(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or "Average_R" not in proc.stdout:
            sys.exit(f"error: ROUGE-1.5.5.pl failed ({proc.returncode}): {proc.stderr.strip()[:500]}")
        return cpu

    shown = " ".join(["-a", "-r", "1", *options])
    return Contender("perl", f"ROUGE-1.5.5.pl {shown} (whole process)", fn, child=True)


# ---------------------------------------------------------- correctness


def count_differences(ours, theirs, mapping):
    """Pairs whose P, R or F differ at all, and beyond 1e-12."""
    exact = loose = 0
    for a, b in zip(ours, theirs):
        diff_exact = diff_loose = False
        for r2_name, peer_name in mapping.items():
            x, y = a[r2_name], b[peer_name]
            for u, v in ((x.precision, y.precision), (x.recall, y.recall), (x.fmeasure, y.fmeasure)):
                if u != v:
                    diff_exact = True
                    if abs(u - v) > 1e-12:
                        diff_loose = True
        exact += diff_exact
        loose += diff_loose
    return exact, loose


def correctness_notes(pairs, types, stem=False, multi=False, **options):
    notes = []
    mapping = dict(zip(MEASURES, types))
    ours = rouge2.score_corpus(pairs, measures=MEASURES, stem=stem, **options)
    if rs_py is not None:
        sc = rs_py.RougeScorer(types, use_stemmer=stem)
        theirs = [sc.score_multi(r, c) if multi else sc.score(r, c) for c, r in pairs]
        exact, loose = count_differences(ours, theirs, mapping)
        notes.append(f"check rouge2 vs rouge-score: {exact} of {len(pairs)} pairs differ in P/R/F "
                     f"({loose} by more than 1e-12)")
        if rs_rust is not None:
            sc2 = rs_rust.RougeScorer(types, use_stemmer=stem)
            other = [sc2.score_multi(r, c) if multi else sc2.score(r, c) for c, r in pairs]
            e2, _ = count_differences(
                [{m: o[t] for m, t in mapping.items()} for o in other], theirs, mapping)
            notes.append(f"check rouge-score-rs vs rouge-score: {e2} of {len(pairs)} pairs differ")
    return notes


# ---------------------------------------------------------- first call

CHILD = r"""
import json, sys, time
t0 = time.process_time()
with open(sys.argv[1], encoding="utf-8") as fh:
    pairs = [tuple(p) for p in json.load(fh)]
t1 = time.process_time()
{body}
t3 = time.process_time()
print("CHILD " + json.dumps({{"load": t1 - t0, "import": t2 - t1, "first": t3 - t2}}))
"""

CHILD_BODIES = {
    R2: ("import rouge2\n"
         "t2 = time.process_time()\n"
         "rouge2.score_corpus(pairs, measures=['rouge-1', 'rouge-2', 'rouge-l'])"),
    "rouge-score": ("from rouge_score import rouge_scorer\n"
                    "t2 = time.process_time()\n"
                    "sc = rouge_scorer.RougeScorer(['rouge1', 'rouge2', 'rougeL'])\n"
                    "[sc.score(r, c) for c, r in pairs]"),
    "rs.score": ("import rouge_score_rs\n"
                 "t2 = time.process_time()\n"
                 "sc = rouge_score_rs.RougeScorer(['rouge1', 'rouge2', 'rougeL'])\n"
                 "[sc.score(r, c) for c, r in pairs]"),
    "rs.batch": ("import rouge_score_rs\n"
                 "t2 = time.process_time()\n"
                 "sc = rouge_score_rs.RougeScorer(['rouge1', 'rouge2', 'rougeL'])\n"
                 "sc.score_batch([r for _, r in pairs], [c for c, _ in pairs])"),
    "python": "t2 = time.process_time()",
}


def first_call_case(pairs, tmp: Path) -> Case:
    data = tmp / "first_call_pairs.json"
    data.write_text(json.dumps(pairs), encoding="utf-8")
    available = {R2: True, "rouge-score": rs_py is not None,
                 "rs.score": rs_rust is not None, "rs.batch": rs_rust is not None, "python": True}
    labels = {R2: "python -c 'import rouge2; score_corpus'",
              "rouge-score": "python -c 'import rouge_score; .score loop'",
              "rs.score": "python -c 'import rouge_score_rs; .score loop'",
              "rs.batch": "python -c 'import rouge_score_rs; score_batch'",
              "python": "python -c 'load the pairs' (interpreter start-up)"}
    contenders = []
    for name, body in CHILD_BODIES.items():
        if not available[name]:
            continue
        cmd = [sys.executable, "-c", CHILD.format(body=body), str(data)]

        def fn(self, cmd=cmd):
            # cwd: a temp folder, so a source checkout in the current folder is not imported
            cpu, proc = C.run_child_cpu(cmd, capture_output=True, text=True, cwd=tmp,
                                        env=C.env_one_core())
            if proc.returncode != 0:
                sys.exit(f"error: first-call child failed: {proc.stderr.strip()[-800:]}")
            line = [x for x in proc.stdout.splitlines() if x.startswith("CHILD ")][-1]
            self.extra.append(json.loads(line[6:]))
            return cpu

        contenders.append(Contender(name, labels[name], fn, child=True))
    notes = ["CPU of the whole child (getrusage RUSAGE_CHILDREN): interpreter start-up, imports, "
             "reading the pairs (json), building the scorer and the first call",
             "'python' is the same child without any ROUGE import: the start-up floor"]
    return Case("first-call", f"fresh process: import + first call on {len(pairs)} pairs",
                len(pairs), contenders, notes, unit="s")


# ---------------------------------------------------------------- driver


def run_case(case: Case, passes: int, warmup: int, min_pass: float) -> None:
    cs = case.contenders
    for w in range(warmup):  # untimed: lazy imports, per-process caches
        for c in cs:
            t = c.run()
            c.extra.clear()
            if w == warmup - 1 and not c.child and t > 0:
                # short runs are repeated within a pass, so a pass is not one timer tick
                c.reps = max(1, math.ceil(min_pass / t))
    for p in range(passes):
        k = p % len(cs)
        for c in cs[k:] + cs[:k]:
            c.times.append(c.run())


def rate(case: Case, seconds: float) -> float:
    return case.n / seconds if seconds > 0 else float("inf")


def report_case(case: Case, passes: int) -> dict:
    print(f"\n[{case.key}] {case.title}: {case.n} pairs, {passes} passes")
    r2 = next((c for c in case.contenders if c.name == R2), None)
    r2_med = C.median(r2.times) if r2 else None
    r2_min = min(r2.times) if r2 else None
    head = f"  {'contender':<58} {'median s':>9} {'min s':>9} {'pairs/s med':>12} {'pairs/s max':>12} {'x med':>7} {'x min':>7}"
    print(head)
    cells = {}
    for c in case.contenders:
        med, mn = C.median(c.times), min(c.times)
        x_med = med / r2_med if r2_med else float("nan")
        x_min = mn / r2_min if r2_min else float("nan")
        label = c.label if c.reps == 1 else f"{c.label} [x{c.reps}/pass]"
        print(f"  {label:<58} {med:9.4f} {mn:9.4f} {C.fmt_rate(rate(case, med)):>12} "
              f"{C.fmt_rate(rate(case, mn)):>12} {x_med:7.2f} {x_min:7.2f}")
        if case.unit == "s":
            cells[c.name] = (f"{med:.3f}s", x_med)
        else:
            cells[c.name] = (C.fmt_rate(rate(case, med)), x_med)
        if c.extra:
            keys = c.extra[0].keys()
            parts = ", ".join(f"{k} {C.median([e[k] for e in c.extra]):.3f}s" for k in keys)
            print(f"  {'':<58} in the child (median): {parts}")
    for note in case.notes:
        print(f"  note: {note}")
    return cells


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=999, help="pairs per case (max 1600; default 999)")
    ap.add_argument("--passes", type=int, default=5, help="timed passes per contender (default 5)")
    ap.add_argument("--cases", default="all", help="comma-separated case keys (default: all)")
    ap.add_argument("--perl", default=os.environ.get("ROUGE155_ORACLE"),
                    help="path to ROUGE-1.5.5.pl: adds it to perl-r12l and su4-w")
    ap.add_argument("--perl-pairs", type=int, default=200,
                    help="pairs for the cases with the Perl script (default 200)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed passes first (default 1)")
    ap.add_argument("--min-pass", type=float, default=0.25,
                    help="in-process runs shorter than this (CPU s, from the warm-up) are repeated "
                         "back to back within a pass; the time is per run (default 0.25)")
    ap.add_argument("--first-call-pairs", type=int, default=100)
    ap.add_argument("--corpus", choices=("summeval", "opinosis", "summeval-refs"), default="summeval",
                    help="the pairs of the one-reference cases: SummEval (system summary, reference), "
                         "Opinosis (each gold summary against each other of its topic), or SummEval's "
                         "references against each other (default summeval)")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    if args.pairs < 1 or args.passes < 1:
        ap.error("--pairs and --passes must be at least 1")
    all_keys = ["r12l", "r12l-stem", "r12lsum", "multiref", "su4-w", "perl-r12l", "first-call"]
    keys = all_keys if args.cases == "all" else [k.strip() for k in args.cases.split(",") if k.strip()]
    bad = [k for k in keys if k not in all_keys]
    if bad:
        ap.error(f"unknown case {bad[0]!r}; cases: {', '.join(all_keys)}")
    if args.perl and not Path(args.perl).is_file():
        ap.error(f"--perl: no such file: {args.perl}")

    print("bench_speed: rouge2 against rouge-score and rouge-score-rs, one process, CPU time")
    C.print_versions(perl=args.perl)
    print(f"note: RAYON_NUM_THREADS={os.environ['RAYON_NUM_THREADS']} is set before rouge_score_rs is "
          "imported, so score_batch runs on one thread; CPU time sums all threads anyway")
    print("note: x = rouge2 pairs/s / peer pairs/s (= peer CPU / rouge2 CPU); above 1, rouge2 is faster")

    rows = C.summeval_rows(args.shared)
    if args.corpus == "opinosis":
        single = C.opinosis_pairs(args.shared, args.pairs)
    elif args.corpus == "summeval-refs":
        single = C.summeval_reference_pairs(rows, args.pairs)
    else:
        single = C.summeval_pairs(rows, args.pairs)
    print(f"corpus of the one-reference cases: {args.corpus}")
    if args.corpus != "summeval":  # texts of several lines: rouge-score's rougeL is the flat LCS
        MEASURES[2] = "rouge-l-flat"
    if len(single) < args.pairs:
        print(f"note: the corpus has {len(single)} pairs; using all of them")
    n = len(single)
    types = ["rouge1", "rouge2", "rougeL"]
    summary = []
    with tempfile.TemporaryDirectory(prefix="rouge2-bench-") as tmp:
        tmp = Path(tmp)
        cases = []
        for key in keys:
            if key == "r12l":
                case = Case(key, "ROUGE-1/2/L, no stemming, one reference", n,
                            [rouge2_contender(single, MEASURES)] + peer_contenders(single, types, False))
                case.notes += correctness_notes(single, types)
            elif key == "r12l-stem":
                case = Case(key, "ROUGE-1/2/L, stemming, one reference", n,
                            [rouge2_contender(single, MEASURES, stem=True)]
                            + peer_contenders(single, types, True))
                case.notes.append("not compared: rouge2 stems as ROUGE-1.5.5 -m, rouge-score with "
                                  "nltk's Porter (docs/differences.md)")
            elif key == "r12lsum":
                lines = [(c.replace(" . ", " .\n"), r.replace(" . ", " .\n")) for c, r in single]
                lsum = ["rouge1", "rouge2", "rougeLsum"]
                case = Case(key, "ROUGE-1/2/Lsum, summary-level (one sentence a line), one reference", n,
                            [rouge2_contender(lines, MEASURES)] + peer_contenders(lines, lsum, False))
                case.notes += correctness_notes(lines, lsum)
            elif key == "multiref":
                multi = C.summeval_pairs(rows, args.pairs, multi=True)
                nref = len(multi[0][1])
                case = Case(key, f"ROUGE-1/2/L, {nref} references, max-F over references", n,
                            [rouge2_contender(multi, MEASURES, multi_reference="max-f")]
                            + peer_contenders(multi, types, False, multi=True))
                case.notes += correctness_notes(multi, types, multi=True, multi_reference="max-f")
            elif key == "su4-w":
                su = ["rouge-su4", "rouge-w-1.2"]
                case = Case(key, "ROUGE-SU4 + ROUGE-W-1.2, one reference (the Python peers lack both)",
                            n, [rouge2_contender(single, su)])
                if args.perl:
                    sub = single[: args.perl_pairs]
                    case = Case(key, f"ROUGE-SU4 + ROUGE-W-1.2, one reference, first {len(sub)} pairs "
                                "(the Python peers lack both)", len(sub),
                                [rouge2_contender(sub, su),
                                 perl_contender(args.perl, sub, ["-x", "-2", "4", "-u", "-w", "1.2"],
                                                tmp, key)])
            elif key == "perl-r12l":
                if not args.perl:
                    print("\n[perl-r12l] skipped: give --perl PATH/ROUGE-1.5.5.pl")
                    continue
                sub = single[: args.perl_pairs]
                case = Case(key, f"ROUGE-1/2/L, one reference, first {len(sub)} pairs, vs ROUGE-1.5.5.pl",
                            len(sub), [rouge2_contender(sub, MEASURES),
                                       perl_contender(args.perl, sub, ["-n", "2"], tmp, key)])
            elif key == "first-call":
                case = first_call_case(C.summeval_pairs(rows, args.first_call_pairs), tmp)
            cases.append(case)
            run_case(case, args.passes, args.warmup, args.min_pass)
            summary.append((case, report_case(case, args.passes)))

    print("\nSummary: pairs/s from the median pass (first-call: median CPU seconds of the child); "
          "(x) = rouge2 / peer")
    print(f"  {'case':<11} {'pairs':>6} {'rouge2':>10}" + "".join(f" {p:>18}" for p in PEER_COLUMNS))
    for case, cells in summary:
        r2 = cells.get(R2, ("-", 0))[0]
        line = f"  {case.key:<11} {case.n:>6} {r2:>10}"
        for p in PEER_COLUMNS:
            if p in cells:
                v, x = cells[p]
                line += f" {v + f' ({x:.2f}x)':>18}"
            else:
                line += f" {'-':>18}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
