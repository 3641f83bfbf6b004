"""Pearson, Spearman and Kendall τ-b, with multiplicities: the pure-Python definition.

A *side* (:class:`Vec`) is one list of values prepared once for the three
coefficients: centred values for Pearson, centred average ranks for
Spearman, tie counts and the sorted order for Kendall.  ``w`` gives each
value a multiplicity (a bootstrap resample repeats units, which is the same
as listing a unit that many times); ``None`` means each value once.

Every floating-point sum here is either exactly rounded (``math.fsum``) or
a left-to-right double sum from 0.0 (:func:`lr_sum`), so the C kernels
(``rouge2/kernels/stats_kernels.h``) reproduce each number bit for bit, on
every Python version.
"""

from __future__ import annotations

import math
import numbers
import sys
from bisect import bisect_left, bisect_right, insort
from collections.abc import Iterable, Sequence
from functools import reduce
from itertools import chain, compress, groupby, repeat
from operator import add, mul
from typing import Any

from rouge2.errors import UserError
from rouge2.stats.correlation.statistics import register
from rouge2.stats.correlation.tables import LEVELS

NAN = float("nan")

#: The coefficients, in the order every result lists them.
COEFFICIENTS = ("pearson", "spearman", "kendall")


if sys.version_info < (3, 12):
    def lr_sum(values: Iterable[float]) -> float:
        """The left-to-right double sum of ``values`` from 0.0: ``sum()`` up to
        Python 3.11 adds floats exactly so (and fastest)."""
        return sum(values, 0.0)
else:  # pragma: no cover - sum() compensates from 3.12 on: spelled out
    def lr_sum(values: Iterable[float]) -> float:
        """The left-to-right double sum of ``values`` from 0.0."""
        return reduce(add, values, 0.0)


def finite_list(values: Iterable[Any], what: str) -> list[float]:
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise UserError(f"{what}[{i}] is {v!r}; correlations need numbers")
        f = float(v)
        if not math.isfinite(f):
            raise UserError(f"{what}[{i}] is {f!r}; correlations need finite numbers")
        out.append(f)
    return out


def _pair(x: Iterable[Any], y: Iterable[Any]) -> tuple[list[float], list[float]]:
    xs = finite_list(x, "x")
    ys = finite_list(y, "y")
    if len(xs) != len(ys):
        raise UserError(f"x has {len(xs)} values and y has {len(ys)}; "
                        "a correlation needs two sequences of the same length")
    return xs, ys


def argsort(v: Sequence[float]) -> list[int]:
    return sorted(range(len(v)), key=v.__getitem__)


class Vec:
    """One side of a correlation, prepared once and shared by the three
    coefficients (and by both metrics when it is the human side).

    ``v`` holds the values of the units, ``w`` their multiplicities (``None``:
    each unit once), ``n`` the total multiplicity and ``live`` the units with
    a positive multiplicity, sorted by value; ``groups`` the live units tied
    in value, in increasing order (``None`` when no two are tied)."""

    __slots__ = ("c", "cn", "const", "groups", "live", "n", "rc", "rcn", "ties", "v", "w", "wc", "wrc")

    def __init__(self, v: list[float], w: list[int] | None) -> None:
        self.v = v
        self.w = w
        self.n = 0
        self.const = True
        self.c: list[float] = []
        self.wc: list[float] = []
        self.cn = 0.0
        self.rc: list[float] = []
        self.wrc: list[float] = []
        self.rcn = 0.0
        self.live: list[int] = []
        self.groups: list[list[int]] | None = None
        self.ties = 0


def _size(p: Vec, order: list[int] | None, need_order: bool) -> list[int] | None:
    """Sets ``n`` and ``const`` (scipy's test: undefined when fewer than two
    values or all equal); returns the live units in order when it sorted them."""
    v, w = p.v, p.w
    if w is None:
        p.n = len(v)
        p.const = p.n < 2 or v.count(v[0]) == p.n
        return None
    p.n = sum(w)
    if order is not None or need_order:
        live = [k for k in (order if order is not None else argsort(v)) if w[k]]
        p.const = p.n < 2 or v[live[0]] == v[live[-1]]
        return live
    vals = list(compress(v, w))
    p.const = p.n < 2 or vals.count(vals[0]) == len(vals)
    return None


def _pearson_side(p: Vec) -> None:
    v, w, n = p.v, p.w, p.n
    if w is None:
        m = math.fsum(v) / n
        c = wc = [x - m for x in v]
    else:
        m = math.fsum(map(mul, w, v)) / n
        c = [x - m for x in v]
        wc = list(map(mul, w, c))
    ss = lr_sum(map(mul, wc, c))
    if not 1e-290 < ss < 1e290:
        # squares would under- or overflow: scale by the largest deviation
        # (the coefficient does not depend on the scale of either side)
        a = max(map(abs, c))
        c = [x / a for x in c]
        wc = c if w is None else list(map(mul, w, c))
        ss = lr_sum(map(mul, wc, c))
    p.c, p.wc = c, wc
    p.cn = math.sqrt(ss)


def _ranks(p: Vec, need_s: bool) -> list[float]:
    """Tie groups, tie count and (when ``need_s``) each unit's average rank
    minus the mean rank (n + 1) / 2; units not live keep 0."""
    v, w, n, live = p.v, p.w, p.n, p.live
    rc = [0.0] * len(v) if need_s else []
    if len(set([v[k] for k in live])) == len(live):
        p.groups = None  # no ties between units: each unit is its own group
        if w is None:
            p.ties = 0
            if need_s:
                h = (n - 1) * 0.5
                for pos, k in enumerate(live):
                    rc[k] = pos - h
            return rc
        groups = [[k] for k in live]
    else:
        groups = p.groups = [list(g) for _, g in groupby(live, key=v.__getitem__)]
    sizes = [len(g) for g in groups] if w is None else [sum([w[k] for k in g]) for g in groups]
    p.ties = sum([t * (t - 1) for t in sizes if t > 1]) // 2
    if need_s:
        cum = 0
        for g, t in zip(groups, sizes):
            r = (2 * cum + t - n) * 0.5
            for k in g:
                rc[k] = r
            cum += t
    return rc


def _rank_side(p: Vec, live: list[int], need_s: bool) -> None:
    p.live = live
    rc = _ranks(p, need_s)
    if need_s:
        wrc = rc if p.w is None else list(map(mul, p.w, rc))
        p.rc, p.wrc = rc, wrc
        p.rcn = lr_sum(map(mul, wrc, rc))  # a sum of squares of half-integers: exact


def vec(v: list[float], w: list[int] | None, order: list[int] | None,
        need_p: bool, need_s: bool, need_k: bool) -> Vec:
    """``v`` (with multiplicities ``w``) prepared for the coefficients asked
    for; ``order`` is ``argsort(v)`` when the caller has it."""
    p = Vec(v, w)
    live = _size(p, order, need_s or need_k)
    if p.const:
        return p
    if need_p:
        _pearson_side(p)
    if need_s or need_k:
        if live is None:
            live = order if order is not None else argsort(v)
        _rank_side(p, live, need_s)
    return p


def _kendall_walk(px: Vec, z: list[float]) -> int:
    """Concordant minus discordant pairs (with multiplicities): walk the
    units in increasing x and add, for each, how many earlier z lie below
    it minus how many lie above it.  Units tied in x form one group and are
    compared with earlier groups only."""
    seen: list[float] = []
    s = 0
    bl, br, ins = bisect_left, bisect_right, insort
    w = px.w
    groups = px.groups if px.groups is not None else [[k] for k in px.live]
    for g in groups:
        k = len(seen)
        if w is None:
            ys = [z[i] for i in g]
            for y in ys:
                s += bl(seen, y) + br(seen, y) - k
            for y in ys:
                ins(seen, y)
        else:
            for i in g:
                y = z[i]
                s += w[i] * (bl(seen, y) + br(seen, y) - k)
            for i in g:
                y = z[i]
                j = br(seen, y)
                seen[j:j] = [y] * w[i]
    return s


def _kendall_sweep(pg: Vec, x: list[float]) -> int:
    """Concordant minus discordant pairs when ``pg``'s side has few distinct
    values: take its tie groups in increasing order and compare each group's
    other-side values ``x`` with those of all earlier groups at once."""
    seen: list[float] = []
    s = 0
    w = pg.w
    for g in pg.groups or ():
        xs = [x[k] for k in g]
        ws = [1] * len(g) if w is None else [w[k] for k in g]
        if seen:
            s += (sum(map(mul, ws, map(bisect_left, repeat(seen), xs)))
                  + sum(map(mul, ws, map(bisect_right, repeat(seen), xs)))
                  - len(seen) * sum(ws))
        seen = sorted(seen + (xs if w is None else list(chain.from_iterable(map(repeat, xs, ws)))))
    return s


def kendall_s(px: Vec, pz: Vec) -> int:
    """C - D of two prepared sides, by whichever walk is cheaper."""
    if pz.groups is not None and 8 * len(pz.groups) <= len(pz.live):
        return _kendall_sweep(pz, px.v)
    if px.groups is not None and 8 * len(px.groups) <= len(px.live):
        return _kendall_sweep(px, pz.v)
    return _kendall_walk(px, pz.v)


def clip(r: float) -> float:
    return 1.0 if r > 1.0 else (-1.0 if r < -1.0 else r)


def _one_coefficient(px: Vec, pz: Vec, name: str) -> float:
    if name == "pearson":
        r = lr_sum(map(mul, px.wc, pz.c)) / px.cn / pz.cn
        if px.n == 2:
            r = float(round(r))  # two points lie on a line: exactly +-1, as scipy
        return clip(r)
    if name == "spearman":
        return clip(lr_sum(map(mul, px.wrc, pz.rc)) / math.sqrt(px.rcn * pz.rcn))
    n0 = px.n * (px.n - 1) // 2
    return clip(kendall_s(px, pz) / math.sqrt(n0 - px.ties) / math.sqrt(n0 - pz.ties))


def corr(px: Vec, pz: Vec, which: Sequence[str]) -> tuple[float, ...]:
    """The coefficients of two prepared sides (same units, same multiplicities)."""
    if px.const or pz.const:
        return (NAN,) * len(which)
    return tuple(_one_coefficient(px, pz, name) for name in which)


def flags(which: Sequence[str]) -> tuple[bool, bool, bool]:
    return "pearson" in which, "spearman" in which, "kendall" in which


def _one(x: Iterable[Any], y: Iterable[Any], name: str) -> float:
    xs, ys = _pair(x, y)
    f = flags((name,))
    return corr(vec(xs, None, None, *f), vec(ys, None, None, *f), (name,))[0]


def rankdata(x: Iterable[Any]) -> list[float]:
    """Ranks 1..n, ties getting the average of the ranks they span
    (``scipy.stats.rankdata(method='average')``)."""
    xs = finite_list(x, "x")
    sv = sorted(xs)
    return [(bisect_left(sv, v) + bisect_right(sv, v) + 1) * 0.5 for v in xs]


def pearson(x: Iterable[Any], y: Iterable[Any]) -> float:
    """Pearson's r: sum((x-mx)(y-my)) / sqrt(sum((x-mx)^2) sum((y-my)^2)).

    ``nan`` when either input is constant or has fewer than 2 values."""
    return _one(x, y, "pearson")


def spearman(x: Iterable[Any], y: Iterable[Any]) -> float:
    """Spearman's rho: Pearson's r of the average ranks (:func:`rankdata`).

    ``nan`` when either input is constant or has fewer than 2 values."""
    return _one(x, y, "spearman")


def kendall_tau_b(x: Iterable[Any], y: Iterable[Any]) -> float:
    """Kendall's tau-b: (C - D) / sqrt((n0 - n1)(n0 - n2)), ties allowed.

    C and D count concordant and discordant pairs, n0 = n(n-1)/2, n1 and n2
    the pairs tied in x and in y.  O(n log n) comparisons (with an O(n)
    list insertion per value, done by the interpreter in C).  ``nan`` when
    either input is constant or has fewer than 2 values."""
    return _one(x, y, "kendall")


def check_coefficients(coefficients: Sequence[str] | str) -> tuple[str, ...]:
    """The coefficients asked for, in :data:`COEFFICIENTS` order."""
    if isinstance(coefficients, str):
        coefficients = (coefficients,)
    wanted = set()
    for c in coefficients:
        if c not in COEFFICIENTS:
            raise UserError(f"unknown correlation coefficient {c!r}; use any of {', '.join(COEFFICIENTS)}")
        wanted.add(c)
    if not wanted:
        raise UserError("no correlation coefficient asked for; use any of " + ", ".join(COEFFICIENTS))
    return tuple(c for c in COEFFICIENTS if c in wanted)


register("pearson", "correlation", LEVELS, "Pearson's r between metric and human scores")
register("spearman", "correlation", LEVELS, "Spearman's rho: Pearson's r of the average ranks", aliases=("rho",))
register("kendall", "correlation", LEVELS, "Kendall's tau-b (ties allowed)", aliases=("kendall-tau-b", "tau-b", "tau"))
