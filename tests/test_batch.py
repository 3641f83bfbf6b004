"""The batch path (rouge2/scoring/batch.py) against the per-pair Scorer path.

Differential: on random texts (ASCII words, punctuation, digits, empty
texts, several lines, sentence ends, abbreviations, random Unicode and
every kind of line break and space), 1-4 references, every measure kind,
every setting the batch path takes (both tokenizers, the three sentence
modes, word and byte limits, stemming, stopwords, every multi-reference
mode and rounding), the batch path with the C kernels, with the pure-Python
kernels, and with the bulk P/R/F in C or in Python must give exactly the
floats ``Scorer.score`` gives.  The analysis kernels are also compared token
by token with the analyzer's definition (``Analyzer.raw_streams``), and
``threads=N`` with one thread.
"""

from __future__ import annotations

import sys
import unicodedata
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rouge2
from rouge2 import kernels
from rouge2.analysis.sentences import rule_sentences
from rouge2.measures.ngram import NGram
from rouge2.scoring.batch import analysis_spec, batch_plan
from rouge2.scoring.scorer import Scorer

needs_c = pytest.mark.skipif(not kernels.HAVE_C, reason="the C kernels are not built")

MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-l-flat", "rouge-w-1.2",
            "rouge-w-2", "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*", "rouge-s0"]

WORDS = ["the", "cat", "sat", "on", "mat", "running", "runs", "ran", "a", "dog",
         "Cats", "THE", "generalization", "is", "was", "42", "x1", "Mr.", "U.S.", "J.", "e.g.",
         "end.", "end!", "why?", "\u201cquote.\u201d", "(Dr.", "ok.)", "caf\u00e9", "\u6771\u4eac",
         "\u0130stanbul", "\u212aelvin", "U.\u212a.", "stra\u00dfe", "\ufb01le", "na\u00efve."]
SEPS = [" ", " ", " ", "  ", ", ", ". ", "\n", "\n\n", " - ", "!", "\t", " \u00e9 ", "'s ",
        "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\xa0", "\u3000", "\x1f", ". \n "]

word = st.one_of(st.sampled_from(WORDS), st.text(min_size=1, max_size=6))
text = st.one_of(
    st.lists(st.tuples(word, st.sampled_from(SEPS)), max_size=40).map(
        lambda parts: "".join(w + s for w, s in parts)),
    st.text(max_size=30),
    st.just(""),
)
long_text = st.lists(st.sampled_from(WORDS[:8] + [".", "\n"]), min_size=60, max_size=150).map(" ".join)
references = st.lists(st.one_of(text, long_text), min_size=1, max_size=4)
limits = st.sampled_from([{}, {}, {"word_limit": 1}, {"word_limit": 4}, {"word_limit": 30},
                          {"byte_limit": 1}, {"byte_limit": 9}, {"byte_limit": 60}])
options = st.builds(
    lambda base, limit: {**base, **limit},
    st.fixed_dictionaries({
        "stem": st.booleans(),
        "stopwords": st.sampled_from(["none", "smart"]),
        "multi_reference": st.sampled_from(["pooled", "best", "average", "max-f"]),
        "rounding": st.sampled_from(["none", "rouge155"]),
        "sentences": st.sampled_from(["lines", "splitter", "none"]),
        "tokenizer": st.sampled_from(["rouge155", "unicode", "character"]),
    }),
    limits,
)


class PlainNGram(NGram):
    """ROUGE-N under another class: the kernels do not take it (exact classes
    only), so it is scored pair by pair next to the batch measures."""


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


def _outcome(fn):
    try:
        return fn()
    except Exception as exc:  # both paths must fail alike (a lone surrogate under -b)
        return f"{type(exc).__name__}: {exc}"


def _same_floats(got, expected, label):
    assert got == expected, label
    if isinstance(expected, str):
        return
    for g, e in zip(got, expected):
        assert list(g) == list(e)
        for name in e:  # same floats, not just equal values
            assert [x.hex() for x in g[name]] == [x.hex() for x in e[name]], (label, name)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(st.one_of(text, long_text), references), min_size=1, max_size=6),
       opts=options, measures=st.lists(st.sampled_from(MEASURES), min_size=1, max_size=5,
                                       unique=True))
def test_batch_equals_per_pair(pairs, opts, measures):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = Scorer(measures, **opts)
        expected = _outcome(lambda: [scorer.score(c, r) for c, r in pairs])
        for label, fn in _variants(Scorer(measures, **opts)):
            _same_floats(_outcome(lambda fn=fn: fn(pairs)), expected, label)


@settings(max_examples=60, deadline=None)
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=8), opts=options)
def test_score_corpus_equals_score(pairs, opts):
    ms = ["rouge-1", "rouge-2", "rouge-l", "rouge-su4", "rouge-w-1.2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _outcome(lambda: rouge2.score_corpus(pairs, measures=ms, **opts))
        scorer = Scorer(ms, **opts)
        assert got == _outcome(lambda: [scorer.score(c, r) for c, r in pairs])


# -- the analysis kernels, token by token ----------------------------------------

def _streams(kern, scorer, texts):
    """Per text, (flat tokens, non-empty sentences' tokens) from the analysis
    kernels of ``kern``, in words."""
    spec = analysis_spec(scorer.analyzer)
    res = kern.analyze_pairs([(t, "") for t in texts], 0, len(texts), spec)
    if res is None:
        return None
    (ids, bounds, spans), _, _, cands, _, _ = res
    view = lambda b, f: memoryview(b).cast(f) if isinstance(b, bytes) else b  # noqa: E731
    ids, bounds, spans, cands = view(ids, "i"), view(bounds, "q"), view(spans, "q"), view(cands, "i")
    words = kern.raw_words(0)
    out = []
    for t in cands:
        first, end, f0, f1 = spans[4 * t:4 * t + 4]
        sents = [[words[i] for i in ids[bounds[2 * k]:bounds[2 * k + 1]]] for k in range(first, end)]
        out.append(([words[i] for i in ids[f0:f1]], sents))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(st.one_of(text, long_text), min_size=1, max_size=5), opts=options)
def test_analysis_kernels_give_the_analyzers_tokens(texts, opts):
    opts = {k: v for k, v in opts.items() if k in ("sentences", "tokenizer", "word_limit", "byte_limit")}
    scorer = Scorer(["rouge-1"], **opts)
    expected = []
    for t in texts:
        try:
            flat, sents, _ = scorer.analyzer.raw_streams(t)
        except UnicodeEncodeError:  # a lone surrogate under -b: the kernels decline the chunk
            expected = None
            break
        expected.append((flat, [s for s in sents if s]))
    for kern in ([kernels.BATCH, kernels.PY_BATCH] if kernels.HAVE_C else [kernels.PY_BATCH]):
        assert _streams(kern, scorer, texts) == expected, kern.name


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(SEPS), st.text(max_size=3)),
                max_size=30).map("".join))
def test_splitter_sentences(t):
    """The C splitter's sentences are rule_sentences' (through their tokens
    under the unicode tokenizer, which keeps every letter)."""
    scorer = Scorer(["rouge-1"], sentences="splitter", tokenizer="unicode")
    tok = scorer.analyzer._tokenize
    expected = [tok(s) for s in rule_sentences(t)]
    got = _streams(kernels.BATCH, scorer, [t])
    assert got[0][1] == [s for s in expected if s]


UNICODE_TEXT = st.text(
    st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from("\u3042\u30ab\u30fc\uff76\uff9e\u5e74\u6708\u3005\u3099\u0301\u200c\u200d"
                        "\u0915\u094d\u0937\u093f\u1100\u1161\u11a8\uac00\U0001f1e6\U0001f1ef"
                        "\u0600\u0e33\r\n\t \u00df\ufb01\uff50\u2460\u0130\u212a"),
        st.sampled_from(["a", "Z", "9", ".", " "]),
    ),
    max_size=60,
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(UNICODE_TEXT, min_size=1, max_size=4),
       tokenizer=st.sampled_from(["unicode", "character"]),
       sentences=st.sampled_from(["lines", "splitter", "none"]))
def test_unicode_tokenizers_in_c_on_random_unicode(texts, tokenizer, sentences):
    """The C unicode and character tokenizers (rouge2/kernels/unitok.h) give
    the Python definitions' tokens on random Unicode: CJK, kana with their
    marks and extenders, Hangul jamo and syllables, Indic conjuncts,
    regional indicators, combining marks, joiners, compatibility forms."""
    scorer = Scorer(["rouge-1"], tokenizer=tokenizer, sentences=sentences)
    expected = []
    for t in texts:
        flat, sents, _ = scorer.analyzer.raw_streams(t)
        expected.append((flat, [s for s in sents if s]))
    assert _streams(kernels.BATCH, scorer, texts) == expected


HAND_CASES = [
    "\u0915\u094d\u0937\u093f x \u0915\u0301\u0915 \u0915\u094d\u200d\u0937",  # conjuncts, not
    "\u1100\u1161\u11a8 \u1100\u1100\u1161 \uac00\u11a8 \u11a8\u11a8 \u1161\u1161\u11a8 \u1100 x",  # Hangul
    "\U0001f1e6\U0001f1ef\U0001f1e6 a\u0301\u200d b\u200c",  # regional indicators, joiners
    "\u0600\u0600x \u0600 \u0600\t y\r\nz \u0e01\u0e33",  # Prepend, CR LF, SpacingMark
    "\t\u0301a \u0301b  \u3099\u30ab\u30fc\u5e74\u3005 2023\u5e743\u6708 iPhone\u624b\u673a",
    "\uff76\uff9e\uff70 \u30fc \ufb01le \uff50\uff4f\uff53 \u2460 \u00df \u0130 \u212a",
    "\u0627\u0644\u200c\u0647\u0627 \u200d\u200c \u094d\u0915",
]


@pytest.mark.parametrize("text", HAND_CASES)
@pytest.mark.parametrize("tokenizer", ["unicode", "character"])
def test_unicode_tokenizers_in_c_hand_cases(text, tokenizer):
    """One case a rule: conjuncts with and without a virama, every Hangul
    jamo sequence, regional-indicator pairs, prepended marks, CR LF,
    a mark after a tab or a space, kana extenders, compatibility forms."""
    for sentences in ("lines", "splitter", "none"):
        scorer = Scorer(["rouge-1"], tokenizer=tokenizer, sentences=sentences)
        flat, sents, _ = scorer.analyzer.raw_streams(text)
        assert _streams(kernels.BATCH, scorer, [text]) == [(flat, [s for s in sents if s])], sentences


def test_splitter_unicode_facts():
    """The facts the C splitter relies on, over every code point: only the
    Kelvin sign lowercases into ASCII; only U+0130 lowercases to more than
    one character; every line break str.splitlines knows is whitespace."""
    to_ascii, multi, breaks = [], [], []
    for cp in range(128, sys.maxunicode + 1):
        c = chr(cp)
        low = c.lower()
        if low.isascii():
            to_ascii.append(cp)
        if len(low) != 1:
            multi.append(cp)
        if len(("a" + c + "b").splitlines()) > 1 and not c.isspace():
            breaks.append(cp)
    assert (to_ascii, multi, breaks) == ([0x212A], [0x130], [])
    for cp in range(128):
        c = chr(cp)
        assert len(("a" + c + "b").splitlines()) == 1 or c.isspace()


def test_character_ascii_facts():
    """The facts the C character tokenizer's ASCII shortcut relies on
    (rouge2/kernels/unitok.h): every ASCII character is a grapheme cluster
    of its own before another ASCII character (its class is Other, CR, LF
    or Control; only CR LF joins), and it is a token exactly when it is a
    letter or digit."""
    from rouge2.analysis import tokenize as tok

    for cp in range(128):
        c = chr(cp)
        assert tok._grapheme_class(cp) in ("Other", "CR", "LF", "Control"), cp
        assert (unicodedata.category(c)[0] in "LN") == c.isalnum(), cp
        assert tok.character_tokens("\u00e9" + c + "x") == ["\u00e9", *([c.lower()] if c.isalnum() else []), "x"]


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="ascii"), max_size=60))
def test_unicode_equals_rouge155_on_ascii(t):
    """C takes the ASCII texts of the unicode tokenizer with ROUGE-1.5.5's
    rules: they must give the same tokens there."""
    from rouge2.analysis.tokenize import get_tokenizer

    assert get_tokenizer("unicode")(t) == kernels.py_rouge155_tokens(t)
    assert unicodedata.is_normalized("NFC", t)


# -- planning -----------------------------------------------------------------------

@needs_c
def test_plans_decided_per_measure():
    plan = lambda *a, **k: batch_plan(Scorer(*a, **k))  # noqa: E731
    assert plan(["rouge-1", "rouge-l", "rouge-w-1.2", "rouge-su4"]).rest_names == []
    for opts in ({"stem": True, "stopwords": "smart", "sentences": "none"}, {"tokenizer": "unicode"},
                 {"sentences": "splitter"}, {"word_limit": 10}, {"byte_limit": 10},
                 {"multi_reference": "average"}):
        assert plan(["rouge-1"], **opts) is not None, opts
    mixed = plan(["rouge-1", PlainNGram(2), "rouge-l"])
    assert mixed.batch_names == ["rouge-1", "rouge-l"] and mixed.rest_names == ["rouge-2"]
    assert plan([PlainNGram(1)]) is None
    assert plan([NGram(2)]).batch_names == ["rouge-2"]
    assert plan(["rouge-1"], synonyms=[["cat", "dog"]]).rest_names == []  # synonyms: synonyms.h
    assert plan(["rouge-w-1.2"], synonyms=[["cat", "dog"]]) is None  # ROUGE-W with synonyms: per pair


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vocab=st.sampled_from([2, 40, 120, 129, 250, 300]),
       lengths=st.lists(st.sampled_from([1, 2, 63, 64, 65, 200, 511, 512, 513, 700]), min_size=2,
                        max_size=6),
       seed=st.integers(0, 2 ** 16), sentences=st.sampled_from(["lines", "none"]))
def test_dense_and_long_pairs(vocab, lengths, seed, sentences):
    """The counting kernels' paths by size (rouge2/kernels/batch.h): a pair
    with at most 256 distinct ids is counted in dense ids, with more through
    the id-indexed tables; its LCS unrolled up to 512 tokens a side, in a
    loop past that; runs of pairs with one reference.  Every one gives the
    per-pair path's floats, with and
    without stopwords (a remap), under the word and character tokenizers."""
    import random

    rnd = random.Random(seed)
    words = [f"w{i}x" for i in range(vocab)]
    texts = [" ".join(rnd.choice(words) for _ in range(n)) for n in lengths]
    pairs: list[tuple[str, Any]] = [(texts[i], texts[-1 - i]) for i in range(len(texts))]
    # runs of pairs with one reference, and pairs with the same reference twice
    pairs += [(t, texts[0]) for t in texts] + [(t, [texts[-1], texts[-1], texts[0]]) for t in texts]
    options: list[dict[str, Any]] = [{}, {"stopwords": "smart"}, {"tokenizer": "character"}]
    for opts in options:
        scorer = Scorer(["rouge-1", "rouge-2", "rouge-l", "rouge-l-flat"], sentences=sentences, **opts)
        expected = [scorer.score(c, r) for c, r in pairs]
        for label, fn in _variants(scorer):
            _same_floats(fn(pairs), expected, (label, opts))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(st.one_of(text, long_text), references), min_size=1, max_size=6),
       opts=options)
def test_mixed_measure_sets(pairs, opts):
    """Batch measures and measures scored pair by pair in one call: the
    scores, the statistics and their order are the per-pair path's."""
    ms = lambda: ["rouge-1", PlainNGram(2), "rouge-l", "rouge-w-1.2"]  # noqa: E731
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = Scorer(ms(), **opts)
        expected = _outcome(lambda: [scorer.score(c, r) for c, r in pairs])
        got = _outcome(lambda: rouge2.score_corpus(pairs, measures=ms(), **opts))
        _same_floats(got, expected, "score_corpus")
        if isinstance(expected, str):
            return
        want = [{n: [s for s, _ in v] for n, v in scorer.pair_stats(c, r).items()} for c, r in pairs]
        assert rouge2.corpus_stats(pairs, ms(), **opts) == want
        chunks = list(rouge2.iter_corpus_stats(pairs, ms(), chunk=2, **opts))
        from rouge2.scoring.batch import per_pair_chunk

        flat = per_pair_chunk(Scorer(ms(), **opts), pairs, 0)
        assert [x.hex() for c in chunks for x in c.stats] == [float(x).hex() for x in flat.stats]


# -- threads --------------------------------------------------------------------------

@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(st.one_of(text, long_text), references), min_size=1, max_size=12),
       opts=options, chunk=st.integers(1, 4))
def test_threads_give_one_threads_results(pairs, opts, chunk):
    ms = ["rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-su4"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plan = batch_plan(Scorer(ms, **opts))
        if plan is not None:
            one = _outcome(lambda: plan.score_pairs(pairs, chunk=chunk))
            _same_floats(_outcome(lambda: plan.score_pairs(pairs, chunk=chunk, threads=3)), one, "plan")
        one = _outcome(lambda: rouge2.score_corpus(pairs, measures=ms, **opts))
        _same_floats(_outcome(lambda: rouge2.score_corpus(pairs, measures=ms, threads=2, **opts)), one,
                     "score_corpus")
        got = [(c.start, list(c.stats)) for c in rouge2.iter_corpus_stats(pairs, ms, chunk=chunk, threads=2,
                                                                          **opts)]
        want = [(c.start, list(c.stats)) for c in rouge2.iter_corpus_stats(pairs, ms, chunk=chunk, **opts)]
        assert got == want


def test_threads_argument_checked():
    for bad in (0, -1, 1.5, "2", True):
        with pytest.raises(rouge2.UserError, match="threads must be a whole number"):
            rouge2.score_corpus([("a", "a")], threads=bad)


def test_threads_many_chunks_in_order():
    pairs = [(f"w{i} a b c", [f"w{i} a", "b c d"]) for i in range(9000)]
    one = rouge2.score_corpus(pairs)
    assert rouge2.score_corpus(pairs, threads=2) == one
    assert rouge2.score_corpus(iter(pairs), threads=2) == one
    ev1 = rouge2.evaluate([c for c, _ in pairs], [r for _, r in pairs], resamples=0, multi_reference="pooled")
    ev2 = rouge2.evaluate([c for c, _ in pairs], [r for _, r in pairs], resamples=0, threads=2,
                          multi_reference="pooled")
    assert ev1.per_summary == ev2.per_summary and ev1.stats == ev2.stats


# -- the rest of the batch path ---------------------------------------------------------

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
        try:
            got = rouge2.evaluate(preds, refs, ms, resamples=0, **opts)
        except UnicodeEncodeError:
            return
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
        try:
            expected = per_pair_chunk(Scorer(measures, **opts), pairs, 0)
        except UnicodeEncodeError:
            return
        chunks = list(rouge2.iter_corpus_stats(pairs, measures, chunk=3, **opts))
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


def test_compact_stats_other_settings():
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


def test_average_sums_as_python_does():
    """Python's sum() (compensated since 3.12) of three recalls whose plain
    left-to-right sum differs: the average mode must add them the same way."""
    ref_a = " ".join(["a"] * 3 + ["x"] * 7)       # recall 3/10
    ref_b = " ".join(["a"] * 1 + ["y"] * 9999)    # recall 1/10000
    ref_c = " ".join(["a"] * 7 + ["z"] * 3)       # recall 7/10
    pairs = [("a a a a a a a", [ref_a, ref_b, ref_c])]
    scorer = Scorer(["rouge-1"], multi_reference="average")
    expected = [scorer.score(*pairs[0])]
    for label, fn in _variants(Scorer(["rouge-1"], multi_reference="average")):
        assert [r["rouge-1"].recall.hex() for r in fn(pairs)] == \
            [e["rouge-1"].recall.hex() for e in expected], label


@settings(max_examples=30, deadline=None)
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=6), opts=options)
def test_corpus_stats_equal_per_pair(pairs, opts):
    ms = ["rouge-2", "rouge-l", "rouge-w-1.2", "rouge-s*"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = Scorer(ms, **opts)
        try:
            expected = [{n: [s for s, _ in v] for n, v in scorer.pair_stats(c, r).items()}
                        for c, r in pairs]
        except UnicodeEncodeError:
            return
        got = rouge2.corpus_stats(pairs, ms, **opts)
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


@needs_c
def test_word_remaps_shared_only_between_equal_settings():
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


@needs_c
def test_kernel_errors_are_clear():
    from rouge2.kernels import _speedups

    spec = (0, 0, 0, 0, False, None)
    with pytest.raises(ValueError, match="bad analysis spec"):
        _speedups.analyze_pairs([("a", "b")], 0, 1, (0, 7, 0, 0, False, None))
    with pytest.raises(TypeError, match="tokenizer's definitions"):
        _speedups.analyze_pairs([("a", "b")], 0, 1, (1, 0, 0, 0, False, None))
    packed, _, _, cands, starts, refs = _speedups.analyze_pairs([("a b", "b")], 0, 1, spec)
    with pytest.raises(IndexError):
        _speedups.score_pairs(packed, b"\x00" * 4, cands, starts, refs, [(0, 1, 0, 0.0)])
    with pytest.raises(ValueError, match="ref_starts"):
        _speedups.score_pairs(packed, None, cands, b"\x00" * 8, refs, [(0, 1, 0, 0.0)])
    with pytest.raises(ValueError, match="mode"):
        _speedups.prf_many(b"", b"\x00" * 8, [], [], 9, 0.5, False)
    with pytest.raises(TypeError, match="tuple subclass"):
        _speedups.records(b"", ("a",), dict)


LIMIT_TEXTS = [
    "The cat sat.\nOn the mat it sat!\n  and then\tit ran, fast.",
    "caf\u00e9 na\u00efve x\n\u6771\u4eac is big. Mr. Smith went.\n\xa0\n ok",
    "Dr. J. Smith arrived. \u201cHello.\u201d\r\nHe left? Yes!  U.S. forces\u2028won.",
    "  leading space line\n\ttab line here\n\nlast one",
    "one",
    "",
]


@pytest.mark.parametrize("sentences", ["lines", "splitter", "none"])
@pytest.mark.parametrize("tokenizer", ["rouge155", "unicode", "character"])
def test_limits_at_every_cut(sentences, tokenizer):
    """Every word and byte limit from 1 to past the text's end: the kernels'
    tokens are the analyzer's (random texts rarely land on a boundary)."""
    for kind, top in (("word_limit", 30), ("byte_limit", 110)):
        for limit in range(1, top):
            scorer = Scorer(["rouge-1"], sentences=sentences, tokenizer=tokenizer, **{kind: limit})
            expected = []
            for t in LIMIT_TEXTS:
                flat, sents, _ = scorer.analyzer.raw_streams(t)
                expected.append((flat, [s for s in sents if s]))
            for kern in ([kernels.BATCH, kernels.PY_BATCH] if kernels.HAVE_C else [kernels.PY_BATCH]):
                assert _streams(kern, scorer, LIMIT_TEXTS) == expected, (kern.name, kind, limit)


def test_cli_threads(tmp_path, capsys):
    """``rouge2 score --threads N`` prints what one thread prints."""
    from rouge2.cli import main

    refs = tmp_path / "refs.txt"
    preds = tmp_path / "preds.txt"
    refs.write_text("".join(f"the cat {i} sat on the mat . it was {i % 7}\n" for i in range(300)))
    preds.write_text("".join(f"a cat {i % 11} sat on a mat {i}\n" for i in range(300)))
    out = {}
    for t in ("1", "2", "0"):
        assert main(["score", "-r", str(refs), "-i", str(preds), "--json", "--resamples", "50",
                     "--sentences", "splitter", "--threads", t]) == 0
        out[t] = capsys.readouterr().out
    assert out["1"] == out["2"] == out["0"]
    assert main(["score", "-r", str(refs), "-i", str(preds), "--threads", "-1"]) == 2
    assert "--threads: expected 0 (one per core) or more" in capsys.readouterr().err


@needs_c
def test_rounding_arithmetic_is_pythons():
    """prf_many rounds to five decimals with exact integer arithmetic (no
    GIL, no strings): it must be float("%.5f" % x) for every x, ties and
    near-ties included (P = x / 1 here, so P's rounding is x's)."""
    import random
    from array import array

    from rouge2.kernels import _speedups

    rng = random.Random(7)
    xs = [0.0, 1e-10, 1e-11, 5e-6, 4.9999999999e-6, 1.5e-5, 2.5e-5, 0.123455, 0.123465, 1.0, 0.999995,
          2.0 ** 20 - 1e-9, 2.0 ** 20, 3e6, 5e-324]
    for _ in range(30000):
        xs.append(rng.choice([rng.random(), rng.randint(0, 10 ** 5) / 10 ** 5 + rng.choice([0, 5e-6, -5e-6]),
                              rng.randint(0, 10 ** 7) / 10 ** 6 + 5e-6, rng.uniform(0, 2 ** 21),
                              rng.randint(1, 1000) / rng.randint(1, 1000)]))
    stats = array("d")
    for x in xs:
        stats.extend((x, 1.0, 1.0, 1.0))
    out = memoryview(_speedups.prf_many(stats, array("q", range(len(xs) + 1)), [0.0], [0], 0, 0.5,
                                        True)).cast("d")
    assert [out[3 * i] for i in range(len(xs))] == [float("%.5f" % x) for x in xs]
