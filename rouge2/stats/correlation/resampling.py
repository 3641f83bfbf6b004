"""Bootstrap and permutation distributions of the correlations.

Each function here has two implementations with the same numbers: the
pure-Python definition (below, on :class:`~rouge2.stats.correlation.levels.Level`)
and the C kernels ``corr_resample`` / ``corr_permute``
(``rouge2/kernels/stats_kernels.h``), used when the extension is built.
``tests/test_correlation.py`` checks that both agree bit for bit.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from itertools import chain, compress
from typing import TypeVar

from rouge2 import kernels
from rouge2.stats.correlation.coefficients import COEFFICIENTS, corr, vec
from rouge2.stats.correlation.draws import BootstrapDraws, packed_bootstrap, packed_permutation, swap_size
from rouge2.stats.correlation.levels import Level, Values, prepare
from rouge2.stats.correlation.tables import Data, ScoreTable, check_scheme

#: Standardized scores (in standard deviations) of the two metrics of a
#: permutation test that lie closer together than this are one score: scores
#: equal in exact arithmetic come out of the standardization a few units in
#: the last place apart, and a swap must not turn that rounding into a
#: difference (a constant task into a non-constant one, a tie into an order).
SCORE_TOLERANCE = 1e-9

T = TypeVar("T")

_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")
_LEVEL_CODE = {"system": 0, "summary": 1, "global": 2}
_SCHEME_CODE = {"systems": 0, "tasks": 1, "both": 2}


def _mask(which: Sequence[str]) -> int:
    return sum(bit for name, bit in (("pearson", 1), ("spearman", 2), ("kendall", 4)) if name in which)


def layout(data: Data) -> tuple[int, int, bytes, bytes]:
    """The aligned table's shape as the C kernels take it."""
    return data.ns, data.nt, array("i", data.cell_row).tobytes(), array("i", data.cell_col).tobytes()


def _unpack(blob: bytes, k: int) -> list[list[float]]:
    vals = array("d")
    vals.frombytes(blob)
    return [vals[i::k].tolist() for i in range(k)]


# ---------------------------------------------------------------------------
# Bootstrap


def bootstrap_values(data: Data, lv: Level, xs: list[list[float]], draws: BootstrapDraws | None,
                     use_c: bool = True) -> list[list[list[float]]]:
    """For each table of ``xs`` (aligned like the human table): per
    coefficient of ``lv.which``, its value on each resample of ``draws``
    (``None``: once, on the data)."""
    kern = kernels.corr_resample if use_c else None
    k = len(lv.which)
    if kern is not None:
        blobs = kern(_LEVEL_CODE[lv.level], _mask(lv.which), [*xs, lv.z], layout(data),
                     None if draws is None else draws.rows, None if draws is None else draws.cols,
                     1 if draws is None else draws.resamples)
        return [_unpack(b, k) for b in blobs]
    out: list[list[list[float]]] = [[[] for _ in range(k)] for _ in xs]
    kept = [lv.keep(x) for x in xs]
    for rows, cols in ([(None, None)] if draws is None else draws):
        vals, _ = lv.values(kept, rows, cols)
        for per, v in zip(out, vals):
            for lst, value in zip(per, v):
                lst.append(value)
    return out


def bootstrap(data: Data, lv: Level, scheme: str, resamples: int, seed: int) -> dict[str, list[float]]:
    draws = packed_bootstrap(data.ns, data.nt, scheme, resamples, seed)
    (per,) = bootstrap_values(data, lv, [data.flat[0]], draws)
    return dict(zip(lv.which, per))


def paired_bootstrap(data: Data, lv: Level, scheme: str, resamples: int, seed: int) -> dict[str, list[float]]:
    draws = packed_bootstrap(data.ns, data.nt, scheme, resamples, seed)
    va, vb = bootstrap_values(data, lv, [data.flat[0], data.flat[1]], draws)
    return {c: [x - y for x, y in zip(a, b)] for c, a, b in zip(lv.which, va, vb)}


# ---------------------------------------------------------------------------
# Permutation


def standardize(x: list[float]) -> list[float]:
    n = len(x)
    m = math.fsum(x) / n
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in x) / n)
    if sd == 0:
        return [v - m for v in x]
    return [(v - m) / sd for v in x]


def standardize_pair(x: list[float], y: list[float]) -> tuple[list[float], list[float]]:
    """Both metrics standardized, then their scores merged where they differ
    by rounding only: the pooled values, sorted, form runs in which each is
    within :data:`SCORE_TOLERANCE` of the one before; every value of a run
    becomes the run's smallest."""
    a, b = standardize(x), standardize(y)
    rep: dict[float, float] = {}
    start = prev = 0.0
    for k, v in enumerate(sorted(set(a).union(b))):
        if k == 0 or v - prev > SCORE_TOLERANCE:
            start = v
        rep[v] = start
        prev = v
    return [rep[v] for v in a], [rep[v] for v in b]


def _swap(p: Sequence[T], q: Sequence[T], m: bytes) -> tuple[list[T], list[T]]:
    """A and B with the flagged entries traded."""
    return [y if s else x for x, y, s in zip(p, q, m)], [x if s else y for x, y, s in zip(p, q, m)]


def _perm_system(data: Data, lv: Level, a: list[float], b: list[float], scheme: str,
                 draws: list[bytes]) -> list[tuple[Values, Values]]:
    f, which, nt = lv.flags, lv.which, data.nt
    pz = vec(lv.row_means(lv.z), None, None, *f)
    out = []
    if scheme == "systems":
        # a swap moves whole rows: the row means are A's or B's
        ma, mb = lv.row_means(a), lv.row_means(b)
        for m in draws:
            xa, xb = _swap(ma, mb, m)
            out.append((corr(vec(xa, None, None, *f), pz, which), corr(vec(xb, None, None, *f), pz, which)))
        return out
    # each row mean of A' (B') is the mean of the row's kept A (B) scores
    # and swapped-in B (A) scores: one exact sum over those values
    rows = [(a[s:e], b[s:e], data.cell_col[s:e], e - s == nt, e - s) for s, e in data.row_span]
    for m in draws:
        xa, xb = [], []
        for i, (ar, br, cols, full, cnt) in enumerate(rows):
            mr = m if scheme == "tasks" else m[i * nt:(i + 1) * nt]
            if not full:
                mr = bytes(map(mr.__getitem__, cols))
            keep = mr.translate(_FLIP)
            xa.append(math.fsum(chain(compress(ar, keep), compress(br, mr))) / cnt)
            xb.append(math.fsum(chain(compress(br, keep), compress(ar, mr))) / cnt)
        out.append((corr(vec(xa, None, None, *f), pz, which), corr(vec(xb, None, None, *f), pz, which)))
    return out


def _perm_summary(data: Data, lv: Level, a: list[float], b: list[float], scheme: str,
                  draws: list[bytes]) -> list[tuple[Values, Values]]:
    nt, out = data.nt, []
    if scheme == "tasks":
        # a swap moves whole columns: each task's correlation is A's or B's
        ca, cb = lv.column_values(a), lv.column_values(b)
        for m in draws:
            sa, sb = _swap(ca, cb, m)
            out.append((lv.average(sa, range(nt))[0], lv.average(sb, range(nt))[0]))
        return out
    f, which = lv.flags, lv.which
    cols = [([a[k] for k in ks], [b[k] for k in ks], lv.col_rows[c], len(ks) == data.ns)
            for c, ks in enumerate(data.col_cells)]
    for m in draws:
        pa: list[Values] = []
        pb: list[Values] = []
        for c, (ac, bc, rws, full) in enumerate(cols):
            mc = m if scheme == "systems" else m[c::nt]
            if not full:
                mc = bytes(map(mc.__getitem__, rws))
            xa, xb = _swap(ac, bc, mc)
            pz = lv.zcol(c)
            pa.append(corr(vec(xa, None, None, *f), pz, which))
            pb.append(corr(vec(xb, None, None, *f), pz, which))
        out.append((lv.average(pa, range(nt))[0], lv.average(pb, range(nt))[0]))
    return out


def _perm_global(data: Data, lv: Level, a: list[float], b: list[float], scheme: str,
                 draws: list[bytes]) -> list[tuple[Values, Values]]:
    nt = data.nt
    if scheme == "systems":
        at = data.cell_row
    elif scheme == "tasks":
        at = data.cell_col
    else:
        at = [r * nt + c for r, c in zip(data.cell_row, data.cell_col)]
    out = []
    for m in draws:
        xa, xb = _swap(a, b, bytes(map(m.__getitem__, at)))
        (va, vb), _ = lv.values([xa, xb])
        out.append((va, vb))
    return out


_PERM = {"system": _perm_system, "summary": _perm_summary, "global": _perm_global}


def permutation_values(data: Data, lv: Level, a: list[float], b: list[float], scheme: str,
                       resamples: int, seed: int, use_c: bool = True) -> list[tuple[Values, Values]]:
    """(values of A*, values of B*) for each permutation of the standardized
    scores ``a`` and ``b`` (aligned like the human table)."""
    flat = packed_permutation(data.ns, data.nt, scheme, resamples, seed)
    size = swap_size(data.ns, data.nt, scheme)
    kern = kernels.corr_permute if use_c else None
    if kern is not None:
        k = len(lv.which)
        ba, bb = kern(_LEVEL_CODE[lv.level], _mask(lv.which), a, b, lv.z, layout(data),
                      _SCHEME_CODE[scheme], flat, resamples)
        va, vb = _unpack(ba, k), _unpack(bb, k)
        return [(tuple(v[r] for v in va), tuple(v[r] for v in vb)) for r in range(resamples)]
    draws = [flat[r * size:(r + 1) * size] for r in range(resamples)]
    return _PERM[lv.level](data, lv, lv.keep(a), lv.keep(b), scheme, draws)


def permutation(data: Data, lv: Level, scheme: str, resamples: int,
                seed: int) -> tuple[dict[str, float], dict[str, list[float]]]:
    """The observed difference r(A', H) - r(B', H) and its permutation distribution."""
    scheme = check_scheme(scheme, "permutation scheme")
    sa, sb = standardize_pair(data.flat[0], data.flat[1])
    a, b = lv.keep(sa), lv.keep(sb)
    (oa, ob), _ = lv.values([a, b])
    observed = {c: x - y for c, x, y in zip(lv.which, oa, ob)}
    out: dict[str, list[float]] = {c: [] for c in lv.which}
    for va, vb in permutation_values(data, lv, a, b, scheme, resamples, seed):
        for c, x, y in zip(lv.which, va, vb):
            out[c].append(x - y)
    return observed, out



# ---------------------------------------------------------------------------
# Sample distributions (public)


def bootstrap_samples(metric: ScoreTable, human: ScoreTable, level: str = "system",
                      scheme: str = "both", resamples: int = 1000, seed: int = 0,
                      coefficients: Sequence[str] = COEFFICIENTS) -> dict[str, list[float]]:
    """The correlation on each bootstrap resample (:func:`bootstrap_draws`
    over the aligned table), per coefficient; ``nan`` where undefined."""
    data, lv, _ = prepare([metric, human], ["metric", "human"], level, coefficients)
    return bootstrap(data, lv, scheme, resamples, seed)


def paired_bootstrap_samples(metric_a: ScoreTable, metric_b: ScoreTable, human: ScoreTable,
                             level: str = "system", scheme: str = "both", resamples: int = 1000,
                             seed: int = 0, coefficients: Sequence[str] = COEFFICIENTS
                             ) -> dict[str, list[float]]:
    """r(A, human) - r(B, human) on each bootstrap resample (the same
    resample for A, B and the human scores), per coefficient."""
    data, lv, _ = prepare([metric_a, metric_b, human], ["metric_a", "metric_b", "human"],
                          level, coefficients)
    return paired_bootstrap(data, lv, scheme, resamples, seed)


def permutation_samples(metric_a: ScoreTable, metric_b: ScoreTable, human: ScoreTable,
                        level: str = "system", scheme: str = "both", resamples: int = 1000,
                        seed: int = 0, coefficients: Sequence[str] = COEFFICIENTS
                        ) -> tuple[dict[str, float], dict[str, list[float]]]:
    """The permutation test's observed difference r(A', H) - r(B', H) and its
    null distribution, per coefficient.  A' and B' are A and B standardized
    (z-scores over their cells, as Deutsch et al. do, so that swapped scores
    are on one scale; scores of A' and B' within :data:`SCORE_TOLERANCE`
    of each other merged into one); each permutation swaps A' and B' at the
    systems, tasks or cells flagged by :func:`permutation_draws`.  A
    permutation where r(A*, H) or r(B*, H) is undefined gives ``nan``."""
    data, lv, _ = prepare([metric_a, metric_b, human], ["metric_a", "metric_b", "human"],
                          level, coefficients)
    return permutation(data, lv, scheme, resamples, seed)
