"""The intervals of system scores are docs/statistics.md's paired bootstrap, float for float.

The reference is the code block of docs/statistics.md itself (executed
here), so the page and the code cannot drift apart.  Checked: the bulk
sums (C kernel or pure Python, whichever this run uses, and the two
against each other with the C kernel's narrow-count fallback forced and
its vectors off), the intervals, and every door: ``evaluate``, ``rouge2
score`` and ``rouge2 run`` give the reference's intervals on the same
pairs.
"""

from __future__ import annotations

import json
import random
import re
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge2
from rouge2.cli import main
from rouge2.config.yaml_config import load_config
from rouge2.kernels import python as pyk
from rouge2.run.runner import run
from rouge2.stats import resample
from rouge2.stats.aggregate import summarize_columns
from rouge2.stats.bootstrap import paired_intervals

try:
    from rouge2.kernels import _speedups
except ImportError:  # pragma: no cover - depends on the build
    _speedups = None

needs_c = pytest.mark.skipif(_speedups is None, reason="rouge2.kernels._speedups is not built")

DOC = Path(__file__).resolve().parents[1] / "docs" / "statistics.md"


def _reference() -> dict:
    """The definitions of docs/statistics.md's first python block."""
    block = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert block is not None, "docs/statistics.md lost its reference block"
    namespace: dict = {}
    exec(compile(block.group(1), str(DOC), "exec"), namespace)  # the documented definition
    return namespace


REF = _reference()
ref_sums = REF["paired_bootstrap_sums"]
ref_intervals = REF["paired_intervals"]

seeds = st.one_of(st.integers(-2**40, 2**40), st.text(max_size=8))
sizes = st.one_of(st.integers(1, 40), st.sampled_from([127, 255, 256, 257, 300, 511, 513]))
SPECIAL = [0.0, -0.0, 1.0, 0.1, 1 / 3, -2.5, 1e6, 1e-300]


@st.composite
def tables(draw, max_cols=10):
    """Columns of one length: values of every sign and size, zeros, repeats."""
    n = draw(sizes)
    k = draw(st.integers(1, max_cols))
    g = random.Random(draw(st.integers(0, 2**32)))
    scale = draw(st.sampled_from([1.0, 1e-3, 1e6]))
    return [[g.choice(SPECIAL) if g.random() < 0.2 else g.uniform(-1, 1) * scale for _ in range(n)]
            for _ in range(k)]


@settings(max_examples=100, deadline=None)
@given(seeds, tables(), st.integers(0, 30), st.integers(0, 700))
def test_sums_are_the_reference_loop(seed, columns, resamples, skip):
    bulk, one = random.Random(seed), random.Random(seed)
    for rng in (bulk, one):  # start anywhere in the generator's block of 624 words
        rng.getrandbits(32 * skip) if skip else None
    got = resample.paired_bootstrap_sums([array("d", c) for c in columns], resamples, bulk)
    assert got == ref_sums(columns, resamples, one)
    assert bulk.getstate() == one.getstate()  # nothing over-drawn


@settings(max_examples=30, deadline=None)
@given(seeds, tables(max_cols=3), st.integers(0, 10))
def test_lists_and_arrays_and_subclasses_agree(seed, columns, resamples):
    class Mine(random.Random):  # not a plain Random: drawn one call at a time
        pass

    want = ref_sums(columns, resamples, random.Random(seed))
    assert resample.paired_bootstrap_sums(columns, resamples, random.Random(seed)) == want
    assert resample.paired_bootstrap_sums(columns, resamples, Mine(seed)) == want


@needs_c
@settings(max_examples=60, deadline=None)
@given(seeds, tables(), st.integers(0, 40), st.sampled_from([2, 3, 5, 256]), st.booleans())
def test_c_kernel_equals_the_python_kernel(seed, columns, resamples, limit, simd):
    # limit < 256 sends groups to the exact 32-bit path that a count of 256 would take
    state = random.Random(seed).getstate()[1]
    cols = [array("d", c) for c in columns]
    assert _speedups.mt_paired_sums(state, cols, resamples, limit, simd) == \
        pyk.mt_paired_sums(state, cols, resamples)


@needs_c
def test_c_kernel_refuses_bad_columns():
    state = random.Random(0).getstate()[1]
    with pytest.raises(ValueError):
        _speedups.mt_paired_sums(state, [array("d", [1.0]), array("d", [1.0, 2.0])], 3)
    with pytest.raises(ValueError):
        _speedups.mt_paired_sums(state, [array("f", [1.0])], 3)
    with pytest.raises(ValueError):
        _speedups.mt_paired_sums(state, [array("d")], 3)
    with pytest.raises(ValueError):
        _speedups.mt_paired_sums(state, [array("d", [1.0])], 3, 1)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), tables(max_cols=9), st.integers(1, 120), st.sampled_from([0.9, 0.95, 0.5]))
def test_intervals_are_the_reference(seed, columns, resamples, confidence):
    got = paired_intervals(columns, resamples, confidence, random.Random(f"{seed}|bootstrap"))
    assert got == ref_intervals(columns, resamples, confidence, seed)


def test_summaries_share_one_bootstrap_over_measures():
    g = random.Random(5)
    cols = {m: {s: [g.random() for _ in range(37)] for s in ("recall", "precision", "fmeasure")}
            for m in ("rouge-1", "rouge-2")}
    got = summarize_columns(cols, resamples=60, confidence=0.9, seed=11)
    flat = [cols[m][s] for m in cols for s in cols[m]]
    want = iter(ref_intervals(flat, 60, 0.9, 11))
    for m in cols:
        for s in cols[m]:
            assert got[m]["ci"][s] == list(next(want))
            assert got[m][s] == sum(cols[m][s]) / 37
    # one measure alone: the same interval (its draws do not depend on the others)
    alone = summarize_columns({"rouge-2": cols["rouge-2"]}, resamples=60, confidence=0.9, seed=11)
    assert alone["rouge-2"] == got["rouge-2"]


# -- every door gives the reference's intervals ---------------------------------

PREDS = ["the cat sat on the mat today", "a dog barked at the mailman", "rain fell all night long",
         "the market rose sharply on friday", "she won the race again", "two ships left the harbour",
         "the old bridge was closed", "prices fell in march", "the team lost at home",
         "a storm hit the coast"] * 3
REFS = ["a cat was sitting on the mat", "the dog barked loudly at the postman", "it rained all night",
        "stocks rose on friday", "she won the final race", "the ships sailed from the harbour",
        "the bridge closed for repairs", "prices dropped in march", "the home team was beaten",
        "the coast was hit by a storm"] * 3
MEASURES = ["rouge-1", "rouge-2", "rouge-l"]


def _want(resamples: int, seed: int) -> dict:
    per = rouge2.score_corpus(PREDS, REFS, measures=MEASURES)
    keys = [(m, s) for m in MEASURES for s in ("recall", "precision", "fmeasure")]
    columns = [[getattr(p[m], s) for p in per] for m, s in keys]
    return dict(zip(keys, ref_intervals(columns, resamples, 0.95, seed)))


def test_evaluate_score_and_run_give_the_reference(tmp_path, capsys):
    want = _want(80, 7)
    api = rouge2.evaluate(PREDS, REFS, MEASURES, resamples=80, seed=7)
    for (m, s), ci in want.items():
        assert api.scores[m][s]["ci"] == ci

    (tmp_path / "p.txt").write_text("\n".join(PREDS) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(REFS) + "\n")
    assert main(["score", "-r", str(tmp_path / "r.txt"), "-i", str(tmp_path / "p.txt"), "-m", *MEASURES,
                 "--json", "--resamples", "80", "--seed", "7"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for (m, s), ci in want.items():
        assert tuple(doc["systems"][0]["scores"][m][s]["ci"]) == ci

    # a run: tasks sorted by id (zero-padded: the lines' order), two systems on the same tasks
    rows = [{"task": f"t{i:03d}", "system": system, "candidate": p, "references": [r]}
            for system in ("alpha", "beta") for i, (p, r) in enumerate(zip(PREDS, REFS))]
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "run.yaml"
    config.write_text(json.dumps({
        "inputs": {"format": "jsonl", "path": str(tmp_path / "rows.jsonl")}, "measures": MEASURES,
        "bootstrap": {"resamples": 80, "seed": 7}, "outputs": {"dir": str(tmp_path / "out"), "console": False}}))
    result = run(load_config(config), progress=False)
    for system in ("alpha", "beta"):
        for (m, s), ci in want.items():
            assert tuple(result.systems[system][m]["ci"][s]) == ci
