"""Soft pairwise accuracy (Thompson et al. 2024): the pure-Python definition.

For every pair of systems (i, j), i before j, a one-sided paired
permutation test over the items asks whether system i is better than
system j, once on the human scores and once on the metric's:

    δ   = Σ_t x_it - Σ_t x_jt                   (sums over the items t)
    δ*_k = Σ_t s_kt x_it - Σ_t s_kt x_jt         (s_kt = -1 where permutation k swaps item t, else +1)
    p_ij = #{k : δ*_k >= δ - τ_ij} / K,          τ_ij = 1e-9 (Σ_t |x_it| + Σ_t |x_jt|)

and soft pairwise accuracy = 1 - mean over pairs of |p_ij(human) - p_ij(metric)|.

The K permutations are those of :func:`~rouge2.stats.correlation.draws.permutation_draws`
with the ``tasks`` scheme (one flag per item), the same for the human and
the metric scores and for every pair.  Each sum adds left to right from
0.0 in item order; τ makes sums that are equal in exact arithmetic (swapped
items of equal scores) count as equal whatever their rounding.  Only the
items every system has are used; fewer than two of them is an error.  With
a bootstrap resample, systems drawn k times count k times (two copies of a
system have p = 1 on both sides) and drawn items are taken in drawn order.
The value is ``nan`` when the human sums are equal for every system.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from operator import mul

from rouge2 import kernels
from rouge2.errors import UserError
from rouge2.stats.correlation.coefficients import NAN, lr_sum
from rouge2.stats.correlation.draws import BootstrapDraws, packed_permutation
from rouge2.stats.correlation.levels import counts
from rouge2.stats.correlation.statistics import register
from rouge2.stats.correlation.tables import Data

#: relative tolerance of the permutation test's comparison (see the module docs)
SUM_TOLERANCE = 1e-9


def complete_items(data: Data) -> list[int]:
    """The tasks every system has; an error when fewer than two."""
    items = [c for c in range(data.nt) if len(data.col_cells[c]) == data.ns]
    if len(items) < 2:
        raise UserError(f"soft-pairwise-accuracy needs at least 2 items scored for every system "
                        f"(a paired permutation test over items); these scores have {len(items)}")
    return items


def signs(data: Data, resamples: int, seed: int) -> list[list[float]]:
    """±1.0 per permutation and item position (-1.0: swapped)."""
    flat = packed_permutation(data.ns, data.nt, "tasks", resamples, seed)
    nt = data.nt
    return [[-1.0 if f else 1.0 for f in flat[k * nt:(k + 1) * nt]] for k in range(resamples)]


def _p_counts(vals: dict[int, list[float]], sg: list[list[float]]) -> dict[tuple[int, int], int]:
    """For each pair of systems i < j: permutations with δ* >= δ - τ."""
    tot = {i: lr_sum(v) for i, v in vals.items()}
    mag = {i: lr_sum(map(abs, v)) for i, v in vals.items()}
    part = {i: [lr_sum(map(mul, s, v)) for s in sg] for i, v in vals.items()}
    out = {}
    units = sorted(vals)
    for a, i in enumerate(units):
        for j in units[a + 1:]:
            thr = (tot[i] - tot[j]) - SUM_TOLERANCE * (mag[i] + mag[j])
            out[(i, j)] = sum(1 for p, q in zip(part[i], part[j]) if p - q >= thr)
    return out


def spa_fraction(x: Sequence[Sequence[float]], h: Sequence[Sequence[float]], w: Sequence[int] | None,
                 positions: Sequence[int], sg: list[list[float]]) -> tuple[int, int] | None:
    """1 - PCE as an exact fraction (num, den) for the systems with
    multiplicities ``w``, over the item ``positions`` (index into each row,
    with their sign columns), or ``None`` when undefined."""
    live = [i for i in range(len(x)) if w is None or w[i]]
    n = sum(1 if w is None else w[i] for i in live)
    cols = [[s[t] for t in positions] for s in sg]
    hv = {i: [h[i][t] for t in positions] for i in live}
    if n < 2 or len({lr_sum(v) for v in hv.values()}) < 2:
        return None
    ch = _p_counts(hv, cols)
    cm = _p_counts({i: [x[i][t] for t in positions] for i in live}, cols)
    k = len(sg)
    pairs = n * (n - 1) // 2
    err = sum((1 if w is None else w[i] * w[j]) * abs(ch[(i, j)] - cm[(i, j)]) for i, j in ch)
    return k * pairs - err, k * pairs


def spa_values(data: Data, draws: BootstrapDraws | None, resamples: int, seed: int,
               use_c: bool = True) -> list[float]:
    """Soft pairwise accuracy on the data (``draws`` None) or on each resample,
    with ``resamples`` permutations from ``seed``."""
    items = complete_items(data)
    ok = bytes(1 if len(data.col_cells[c]) == data.ns else 0 for c in range(data.nt))
    dense = [[data.flat[t][data.idx[i][c]] if data.idx[i][c] >= 0 else 0.0 for c in range(data.nt)]
             for t in (0, -1) for i in range(data.ns)]
    x, h = dense[:data.ns], dense[data.ns:]
    kern = kernels.spa_resample if use_c else None
    if kern is not None:
        flat = packed_permutation(data.ns, data.nt, "tasks", resamples, seed)
        blob = array("d", [v for row in x for v in row]).tobytes(), array("d", [v for row in h for v in row]).tobytes()
        nums, dens = kern(data.ns, data.nt, blob[0], blob[1], ok, None if draws is None else draws.rows,
                          None if draws is None else draws.cols, 1 if draws is None else draws.resamples,
                          flat, resamples)
        return [NAN if d == 0 else a / d for a, d in zip(nums, dens)]
    sg = signs(data, resamples, seed)
    out = []
    for rows, cols in ([(None, None)] if draws is None else draws):
        w = None if rows is None else counts(rows, data.ns)
        seq = items if cols is None else [t for t, c in enumerate(cols) if ok[c]]
        # a position t holds item cols[t]: take that item's scores, position t's signs
        xs = x if cols is None else [[row[c] for c in cols] for row in x]
        hs = h if cols is None else [[row[c] for c in cols] for row in h]
        got = spa_fraction(xs, hs, w, seq, sg)
        out.append(NAN if got is None else got[0] / got[1])
    return out


register("soft-pairwise-accuracy", "soft", ("system",),
         "1 - mean |p_human - p_metric| of one-sided paired permutation tests per system pair "
         "(Thompson et al. 2024)", aliases=("spa", "soft-accuracy"))
