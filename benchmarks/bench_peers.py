"""rouge2 against its peers on the same news pairs, side by side, in one run.

Usage:  python benchmarks/bench_peers.py [--pairs N] [--shared PATH] [--perl PATH/TO/ROUGE-1.5.5.pl]

Pairs come from SummEval (CNN/DailyMail system summaries against their
reference): news-length texts, one reference each.  For each setting the
script times rouge-score (Google's ``rouge_score``, if installed) and rouge2
on the same pairs, checks that both give identical scores where rouge-score
is defined like ROUGE-1.5.5 (single reference, no stemming), and prints
pairs/second and the ratio.  Timings are one process, one core, best of
``--repeat`` runs.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import rouge2  # noqa: E402


def load_pairs(shared: Path, limit: int, summary_level: bool):
    pairs = []
    with open(shared / "data/summeval/summeval.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            ref = row["ref_summ"]
            for sysname in sorted(row["sys_summs"]):
                cand = row["sys_summs"][sysname]["sys_summ"]
                if summary_level:
                    cand = cand.replace(" . ", " .\n")
                    ref_t = ref.replace(" . ", " .\n")
                else:
                    ref_t = ref
                pairs.append((cand, ref_t))
                if len(pairs) >= limit:
                    return pairs
    return pairs


def best_time(fn, repeat):
    best = float("inf")
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def run_rouge_score(pairs, stem, types):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
    return [scorer.score(ref, cand) for cand, ref in pairs]


def run_rouge2(pairs, stem, measures):
    return rouge2.score_corpus(pairs, measures, stem=stem)


def compare(rs, r2, mapping):
    mismatches = 0
    for a, b in zip(rs, r2):
        for rs_name, r2_name in mapping.items():
            x, y = a[rs_name], b[r2_name]
            if abs(x.precision - y.precision) > 1e-12 or abs(x.recall - y.recall) > 1e-12:
                mismatches += 1
    return mismatches


def run_perl(perl_script: Path, pairs, n_pairs):
    """Time the original script on the first n_pairs (it is ~100x slower)."""
    pairs = pairs[:n_pairs]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "m").mkdir()
        (tmp / "p").mkdir()
        xml = ['<ROUGE-EVAL version="1.5.5">']
        for i, (cand, ref) in enumerate(pairs):
            (tmp / "p" / f"{i}.txt").write_text(cand + "\n", encoding="utf-8")
            (tmp / "m" / f"{i}.txt").write_text(ref + "\n", encoding="utf-8")
            xml.append(
                f'<EVAL ID="{i}"><PEER-ROOT>{tmp}/p</PEER-ROOT><MODEL-ROOT>{tmp}/m</MODEL-ROOT>'
                f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="S">{i}.txt</P></PEERS>'
                f'<MODELS><M ID="R">{i}.txt</M></MODELS></EVAL>'
            )
        xml.append("</ROUGE-EVAL>")
        (tmp / "c.xml").write_text("\n".join(xml), encoding="utf-8")
        data = perl_script.parent / "data"
        t0 = time.perf_counter()
        subprocess.run(
            ["perl", str(perl_script), "-e", str(data), "-a", "-n", "2", "-r", "1", str(tmp / "c.xml")],
            check=True, capture_output=True,
        )
        return time.perf_counter() - t0, len(pairs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--shared", default=os.environ.get("ROUGE2_SHARED", str(REPO.parent / "shared")))
    ap.add_argument("--perl", default=os.environ.get("ROUGE155_ORACLE"), help="path to ROUGE-1.5.5.pl (optional)")
    args = ap.parse_args(argv)
    shared = Path(args.shared)
    try:
        import rouge_score  # noqa: F401
        have_rs = True
    except ImportError:
        have_rs = False
        print("rouge-score not installed (pip install '.[bench]'): timing rouge2 alone")

    print(f"python {sys.version.split()[0]}, rouge2 {rouge2.__version__}, one process")
    print(f"{'setting':<34} {'peer':>12} {'rouge2':>12} {'ratio':>7}  identical")
    settings = [
        ("ROUGE-1/2/L, no stemming", False, False),
        ("ROUGE-1/2/L, stemming", True, False),
        ("ROUGE-1/2/Lsum (summary-level)", False, True),
    ]
    for label, stem, summary_level in settings:
        pairs = load_pairs(shared, args.pairs, summary_level)
        measures = ["rouge-1", "rouge-2", "rouge-l"]
        types = ["rouge1", "rouge2", "rougeLsum" if summary_level else "rougeL"]
        t2, r2 = best_time(lambda: run_rouge2(pairs, stem, measures), args.repeat)
        line = f"{label:<34} "
        if have_rs:
            t1, r1 = best_time(lambda: run_rouge_score(pairs, stem, types), args.repeat)
            same = "-"
            if not stem:
                bad = compare(r1, r2, dict(zip(types, measures)))
                same = "yes" if bad == 0 else f"NO ({bad} differ)"
            else:
                same = "n/a (different stemmers)"
            line += f"{len(pairs) / t1:9.0f}/s {len(pairs) / t2:9.0f}/s {t1 / t2:6.1f}x  {same}"
        else:
            line += f"{'-':>12} {len(pairs) / t2:9.0f}/s"
        print(line)
    if args.perl:
        pairs = load_pairs(shared, args.pairs, False)
        tp, n = run_perl(Path(args.perl), pairs, min(200, len(pairs)))
        t2, _ = best_time(lambda: run_rouge2(pairs[:n], False, ["rouge-1", "rouge-2", "rouge-l"]), args.repeat)
        print(f"{'ROUGE-1.5.5.pl, -n 2 + L':<34} {n / tp:9.0f}/s {n / t2:9.0f}/s {tp / t2:6.1f}x  (script: whole process)")


if __name__ == "__main__":
    main()
