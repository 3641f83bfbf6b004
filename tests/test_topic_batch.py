"""Topic measures on the batch path (issue 22, target 3): the same numbers as
the per-pair path, with the C and the pure-Python kernels, on SummEval and
on random texts (hypothesis), alone and next to other measures, through
``score_corpus``, ``corpus_stats``, ``iter_corpus_stats`` and threads.

The per-pair path (:meth:`rouge2.measures.topic.Topic.stats`) is the
definition; every comparison here is against it, never against stored numbers.
"""

from __future__ import annotations

import importlib.util
import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import DATA

import rouge2
from rouge2 import kernels
from rouge2.scoring import batch
from rouge2.scoring import topic_batch as tb
from rouge2.scoring.batch import batch_plan, per_pair_chunk
from rouge2.scoring.scorer import Scorer

needs_spacy = pytest.mark.skipif(importlib.util.find_spec("spacy") is None,
                                 reason="spaCy is not installed (the topics extra)")

KERNELS = [kernels.BATCH, kernels.PY_BATCH] if kernels.HAVE_C else [kernels.PY_BATCH]
TOPICS = ["rouge-topic-nn|jj", "rouge-topicuniq-nn|jj", "rouge-topic-vb", "rouge-topicuniq-noun|adj|propn"]


def _per_pair(scorer, pairs):
    return [scorer.score(c, r) for c, r in pairs]


def _same(got, want, label):
    assert got == want, label
    for g, w in zip(got, want):
        assert list(g) == list(w), label
        for name in w:  # the same floats, not only equal values
            assert [x.hex() for x in g[name]] == [x.hex() for x in w[name]], (label, name)


def _check(pairs, measures, **opts):
    """Every batch variant (C and Python kernels, C and Python P/R/F, small
    chunks) gives the per-pair path's scores and statistics."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = _per_pair(Scorer(measures, **opts), pairs)
        for kern in KERNELS:
            scorer = Scorer(measures, **opts)
            plan = batch_plan(scorer, kernels=kern)
            assert plan is not None and plan.topic is not None, kern
            for use_c in (True, False):
                _same(plan.score_pairs(pairs, chunk=5, use_c=use_c), want, f"{kern.name} use_c={use_c}")
        stats = [{n: [s for s, _ in v] for n, v in Scorer(measures, **opts).pair_stats(c, r).items()}
                 for c, r in pairs]
        assert rouge2.corpus_stats(pairs, measures, **opts) == stats
        flat = per_pair_chunk(Scorer(measures, **opts), pairs, 0)
        chunks = list(rouge2.iter_corpus_stats(pairs, measures, chunk=3, **opts))
        assert [x.hex() for c in chunks for x in c.stats] == [float(x).hex() for x in flat.stats]
        _same(rouge2.score_corpus(pairs, measures=measures, threads=2, **opts), want, "threads")


# -- SummEval, spaCy ---------------------------------------------------------------

def _summeval(docs: int, multi: bool):
    rows = [json.loads(line) for line in (DATA / "data/summeval/summeval.jsonl").read_text().splitlines()
            if line.strip()][:docs]
    return [(row["sys_summs"][name]["sys_summ"], list(row["ref_summs"]) if multi else row["ref_summ"])
            for row in rows for name in sorted(row["sys_summs"])]


@needs_spacy
@pytest.mark.parametrize("opts", [{}, {"multi_reference": "best"}, {"multi_reference": "max-f"},
                                  {"stem": True, "stopwords": "smart"}, {"word_limit": 30},
                                  {"byte_limit": 120, "multi_reference": "average"},
                                  {"topic_auxiliaries": True, "tokenizer": "unicode"},
                                  {"sentences": "splitter", "rounding": "rouge155"}])
def test_summeval_topic_batch_equals_per_pair(opts):
    pairs = _summeval(3, multi=True)
    _check(pairs, [*TOPICS, "rouge-1", "rouge-l"], **opts)
    _check(pairs[:10], ["rouge-topic-nn|jj"], **opts)


@needs_spacy
def test_summeval_full_first_references():
    """Every SummEval pair at hand (the 1,600 of the full data) against its first reference."""
    pairs = _summeval(100, multi=False)
    want = _per_pair(Scorer(TOPICS), pairs)
    for kern in KERNELS:
        _same(batch_plan(Scorer(TOPICS), kernels=kern).score_pairs(pairs), want, kern.name)


# -- random texts, pre-tagged: words the tokenizer splits, stopwords, tags of every kind

TAGS = ["NN", "NNS", "NNP", "JJ", "JJR", "VB", "VBD", "VBZ", "RB", "DT", "IN", "CD", "PRP", "nn", "Jj"]
WORDS = ["cat", "Cats", "the", "is", "was", "has", "U.S.", "e.g.", "10-year-old", "$5", "a-b-c",
         "running", "runs", "caf\u00e9", "\u6771\u4eac", "x1", "it's", "...", "New", "york", "of"]
tagged_word = st.tuples(st.one_of(st.sampled_from(WORDS), st.text("abcXYZ-.'1", min_size=1, max_size=5)),
                        st.sampled_from(TAGS)).map(lambda wt: f"{wt[0]}/{wt[1]}")
tagged_text = st.lists(tagged_word, max_size=25).map(" ".join)
pretagged_opts = st.fixed_dictionaries({
    "stem": st.booleans(),
    "stopwords": st.sampled_from(["none", "smart"]),
    "multi_reference": st.sampled_from(["pooled", "best", "average", "max-f"]),
    "tokenizer": st.sampled_from(["rouge155", "unicode"]),
    "topic_auxiliaries": st.booleans(),
})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(tagged_text, st.lists(tagged_text, min_size=1, max_size=3)),
                      min_size=1, max_size=7),
       opts=pretagged_opts,
       measures=st.lists(st.sampled_from(["rouge-topic-nn|jj", "rouge-topicuniq-nn|jj", "rouge-topic-vb",
                                          "rouge-topicuniq-jj|cd", "rouge-1", "rouge-2"]),
                         min_size=1, max_size=4, unique=True))
def test_random_pretagged_texts(pairs, opts, measures):
    if not any(m.startswith("rouge-topic") for m in measures):
        measures = [*measures, "rouge-topic-nn"]
    _check(pairs, measures, tagger="pretagged", **opts)


# -- random texts, spaCy ------------------------------------------------------------

PLAIN = ["The", "cat", "sat", "on", "the", "mat", ".", "Bright", "screens", "were", "great", "!",
         "U.S.", "officials", "have", "said", "running", "quickly", "new", "York", "\n", "is", "an", "old"]
plain_text = st.lists(st.sampled_from(PLAIN), max_size=30).map(" ".join)


@needs_spacy
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(plain_text, st.lists(plain_text, min_size=1, max_size=3)),
                      min_size=1, max_size=5),
       opts=st.sampled_from([{}, {"stem": True}, {"stopwords": "smart"}, {"word_limit": 5},
                             {"byte_limit": 20}, {"topic_auxiliaries": True}]))
def test_random_texts_spacy(pairs, opts):
    _check(pairs, ["rouge-topic-nn|jj", "rouge-topicuniq-vb", "rouge-2"], **opts)


# -- what stays pair by pair, what the plan holds ------------------------------------

def test_idf_weights_and_synonyms_stay_pair_by_pair():
    plan = batch_plan(Scorer(["rouge-1", "rouge-topic-nn"], tagger="pretagged", topic_weights="idf"))
    if kernels.HAVE_C:
        assert plan is not None and plan.topic is None and plan.rest_names == ["rouge-topic-nn"]
    assert batch_plan(Scorer(["rouge-topic-nn"], tagger="pretagged", synonyms=[["cat", "dog"]])) is None
    only = batch_plan(Scorer(["rouge-topic-nn"], tagger="pretagged"), kernels=kernels.PY_BATCH)
    assert only.batch_names == ["rouge-topic-nn"] and only.kernel_names == [] and only.rest_names == []


def test_no_batch_gives_the_same(monkeypatch):
    pairs = [("a/DT cat/NN sat/VBD", ["the/DT cat/NN ran/VBD", "dogs/NNS run/VBP"]),
             ("U.S./NNP troops/NNS", "U.S./NNP troops/NNS left/VBD")]
    measures = ["rouge-topic-nn|vb", "rouge-topicuniq-nn"]
    got = rouge2.score_corpus(pairs, measures=measures, tagger="pretagged")
    monkeypatch.setattr(batch, "ENABLED", False)
    assert rouge2.score_corpus(pairs, measures=measures, tagger="pretagged") == got


def test_a_tuple_of_sentences_or_bad_input_takes_the_per_pair_path():
    pairs = [(("a/DT cat/NN", "sat/VBD"), "cat/NN")]
    want = _per_pair(Scorer(["rouge-topic-nn"], tagger="pretagged"), pairs)
    assert rouge2.score_corpus(pairs, measures=["rouge-topic-nn"], tagger="pretagged") == want
    with pytest.raises(rouge2.UserError, match="malformed pre-tagged token"):
        rouge2.score_corpus([("cat", "cat/NN")], measures=["rouge-topic-nn"], tagger="pretagged")


def test_topic_tokens_start_afresh_when_full(monkeypatch):
    """Past its limits the shared vocabulary starts again, with the same numbers."""
    pairs = [(f"w{i}/NN cat/NN", f"cat/NN w{i + 1}/NN") for i in range(40)]
    want = rouge2.score_corpus(pairs, measures=["rouge-topic-nn"], tagger="pretagged")
    monkeypatch.setattr(tb, "TEXTS_LIMIT", 3)
    tb._SHARED.clear()
    got = rouge2.score_corpus(pairs, measures=["rouge-topic-nn"], tagger="pretagged",
                              stopwords=["zzz"])  # a fresh vocabulary, reset every chunk
    assert got == want


def test_pack_layout():
    ids, bounds, spans = tb.pack([tb.array("i", [3, 1]).tobytes(), b"", tb.array("i", [7]).tobytes()])
    assert list(ids) == [3, 1, 7] and list(bounds) == []
    assert list(spans) == [0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 3]
