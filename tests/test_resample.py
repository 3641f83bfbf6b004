"""Bulk resampling draws exactly what one call at a time draws.

rouge2.stats.resample draws the bootstraps' and paired tests' random numbers
in bulk; the numbers (and the generator's state afterwards) must equal the
real one-at-a-time calls of ``random.Random`` and of Perl's srand/rand
(rouge2.stats.drand48, itself checked against perl in test_drand48.py).
The old sequential implementations are kept here as oracles, and the C
kernels are checked against the pure-Python ones.
"""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rouge2.kernels import python as pyk
from rouge2.stats import resample
from rouge2.stats.bootstrap import (
    _fmeasure_t1,
    bootstrap_interval,
    fmt5,
    mean,
    percentile,
    perl_index,
    perl_int,
    perl_loop_count,
    resample_indices,
    script_averages,
)
from rouge2.stats.drand48 import PerlRandom
from rouge2.stats.significance import paired_test

try:
    from rouge2.kernels import _speedups
except ImportError:  # pragma: no cover - depends on the build
    _speedups = None

needs_c = pytest.mark.skipif(_speedups is None, reason="rouge2.kernels._speedups is not built")
# the old code summed with the builtin sum, which adds left to right up to
# Python 3.11 (3.12 compensates); the new code always adds left to right
old_sum_is_plain = pytest.mark.skipif(sys.version_info >= (3, 12),
                                      reason="builtin sum compensates from Python 3.12")

seeds = st.one_of(st.integers(-2**70, 2**70), st.text(max_size=12))
sizes = st.one_of(st.integers(1, 70), st.sampled_from([127, 128, 129, 255, 256, 1000, 2**20 + 1]))
floats = st.floats(-1e6, 1e6, allow_nan=False)


# -- the draws themselves ----------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(seeds, sizes, st.integers(0, 400))
def test_randbelow_table_is_randrange_one_at_a_time(seed, n, count):
    bulk, one = random.Random(seed), random.Random(seed)
    got = list(resample.randbelow_table(bulk, n, count))
    assert got == [one.randrange(n) for _ in range(count)]
    assert bulk.getstate() == one.getstate()  # nothing over-drawn
    assert bulk.random() == one.random()


@settings(max_examples=200, deadline=None)
@given(seeds, st.integers(0, 300))
def test_coin_words_are_random_below_half(seed, coins):
    bulk, one = random.Random(seed), random.Random(seed)
    words = resample.coin_words(bulk, coins)
    got = [int.from_bytes(words[8 * i:8 * i + 4], "little") < 2**31 for i in range(coins)]
    assert got == [one.random() < 0.5 for _ in range(coins)]
    assert bulk.getstate() == one.getstate()


@settings(max_examples=100, deadline=None)
@given(seeds, st.lists(floats, min_size=1, max_size=30), st.integers(0, 50))
def test_sums_add_left_to_right_from_zero(seed, values, resamples):
    n = len(values)
    one = random.Random(seed)
    want = []
    for _ in range(resamples):
        s = 0.0
        for _ in range(n):
            s += values[one.randrange(n)]
        want.append(s)
    assert resample.bootstrap_sums(values, resamples, random.Random(seed)) == want
    one = random.Random(seed)
    want = []
    for _ in range(resamples):
        s = 0.0
        for d in values:
            s += d if one.random() < 0.5 else -d
        want.append(s)
    assert resample.randomization_sums(values, resamples, random.Random(seed)) == want


def test_chunked_draws_continue_the_same_stream(monkeypatch):
    values = [random.Random(3).random() for _ in range(37)]
    whole = resample.bootstrap_sums(values, 300, random.Random(9))
    coins = resample.randomization_sums(values, 300, random.Random(9))
    monkeypatch.setattr(resample, "CHUNK_DRAWS", 100)  # a few resamples per chunk
    assert resample.bootstrap_sums(values, 300, random.Random(9)) == whole
    assert resample.randomization_sums(values, 300, random.Random(9)) == coins


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 120), st.integers(0, 40))
def test_perl_table_is_srand_rand_per_resample(n, count):
    table = list(memoryview(resample.perl_table(n, count)).cast("B").cast("i"))
    want = []
    for r in range(count):
        pr = PerlRandom(r)
        want += [int(pr.rand(n)) for _ in range(n)]
    assert table == want
    for r in range(count):
        assert tuple(table[r * n:(r + 1) * n]) == resample_indices(r, n)


# -- old sequential code as oracle -------------------------------------------

def old_bootstrap_interval(values, resamples, confidence, rng):
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    means = sorted(mean([values[rng.randrange(n)] for _ in range(n)]) for _ in range(resamples))
    tail = (1.0 - confidence) / 2.0
    return (percentile(means, tail), percentile(means, 1.0 - tail))


def old_paired_test(a, b, test, resamples, rng):
    diffs = [x - y for x, y in zip(a, b)]
    n = len(diffs)
    observed = abs(mean(diffs))
    eps = 1e-12
    hits = 0
    if test == "approximate-randomization":
        for _ in range(resamples):
            s = sum(d if rng.random() < 0.5 else -d for d in diffs)
            if abs(s / n) >= observed - eps:
                hits += 1
    else:
        mean_obs = mean(diffs)
        for _ in range(resamples):
            m = mean([diffs[rng.randrange(n)] for _ in range(n)])
            if abs(m - mean_obs) >= observed - eps:
                hits += 1
    return (hits + 1) / (resamples + 1)


def old_script_averages(scores, resamples=1000, confidence=95, mode=0, alpha=0.5):
    instances = sorted(scores)
    cols = [[float(scores[i][k]) for i in instances] for k in range(3)]
    totals = tuple(sum(c) for c in cols)
    n = len(instances)
    count = perl_loop_count(resamples)
    samples = [[], [], []]
    for i in range(count):
        if n == 0:
            s = [0.0, 0.0, 0.0]
        else:
            idx = resample_indices(i, n)
            s = [sum([c[j] for j in idx]) for c in cols]
            if mode == 0:
                s = [x / n for x in s]
            else:
                m, p, h = s
                r = h / m if m > 0 else 0
                pr = h / p if p > 0 else 0
                s = [r, pr, _fmeasure_t1(r, pr, alpha)]
        for k in range(3):
            samples[k].append(s[k])
    ranked = [sorted(x) for x in samples]
    avg = tuple(fmt5(sum(r) / len(r)) for r in ranked)
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    ci_ua = perl_int(resamples - delta - 1)
    ci_ub = ci_ua + 1
    ci_la = perl_int(delta)
    ci_lb = ci_la + 1
    ci_r = resamples - delta - 1 - ci_ua

    def interp(arr, a, b):
        lo = perl_index(arr, a)
        return fmt5(lo + (perl_index(arr, b) - lo) * ci_r)

    return ([interp(r, ci_la, ci_lb) for r in ranked], [interp(r, ci_ua, ci_ub) for r in ranked], avg, totals)


unit = st.floats(0, 1, allow_nan=False)


@old_sum_is_plain
@settings(max_examples=80, deadline=None)
@given(seeds, st.lists(unit, min_size=0, max_size=40), st.integers(0, 300),
       st.sampled_from([0.9, 0.95, 0.99]))
def test_bootstrap_interval_same_as_old(seed, values, resamples, confidence):
    new_rng, old_rng = random.Random(seed), random.Random(seed)
    assert bootstrap_interval(values, resamples, confidence, new_rng) == \
        old_bootstrap_interval(values, resamples, confidence, old_rng)
    assert new_rng.getstate() == old_rng.getstate()


@old_sum_is_plain
@settings(max_examples=80, deadline=None)
@given(seeds, st.lists(st.tuples(unit, unit), min_size=1, max_size=40), st.integers(0, 400),
       st.sampled_from(["approximate-randomization", "paired-bootstrap"]))
def test_paired_test_same_as_old(seed, pairs, resamples, test):
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    new_rng, old_rng = random.Random(seed), random.Random(seed)
    assert paired_test(a, b, test, resamples, new_rng) == old_paired_test(a, b, test, resamples, old_rng)
    assert new_rng.getstate() == old_rng.getstate()


@old_sum_is_plain
@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.text("abc123.", min_size=1, max_size=6),
                       st.tuples(st.integers(0, 40), st.integers(0, 40), st.integers(0, 40)),
                       max_size=25),
       st.sampled_from([0, 1]), st.sampled_from([1, 7.5, 100, 1000]), st.sampled_from([95, 90, 99.5]))
def test_script_averages_same_as_old(scores, mode, resamples, confidence):
    if mode == 0:
        scores = {k: tuple(x / 41 for x in v) for k, v in scores.items()}
    new = script_averages(scores, resamples, confidence, mode)
    low, high, avg, totals = old_script_averages(scores, resamples, confidence, mode)
    assert (list(new.ci_low), list(new.ci_high), new.avg, new.counts) == (low, high, avg, totals)


# -- C kernels against the pure-Python ones ----------------------------------

@needs_c
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 150), st.integers(0, 30))
def test_c_perl_table(n, count):
    assert _speedups.perl_resample_table(n, count) == bytes(pyk.perl_resample_table(n, count))


@needs_c
@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400), st.integers(1, 2**31 - 1))
def test_c_words_below(raw, n):
    words = raw[: len(raw) - len(raw) % 4]
    assert _speedups.words_below(words, n) == bytes(pyk.words_below(words, n))


@needs_c
@settings(max_examples=150, deadline=None)
@given(st.lists(floats, min_size=1, max_size=20), st.data())
def test_c_sums(values, data):
    n = len(values)
    rows = data.draw(st.integers(0, 10))
    idx = data.draw(st.lists(st.integers(0, n - 1), min_size=rows * n, max_size=rows * n))
    table = pyk.array("i", idx)
    assert _speedups.indexed_sums(values, table, n) == pyk.indexed_sums(values, table, n)
    words = data.draw(st.binary(min_size=8 * n * rows, max_size=8 * n * rows))
    assert _speedups.signed_sums(values, words, n) == pyk.signed_sums(values, words, n)


@needs_c
def test_c_indexed_sums_checks_indices():
    with pytest.raises(IndexError):
        _speedups.indexed_sums([1.0, 2.0], pyk.array("i", [0, 2]), 2)


@needs_c
@settings(max_examples=100, deadline=None)
@given(seeds, st.integers(0, 2000), st.integers(0, 700))
def test_c_mersenne_twister_words(seed, skip, m):
    a, b = random.Random(seed), random.Random(seed)
    a.getrandbits(32 * skip + 1) if skip else None  # any position in the state
    b.getrandbits(32 * skip + 1) if skip else None
    assert resample.raw_words(a, m) == (b.getrandbits(32 * m).to_bytes(4 * m, "little") if m else b"")
    assert a.getstate() == b.getstate()
    assert a.random() == b.random()


@needs_c
@settings(max_examples=100, deadline=None)
@given(seeds, st.lists(floats, min_size=1, max_size=40), st.integers(0, 60))
def test_c_fused_sums_same_as_generic_path(seed, values, rows):
    """The fused C kernels (draws and sums in one pass) against the generic
    path (words in bulk, then words_below/indexed_sums, signed_sums)."""
    class Plain(random.Random):  # a subclass takes the generic path
        pass

    for fn in (resample.bootstrap_sums, resample.randomization_sums):
        fast, generic = random.Random(seed), Plain(seed)
        assert fn(values, rows, fast) == fn(values, rows, generic)
        assert fast.getstate() == generic.getstate()
