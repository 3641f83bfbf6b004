"""The batch path (rouge2/scoring/batch.py) against the per-pair Scorer path.

Differential: on random texts (ASCII words, punctuation, digits, empty
texts, several lines, random unicode), 1-4 references, every measure kind,
stemming and stopwords on and off, every multi-reference mode and rounding,
the batch path with the C kernels, with the pure-Python kernels, and with
the bulk P/R/F in C or in Python must give exactly the floats
``Scorer.score`` gives.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rouge2
from rouge2 import kernels
from rouge2.scoring.batch import batch_plan
from rouge2.scoring.scorer import Scorer

MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-l-flat", "rouge-w-1.2",
            "rouge-w-2", "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*", "rouge-s0"]

WORDS = ["the", "cat", "sat", "on", "mat", "running", "runs", "ran", "a", "dog",
         "Cats", "THE", "generalization", "is", "was", "42", "x1"]
SEPS = [" ", " ", " ", "  ", ", ", ". ", "\n", "\n\n", " - ", "!", "\t", " \u00e9 ", "'s "]

word = st.one_of(st.sampled_from(WORDS), st.text(min_size=1, max_size=6))
text = st.one_of(
    st.lists(st.tuples(word, st.sampled_from(SEPS)), max_size=40).map(
        lambda parts: "".join(w + s for w, s in parts)),
    st.text(max_size=30),
    st.just(""),
)
long_text = st.lists(st.sampled_from(WORDS[:8]), min_size=60, max_size=150).map(" ".join)
references = st.lists(st.one_of(text, long_text), min_size=1, max_size=4)
options = st.fixed_dictionaries({
    "stem": st.booleans(),
    "stopwords": st.sampled_from(["none", "smart"]),
    "multi_reference": st.sampled_from(["pooled", "best", "average", "max-f"]),
    "rounding": st.sampled_from(["none", "rouge155"]),
    "sentences": st.sampled_from(["lines", "none"]),
})


def _variants(scorer):
    """(label, results function) for each batch variant available here."""
    out = []
    for kern in ([kernels.BATCH, kernels.PY_BATCH] if kernels.HAVE_C else [kernels.PY_BATCH]):
        plan = batch_plan(scorer, kernels=kern)
        assert plan is not None
        for use_c in (True, False):
            out.append((f"{kern.name}/use_c={use_c}", lambda pairs, plan=plan, use_c=use_c:
                        plan.score_pairs(pairs, chunk=3, use_c=use_c)))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(st.one_of(text, long_text), references), min_size=1, max_size=6),
       opts=options, measures=st.lists(st.sampled_from(MEASURES), min_size=1, max_size=5,
                                       unique=True))
def test_batch_equals_per_pair(pairs, opts, measures):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = Scorer(measures, **opts)
        expected = [scorer.score(c, r) for c, r in pairs]
        for label, fn in _variants(Scorer(measures, **opts)):
            got = fn(pairs)
            assert got == expected, label
            for g, e in zip(got, expected):
                assert list(g) == list(e)
                for name in e:  # same floats, not just equal values
                    assert [x.hex() for x in g[name]] == [x.hex() for x in e[name]], (label, name)


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=8), opts=options)
def test_score_corpus_equals_score(pairs, opts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = rouge2.score_corpus(pairs, measures=["rouge-1", "rouge-2", "rouge-l", "rouge-su4",
                                                   "rouge-w-1.2"], **opts)
        scorer = Scorer(["rouge-1", "rouge-2", "rouge-l", "rouge-su4", "rouge-w-1.2"], **opts)
        assert got == [scorer.score(c, r) for c, r in pairs]


def test_fallbacks_decided_in_one_place():
    plan = lambda *a, **k: batch_plan(Scorer(*a, **k), a[0] if a else None)  # noqa: E731
    if not kernels.HAVE_C:
        assert plan(["rouge-1"]) is None
        return
    assert plan(["rouge-1", "rouge-l", "rouge-w-1.2", "rouge-su4"]) is not None
    assert plan(["rouge-1"], stem=True, stopwords="smart", sentences="none") is not None
    assert plan(["rouge-1"], tokenizer="unicode") is None
    assert plan(["rouge-1"], sentences="splitter") is None
    assert plan(["rouge-1"], word_limit=10) is None
    assert plan(["rouge-1"], byte_limit=10) is None
    from rouge2.measures.ngram import NGram

    assert plan([NGram(1)]) is None


def test_sentence_tuples_and_chunks():
    pairs = [(("A cat sat.", "On the mat"), "the cat sat on a mat"),
             ("the dog", ["a dog", ("the", "dog ran")])] * 3 + [("x y z", "x z")] * 5
    scorer = Scorer(["rouge-1", "rouge-l"])
    expected = [scorer.score(c, r) for c, r in pairs]
    assert rouge2.score_corpus(pairs, measures=["rouge-1", "rouge-l"]) == expected
    plan = batch_plan(Scorer(["rouge-1", "rouge-l"]))
    if plan is not None:
        assert plan.score_pairs(pairs, chunk=2) == expected


def test_bad_input_still_clear():
    with pytest.raises(TypeError, match="candidate is None"):
        rouge2.score_corpus([(None, "a b")])
    with pytest.raises(ValueError, match="references is empty"):
        rouge2.score_corpus([("a", [])])


def test_foreign_text_warns():
    import rouge2.analysis.analyzer as an

    old = an._warned_foreign
    an._warned_foreign = False
    try:
        with pytest.warns(UserWarning, match="tokenizer"):
            rouge2.score_corpus([("Привет мир", "hello world")])
    finally:
        an._warned_foreign = old


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=6), opts=options)
def test_evaluate_equals_per_pair(pairs, opts):
    import rouge2.scoring.batch as batch

    preds = [c for c, _ in pairs]
    refs = [r for _, r in pairs]
    ms = ["rouge-1", "rouge-2", "rouge-l", "rouge-su4", "rouge-w-1.2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = rouge2.evaluate(preds, refs, ms, resamples=0, **opts)
        orig = batch.batch_plan
        batch.batch_plan = lambda *a, **k: None
        try:
            expected = rouge2.evaluate(preds, refs, ms, resamples=0, **opts)
        finally:
            batch.batch_plan = orig
    assert got.per_summary == expected.per_summary
    assert got.stats == expected.stats
    assert [[type(x) for s in d.values() for p in s for x in p] for d in got.stats] == \
        [[type(x) for s in d.values() for p in s for x in p] for d in expected.stats]
    assert got.to_dict() == expected.to_dict()


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(st.one_of(text, long_text), references), min_size=1, max_size=7),
       opts=options, measures=st.lists(st.sampled_from(MEASURES), min_size=1, max_size=4,
                                       unique=True))
def test_compact_stats_equal_per_pair(pairs, opts, measures):
    from rouge2.scoring.batch import per_pair_chunk

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chunks = list(rouge2.iter_corpus_stats(pairs, measures, chunk=3, **opts))
        expected = per_pair_chunk(Scorer(measures, **opts), pairs, 0)
    assert [c.start for c in chunks] == list(range(0, len(pairs), 3))
    got_stats = [x for c in chunks for x in c.stats]
    assert [x.hex() for x in got_stats] == [float(x).hex() for x in expected.stats]
    starts = [0]
    for c in chunks:
        base = starts[-1]
        starts.extend([base + c.ref_starts[p + 1] for p in range(len(c))])
    assert starts == list(expected.ref_starts)
    k = len(measures) - 1
    assert chunks[0].pair_stats(0, k) == expected.pair_stats(0, k)


def test_compact_stats_fallback_settings():
    pairs = [("The cat sat.", ["the cat", "a cat sat"]), ("dog", "dog")]
    chunks = list(rouge2.iter_corpus_stats(pairs, ["rouge-1", "rouge-l"], tokenizer="unicode"))
    assert len(chunks) == 1 and len(chunks[0]) == 2
    assert chunks[0].pair_stats(0, 0) == [(2, 2, 3), (2, 3, 3)]  # unigrams: the cat / a cat sat
    assert chunks[0].pair_stats(1, 1) == [(1, 1, 1)]


@pytest.mark.parametrize("mode", ["best", "max-f", "pooled", "average"])
def test_ties_between_references(mode):
    """Equal ranking keys with different statistics: the first reference wins,
    as ROUGE-1.5.5's strict > does (recall 1/2 = 2/4, precision 1/4 vs 2/4)."""
    pairs = [("a b c d", ["a x", "a b y z"]), ("a b c d", ["a b y z", "a x"]),
             ("a b c d", ["p q", "r s"]), ("", ["a", "b"])]
    ms = ["rouge-1", "rouge-l", "rouge-w-1.2", "rouge-su4"]
    scorer = Scorer(ms, multi_reference=mode)
    expected = [scorer.score(c, r) for c, r in pairs]
    if mode == "best":
        assert expected[0]["rouge-1"].precision == 0.25
        assert expected[1]["rouge-1"].precision == 0.5
    for label, fn in _variants(Scorer(ms, multi_reference=mode)):
        assert fn(pairs) == expected, label


@settings(max_examples=30, deadline=None)
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=6), opts=options)
def test_corpus_stats_equal_per_pair(pairs, opts):
    ms = ["rouge-2", "rouge-l", "rouge-w-1.2", "rouge-s*"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = rouge2.corpus_stats(pairs, ms, **opts)
        scorer = Scorer(ms, **opts)
        expected = [{n: [s for s, _ in v] for n, v in scorer.pair_stats(c, r).items()}
                    for c, r in pairs]
    assert got == expected
    assert [[type(x) for v in d.values() for s in v for x in s] for d in got] == \
        [[type(x) for v in d.values() for s in v for x in s] for d in expected]


def test_score_corpus_streams_a_generator():
    pairs = [("the cat sat", "the cat"), ("a b c", ["a b", "c"])] * 3000
    expected = rouge2.score_corpus(list(pairs), measures=["rouge-1", "rouge-l"])
    assert rouge2.score_corpus((p for p in pairs), measures=["rouge-1", "rouge-l"]) == expected
    bad = iter([("a", "b")] * 5000 + [("a", "b", "c")])
    with pytest.raises(TypeError, match=r"pairs\[5000\] must be a \(candidate, references\) pair"):
        rouge2.score_corpus(bad)
    with pytest.raises(TypeError, match="expects"):
        rouge2.score_corpus(5)


def test_word_remaps_shared_only_between_equal_settings():
    if not kernels.HAVE_C:
        return
    a = batch_plan(Scorer(["rouge-1"], stem=True))
    b = batch_plan(Scorer(["rouge-l"], stem=True, multi_reference="best"))
    c = batch_plan(Scorer(["rouge-1"], stem=True, stopwords="smart"))
    d = batch_plan(Scorer(["rouge-1"], stem=lambda w: w[:3]))
    assert a.remap is b.remap and a.remap is not c.remap and d.remap is not a.remap
    pairs = [("running dogs ran", "the dog runs")]
    for plan, scorer in ((c, Scorer(["rouge-1"], stem=True, stopwords="smart")),
                         (d, Scorer(["rouge-1"], stem=lambda w: w[:3])),
                         (a, Scorer(["rouge-1"], stem=True))):
        assert plan.score_pairs(pairs) == [scorer.score(*pairs[0])]
