"""Bootstrap confidence intervals and corpus averages.

:func:`script_averages` reproduces ROUGE-1.5.5's ``computeAverages`` /
``bootstrapResampling`` exactly (same random numbers, same summation order,
same interpolation of the interval bounds), so its ``Average_R/P/F`` lines
can be printed byte for byte.  The arithmetic is plain IEEE double like
Perl's, done in the same order.  The draws and the per-resample sums are
done in bulk (:mod:`rouge2.stats.resample`), with the same numbers as one
draw at a time.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from rouge2 import kernels
from rouge2.errors import UserError
from rouge2.stats.drand48 import PerlRandom
from rouge2.stats.resample import bootstrap_sums, paired_bootstrap_sums, perl_table


def fmt5(x: float) -> str:
    """``sprintf("%7.5f", x)``."""
    return "%7.5f" % x


def perl_int(x: float) -> int:
    """Perl's ``int()``: truncation toward zero."""
    return int(x)


def perl_index(seq: Sequence[float], i: int) -> float:
    """``$array[$i]`` in numeric context: negative counts from the end,
    out of range is ``undef``, i.e. 0."""
    n = len(seq)
    if i < 0:
        i += n
    if 0 <= i < n:
        return seq[i]
    return 0.0


def perl_loop_count(limit: float) -> int:
    """How many times ``for($i=0;$i<$limit;$i++)`` runs."""
    if limit <= 0:
        return 0
    k = int(limit)
    return k + 1 if k < limit else k


def resample_indices(resample: int, n: int) -> tuple[int, ...]:
    """The instance indices the script draws for resample number ``resample``
    over ``n`` instances: ``srand(resample)`` then ``int(rand(n))`` n times
    (one row of :func:`rouge2.stats.resample.perl_table`, one draw at a time)."""
    r = PerlRandom(resample)
    return tuple(int(r.rand(n)) for _ in range(n))


@dataclass(frozen=True)
class Averages:
    """What ``printResults`` prints for one measure of one system."""

    avg: tuple[str, str, str]        # Average_R, _P, _F (already "%7.5f")
    ci_low: tuple[str, str, str]
    ci_high: tuple[str, str, str]
    counts: tuple[float, float, float]  # model, peer, hit totals (-t 1/2); sums otherwise


def _fmeasure_t1(r: float, p: float, alpha: float) -> float:
    d = (1 - alpha) * p + alpha * r
    return (r * p) / d if d > 0 else 0


def _triple(values: Iterable[str]) -> tuple[str, str, str]:
    a, b, c = values
    return a, b, c


def script_averages(
    scores: Mapping[str, Sequence[float]],
    resamples: float = 1000,
    confidence: float = 95,
    mode: int = 0,
    alpha: float = 0.5,
) -> Averages:
    """ROUGE-1.5.5's averages and bootstrap intervals.

    ``scores`` maps each test id ("evalID.peerID") to three numbers: under
    ``mode`` 0 the per-evaluation R, P, F (the rounded values), under modes
    1 and 2 the model unit count, peer unit count and hit count.
    ``resamples`` is ``-r``, ``confidence`` is ``-c`` (both numbers, maybe
    fractional, as the script allows).  Mode 2 returns only the counts.
    """
    instances = sorted(scores)
    cols = [[float(scores[i][k]) for i in instances] for k in range(3)]
    totals = (sum(cols[0]), sum(cols[1]), sum(cols[2]))  # sequential, in instance order
    if mode == 2:
        z = ("", "", "")
        return Averages(z, z, z, totals)

    count = perl_loop_count(resamples)
    if count == 0:
        raise UserError("the number of bootstrap resamples (-r) must be at least 1")
    ranked = [sorted(x) for x in _resampled_scores(cols, count, mode, alpha)]
    avg = _triple(fmt5(sum(r) / len(r)) for r in ranked)
    low, high = _script_interval(ranked, resamples, confidence)
    return Averages(avg, low, high, totals)


def _resampled_scores(cols: list[list[float]], count: int, mode: int, alpha: float) -> list[list[float]]:
    """R, P and F (three columns) of each of ``count`` resamples of the instances,
    as ``bootstrapResampling`` computes them."""
    n = len(cols[0])
    # per resample i: the sums over the drawn instances, added in draw order
    if n == 0:
        sums = [[0.0] * count for _ in cols]
    else:
        table = perl_table(n, count)
        sums = [kernels.indexed_sums(c, table, n) for c in cols]
    samples: list[list[float]] = [[], [], []]
    for i in range(count):
        s = [sums[0][i], sums[1][i], sums[2][i]]
        if n == 0:
            pass
        elif mode == 0:
            s = [x / n for x in s]
        else:
            m, p, h = s
            r = h / m if m > 0 else 0
            pr = h / p if p > 0 else 0
            s = [r, pr, _fmeasure_t1(r, pr, alpha)]
        for k in range(3):
            samples[k].append(s[k])
    return samples


def _script_interval(ranked: list[list[float]], resamples: float,
                     confidence: float) -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    """The interval bounds of each sorted column, interpolated as the script does."""
    delta = resamples * ((100 - confidence) / 2.0) / 100.0
    ci_ua = perl_int(resamples - delta - 1)
    ci_ub = ci_ua + 1
    ci_la = perl_int(delta)
    ci_lb = ci_la + 1
    ci_r = resamples - delta - 1 - ci_ua

    def interp(arr: list[float], a: int, b: int) -> str:
        lo = perl_index(arr, a)
        return fmt5(lo + (perl_index(arr, b) - lo) * ci_r)

    return (_triple(interp(r, ci_la, ci_lb) for r in ranked),
            _triple(interp(r, ci_ua, ci_ub) for r in ranked))


# ---------------------------------------------------------------------------
# the general bootstrap (tasks resampled, numpy-style percentile interval)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_values:
        return 0.0
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def bootstrap_interval(values: Sequence[float], resamples: int, confidence: float,
                       rng: random.Random) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` (tasks resampled)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0)
    # each resample: n draws rng.randrange(n), in bulk (rouge2.stats.resample)
    means = sorted(s / n for s in bootstrap_sums(values, resamples, rng))
    tail = (1.0 - confidence) / 2.0
    return (percentile(means, tail), percentile(means, 1.0 - tail))


#: resamples drawn per kernel call of :func:`paired_intervals` (a progress
#: tick each; the draws continue from the generator's state, so the numbers
#: do not depend on it)
PAIRED_CHUNK = 50


def paired_intervals(columns: Sequence[Sequence[float]], resamples: int, confidence: float,
                     rng: random.Random, tick: Callable[[int], object] | None = None) -> list[tuple[float, float]]:
    """Percentile bootstrap intervals of the means of ``columns`` (aligned by
    task), every column resampled with the same multisets of tasks
    (:func:`rouge2.stats.resample.paired_bootstrap_sums`; docs/statistics.md).
    ``tick(k)`` is called as each ``k`` resamples are done."""
    n = len(columns[0]) if columns else 0
    if n == 0:
        return [(0.0, 0.0) for _ in columns]
    cols = [c if isinstance(c, array) and c.typecode == "d" else array("d", c) for c in columns]
    sums: list[list[float]] = [[] for _ in cols]
    for start in range(0, resamples, PAIRED_CHUNK):
        rows = min(PAIRED_CHUNK, resamples - start)
        for out, part in zip(sums, paired_bootstrap_sums(cols, rows, rng)):
            out.extend(part)
        if tick is not None:
            tick(rows)
    tail = (1.0 - confidence) / 2.0
    intervals = []
    for column_sums in sums:
        means = sorted(s / n for s in column_sums)
        intervals.append((percentile(means, tail), percentile(means, 1.0 - tail)))
    return intervals
