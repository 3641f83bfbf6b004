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
