"""The benchmark scripts still run (smallest sizes) and name every case.

No timing is asserted: these only keep benchmarks/ from rotting.  The peers
(rouge-score, rouge-score-rs: the ``bench`` extra) are optional; without
them bench_speed times rouge2 alone and the peer rows are not checked.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "benchmarks"

HAVE_RS = importlib.util.find_spec("rouge_score") is not None
HAVE_RS_RUST = importlib.util.find_spec("rouge_score_rs") is not None
ORACLE = os.environ.get("ROUGE155_ORACLE")


def run_script(name: str, args: list[str], shared: Path, tmp_path: Path) -> str:
    proc = subprocess.run(
        [sys.executable, str(BENCH / name), "--shared", str(shared), *args],
        capture_output=True, text=True, cwd=tmp_path, timeout=900,  # a hang guard, not a timing: shared CI machines are slow
    )
    assert proc.returncode == 0, f"{name} failed ({proc.returncode}):\n{proc.stderr[-2000:]}"
    assert "C kernels active:" in proc.stdout
    return proc.stdout


def test_bench_speed(shared, tmp_path):
    args = ["--pairs", "8", "--passes", "1", "--warmup", "0", "--first-call-pairs", "4", "--perl-pairs", "3"]
    if ORACLE:
        args += ["--perl", ORACLE]
    out = run_script("bench_speed.py", args, shared, tmp_path)
    for case in ("r12l", "r12l-stem", "r12lsum", "multiref", "su4-w", "first-call"):
        assert f"\n[{case}] " in out, case
        assert f"\n  {case:<11} " in out, f"summary row {case}"  # one summary row per case
    if ORACLE:
        assert "\n[perl-r12l] ROUGE-1/2/L" in out
        assert out.count("ROUGE-1.5.5.pl -a -r 1") == 2
    else:
        assert "[perl-r12l] skipped" in out
    if HAVE_RS:
        assert "rouge_score RougeScorer.score loop" in out
        # where the definitions agree, rouge2 gives rouge-score's numbers
        assert "check rouge2 vs rouge-score: 0 of 8 pairs differ" in out
        assert out.count("check rouge2 vs rouge-score:") == 3  # r12l, r12lsum, multiref
    if HAVE_RS_RUST:
        assert "rouge_score_rs RougeScorer.score_batch" in out
        assert "RAYON_NUM_THREADS=1" in out


def test_bench_memory(shared, tmp_path):
    out = run_script("bench_memory.py", ["--sizes", "200,400"], shared, tmp_path)
    assert "baseline" in out and "score_corpus" in out and "Scorer loop" in out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(("200 ", "400 "))]
    assert [r[0] for r in rows] == ["200", "400"]
    assert rows[0][3] == "1.00"  # the ratio column is relative to the first size


def test_bench_run(shared, tmp_path):
    args = ["--docs", "2", "--systems", "2", "--passes", "1", "--resamples", "20",
            "--test-resamples", "20", "--jobs", "2"]
    out = run_script("bench_run.py", args, shared, tmp_path)
    for variant in ("full, --jobs 1", "full, --jobs 2", "no stats, --jobs 1",
                    "bootstrap, --jobs 1", "test, --jobs 1"):
        assert f"\n  {variant} " in out, variant
    assert "statistics' share" in out
    assert "2 documents x 2 systems = 4 summaries, 11 references each" in out


def test_bench_stem(shared, tmp_path):
    if importlib.util.find_spec("rouge2.kernels._speedups") is None:
        pytest.skip("the C extension is not built: bench_stem.py has nothing to compare")
    out = run_script("bench_stem.py", ["--passes", "1", "--first-call-passes", "1"], shared, tmp_path)
    assert "check: C and Python stems identical on all distinct words and all tokens" in out
    for case in ("distinct ", "all-tokens ", "  c       child", "  python  child"):
        assert case in out, case


def test_bench_run_scaling_and_rouge155(shared, tmp_path):
    args = ["--docs", "2", "--systems", "2", "--passes", "1", "--resamples", "20",
            "--test-resamples", "20", "--jobs", "2", "--scaling", "1,2", "--rouge155", "--no-batch"]
    out = run_script("bench_run.py", args, shared, tmp_path)
    assert "\n  no stats, --jobs 1, no batch " in out
    assert "batch path (scoring, no stats, CPU median)" in out
    assert "in process (rouge2.run.runner.run, no stats" in out
    assert "in process (rouge2 rouge155 -r 1" in out
    assert "reports identical: yes" in out
    assert "rouge2 run (full): --jobs scaling" in out
    assert "rouge2 rouge155: --jobs scaling" in out
    assert "the 1.5.5 bootstrap's share" in out
    assert "check: rouge155 reports identical for every --jobs: yes" in out


def test_bench_startup(shared, tmp_path):
    out = run_script("bench_startup.py", ["--passes", "1", "--warmup", "0", "--pairs", "6", "--min-pass", "0.01"], shared, tmp_path)
    for case in ("[import:", "[first-call:", "[cli:", "[dropin r12l:", "[dropin r12l-stem:", "[dropin r12lsum:",
                 "[dropin hf-evaluate:"):
        assert f"\n{case}" in out, case
    if HAVE_RS:
        # the drop-in gives rouge-score's numbers on every pair it times
        assert out.count("drop-in vs rouge-score: 0 of 6 pairs differ") == 4


def test_bench_stream(shared, tmp_path):
    out = run_script("bench_stream.py", ["--sizes", "300", "--passes", "1"], shared, tmp_path)
    assert "[300 line pairs, rouge-1, rouge-2, rouge-l;" in out
    for case in ("floor", "score0", "score", "eval0", "eval", "lean0"):
        assert f"\n  {case:<7} " in out, case
    assert "check: 5 cases print the same means: yes" in out


@pytest.mark.skipif(importlib.util.find_spec("spacy") is None, reason="spaCy is not installed")
def test_bench_topic(shared, tmp_path):
    args = ["--pairs", "12", "--passes", "1", "--min-pass", "0", "--docs", "1", "--batch-sizes", "32"]
    out = run_script("bench_topic.py", args, shared, tmp_path)
    for case in ("cached", "share", "batch-size"):
        assert f"\n[{case}] " in out, case
    assert "0 of 12 pairs differ" in out
    assert "rouge-topic-nn|jj / ROUGE-1 = " in out and "% of the call)" in out
