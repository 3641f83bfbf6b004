"""Start-up and the rouge-score drop-in, side by side with rouge-score-rs and rouge-score.

Usage:
  python benchmarks/bench_startup.py [--passes P] [--warmup W] [--cases import,first-call,cli,dropin]
                                     [--pairs N] [--baseline SRC] [--shared PATH]

Cases (``--cases`` takes their keys):
  import      CPU time of a fresh ``python -c "import X"``, and of a bare
              ``python -c pass`` (the floor): rouge2, rouge2.compat.rouge_score,
              rouge_score_rs, rouge_score.rouge_scorer
  first-call  a fresh process that imports and scores one SummEval pair:
              rouge2.score, the drop-in's RougeScorer.score, rouge-score-rs,
              rouge-score; without and with stemming
  cli         ``python -m rouge2 --help`` and ``python -m rouge2 score`` on 10
              SummEval pairs (line-aligned files, default settings)
  dropin      in one process, on the first ``--pairs`` SummEval pairs: the
              drop-in against rouge-score-rs and rouge-score, as a
              ``RougeScorer.score`` loop, as ``score_batch``, and through HF
              evaluate's ``compute`` (rouge2.compat.evaluate; for the peers
              the loop the metric runs); every pair's scores are checked
              equal to rouge-score's first

Child processes (import, first-call, cli) are timed with
``getrusage(RUSAGE_CHILDREN)`` (user + system CPU of the whole process).
They run with compiled bytecode as an installed package has it: the cache
goes to a temporary folder (``PYTHONPYCACHEPREFIX``, so the checkout stays
clean) and ``PYTHONDONTWRITEBYTECODE`` is removed from their environment; an
untimed warm-up pass fills it.  ``RAYON_NUM_THREADS=1`` for every child and
for this process (rouge-score-rs on one thread).

``--baseline SRC`` adds, to the child cases, the same rouge2 contenders run
from another source tree (``PYTHONPATH=SRC``; e.g. ``git archive main | tar
-x -C /tmp/main`` plus its built ``_speedups`` extension), for a before/after
in the same run.

Every contender runs once per pass; the order rotates from pass to pass.
The median and the minimum over passes are printed; "+bare" is a child's
median minus the bare interpreter's median, "x" is the peer's median over
rouge2's (above 1, rouge2 is faster).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ["RAYON_NUM_THREADS"] = "1"  # before rouge_score_rs is imported

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C

from rouge2.compat import evaluate as r2_evaluate
from rouge2.compat.rouge_score import rouge_scorer as r2_scorer

try:
    from rouge_score import rouge_scorer as rs_py
except ImportError:
    rs_py = None
try:
    import rouge_score_rs as rs_rust
except ImportError:
    rs_rust = None

TYPES = ["rouge1", "rouge2", "rougeL"]
HF_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]  # evaluate's default rouge_types


@dataclass
class Contender:
    label: str
    run: object  # () -> CPU seconds of one run
    times: list = field(default_factory=list)


# ------------------------------------------------------------------ children


def child_env(tmp: Path, pythonpath: str | None = None) -> dict:
    env = C.env_one_core()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    env.pop("PYTHONPATH", None)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return env


def child(label: str, argv: list[str], tmp: Path, pythonpath: str | None = None) -> Contender:
    env = child_env(tmp, pythonpath)

    def run() -> float:
        cpu, proc = C.run_child_cpu(argv, capture_output=True, text=True, cwd=tmp, env=env)
        if proc.returncode != 0:
            sys.exit(f"error: {label} failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
        return cpu

    return Contender(label, run)


def code(label: str, source: str, tmp: Path, pythonpath: str | None = None) -> Contender:
    return child(label, [sys.executable, "-c", source], tmp, pythonpath)


def import_case(tmp: Path, baseline: str | None) -> list[Contender]:
    out = [code("python -c pass (bare interpreter)", "pass", tmp),
           code("import rouge2", "import rouge2", tmp),
           code("import rouge2.compat.rouge_score", "import rouge2.compat.rouge_score", tmp)]
    if baseline:
        out += [code("import rouge2 (baseline)", "import rouge2", tmp, baseline),
                code("import rouge2.compat.rouge_score (baseline)", "import rouge2.compat.rouge_score", tmp,
                     baseline)]
    if rs_rust is not None:
        out.append(code("import rouge_score_rs", "import rouge_score_rs", tmp))
    if rs_py is not None:
        out.append(code("import rouge_score.rouge_scorer", "from rouge_score import rouge_scorer", tmp))
    return out


def first_call_case(pair, tmp: Path, baseline: str | None) -> list[Contender]:
    cand, ref = pair
    data = tmp / "pair.txt"
    data.write_text(ref + "\0" + cand, encoding="utf-8")
    read = f"ref, cand = open({str(data)!r}, encoding='utf-8').read().split('\\0')\n"
    r2 = read + "import rouge2\nrouge2.score(cand, ref, ['rouge-1', 'rouge-2', 'rouge-l']{stem})"
    dropin = read + ("from rouge2.compat.rouge_score import rouge_scorer\n"
                     "rouge_scorer.RougeScorer(['rouge1', 'rouge2', 'rougeL'], use_stemmer={s}).score(ref, cand)")
    rust = read + ("import rouge_score_rs\n"
                   "rouge_score_rs.RougeScorer(['rouge1', 'rouge2', 'rougeL'], use_stemmer={s}).score(ref, cand)")
    google = read + ("from rouge_score import rouge_scorer\n"
                     "rouge_scorer.RougeScorer(['rouge1', 'rouge2', 'rougeL'], use_stemmer={s}).score(ref, cand)")
    out = [code("python: read the pair (bare interpreter)", read, tmp),
           code("rouge2.score", r2.format(stem=""), tmp)]
    if baseline:
        out.append(code("rouge2.score (baseline)", r2.format(stem=""), tmp, baseline))
    for s in (False, True):
        tag = ", use_stemmer=True" if s else ""
        out.append(code(f"drop-in RougeScorer.score{tag}", dropin.format(s=s), tmp))
        if baseline:
            out.append(code(f"drop-in RougeScorer.score{tag} (baseline)", dropin.format(s=s), tmp, baseline))
        if rs_rust is not None:
            out.append(code(f"rouge_score_rs .score{tag}", rust.format(s=s), tmp))
        if rs_py is not None:
            out.append(code(f"rouge_score .score{tag}", google.format(s=s), tmp))
    return out


def cli_case(pairs, tmp: Path, baseline: str | None) -> list[Contender]:
    refs, preds = tmp / "refs.txt", tmp / "preds.txt"
    refs.write_text("".join(" ".join(r.split()) + "\n" for _, r in pairs), encoding="utf-8")
    preds.write_text("".join(" ".join(c.split()) + "\n" for c, _ in pairs), encoding="utf-8")
    score = [sys.executable, "-m", "rouge2", "score", "-r", str(refs), "-i", str(preds)]
    helps = [sys.executable, "-m", "rouge2", "--help"]
    out = [child("python -c pass (bare interpreter)", [sys.executable, "-c", "pass"], tmp),
           child("rouge2 --help", helps, tmp),
           child(f"rouge2 score ({len(pairs)} pairs)", score, tmp)]
    if baseline:
        out += [child("rouge2 --help (baseline)", helps, tmp, baseline),
                child(f"rouge2 score ({len(pairs)} pairs) (baseline)", score, tmp, baseline)]
    return out


# ------------------------------------------------------------------ in process


def timed(fn, reps: int):
    def run() -> float:
        gc.collect()
        t0 = time.process_time()
        for _ in range(reps):
            fn()
        return (time.process_time() - t0) / reps

    return run


def dropin_contenders(pairs, types, stem, reps):
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]

    def loop(module):
        def fn():
            sc = module.RougeScorer(types, use_stemmer=stem)
            for c, r in pairs:
                sc.score(r, c)
        return fn

    def batch(module):
        return lambda: module.RougeScorer(types, use_stemmer=stem).score_batch(refs, cands)

    out = [Contender("rouge2 drop-in RougeScorer.score loop", timed(loop(r2_scorer), reps)),
           Contender("rouge2 drop-in RougeScorer.score_batch", timed(batch(r2_scorer), reps))]
    if rs_rust is not None:
        out += [Contender("rouge_score_rs RougeScorer.score loop", timed(loop(rs_rust), reps)),
                Contender("rouge_score_rs RougeScorer.score_batch", timed(batch(rs_rust), reps))]
    if rs_py is not None:
        out.append(Contender("rouge_score RougeScorer.score loop", timed(loop(rs_py), max(1, reps // 20))))
    return out


def hf_contenders(pairs, reps):
    """evaluate's rouge metric with use_aggregator=False: per-prediction F of the four default types."""
    cands = [c for c, _ in pairs]
    refs = [r for _, r in pairs]

    def ours():
        r2_evaluate.compute(predictions=cands, references=refs, use_aggregator=False)

    def peer(module):
        def fn():  # what the metric does: one RougeScorer, score per pair, the F values by type
            sc = module.RougeScorer(HF_TYPES, use_stemmer=False)
            scores = [sc.score(r, c) for c, r in pairs]
            return {t: [s[t].fmeasure for s in scores] for t in HF_TYPES}
        return fn

    out = [Contender("rouge2.compat.evaluate.compute(use_aggregator=False)", timed(ours, reps))]
    if rs_rust is not None:
        out.append(Contender("rouge_score_rs, the metric's loop", timed(peer(rs_rust), reps)))
    if rs_py is not None:
        out.append(Contender("rouge_score, the metric's loop (what evaluate runs)",
                             timed(peer(rs_py), max(1, reps // 20))))
    return out


def check_equal(pairs, types, stem) -> str:
    if rs_py is None:
        return "not checked (rouge-score not installed)"
    ours = r2_scorer.RougeScorer(types, use_stemmer=stem)
    theirs = rs_py.RougeScorer(types, use_stemmer=stem)
    bad = sum(1 for c, r in pairs if ours.score(r, c) != theirs.score(r, c))
    note = f"drop-in vs rouge-score: {bad} of {len(pairs)} pairs differ"
    if rs_rust is not None:
        other = rs_rust.RougeScorer(types, use_stemmer=stem)
        diff = 0
        for c, r in pairs:
            a, b = other.score(r, c), theirs.score(r, c)
            diff += any(tuple(a[t]) != tuple(b[t]) for t in types)
        note += f"; rouge-score-rs vs rouge-score: {diff} differ"
    return note


# ------------------------------------------------------------------ driver


def run_passes(contenders, passes: int, warmup: int = 1) -> None:
    for _ in range(warmup):
        for c in contenders:
            c.run()
    for p in range(passes):
        k = p % len(contenders)
        for c in contenders[k:] + contenders[:k]:
            c.times.append(c.run())


def report(title: str, contenders, unit: str, n: int = 0, bare: bool = False, notes=()) -> None:
    print(f"\n[{title}]")
    base = C.median(contenders[0].times) if bare else None
    ref = None if bare else C.median(contenders[0].times)
    for c in contenders:
        med, mn = C.median(c.times), min(c.times)
        line = f"  {c.label:<58} median {med * 1000:8.1f} ms  min {mn * 1000:8.1f} ms"
        if base is not None:
            line += f"  +bare {(med - base) * 1000:7.1f} ms"
        if n:
            line += f"  {C.fmt_rate(n / med):>9} pairs/s"
        if ref is not None and c is not contenders[0]:
            line += f"  x {med / ref:5.2f}"
        print(line)
    for note in notes:
        print(f"  note: {note}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=15, help="timed passes (default 15)")
    ap.add_argument("--warmup", type=int, default=1,
                    help="untimed passes first (default 1: it also writes the children's bytecode cache)")
    ap.add_argument("--cases", default="import,first-call,cli,dropin")
    ap.add_argument("--pairs", type=int, default=999, help="SummEval pairs of the dropin case (default 999)")
    ap.add_argument("--min-pass", type=float, default=0.2,
                    help="in-process runs are repeated to last about this many CPU seconds (default 0.2)")
    ap.add_argument("--baseline", help="another rouge2 source tree, timed beside this one in the child cases")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    keys = [k.strip() for k in args.cases.split(",") if k.strip()]
    bad = [k for k in keys if k not in ("import", "first-call", "cli", "dropin")]
    if bad or args.passes < 1 or args.pairs < 1:
        ap.error(f"bad --cases {bad}" if bad else "--passes and --pairs must be at least 1")
    if args.baseline and not (Path(args.baseline) / "rouge2" / "__init__.py").is_file():
        ap.error(f"--baseline: no rouge2 package in {args.baseline}")

    print("bench_startup: start-up and the rouge-score drop-in, CPU time, alternating passes")
    C.print_versions()
    print(f"note: RAYON_NUM_THREADS={os.environ['RAYON_NUM_THREADS']} (rouge-score-rs on one thread)")
    if args.baseline:
        print(f"baseline rouge2 tree: {args.baseline}")
    rows = C.summeval_rows(args.shared)
    pairs = C.summeval_pairs(rows, args.pairs)
    with tempfile.TemporaryDirectory(prefix="rouge2-startup-") as tmp:
        tmp = Path(tmp)
        if "import" in keys:
            cs = import_case(tmp, args.baseline)
            run_passes(cs, args.passes, args.warmup)
            report("import: CPU of python -c 'import X'", cs, "ms", bare=True)
        if "first-call" in keys:
            cs = first_call_case(pairs[0], tmp, args.baseline)
            run_passes(cs, args.passes, args.warmup)
            report("first-call: a fresh process imports and scores one pair (R1/R2/L)", cs, "ms", bare=True)
        if "cli" in keys:
            cs = cli_case(pairs[:10], tmp, args.baseline)
            run_passes(cs, args.passes, args.warmup)
            report("cli: python -m rouge2 (whole process)", cs, "ms", bare=True)
    if "dropin" in keys:
        lines = [(c.replace(" . ", " .\n"), r.replace(" . ", " .\n")) for c, r in pairs]
        for title, cs_pairs, types, stem in (
            ("dropin r12l: R1/R2/L, no stemming", pairs, TYPES, False),
            ("dropin r12l-stem: R1/R2/L, use_stemmer=True", pairs, TYPES, True),
            ("dropin r12lsum: R1/R2/Lsum, one sentence a line", lines, ["rouge1", "rouge2", "rougeLsum"], False),
        ):
            note = check_equal(cs_pairs, types, stem)
            probe = timed(lambda types=types, stem=stem, cs_pairs=cs_pairs: r2_scorer.RougeScorer(
                types, use_stemmer=stem).score_batch([r for _, r in cs_pairs], [c for c, _ in cs_pairs]), 1)
            reps = max(1, round(args.min_pass / max(probe(), 1e-4)))
            cs = dropin_contenders(cs_pairs, types, stem, reps)
            run_passes(cs, args.passes, args.warmup)
            report(f"{title}, {len(cs_pairs)} pairs", cs, "ms", n=len(cs_pairs), notes=[note])
        note = check_equal(lines, HF_TYPES, False)
        reps = max(1, round(args.min_pass / max(timed(lambda: r2_evaluate.compute(
            predictions=[c for c, _ in lines], references=[r for _, r in lines], use_aggregator=False), 1)(), 1e-4)))
        cs = hf_contenders(lines, reps)
        run_passes(cs, args.passes, args.warmup)
        report(f"dropin hf-evaluate: compute(use_aggregator=False), rouge1/2/L/Lsum, {len(lines)} pairs", cs,
               "ms", n=len(lines), notes=[note])


if __name__ == "__main__":
    main()
