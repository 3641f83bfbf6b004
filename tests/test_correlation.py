"""rouge2.stats.correlation against scipy/numpy and against its definitions.

* Coefficients: equal to scipy.stats.pearsonr / spearmanr / kendalltau(b)
  on random data, ties and constant inputs included.
* Levels, bootstrap resamples and permutations: every value equals an
  independent reference written here with numpy + scipy, which builds the
  resampled or swapped table explicitly (duplicate rows/columns as separate
  rows/columns) and applies the definitions of docs/meta-evaluation.md.
* Resampling: real properties (coverage of a known population value,
  p = 1 for identical metrics, p ~ 0 against a negated metric, seeds).
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import warnings

import numpy as np
import pytest
import scipy.stats as ss
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from rouge2.errors import UserError
from rouge2.stats import correlation as C

NAN = float("nan")
TOL = 1e-12


def same(a: float, b: float, tol: float = TOL) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol


# ---------------------------------------------------------------------------
# Reference implementations (numpy + scipy)


def ref_coef(name: str, x, y) -> float:
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if len(x) < 2:
        return NAN
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if name == "pearson":
            value = float(ss.pearsonr(x, y)[0])
        elif name == "spearman":
            value = float(ss.spearmanr(x, y)[0])
        else:
            value = float(ss.kendalltau(x, y, variant="b")[0])
    if any(issubclass(w.category, ss.NearConstantInputWarning) for w in caught):
        for flags in _WATCHING:
            flags.append(name)
    return value


#: open watches of ill-conditioned reference computations (see ill_conditioned)
_WATCHING: list[list[str]] = []


@contextlib.contextmanager
def ill_conditioned():
    """Collects the reference computations inside the block that scipy flags
    as near-constant input: values equal up to rounding (e.g. system means
    0.003 and 0.0029999999999999996), whose Pearson correlation is that of
    rounding noise and not defined by the written formulas to any precision.
    Comparisons of such samples are skipped; every other sample must agree."""
    flags: list[str] = []
    _WATCHING.append(flags)
    try:
        yield flags
    finally:
        _WATCHING.remove(flags)


def ref_level(X, Z, level: str, name: str) -> float:
    """Deutsch et al. (2021): system / summary / global correlation of a
    system x task table X with the human table Z (nan = missing)."""
    X = np.array(X, dtype=float)
    Z = np.array(Z, dtype=float)
    ok = ~np.isnan(X) & ~np.isnan(Z)
    if level == "system":
        rows = [i for i in range(X.shape[0]) if ok[i].any()]
        # a mean is the exactly rounded sum divided by the count
        xm = [math.fsum(X[i][ok[i]].tolist()) / ok[i].sum() for i in rows]
        zm = [math.fsum(Z[i][ok[i]].tolist()) / ok[i].sum() for i in rows]
        return ref_coef(name, xm, zm)
    if level == "summary":
        vals = [ref_coef(name, X[ok[:, j], j], Z[ok[:, j], j]) for j in range(X.shape[1])]
        vals = [v for v in vals if not math.isnan(v)]
        return float(np.mean(vals)) if vals else NAN
    return ref_coef(name, X[ok], Z[ok])


def to_array(table) -> np.ndarray:
    return np.array([[NAN if v is None else v for v in row] for row in table], dtype=float)


def ref_zscore(X: np.ndarray, ok: np.ndarray) -> np.ndarray:
    vals = X[ok].tolist()
    n = len(vals)
    m = math.fsum(vals) / n
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in vals) / n)
    out = np.full(X.shape, NAN)
    out[ok] = (X[ok] - m) / sd if sd else X[ok] - m
    return out


def ref_merge(As: np.ndarray, Bs: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Standardized scores of two metrics merged where they differ by less
    than the tolerance: sorted pooled values, runs of gaps <= tol, each value
    replaced by its run's smallest."""
    vals = np.unique(np.concatenate([As[ok], Bs[ok]]))
    run = np.concatenate([[0], np.cumsum(np.diff(vals) > C.SCORE_TOLERANCE)])
    smallest = vals[np.searchsorted(run, run, side="left")]
    out = []
    for X in (As, Bs):
        Y = X.copy()
        Y[ok] = smallest[np.searchsorted(vals, X[ok])]
        out.append(Y)
    return out[0], out[1]


# ---------------------------------------------------------------------------
# Data


finite = st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False)
small_ints = st.integers(-3, 3).map(float)


@st.composite
def pairs(draw, min_size=0):
    n = draw(st.integers(min_size, 40))
    kind = draw(st.sampled_from(["float", "ties", "mixed", "constant"]))
    def one():
        if kind == "float":
            return draw(st.lists(finite, min_size=n, max_size=n))
        if kind == "ties":
            return draw(st.lists(small_ints, min_size=n, max_size=n))
        if kind == "mixed":
            return draw(st.lists(st.one_of(small_ints, finite), min_size=n, max_size=n))
        return [draw(finite)] * n
    x = one()
    y = one() if draw(st.booleans()) else draw(st.lists(finite, min_size=n, max_size=n))
    return x, y


def near_constant(x, y) -> bool:
    """scipy warns that its own Pearson result may be inaccurate."""
    if len(x) < 2:
        return False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ss.pearsonr(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    return any(issubclass(w.category, ss.NearConstantInputWarning) for w in caught)


@st.composite
def tables(draw, n_metrics=1):
    """n_metrics metric tables and one human table sharing a missing-cell
    pattern in which every system and every task keeps a cell."""
    ns = draw(st.integers(2, 6))
    nt = draw(st.integers(1, 5))
    cells = [(i, j) for i in range(ns) for j in range(nt)]
    missing = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 3))
    assume(all(any((i, j) not in missing for j in range(nt)) for i in range(ns)))
    assume(all(any((i, j) not in missing for i in range(ns)) for j in range(nt)))
    out = []
    for _ in range(n_metrics + 1):
        kind = draw(st.sampled_from(["grid", "ties"]))
        val = (st.integers(0, 1000).map(lambda k: k / 1000) if kind == "grid"
               else st.integers(1, 4).map(float))
        out.append([[None if (i, j) in missing else draw(val) for j in range(nt)] for i in range(ns)])
    return out


def synthetic(ns=16, nt=100, seed=1, noise_a=1.0, noise_b=1.5, bias_b=0.0):
    """Human scores = system quality + noise; metrics = human + noise (B also
    gets a per-system bias, which no amount of tasks averages away)."""
    rng = random.Random(seed)
    quality = [rng.gauss(0, 1) for _ in range(ns)]
    H = [[q + rng.gauss(0, 1) for _ in range(nt)] for q in quality]
    A = [[h + rng.gauss(0, noise_a) for h in row] for row in H]
    bias = [rng.gauss(0, bias_b) for _ in range(ns)]
    B = [[h + b + rng.gauss(0, noise_b) for h in row] for row, b in zip(H, bias)]
    return A, B, H


# ---------------------------------------------------------------------------
# Coefficients against scipy


@settings(max_examples=400, deadline=None)
@given(pairs())
def test_coefficients_equal_scipy(xy):
    x, y = xy
    assume(not near_constant(x, y))
    assert same(C.pearson(x, y), ref_coef("pearson", x, y))
    assert same(C.spearman(x, y), ref_coef("spearman", x, y))
    assert same(C.kendall_tau_b(x, y), ref_coef("kendall", x, y))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(small_ints, finite), max_size=50))
def test_rankdata_equals_scipy(x):
    assert C.rankdata(x) == ss.rankdata(x, method="average").tolist()


@settings(max_examples=60, deadline=None)
@given(st.integers(8, 200), st.integers(2, 6), st.data())
def test_kendall_with_few_distinct_values_equals_scipy(n, levels, data):
    # many values, few distinct ones on one side: the tie-group sweep
    x = data.draw(st.lists(st.integers(0, levels - 1).map(float), min_size=n, max_size=n))
    y = data.draw(st.lists(st.one_of(finite, small_ints), min_size=n, max_size=n))
    assert same(C.kendall_tau_b(x, y), ref_coef("kendall", x, y))
    assert same(C.kendall_tau_b(y, x), ref_coef("kendall", x, y))


def test_constant_and_short_inputs_are_nan_as_in_scipy():
    for x, y in ([[1, 1, 1], [1, 2, 3]], [[1, 2, 3], [2, 2, 2]], [[5], [3]], [[], []]):
        for f in (C.pearson, C.spearman, C.kendall_tau_b):
            assert math.isnan(f(x, y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert math.isnan(ss.spearmanr([1, 1, 1], [1, 2, 3])[0])


def test_two_points_give_exactly_plus_or_minus_one():
    assert C.pearson([0.1, 0.7], [3.0, 2.2]) == -1.0 == ss.pearsonr([0.1, 0.7], [3.0, 2.2])[0]


@pytest.mark.parametrize("x, y, needle", [
    ([1, 2], [1, 2, 3], "same length"),
    ([1, float("nan")], [1, 2], "finite"),
    ([1, float("inf")], [1, 2], "finite"),
    ([1, "2"], [1, 2], "numbers"),
])
def test_coefficient_input_errors(x, y, needle):
    with pytest.raises(UserError, match=needle) as e:
        C.pearson(x, y)
    assert "\n" not in str(e.value)


# ---------------------------------------------------------------------------
# Levels against the reference


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tables())
def test_levels_equal_reference(tabs):
    X, Z = tabs
    for level in C.LEVELS:
        for name in C.COEFFICIENTS:
            with ill_conditioned() as ill:
                want = ref_level(to_array(X), to_array(Z), level, name)
            assert ill or same(C.correlate(X, Z, level, name), want)


def test_levels_by_hand():
    X = [[1, 2], [3, 4], [2, 2]]
    Z = [[1, 1], [3, 3], [2, 3]]
    # system means: X 1.5, 3.5, 2 and Z 1, 3, 2.5 -> same order
    assert C.correlate(X, Z, "system", "kendall") == 1.0
    assert C.correlate(X, Z, "system", "spearman") == 1.0
    # task 0: x = z = (1, 3, 2) -> 1.  task 1: x = (2, 4, 2), z = (1, 3, 3): one
    # concordant pair, one pair tied in x, one tied in z -> 1 / sqrt(2 * 2) = 0.5
    assert C.correlate(X, Z, "summary", "kendall") == 0.75
    # global: six cells
    x = [1, 2, 3, 4, 2, 2]
    z = [1, 1, 3, 3, 2, 3]
    assert C.correlate(X, Z, "global", "kendall") == ss.kendalltau(x, z)[0]


def test_missing_cells_and_mappings():
    rng = random.Random(5)
    X = [[rng.random() for _ in range(6)] for _ in range(5)]
    Z = [[rng.random() for _ in range(6)] for _ in range(5)]
    X[1][2] = None
    Z[3][4] = None  # a cell missing from one table only is left out everywhere
    flat = {(f"s{i:02d}", f"t{j:02d}"): v for i, row in enumerate(X) for j, v in enumerate(row) if v is not None}
    nested = {f"s{i:02d}": {f"t{j:02d}": v for j, v in enumerate(row)} for i, row in enumerate(Z)}
    flatz = {(s, t): v for s, row in nested.items() for t, v in row.items() if v is not None}
    for level in C.LEVELS:
        ref = ref_level(to_array(X), to_array(Z), level, "pearson")
        assert same(C.correlate(X, Z, level), ref)
        assert same(C.correlate(flat, nested, level), ref)
        m = C.correlation(X, Z, level, resamples=50, seed=3).to_dict()
        assert C.correlation(flat, flatz, level, resamples=50, seed=3).to_dict() == m
        assert C.correlation(flat, nested, level, resamples=50, seed=3).to_dict() == m


# ---------------------------------------------------------------------------
# Bootstrap resamples and permutations against the reference


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tables(), st.sampled_from(C.SCHEMES), st.integers(0, 2**32))
@example(  # resample 11 has system means of Z equal up to rounding: skipped, the rest compared
    [[[None, 0.0, 0.0], [0.0, 0.0, 0.0], [None, None, 0.001], [None, 0.0, 0.0], [0.0, 0.0, 0.0]],
     [[None, 0.0, 0.0], [0.0, 0.001, 0.008], [None, None, 0.003], [None, 0.0, 0.0], [0.0, 0.0, 0.0]]],
    "both", 3663)
def test_bootstrap_samples_equal_reference(tabs, scheme, seed):
    X, Z = tabs
    Xa, Za = to_array(X), to_array(Z)
    draws = C.bootstrap_draws(len(X), len(X[0]), scheme, 12, seed)
    for level in C.LEVELS:
        got = C.bootstrap_samples(X, Z, level, scheme, 12, seed)
        for k, (rows, cols) in enumerate(draws):
            r = slice(None) if rows is None else rows
            c = slice(None) if cols is None else cols
            Xr, Zr = Xa[r][:, c], Za[r][:, c]
            for name in C.COEFFICIENTS:
                with ill_conditioned() as ill:
                    want = ref_level(Xr, Zr, level, name)
                assert ill or same(got[name][k], want), (level, name, k)


@pytest.mark.parametrize("scheme", C.SCHEMES)
def test_bootstrap_samples_on_larger_tables_with_coarse_human_scores(scheme):
    """Enough cells, and few enough distinct human scores, for the global
    level's tie-group sweep, with resampling multiplicities."""
    rng = random.Random(4)
    H = [[float(rng.randint(1, 3)) for _ in range(8)] for _ in range(10)]
    X = [[round(h + rng.random(), 1) for h in row] for row in H]
    X[2][3] = H[5][1] = None
    Xa, Za = to_array(X), to_array(H)
    draws = C.bootstrap_draws(10, 8, scheme, 15, 3)
    for level in C.LEVELS:
        got = C.bootstrap_samples(X, H, level, scheme, 15, 3)
        for k, (rows, cols) in enumerate(draws):
            r = slice(None) if rows is None else rows
            c = slice(None) if cols is None else cols
            for name in C.COEFFICIENTS:
                assert same(got[name][k], ref_level(Xa[r][:, c], Za[r][:, c], level, name)), (level, name, k)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(tables(n_metrics=2), st.sampled_from(C.SCHEMES), st.integers(0, 2**32))
# A's 0.002 and B's 2 both standardize to -1/sqrt(14) in exact arithmetic but
# 3 ulps apart in floats: swapping them into task 2 (the only task where the
# human scores vary) must leave B*'s scores there constant, so r(B*, H) is
# undefined, not a correlation of rounding noise.
@example(([[0.001] * 5, [0.003, 0.004, 0.002, 0.003, 0.004], [0.001, 0.002, 0.003, 0.004, 0.004]],
          [[1.0, 3.0, 2.0, 1.0, 1.0], [1.0, 2.0, 2.0, 3.0, 3.0], [4.0, 4.0, 2.0, 2.0, 3.0]],
          [[0.0, 0.0, 0.001, 0.0, 0.0], [0.0] * 5, [0.0] * 5]), "systems", 0)
def test_paired_bootstrap_and_permutation_samples_equal_reference(tabs, scheme, seed):
    A, B, Z = tabs
    Aa, Ba, Za = to_array(A), to_array(B), to_array(Z)
    ns, nt = Aa.shape
    ok = ~np.isnan(Aa) & ~np.isnan(Ba) & ~np.isnan(Za)
    Aa[~ok] = Ba[~ok] = Za[~ok] = NAN
    As, Bs = ref_merge(ref_zscore(Aa, ok), ref_zscore(Ba, ok), ok)
    draws = C.bootstrap_draws(ns, nt, scheme, 8, seed)
    swaps = C.permutation_draws(ns, nt, scheme, 8, seed)
    for level in C.LEVELS:
        boot = C.paired_bootstrap_samples(A, B, Z, level, scheme, 8, seed)
        observed, perm = C.permutation_samples(A, B, Z, level, scheme, 8, seed)
        for name in C.COEFFICIENTS:
            assert same(observed[name], ref_level(As, Za, level, name) - ref_level(Bs, Za, level, name))
            for k, (rows, cols) in enumerate(draws):
                r = slice(None) if rows is None else rows
                c = slice(None) if cols is None else cols
                with ill_conditioned() as ill:
                    want = ref_level(Aa[r][:, c], Za[r][:, c], level, name) - ref_level(Ba[r][:, c], Za[r][:, c], level, name)
                assert ill or same(boot[name][k], want), (level, name, k)
            for k, m in enumerate(swaps):
                flags = np.array(list(m), dtype=bool)
                if scheme == "systems":
                    S = flags[:, None]
                elif scheme == "tasks":
                    S = flags[None, :]
                else:
                    S = flags.reshape(ns, nt)
                Xp, Yp = np.where(S, Bs, As), np.where(S, As, Bs)
                with ill_conditioned() as ill:
                    want = ref_level(Xp, Za, level, name) - ref_level(Yp, Za, level, name)
                assert ill or same(perm[name][k], want), (level, name, k)


def test_p_values_follow_their_definition():
    A, B, H = synthetic(ns=8, nt=10, seed=4, noise_a=1.0, noise_b=1.2)
    for level in C.LEVELS:
        for scheme in C.SCHEMES:
            observed, perm = C.permutation_samples(A, B, H, level, scheme, 100, 9)
            res = C.compare(A, B, H, level, permutation=scheme, resamples=100, seed=9)
            boot = C.paired_bootstrap_samples(A, B, H, level, "both", 100, 9)
            for name in C.COEFFICIENTS:
                d = getattr(res, name)
                obs, s = observed[name], perm[name]
                assert d.p_one_sided == sum(v >= obs - C.TIE_TOLERANCE for v in s) / len(s)
                assert d.p_two_sided == sum(abs(v) >= abs(obs) - C.TIE_TOLERANCE for v in s) / len(s)
                assert d.p_value == d.p_two_sided
                assert abs(d.ci[0] - np.percentile(boot[name], 2.5)) < TOL
                assert abs(d.ci[1] - np.percentile(boot[name], 97.5)) < TOL
                assert same(d.difference, C.correlate(A, H, level, name) - C.correlate(B, H, level, name))
            one = C.compare(A, B, H, level, permutation=scheme, resamples=100, seed=9, alternative="greater")
            assert all(getattr(one, n).p_value == getattr(one, n).p_one_sided for n in C.COEFFICIENTS)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(finite, st.just(NAN)), max_size=60), st.floats(0, 1))
def test_percentile_equals_numpy(values, q):
    vals = [v for v in values if v == v]
    got = C.percentile(values, q)
    if not vals:
        assert math.isnan(got)
    else:
        want = float(np.percentile(vals, q * 100))
        assert abs(got - want) <= 1e-12 * max(1.0, abs(want))


# ---------------------------------------------------------------------------
# Properties of the resampling


@pytest.mark.parametrize("level", C.LEVELS)
@pytest.mark.parametrize("scheme", C.SCHEMES)
def test_identical_metrics_have_p_one(level, scheme):
    A, _, H = synthetic(ns=10, nt=20, seed=2)
    res = C.compare(A, [row[:] for row in A], H, level, permutation=scheme, resampling=scheme,
                    resamples=200, seed=1)
    for name in C.COEFFICIENTS:
        d = getattr(res, name)
        assert d.p_two_sided == 1.0 and d.p_one_sided == 1.0
        assert d.difference == 0.0 and d.ci == (0.0, 0.0)


@pytest.mark.parametrize("level", C.LEVELS)
@pytest.mark.parametrize("scheme", C.SCHEMES)
def test_rescaled_metric_has_null_distribution_zero(level, scheme):
    """B = 100 A (the same metric in percent) or 100 A + 3 standardizes to A's
    z-scores up to rounding; with a task every system scores 0, a swap of
    rounding-different z-scores would give that task a correlation of noise
    (up to 0.14 here before the merge). Every swap is a no-op: each permuted
    difference is exactly 0."""
    rng = random.Random(1)
    A = [[round(rng.random(), 4) for _ in range(12)] for _ in range(8)]
    H = [[rng.randint(1, 5) + rng.random() for _ in range(12)] for _ in range(8)]
    for row in A:
        row[3] = 0.0
    for shift in (0, 3):
        B = [[100 * v + shift for v in row] for row in A]
        observed, perm = C.permutation_samples(A, B, H, level, scheme, 200, 1)
        for name in C.COEFFICIENTS:
            assert observed[name] == 0.0
            assert set(perm[name]) == {0.0}, (shift, name, max(map(abs, perm[name])))


@pytest.mark.parametrize("level", C.LEVELS)
@pytest.mark.parametrize("scheme", C.SCHEMES)
def test_metric_against_its_negation(level, scheme):
    A, _, H = synthetic(ns=14, nt=20, seed=3, noise_a=0.3)
    neg = [[-v for v in row] for row in A]
    res = C.compare(A, neg, H, level, permutation=scheme, resampling=scheme, resamples=200, seed=2)
    rev = C.compare(neg, A, H, level, permutation=scheme, resampling=scheme, resamples=200, seed=2,
                    alternative="greater")
    for name in C.COEFFICIENTS:
        d, r = getattr(res, name), getattr(rev, name)
        assert d.difference > 0 and d.ci[0] > 0
        assert d.p_two_sided <= 0.01 and d.p_one_sided <= 0.01
        assert r.p_value >= 0.99


def test_better_metric_is_significantly_better():
    A, B, H = synthetic(ns=16, nt=30, seed=6, noise_a=0.5, noise_b=2.0, bias_b=1.0)
    for level in C.LEVELS:
        res = C.compare(A, B, H, level, resamples=200, seed=0)
        for name in C.COEFFICIENTS:
            d = getattr(res, name)
            assert d.ci[0] > 0 and d.p_two_sided < 0.05, (level, name)


@pytest.mark.parametrize("level", C.LEVELS)
@pytest.mark.parametrize("scheme", C.SCHEMES)
def test_interval_contains_point_estimate(level, scheme):
    # moderate correlations: far from the bound of 1, where bootstrap
    # distributions are skewed and may leave the estimate outside
    A, _, H = synthetic(ns=20, nt=8, seed=7, noise_a=2.0)
    res = C.correlation(A, H, level, resampling=scheme, resamples=300, seed=5)
    for name in C.COEFFICIENTS:
        e = getattr(res, name)
        assert e.ci[0] <= e.value <= e.ci[1]
        assert e.ci[0] < e.ci[1]


def test_coverage_of_known_population_correlations():
    """Bivariate normal (rho = 0.6), one task, 40 systems: the population
    Pearson r, Spearman rho_s = (6/pi) asin(rho/2) and Kendall
    tau = (2/pi) asin(rho) are known; 95% BOOT-SYSTEMS intervals must cover
    them in most of 60 independent data sets."""
    rho = 0.6
    truth = {"pearson": rho, "spearman": 6 / math.pi * math.asin(rho / 2),
             "kendall": 2 / math.pi * math.asin(rho)}
    hits = dict.fromkeys(C.COEFFICIENTS, 0)
    runs = 60
    for k in range(runs):
        rng = random.Random(1000 + k)
        X, Z = [], []
        for _ in range(40):
            u, v = rng.gauss(0, 1), rng.gauss(0, 1)
            X.append([u])
            Z.append([rho * u + math.sqrt(1 - rho * rho) * v])
        res = C.correlation(X, Z, "system", resampling="systems", resamples=400, seed=k)
        for name in C.COEFFICIENTS:
            lo, hi = getattr(res, name).ci
            hits[name] += lo <= truth[name] <= hi
    for name in C.COEFFICIENTS:
        assert hits[name] >= 0.85 * runs, (name, hits[name])


def test_seeds():
    A, B, H = synthetic(ns=8, nt=12, seed=8)
    for level in C.LEVELS:
        one = C.compare(A, B, H, level, resamples=100, seed=11).to_dict()
        assert C.compare(A, B, H, level, resamples=100, seed=11).to_dict() == one
        assert C.compare(A, B, H, level, resamples=100, seed=12).to_dict() != one
        c = C.correlation(A, H, level, resamples=100, seed=11).to_dict()
        assert C.correlation(A, H, level, resamples=100, seed=11).to_dict() == c
        assert C.correlation(A, H, level, resamples=100, seed=12).to_dict() != c
    assert C.bootstrap_draws(5, 7, "both", 20, 1) == C.bootstrap_draws(5, 7, "both", 20, 1)
    assert C.bootstrap_draws(5, 7, "both", 20, 1) != C.bootstrap_draws(5, 7, "both", 20, 2)
    assert C.permutation_draws(5, 7, "both", 20, 1) != C.permutation_draws(5, 7, "both", 20, 2)


def test_draws_have_the_documented_shape():
    for scheme in C.SCHEMES:
        for rows, cols in C.bootstrap_draws(6, 9, scheme, 300, 0):
            assert (rows is None) == (scheme == "tasks")
            assert (cols is None) == (scheme == "systems")
            assert rows is None or (len(rows) == 6 and all(0 <= r < 6 for r in rows))
            assert cols is None or (len(cols) == 9 and all(0 <= c < 9 for c in cols))
    seen = [0] * 6
    for rows, _ in C.bootstrap_draws(6, 9, "systems", 600, 0):
        for r in rows:
            seen[r] += 1
    assert all(500 <= s <= 700 for s in seen)  # 3600 draws, 600 expected each
    flags = C.permutation_draws(6, 9, "both", 200, 0)
    assert all(len(m) == 54 and set(m) <= {0, 1} for m in flags)
    ones = sum(sum(m) for m in flags)
    assert abs(ones / (54 * 200) - 0.5) < 0.03
    assert [len(m) for m in C.permutation_draws(6, 9, "systems", 3, 0)] == [6] * 3
    assert [len(m) for m in C.permutation_draws(6, 9, "tasks", 3, 0)] == [9] * 3


def test_results_are_json():
    A, B, H = synthetic(ns=6, nt=5, seed=9)
    res = C.correlation(A, H, "summary", resamples=50).to_dict()
    json.dumps(res, allow_nan=False)
    assert set(res) >= {"level", "n", "pearson", "spearman", "kendall"}
    assert set(res["kendall"]) == {"value", "ci"} and len(res["kendall"]["ci"]) == 2
    assert res["n"] == 5
    const = [[1.0] * 5 for _ in range(6)]
    d = C.correlation(const, H, "system", resamples=20).to_dict()
    json.dumps(d, allow_nan=False)
    assert d["pearson"] == {"value": None, "ci": [None, None]}
    cmp = C.compare(A, B, H, "system", resamples=50).to_dict()
    json.dumps(cmp, allow_nan=False)
    assert set(cmp["pearson"]) == {"a", "b", "difference", "ci", "p_value", "p_one_sided", "p_two_sided"}


@pytest.mark.parametrize("call, needle", [
    (lambda: C.correlate([[1, 2]], [[1, 2]]), "at least 2 systems"),
    (lambda: C.correlate([[1, 2], [3, 4]], [[1, 2], [3, 4], [5, 6]]), "same shape"),
    (lambda: C.correlate([[1, 2], [3]], [[1, 2], [3, 4]]), "row 1 has 1 cells"),
    (lambda: C.correlate([[1, float("nan")], [3, 4]], [[1, 2], [3, 4]]), r"metric\[0\]\[1\] is nan"),
    (lambda: C.correlate([[1, 2], [3, 4]], [[1, 2], [3, float("inf")]]), r"human\[1\]\[1\] is inf"),
    (lambda: C.correlate({("a", "t"): 1, ("b", "t"): "x"}, {("a", "t"): 1, ("b", "t"): 2}), "numbers"),
    (lambda: C.correlate({"a": 1}, {"a": 1}), "not a \\(system, task\\) pair"),
    (lambda: C.correlate({("a", "t"): 1}, [[1]]), "as mappings or all as matrices"),
    (lambda: C.correlate([[1, 2], [3, 4]], [[1, 2], [3, 4]], "document"), "unknown correlation level"),
    (lambda: C.correlate([[1, 2], [3, 4]], [[1, 2], [3, 4]], "system", "tau"), "unknown correlation coefficient"),
    (lambda: C.correlation([[1, 2], [3, 4]], [[1, 2], [3, 4]], resampling="rows"), "unknown resampling scheme"),
    (lambda: C.correlation([[1, 2], [3, 4]], [[1, 2], [3, 4]], confidence=95), "between 0 and 1"),
    (lambda: C.correlation([[1, 2], [3, 4]], [[1, 2], [3, 4]], resamples=0), "positive whole number"),
    (lambda: C.compare([[1, 2], [3, 4]], [[1, 2], [3, 4]], [[1, 2], [3, 4]], alternative="less"), "alternative"),
    (lambda: C.compare([[1, 2], [3, 4]], [[1, 2], [3, 4]], [[1, 2], [3, 4]], permutation="cells"), "permutation scheme"),
])
def test_user_errors(call, needle):
    with pytest.raises(UserError, match=needle) as e:
        call()
    assert "\n" not in str(e.value)


def test_inputs_alias_and_summary_n():
    A, _, H = synthetic(ns=5, nt=4, seed=10)
    for row in A:
        row[0] = 2.0  # task 0: every system scores the same -> undefined, skipped
    res = C.correlation(A, H, "summary", resampling="inputs", resamples=20)
    assert res.resampling == "tasks"
    assert res.n == 3
    assert same(res.pearson.value, float(np.mean([ref_coef("pearson", [A[i][j] for i in range(5)],
                                                            [H[i][j] for i in range(5)])
                                                   for j in (1, 2, 3)])))


def test_no_defined_task_gives_nan():
    # two systems that share no task: summary level has nothing to average
    assert math.isnan(C.correlate([[1, None], [None, 2]], [[1, 2], [3, 4]], "summary"))
