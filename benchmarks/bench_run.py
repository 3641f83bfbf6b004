"""Time `rouge2 run` on SummEval: --jobs 1 against --jobs N, and the statistics' share.

Usage:
  python benchmarks/bench_run.py [--jobs N] [--passes P] [--docs D] [--systems S]
                                 [--resamples B] [--test-resamples T] [--shared PATH]

Input: SummEval as a JSONL file (task, system, candidate, references): 100
documents x 16 systems, each system summary against the document's 11
references, ROUGE-1/2/L, multi_reference "average" (the run default),
bootstrap intervals with 1000 resamples and one paired approximate-
randomization test (10,000 resamples, the config default) between the first
two systems.  The config and the JSONL are written to a temp folder.

Every figure is a `rouge2 run -q --progress off` child process (the same
Python as this script, ``python -m rouge2``).  CPU = user + system time of
the child and of its own worker processes (getrusage RUSAGE_CHILDREN: the
workers are reaped by the child, so their time is included); wall =
time.perf_counter around the child.  Variants, timed in alternating passes:

  full, --jobs 1        bootstrap + test
  full, --jobs N
  no stats, --jobs 1    bootstrap off, compare off
  bootstrap, --jobs 1   bootstrap on, compare off
  test, --jobs 1        bootstrap off, compare on

The statistics' share is measured from outside by difference: (full - no
stats) / full on the median CPU time, and likewise bootstrap alone
(bootstrap - no stats) and the test alone (test - no stats).  Medians and
minima over passes; wall time is printed for the --jobs comparison only,
since the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402


def write_inputs(rows, folder: Path, systems: int):
    names = sorted(rows[0]["sys_summs"])[:systems]
    path = folder / "summeval_run.jsonl"
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            for name in names:
                fh.write(json.dumps({"task": row["doc_id"], "system": name,
                                     "candidate": row["sys_summs"][name]["sys_summ"],
                                     "references": row["ref_summs"]}) + "\n")
                n += 1
    return path, names, n


def write_config(folder: Path, name: str, data: Path, systems, bootstrap: bool, compare: bool,
                 resamples: int, test_resamples: int) -> Path:
    lines = [
        "version: 1",
        f"name: bench-{name}",
        "inputs:",
        "  format: jsonl",
        f"  path: {json.dumps(str(data))}",
        "measures: [rouge-1, rouge-2, rouge-l]",
    ]
    if bootstrap:
        lines += ["bootstrap:", f"  resamples: {resamples}", "  seed: 0"]
    if compare:
        lines += ["compare:", f"  pairs: [[{systems[0]}, {systems[1]}]]",
                  "  test: approximate-randomization", f"  resamples: {test_resamples}", "  seed: 0"]
    lines += ["outputs:", f"  dir: {json.dumps(str(folder / ('out-' + name)))}", "  console: false"]
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="N for the --jobs N run (default: CPU count)")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--docs", type=int, default=100)
    ap.add_argument("--systems", type=int, default=16)
    ap.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    ap.add_argument("--test-resamples", type=int, default=10000,
                    help="approximate-randomization resamples (default 10000)")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    if args.systems < 2 or args.docs < 1 or args.passes < 1 or args.jobs < 1:
        ap.error("need --systems >= 2, --docs >= 1, --passes >= 1, --jobs >= 1")

    print("bench_run: `rouge2 run` on SummEval, CPU (child + its workers) and wall time")
    C.print_versions(peers=False)
    rows = C.summeval_rows(args.shared)[: args.docs]
    with tempfile.TemporaryDirectory(prefix="rouge2-bench-run-") as tmp:
        tmp = Path(tmp)
        data, systems, n = write_inputs(rows, tmp, args.systems)
        nref = len(rows[0]["ref_summs"])
        print(f"input: {len(rows)} documents x {len(systems)} systems = {n} summaries, {nref} references each; "
              f"ROUGE-1/2/L; bootstrap {args.resamples} resamples; approximate randomization "
              f"{args.test_resamples} resamples on {systems[0]} vs {systems[1]}")
        cfg = {
            "full": write_config(tmp, "full", data, systems, True, True, args.resamples, args.test_resamples),
            "none": write_config(tmp, "none", data, systems, False, False, args.resamples, args.test_resamples),
            "boot": write_config(tmp, "boot", data, systems, True, False, args.resamples, args.test_resamples),
            "test": write_config(tmp, "test", data, systems, False, True, args.resamples, args.test_resamples),
        }
        variants = [
            ("full, --jobs 1", cfg["full"], 1),
            (f"full, --jobs {args.jobs}", cfg["full"], args.jobs),
            ("no stats, --jobs 1", cfg["none"], 1),
            ("bootstrap, --jobs 1", cfg["boot"], 1),
            ("test, --jobs 1", cfg["test"], 1),
        ]
        times = {label: [] for label, _, _ in variants}

        def run(label, config, jobs):
            cmd = [sys.executable, "-m", "rouge2", "run", "-q", "--progress", "off",
                   "--jobs", str(jobs), str(config)]
            w0 = time.perf_counter()
            cpu, proc = C.run_child_cpu(cmd, capture_output=True, text=True, cwd=tmp)
            wall = time.perf_counter() - w0
            if proc.returncode != 0:
                sys.exit(f"error: `{' '.join(cmd)}` failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
            return cpu, wall

        run(*variants[0])  # untimed warm-up (page cache, .pyc files)
        for p in range(args.passes):
            k = p % len(variants)
            for label, config, jobs in variants[k:] + variants[:k]:
                times[label].append(run(label, config, jobs))
        summary = json.loads((tmp / "out-full" / "summary.json").read_text(encoding="utf-8"))

    print(f"\n{args.passes} passes; CPU and wall seconds (median / min); summaries/s from median CPU")
    print(f"  {'variant':<22} {'CPU med':>8} {'CPU min':>8} {'wall med':>9} {'wall min':>9} {'summaries/s':>12}")
    med = {}
    for label, _, _ in variants:
        cpus = [c for c, _ in times[label]]
        walls = [w for _, w in times[label]]
        med[label] = (C.median(cpus), C.median(walls))
        print(f"  {label:<22} {C.median(cpus):8.2f} {min(cpus):8.2f} {C.median(walls):9.2f} {min(walls):9.2f} "
              f"{C.fmt_rate(n / C.median(cpus)):>12}")
    full1, fullN = med["full, --jobs 1"], med[f"full, --jobs {args.jobs}"]
    none, boot, test = med["no stats, --jobs 1"][0], med["bootstrap, --jobs 1"][0], med["test, --jobs 1"][0]
    print(f"\n--jobs {args.jobs} against --jobs 1 (full): wall speed-up (jobs 1 wall / jobs {args.jobs} wall) "
          f"{full1[1] / fullN[1]:.2f}; CPU ratio (jobs {args.jobs} CPU / jobs 1 CPU) {fullN[0] / full1[0]:.2f} "
          "(above 1: the workers' start-up and data transfer)")
    share = (full1[0] - none) / full1[0] if full1[0] else float("nan")
    print(f"statistics' share of the --jobs 1 CPU time (by difference): bootstrap + test "
          f"{full1[0] - none:.2f}s = {100 * share:.0f}%; bootstrap alone {boot - none:.2f}s, "
          f"test alone {test - none:.2f}s; scoring and I/O (no stats) {none:.2f}s")
    print("note: differences of medians on a shared machine; a negative or tiny value means "
          "the phase costs less than the noise")
    keys = sorted(summary) if isinstance(summary, dict) else []
    print(f"check: the full run wrote summary.json (keys: {', '.join(keys[:8])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
