"""Core measures against outputs of the original ROUGE-1.5.5 and worked examples."""

import json

import pytest

import rouge2
from rouge2.stats.prf import fmeasure


def perl5(x):
    return float("%.5f" % x)


def script_rounding(score):
    """Per-evaluation values as ROUGE-1.5.5 prints them (F from rounded R and P)."""
    r, p = perl5(score.recall), perl5(score.precision)
    return r, p, perl5(fmeasure(p, r))


SUMMEVAL_MEASURES = {
    "rouge_1": "rouge-1",
    "rouge_2": "rouge-2",
    "rouge_3": "rouge-3",
    "rouge_4": "rouge-4",
    "rouge_l": "rouge-l",
    "rouge_w_1.2": "rouge-w-1.2",
    "rouge_s*": "rouge-s*",
    "rouge_su*": "rouge-su*",
}


def test_summeval_toolkit_pair_matches_rouge155(shared):
    data = json.loads((shared / "data/summeval_toolkit/rouge155_expected.json").read_text())
    single = data["single"]
    # pyrouge writes one sentence per line; the toolkit separates them with "\n".
    cand = "\n".join(s.strip() for s in single["candidate"].split("\n"))
    ref = "\n".join(s.strip() for s in single["reference"].split("\n"))
    result = rouge2.score(cand, ref, measures=list(SUMMEVAL_MEASURES.values()))
    for key, name in SUMMEVAL_MEASURES.items():
        r, p, f = script_rounding(result[name])
        exp = single["expected"]
        assert (r, p, f) == (exp[f"{key}_recall"], exp[f"{key}_precision"], exp[f"{key}_f_score"]), name


def test_empty_candidate_scores_zero_everywhere(shared):
    data = json.loads((shared / "data/summeval_toolkit/rouge155_expected.json").read_text())
    result = rouge2.score("", "a reference text here", measures=list(SUMMEVAL_MEASURES.values()))
    for key, name in SUMMEVAL_MEASURES.items():
        assert script_rounding(result[name]) == (
            data["empty_expected"][f"{key}_recall"],
            data["empty_expected"][f"{key}_precision"],
            data["empty_expected"][f"{key}_f_score"],
        )


def test_matlab_example_rouge1_best_reference():
    # MATLAB rougeEvaluationScore page, first example: 0.8889.
    cand = "the fast brown fox jumped over the lazy dog"
    refs = [
        "the quick brown animal jumped over the lazy dog",
        "the quick brown fox jumped over the lazy dog",
    ]
    s = rouge2.score(cand, refs, measures=["rouge-1"], multi_reference="best")["rouge-1"]
    assert round(s.recall, 4) == 0.8889


def test_matlab_example_ngram_length():
    # MATLAB page, second example: 1 for unigrams, 0.5 for bigrams.
    cand = "a simple summary document containing some words"
    refs = ["a simple document", "another document with some words"]
    r1 = rouge2.score(cand, refs, measures=["rouge-1"], multi_reference="best")["rouge-1"]
    r2 = rouge2.score(cand, refs, measures=["rouge-2"], multi_reference="best")["rouge-2"]
    assert r1.recall == 1.0
    assert r2.recall == 0.5


def test_lin2004_rouge_l_example():
    # Lin (2004) section 3.1: S1 vs S2 and S3 give ROUGE-L 3/4 and 2/4 recall.
    ref = "police killed the gunman"
    assert rouge2.score("police kill the gunman", ref, ["rouge-l"])["rouge-l"].recall == 0.75
    assert rouge2.score("the gunman kill police", ref, ["rouge-l"])["rouge-l"].recall == 0.5


def test_lin2004_skip_bigram_example():
    # Lin (2004) section 5: S2 has 3 skip-bigram matches with S1, S3 has 1, S4 has 2,
    # out of C(4,2) = 6 (S* without a distance limit).
    ref = "police killed the gunman"
    counts = {
        "police kill the gunman": 3,
        "the gunman kill police": 1,
        "the gunman police killed": 2,
    }
    for cand, hits in counts.items():
        s = rouge2.score(cand, ref, ["rouge-s*"])["rouge-s*"]
        assert s.recall == pytest.approx(hits / 6)


def test_rouge_w_of_identical_text_is_not_one_in_rouge155():
    # ROUGE-1.5.5 applies f to the reference total twice (see docs/measures.md):
    # the original prints R:0.67175 P:0.91385 for this identical pair.
    text = "the cat was on the mat\ndogs bark"
    s = rouge2.score(text, text, ["rouge-w-1.2"])["rouge-w-1.2"]
    assert script_rounding(s)[:2] == (0.67175, 0.91385)


def test_unknown_measure_and_option_are_user_errors():
    with pytest.raises(rouge2.UserError, match="unknown measure 'rouge-q'"):
        rouge2.score("a", "a", ["rouge-q"])
    with pytest.raises(rouge2.UserError, match="unknown option 'stemming'"):
        rouge2.score("a", "a", stemming=True)
    with pytest.raises(rouge2.UserError, match="multi_reference"):
        rouge2.score("a", "a", multi_reference="worst")


def test_multi_reference_modes_are_distinct():
    cand = "a b c d"
    refs = ["a b x y z w", "c d"]
    pooled = rouge2.score(cand, refs, ["rouge-1"], multi_reference="pooled")["rouge-1"]
    best = rouge2.score(cand, refs, ["rouge-1"], multi_reference="best")["rouge-1"]
    avg = rouge2.score(cand, refs, ["rouge-1"], multi_reference="average")["rouge-1"]
    maxf = rouge2.score(cand, refs, ["rouge-1"], multi_reference="max-f")["rouge-1"]
    assert (pooled.recall, pooled.precision) == (4 / 8, 4 / 8)
    assert (best.recall, best.precision) == (1.0, 0.5)
    assert (avg.recall, avg.precision) == ((2 / 6 + 1) / 2, 0.5)
    assert maxf.fmeasure == pytest.approx(2 / 3)


def test_non_ascii_vanishes_with_rouge155_but_not_unicode():
    cand = "café crème brûlée"
    ref = "crème brûlée"
    from rouge2.analysis.tokenize import rouge155_tokens

    # The script turns every non-ASCII byte into a separator.
    assert rouge155_tokens(cand) == ["caf", "cr", "me", "br", "l", "e"]
    u = rouge2.score(cand, ref, ["rouge-1"], tokenizer="unicode")["rouge-1"]
    assert u.recall == 1.0 and u.precision == pytest.approx(2 / 3)
