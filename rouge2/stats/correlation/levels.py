"""The three correlation levels over aligned tables, on the data or on a resample.

A resample is given by ``rows`` and ``cols``, the system and task indices
drawn (repeats allowed; ``None``: every one once).  It is evaluated through
multiplicities: a system, task or cell drawn k times counts k times, exactly
as if the resampled table had been built with the duplicates as separate
rows and columns.  This is the pure-Python definition; the C kernels
(:mod:`rouge2.stats.correlation.resampling`) compute the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from itertools import compress
from typing import Any, TypeVar, cast

from rouge2.stats.correlation.coefficients import NAN, Vec, argsort, check_coefficients, corr, flags, vec
from rouge2.stats.correlation.tables import Data, ScoreTable, check_level

R = TypeVar("R")

Values = tuple[float, ...]


def counts(indices: Sequence[int], n: int) -> list[int]:
    c = [0] * n
    for i in indices:
        c[i] += 1
    return c


def average(per_col: Any, cols: Iterable[int], m: int) -> tuple[Values, int]:
    """Mean of the defined per-task values (``m`` statistics each) over
    ``cols`` (in order, repeats counted), and the largest count."""
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


class Level:
    """Correlation of metric tables with the human table at one level.

    Tables passed to :meth:`keep` get their sort orders, means and per-task
    correlations cached across calls."""

    def __init__(self, data: Data, level: str, which: tuple[str, ...]):
        self.d = data
        self.level = level
        self.which = which
        self.flags = flags(which)
        self._cache: dict[int, dict[str, Any]] = {}
        self.z = self.keep(data.flat[-1])
        self.col_rows = [[data.cell_row[k] for k in ks] for ks in data.col_cells]
        self._present = [[int(k >= 0) for k in row] for row in data.idx]

    # -- caching ------------------------------------------------------------
    def keep(self, x: list[float]) -> list[float]:
        # the entry holds x, so its id cannot be reused while cached
        self._cache.setdefault(id(x), {"x": x})
        return x

    def _memo(self, x: list[float], key: str, make: Callable[[], R]) -> R:
        entry = self._cache.get(id(x))
        if entry is None or entry["x"] is not x:
            return make()
        if key not in entry:
            entry[key] = make()
        return cast(R, entry[key])

    def kept(self, x: list[float]) -> bool:
        entry = self._cache.get(id(x))
        return entry is not None and entry["x"] is x

    # -- building blocks ----------------------------------------------------
    def row_means(self, x: list[float]) -> list[float]:
        return [math.fsum(x[s:e]) / (e - s) for s, e in self.d.row_span]

    def _dense(self, x: list[float]) -> list[list[float]]:
        """Rows as full-width lists (0.0 where a cell is missing)."""
        return [[x[k] if k >= 0 else 0.0 for k in row] for row in self.d.idx]

    def col(self, x: list[float], c: int) -> list[float]:
        return [x[k] for k in self.d.col_cells[c]]

    def col_orders(self, x: list[float]) -> list[list[int]] | None:
        if not self.kept(x):
            return None
        return self._memo(x, "col_orders", lambda: [argsort(self.col(x, c)) for c in range(self.d.nt)])

    def zcol(self, c: int) -> Vec:
        """The human side of task ``c`` (all systems once), cached."""
        vecs: list[Vec | None] = self._memo(self.z, "col_vecs", lambda: [None] * self.d.nt)
        got = vecs[c]
        if got is None:
            orders = self.col_orders(self.z)
            got = vecs[c] = vec(self.col(self.z, c), None, orders[c] if orders else None, *self.flags)
        return got

    def column_values(self, x: list[float]) -> list[Values]:
        """Per-task correlations of ``x`` with the human scores (all systems)."""
        def make() -> list[Values]:
            orders = self.col_orders(x)
            return [corr(vec(self.col(x, c), None, orders[c] if orders else None, *self.flags),
                         self.zcol(c), self.which) for c in range(self.d.nt)]
        return self._memo(x, "col_values", make)

    def average(self, per_col: Any, cols: Iterable[int]) -> tuple[Values, int]:
        return average(per_col, cols, len(self.which))

    # -- the levels ---------------------------------------------------------
    def values(self, xs: list[list[float]], rows: list[int] | None = None,
               cols: list[int] | None = None) -> tuple[list[Values], int]:
        """Coefficients of each table in ``xs`` against the human table, and
        n: systems (system level, repeats counted), defined tasks (summary
        level, repeats counted) or cells (global level, repeats counted)."""
        wr = None if rows is None else counts(rows, self.d.ns)
        if self.level == "system":
            return self._system(xs, wr, cols)
        if self.level == "summary":
            return self._summary(xs, wr, cols)
        return self._global(xs, wr, None if cols is None else counts(cols, self.d.nt))

    def _system(self, xs: list[list[float]], wr: list[int] | None,
                cols: list[int] | None) -> tuple[list[Values], int]:
        z = self.z
        if cols is None:
            means = [self._memo(x, "means", partial(self.row_means, x)) for x in xs]
            orders = [self._memo(x, "means_order", partial(argsort, m)) if self.kept(x) else None
                      for x, m in zip(xs, means)]
            zm = self._memo(z, "means", lambda: self.row_means(z))
            zo = self._memo(z, "means_order", lambda: argsort(zm))
            w = wr
        else:
            *means, zm = self.drawn_means([*xs, z], wr, cols)
            w = self._drawn_weights(wr, cols)
            orders, zo = [None] * len(xs), None
        pz = vec(zm, w, zo, *self.flags)
        return [corr(vec(m, w, o, *self.flags), pz, self.which) for m, o in zip(means, orders)], pz.n

    def _drawn_weights(self, wr: list[int] | None, cols: list[int]) -> list[int]:
        """A system's multiplicity, or 0 when it has none of the drawn tasks."""
        d = self.d
        out = []
        for i in range(d.ns):
            k = 1 if wr is None else wr[i]
            full = d.row_span[i][1] - d.row_span[i][0] == d.nt
            out.append(k if full or not k or any(map(self._present[i].__getitem__, cols)) else 0)
        return out

    def drawn_means(self, tabs: list[list[float]], wr: list[int] | None, cols: list[int]) -> list[list[float]]:
        """Each system's mean over the drawn tasks, repeats counted: the exact
        sum of the drawn scores, rounded once (as if the table were built);
        0.0 for a system not drawn or without any of the drawn tasks."""
        d = self.d
        dense = [self._memo(x, "dense", partial(self._dense, x)) for x in tabs]
        means = [[0.0] * d.ns for _ in tabs]
        for i in range(d.ns):
            if wr is not None and not wr[i]:
                continue
            if d.row_span[i][1] - d.row_span[i][0] == d.nt:
                for m, dn in zip(means, dense):
                    m[i] = math.fsum(map(dn[i].__getitem__, cols)) / d.nt
                continue
            present = self._present[i]
            got = sum(map(present.__getitem__, cols))
            if got:
                for m, dn in zip(means, dense):
                    m[i] = math.fsum(compress(map(dn[i].__getitem__, cols), map(present.__getitem__, cols))) / got
        return means

    def _summary(self, xs: list[list[float]], wr: list[int] | None,
                 cols: list[int] | None) -> tuple[list[Values], int]:
        seq = range(self.d.nt) if cols is None else cols
        todo = list(dict.fromkeys(seq))
        f, which, z = self.flags, self.which, self.z
        per: list[Any] = []
        if wr is None:
            for x in xs:
                if self.kept(x):
                    per.append(self.column_values(x))
                else:
                    per.append({c: corr(vec(self.col(x, c), None, None, *f), self.zcol(c), which) for c in todo})
        else:
            zo = self.col_orders(z)
            zorders: list[list[int] | None] = list(zo) if zo is not None else [None] * self.d.nt
            xorders = [self.col_orders(x) for x in xs]
            per = [{} for _ in xs]
            for c in todo:
                w = [wr[r] for r in self.col_rows[c]]
                pz = vec(self.col(z, c), w, zorders[c], *f)
                for p, x, xo in zip(per, xs, xorders):
                    p[c] = corr(vec(self.col(x, c), w, xo[c] if xo else None, *f), pz, which)
        out = [self.average(p, seq) for p in per]
        return [v for v, _ in out], max(n for _, n in out)

    def _global(self, xs: list[list[float]], wr: list[int] | None,
                wt: list[int] | None) -> tuple[list[Values], int]:
        d, f, z = self.d, self.flags, self.z
        if wr is None and wt is None:
            w = None
        elif wt is None:
            w = [wr[r] for r in d.cell_row]  # type: ignore[index]  # wr is set
        elif wr is None:
            w = [wt[c] for c in d.cell_col]
        else:
            w = [wr[r] * wt[c] for r, c in zip(d.cell_row, d.cell_col)]
        zo = self._memo(z, "order", lambda: argsort(z))
        if w is None:
            pz = self._memo(z, "vec", lambda: vec(z, None, zo, *f))
        else:
            pz = vec(z, w, zo, *f)
        out = []
        for x in xs:
            xo = self._memo(x, "order", partial(argsort, x)) if self.kept(x) else None
            out.append(corr(vec(x, w, xo, *f), pz, self.which))
        return out, pz.n


def prepare(tables: Sequence[ScoreTable], names: Sequence[str], level: str,
            coefficients: Sequence[str] | str) -> tuple[Data, Level, tuple[str, ...]]:
    """The aligned tables and their level, for the coefficients asked for."""
    level = check_level(level)
    which = check_coefficients(coefficients)
    data = Data(tables, names)
    return data, Level(data, level, which), which


def level_n(data: Data, level: str, i: int = 0) -> int:
    """What a level correlates for table ``i``: systems, cells, or (summary
    level) the tasks whose correlation is defined (at least two systems,
    neither side constant)."""
    if level == "system":
        return data.ns
    if level == "global":
        return data.ncells
    x, z = data.flat[i], data.flat[-1]
    n = 0
    for ks in data.col_cells:
        xs, zs = [x[k] for k in ks], [z[k] for k in ks]
        n += len(ks) > 1 and min(xs) != max(xs) and min(zs) != max(zs)
    return n
