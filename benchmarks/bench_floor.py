"""rouge2 against the floor: a minimal C program that only tokenizes, interns
and counts (benchmarks/floor.c), on the same pairs with the same F values.

Usage:
  python benchmarks/bench_floor.py [--pairs N] [--passes P] [--reps R] [--cc CC]
                                   [--callgrind] [--shared PATH]

The script builds floor.c with ``$CC`` (default ``cc``) ``-O2`` in a
temporary folder, writes the pairs there, checks that the floor's F values of
ROUGE-1, ROUGE-2 and ROUGE-L are rouge2's bit for bit, then times

  floor     its own CPU clock around R runs over the pairs (each pair's two
            texts tokenized and interned afresh; the vocabulary warm after
            the first run, as rouge2's is), divided by R
  rouge2    ``rouge2.score_corpus(pairs, measures=["rouge-1", "rouge-2",
            "rouge-l-flat"])`` in this process, ``time.process_time()``,
            R calls a pass, divided by R (Scorer built, Score objects made)

in alternating passes, and reports the medians and rouge2 / floor.  With
``--callgrind`` it counts instructions instead (valgrind --tool=callgrind,
deterministic on a noisy machine): each side runs R times and 0 times, and
the difference is divided by R; the ratio is the floor ratio without noise.

Pairs: SummEval, the first N (default 1600) (system summary, reference)
pairs, documents in file order, systems sorted by name; ``--distinct`` uses
bench_memory.py's distinct pairs instead (no text repeats: no
deduplication to gain).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C

HERE = Path(__file__).resolve().parent
MEASURES = ["rouge-1", "rouge-2", "rouge-l-flat"]


def build_floor(tmp: Path, cc: str) -> Path:
    exe = tmp / "floor"
    subprocess.run([cc, "-O2", "-o", str(exe), str(HERE / "floor.c")], check=True)
    return exe


def write_pairs(pairs, path: Path) -> None:
    with open(path, "wb") as fh:
        for c, r in pairs:
            for t in (c, r):
                b = t.encode("utf-8")
                fh.write(struct.pack("<I", len(b)))
                fh.write(b)


def floor_run(exe: Path, data: Path, reps: int, f_out: Path | None = None) -> dict:
    cmd = [str(exe), str(data), str(reps)] + ([str(f_out)] if f_out else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.e+-]+)", out)}


def check_same_f(exe: Path, data: Path, pairs, tmp: Path) -> str:
    import rouge2

    f_out = tmp / "f.bin"
    floor_run(exe, data, 1, f_out)
    raw = f_out.read_bytes()
    floor = struct.unpack(f"<{len(raw) // 8}d", raw)
    ours = [s.fmeasure for r in rouge2.score_corpus(pairs, measures=MEASURES) for s in r.values()]
    diff = sum(1 for a, b in zip(floor, ours) if a.hex() != b.hex())
    if diff or len(floor) != len(ours):
        sys.exit(f"error: the floor's F values differ from rouge2's in {diff} of {len(ours)} places")
    return f"F values identical: {len(ours)} of {len(ours)} (R1, R2, L per pair)"


def rouge2_time(pairs, reps: int) -> float:
    import gc

    import rouge2

    gc.collect()
    t0 = time.process_time()
    for _ in range(reps):
        rouge2.score_corpus(pairs, measures=MEASURES)
    return (time.process_time() - t0) / reps


# -- instruction counts ------------------------------------------------------

def callgrind_ir(cmd: list[str], tmp: Path) -> int:
    out = tmp / "cg.out"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                   capture_output=True, check=True)
    text = out.read_text(errors="replace")
    m = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
    if m is None:
        sys.exit("error: no instruction total in the callgrind output")
    return int(m.group(1))


_CHILD = """
import json, sys
import rouge2
pairs = json.load(open(sys.argv[1]))
pairs = [tuple(p) for p in pairs]
rouge2.score_corpus(pairs[:10], measures={measures!r})  # imports and first-call work, in both runs
for _ in range(int(sys.argv[2])):
    rouge2.score_corpus(pairs, measures={measures!r})
"""


def callgrind_compare(exe: Path, data: Path, pairs, reps: int, tmp: Path) -> None:
    jpath = tmp / "pairs.json"
    jpath.write_text(json.dumps(pairs))
    script = tmp / "child.py"
    script.write_text(_CHILD.format(measures=MEASURES))
    floor_ir = (callgrind_ir([str(exe), str(data), str(reps)], tmp)
                - callgrind_ir([str(exe), str(data), "0"], tmp)) / reps
    ours_ir = (callgrind_ir([sys.executable, str(script), str(jpath), str(reps)], tmp)
               - callgrind_ir([sys.executable, str(script), str(jpath), "0"], tmp)) / reps
    n = len(pairs)
    print(f"instructions per pair (callgrind, {reps} runs minus 0 runs):")
    print(f"  floor   {floor_ir / n:,.0f}")
    print(f"  rouge2  {ours_ir / n:,.0f}")
    print(f"  rouge2 / floor: {ours_ir / floor_ir:.3f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1600)
    ap.add_argument("--passes", type=int, default=7)
    ap.add_argument("--reps", type=int, default=20, help="runs over the pairs per pass (default 20)")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--distinct", action="store_true", help="distinct pairs (bench_memory.py's)")
    ap.add_argument("--callgrind", action="store_true", help="count instructions with valgrind")
    ap.add_argument("--shared", default=C.DEFAULT_SHARED)
    args = ap.parse_args(argv)
    if shutil.which(args.cc) is None:
        sys.exit(f"error: no C compiler {args.cc!r} (give --cc)")
    rows = C.summeval_rows(args.shared)
    if args.distinct:
        from bench_memory import distinct_pairs

        pairs = list(distinct_pairs(rows, args.pairs))
    else:
        pairs = C.summeval_pairs(rows, args.pairs)
    print("bench_floor: rouge2 against a minimal C tokenize + intern + count program")
    C.print_versions(peers=False)
    with tempfile.TemporaryDirectory(prefix="rouge2-floor-") as tmp_name:
        tmp = Path(tmp_name)
        exe = build_floor(tmp, args.cc)
        data = tmp / "pairs.bin"
        write_pairs(pairs, data)
        print(f"{len(pairs)} pairs ({'distinct' if args.distinct else 'SummEval'}); "
              f"measures {', '.join(MEASURES)}; {check_same_f(exe, data, pairs, tmp)}")
        if args.callgrind:
            callgrind_compare(exe, data, pairs, max(1, min(args.reps, 5)), tmp)
            return 0
        rouge2_time(pairs, 2)  # warm: vocabulary, caches
        floor_s, ours_s = [], []
        for p in range(args.passes):
            steps = [lambda: floor_s.append(floor_run(exe, data, args.reps)["cpu"] / args.reps),
                     lambda: ours_s.append(rouge2_time(pairs, args.reps))]
            for step in (steps if p % 2 == 0 else steps[::-1]):
                step()
        n = len(pairs)
        f_med, o_med = C.median(floor_s), C.median(ours_s)
        print(f"CPU time per run over the pairs, median of {args.passes} alternating passes "
              f"({args.reps} runs a pass):")
        print(f"  floor   {f_med * 1e3:8.3f} ms  ({n / f_med:,.0f} pairs/s; best {min(floor_s) * 1e3:.3f} ms)")
        print(f"  rouge2  {o_med * 1e3:8.3f} ms  ({n / o_med:,.0f} pairs/s; best {min(ours_s) * 1e3:.3f} ms)")
        print(f"  rouge2 / floor: {o_med / f_med:.3f} (best to best {min(ours_s) / min(floor_s):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
