"""Streaming: ``rouge2 score`` and ``evaluate()`` on 200k to 1M line pairs against ``iter_corpus_stats``.

Usage:
  python benchmarks/bench_stream.py [--sizes 200k,1M] [--passes 3] [--cases floor,score0,score,eval0,eval]
                                    [--measures rouge-1,rouge-2,rouge-l] [--shared PATH] [--keep DIR]

The pairs are written once per size to two line-aligned files (``preds.txt``,
``refs.txt``; in a temporary folder, or ``--keep DIR``): pair i is
:func:`bench_memory.distinct_pairs`'s, distinct pairs made of SummEval
summaries and source sentences (no invented words).  Every case is a fresh
child process reading those files; its CPU time (user + system) and peak
RSS come from ``os.wait4`` (that child alone).  Cases (``--cases`` keys):

  floor   ``rouge2.iter_corpus_stats`` over the pairs read line by line from
          the files, each chunk dropped: the compact-statistics floor
  score0  ``rouge2 score -r refs.txt -i preds.txt --resamples 0``
  score   ``rouge2 score -r refs.txt -i preds.txt`` (1,000 resamples)
  eval0   ``rouge2.evaluate(<lines of preds.txt>, <lines of refs.txt>, resamples=0)``,
          the files read as generators (nothing per pair is kept but the
          result's flat arrays)
  eval    the same with the default 1,000 resamples
  lean0   ``eval0`` with ``keep_stats=False`` (scores kept, no statistics)

Passes alternate the cases (the order rotates); the median CPU of each case
is printed with its ratio to ``floor`` and the largest peak RSS of its
passes.  Every case of a size must print the same means (checked: the
``rouge2 score --json`` document's means against ``evaluate``'s).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C
from bench_memory import distinct_pairs, parse_size

CASES = ("floor", "score0", "score", "eval0", "eval", "lean0")

#: children run with compiled bytecode, as an installed package has it (the
#: cache in a temporary folder, so the checkout stays clean); a warm-up run fills it
_CACHE = tempfile.TemporaryDirectory(prefix="bench-stream-pyc-")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPYCACHEPREFIX"] = _CACHE.name

_READ = ("def lines(path):\n"
         "    with open(path, encoding='utf-8') as f:\n"
         "        for line in f:\n"
         "            yield line.rstrip('\\n')\n")


def child_code(case: str, preds: Path, refs: Path, measures: list[str]) -> list[str]:
    """The command of ``case``."""
    py = [sys.executable]
    if case in ("score0", "score"):
        extra = ["--resamples", "0"] if case == "score0" else []
        return [*py, "-m", "rouge2", "score", "-r", str(refs), "-i", str(preds), "-m", *measures,
                "--json", *extra]
    if case == "floor":
        body = (f"n = 0\nfor chunk in rouge2.iter_corpus_stats(zip(lines({str(preds)!r}), lines({str(refs)!r})), "
                f"{measures!r}):\n    n += len(chunk)\nprint(json.dumps({{'n': n}}))\n")
    else:
        resamples = 1000 if case == "eval" else 0
        body = (f"r = rouge2.evaluate(lines({str(preds)!r}), lines({str(refs)!r}), {measures!r}, "
                f"resamples={resamples}, keep_stats={case != 'lean0'})\n"
                f"print(json.dumps({{'n': len(r), 'means': {{m: {{k: v['mean'] for k, v in s.items()}} "
                f"for m, s in r.scores.items()}}}}))\n")
    return [*py, "-c", "import json, rouge2\n" + _READ + body]


def run_case(cmd: list[str]) -> tuple[float, int, str]:
    """CPU seconds, peak RSS (KiB) and stdout of ``cmd`` run to its end."""
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, text=True, env=ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read() if proc.stderr else ""
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            sys.exit(f"error: {' '.join(cmd[:4])} ... failed ({proc.returncode}): {err[-1500:]}")
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out.read()


def write_pairs(folder: Path, n: int, shared: str) -> tuple[Path, Path]:
    preds, refs = folder / f"preds-{n}.txt", folder / f"refs-{n}.txt"
    if preds.is_file() and refs.is_file():
        return preds, refs
    rows = C.summeval_rows(shared)
    with open(preds, "w", encoding="utf-8") as fp, open(refs, "w", encoding="utf-8") as fr:
        for c, r in distinct_pairs(rows, n):
            fp.write(" ".join(c.split()) + "\n")
            fr.write(" ".join(r.split()) + "\n")
    return preds, refs


def means_of(case: str, out: str):
    if case == "floor":
        return None
    doc = json.loads(out)
    if case.startswith("score"):
        system = doc["systems"][0]
        return {m: {k: v["mean"] for k, v in s.items()} for m, s in system["scores"].items()}
    return doc["means"]


def measure_size(n: int, folder: Path, args, measures: list[str]) -> None:
    preds, refs = write_pairs(folder, n, args.shared)
    cases = [c for c in args.cases.split(",") if c]
    times: dict[str, list[float]] = {c: [] for c in cases}
    peaks: dict[str, int] = {c: 0 for c in cases}
    means: dict[str, object] = {}
    warm = folder / "warm.txt"
    warm.write_text("the cat sat\n", encoding="utf-8")
    for case in cases:  # fills the bytecode cache
        run_case(child_code(case, warm, warm, measures))
    for p in range(args.passes):
        k = p % len(cases)
        for case in cases[k:] + cases[:k]:
            cpu, peak, out = run_case(child_code(case, preds, refs, measures))
            times[case].append(cpu)
            peaks[case] = max(peaks[case], peak)
            got = means_of(case, out)
            if got is not None:
                means.setdefault(case, got)
    floor = C.median(times["floor"]) if "floor" in times else None
    print(f"\n[{n:,} line pairs, {', '.join(measures)}; median CPU of {args.passes} alternating passes]")
    for case in cases:
        med = C.median(times[case])
        ratio = f"  x floor {med / floor:5.2f}" if floor else ""
        print(f"  {case:<7} {med:8.2f} s CPU  (min {min(times[case]):7.2f})  peak RSS {peaks[case] / 1024:7.1f} MiB"
              f"{ratio}  {n / med:>9,.0f} pairs/s")
    distinct = {json.dumps(v, sort_keys=True) for v in means.values()}
    print(f"  check: {len(means)} cases print the same means: {'yes' if len(distinct) <= 1 else 'NO'}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="200k,1M")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--measures", default="rouge-1,rouge-2,rouge-l")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    ap.add_argument("--keep", metavar="DIR", help="write (and reuse) the pair files in DIR")
    args = ap.parse_args(argv)
    measures = [m for m in args.measures.split(",") if m]
    print("bench_stream: streaming scoring, CPU time and peak RSS of child processes")
    C.print_versions(peers=False)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for size in args.sizes.split(","):
            measure_size(parse_size(size), folder, args, measures)


if __name__ == "__main__":
    main()
