"""rouge2.compat.rouge_score against the real rouge-score 0.1.2: the same floats, bit for bit.

Every comparison asserts ``==`` on the result dicts *and* equal ``repr``s, so
the floats agree to the last bit and the Python types agree too (rouge-score
returns the int ``Score(0, 0, 0)`` for an empty rougeL/rougeLsum).  Each test
runs on both kernel paths: the default (C when built) and the pure-Python
kernels, swapped in for the compat module.
"""

from __future__ import annotations

import contextlib
import json
import os
import re

import nltk
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.stem import porter
from rouge_score import rouge_scorer as ref_rouge_scorer
from rouge_score import scoring as ref_scoring
from rouge_score import tokenize as ref_tokenize
from rouge_score import tokenizers as ref_tokenizers
from shared_data import FULL as FULL_SHARED

import rouge2.kernels as kernels
from rouge2 import UserError
from rouge2.analysis.rouge_score_text import rouge_score_tokens
from rouge2.compat.rouge_score import rouge_scorer, scoring, tokenize, tokenizers

ALL_TYPES = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]
PATHS = ["default", "python"]


@contextlib.contextmanager
def kernel_path(path: str):
    """Run the compat scorer on the given kernels ("default": C when built)."""
    names = {
        "ngram_hits": kernels.py_ngram_hits,
        "lcs_length": kernels.py_lcs_length,
        "token_ids": kernels.py_token_ids,
        "union_lcs_hit": kernels.python.union_lcs_hit,
    }
    saved = {name: getattr(rouge_scorer, name) for name in names}
    if path == "python":
        for name, value in names.items():
            setattr(rouge_scorer, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(rouge_scorer, name, value)


def assert_same(ours, theirs):
    assert ours == theirs
    assert repr(ours) == repr(theirs)  # same bits, same types (int 0 vs 0.0), same key order


# -- text strategies ----------------------------------------------------------

WORDS = [
    "the", "The", "THE", "cat", "cats", "running", "runs", "ran", "dog", "dogs", "a", "an",
    "organization", "organize", "generously", "caresses", "ponies", "agreement", "agreed",
    "sky", "news", "going", "went", "1", "42", "3.14", "2,000", "x-ray", "e-mail", "don't",
    "U.S.", "Kelvin", "\u212a", "\u212aelvin", "\u0130stanbul", "\u0130", "caf\u00e9",
    "na\u00efve", "Stra\u00dfe", "\ufb01le", "\u5317\u4eac", "\u5929\u6c14", "\u041c\u043e\u0441\u043a\u0432\u0430",
    "\u01c5", "\u216b", "\u00bd", "\u00b2", "\u0663", "...", "!!!", "--", "''", "\u201cquoted\u201d",
    "\u24d0", "Ab1", "aBc2D",
]
SEPARATORS = [" ", " ", " ", "  ", "\n", "\n\n", " \n ", ". ", ".\n", ", ", "\t", "\r\n", "\u00a0", "\u3000", "\u2028", ""]

word = st.one_of(st.sampled_from(WORDS), st.text(max_size=8))
worded_text = st.lists(st.tuples(word, st.sampled_from(SEPARATORS)), max_size=40).map(
    lambda parts: "".join(w + s for w, s in parts)
)
# Few distinct words, many repeats and newlines: LCS ties and rougeLsum clipping.
small_text = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c", "d", "aa"]), st.sampled_from([" ", " ", " ", "\n", ". "])),
    max_size=40,
).map(lambda parts: "".join(w + s for w, s in parts))
special_text = st.sampled_from(["", " ", "\n", "\n\n\n", "...", "!?", "\u212a", "\u0130", "\u5317\u4eac", "a", "a\n\na"])
texts = st.one_of(worded_text, small_text, st.text(max_size=80), special_text)

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ref_scorer(types, stem=False, **kw):
    return ref_rouge_scorer.RougeScorer(types, use_stemmer=stem, **kw)


def our_scorer(types, stem=False, **kw):
    return rouge_scorer.RougeScorer(types, use_stemmer=stem, **kw)


# -- tokenization -------------------------------------------------------------


@SETTINGS
@given(texts)
def test_tokens_match(text):
    stemmer = porter.PorterStemmer()
    assert rouge_score_tokens(text, False) == ref_tokenize.tokenize(text, None)
    assert rouge_score_tokens(text, True) == ref_tokenize.tokenize(text, stemmer)
    assert tokenize.tokenize(text, None) == ref_tokenize.tokenize(text, None)
    assert tokenize.tokenize(text, stemmer) == ref_tokenize.tokenize(text, stemmer)
    for stem in (False, True):
        ours = tokenizers.DefaultTokenizer(use_stemmer=stem).tokenize(text)
        assert ours == ref_tokenizers.DefaultTokenizer(use_stemmer=stem).tokenize(text)


def test_tokens_known_cases():
    # Unicode lowercasing turns the Kelvin sign into "k" and splits "İ" (i + U+0307).
    assert rouge_score_tokens("\u212aelvin \u0130stanbul", False) == ["kelvin", "i", "stanbul"]
    assert rouge_score_tokens("\u5317\u4eac \u041c\u043e\u0441\u043a\u0432\u0430", False) == []
    # Only tokens longer than 3 characters are stemmed (nltk's Porter makes "was" "wa").
    assert rouge_score_tokens("was this running", True) == ["was", "thi", "run"]
    # bytes are lowercased as ASCII before the UTF-8 decode, so the Kelvin sign is lost.
    assert rouge_score_tokens("\u212aelvin".encode(), False) == ref_tokenize.tokenize("\u212aelvin".encode(), None) == ["elvin"]


class _OddStemmer:
    """A stemmer whose output is sometimes invalid (upper case, punctuation, empty)."""

    def stem(self, word):
        if word.endswith("s"):
            return word[:-1] + "!"
        if word.startswith("a"):
            return word.upper()
        if word.startswith("b"):
            return ""
        return word[:4]


@SETTINGS
@given(st.one_of(worded_text, small_text))
def test_custom_stemmer_matches(text):
    assert tokenize.tokenize(text, _OddStemmer()) == ref_tokenize.tokenize(text, _OddStemmer())


# -- per-pair scores ----------------------------------------------------------


@pytest.mark.parametrize("path", PATHS)
@SETTINGS
@given(target=texts, prediction=texts, stem=st.booleans())
def test_score_matches(path, target, prediction, stem):
    theirs = ref_scorer(ALL_TYPES, stem).score(target, prediction)
    with kernel_path(path):
        ours = our_scorer(ALL_TYPES, stem).score(target, prediction)
    assert_same(ours, theirs)


@pytest.mark.parametrize("path", PATHS)
@SETTINGS
@given(targets=st.lists(texts, min_size=1, max_size=4), prediction=texts, stem=st.booleans())
def test_score_multi_matches(path, targets, prediction, stem):
    theirs = ref_scorer(ALL_TYPES, stem).score_multi(targets, prediction)
    with kernel_path(path):
        ours = our_scorer(ALL_TYPES, stem).score_multi(targets, prediction)
    assert_same(ours, theirs)


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=100, deadline=None)
@given(
    types=st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=5),
    target=texts,
    prediction=texts,
    stem=st.booleans(),
)
def test_any_subset_and_order_of_types(path, types, target, prediction, stem):
    theirs = ref_scorer(types, stem).score(target, prediction)
    with kernel_path(path):
        ours = our_scorer(types, stem).score(target, prediction)
    assert_same(ours, theirs)


class _WhitespaceTokenizer:
    """Case-sensitive whitespace tokens, punctuation kept."""

    def tokenize(self, text):
        return text.split()


class _CharTokenizer:
    """Every non-space character a token (how CJK users often call rouge-score)."""

    def tokenize(self, text):
        return [c for c in text if not c.isspace()]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("tokenizer", [_WhitespaceTokenizer, _CharTokenizer])
@settings(max_examples=80, deadline=None)
@given(targets=st.lists(texts, min_size=1, max_size=3), prediction=texts)
def test_user_tokenizer_matches(path, tokenizer, targets, prediction):
    theirs = ref_scorer(ALL_TYPES, tokenizer=tokenizer())
    with kernel_path(path):
        ours = our_scorer(ALL_TYPES, tokenizer=tokenizer())
        assert_same(ours.score(targets[0], prediction), theirs.score(targets[0], prediction))
        assert_same(ours.score_multi(targets, prediction), theirs.score_multi(targets, prediction))


EDGE_PAIRS = [
    ("", ""),
    ("", "a cat"),
    ("a cat", ""),
    ("...", "!!!"),
    ("\n\n", "\n"),
    ("a\n\nb", "b\n\na"),
    ("\u212a", "k"),
    ("\u5317\u4eac \u5929\u6c14", "\u5317\u4eac \u5929\u6c14"),
    ("the cat the cat the cat", "the the cat cat"),
    ("a b a b a\nb a b", "b a\nb a b a\na"),
    ("police killed the gunman", "police kill the gunman"),
    ("The quick brown fox.\nIt jumped.", "A quick brown fox jumped.\n"),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("target, prediction", EDGE_PAIRS)
def test_edge_pairs(path, stem, target, prediction):
    theirs = ref_scorer(ALL_TYPES, stem).score(target, prediction)
    with kernel_path(path):
        ours = our_scorer(ALL_TYPES, stem).score(target, prediction)
    assert_same(ours, theirs)


def test_rouge_lsum_alone_does_not_tokenize_whole_texts():
    """rouge-score skips the whole-text tokenization when rougeLsum is the only type."""
    seen = {"ours": [], "theirs": []}

    class Recording:
        def __init__(self, key):
            self.key = key

        def tokenize(self, text):
            seen[self.key].append(text)
            return text.split()

    target, prediction = "one two\nthree four", "two one\nfour"
    for types in (["rougeLsum"], ["rougeLsum", "rouge1"]):
        seen["ours"].clear()
        seen["theirs"].clear()
        theirs = ref_scorer(types, tokenizer=Recording("theirs")).score(target, prediction)
        ours = our_scorer(types, tokenizer=Recording("ours")).score(target, prediction)
        assert_same(ours, theirs)
        assert sorted(seen["ours"]) == sorted(seen["theirs"])


@pytest.mark.parametrize("path", PATHS)
def test_long_texts(path, shared):
    """Whole SummEval source articles: sentences of hundreds of tokens (beyond the 64-token C traceback)."""
    rows = _summeval_rows(shared)[:2]
    for row in rows:
        article = row["src"]
        summary = row["ref_summ"]
        lines = article.replace(" . ", " .\n")
        for target, prediction in ((article, summary), (summary, article), (lines, article), (article, lines)):
            for stem in (False, True):
                types = ["rouge1", "rouge4", "rougeL", "rougeLsum"]
                theirs = ref_scorer(types, stem).score(target, prediction)
                with kernel_path(path):
                    ours = our_scorer(types, stem).score(target, prediction)
                assert_same(ours, theirs)


# -- rouge types and other arguments -------------------------------------------------


def _outcome(make, name):
    try:
        return ("ok", repr(make([name]).score("a b c", "a b d")))
    except ValueError:
        return ("ValueError", None)


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.sampled_from(["rouge0", "rouge10", "rougeX", "rougel", "RougeL", "rouge", "rougeLSum", " rouge1",
                     "rouge1 ", "rouge-1", "rouge_1", "", "rouge1\n", "rougeL\n", "rouge9", "rougeLsum"]),
    st.text(alphabet="rouge0123456789Lsm\n -", max_size=10),
    st.text(alphabet="0123456789Lsm\n ", max_size=4).map(lambda s: "rouge" + s),
))
def test_rouge_type_names_accepted_exactly_as_rouge_score(name):
    assert _outcome(rouge_scorer.RougeScorer, name) == _outcome(ref_rouge_scorer.RougeScorer, name)


@pytest.mark.parametrize("name", ["rouge0", "rouge10", "rougeX", "rouge-L"])
def test_bad_type_is_a_one_line_value_error_at_construction(name):
    with pytest.raises(ValueError) as info:
        rouge_scorer.RougeScorer(["rouge1", name])
    assert isinstance(info.value, UserError)
    assert name in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(ValueError):
        ref_rouge_scorer.RougeScorer(["rouge1", name]).score("a", "a")


def test_types_as_one_string_is_a_clear_error():
    with pytest.raises(ValueError, match="list of names"):
        rouge_scorer.RougeScorer("rougeL")


def test_score_multi_without_targets_is_a_value_error_as_in_rouge_score():
    with pytest.raises(ValueError):
        ref_rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")
    with pytest.raises(ValueError, match="at least one target"):
        rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")


def test_non_text_input_is_a_clear_error():
    with pytest.raises(TypeError) as info:
        rouge_scorer.RougeScorer(["rouge1"]).score(None, "a")
    assert isinstance(info.value, UserError) and "target" in str(info.value)


def test_scorer_is_a_base_scorer_and_keeps_its_types():
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    assert isinstance(scorer, scoring.BaseScorer)
    assert scorer.rouge_types == ["rouge1", "rougeL"]


@pytest.mark.parametrize("path", PATHS)
def test_score_batch_is_score_per_pair(path):
    targets = ["the cat sat", ["a dog", "the cat sat down"], ""]
    predictions = ["the cat", "the cat sat", "x"]
    ref = ref_scorer(ALL_TYPES)
    theirs = [ref.score(targets[0], predictions[0]), ref.score_multi(targets[1], predictions[1]), ref.score("", "x")]
    with kernel_path(path):
        assert_same(our_scorer(ALL_TYPES).score_batch(targets, predictions), theirs)
    with pytest.raises(ValueError, match="2 targets but 1 predictions"):
        our_scorer(ALL_TYPES).score_batch(["a", "b"], ["a"])


# -- split_summaries (nltk.sent_tokenize) ---------------------------------------------


def _punkt_installed() -> bool:
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        return False
    return True


def test_split_summaries_with_the_installed_nltk_data():
    target = "The cat sat on the mat. It was happy. Dr. Smith came."
    prediction = "A cat sat. The mat was red. Smith came home."
    types = ["rougeL", "rougeLsum"]
    if _punkt_installed():
        assert_same(
            our_scorer(types, split_summaries=True).score(target, prediction),
            ref_scorer(types, split_summaries=True).score(target, prediction),
        )
    else:
        # rouge-score fails with nltk's multi-line LookupError; rouge2 with one line saying what to do.
        with pytest.raises(LookupError):
            ref_scorer(types, split_summaries=True).score(target, prediction)
        with pytest.raises(LookupError) as info:
            our_scorer(types, split_summaries=True).score(target, prediction)
        message = str(info.value)
        assert isinstance(info.value, UserError)
        assert "\n" not in message and "punkt_tab" in message and "nltk.downloader" in message


def test_split_summaries_uses_nltk_sent_tokenize(monkeypatch):
    """With any sentence splitter in place of Punkt, both give the same numbers."""
    monkeypatch.setattr(nltk, "sent_tokenize", lambda text, language="english": re.split(r"(?<=[.!?]) ", text))
    types = ["rouge1", "rougeLsum"]
    for target, prediction in [
        ("The cat sat on the mat. It was happy. Dr. Smith came.", "A cat sat. The mat was red. Smith came home."),
        ("a b. b a. a", "a. b a b. a b a"),
        ("", "x. y"),
    ]:
        assert_same(
            our_scorer(types, split_summaries=True).score(target, prediction),
            ref_scorer(types, split_summaries=True).score(target, prediction),
        )


# -- scoring: F-measure and the bootstrap aggregator ----------------------------------


unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


@settings(max_examples=500, deadline=None)
@given(unit, unit)
def test_fmeasure_same_float(p, r):
    assert repr(scoring.fmeasure(p, r)) == repr(ref_scoring.fmeasure(p, r))


score_triple = st.one_of(
    st.tuples(unit, unit, unit),
    st.just((0, 0, 0)),
    st.tuples(st.integers(0, 7), st.integers(1, 7)).map(lambda ab: (ab[0] / ab[1],) * 3),
)


def _aggregate(module, seed_kw, rows, ci, n):
    agg = module.BootstrapAggregator(confidence_interval=ci, n_samples=n, **seed_kw)
    for a, b in rows:
        agg.add_scores({"rouge1": module.Score(*a), "rougeL": module.Score(*b)})
    return agg.aggregate()


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.tuples(score_triple, score_triple), min_size=1, max_size=30),
    ci=st.sampled_from([0.95, 0.9, 0.5, 0.0, 1.0]),
    n=st.integers(1, 60),
    seed=st.integers(0, 2**32 - 1),
)
def test_bootstrap_equals_rouge_score_after_numpy_seed(rows, ci, n, seed):
    """seed=s gives rouge-score's intervals after numpy.random.seed(s), draw for draw."""
    ours = _aggregate(scoring, {"seed": seed}, rows, ci, n)
    np.random.seed(seed)
    theirs = _aggregate(ref_scoring, {}, rows, ci, n)
    assert_same(ours, theirs)
    np.random.seed(seed)
    assert_same(_aggregate(scoring, {"seed": None}, rows, ci, n), theirs)


def test_bootstrap_default_seed_is_zero_and_reproducible():
    rows = [((x, x / 2, x / 3), (1 - x, 0.5, 0.25)) for x in (0.0, 0.0, 0.0, 0.0, 1.0, 0.37, 0.05)]
    first = _aggregate(scoring, {}, rows, 0.95, 1000)
    assert_same(_aggregate(scoring, {}, rows, 0.95, 1000), first)
    np.random.seed(0)
    assert_same(first, _aggregate(ref_scoring, {}, rows, 0.95, 1000))
    # mid is the median of the bootstrap means: near the mean of the scores, not equal to it
    mean = sum(a[0] for a, _ in rows) / len(rows)
    assert first["rouge1"].mid.precision != mean
    assert first["rouge1"].mid.precision == pytest.approx(mean, abs=0.02)


@pytest.mark.parametrize("kwargs", [{"confidence_interval": -0.1}, {"confidence_interval": 1.5}, {"n_samples": 0}, {"n_samples": -3}])
def test_bootstrap_bad_arguments_are_value_errors_as_in_rouge_score(kwargs):
    with pytest.raises(ValueError):
        ref_scoring.BootstrapAggregator(**kwargs)
    with pytest.raises(ValueError) as info:
        scoring.BootstrapAggregator(**kwargs)
    assert isinstance(info.value, UserError)


# -- SummEval: real summaries, all types, with and without stemming, one and many references


def _summeval_rows(shared):
    path = shared / "data" / "summeval" / "summeval.jsonl"
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _with_newlines(text: str) -> str:
    return text.replace(" . ", " .\n")


FULL = os.environ.get("ROUGE2_COMPAT_FULL", "").strip() not in ("", "0")


@pytest.fixture(scope="module")
def summeval_cases(shared):
    """(kind, stem, targets, prediction, rouge-score's result), computed once for both kernel paths.

    By default 4 of the 16 systems per document against the first reference
    (odd documents with one sentence per line, for rougeLsum), and one system
    per document against all 11 references.  ROUGE2_COMPAT_FULL=1: every
    system, against the first reference and against all 11, both stemmings.
    """
    rows = _summeval_rows(shared)
    scorers = {stem: ref_scorer(ALL_TYPES, stem) for stem in (False, True)}
    cases = []
    for d, row in enumerate(rows):
        systems = sorted(row["sys_summs"])
        prep = _with_newlines if d % 2 else (lambda t: t)
        picked = systems if FULL else [systems[(d + k) % len(systems)] for k in (0, 4, 8, 12)]
        for s in picked:
            prediction = prep(row["sys_summs"][s]["sys_summ"])
            target = prep(row["ref_summ"])
            for stem in (False, True):
                cases.append(("single", stem, target, prediction, scorers[stem].score(target, prediction)))
        multi = systems if FULL else [systems[d % len(systems)]]
        for k, s in enumerate(multi):
            prediction = prep(row["sys_summs"][s]["sys_summ"])
            targets = [prep(r) for r in row["ref_summs"]]
            stems = (False, True) if FULL else ((d + k) % 2 == 1,)
            for stem in stems:
                cases.append(("multi", stem, targets, prediction, scorers[stem].score_multi(targets, prediction)))
    return cases


@pytest.mark.parametrize("path", PATHS)
def test_summeval_identical(path, summeval_cases):
    scorers = {stem: our_scorer(ALL_TYPES, stem) for stem in (False, True)}
    kinds = set()
    with kernel_path(path):
        for kind, stem, targets, prediction, theirs in summeval_cases:
            scorer = scorers[stem]
            ours = scorer.score(targets, prediction) if kind == "single" else scorer.score_multi(targets, prediction)
            assert_same(ours, theirs)
            kinds.add((kind, stem))
    assert kinds == {("single", False), ("single", True), ("multi", False), ("multi", True)}
    assert len(summeval_cases) >= (900 if FULL_SHARED else 100)  # 100 documents, or the excerpt's 12


# -- docs/migrating.md -------------------------------------------------------------------


def test_migrating_doc_examples():
    import rouge2

    cand = "The inspectors went through the documents."
    ref = "Inspectors go through documentation and agreements."
    assert ref_scorer(["rouge1"], True).score(ref, cand)["rouge1"].fmeasure == 0.5
    assert our_scorer(["rouge1"], True).score(ref, cand)["rouge1"].fmeasure == 0.5
    # ROUGE-1.5.5 stems went -> go, documents/documentation -> docum: 4 of 6 tokens on each side
    assert rouge2.score(cand, ref, ["rouge-1"], stem=True)["rouge-1"].fmeasure == pytest.approx(4 / 6)
    kelvin = "\u212aelvin scale"
    assert ref_scorer(["rouge1"]).score("kelvin scale", kelvin)["rouge1"].fmeasure == 1.0
    assert rouge2.score(kelvin, "kelvin scale", ["rouge-1"])["rouge-1"].fmeasure == 0.5


@pytest.mark.parametrize("path", PATHS)
def test_bytes_texts(path):
    """rouge-score takes bytes too: ASCII-lowercased, then decoded as UTF-8."""
    target = "\u212aelvin went.\nThe CAT sat".encode()
    prediction = b"kelvin Went\nthe cat"
    for stem in (False, True):
        theirs = ref_scorer(ALL_TYPES, stem).score(target, prediction)
        with kernel_path(path):
            ours = our_scorer(ALL_TYPES, stem).score(target, prediction)
        assert_same(ours, theirs)
