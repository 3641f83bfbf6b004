"""Issue 19's meta-evaluation statistics and the C kernels that compute them.

* pairwise accuracy and tie-calibrated accuracy: hand-computed cases, and an
  independent brute-force implementation of the definitions (numpy, every
  candidate threshold, exact fractions) on SummEval, at the system and the
  summary level;
* soft pairwise accuracy: a hand-computed case and a brute-force
  implementation of Thompson et al.'s permutation p-values;
* the Williams test: Student's t tail against scipy, the test against the
  formula of Graham and Baldwin (2014) computed here with scipy;
* the C kernels give the same bits as the pure-Python definition, on random
  tables with ties, missing cells, constant columns and large groups;
* bad input: unknown statistics (did-you-mean), too few items, constant
  human scores.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
import scipy.stats as ss
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge2 import kernels
from rouge2.errors import UserError
from rouge2.stats import correlation as C
from rouge2.stats.correlation import accuracy as A
from rouge2.stats.correlation import resampling as R
from rouge2.stats.correlation import soft as S
from rouge2.stats.correlation.draws import packed_bootstrap
from rouge2.stats.correlation.levels import Level
from rouge2.stats.correlation.tables import Data
from rouge2.stats.correlation.williams import t_sf, williams

needs_c = pytest.mark.skipif(kernels.corr_resample is None, reason="the C kernels are not built")


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


# ---------------------------------------------------------------------------
# Pairwise and tie-calibrated accuracy: hand-computed


def test_pairwise_accuracy_by_hand():
    # pairs of (1,2,3,4) vs (1,3,2,4): only (2,3) is ordered oppositely -> 5/6
    assert C.correlation([[1], [2], [3], [4]], [[1], [3], [2], [4]], statistics="pairwise-accuracy",
                         resamples=10).extra["pairwise_accuracy"].value == 5 / 6
    # metric (1, 1, 2), human (1, 2, 2): (a,b) tied only by the metric, (b,c)
    # only by the humans, (a,c) ordered alike -> 1/3: a tie agrees only with a tie
    assert A.pair_counts([1, 1, 2], [1, 2, 2], None) == (1, 3)
    # a pair tied on both sides agrees: (1, 1, 2) vs (5, 5, 7) -> 3/3
    assert A.pair_counts([1, 1, 2], [5, 5, 7], None) == (3, 3)
    # multiplicities: a unit drawn twice is a pair tied on both sides
    assert A.pair_counts([1, 2], [2, 1], [2, 1]) == (1, 3)
    # constant human scores, or fewer than two units: undefined
    assert A.pair_counts([1, 2, 3], [4, 4, 4], None) is None
    assert A.pair_counts([1, 2], [1, 2], [0, 1]) is None


def test_tie_calibration_by_hand():
    # metric 0.10 0.20 0.25 0.90, human 1 2 2 3.  Without ties the pair
    # (0.20, 0.25) disagrees (humans tie it): 5/6.  A threshold of 0.05 ties
    # it (and nothing else: the next difference is 0.1), giving 6/6.
    m, h = [[0.10], [0.20], [0.25], [0.90]], [[1], [2], [2], [3]]
    r = C.correlation(m, h, statistics=["pairwise-accuracy", "tie-calibrated-accuracy"], resamples=20)
    assert r.extra["pairwise_accuracy"].value == 5 / 6
    e = r.extra["tie_calibrated_accuracy"]
    assert e.value == 1.0 and e.epsilon == abs(0.20 - 0.25)
    # when every tie hurts, epsilon stays 0 and the value is plain pairwise accuracy
    r = C.correlation([[1], [2], [3]], [[1], [2], [3]], statistics="tie-calibrated-accuracy", resamples=20)
    assert r.extra["tie_calibrated_accuracy"].value == 1.0 and r.extra["tie_calibrated_accuracy"].epsilon == 0.0
    # one threshold for every task: task 1 wants ties below 0.3, task 2 none;
    # tying 0.1 in task 1 gains a pair there and costs none in task 2 (whose
    # smallest difference is 0.5): mean of 3/3 and 3/3
    m = [[0.0, 0.0], [0.1, 0.5], [0.9, 1.5]]
    h = [[1, 1], [1, 2], [2, 3]]
    r = C.correlation(m, h, "summary", statistics=["pairwise-accuracy", "tie-calibrated-accuracy"],
                      resamples=20)
    assert r.extra["pairwise_accuracy"].value == float((Fraction(2, 3) + 1) / 2)
    assert r.extra["tie_calibrated_accuracy"].value == 1.0
    assert r.extra["tie_calibrated_accuracy"].epsilon == 0.1


# ---------------------------------------------------------------------------
# An independent implementation of the definitions (numpy, exact fractions)


def brute_groups(m_groups, h_groups):
    """(pairwise accuracy, tie-calibrated accuracy, its epsilon) over groups
    of units, as exact fractions: every candidate threshold tried."""
    pairs = []
    for g, (m, h) in enumerate(zip(m_groups, h_groups)):
        if len(m) < 2 or len(set(h)) < 2:
            continue
        for a, b in combinations(range(len(m)), 2):
            pairs.append((g, m[a] - m[b], h[a] - h[b]))
    groups = sorted({g for g, _, _ in pairs})
    gi = np.array([groups.index(g) for g, _, _ in pairs])
    dm = np.array([p[1] for p in pairs])
    dh = np.array([p[2] for p in pairs])
    size = np.bincount(gi, minlength=len(groups))
    lcm = math.lcm(*(int(n) for n in size))
    onehot = np.zeros((len(pairs), len(groups)), dtype=np.int64)
    onehot[np.arange(len(pairs)), gi] = 1
    scale = np.array([lcm // int(n) for n in size], dtype=np.int64)
    d = np.abs(dm)
    eps = np.unique(np.concatenate([[0.0], d]))  # every candidate threshold, increasing
    nums = []
    for chunk in np.array_split(eps, max(1, len(eps) // 300)):
        tie = d[None, :] <= chunk[:, None]
        agree = np.where(tie, dh[None, :] == 0, ((np.sign(dm) == np.sign(dh)) & (dh != 0))[None, :])
        nums.extend(((agree.astype(np.int64) @ onehot) @ scale).tolist())
    den = lcm * len(groups)
    k = int(np.argmax(nums))  # the first best: the smallest threshold
    first, best, best_eps = Fraction(nums[0], den), Fraction(nums[k], den), float(eps[k])
    return first, best, best_eps


def summeval_tables(shared):
    import rouge2

    rows = [json.loads(x) for x in (shared / "data/summeval/summeval.jsonl").read_text().splitlines()]
    keys, pairs = [], []
    for r in rows:
        for s in sorted(r["sys_summs"]):
            keys.append((s, r["doc_id"]))
            pairs.append((r["sys_summs"][s]["sys_summ"], r["ref_summ"]))
    scores = rouge2.score_corpus(pairs, measures=["rouge-1"])
    metric = {k: sc["rouge-1"].recall for k, sc in zip(keys, scores)}
    human = {(s, r["doc_id"]): r["sys_summs"][s]["scores"]["relevance"] for r in rows for s in r["sys_summs"]}
    coherence = {(s, r["doc_id"]): r["sys_summs"][s]["scores"]["coherence"] for r in rows for s in r["sys_summs"]}
    return metric, human, coherence


@pytest.mark.parametrize("metric_name", ["rouge-1 recall", "coherence (many ties)"])
def test_accuracies_equal_brute_force_on_summeval(shared, metric_name):
    metric, human, coherence = summeval_tables(shared)
    if metric_name.startswith("coherence"):
        metric = coherence
    data = Data([metric, human], ["metric", "human"])
    x, z = data.flat
    # system level: one group, the systems' means
    means = [[math.fsum(v[s:e]) / (e - s) for s, e in data.row_span] for v in (x, z)]
    # summary level: one group per document
    cols = [[[v[k] for k in ks] for ks in data.col_cells] for v in (x, z)]
    for level, (mg, hg) in (("system", ([means[0]], [means[1]])), ("summary", (cols[0], cols[1]))):
        pa, tca, eps = brute_groups(mg, hg)
        r = C.correlation(metric, human, level, statistics=["pairwise-accuracy", "tie-calibrated-accuracy"],
                          resamples=20)
        assert r.extra["pairwise_accuracy"].value == float(pa), level
        assert r.extra["tie_calibrated_accuracy"].value == float(tca), level
        assert r.extra["tie_calibrated_accuracy"].epsilon == eps, level
        assert tca >= pa


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 6), st.integers(1, 5), st.sampled_from(C.SCHEMES), st.integers(0, 10**6))
def test_accuracy_resamples_equal_brute_force_on_built_tables(ns, nt, scheme, seed):
    """Each bootstrap value equals the definition applied to the resampled
    table built explicitly (drawn systems and tasks repeated as rows and columns)."""
    rng = random.Random(seed)
    X = [[float(rng.randint(0, 4)) for _ in range(nt)] for _ in range(ns)]
    H = [[float(rng.randint(1, 3)) for _ in range(nt)] for _ in range(ns)]
    data = Data([X, H], ["m", "h"])
    draws = packed_bootstrap(data.ns, data.nt, scheme, 6, seed)
    for level in ("system", "summary"):
        got = A.accuracy_values(data, level, draws, True, use_c=False)
        for k, (rows, cols) in enumerate(draws):
            rr = range(ns) if rows is None else rows
            cc = range(nt) if cols is None else cols
            Xb = [[X[i][j] for j in cc] for i in rr]
            Hb = [[H[i][j] for j in cc] for i in rr]
            if level == "system":
                mg = [[math.fsum(r) / len(r) for r in Xb]]
                hg = [[math.fsum(r) / len(r) for r in Hb]]
            else:
                mg = [[r[j] for r in Xb] for j in range(len(cc))]
                hg = [[r[j] for r in Hb] for j in range(len(cc))]
            if not any(len(set(h)) > 1 for h in hg):
                assert math.isnan(got.pairwise[k])
                continue
            pa, tca, eps = brute_groups(mg, hg)
            assert got.pairwise[k] == float(pa) and got.calibrated[k] == float(tca), (level, k)


# ---------------------------------------------------------------------------
# Soft pairwise accuracy


def brute_spa(X, H, resamples, seed):
    """Thompson et al.: one-sided paired permutation p-values per system pair
    (i before j), with the permutations of permutation_draws(tasks)."""
    X, H = np.array(X, dtype=float), np.array(H, dtype=float)
    ns, nt = X.shape
    flags = np.array([list(m) for m in C.permutation_draws(ns, nt, "tasks", resamples, seed)], dtype=bool)
    signs = np.where(flags, -1.0, 1.0)

    def pvals(T):
        out = {}
        for i, j in combinations(range(ns), 2):
            d = T[i] - T[j]
            tol = 1e-9 * (np.abs(T[i]).sum() + np.abs(T[j]).sum())
            out[(i, j)] = Fraction(int(((signs * d).sum(axis=1) >= d.sum() - tol).sum()), resamples)
        return out

    ph, pm = pvals(H), pvals(X)
    return 1 - sum(abs(ph[k] - pm[k]) for k in ph) / len(ph)


def test_soft_pairwise_accuracy_by_hand():
    # two systems, two items.  Humans: system 1 better on both items by 1, so
    # every permutation's difference (-2, 0 or +2) is >= the observed -2: p = 1.
    # Metric: system 0 better by 1 and 2, observed 3; only the identity (no
    # swap) reaches 3: p = share of permutations swapping nothing.
    X, H = [[1.0, 2.0], [0.0, 0.0]], [[1.0, 1.0], [2.0, 2.0]]
    draws = C.permutation_draws(2, 2, "tasks", 200, 7)
    p_metric = Fraction(sum(1 for m in draws if not any(m)), 200)
    r = C.correlation(X, H, statistics="soft-pairwise-accuracy", resamples=200, seed=7)
    assert r.extra["soft_pairwise_accuracy"].value == float(1 - abs(1 - p_metric))
    # a metric equal to the human scores agrees on every p-value
    assert C.correlation(H, H, statistics="spa", resamples=50).extra["soft_pairwise_accuracy"].value == 1.0


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 6), st.integers(2, 8), st.integers(0, 10**6))
def test_soft_pairwise_accuracy_equals_brute_force(ns, nt, seed):
    rng = random.Random(seed)
    H = [[float(rng.randint(1, 5)) for _ in range(nt)] for _ in range(ns)]
    X = [[h + rng.random() for h in row] for row in H]
    if len({sum(r) for r in H}) < 2:
        return
    got = C.correlation(X, H, statistics="spa", resamples=64, seed=seed).extra["soft_pairwise_accuracy"].value
    assert got == float(brute_spa(X, H, 64, seed))


def test_soft_pairwise_accuracy_needs_two_items_per_system():
    with pytest.raises(UserError, match="at least 2 items scored for every system") as e:
        C.correlation([[1.0], [2.0], [3.0]], [[1.0], [3.0], [2.0]], statistics="spa", resamples=10)
    assert "\n" not in str(e.value)
    # only items every system has count: one complete item is not enough
    with pytest.raises(UserError, match="these scores have 1"):
        C.correlation([[1.0, None], [2.0, 3.0]], [[1.0, 2.0], [2.0, 1.0]], statistics="spa", resamples=10)


def test_constant_human_scores_give_null():
    X = [[0.1, 0.2], [0.3, 0.1], [0.5, 0.4]]
    H = [[3.0, 3.0]] * 3
    names = ["pearson", "pairwise-accuracy", "tie-calibrated-accuracy", "soft-pairwise-accuracy"]
    d = C.correlation(X, H, statistics=names, resamples=20).to_dict()
    for key in ("pearson", "pairwise_accuracy", "tie_calibrated_accuracy", "soft_pairwise_accuracy"):
        assert d[key]["value"] is None and d[key]["ci"] == [None, None], key
    assert d["tie_calibrated_accuracy"]["epsilon"] is None
    json.dumps(d, allow_nan=False)


def test_statistics_by_name():
    assert C.STATISTICS.canonical("acc-t") == "tie-calibrated-accuracy"
    assert C.STATISTICS.canonical("soft_pairwise_accuracy") == "soft-pairwise-accuracy"
    with pytest.raises(UserError, match=r"unknown statistic 'pairwise-acuracy' \(did you mean 'pairwise-accuracy'\?\)"):
        C.correlation([[1], [2]], [[1], [2]], statistics="pairwise-acuracy")
    with pytest.raises(UserError, match="defined at the system and summary levels, not at the global level"):
        C.correlation([[1], [2]], [[1], [2]], "global", statistics="tie-calibrated-accuracy")
    # every statistic is documented
    doc = (__import__("pathlib").Path(__file__).parents[1] / "docs" / "meta-evaluation.md").read_text()
    for entry in C.STATISTICS:
        assert f"`{entry.name}`" in doc, entry.name


# ---------------------------------------------------------------------------
# The Williams test


@pytest.mark.parametrize("df", [1, 2, 3, 5, 13, 30, 157, 1597])
def test_student_t_tail_equals_scipy(df):
    for t in (-40.0, -3.2, -1.0, -0.01, 0.0, 0.3, 1.0, 2.1, 5.0, 12.0, 40.0):
        want = float(ss.t.sf(t, df))
        got = t_sf(t, df)
        assert got == pytest.approx(want, rel=1e-11, abs=1e-300), (t, df)


def williams_formula(r12, r13, r23, n):
    """Graham and Baldwin (2014), equation (3), with scipy's t distribution."""
    k = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / math.sqrt(
        2 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
    return t, float(ss.t.sf(t, n - 3))


@pytest.mark.parametrize("r12, r13, r23, n", [(0.5, 0.4, 0.1, 103), (0.9, 0.85, 0.95, 16), (0.2, 0.6, 0.3, 40),
                                             (-0.3, 0.1, -0.5, 12), (0.7, 0.7, 0.2, 30)])
def test_williams_equals_the_formula(r12, r13, r23, n):
    t, p = williams_formula(r12, r13, r23, n)
    w = williams(r12, r13, r23, n)
    assert w.t == pytest.approx(t, rel=1e-13, abs=1e-15) and w.df == n - 3
    assert w.p_one_sided == pytest.approx(p, rel=1e-10)
    assert w.p_two_sided == pytest.approx(min(1.0, 2 * float(ss.t.sf(abs(t), n - 3))), rel=1e-10)
    assert math.isnan(williams(r12, r13, r23, 3).t)


def test_williams_comparison_of_two_metrics():
    rng = random.Random(3)
    H = [[rng.gauss(0, 1) + q for _ in range(10)] for q in (rng.gauss(0, 1) for _ in range(14))]
    A_ = [[h + rng.gauss(0, 0.5) for h in row] for row in H]
    B_ = [[h + rng.gauss(0, 2) for h in row] for row in H]
    res = C.compare(A_, B_, H, "system", test="williams", resamples=50, alternative="greater")
    d = res.pearson
    assert res.spearman is None and res.kendall is None and res.test == "williams"
    mean = lambda T: [math.fsum(r) / len(r) for r in T]  # noqa: E731
    r12 = ss.pearsonr(mean(A_), mean(H))[0]
    r13 = ss.pearsonr(mean(B_), mean(H))[0]
    r23 = ss.pearsonr(mean(A_), mean(B_))[0]
    t, p = williams_formula(r12, r13, r23, 14)
    assert d.t == pytest.approx(t, rel=1e-9) and d.p_value == d.p_one_sided == pytest.approx(p, rel=1e-8)
    assert d.r_ab == pytest.approx(r23, rel=1e-12) and d.df == 11
    assert set(d.to_dict()) >= {"a", "b", "difference", "ci", "p_value", "t", "df", "r_ab"}
    with pytest.raises(UserError, match="system or global level"):
        C.compare(A_, B_, H, "summary", test="williams")


# ---------------------------------------------------------------------------
# The C kernels reproduce the Python definition bit for bit


@st.composite
def aligned(draw):
    """Two metric tables and a human table: ties, missing cells, constant
    columns, sometimes many systems (the kernels' large-group paths)."""
    big = draw(st.booleans()) and draw(st.booleans())
    ns = draw(st.integers(70, 90)) if big else draw(st.integers(2, 8))
    nt = draw(st.integers(2, 3)) if big else draw(st.integers(1, 6))
    rng = random.Random(draw(st.integers(0, 2**32)))
    miss = draw(st.sampled_from([0.0, 0.0, 0.2]))
    kinds = [draw(st.sampled_from(["float", "grid", "ties", "const", "tiny"])) for _ in range(3)]

    def value(kind, j):
        return {"float": rng.gauss(0, 1), "grid": rng.randint(0, 20) / 20, "ties": float(rng.randint(1, 3)),
                "const": 0.5 if j % 2 else float(rng.randint(0, 1)), "tiny": rng.choice([1e-160, 3e-160])}[kind]

    tabs = [[[None if rng.random() < miss else value(k, j) for j in range(nt)] for _ in range(ns)] for k in kinds]
    try:
        return Data(tabs, ["a", "b", "h"])
    except UserError:
        return Data([[[1.0, 2.0]] * 2, [[2.0, 1.0]] * 2, [[1.0, 3.0], [2.0, 1.0]]], ["a", "b", "h"])


@needs_c
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aligned(), st.sampled_from(C.LEVELS), st.sampled_from(C.SCHEMES), st.integers(0, 99),
       st.sets(st.sampled_from(C.COEFFICIENTS), min_size=1))
def test_kernels_equal_python(data, level, scheme, seed, which):
    which = tuple(c for c in C.COEFFICIENTS if c in which)
    draws = packed_bootstrap(data.ns, data.nt, scheme, 8, seed)
    xs = [data.flat[0], data.flat[1]]
    for dr in (None, draws):
        c = R.bootstrap_values(data, Level(data, level, which), xs, dr, use_c=True)
        p = R.bootstrap_values(data, Level(data, level, which), xs, dr, use_c=False)
        assert repr(c) == repr(p)
    a, b = R.standardize_pair(data.flat[0], data.flat[1])
    c = R.permutation_values(data, Level(data, level, which), a, b, scheme, 6, seed, use_c=True)
    p = R.permutation_values(data, Level(data, level, which), a, b, scheme, 6, seed, use_c=False)
    assert repr(c) == repr(p)
    for tie in ((False, True) if level != "global" else (False,)):
        for dr in (None, draws):
            assert repr(A.accuracy_values(data, level, dr, tie, use_c=True)) == \
                repr(A.accuracy_values(data, level, dr, tie, use_c=False))
    if level == "system" and sum(len(ks) == data.ns for ks in data.col_cells) >= 2 and data.ns < 20:
        for dr in (None, draws):
            assert repr(S.spa_values(data, dr, 16, seed, use_c=True)) == \
                repr(S.spa_values(data, dr, 16, seed, use_c=False))


@needs_c
@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300),
                          st.sampled_from([0.0, -0.0, 1e-310, 0.1, 1e16, 1.0])), max_size=40))
def test_kernel_fsum_equals_math_fsum(values):
    assert repr(kernels._C.stats_fsum(values)) == repr(math.fsum(values))


@needs_c
def test_kernels_refuse_bad_arguments():
    from array import array

    lay = (2, 2, array("i", [0, 5]).tobytes(), array("i", [0, 1]).tobytes())
    with pytest.raises(ValueError, match="bad layout cell"):
        kernels.corr_resample(0, 7, [[1.0] * 2, [1.0] * 2], lay, None, None, 1)
    good = R.layout(Data([[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [4.0, 3.0]]], ["a", "b"]))
    with pytest.raises(ValueError, match="wrong size"):
        kernels.corr_resample(0, 7, [[1.0] * 4, [1.0] * 4], good, b"\0" * 4, None, 1)
    with pytest.raises(ValueError, match="length"):
        kernels.corr_resample(0, 7, [[1.0] * 3, [1.0] * 4], good, None, None, 1)
