"""Holm-Bonferroni adjusted p-values (issue 18 item 4) and all-pairs comparisons."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge2.stats.aggregate import adjust, all_pairs
from rouge2.stats.significance import holm

np = pytest.importorskip("numpy")


def statsmodels_holm(pvals):
    """statsmodels.stats.multitest.multipletests(pvals, method="holm")[1], as its
    source defines it (written here with numpy): sort, multiply the i-th smallest
    by (m - i), running maximum, clip at 1, back to the input order."""
    pvals = np.asarray(pvals, dtype=float)
    order = np.argsort(pvals, kind="stable")
    ranked = pvals[order] * np.arange(len(pvals), 0, -1)
    corrected = np.maximum.accumulate(ranked)
    corrected[corrected > 1] = 1
    out = np.empty_like(corrected)
    out[order] = corrected
    return out.tolist()


def test_hand_computed_case():
    # sorted: 0.005 x4 = 0.02; 0.01 x3 = 0.03; 0.03 x2 = 0.06; 0.04 x1 = 0.04 -> running max 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([0.2]) == [0.2]
    assert holm([]) == []


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0001, 0.05, 0.5, 1.0])), max_size=30))
def test_equals_the_statsmodels_definition(pvals):
    assert holm(pvals) == pytest.approx(statsmodels_holm(pvals), abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=20))
def test_adjusted_p_is_at_least_p_and_keeps_the_order(pvals):
    adj = holm(pvals)
    assert all(a >= p for a, p in zip(adj, pvals))
    pairs = sorted(zip(pvals, adj))
    assert all(a1 <= a2 for (_, a1), (_, a2) in itertools.pairwise(pairs))


def test_adjust_groups_by_measure_and_score():
    comps = [{"measure": m, "score": s, "p_value": p}
             for m, s, p in [("rouge-1", "fmeasure", 0.01), ("rouge-1", "fmeasure", 0.02),
                             ("rouge-aspect", "recall", 0.01), ("rouge-1", "recall", 0.04)]]
    adjust(comps)
    assert [c["p_adjusted"] for c in comps] == pytest.approx([0.02, 0.02, 0.01, 0.04])
    assert [c["family_size"] for c in comps] == [2, 2, 1, 1]
    assert {c["correction"] for c in comps} == {"holm"}


def test_all_pairs():
    assert all_pairs(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert all_pairs(["a"]) == []

