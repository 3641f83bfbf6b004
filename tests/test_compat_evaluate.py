"""rouge2.compat.evaluate against the ``rouge`` metric of Hugging Face evaluate.

The metric (``metrics/rouge/rouge.py`` in huggingface/evaluate) is a thin
wrapper around rouge-score; ``metric`` below follows its algorithm step by
step on the real rouge-score 0.1.2, so the comparison is with rouge-score's
own numbers.  The metric seeds numpy's global generator with its ``seed``
around each ``compute``; ``evaluate.load("rouge", seed=0)`` gives what
rouge2 gives with its default seed, as ``metric`` below does.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer as ref_rouge_scorer
from rouge_score import scoring as ref_scoring
from test_compat_rouge_score import assert_same, texts

from rouge2 import UserError
from rouge2.compat import evaluate as rouge


def metric(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None):
    """What evaluate.load("rouge", seed=0).compute(...) returns, computed with rouge-score."""
    np.random.seed(0)
    types = rouge_types if rouge_types is not None else ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    wrapped = None
    if tokenizer is not None:
        wrapped = type("Wrapped", (), {"tokenize": staticmethod(tokenizer)})()
    scorer = ref_rouge_scorer.RougeScorer(rouge_types=types, use_stemmer=use_stemmer, tokenizer=wrapped)
    several = isinstance(references[0], list)
    per_prediction = [
        scorer.score_multi(r, p) if several else scorer.score(r, p) for r, p in zip(references, predictions)
    ]
    if use_aggregator:
        agg = ref_scoring.BootstrapAggregator()
        for s in per_prediction:
            agg.add_scores(s)
        return {k: v.mid.fmeasure for k, v in agg.aggregate().items()}
    return {k: [s[k].fmeasure for s in per_prediction] for k in per_prediction[0]}


TYPES = [None, ["rouge1"], ["rougeLsum"], ["rouge3", "rougeL", "rougeLsum"], ["rougeLsum", "rouge1", "rouge9"]]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.tuples(texts, texts), min_size=1, max_size=6),
    types=st.sampled_from(TYPES),
    aggregate=st.booleans(),
    stem=st.booleans(),
)
def test_single_reference(data, types, aggregate, stem):
    predictions = [p for p, _ in data]
    references = [r for _, r in data]
    kw = dict(rouge_types=types, use_aggregator=aggregate, use_stemmer=stem)
    assert_same(rouge.compute(predictions=predictions, references=references, **kw), metric(predictions, references, **kw))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(st.tuples(texts, st.lists(texts, min_size=1, max_size=3)), min_size=1, max_size=5),
    types=st.sampled_from(TYPES),
    aggregate=st.booleans(),
    stem=st.booleans(),
)
def test_several_references(data, types, aggregate, stem):
    predictions = [p for p, _ in data]
    references = [r for _, r in data]
    kw = dict(rouge_types=types, use_aggregator=aggregate, use_stemmer=stem)
    assert_same(rouge.compute(predictions=predictions, references=references, **kw), metric(predictions, references, **kw))


@pytest.mark.parametrize("aggregate", [True, False])
@pytest.mark.parametrize("tokenizer", [str.split, lambda t: [c for c in t if not c.isspace()]])
def test_tokenizer_function(aggregate, tokenizer):
    predictions = ["\u5317\u4eac \u5929\u6c14 \u5f88\u597d", "The Cat sat.\nIt sat", "x"]
    references = ["\u5317\u4eac\u7684\u5929\u6c14", "the cat sat.\nit sat down", "y"]
    kw = dict(use_aggregator=aggregate, tokenizer=tokenizer)
    assert_same(rouge.compute(predictions, references, **kw), metric(predictions, references, **kw))


def test_return_types():
    out = rouge.compute(predictions=["hello there", "general kenobi"], references=["hello there", "general kenobi"])
    assert out == {"rouge1": 1.0, "rouge2": 1.0, "rougeL": 1.0, "rougeLsum": 1.0}
    assert all(type(v) is np.float64 for v in out.values())
    out = rouge.compute(["a b", ""], ["a c", "x"], use_aggregator=False)
    assert out == {"rouge1": [0.5, 0.0], "rouge2": [0.0, 0.0], "rougeL": [0.5, 0], "rougeLsum": [0.5, 0]}
    assert [type(v) for v in out["rougeL"]] == [float, int]  # rouge-score's int 0 for an empty text


def test_seed():
    predictions = ["the cat sat", "a dog ran", "the bird flew away", "nothing"]
    references = ["the cat sat down", "the dog ran", "a bird flew", "something"]
    default = rouge.compute(predictions, references)
    assert_same(rouge.compute(predictions, references, seed=0), default)
    other = rouge.compute(predictions, references, seed=12345)
    np.random.seed(12345)
    assert_same(other, _unseeded(predictions, references))
    np.random.seed(12345)
    assert_same(rouge.compute(predictions, references, seed=None), other)


def _unseeded(predictions, references):
    scorer = ref_rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    agg = ref_scoring.BootstrapAggregator()
    for r, p in zip(references, predictions):
        agg.add_scores(scorer.score(r, p))
    return {k: v.mid.fmeasure for k, v in agg.aggregate().items()}


@pytest.mark.parametrize(
    "predictions, references, error, words",
    [
        (["a", "b"], ["a"], ValueError, "Mismatch in the number of predictions (2) and references (1)"),
        ([], [], ValueError, "at least one prediction"),
        ("a b", "a b", TypeError, "lists"),
        (["a", "b"], [["a"], "b"], TypeError, "references[1]"),
        (["a"], [[]], ValueError, "references[0] is an empty list"),
        ([None], ["a"], TypeError, "predictions[0]"),
        (["a"], [["a", 3]], TypeError, "references[0][1]"),
    ],
)
def test_bad_input_is_one_line(predictions, references, error, words):
    with pytest.raises(error) as info:
        rouge.compute(predictions=predictions, references=references)
    assert isinstance(info.value, UserError)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_bad_rouge_type():
    with pytest.raises(ValueError, match="rougeX"):
        rouge.compute(["a"], ["a"], rouge_types=["rougeX"])


def test_summeval(shared):
    """Real summaries, two systems per document: one reference (aggregated, stemmed), three (per prediction)."""
    with open(shared / "data" / "summeval" / "summeval.jsonl", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    predictions, single, several = [], [], []
    for d, row in enumerate(rows):
        systems = sorted(row["sys_summs"])
        for s in (systems[d % 16], systems[(d + 7) % 16]):
            # one sentence per line, as the transformers examples prepare texts for rougeLsum
            predictions.append(row["sys_summs"][s]["sys_summ"].replace(" . ", " .\n"))
            single.append(row["ref_summ"].replace(" . ", " .\n"))
            several.append([r.replace(" . ", " .\n") for r in row["ref_summs"][:3]])
    for references, aggregate in ((single, True), (several, False)):
        kw = dict(use_aggregator=aggregate, use_stemmer=aggregate)
        ours = rouge.compute(predictions=predictions, references=references, **kw)
        assert_same(ours, metric(predictions, references, **kw))
