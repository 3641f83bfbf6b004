"""The optional C kernels (rouge2.kernels._speedups) agree with the pure-Python ones.

The Python kernels in rouge2.kernels (and the Python tokenizer and
id interning) are the reference.  Tests comparing against the C versions are
skipped when the extension was not built (no C compiler at install time).
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge2 import kernels as _kernels
from rouge2.kernels import py_rouge155_tokens, py_token_ids

try:
    from rouge2.kernels import _speedups
except ImportError:  # pragma: no cover - depends on the build
    _speedups = None

needs_c = pytest.mark.skipif(
    _speedups is None,
    reason="rouge2.kernels._speedups is not built (no C compiler at install time); pure Python only",
)

U64 = 2**64 - 1


def dp_lcs(a, b) -> int:
    """Textbook O(len(a)·len(b)) LCS length, independent of both kernels."""
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def naive_hits(cand, ref, n) -> int:
    from collections import Counter

    c = Counter(tuple(cand[i : i + n]) for i in range(len(cand) - n + 1))
    r = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
    return sum(min(k, r[g]) for g, k in c.items())


@st.composite
def id_pair(draw, max_size=40):
    """Two id lists over a small alphabet (so n-grams repeat and match) whose
    ids may be small or anywhere up to 2**64 - 1."""
    alphabet = draw(
        st.lists(
            st.one_of(st.integers(0, 8), st.integers(2**32 - 2, 2**32 + 2), st.integers(0, U64)),
            min_size=1,
            max_size=6,
            unique=True,
        )
    )
    pick = st.sampled_from(alphabet)
    a = draw(st.lists(pick, max_size=max_size))
    b = draw(st.lists(pick, max_size=max_size))
    return a, b


# -- the Python reference itself ------------------------------------------


@settings(max_examples=200, deadline=None)
@given(id_pair(), st.integers(1, 5))
def test_python_ngram_hits_is_exact(pair, n):
    a, b = pair
    assert _kernels.py_ngram_hits(a, b, n) == naive_hits(a, b, n)


@settings(max_examples=200, deadline=None)
@given(id_pair())
def test_python_lcs_matches_dynamic_programming(pair):
    a, b = pair
    assert _kernels.py_lcs_length(a, b) == dp_lcs(a, b)


def test_packed_ngrams_do_not_collide_with_large_ids():
    # (1, 0) and (0, 2**32) share the 32-bit packing; the reference must not confuse them.
    assert _kernels.py_ngram_hits([1, 0], [0, 2**32], 2) == 0
    assert _kernels.py_ngram_hits([2**40, 7, 2**63], [2**40, 7, 2**63], 3) == 1


# -- C against Python -------------------------------------------------------


@needs_c
@settings(max_examples=500, deadline=None)
@given(id_pair(), st.integers(1, 6))
def test_ngram_hits_agree(pair, n):
    a, b = pair
    expected = _kernels.py_ngram_hits(a, b, n)
    assert _speedups.ngram_hits(a, b, n) == expected
    assert _speedups.ngram_hits(b, a, n) == expected


@needs_c
@settings(max_examples=100, deadline=None)
@given(id_pair(max_size=400), st.integers(1, 4))
def test_ngram_hits_agree_on_long_texts(pair, n):
    a, b = pair
    assert _speedups.ngram_hits(a, b, n) == _kernels.py_ngram_hits(a, b, n)


@needs_c
@settings(max_examples=300, deadline=None)
@given(id_pair(max_size=200))
def test_lcs_length_agrees(pair):
    a, b = pair
    expected = _kernels.py_lcs_length(a, b)
    assert _speedups.lcs_length(a, b) == expected
    assert _speedups.lcs_length(b, a) == expected


@needs_c
@pytest.mark.parametrize("m", [1, 63, 64, 65, 127, 128, 129, 200, 1000])
def test_lcs_length_word_boundaries(m):
    import random

    rng = random.Random(m)
    for k in (2, 5, 50):
        a = [rng.randrange(k) for _ in range(m)]
        b = [rng.randrange(k) for _ in range(m + 7)]
        expected = _kernels.py_lcs_length(a, b)
        assert _speedups.lcs_length(a, b) == expected
        assert _speedups.lcs_length(b, a) == expected
        assert _speedups.lcs_length(a, a) == m
        big = [x + 2**63 for x in a]
        assert _speedups.lcs_length(big, [x + 2**63 for x in b]) == expected


@needs_c
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_edge_cases_agree(n):
    cases = [([], []), ([], [1, 2, 3]), ([1, 2, 3], []), ([5], [5]), ([1, 2], [1, 2]), ([U64] * 9, [U64] * 4)]
    for a, b in cases:
        assert _speedups.ngram_hits(a, b, n) == _kernels.py_ngram_hits(a, b, n)
        assert _speedups.lcs_length(a, b) == _kernels.py_lcs_length(a, b)
    # n larger than both texts
    assert _speedups.ngram_hits([1, 2, 3], [1, 2, 3], 4) == 0 == _kernels.py_ngram_hits([1, 2, 3], [1, 2, 3], 4)


@needs_c
def test_kernel_errors():
    for fn in (_speedups.ngram_hits, _kernels.py_ngram_hits):
        with pytest.raises(ValueError):
            fn([1], [1], 0)
    with pytest.raises(OverflowError):
        _speedups.ngram_hits([-1], [1], 1)
    with pytest.raises(OverflowError):
        _speedups.lcs_length([2**64], [1])
    with pytest.raises(TypeError):
        _speedups.lcs_length(["a"], [1])
    assert _speedups.ngram_hits((1, 2), (1, 2), 2) == 1  # any sequence


TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from("aZ09 -.,'\n\t\u00e9\u212a\u0130\u00df$"),
        st.characters(),
    ),
    max_size=300,
)


@needs_c
@settings(max_examples=500, deadline=None)
@given(TEXT)
def test_rouge155_tokens_agree(text):
    assert _speedups.rouge155_tokens(text) == py_rouge155_tokens(text)


@needs_c
def test_rouge155_tokens_long_word_and_interning():
    text = "A" * 5000 + " b " + "C" * 257
    assert _speedups.rouge155_tokens(text) == py_rouge155_tokens(text)
    x, y = _speedups.rouge155_tokens("Word word"), _speedups.rouge155_tokens("WORD")
    assert x[0] is x[1] is y[0]  # one object per word


@needs_c
@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "cc", "d", "e", "ff"]), max_size=20), max_size=5))
def test_token_ids_agree(texts):
    v_c, v_py = {"a": 0}, {"a": 0}
    for tokens in texts:
        assert _speedups.token_ids(tokens, v_c) == py_token_ids(tokens, v_py)
    assert v_c == v_py


# -- the whole pipeline, with and without the extension ----------------------

_SCRIPT = """
import json, sys
import rouge2
from rouge2 import kernels as _kernels
texts = json.load(sys.stdin)
out = [
    {k: list(v) for k, v in rouge2.score(c, r, ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-su4"]).items()}
    for c, r in texts
]
print(json.dumps({"c": _kernels.HAVE_C, "scores": out}))
"""


@needs_c
@needs_c
def test_scores_identical_with_and_without_extension(tmp_path):
    long_a = " ".join(f"w{i % 37}" for i in range(150))
    long_b = " ".join(f"w{(i * 7) % 41}" for i in range(170))
    texts = [
        ("The cat sat on the mat.", "A cat was sitting on the mat."),
        ("police killed the gunman", "the gunman was shot down by police"),
        ("", "empty candidate"),
        ("one", ""),
        (long_a, long_b),
        ("Line one here.\nLine two, there.", "Line one.\nAnother line two here."),
        ("Caf\u00e9 na\u00efve \u212aelvin 3.14 -- x-ray", "cafe naive kelvin 3 14 x ray"),
    ]
    results = {}
    for pure in ("0", "1"):
        env = dict(os.environ, ROUGE2_PURE_PYTHON=pure)
        proc = subprocess.run(
            [sys.executable, "-c", _SCRIPT],
            input=json.dumps(texts),
            capture_output=True,
            text=True,
            env=env,
            check=True,
            cwd=tmp_path,  # import the installed package, not a source tree in the cwd
        )
        results[pure] = json.loads(proc.stdout)
    assert results["0"]["c"] is True
    assert results["1"]["c"] is False
    assert results["0"]["scores"] == results["1"]["scores"]


def test_pure_python_flag_is_honoured():
    if os.environ.get("ROUGE2_PURE_PYTHON", "").strip() not in ("", "0"):
        assert not _kernels.HAVE_C
        assert _kernels.ngram_hits is _kernels.py_ngram_hits
        assert _kernels.lcs_length is _kernels.py_lcs_length
    elif _speedups is not None:
        assert _kernels.HAVE_C
        assert _kernels.ngram_hits is _speedups.ngram_hits


def _sentences(ids, cuts):
    """``ids`` cut into sentences at the positions in ``cuts`` (empty ones kept)."""
    bounds = [0, *sorted(c % (len(ids) + 1) for c in cuts), len(ids)]
    return [ids[a:b] for a, b in itertools.pairwise(bounds)]


@needs_c
@settings(max_examples=500, deadline=None)
@given(id_pair(max_size=150), st.lists(st.integers(0, 200), max_size=6), st.lists(st.integers(0, 200), max_size=6),
       st.booleans())
def test_summary_lcs_and_wlcs_agree(pair, cuts_a, cuts_b, trim):
    """union_lcs_hit and wlcs_raw, C against the Python definitions, on
    sentences of any length (over 64 ids: several words a column), empty
    sentences, and sentences that are not the flat tokens (a length limit)."""
    cand, ref = pair
    cand_sents, ref_sents = _sentences(cand, cuts_a), _sentences(ref, cuts_b)
    if trim:  # flat tokens differ from the sentences, as under a byte limit
        cand, ref = cand[: len(cand) // 2], ref[1:]
    args = (cand, cand_sents, ref, ref_sents)
    assert _speedups.union_lcs_hit(*args) == _kernels.python.union_lcs_hit(*args)
    for w in (1.2, 2.0, 0.5):
        assert _speedups.wlcs_raw(*args, w) == _kernels.python.wlcs_raw(*args, w)


@needs_c
def test_summary_lcs_many_small_cases():
    """Many small random cases with candidate words outside the reference
    sentence (the traceback's runs of unmatched tokens), seeded."""
    import random

    rng = random.Random(20261126)
    py = _kernels.python
    for _ in range(20000):
        a = rng.randint(2, 5)
        ref = [rng.randrange(a) for _ in range(rng.randint(1, 12))]
        cand = [rng.randrange(a + 2) for _ in range(rng.randint(1, 14))]
        args = (cand, _sentences(cand, [rng.randrange(15) for _ in range(rng.randint(0, 2))]),
                ref, _sentences(ref, [rng.randrange(13) for _ in range(rng.randint(0, 2))]))
        assert _speedups.union_lcs_hit(*args) == py.union_lcs_hit(*args), args
    for _ in range(300):  # sentences over 64 words, many sentences
        a = rng.randint(3, 12)
        ref = [rng.randrange(a) for _ in range(rng.randint(50, 400))]
        cand = [rng.randrange(a + 3) for _ in range(rng.randint(50, 400))]
        args = (cand, _sentences(cand, [rng.randrange(400) for _ in range(rng.randint(0, 8))]),
                ref, _sentences(ref, [rng.randrange(400) for _ in range(rng.randint(0, 4))]))
        assert _speedups.union_lcs_hit(*args) == py.union_lcs_hit(*args)


@needs_c
def test_summary_lcs_long_sentences():
    a = list(range(64)) + list(range(100, 200))
    b = list(range(63, -1, -1)) + list(range(64)) * 3 + list(range(150, 120, -1))
    sa, sb = [a[:70], a[70:]], [b[:10], b[10:130], b[130:]]
    assert _speedups.union_lcs_hit(a, sa, b, sb) == _kernels.python.union_lcs_hit(a, sa, b, sb) > 64
    assert _speedups.union_lcs_hit([], [], [1], [[1]]) == 0
    assert _speedups.union_lcs_hit([2**63, 5], [[2**63, 5]], [5, 2**63], [[5], [2**63]]) == 2
    with pytest.raises(OverflowError):
        _speedups.union_lcs_hit([-1], [[-1]], [1], [[1]])
    with pytest.raises(TypeError):
        _speedups.wlcs_raw(["a"], [["a"]], [1], [[1]], 1.2)


@needs_c
@pytest.mark.parametrize("length", [255, 256, 257, 511, 513, 6000])
def test_words_longer_than_the_stack_buffer(length):
    """Words outgrow the tokenizers' 256-byte stack buffer (grow_word) and the
    batch path's arenas (raw_reserve): C and Python must still agree."""
    import rouge2
    from rouge2.kernels import python as py

    word = ("ab" * length)[:length]
    text = " ".join([word, "x", word + "c", "short", word.upper()] * 3)
    assert _kernels.rouge155_tokens(text) == py_rouge155_tokens(text)
    pairs = [(text, [text + " more", word])]
    measures = ["rouge-1", "rouge-2", "rouge-l", "rouge-su4"]
    got = rouge2.score_corpus(pairs, measures=measures)
    want = [rouge2.Scorer(measures).score(*pairs[0])]
    assert got == want
    assert py.rouge155_tokens(word) == [word]


@needs_c
def test_stub_types_every_export():
    """_speedups.pyi names exactly what the extension exports."""
    import ast
    from pathlib import Path

    stub = Path(_kernels.__file__).with_name("_speedups.pyi")
    tree = ast.parse(stub.read_text())
    typed = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    exported = {name for name in dir(_speedups) if not name.startswith("_")}
    assert typed == exported
