"""Invariants every measure must keep, checked on generated texts (hypothesis)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rouge2
from rouge2.measures import parse_measure

WORDS = ["the", "cat", "sat", "on", "mat", "dog", "runs", "running", "a", "-", "x1", "Big", "big!"]
sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=9).map(" ".join)
text = st.lists(sentence, min_size=1, max_size=4).map("\n".join)

ALL = ["rouge-1", "rouge-2", "rouge-3", "rouge-l", "rouge-w-1.2", "rouge-s4", "rouge-su4", "rouge-s*", "rouge-su*"]
# Measures whose definition is symmetric in candidate and reference.  ROUGE-L is
# symmetric only sentence-level (one sentence each); ROUGE-W never is (script's
# double weighting of the reference total).
SYMMETRIC = ["rouge-1", "rouge-2", "rouge-3", "rouge-s4", "rouge-s*", "rouge-su4", "rouge-su*"]


@settings(max_examples=150, deadline=None)
@given(text, st.lists(text, min_size=1, max_size=3), st.booleans(), st.booleans(),
       st.sampled_from(["pooled", "best", "average", "max-f"]))
def test_scores_within_unit_interval(cand, refs, stem, stop, mode):
    res = rouge2.score(cand, refs, ALL, stem=stem, stopwords=stop, multi_reference=mode)
    for name, s in res.items():
        for v in s:
            assert 0.0 <= v <= 1.0 + 1e-12, (name, s)


@settings(max_examples=150, deadline=None)
@given(text, st.booleans())
def test_identical_texts_score_one(t, stem):
    res = rouge2.score(t, t, [m for m in ALL if m != "rouge-w-1.2"], stem=stem)
    tokens = rouge2.Scorer(["rouge-1"], stem=stem).analyze(t).tokens
    for name, s in res.items():
        m = parse_measure(name)
        stats = m.stats(rouge2.Scorer([name], stem=stem).analyze(t), rouge2.Scorer([name], stem=stem).analyze(t))
        if stats.ref_total == 0:
            assert s == (0.0, 0.0, 0.0)
        else:
            assert s.recall == 1.0 and s.precision == 1.0 and s.fmeasure == 1.0, (name, tokens)


@settings(max_examples=150, deadline=None)
@given(text, text, st.booleans())
def test_swapping_candidate_and_reference_swaps_p_and_r(a, b, stem):
    ab = rouge2.score(a, b, SYMMETRIC, stem=stem)
    ba = rouge2.score(b, a, SYMMETRIC, stem=stem)
    for name in SYMMETRIC:
        assert ab[name].precision == pytest.approx(ba[name].recall)
        assert ab[name].recall == pytest.approx(ba[name].precision)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join),
       st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join))
def test_sentence_level_lcs_is_symmetric_and_matches_dp(a, b):
    ab = rouge2.score(a, b, ["rouge-l"])["rouge-l"]
    ba = rouge2.score(b, a, ["rouge-l"])["rouge-l"]
    assert ab.precision == pytest.approx(ba.recall)
    # Against a plain dynamic-programming LCS.
    from rouge2.analysis.tokenize import rouge155_tokens

    x, y = rouge155_tokens(a), rouge155_tokens(b)
    table = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    for i in range(len(x)):
        for j in range(len(y)):
            table[i + 1][j + 1] = table[i][j] + 1 if x[i] == y[j] else max(table[i][j + 1], table[i + 1][j])
    lcs = table[-1][-1]
    assert ab.recall == (lcs / len(y) if y else 0.0)


def _perl_union_lcs_hits(model_sents, peer_sents, model_flat, peer_flat):
    """The script's ROUGE-L hit count, written as its plain table traceback."""
    from collections import Counter

    m1, p1 = Counter(model_flat), Counter(peer_flat)
    hit = 0
    for ms in model_sents:
        mask = [0] * len(ms)
        for ps in peer_sents:
            if not ms:
                continue
            m, n = len(ms), len(ps)
            c = [[0] * (n + 1) for _ in range(m + 1)]
            b = [[None] * (n + 1) for _ in range(m + 1)]
            for i in range(1, m + 1):
                for j in range(1, n + 1):
                    if ms[i - 1] == ps[j - 1]:
                        c[i][j], b[i][j] = c[i - 1][j - 1] + 1, "d"
                    elif c[i - 1][j] >= c[i][j - 1]:
                        c[i][j], b[i][j] = c[i - 1][j], "u"
                    else:
                        c[i][j], b[i][j] = c[i][j - 1], "l"
            i, j = m, n
            while i and j:
                if b[i][j] == "d":
                    i, j = i - 1, j - 1
                    mask[i] = 1
                elif b[i][j] == "u":
                    i -= 1
                else:
                    j -= 1
        for j, tok in enumerate(ms):
            if mask[j] and m1[tok] > 0 and p1[tok] > 0:
                hit += 1
                m1[tok] -= 1
                p1[tok] -= 1
    return hit


@settings(max_examples=300, deadline=None)
@given(text, text)
def test_bit_parallel_union_lcs_equals_table_traceback(a, b):
    scorer = rouge2.Scorer(["rouge-l"])
    cand, ref = scorer.analyze(a), scorer.analyze(b)
    stats = parse_measure("rouge-l").stats(cand, ref)
    expected = _perl_union_lcs_hits(ref.sentences, cand.sentences, ref.tokens, cand.tokens)
    assert stats.hit == expected


@settings(max_examples=100, deadline=None)
@given(text, st.lists(text, min_size=1, max_size=3))
def test_score_corpus_equals_score(cand, refs):
    one = rouge2.score(cand, refs, ALL)
    many = rouge2.score_corpus([(cand, refs), (cand, refs)], measures=ALL)
    assert many == [one, one]
