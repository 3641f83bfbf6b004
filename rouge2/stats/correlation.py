"""Correlation of metric scores with human judgments, and its uncertainty.

Meta-evaluation asks how well a metric agrees with human judgments, and
whether variant A agrees better than variant B.  This module answers both
in pure Python (standard library only), following Deutsch, Dror and Roth
(2021), "A Statistical Analysis of Summarization Evaluation Metrics Using
Resampling Methods" (TACL 9).  Definitions, with formulas, are in
``docs/meta-evaluation.md``; in short:

* coefficients: :func:`pearson`, :func:`spearman` (average ranks for ties)
  and :func:`kendall_tau_b`, equal to ``scipy.stats.pearsonr``,
  ``spearmanr`` and ``kendalltau`` (variant ``'b'``).  An undefined
  coefficient (a constant input, fewer than two values) is ``nan``;
* levels (:data:`LEVELS`) over a (system, task) score table:
  ``system`` correlates per-system means, ``summary`` averages the
  per-task correlations across systems, ``global`` correlates all cells;
* :func:`correlation`: the three coefficients at one level with bootstrap
  percentile intervals, resampling systems, tasks or both;
* :func:`compare`: is metric A's correlation with the human scores higher
  than metric B's?  Permutation test (p-values) plus paired bootstrap
  (interval of the difference).

Everything random comes from ``random.Random(seed)`` through
``Random.random()`` alone, whose sequence Python keeps stable across
versions, so a seed gives the same numbers everywhere.
"""

from __future__ import annotations

import math
import numbers
import random
from bisect import bisect_left, bisect_right, insort
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, compress, groupby, repeat
from operator import mul
from typing import Any, Union

from rouge2.errors import UserError

__all__ = [
    "ALTERNATIVES",
    "COEFFICIENTS",
    "LEVELS",
    "SCHEMES",
    "ComparisonResult",
    "CorrelationResult",
    "Difference",
    "Estimate",
    "bootstrap_draws",
    "bootstrap_samples",
    "compare",
    "correlate",
    "correlation",
    "kendall_tau_b",
    "paired_bootstrap_samples",
    "pearson",
    "percentile",
    "permutation_draws",
    "permutation_samples",
    "rankdata",
    "spearman",
]

NAN = float("nan")

#: The coefficients, in the order every result lists them.
COEFFICIENTS = ("pearson", "spearman", "kendall")
#: Correlation levels (Deutsch et al. 2021, section 2).
LEVELS = ("system", "summary", "global")
#: What a bootstrap resamples, or what a permutation test swaps: whole
#: systems (rows), whole tasks (columns; "inputs" in the paper) or both.
SCHEMES = ("systems", "tasks", "both")
#: Alternative hypotheses of the paired tests: ``two-sided`` (r_A != r_B) or
#: ``greater`` (r_A > r_B).
ALTERNATIVES = ("two-sided", "greater")

_SCHEME_ALIASES = {"inputs": "tasks", "input": "tasks", "system": "systems", "task": "tasks"}

#: Two correlation differences closer than this count as equal when a
#: resampled difference is compared with the observed one (rounding noise
#: must not decide a tie; correlations are bounded by 1 in absolute value).
TIE_TOLERANCE = 1e-12

#: Standardized scores (in standard deviations) of the two metrics of a
#: permutation test that lie closer together than this are one score: scores
#: equal in exact arithmetic come out of the standardization a few units in
#: the last place apart, and a swap must not turn that rounding into a
#: difference (a constant task into a non-constant one, a tie into an order).
SCORE_TOLERANCE = 1e-9

# A score table: {(system, task): score}, {system: {task: score}}, or a
# matrix (rows = systems, columns = tasks).  None (or an absent key) is a
# missing cell.
ScoreTable = Union[
    Mapping[tuple[Hashable, Hashable], Any],
    Mapping[Hashable, Mapping[Hashable, Any]],
    Sequence[Sequence[Any]],
]


# ---------------------------------------------------------------------------
# Coefficients


def _finite_list(values: Iterable[Any], what: str) -> list[float]:
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
    xs = _finite_list(x, "x")
    ys = _finite_list(y, "y")
    if len(xs) != len(ys):
        raise UserError(f"x has {len(xs)} values and y has {len(ys)}; "
                        "a correlation needs two sequences of the same length")
    return xs, ys


class _Vec:
    """One side of a correlation, prepared once and shared by the three
    coefficients (and by both metrics when it is the human side).

    ``v`` holds the values of the units, ``w`` their multiplicities (``None``:
    each unit once; a bootstrap resample repeats units, which is the same as
    listing the unit that many times), ``n`` the total multiplicity and
    ``live`` the units with a positive multiplicity, sorted by value."""

    __slots__ = (
        "c",
        "cn",
        "const",
        "groups",
        "live",
        "n",
        "rc",
        "rcn",
        "ties",
        "v",
        "w",
        "wc",
        "wrc",
    )


def _vec(v: list[float], w: list[int] | None, order: list[int] | None,
         need_p: bool, need_s: bool, need_k: bool) -> _Vec:
    p = _Vec()
    p.v = v
    p.w = w
    live = None
    if w is None:
        n = len(v)
        # scipy's test: undefined when every value equals the first
        const = n < 2 or v.count(v[0]) == n
    else:
        n = sum(w)
        if order is not None or need_s or need_k:
            if order is None:
                order = sorted(range(len(v)), key=v.__getitem__)
            live = [k for k in order if w[k]]
            const = n < 2 or v[live[0]] == v[live[-1]]
        else:
            vals = list(compress(v, w))
            const = n < 2 or vals.count(vals[0]) == len(vals)
    p.n = n
    p.const = const
    if const:
        return p
    if need_p:
        if w is None:
            m = math.fsum(v) / n
            c = wc = [x - m for x in v]
        else:
            m = math.fsum(map(mul, w, v)) / n
            c = [x - m for x in v]
            wc = list(map(mul, w, c))
        ss = sum(map(mul, wc, c))
        if not 1e-290 < ss < 1e290:
            # squares would under- or overflow: scale by the largest deviation
            # (the coefficient does not depend on the scale of either side)
            a = max(map(abs, c))
            c = [v / a for v in c]
            wc = c if w is None else list(map(mul, w, c))
            ss = sum(map(mul, wc, c))
        p.c, p.wc = c, wc
        p.cn = math.sqrt(ss)
    if need_s or need_k:
        if live is None:
            live = order if order is not None else sorted(range(len(v)), key=v.__getitem__)
        p.live = live
        if len(set([v[k] for k in live])) == len(live):
            # no ties between units: each unit is its own group
            p.groups = None
            if w is None:
                p.ties = 0
                if need_s:
                    rc = [0.0] * len(v)
                    h = (n - 1) * 0.5
                    for pos, k in enumerate(live):
                        rc[k] = pos - h
            else:
                wl = [w[k] for k in live]
                p.ties = sum([t * (t - 1) for t in wl if t > 1]) // 2
                if need_s:
                    rc = [0.0] * len(v)
                    cum = 0
                    for k, t in zip(live, wl):
                        rc[k] = (2 * cum + t - n) * 0.5
                        cum += t
        else:
            groups = p.groups = [list(g) for _, g in groupby(live, key=v.__getitem__)]
            sizes = [len(g) for g in groups] if w is None else [sum([w[k] for k in g]) for g in groups]
            p.ties = sum([t * (t - 1) for t in sizes if t > 1]) // 2
            if need_s:
                rc = [0.0] * len(v)
                cum = 0
                for g, t in zip(groups, sizes):
                    # average rank of the group minus the mean rank (n + 1) / 2
                    r = (2 * cum + t - n) * 0.5
                    for k in g:
                        rc[k] = r
                    cum += t
        if need_s:
            wrc = rc if w is None else list(map(mul, w, rc))
            p.rc, p.wrc = rc, wrc
            p.rcn = sum(map(mul, wrc, rc))  # a sum of squares: exact for ranks
    return p


def _kendall_s(px: _Vec, z: list[float]) -> int:
    """Concordant minus discordant pairs (with multiplicities): walk the
    units in increasing x and add, for each, how many earlier z lie below
    it minus how many lie above it.  Units tied in x form one group and are
    compared with earlier groups only."""
    seen: list[float] = []
    s = 0
    bl, br, ins = bisect_left, bisect_right, insort
    w = px.w
    if px.groups is None:
        if w is None:
            for k, i in enumerate(px.live):
                y = z[i]
                s += bl(seen, y) + br(seen, y) - k
                ins(seen, y)
        else:
            for i in px.live:
                y = z[i]
                t = w[i]
                j = br(seen, y)
                s += t * (bl(seen, y) + j - len(seen))
                seen[j:j] = [y] * t
    elif w is None:
        for g in px.groups:
            k = len(seen)
            ys = [z[i] for i in g]
            for y in ys:
                s += bl(seen, y) + br(seen, y) - k
            for y in ys:
                ins(seen, y)
    else:
        for g in px.groups:
            k = len(seen)
            for i in g:
                y = z[i]
                s += w[i] * (bl(seen, y) + br(seen, y) - k)
            for i in g:
                y = z[i]
                j = br(seen, y)
                seen[j:j] = [y] * w[i]
    return s


def _kendall_sweep(pg: _Vec, x: list[float]) -> int:
    """Concordant minus discordant pairs when ``pg``'s side has few distinct
    values: take its tie groups in increasing order and compare each group's
    other-side values ``x`` with those of all earlier groups at once."""
    seen: list[float] = []
    s = 0
    w = pg.w
    for g in pg.groups:
        xs = [x[k] for k in g]
        if w is None:
            if seen:
                s += (sum(map(bisect_left, repeat(seen), xs)) + sum(map(bisect_right, repeat(seen), xs))
                      - len(seen) * len(xs))
            seen = sorted(seen + xs)
        else:
            ws = [w[k] for k in g]
            if seen:
                s += (sum(map(mul, ws, map(bisect_left, repeat(seen), xs)))
                      + sum(map(mul, ws, map(bisect_right, repeat(seen), xs)))
                      - len(seen) * sum(ws))
            seen = sorted(seen + list(chain.from_iterable(map(repeat, xs, ws))))
    return s


def _clip(r: float) -> float:
    return 1.0 if r > 1.0 else (-1.0 if r < -1.0 else r)


def _corr(px: _Vec, pz: _Vec, which: tuple[str, ...]) -> tuple[float, ...]:
    """The coefficients of two prepared sides (same units, same multiplicities)."""
    if px.const or pz.const:
        return (NAN,) * len(which)
    out = []
    for name in which:
        if name == "pearson":
            r = sum(map(mul, px.wc, pz.c)) / px.cn / pz.cn
            if px.n == 2:
                r = float(round(r))  # two points lie on a line: exactly +-1, as scipy
            out.append(_clip(r))
        elif name == "spearman":
            out.append(_clip(sum(map(mul, px.wrc, pz.rc)) / math.sqrt(px.rcn * pz.rcn)))
        else:
            n0 = px.n * (px.n - 1) // 2
            if pz.groups is not None and 8 * len(pz.groups) <= len(pz.live):
                s = _kendall_sweep(pz, px.v)
            elif px.groups is not None and 8 * len(px.groups) <= len(px.live):
                s = _kendall_sweep(px, pz.v)
            else:
                s = _kendall_s(px, pz.v)
            out.append(_clip(s / math.sqrt(n0 - px.ties) / math.sqrt(n0 - pz.ties)))
    return tuple(out)


def _flags(which: Sequence[str]) -> tuple[bool, bool, bool]:
    return "pearson" in which, "spearman" in which, "kendall" in which


def _one(x: Iterable[Any], y: Iterable[Any], name: str) -> float:
    xs, ys = _pair(x, y)
    f = _flags((name,))
    return _corr(_vec(xs, None, None, *f), _vec(ys, None, None, *f), (name,))[0]


def rankdata(x: Iterable[Any]) -> list[float]:
    """Ranks 1..n, ties getting the average of the ranks they span
    (``scipy.stats.rankdata(method='average')``)."""
    xs = _finite_list(x, "x")
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


# ---------------------------------------------------------------------------
# Score tables


def _number(v: Any, where: str) -> float | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise UserError(f"{where} is {v!r}; scores must be numbers (None or no entry for a missing cell)")
    f = float(v)
    if not math.isfinite(f):
        raise UserError(f"{where} is {f!r}; scores must be finite (None or no entry for a missing cell)")
    return f


def _read_mapping(table: Mapping, what: str) -> dict[tuple[Hashable, Hashable], float]:
    cells: dict[tuple[Hashable, Hashable], float] = {}
    nested = None
    for key, value in table.items():
        is_nested = isinstance(value, Mapping)
        if nested is None:
            nested = is_nested
        elif nested != is_nested:
            raise UserError(f"{what}: mixes {{system: {{task: score}}}} entries with "
                            f"{{(system, task): score}} entries (at key {key!r}); use one form")
        if is_nested:
            for task, v in value.items():
                f = _number(v, f"{what}[{key!r}][{task!r}]")
                if f is not None:
                    cells[(key, task)] = f
        else:
            if not (isinstance(key, tuple) and len(key) == 2):
                raise UserError(f"{what}: key {key!r} is not a (system, task) pair; give "
                                "{(system, task): score} or {system: {task: score}}")
            f = _number(value, f"{what}[{key!r}]")
            if f is not None:
                cells[key] = f
    return cells


def _read_matrix(table: Sequence, what: str) -> list[list[float | None]]:
    rows = []
    width = None
    for i, row in enumerate(table):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise UserError(f"{what}: row {i} is {type(row).__name__}, not a list of scores "
                            "(a matrix has one row per system, one column per task)")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise UserError(f"{what}: row {i} has {len(row)} cells, row 0 has {width}; "
                            "give None for a missing cell")
        rows.append([_number(v, f"{what}[{i}][{j}]") for j, v in enumerate(row)])
    return rows


def _ordered(keys: list[Hashable]) -> list[Hashable]:
    unique = list(dict.fromkeys(keys))
    try:
        return sorted(unique)
    except TypeError:
        return unique  # unorderable mix: first appearance


class _Data:
    """Aligned tables; a cell is used only where every table has a score.

    Cells are stored row-major in flat lists, one per table (the human
    table last).  Systems and tasks without any usable cell are dropped."""

    def __init__(self, tables: Sequence[ScoreTable], names: Sequence[str]):
        if all(isinstance(t, Mapping) for t in tables):
            maps = [_read_mapping(t, n) for t, n in zip(tables, names)]
            systems = _ordered([s for m in maps for s, _ in m])
            tasks = _ordered([t for m in maps for _, t in m])
            grids = [[[m.get((s, t)) for t in tasks] for s in systems] for m in maps]
        elif not any(isinstance(t, Mapping) for t in tables):
            for t, n in zip(tables, names):
                if isinstance(t, (str, bytes)) or not isinstance(t, Sequence):
                    raise UserError(f"{n} is {type(t).__name__}; give a mapping "
                                    "{(system, task): score} or a matrix (rows = systems)")
            grids = [_read_matrix(t, n) for t, n in zip(tables, names)]
            shapes = [(len(g), len(g[0]) if g else 0) for g in grids]
            for (shape, n) in zip(shapes[1:], names[1:]):
                if shape != shapes[0]:
                    raise UserError(f"{names[0]} is {shapes[0][0]} systems x {shapes[0][1]} tasks "
                                    f"but {n} is {shape[0]} x {shape[1]}; the matrices must have "
                                    "the same shape (None for a missing cell)")
            systems = list(range(shapes[0][0]))
            tasks = list(range(shapes[0][1]))
        else:
            raise UserError(f"{', '.join(names)}: give all tables as mappings or all as matrices")

        ok = [[all(g[i][j] is not None for g in grids) for j in range(len(tasks))]
              for i in range(len(systems))]
        keep_s = [i for i in range(len(systems)) if any(ok[i])]
        keep_t = [j for j in range(len(tasks)) if any(ok[i][j] for i in keep_s)]
        if len(keep_s) < 2:
            raise UserError(f"{len(keep_s)} system(s) have scores in all of {', '.join(names)}; "
                            "a correlation needs at least 2 systems")
        self.systems = [systems[i] for i in keep_s]
        self.tasks = [tasks[j] for j in keep_t]
        self.ns, self.nt = len(keep_s), len(keep_t)
        self.idx = [[-1] * self.nt for _ in range(self.ns)]
        self.cell_row: list[int] = []
        self.cell_col: list[int] = []
        self.flat: list[list[float]] = [[] for _ in grids]
        self.row_span: list[tuple[int, int]] = []
        for a, i in enumerate(keep_s):
            start = len(self.cell_row)
            for b, j in enumerate(keep_t):
                if ok[i][j]:
                    self.idx[a][b] = len(self.cell_row)
                    self.cell_row.append(a)
                    self.cell_col.append(b)
                    for g, f in zip(grids, self.flat):
                        f.append(g[i][j])
            self.row_span.append((start, len(self.cell_row)))
        self.col_cells = [[k for k in (self.idx[a][b] for a in range(self.ns)) if k >= 0]
                          for b in range(self.nt)]
        self.ncells = len(self.cell_row)


def _check_level(level: str) -> str:
    if level not in LEVELS:
        raise UserError(f"unknown correlation level {level!r}; use one of {', '.join(LEVELS)}")
    return level


def _check_scheme(scheme: str, what: str) -> str:
    s = _SCHEME_ALIASES.get(scheme, scheme) if isinstance(scheme, str) else scheme
    if s not in SCHEMES:
        raise UserError(f"unknown {what} {scheme!r}; use one of {', '.join(SCHEMES)}")
    return s


def _check_coefficients(coefficients: Sequence[str] | str) -> tuple[str, ...]:
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


def _check_resamples(resamples: int) -> int:
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise UserError(f"resamples must be a positive whole number, not {resamples!r}")
    return resamples


def _check_confidence(confidence: float) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise UserError(f"confidence must be a number between 0 and 1 (e.g. 0.95), not {confidence!r}")
    return float(confidence)


def _check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UserError(f"seed must be a whole number, not {seed!r}")
    return seed


# ---------------------------------------------------------------------------
# Levels


def _argsort(v: list[float]) -> list[int]:
    return sorted(range(len(v)), key=v.__getitem__)


def _counts(indices: list[int], n: int) -> list[int]:
    c = [0] * n
    for i in indices:
        c[i] += 1
    return c


class _Level:
    """Correlation of metric tables with the human table at one level, on
    the original data or on a bootstrap resample.

    A resample is given by ``rows`` and ``cols``, the system and task
    indices drawn (repeats allowed; ``None``: every one once).  It is
    evaluated through multiplicities: a system, task or cell drawn k times
    counts k times, exactly as if the resampled table had been built with
    the duplicates as separate rows and columns.  Tables passed to
    :meth:`keep` get their sort orders, means and per-task correlations
    cached across calls."""

    def __init__(self, data: _Data, level: str, which: tuple[str, ...]):
        self.d = data
        self.level = level
        self.which = which
        self.flags = _flags(which)
        self._cache: dict[int, dict] = {}
        self.z = self.keep(data.flat[-1])
        self.col_rows = [[data.cell_row[k] for k in ks] for ks in data.col_cells]
        self._present = [[int(k >= 0) for k in row] for row in data.idx]

    # -- caching ------------------------------------------------------------
    def keep(self, x: list[float]) -> list[float]:
        # the entry holds x, so its id cannot be reused while cached
        self._cache.setdefault(id(x), {"x": x})
        return x

    def _memo(self, x: list[float], key: str, make):
        entry = self._cache.get(id(x))
        if entry is None or entry["x"] is not x:
            return make()
        if key not in entry:
            entry[key] = make()
        return entry[key]

    def _kept(self, x: list[float]) -> bool:
        entry = self._cache.get(id(x))
        return entry is not None and entry["x"] is x

    # -- building blocks ----------------------------------------------------
    def row_means(self, x: list[float]) -> list[float]:
        return [math.fsum(x[s:e]) / (e - s) for s, e in self.d.row_span]

    def _dense(self, x: list[float]) -> list[list[float]]:
        """Rows as full-width lists (0.0 where a cell is missing)."""
        return [[x[k] if k >= 0 else 0.0 for k in row] for row in self.d.idx]

    def _col(self, x: list[float], c: int) -> list[float]:
        return [x[k] for k in self.d.col_cells[c]]

    def _col_orders(self, x: list[float]) -> list[list[int]] | None:
        if not self._kept(x):
            return None
        return self._memo(x, "col_orders",
                          lambda: [_argsort(self._col(x, c)) for c in range(self.d.nt)])

    def _zcol(self, c: int) -> _Vec:
        vecs = self._memo(self.z, "col_vecs", lambda: [None] * self.d.nt)
        if vecs[c] is None:
            vecs[c] = _vec(self._col(self.z, c), None, self._col_orders(self.z)[c], *self.flags)
        return vecs[c]

    def column_values(self, x: list[float]) -> list[tuple[float, ...]]:
        """Per-task correlations of ``x`` with the human scores (all systems)."""
        def make():
            f, which = self.flags, self.which
            orders = self._col_orders(x)
            return [_corr(_vec(self._col(x, c), None, orders[c] if orders else None, *f),
                          self._zcol(c), which) for c in range(self.d.nt)]
        return self._memo(x, "col_values", make)

    def average(self, per_col, cols: Iterable[int]) -> tuple[tuple[float, ...], int]:
        """Mean of the defined per-task correlations over ``cols`` (in order,
        repeats counted)."""
        m = len(self.which)
        tot = [0.0] * m
        cnt = [0] * m
        for c in cols:
            vals = per_col[c]
            for i in range(m):
                v = vals[i]
                if v == v:
                    tot[i] += v
                    cnt[i] += 1
        return tuple(t / k if k else NAN for t, k in zip(tot, cnt)), max(cnt)

    # -- the levels ---------------------------------------------------------
    def values(self, xs: list[list[float]], rows: list[int] | None = None,
               cols: list[int] | None = None) -> tuple[list[tuple[float, ...]], int]:
        """Coefficients of each table in ``xs`` against the human table, and
        n: systems (system level, repeats counted), defined tasks (summary
        level, repeats counted) or cells (global level, repeats counted)."""
        d, f, which, z = self.d, self.flags, self.which, self.z
        wr = None if rows is None else _counts(rows, d.ns)
        wt = None if cols is None else _counts(cols, d.nt)

        if self.level == "system":
            if wt is None:
                means = [self._memo(x, "means", lambda x=x: self.row_means(x)) for x in xs]
                orders = [self._memo(x, "means_order", lambda m=m: _argsort(m)) if self._kept(x) else None
                          for x, m in zip(xs, means)]
                zm = self._memo(z, "means", lambda: self.row_means(z))
                zo = self._memo(z, "means_order", lambda: _argsort(zm))
                w = wr
            else:
                # means over the drawn tasks, repeats counted: the exact sum of
                # the drawn scores, rounded once (as if the table were built)
                tabs = list(xs) + [z]
                dense = [self._memo(x, "dense", lambda x=x: self._dense(x)) for x in tabs]
                means = [[0.0] * d.ns for _ in tabs]
                w = [0] * d.ns
                for i in range(d.ns):
                    k = 1 if wr is None else wr[i]
                    if not k:
                        continue
                    if d.row_span[i][1] - d.row_span[i][0] == d.nt:
                        got = d.nt
                        for m, dn in zip(means, dense):
                            m[i] = math.fsum(map(dn[i].__getitem__, cols)) / got
                    else:
                        present = self._present[i]
                        got = sum(map(present.__getitem__, cols))
                        if not got:
                            continue
                        for m, dn in zip(means, dense):
                            m[i] = math.fsum(compress(map(dn[i].__getitem__, cols),
                                                      map(present.__getitem__, cols))) / got
                    w[i] = k
                *means, zm = means
                orders = [None] * len(xs)
                zo = None
            pz = _vec(zm, w, zo, *f)
            return [_corr(_vec(m, w, o, *f), pz, which) for m, o in zip(means, orders)], pz.n

        if self.level == "summary":
            seq = range(d.nt) if cols is None else cols
            todo = list(dict.fromkeys(seq))
            per = []
            if wr is None:
                for x in xs:
                    if self._kept(x):
                        per.append(self.column_values(x))
                    else:
                        per.append({c: _corr(_vec(self._col(x, c), None, None, *f), self._zcol(c), which)
                                    for c in todo})
            else:
                zorders = self._col_orders(z)
                xorders = [self._col_orders(x) for x in xs]
                per = [{} for _ in xs]
                for c in todo:
                    w = [wr[r] for r in self.col_rows[c]]
                    pz = _vec(self._col(z, c), w, zorders[c], *f)
                    for p, x, xo in zip(per, xs, xorders):
                        p[c] = _corr(_vec(self._col(x, c), w, xo[c] if xo else None, *f), pz, which)
            out = [self.average(p, seq) for p in per]
            return [v for v, _ in out], max(n for _, n in out)

        # global
        if wr is None and wt is None:
            w = None
        elif wt is None:
            w = [wr[r] for r in d.cell_row]
        elif wr is None:
            w = [wt[c] for c in d.cell_col]
        else:
            w = [wr[r] * wt[c] for r, c in zip(d.cell_row, d.cell_col)]
        zo = self._memo(z, "order", lambda: _argsort(z))
        if w is None:
            pz = self._memo(z, "vec", lambda: _vec(z, None, zo, *f))
        else:
            pz = _vec(z, w, zo, *f)
        out = []
        for x in xs:
            xo = self._memo(x, "order", lambda x=x: _argsort(x)) if self._kept(x) else None
            out.append(_corr(_vec(x, w, xo, *f), pz, which))
        return out, pz.n


# ---------------------------------------------------------------------------
# Random draws


def bootstrap_draws(n_systems: int, n_tasks: int, scheme: str = "both", resamples: int = 1000,
                    seed: int = 0) -> list[tuple[list[int] | None, list[int] | None]]:
    """The bootstrap resamples: for each, the system indices and the task
    indices drawn with replacement (``None`` where that axis is kept whole).

    With ``u = random.Random(seed).random()``, an index is ``int(u * n)``;
    for ``both`` the systems of a resample are drawn before its tasks."""
    scheme = _check_scheme(scheme, "resampling scheme")
    _check_resamples(resamples)
    rnd = random.Random(_check_seed(seed)).random
    sys_ = scheme in ("systems", "both")
    tsk = scheme in ("tasks", "both")
    out = []
    for _ in range(resamples):
        rows = [int(rnd() * n_systems) for _ in range(n_systems)] if sys_ else None
        cols = [int(rnd() * n_tasks) for _ in range(n_tasks)] if tsk else None
        out.append((rows, cols))
    return out


_FLAG_BYTES = bytes.maketrans(b"01", b"\x00\x01")
_FLIP = bytes.maketrans(b"\x00\x01", b"\x01\x00")


def permutation_draws(n_systems: int, n_tasks: int, scheme: str = "both", resamples: int = 1000,
                      seed: int = 0) -> list[bytes]:
    """The permutation-test swaps: for each permutation, one 0/1 flag per
    system (``systems``), per task (``tasks``) or per (system, task) cell,
    row-major (``both``); 1 means A's and B's scores trade places there.

    Each flag is one fair random bit: with ``u = random.Random(seed).random()``,
    ``int(u * 2**52)`` gives 52 of them (most significant first); a
    permutation takes as many calls as it needs, none shared with the next."""
    scheme = _check_scheme(scheme, "permutation scheme")
    _check_resamples(resamples)
    rnd = random.Random(_check_seed(seed)).random
    size = {"systems": n_systems, "tasks": n_tasks, "both": n_systems * n_tasks}[scheme]
    calls = -(-size // 52)
    out = []
    for _ in range(resamples):
        bits = "".join([format(int(rnd() * 4503599627370496), "052b") for _ in range(calls)])
        out.append(bits[:size].encode("ascii").translate(_FLAG_BYTES))
    return out


# ---------------------------------------------------------------------------
# Sample distributions


def _prepare(tables, names, level, coefficients):
    level = _check_level(level)
    which = _check_coefficients(coefficients)
    data = _Data(tables, names)
    return data, _Level(data, level, which), which


def bootstrap_samples(metric: ScoreTable, human: ScoreTable, level: str = "system",
                      scheme: str = "both", resamples: int = 1000, seed: int = 0,
                      coefficients: Sequence[str] = COEFFICIENTS) -> dict[str, list[float]]:
    """The correlation on each bootstrap resample (:func:`bootstrap_draws`
    over the aligned table), per coefficient; ``nan`` where undefined."""
    data, lv, which = _prepare([metric, human], ["metric", "human"], level, coefficients)
    return _bootstrap(data, lv, which, scheme, resamples, seed)


def _bootstrap(data, lv, which, scheme, resamples, seed):
    draws = bootstrap_draws(data.ns, data.nt, scheme, resamples, seed)
    x = lv.keep(data.flat[0])
    out: dict[str, list[float]] = {c: [] for c in which}
    for rows, cols in draws:
        (vals,), _ = lv.values([x], rows, cols)
        for c, v in zip(which, vals):
            out[c].append(v)
    return out


def paired_bootstrap_samples(metric_a: ScoreTable, metric_b: ScoreTable, human: ScoreTable,
                             level: str = "system", scheme: str = "both", resamples: int = 1000,
                             seed: int = 0, coefficients: Sequence[str] = COEFFICIENTS
                             ) -> dict[str, list[float]]:
    """r(A, human) - r(B, human) on each bootstrap resample (the same
    resample for A, B and the human scores), per coefficient."""
    data, lv, which = _prepare([metric_a, metric_b, human], ["metric_a", "metric_b", "human"],
                               level, coefficients)
    return _paired_bootstrap(data, lv, which, scheme, resamples, seed)


def _paired_bootstrap(data, lv, which, scheme, resamples, seed):
    draws = bootstrap_draws(data.ns, data.nt, scheme, resamples, seed)
    a, b = lv.keep(data.flat[0]), lv.keep(data.flat[1])
    out: dict[str, list[float]] = {c: [] for c in which}
    for rows, cols in draws:
        (va, vb), _ = lv.values([a, b], rows, cols)
        for c, x, y in zip(which, va, vb):
            out[c].append(x - y)
    return out


def _standardize(x: list[float]) -> list[float]:
    n = len(x)
    m = math.fsum(x) / n
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in x) / n)
    if sd == 0:
        return [v - m for v in x]
    return [(v - m) / sd for v in x]


def _standardize_pair(x: list[float], y: list[float]) -> tuple[list[float], list[float]]:
    """Both metrics standardized, then their scores merged where they differ
    by rounding only: the pooled values, sorted, form runs in which each is
    within :data:`SCORE_TOLERANCE` of the one before; every value of a run
    becomes the run's smallest."""
    a, b = _standardize(x), _standardize(y)
    rep: dict[float, float] = {}
    start = prev = None
    for v in sorted(set(a).union(b)):
        if prev is None or v - prev > SCORE_TOLERANCE:
            start = v
        rep[v] = start
        prev = v
    return [rep[v] for v in a], [rep[v] for v in b]


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
    data, lv, which = _prepare([metric_a, metric_b, human], ["metric_a", "metric_b", "human"],
                               level, coefficients)
    return _permutation(data, lv, which, scheme, resamples, seed)


def _permutation(data, lv, which, scheme, resamples, seed):
    scheme = _check_scheme(scheme, "permutation scheme")
    draws = permutation_draws(data.ns, data.nt, scheme, resamples, seed)
    sa, sb = _standardize_pair(data.flat[0], data.flat[1])
    a, b = lv.keep(sa), lv.keep(sb)
    (oa, ob), _ = lv.values([a, b])
    observed = {c: x - y for c, x, y in zip(which, oa, ob)}
    out: dict[str, list[float]] = {c: [] for c in which}

    def emit(va, vb):
        for c, x, y in zip(which, va, vb):
            out[c].append(x - y)

    if lv.level == "system" and scheme == "systems":
        # a swap moves whole rows: the row means are A's or B's
        ma, mb = lv.row_means(a), lv.row_means(b)
        pz = _vec(lv.row_means(lv.z), None, None, *lv.flags)
        for m in draws:
            xa = [q if s else p for p, q, s in zip(ma, mb, m)]
            xb = [p if s else q for p, q, s in zip(ma, mb, m)]
            emit(_corr(_vec(xa, None, None, *lv.flags), pz, which),
                 _corr(_vec(xb, None, None, *lv.flags), pz, which))
        return observed, out
    if lv.level == "summary" and scheme == "tasks":
        # a swap moves whole columns: each task's correlation is A's or B's
        ca, cb = lv.column_values(a), lv.column_values(b)
        for m in draws:
            xa = [q if s else p for p, q, s in zip(ca, cb, m)]
            xb = [p if s else q for p, q, s in zip(ca, cb, m)]
            emit(lv.average(xa, range(data.nt))[0], lv.average(xb, range(data.nt))[0])
        return observed, out

    nt = data.nt
    if lv.level == "system":
        # each row mean of A' (B') is the mean of the row's kept A (B) scores
        # and swapped-in B (A) scores: one exact sum over those values
        rows = [(a[s:e], b[s:e], data.cell_col[s:e], e - s == nt, e - s) for s, e in data.row_span]
        pz = _vec(lv.row_means(lv.z), None, None, *lv.flags)
        for m in draws:
            xa, xb = [], []
            for i, (ar, br_, cols, full, cnt) in enumerate(rows):
                if scheme == "systems":
                    mr = bytes([m[i]]) * cnt
                elif scheme == "tasks":
                    mr = m if full else bytes(map(m.__getitem__, cols))
                else:
                    mr = m[i * nt:(i + 1) * nt]
                    if not full:
                        mr = bytes(map(mr.__getitem__, cols))
                keep = mr.translate(_FLIP)
                xa.append(math.fsum(chain(compress(ar, keep), compress(br_, mr))) / cnt)
                xb.append(math.fsum(chain(compress(br_, keep), compress(ar, mr))) / cnt)
            emit(_corr(_vec(xa, None, None, *lv.flags), pz, which),
                 _corr(_vec(xb, None, None, *lv.flags), pz, which))
        return observed, out
    if lv.level == "summary":
        f = lv.flags
        cols = []
        for c in range(nt):
            ks = data.col_cells[c]
            rws = lv.col_rows[c]
            cols.append(([a[k] for k in ks], [b[k] for k in ks], rws, len(ks) == data.ns))
        for m in draws:
            pa, pb = [], []
            for c, (ac, bc, rws, full) in enumerate(cols):
                if scheme == "systems":
                    mc = m if full else bytes(map(m.__getitem__, rws))
                else:  # both
                    mc = m[c::nt]
                    if not full:
                        mc = bytes(map(mc.__getitem__, rws))
                xa = [q if t else p for p, q, t in zip(ac, bc, mc)]
                xb = [p if t else q for p, q, t in zip(ac, bc, mc)]
                pz = lv._zcol(c)
                pa.append(_corr(_vec(xa, None, None, *f), pz, which))
                pb.append(_corr(_vec(xb, None, None, *f), pz, which))
            emit(lv.average(pa, range(nt))[0], lv.average(pb, range(nt))[0])
        return observed, out
    if scheme == "systems":
        at = data.cell_row
    elif scheme == "tasks":
        at = data.cell_col
    else:
        at = [r * nt + c for r, c in zip(data.cell_row, data.cell_col)]
    for m in draws:
        cm = bytes(map(m.__getitem__, at))
        xa = [q if t else p for p, q, t in zip(a, b, cm)]
        xb = [p if t else q for p, q, t in zip(a, b, cm)]
        (va, vb), _ = lv.values([xa, xb])
        emit(va, vb)
    return observed, out


# ---------------------------------------------------------------------------
# Summaries


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th quantile (0 <= q <= 1) by linear interpolation between
    order statistics at position q (n - 1), as ``numpy.percentile``'s
    default; ``nan`` values are left out, ``nan`` if none is left."""
    s = sorted(v for v in values if v == v)
    if not s:
        return NAN
    pos = q * (len(s) - 1)
    lo = math.floor(pos)
    t = pos - lo
    if lo + 1 >= len(s):
        return s[-1]
    a, b = s[lo], s[lo + 1]
    # numpy's _lerp: exact at both ends
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


def _interval(values: Sequence[float], confidence: float) -> tuple[float, float]:
    tail = (1 - confidence) / 2
    return percentile(values, tail), percentile(values, 1 - tail)


def _jsonable(x: Any) -> Any:
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if hasattr(x, "to_dict"):
        return x.to_dict()
    return x


@dataclass(frozen=True)
class Estimate:
    """A coefficient and its bootstrap percentile interval."""

    value: float
    ci: tuple[float, float]

    def to_dict(self) -> dict:
        return {"value": _jsonable(self.value), "ci": _jsonable(list(self.ci))}


@dataclass(frozen=True)
class CorrelationResult:
    """What :func:`correlation` returns; ``to_dict()`` is JSON-ready
    (undefined numbers become ``null``).

    ``n`` counts what was correlated: systems (system level), tasks whose
    correlation is defined (summary level; the largest count over the
    coefficients) or cells (global level)."""

    level: str
    n: int
    pearson: Estimate | None
    spearman: Estimate | None
    kendall: Estimate | None
    resampling: str
    resamples: int
    confidence: float
    seed: int
    n_systems: int
    n_tasks: int
    n_cells: int

    def to_dict(self) -> dict:
        out = {"level": self.level, "n": self.n}
        for c in COEFFICIENTS:
            e = getattr(self, c)
            if e is not None:
                out[c] = e.to_dict()
        out.update(resampling=self.resampling, resamples=self.resamples,
                   confidence=self.confidence, seed=self.seed, n_systems=self.n_systems,
                   n_tasks=self.n_tasks, n_cells=self.n_cells)
        return out


def correlate(metric: ScoreTable, human: ScoreTable, level: str = "system",
              coefficient: str = "pearson") -> float:
    """One coefficient at one level (no resampling)."""
    data, lv, which = _prepare([metric, human], ["metric", "human"], level, (coefficient,))
    (vals,), _ = lv.values([data.flat[0]])
    return vals[0]


def correlation(metric: ScoreTable, human: ScoreTable, level: str = "system", *,
                resampling: str = "both", resamples: int = 1000, confidence: float = 0.95,
                seed: int = 0, coefficients: Sequence[str] = COEFFICIENTS) -> CorrelationResult:
    """The coefficients at ``level`` with bootstrap percentile intervals.

    ``resampling`` is ``systems``, ``tasks`` or ``both`` (BOOT-SYSTEMS,
    BOOT-INPUTS, BOOT-BOTH).  Resamples where a coefficient is undefined
    are left out of its interval."""
    _check_confidence(confidence)
    resampling = _check_scheme(resampling, "resampling scheme")
    data, lv, which = _prepare([metric, human], ["metric", "human"], level, coefficients)
    (point,), n = lv.values([lv.keep(data.flat[0])])
    samples = _bootstrap(data, lv, which, resampling, resamples, seed)
    est = {c: Estimate(v, _interval(samples[c], confidence)) for c, v in zip(which, point)}
    return CorrelationResult(level, n, est.get("pearson"), est.get("spearman"), est.get("kendall"),
                             resampling, resamples, float(confidence), seed,
                             data.ns, data.nt, data.ncells)


def _p_values(observed: float, samples: Sequence[float]) -> tuple[float, float]:
    """(one-sided p for r_A > r_B, two-sided p) of a permutation test: the
    share of defined null samples at least as extreme as the observed
    difference."""
    vals = [v for v in samples if v == v]
    if observed != observed or not vals:
        return NAN, NAN
    tol = TIE_TOLERANCE
    greater = sum(1 for v in vals if v >= observed - tol)
    two = sum(1 for v in vals if abs(v) >= abs(observed) - tol)
    return greater / len(vals), two / len(vals)


@dataclass(frozen=True)
class Difference:
    """One coefficient of a comparison: r(A, human), r(B, human), their
    difference with its paired-bootstrap percentile interval, and the
    permutation test's p-values (one-sided: H1 r_A > r_B)."""

    a: float
    b: float
    difference: float
    ci: tuple[float, float]
    p_value: float
    p_one_sided: float
    p_two_sided: float

    def to_dict(self) -> dict:
        return _jsonable({"a": self.a, "b": self.b, "difference": self.difference,
                          "ci": list(self.ci), "p_value": self.p_value,
                          "p_one_sided": self.p_one_sided, "p_two_sided": self.p_two_sided})


@dataclass(frozen=True)
class ComparisonResult:
    """What :func:`compare` returns; ``to_dict()`` is JSON-ready."""

    level: str
    permutation: str
    resampling: str
    alternative: str
    resamples: int
    confidence: float
    seed: int
    n_systems: int
    n_tasks: int
    n_cells: int
    pearson: Difference | None
    spearman: Difference | None
    kendall: Difference | None

    def to_dict(self) -> dict:
        out = {"level": self.level, "permutation": self.permutation,
               "resampling": self.resampling, "alternative": self.alternative,
               "resamples": self.resamples, "confidence": self.confidence, "seed": self.seed,
               "n_systems": self.n_systems, "n_tasks": self.n_tasks, "n_cells": self.n_cells}
        for c in COEFFICIENTS:
            d = getattr(self, c)
            if d is not None:
                out[c] = d.to_dict()
        return out


def compare(metric_a: ScoreTable, metric_b: ScoreTable, human: ScoreTable, level: str = "system", *,
            permutation: str = "both", resampling: str = "both", alternative: str = "two-sided",
            resamples: int = 1000, confidence: float = 0.95, seed: int = 0,
            coefficients: Sequence[str] = COEFFICIENTS) -> ComparisonResult:
    """Does metric A correlate with the human scores better than metric B?

    Only cells scored by A, B and the humans are used.  ``p_value`` is the
    permutation test's (``permutation`` = ``systems``/``tasks``/``both``:
    PERM-SYSTEMS/-INPUTS/-BOTH); ``alternative`` chooses which p-value that
    is: ``two-sided`` (default; H1: r_A != r_B) or ``greater`` (H1: r_A >
    r_B).  ``ci`` is the paired bootstrap percentile interval of r_A - r_B
    (``resampling``).  Both use ``resamples`` draws from ``seed``."""
    if alternative not in ALTERNATIVES:
        raise UserError(f"unknown alternative {alternative!r}; use one of {', '.join(ALTERNATIVES)}")
    _check_confidence(confidence)
    _check_resamples(resamples)
    permutation = _check_scheme(permutation, "permutation scheme")
    resampling = _check_scheme(resampling, "resampling scheme")
    data, lv, which = _prepare([metric_a, metric_b, human], ["metric_a", "metric_b", "human"],
                               level, coefficients)
    (va, vb), _ = lv.values([lv.keep(data.flat[0]), lv.keep(data.flat[1])])
    observed, perm = _permutation(data, lv, which, permutation, resamples, seed)
    boot = _paired_bootstrap(data, lv, which, resampling, resamples, seed)
    diffs = {}
    for c, x, y in zip(which, va, vb):
        p1, p2 = _p_values(observed[c], perm[c])
        diffs[c] = Difference(x, y, x - y, _interval(boot[c], confidence),
                              p2 if alternative == "two-sided" else p1, p1, p2)
    return ComparisonResult(level, permutation, resampling, alternative, resamples,
                            float(confidence), seed, data.ns, data.nt, data.ncells,
                            diffs.get("pearson"), diffs.get("spearman"), diffs.get("kendall"))
