"""Synonyms on the batch path (issue 22, target 2) against the per-pair path.

ROUGE-N and ROUGE-L (summary-level and flat) with synonyms are counted by
the kernels' ``synonym_stats`` (rouge2/kernels/synonyms.h, its definition
in rouge2/kernels/python.py) over a relation resolved once per vocabulary
(rouge2/synonyms/ids.py).  The per-pair path (``Scorer.score``,
rouge2/synonyms/matching.py) is the definition of the numbers: on random
texts over a small vocabulary with a random small synonym dictionary (so
most pairs have synonym edges, often several per word), with and without
stemming and stopwords, every multi-reference mode, the batch path with
the C kernels and with the pure-Python kernels must give exactly its
floats; and on real SummEval pairs with WordNet.
"""

from __future__ import annotations

import json
import random
import warnings
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rouge2
from rouge2 import kernels
from rouge2.scoring import batch as batch_mod
from rouge2.scoring.batch import batch_plan
from rouge2.scoring.scorer import Scorer
from rouge2.synonyms import load_synonyms
from rouge2.synonyms.ids import WordRelation, indexable

needs_c = pytest.mark.skipif(not kernels.HAVE_C, reason="the C kernels are not built")

#: words with shared stems (run, runs, running), stopwords (the, a, on, is)
VOCAB = ["cat", "cats", "dog", "dogs", "sat", "mat", "run", "runs", "running", "ran", "big", "large",
         "the", "a", "on", "is", "red", "blue", "fast", "quick", "car", "auto", "x1", "42"]
SYN_MEASURES = ["rouge-1", "rouge-2", "rouge-3", "rouge-4", "rouge-l", "rouge-l-flat"]
#: measures that keep synonyms per pair, mixed in
OTHER = ["rouge-w-1.2", "rouge-su4"]

sentence = st.lists(st.sampled_from(VOCAB), max_size=12).map(" ".join)
long_sentence = st.lists(st.sampled_from(VOCAB[:12]), min_size=60, max_size=80).map(" ".join)
text = st.one_of(
    st.lists(st.one_of(sentence, sentence, long_sentence), max_size=4).map("\n".join),
    st.just(""),
)
references = st.one_of(text, st.lists(text, min_size=1, max_size=3))
groups = st.lists(st.lists(st.sampled_from(VOCAB), min_size=2, max_size=4, unique=True), min_size=1,
                  max_size=6)
options = st.fixed_dictionaries({
    "stem": st.booleans(),
    "stopwords": st.sampled_from(["none", "smart"]),
    "multi_reference": st.sampled_from(["pooled", "best", "average", "max-f"]),
    "sentences": st.sampled_from(["lines", "none"]),
    "tokenizer": st.sampled_from(["rouge155", "unicode"]),
    "synonym_lemmas": st.booleans(),
})


def _hex(results):
    return [{n: [x.hex() for x in s] for n, s in r.items()} for r in results]


def _kernels():
    return [kernels.BATCH, kernels.PY_BATCH] if kernels.HAVE_C else [kernels.PY_BATCH]


def _check(pairs, measures, **opts):
    """Every batch variant gives the per-pair path's floats, scores and statistics."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = Scorer(measures, **opts)
        want = _hex([scorer.score(c, r) for c, r in pairs])
        want_stats = [{n: [s for s, _ in v] for n, v in scorer.pair_stats(c, r).items()} for c, r in pairs]
        for kern in _kernels():
            plan = batch_plan(Scorer(measures, **opts), kernels=kern)
            assert plan is not None and plan.relation is not None
            assert set(plan.rest_names) == {m for m in measures if m in OTHER}
            assert _hex(plan.score_pairs(pairs, chunk=3)) == want, kern
            got = [s for c in plan.iter_stats(pairs, chunk=2) for s in c[1]]
            assert got == want_stats, kern


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=5), syn=groups, opts=options,
       measures=st.lists(st.sampled_from(SYN_MEASURES), min_size=1, max_size=4, unique=True),
       others=st.lists(st.sampled_from(OTHER), max_size=1))
def test_batch_synonyms_equal_per_pair(pairs, syn, opts, measures, others):
    _check(pairs, measures + others, synonyms=syn, **opts)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=4), syn=groups,
       stem=st.booleans())
def test_a_dictionary_file_on_the_batch_path(tmp_path_factory, pairs, syn, stem):
    path = tmp_path_factory.mktemp("syn") / "domain.txt"
    path.write_text("".join(", ".join(g) + "\n" for g in syn), encoding="utf-8")
    _check(pairs, SYN_MEASURES, synonyms=str(path), stem=stem)
    _check(pairs, ["rouge-1", "rouge-l"], synonyms=["wordnet", str(path)], stem=stem)


def _summeval_pairs(shared, count):
    path = shared / "data" / "summeval" / "summeval.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    pairs = [(row["sys_summs"][name]["sys_summ"], row["ref_summs"][:2]) for row in rows
             for name in sorted(row["sys_summs"])]
    return random.Random(22).sample(pairs, count)


@pytest.mark.parametrize(("stem", "mode"), [(False, "pooled"), (True, "best")])
def test_wordnet_on_summeval_pairs(shared, stem, mode):
    """Real summaries: most pairs have WordNet edges (the kernels' matching
    runs, not the screen), two references each."""
    pairs = _summeval_pairs(shared, 30)
    _check(pairs, ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-l-flat", "rouge-w-1.2"],
           synonyms="wordnet", stem=stem, multi_reference=mode)


def test_summeval_synonyms_differ_from_plain(shared):
    """The kernels' matching is what gives the synonym scores: on SummEval
    pairs, WordNet changes some hits (so the checks above compare more than
    the plain kernels' numbers)."""
    pairs = _summeval_pairs(shared, 30)
    ms = ["rouge-1", "rouge-2", "rouge-l"]
    plain = rouge2.corpus_stats(pairs, ms)
    syn = rouge2.corpus_stats(pairs, ms, synonyms="wordnet")
    for m in ms:
        assert sum(s[m][0].hit > p[m][0].hit for s, p in zip(syn, plain)) >= 3, m


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=st.lists(st.tuples(text, references), min_size=1, max_size=9), syn=groups,
       chunk=st.integers(1, 3), stem=st.booleans())
def test_threads_give_one_threads_results(pairs, syn, chunk, stem):
    ms = ["rouge-1", "rouge-2", "rouge-l", "rouge-l-flat"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        one = rouge2.score_corpus(pairs, measures=ms, synonyms=syn, stem=stem)
        assert _hex(rouge2.score_corpus(pairs, measures=ms, synonyms=syn, stem=stem, threads=2)) == _hex(one)
        plan = batch_plan(Scorer(ms, synonyms=syn, stem=stem), kernels=kernels.BATCH)
        assert plan is not None
        assert _hex(plan.score_pairs(pairs, chunk=chunk, threads=3)) == _hex(one)


def test_no_batch_env_and_per_pair_agree(monkeypatch):
    """``ROUGE2_NO_BATCH`` (batch.ENABLED) takes every pair through the per-pair path: same floats."""
    pairs = [("the big cat ran fast\nthe dog sat", "a large cat runs quick\nthe dogs sat on the mat"),
             ("cars are quick", ["an auto is fast", "the red car"])]
    syn = [["big", "large"], ["fast", "quick"], ["car", "auto"], ["cat", "dog"]]
    ms = ["rouge-1", "rouge-2", "rouge-l", "rouge-l-flat"]
    got = rouge2.score_corpus(pairs, measures=ms, synonyms=syn, stem=True)
    monkeypatch.setattr(batch_mod, "ENABLED", False)
    assert _hex(rouge2.score_corpus(pairs, measures=ms, synonyms=syn, stem=True)) == _hex(got)


def test_hand_example_from_the_docs():
    """docs/synonyms.md: screen ~ display (WordNet) makes ROUGE-1 and ROUGE-2 perfect."""
    got = rouge2.score_corpus([("the screen is bright", "the display is bright")], measures=["rouge-1", "rouge-2"],
                              synonyms=True)[0]
    assert got["rouge-1"].fmeasure == 1.0 and got["rouge-2"].fmeasure == 1.0
    plan = batch_plan(Scorer(["rouge-1", "rouge-2"], synonyms=True), kernels=kernels.BATCH)
    assert plan is not None and plan.rest_names == []
    assert _hex(plan.score_pairs([("the screen is bright", "the display is bright")])) == _hex([got])


@needs_c
def test_plans_with_synonyms():
    def plan(*measures, **opts):
        return batch_plan(Scorer(list(measures), synonyms=[["cat", "dog"]], **opts))

    p = plan("rouge-1", "rouge-l", "rouge-l-flat", "rouge-w-1.2", "rouge-su4")
    assert p.kernel_names == ["rouge-1", "rouge-l", "rouge-l-flat"]
    assert p.rest_names == ["rouge-w-1.2", "rouge-su4"]
    assert [k for k, _, _ in p.synonym_specs] == [0, 1, 2]
    assert plan("rouge-w-1.2") is None  # nothing the kernels count
    assert plan("rouge-1", word_limit=10) is None  # limits with synonyms stay per pair
    assert plan("rouge-1", byte_limit=100) is None


def test_relation_is_the_matchers_on_every_pair_of_words():
    """WordRelation lists, for each raw id, exactly the smaller ids of the
    words the matcher relates to it, however the vocabulary grew (the
    indexes merged or not)."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(60)] + ["screen", "display", "screens", "displays", "bought", "purchased"]
    rng.shuffle(words)
    syn = [rng.sample(words, rng.randint(2, 4)) for _ in range(25)]
    matcher = load_synonyms(["wordnet", *syn])
    assert indexable(matcher)

    class Vocabulary:
        def raw_words(self, start):
            return words[start:]

    rel = WordRelation(matcher)
    for n in (1, 2, 3, 7, 8, 20, 21, 40, len(words)):
        rel.covering(Vocabulary(), n)
    for a, w in enumerate(words):
        want = [b for b in range(a) if matcher.matches(w, words[b])]
        assert rel.related_below(a) == want, w
    assert rel.related_below(words.index("screens")) or rel.related_below(words.index("displays"))


def test_shared_relation_by_data():
    from rouge2.synonyms.ids import shared_relation

    a = shared_relation(kernels.PY_BATCH, load_synonyms([["cat", "dog"]]))
    assert shared_relation(kernels.PY_BATCH, load_synonyms([["cat", "dog"]])) is a  # the same data
    assert shared_relation(kernels.PY_BATCH, load_synonyms([["cat", "cow"]])) is not a
    # groups whose joined text is the same ("x,,y") are different relations
    b = shared_relation(kernels.PY_BATCH, load_synonyms([["x,", "y"]]))
    assert shared_relation(kernels.PY_BATCH, load_synonyms([["x", ",y"]])) is not b
    assert shared_relation(kernels.PY_BATCH, load_synonyms("wordnet")) is \
        shared_relation(kernels.PY_BATCH, load_synonyms(True))


@needs_c
def test_kernel_errors_are_clear():
    sc = Scorer(["rouge-1"], synonyms=[["cat", "dog"]])
    plan = batch_plan(sc)
    pairs = [("the cat", "the dog")]
    packed, nwords, _, cands, ref_starts, refs = kernels.BATCH.analyze_pairs(pairs, 0, 1, plan.analysis)
    stats = kernels.BATCH.score_pairs(packed, None, cands, ref_starts, refs, plan.specs)
    offsets, targets = plan.relation.covering(kernels.BATCH, nwords)
    call = kernels.BATCH.synonym_stats
    with pytest.raises(ValueError):
        call(packed, None, cands, ref_starts, refs, stats, 1, [(1, 0, 1)], (offsets, targets))
    with pytest.raises(ValueError):
        call(packed, None, cands, ref_starts, refs, stats[:8], 1, [(0, 0, 1)], (offsets, targets))
    with pytest.raises(IndexError):  # a raw id past the relation
        call(packed, None, cands, ref_starts, refs, stats, 1, [(0, 0, 1)], (offsets[:1], targets))
    bad = array("q", [0] * (len(offsets) - 1) + [len(targets) + 5])
    with pytest.raises(IndexError):  # lists past the targets
        call(packed, None, cands, ref_starts, refs, stats, 1, [(0, 0, 1)], (bad, targets))
    hit = memoryview(call(packed, None, cands, ref_starts, refs, stats, 1, [(0, 0, 1)], (offsets, targets))).cast("d")
    assert list(hit) == [2.0, 2.0, 2.0, 2.0]  # cat ~ dog: both words match
