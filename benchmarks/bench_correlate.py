"""Time `rouge2 correlate` against the scoring run that produced its input (issue 19, item 6).

Usage:
  python benchmarks/bench_correlate.py [--passes P] [--resamples B] [--shared PATH]
                                       [--baseline PYTHON] [--baseline-passes Q] [--pure]

The workload of issue 19: SummEval (100 documents x 16 systems, one
reference, the published ROUGE-1.5.5 options of configs/summeval-correlation.yaml),
4 measures (ROUGE-1, 2, L, SU4) x 2 variants (plain, WordNet synonyms),
scored by `rouge2 run`; then `rouge2 correlate` on its output folder with the
expert relevance judgments: 3 levels (system, summary, global) x 4 measures x
3 scores x 2 variants, Pearson, Spearman and Kendall with 1,000 bootstrap
resamples (BOOT-BOTH).

Every figure is a child process (`python -m rouge2 ...`, the same Python as
this script); CPU = user + system time of the child (getrusage
RUSAGE_CHILDREN), medians over passes, the two commands alternating within
each pass (their order swapped every other pass).  The target: correlate's
CPU <= the scoring run's.

``--baseline PYTHON`` also times `correlate` under another interpreter whose
rouge2 is the version to compare with (e.g. a checkout of the previous
release with its own venv), ``--baseline-passes`` times (default 1: it is
slow), and checks that both print the same JSON.  ``--pure`` adds
correlate with ROUGE2_PURE_PYTHON=1 (the pure-Python definition, which the
C kernels reproduce bit for bit) and checks that its JSON is the same.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from _common import DEFAULT_SHARED, SUMMEVAL, median, print_versions, run_child_cpu

CONFIG = """\
version: 1
name: bench-correlate
inputs: {{format: summeval, path: {data}, sentences: none}}
preprocess: {{stem: true}}
measures: [rouge-1, rouge-2, rouge-l, rouge-su4]
multi_reference: pooled
alpha: 0.5
rounding: rouge155
variants:
  plain: {{}}
  wordnet: {{preprocess: {{synonyms: true}}}}
outputs: {{dir: {out}, console: false}}
"""


def score_cmd(cfg: Path) -> list[str]:
    return [sys.executable, "-m", "rouge2", "run", str(cfg), "-q", "--progress", "off", "--overwrite"]


def correlate_cmd(python: str, out: Path, data: Path, resamples: int) -> list[str]:
    return [python, "-m", "rouge2", "correlate", str(out), "--judgments", str(data), "--dimension", "relevance",
            "--level", "system", "--level", "summary", "--level", "global", "--resamples", str(resamples),
            "--json"]


def timed(cmd: list[str], env: dict | None = None, progress_flag: bool = True) -> tuple[float, str]:
    if progress_flag and "correlate" in cmd:
        cmd = [*cmd, "--progress", "off"]
    cpu, proc = run_child_cpu(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} failed:\n{proc.stderr}")
    return cpu, proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--shared", default=DEFAULT_SHARED)
    ap.add_argument("--baseline", metavar="PYTHON", help="an interpreter whose rouge2 is the version before")
    ap.add_argument("--baseline-passes", type=int, default=1)
    ap.add_argument("--pure", action="store_true", help="also time the pure-Python path (slow)")
    args = ap.parse_args()
    data = Path(args.shared) / SUMMEVAL
    if not data.is_file():
        sys.exit(f"error: SummEval not found at {data} (give --shared PATH or set ROUGE2_SHARED)")
    print_versions(peers=False)
    print(f"load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory() as tmp:
        out, cfg = Path(tmp) / "out", Path(tmp) / "bench.yaml"
        cfg.write_text(CONFIG.format(data=data, out=out))
        scoring, correlate = [], []
        reference = None
        for p in range(args.passes):
            order = ("score", "correlate") if p % 2 == 0 else ("correlate", "score")
            if p == 0:
                timed(score_cmd(cfg))  # the output folder must exist before correlate's first pass
            for what in order:
                if what == "score":
                    scoring.append(timed(score_cmd(cfg))[0])
                else:
                    cpu, text = timed(correlate_cmd(sys.executable, out, data, args.resamples))
                    correlate.append(cpu)
                    if reference is not None and text != reference:
                        sys.exit("error: correlate printed different JSON in two passes")
                    reference = text
        s, c = median(scoring), median(correlate)
        print(f"\nscoring run (rouge2 run, 4 measures x 2 variants): median CPU {s:.2f} s "
              f"({', '.join(f'{x:.2f}' for x in scoring)})")
        print(f"rouge2 correlate (3 levels x 4 measures x 3 scores x 2 variants, {args.resamples} resamples): "
              f"median CPU {c:.2f} s ({', '.join(f'{x:.2f}' for x in correlate)})")
        print(f"correlate / scoring = {c / s:.2f}  (target <= 1)")
        if args.pure:
            env = dict(os.environ, ROUGE2_PURE_PYTHON="1")
            cpu, text = timed(correlate_cmd(sys.executable, out, data, args.resamples), env=env)
            print(f"pure Python (ROUGE2_PURE_PYTHON=1): CPU {cpu:.2f} s; same JSON as C: {text == reference}")
        if args.baseline:
            runs = []
            for _ in range(args.baseline_passes):
                cpu, text = timed(correlate_cmd(args.baseline, out, data, args.resamples),
                                  progress_flag=False)
                runs.append(cpu)
            b = median(runs)
            print(f"baseline ({args.baseline}): median CPU {b:.2f} s ({', '.join(f'{x:.2f}' for x in runs)}); "
                  f"{b / c:.1f}x the new CPU, {b / s:.1f}x the scoring run; same JSON: {text == reference}")
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
