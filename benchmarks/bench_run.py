"""Time `rouge2 run` on SummEval: --jobs 1 against --jobs N, and the statistics' share.

Usage:
  python benchmarks/bench_run.py [--jobs N] [--passes P] [--docs D] [--systems S]
                                 [--resamples B] [--test-resamples T] [--shared PATH]
                                 [--scaling 1,2,4,8] [--rouge155] [--no-batch]

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

``--no-batch`` adds the same runs with the batch path turned off
(``ROUGE2_NO_BATCH=1``: every pair through the per-pair path, as before
issue 12): no stats and full at --jobs 1, no stats at --jobs N, and the
scoring phase's speed-up (no stats, median CPU, per-pair / batch), also
timed in this process (``run()`` with ``batch.ENABLED`` off and on,
alternating: no interpreter start-up in the figure); with ``--rouge155``,
``rouge155 -r 1`` likewise.

``--scaling 1,2,4,8`` adds the full run at each of these ``--jobs`` (CPU,
wall, wall speed-up against the first); rouge2 uses at most one process per
usable core, so on a 2-core machine 4 and 8 run like 2 (the table says how
many processes ran).  ``--rouge155`` adds ``rouge2 rouge155`` on the same
data written as a ROUGE-1.5.5 settings file (SPL files, 11 models per
evaluation, ``-a -c 95 -n 2 -f A -p 0.5 -t 0``): ``-r B`` against ``-r 1``
gives the 1.5.5 bootstrap's share, and with ``--scaling`` its ``--jobs``
table.  Wall times on a shared machine are noisy: the load average is
printed with them.

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
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C


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


def write_rouge155(rows, folder: Path, systems) -> Path:
    """The same summaries as a ROUGE-1.5.5 settings file (SPL, one file per text)."""
    root = folder / "rouge155"
    (root / "models").mkdir(parents=True)
    (root / "peers").mkdir()
    xml = ['<ROUGE-EVAL version="1.5.5">']
    for i, row in enumerate(rows):
        xml += [f'<EVAL ID="{i}">', "<MODEL-ROOT>models</MODEL-ROOT>", "<PEER-ROOT>peers</PEER-ROOT>",
                '<INPUT-FORMAT TYPE="SPL">', "</INPUT-FORMAT>", "<PEERS>"]
        for s, name in enumerate(systems):
            (root / "peers" / f"{i}.{s}.txt").write_text(row["sys_summs"][name]["sys_summ"].strip() + "\n",
                                                         encoding="utf-8")
            xml.append(f'<P ID="{name}">{i}.{s}.txt</P>')
        xml += ["</PEERS>", "<MODELS>"]
        for r, ref in enumerate(row["ref_summs"]):
            (root / "models" / f"{i}.{r}.txt").write_text(ref.strip() + "\n", encoding="utf-8")
            xml.append(f'<M ID="{r}">{i}.{r}.txt</M>')
        xml += ["</MODELS>", "</EVAL>"]
    xml.append("</ROUGE-EVAL>")
    (root / "config.xml").write_text("\n".join(xml) + "\n", encoding="utf-8")
    return root


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:  # pragma: no cover
        return "load average unknown"


def timed(variants, passes: int, cwd: Path):
    """Each (label, cmd) run once untimed, then ``passes`` times in rotating
    order; {label: [(cpu, wall), ...]}."""
    times = {label: [] for label, _ in variants}

    def run(cmd):
        w0 = time.perf_counter()
        cpu, proc = C.run_child_cpu(cmd, capture_output=True, text=True, cwd=cwd)
        wall = time.perf_counter() - w0
        if proc.returncode != 0:
            sys.exit(f"error: `{' '.join(map(str, cmd))}` failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
        return cpu, wall, proc

    outputs = {label: run(cmd)[2] for label, cmd in variants}  # warm-up (page cache, .pyc files)
    for p in range(passes):
        k = p % len(variants)
        for label, cmd in variants[k:] + variants[:k]:
            times[label].append(run(cmd)[:2])
    return times, outputs


def in_process(call, passes: int) -> dict:
    """``call()`` with the batch path off and on, in this process, alternating
    (after one warm-up each); {enabled: [CPU seconds, ...]}."""
    from rouge2.scoring import batch

    times = {False: [], True: []}
    try:
        for p in range(passes + 1):
            for enabled in ((False, True) if p % 2 == 0 else (True, False)):
                batch.ENABLED = enabled
                t0 = time.process_time()
                call()
                if p:
                    times[enabled].append(time.process_time() - t0)
    finally:
        batch.ENABLED = True
    return times


def print_in_process(what: str, times: dict) -> None:
    off, on = C.median(times[False]), C.median(times[True])
    print(f"in process ({what}, CPU median of {len(times[True])} alternating passes): "
          f"per-pair {off:.3f}s -> batch {on:.3f}s ({off / on:.2f}x)")


def scaling_table(title: str, times, labels_jobs, first: str) -> None:
    cores = usable_cores()
    print(f"\n{title}: --jobs scaling ({cores} usable cores; {load()})")
    print(f"  {'--jobs':>6} {'processes':>9} {'CPU med':>8} {'wall med':>9} {'wall min':>9} {'speed-up (wall med)':>20}")
    base = C.median([w for _, w in times[first]])
    for label, jobs in labels_jobs:
        cpus = [c for c, _ in times[label]]
        walls = [w for _, w in times[label]]
        print(f"  {jobs:>6} {min(jobs, cores):>9} {C.median(cpus):8.2f} {C.median(walls):9.2f} {min(walls):9.2f} "
              f"{base / C.median(walls):20.2f}")


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
    ap.add_argument("--scaling", default="", metavar="1,2,4,8",
                    help="also time the full run (and rouge155 with --rouge155) at these --jobs")
    ap.add_argument("--rouge155", action="store_true",
                    help="also time `rouge2 rouge155` on the same data (bootstrap share)")
    ap.add_argument("--no-batch", action="store_true",
                    help="also time the runs with the batch path off (ROUGE2_NO_BATCH=1)")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    if args.systems < 2 or args.docs < 1 or args.passes < 1 or args.jobs < 1:
        ap.error("need --systems >= 2, --docs >= 1, --passes >= 1, --jobs >= 1")
    try:
        scaling = [int(x) for x in args.scaling.split(",") if x.strip()]
    except ValueError:
        ap.error("--scaling: a comma-separated list of process counts, e.g. 1,2,4,8")
    if any(j < 1 for j in scaling):
        ap.error("--scaling: process counts >= 1")

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

        def run_cmd(config, jobs, batch=True):
            env = [] if batch else ["env", "ROUGE2_NO_BATCH=1"]
            return [*env, sys.executable, "-m", "rouge2", "run", "-q", "--progress", "off", "--overwrite",
                    "--jobs", str(jobs), str(config)]

        variants = [
            ("full, --jobs 1", cfg["full"], 1),
            (f"full, --jobs {args.jobs}", cfg["full"], args.jobs),
            ("no stats, --jobs 1", cfg["none"], 1),
            ("bootstrap, --jobs 1", cfg["boot"], 1),
            ("test, --jobs 1", cfg["test"], 1),
        ]
        if args.no_batch:
            variants += [
                ("no stats, --jobs 1, no batch", cfg["none"], 1, False),
                ("full, --jobs 1, no batch", cfg["full"], 1, False),
                (f"no stats, --jobs {args.jobs}", cfg["none"], args.jobs),
                (f"no stats, --jobs {args.jobs}, no batch", cfg["none"], args.jobs, False),
            ]
        variants = [(v + (True,))[:4] for v in variants]
        times, _ = timed([(label, run_cmd(config, jobs, batch)) for label, config, jobs, batch in variants],
                         args.passes, tmp)
        summary = json.loads((tmp / "out-full" / "summary.json").read_text(encoding="utf-8"))

        print(f"\n{args.passes} passes; CPU and wall seconds (median / min); summaries/s from median CPU; {load()}")
        print(f"  {'variant':<22} {'CPU med':>8} {'CPU min':>8} {'wall med':>9} {'wall min':>9} {'summaries/s':>12}")
        med = {}
        for label, *_ in variants:
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
        if args.no_batch:
            off = med["no stats, --jobs 1, no batch"][0]
            offN = med[f"no stats, --jobs {args.jobs}, no batch"][0]
            onN = med[f"no stats, --jobs {args.jobs}"][0]
            print(f"batch path (scoring, no stats, CPU median): --jobs 1 {off:.2f}s per-pair -> {none:.2f}s "
                  f"batch ({off / none:.2f}x); --jobs {args.jobs} {offN:.2f}s -> {onN:.2f}s ({offN / onN:.2f}x); "
                  f"full run --jobs 1 {med['full, --jobs 1, no batch'][0]:.2f}s -> {full1[0]:.2f}s")
        if args.no_batch:
            from rouge2.config.yaml_config import load_config
            from rouge2.run.runner import run as run_config

            loaded = load_config(cfg["none"])
            print_in_process("rouge2.run.runner.run, no stats",
                             in_process(lambda: run_config(loaded, progress=False, overwrite=True), args.passes))
        keys = sorted(summary) if isinstance(summary, dict) else []
        print(f"check: the full run wrote summary.json (keys: {', '.join(keys[:8])})")

        if scaling:
            labels = [(f"run --jobs {j}", j) for j in scaling]
            times, _ = timed([(label, run_cmd(cfg["full"], j)) for label, j in labels], args.passes, tmp)
            scaling_table("rouge2 run (full)", times, labels, labels[0][0])

        if args.rouge155:
            root = write_rouge155(rows, tmp, systems)
            flags = ["-a", "-c", "95", "-n", "2", "-f", "A", "-p", "0.5", "-t", "0"]

            def r155(resamples, jobs=1, batch=True):
                env = [] if batch else ["env", "ROUGE2_NO_BATCH=1"]
                return [*env, sys.executable, "-m", "rouge2", "rouge155", "--jobs", str(jobs), *flags,
                        "-r", str(resamples), "config.xml"]

            v155 = [(f"rouge155 -r {args.resamples}", r155(args.resamples)), ("rouge155 -r 1", r155(1))]
            if args.no_batch:
                v155.append(("rouge155 -r 1, no batch", r155(1, batch=False)))
            labels = [(f"rouge155 --jobs {j}", j) for j in scaling]
            times, outs = timed(v155 + [(label, r155(args.resamples, j)) for label, j in labels],
                                args.passes, root)
            full155 = C.median([c for c, _ in times[v155[0][0]]])
            one155 = C.median([c for c, _ in times[v155[1][0]]])
            print(f"\nrouge2 rouge155 {' '.join(flags)} on the same {n} summaries (ROUGE-1, 2, L), "
                  f"{args.passes} passes, CPU median: -r {args.resamples} {full155:.2f}s, -r 1 {one155:.2f}s; "
                  f"the 1.5.5 bootstrap's share (by difference) {100 * (full155 - one155) / full155:.0f}%")
            if args.no_batch:
                off155 = C.median([c for c, _ in times["rouge155 -r 1, no batch"]])
                same_off = outs["rouge155 -r 1, no batch"].stdout == outs["rouge155 -r 1"].stdout
                print(f"batch path (rouge155 -r 1, CPU median): {off155:.2f}s per-pair -> {one155:.2f}s batch "
                      f"({off155 / one155:.2f}x); reports identical: {'yes' if same_off else 'NO'}")
                import io

                from rouge2.cli.rouge155 import run as run155

                def call():
                    out, err = io.BytesIO(), io.StringIO()
                    here = os.getcwd()
                    os.chdir(root)
                    try:
                        assert run155(flags + ["-r", "1", "config.xml"], out, err) == 0, err.getvalue()
                    finally:
                        os.chdir(here)

                print_in_process("rouge2 rouge155 -r 1", in_process(call, args.passes))
            same = all(outs[label].stdout == outs[v155[0][0]].stdout for label, _ in labels)
            if labels:
                scaling_table("rouge2 rouge155", times, labels, labels[0][0])
                print(f"check: rouge155 reports identical for every --jobs: {'yes' if same else 'NO'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
