"""Invariants with synonyms, for every measure (hypothesis).

A small dictionary with many overlapping groups makes synonym matches
frequent, so the maximum matching is exercised on every example.  Topic
measures read pre-tagged ``word/TAG`` text, so no model is needed here.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge2
from rouge2.synonyms.dictionary import DictionaryMatcher

GROUPS = [["screen", "display", "monitor"], ["cat", "feline"], ["big", "large", "huge"],
          ["display", "show"], ["runs", "sprints"], ["large", "wide"]]
WORDS = ["screen", "display", "monitor", "show", "cat", "feline", "big", "large", "huge",
         "wide", "runs", "sprints", "the", "a", "dog"]
TAGS = ["NN", "JJ", "VBZ", "DT"]

plain_sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=8).map(" ".join)
plain_text = st.lists(plain_sentence, min_size=1, max_size=3).map("\n".join)
tagged_text = st.lists(
    st.tuples(st.sampled_from(WORDS), st.sampled_from(TAGS)).map(lambda wt: f"{wt[0]}/{wt[1]}"),
    min_size=0, max_size=10,
).map(" ".join)

ALL = ["rouge-1", "rouge-2", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*"]
SYMMETRIC = ["rouge-1", "rouge-2", "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*"]
TOPICS = ["rouge-topic-nn|jj", "rouge-topicuniq-nn|jj"]


def matcher():
    return DictionaryMatcher.from_groups(GROUPS)


@settings(max_examples=120, deadline=None)
@given(plain_text, st.lists(plain_text, min_size=1, max_size=2), st.booleans(),
       st.sampled_from(["pooled", "best", "average", "max-f"]))
def test_p_and_r_at_most_one_with_synonyms(cand, refs, stem, mode):
    res = rouge2.score(cand, refs, ALL, synonyms=matcher(), stem=stem, multi_reference=mode)
    for name, s in res.items():
        assert 0.0 <= s.precision <= 1.0 and 0.0 <= s.recall <= 1.0, (name, s)


@settings(max_examples=120, deadline=None)
@given(plain_text, plain_text, st.booleans())
def test_symmetric_measures_swap_p_and_r_with_synonyms(a, b, stem):
    ab = rouge2.score(a, b, SYMMETRIC, synonyms=matcher(), stem=stem)
    ba = rouge2.score(b, a, SYMMETRIC, synonyms=matcher(), stem=stem)
    for name in SYMMETRIC:
        assert ab[name].precision == pytest.approx(ba[name].recall), name
        assert ab[name].recall == pytest.approx(ba[name].precision), name


@settings(max_examples=120, deadline=None)
@given(plain_sentence, plain_sentence, st.booleans())
def test_sentence_level_lcs_symmetric_with_synonyms(a, b, stem):
    ab = rouge2.score(a, b, ["rouge-l"], synonyms=matcher(), stem=stem)["rouge-l"]
    ba = rouge2.score(b, a, ["rouge-l"], synonyms=matcher(), stem=stem)["rouge-l"]
    assert ab.precision == pytest.approx(ba.recall)
    assert 0.0 <= ab.precision <= 1.0 and 0.0 <= ab.recall <= 1.0


@settings(max_examples=120, deadline=None)
@given(tagged_text, tagged_text, st.booleans(), st.booleans())
def test_topic_measures_bounded_and_symmetric(a, b, stem, syn):
    opts = dict(tagger="pretagged", stem=stem, synonyms=matcher() if syn else False)
    ab = rouge2.score(a, b, TOPICS, **opts)
    ba = rouge2.score(b, a, TOPICS, **opts)
    for name in TOPICS:
        assert 0.0 <= ab[name].precision <= 1.0 and 0.0 <= ab[name].recall <= 1.0
        assert ab[name].precision == pytest.approx(ba[name].recall), name
        assert ab[name].recall == pytest.approx(ba[name].precision), name


def test_synonyms_never_lower_a_score():
    plain = rouge2.score("the big screen", "the large display", ["rouge-1", "rouge-l"])
    syn = rouge2.score("the big screen", "the large display", ["rouge-1", "rouge-l"], synonyms=matcher())
    assert plain["rouge-1"].recall == pytest.approx(1 / 3)
    assert syn["rouge-1"].recall == 1.0 and syn["rouge-l"].recall == 1.0


# --------------------------------------------------------------------------
# Monotone: adding synonyms never lowers recall or precision (docs/synonyms.md)

MONO_WORDS = ["screen", "screens", "display", "displays", "monitor", "show", "great", "good",
              "a", "the", "cat", "cats", "feline", "big", "bigger", "large", "bought", "purchased"]
mono_group = st.lists(st.sampled_from(MONO_WORDS), min_size=2, max_size=4).filter(lambda ws: len(set(ws)) > 1)
mono_head = st.tuples(st.sampled_from(MONO_WORDS), st.lists(st.sampled_from(MONO_WORDS), min_size=1, max_size=3))
mono_dict = st.lists(st.one_of(mono_group, mono_head), min_size=1, max_size=5).map(
    lambda es: "\n".join(f"{e[0]}\t{', '.join(e[1])}" if isinstance(e, tuple) else ", ".join(e) for e in es) + "\n"
)
mono_sentence = st.lists(st.sampled_from(MONO_WORDS), min_size=0, max_size=7).map(" ".join)
mono_text = st.lists(mono_sentence, min_size=1, max_size=3).map("\n".join)
mono_tagged = st.lists(
    st.lists(
        st.tuples(st.sampled_from(MONO_WORDS), st.sampled_from(TAGS)).map(lambda wt: f"{wt[0]}/{wt[1]}"),
        min_size=0, max_size=6,
    ).map(" ".join),
    min_size=1, max_size=3,
).map("\n".join)
MONO_MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-l-flat", "rouge-w-1.2", "rouge-s4", "rouge-su4",
                 "rouge-s*"]


def _assert_not_lower(plain, syn, names):
    for name in names:
        assert syn[name].recall >= plain[name].recall - 1e-12, (name, plain[name], syn[name])
        assert syn[name].precision >= plain[name].precision - 1e-12, (name, plain[name], syn[name])


@settings(max_examples=250, deadline=None)
@given(mono_text, mono_text, mono_dict, st.booleans(), st.booleans())
def test_synonyms_never_lower_recall_or_precision(cand, ref, text, stem, lemmas):
    d = DictionaryMatcher.from_text(text, lemmas=lemmas)
    plain = rouge2.score(cand, ref, MONO_MEASURES, stem=stem)
    syn = rouge2.score(cand, ref, MONO_MEASURES, stem=stem, synonyms=d)
    _assert_not_lower(plain, syn, MONO_MEASURES)


@settings(max_examples=120, deadline=None)
@given(mono_text, st.lists(mono_text, min_size=2, max_size=3), mono_dict, st.sampled_from(["pooled", "average"]))
def test_synonyms_never_lower_scores_pooled_or_averaged(cand, refs, text, mode):
    d = DictionaryMatcher.from_text(text)
    plain = rouge2.score(cand, refs, MONO_MEASURES, multi_reference=mode)
    syn = rouge2.score(cand, refs, MONO_MEASURES, multi_reference=mode, synonyms=d)
    _assert_not_lower(plain, syn, MONO_MEASURES)


@settings(max_examples=150, deadline=None)
@given(mono_tagged, mono_tagged, mono_dict, st.booleans())
def test_synonyms_never_lower_topic_scores(cand, ref, text, stem):
    d = DictionaryMatcher.from_text(text)
    plain = rouge2.score(cand, ref, TOPICS, tagger="pretagged", stem=stem)
    syn = rouge2.score(cand, ref, TOPICS, tagger="pretagged", stem=stem, synonyms=d)
    _assert_not_lower(plain, syn, TOPICS)


@settings(max_examples=60, deadline=None)
@given(mono_text, mono_text)
def test_wordnet_never_lowers_scores(cand, ref):
    plain = rouge2.score(cand, ref, MONO_MEASURES)
    syn = rouge2.score(cand, ref, MONO_MEASURES, synonyms=True)
    _assert_not_lower(plain, syn, MONO_MEASURES)


def test_issue_example_synonyms_do_not_lower_rouge_l():
    # good ~ great: the synonym-aware union LCS of "a a great" marks only
    # "a great" (both candidate sentences pick the same path); the plain
    # union marks all three words.  The larger hit is kept.
    ms = ["rouge-l", "rouge-w-1.2"]
    plain = rouge2.score("a great\na good", ["a a great"], measures=ms)
    syn = rouge2.score("a great\na good", ["a a great"], measures=ms, synonyms=[["good", "great"]])
    wn = rouge2.score("a great\na good", ["a a great"], measures=ms, synonyms=True)
    assert plain["rouge-l"].recall == 1.0
    assert syn["rouge-l"].recall == 1.0 and wn["rouge-l"].recall == 1.0
    for name in ms:
        assert syn[name] == plain[name] and wn[name] == plain[name]
