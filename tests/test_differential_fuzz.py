"""Differential fuzz: the C kernels and the pure-Python path give identical
scores end to end (docs/safety.md).

Random option sets (every measure family: ROUGE-N, L, W, S, SU with and
without a gap limit; tokenizer, stemming, stopwords, length limits,
sentences, synonyms, every multi-reference mode, alpha, rounding) score
random texts (random Unicode, small-vocabulary English so n-grams match,
empty and punctuation-only texts, several lines, sentence ends) against 1-4
references, through :func:`rouge2.score` (the per-pair path) and
:func:`rouge2.score_corpus` (the batch path, every setting above but
synonyms), once in this process (C kernels) and once in a child process
with ``ROUGE2_PURE_PYTHON=1``; every number must be equal.
The kernel functions themselves are compared one by one in
tests/test_speedups.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rouge2
from rouge2 import kernels

pytestmark = pytest.mark.skipif(not kernels.HAVE_C, reason="the C kernels are not built (or are "
                                                          "disabled): nothing to compare")

MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-w-1.2", "rouge-w-2",
            "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*", "rouge-s0", "rouge-su1"]
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "runs", "running", "dogs", "of", "and",
         "to", "is", "house", "houses", "big", "large", "café", "naïve", "über", "東京", "ä"]
PUNCT = list(".,;:!?-—()[]\"'…«»/\\@#%&*")


def _text(draw_words):
    return st.lists(st.sampled_from(draw_words), max_size=30).map(" ".join)


TEXTS = st.one_of(
    st.just(""),
    st.text(st.sampled_from(PUNCT + [" ", "\n"]), max_size=12),                   # punctuation only
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=40),            # any Unicode
    st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(PUNCT)), max_size=40).map(" ".join),
    st.lists(_text(WORDS), min_size=1, max_size=4).map("\n".join),                # several lines
    st.lists(st.sampled_from(WORDS + ["Mr.", "end.", "U.S.", "why?", "J.", "\u201cok.\u201d", "\r\n",
                                      "\u2028"]), max_size=30).map(" ".join),     # sentence ends
)

OPTION_SETS = st.fixed_dictionaries({}, optional={
    "tokenizer": st.sampled_from(["rouge155", "unicode"]),
    "stem": st.sampled_from(["none", "rouge155", "snowball:english"]),
    "stopwords": st.sampled_from(["none", "smart"]),
    "limit": st.sampled_from([("word_limit", 1), ("word_limit", 5), ("byte_limit", 7),
                              ("byte_limit", 30)]),  # -l and -b exclude each other
    "sentences": st.sampled_from(["lines", "splitter", "none"]),
    "synonyms": st.sampled_from([[["big", "large"], ["house", "dog"]], [["cat", "café", "東京"]]]),
    "multi_reference": st.sampled_from(["pooled", "best", "average", "max-f"]),
    "alpha": st.sampled_from([0.5, 0.0, 1.0, 0.3]),
    "rounding": st.sampled_from(["none", "rouge155"]),
})

CASES = st.tuples(TEXTS, st.lists(TEXTS, min_size=1, max_size=4))

# The child: read {"jobs": [[measures, options, [[cand, refs], ...]], ...]}, print the scores.
CHILD = r"""
import json, sys
import rouge2
from rouge2 import kernels
assert not kernels.HAVE_C
print(json.dumps(run(json.load(sys.stdin))))
"""


def run(jobs):
    import warnings

    warnings.simplefilter("ignore")  # "letters but no tokens" on random scripts
    out = []
    for measures, options, cases in jobs:
        rows = []
        options = dict(options)
        if "limit" in options:
            key, value = options.pop("limit")
            options[key] = value
        if "synonyms" in options:  # JSON made the groups lists
            options = dict(options, synonyms=tuple(tuple(g) for g in options["synonyms"]))
        for cand, refs in cases:
            try:
                result = rouge2.score(cand, refs, tuple(measures), **options)
                rows.append({k: [v.recall, v.precision, v.fmeasure] for k, v in result.items()})
            except Exception as exc:  # both sides must fail alike
                rows.append({"error": f"{type(exc).__name__}: {exc}"})
        try:  # all the cases in one call: the batch path where the settings allow
            results = rouge2.score_corpus([(c, r) for c, r in cases], measures=tuple(measures), **options)
            rows.append([{k: [v.recall, v.precision, v.fmeasure] for k, v in r.items()} for r in results])
        except Exception as exc:
            rows.append({"error": f"{type(exc).__name__}: {exc}"})
        out.append(rows)
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.data_too_large])
@given(st.lists(st.tuples(st.lists(st.sampled_from(MEASURES), min_size=1, max_size=4, unique=True),
                          OPTION_SETS, st.lists(CASES, min_size=1, max_size=12)),
                min_size=1, max_size=8))
def test_c_and_pure_python_agree_end_to_end(jobs):
    compare_with_pure_python(jobs)


def compare_with_pure_python(jobs):
    jobs = json.loads(json.dumps(jobs))  # exactly what the child will see
    here = run(jobs)
    errors = [row["error"] for rows in here for row in rows if isinstance(row, dict) and "error" in row]
    assert not errors, errors[:3]  # every generated case is valid input
    package_root = Path(rouge2.__file__).resolve().parents[1]
    env = dict(os.environ, ROUGE2_PURE_PYTHON="1", PYTHONPATH=str(package_root))
    import inspect

    code = inspect.getsource(run) + CHILD
    child = subprocess.run([sys.executable, "-c", code], input=json.dumps(jobs), env=env,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-3000:]
    there = json.loads(child.stdout)
    for (measures, options, cases), a, b in zip(jobs, here, there):
        for (cand, refs), row_c, row_py in zip(cases, a, b):
            assert row_c == row_py, (measures, options, cand, refs)
        assert a[-1] == b[-1] == a[:-1], (measures, options)  # score_corpus: here, there, per pair


def test_c_and_pure_python_agree_on_a_random_corpus():
    """A larger fixed-seed batch (hypothesis keeps its examples small): every
    option value and measure, texts of up to 80 words with repeats."""
    import random

    rng = random.Random(20261125)
    pools = {"tokenizer": ["rouge155", "unicode"], "stem": ["none", "rouge155", "snowball:english"],
             "stopwords": ["none", "smart"], "sentences": ["lines", "splitter", "none"],
             "multi_reference": ["pooled", "best", "average", "max-f"],
             "alpha": [0.5, 0.0, 1.0, 0.3], "rounding": ["none", "rouge155"]}

    def text():
        kind = rng.random()
        if kind < 0.05:
            return ""
        if kind < 0.1:
            return "".join(rng.choice(PUNCT + [" "]) for _ in range(rng.randint(1, 10)))
        if kind < 0.2:
            return "".join(chr(rng.choice([rng.randint(32, 0x2FF), rng.randint(0x370, 0x9FFF)]))
                           for _ in range(rng.randint(1, 60)))
        lines = [" ".join(rng.choice(WORDS[: rng.randint(4, len(WORDS))] + PUNCT[:3])
                          for _ in range(rng.randint(1, 40))) for _ in range(rng.randint(1, 3))]
        return "\n".join(lines)

    jobs = []
    for _ in range(40):
        options = {k: rng.choice(v) for k, v in pools.items() if rng.random() < 0.6}
        limit = rng.choice([None, None, ("word_limit", rng.randint(1, 30)), ("byte_limit", rng.randint(1, 120))])
        if limit:
            options["limit"] = list(limit)
        if rng.random() < 0.3:
            options["synonyms"] = [["big", "large"], ["house", "dog", "café"]]
        measures = rng.sample(MEASURES, rng.randint(1, len(MEASURES)))
        cases = [[text(), [text() for _ in range(rng.randint(1, 4))]] for _ in range(15)]
        jobs.append([measures, options, cases])
    compare_with_pure_python(jobs)


# ----------------------------------------------------------------------------- kernel by kernel
from rouge2.kernels import python as py  # noqa: E402

try:
    from rouge2.kernels import _speedups
except ImportError:  # pragma: no cover - the module is skipped then
    _speedups = None

TOKENS = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=4)), max_size=70)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_tokenizer_agrees_on_random_unicode(text):
    assert _speedups.rouge155_tokens(text) == py.rouge155_tokens(text)


@settings(max_examples=300, deadline=None)
@given(TOKENS, TOKENS, st.integers(1, 5))
def test_counting_kernels_agree_on_random_tokens(a, b, n):
    vc, vp = {}, {}
    ids_c = (_speedups.token_ids(a, vc), _speedups.token_ids(b, vc))
    ids_p = (py.token_ids(a, vp), py.token_ids(b, vp))
    assert ids_c == ids_p and vc == vp
    x, y = ids_p
    assert _speedups.ngram_hits(x, y, n) == py.ngram_hits(x, y, n)
    assert _speedups.lcs_length(x, y) == py.lcs_length(x, y)
    sx, sy = [x[: n * 3], x[n * 3:]], [y[:n], y[n:]]
    assert _speedups.union_lcs_hit(x, sx, y, sy) == py.union_lcs_hit(x, sx, y, sy)
    assert _speedups.wlcs_raw(x, sx, y, sy, 1.2) == py.wlcs_raw(x, sx, y, sy, 1.2)
