"""Pairwise accuracy and tie-calibrated pairwise accuracy: the pure-Python definition.

* **pairwise accuracy**: over all unordered pairs of units, the share that
  metric and human order alike; a tie agrees only with a tie
  (``acc_eq`` of Deutsch, Foster and Freitag 2023);
* **tie-calibrated pairwise accuracy**: the best pairwise accuracy over
  metric tie thresholds ε ∈ {0} ∪ {|m_a − m_b|}, where a metric tie is
  |m_a − m_b| ≤ ε and human ties are equalities; the smallest ε reaching the
  best is reported.

Units are systems (system level: their mean scores), the systems of one task
(summary level: the per-task values are averaged over the tasks, each task
counting once per time it is drawn, and one ε serves every task, as
mt-metrics-eval does) or all cells (global level; pairwise accuracy only).
A group is *defined* when it has at least two units and the human scores of
its units are not all equal; undefined groups are left out, and a value
with no defined group is ``nan``.

Every count is an integer and every mean an exact fraction, rounded once:
the best threshold is found exactly, and the C kernels give the same bits.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from rouge2 import kernels
from rouge2.stats.correlation.coefficients import NAN, kendall_s, vec
from rouge2.stats.correlation.draws import BootstrapDraws
from rouge2.stats.correlation.levels import Level, counts
from rouge2.stats.correlation.resampling import layout
from rouge2.stats.correlation.statistics import register
from rouge2.stats.correlation.tables import Data


class Group(NamedTuple):
    """Units to compare pairwise: metric values ``m``, human values ``h``,
    multiplicities ``w`` (``None``: each once) and the group's weight ``wt``
    in the mean over groups."""

    m: list[float]
    h: list[float]
    w: list[int] | None
    wt: int


def pair_counts(m: Sequence[float], h: Sequence[float], w: Sequence[int] | None) -> tuple[int, int] | None:
    """(agreeing pairs, pairs) over the units with multiplicities, or ``None``
    when undefined (fewer than two units, or all human values equal).

    Copies of one unit are a pair tied in both, which agrees.  Counted in
    O(n log n): agree = C + T_mh, where C - D = Kendall's S and
    C + D = P - T_m - T_h + T_mh (T: pairs tied in the metric, in the human
    scores, in both)."""
    live = [k for k in range(len(m)) if w is None or w[k]]
    ww = [1 if w is None else w[k] for k in live]
    mv, hv = [m[k] for k in live], [h[k] for k in live]
    n = sum(ww)
    if n < 2 or min(hv) == max(hv):
        return None
    pairs = n * (n - 1) // 2
    pz = vec(hv, ww, None, False, False, True)
    px = vec(mv, ww, None, False, False, True)
    s, tm = (0, pairs) if px.const else (kendall_s(px, pz), px.ties)
    joint: Counter[tuple[float, float]] = Counter()
    for a, b, k in zip(mv, hv, ww):
        joint[(a, b)] += k
    tmh = sum(t * (t - 1) // 2 for t in joint.values())
    return (s + pairs - tm - pz.ties + tmh) // 2 + tmh, pairs


class Mean(NamedTuple):
    """The mean over defined groups of agree/pairs as an exact fraction
    ``num / den``; ``coef[g]`` turns group g's agreeing pairs into ``num``
    units (0 for a group left out)."""

    num: int
    den: int
    coef: list[int]


def mean_accuracy(groups: Sequence[Group]) -> Mean | None:
    """Σ wt·agree/pairs over the defined groups divided by Σ wt, with the
    least common multiple of the pair counts as common denominator."""
    got = [pair_counts(g.m, g.h, g.w) if g.wt else None for g in groups]
    defined = [(g, c) for g, c in zip(groups, got) if c is not None]
    if not defined:
        return None
    lcm = math.lcm(*(p for _, (_, p) in defined))
    coef = [g.wt * (lcm // c[1]) if c is not None else 0 for g, c in zip(groups, got)]
    num = sum(k * c[0] for k, c in zip(coef, got) if c is not None)
    return Mean(num, lcm * sum(g.wt for g, _ in defined), coef)


Event = tuple[float, int, int, int, int]


def tie_events(m: Sequence[float], h: Sequence[float], g: int) -> list[Event]:
    """The pairs (a, b) of group ``g`` whose agreement changes when the
    metric calls them tied: (|m_a - m_b|, g, a, b, +1) when the humans tie
    them (a tie then agrees), -1 when the humans order them as the metric
    does (the agreement is lost).  Pairs ordered oppositely never agree."""
    out = []
    for a in range(len(m)):
        ma, ha = m[a], h[a]
        for b in range(a + 1, len(m)):
            if ma == m[b]:
                continue
            hb = h[b]
            if ha == hb:
                out.append((abs(ma - m[b]), g, a, b, 1))
            elif (ma < m[b]) == (ha < hb):
                out.append((abs(ma - m[b]), g, a, b, -1))
    return out


def sweep(events: Sequence[Event], mean: Mean, weights: Sequence[Sequence[int] | None]) -> tuple[int, float]:
    """The best numerator over thresholds and the smallest threshold giving it:
    the events (sorted by threshold) applied one threshold at a time."""
    best = num = mean.num
    eps = 0.0
    coef, i, n = mean.coef, 0, len(events)
    while i < n:
        d = events[i][0]
        while i < n and events[i][0] == d:
            _, g, a, b, s = events[i]
            w = weights[g]
            num += coef[g] * s * (1 if w is None else w[a] * w[b])
            i += 1
        if num > best:
            best, eps = num, d
    return best, eps


# ---------------------------------------------------------------------------
# Units of the levels


class Units:
    """The groups of a level, on the data or on a bootstrap resample."""

    def __init__(self, data: Data, level: str):
        self.d = data
        self.level = level
        self.lv = Level(data, level, ())
        self.x = self.lv.keep(data.flat[0])
        self._events: list[Event] | None = None

    def groups(self, rows: list[int] | None = None, cols: list[int] | None = None) -> list[Group]:
        d, lv, x = self.d, self.lv, self.x
        wr = None if rows is None else counts(rows, d.ns)
        if self.level == "system":
            if cols is None:
                return [Group(lv.row_means(x), lv.row_means(lv.z), wr, 1)]
            m, zm = lv.drawn_means([x, lv.z], wr, cols)
            return [Group(m, zm, lv._drawn_weights(wr, cols), 1)]
        if self.level == "summary":
            wc = [1] * d.nt if cols is None else counts(cols, d.nt)
            return [Group(lv.col(x, c), lv.col(lv.z, c), None if wr is None else [wr[r] for r in lv.col_rows[c]],
                          wc[c]) for c in range(d.nt)]
        wt = None if cols is None else counts(cols, d.nt)
        w: list[int] | None
        if wr is None and wt is None:
            w = None
        else:
            w = [(1 if wr is None else wr[r]) * (1 if wt is None else wt[c]) for r, c in zip(d.cell_row, d.cell_col)]
        return [Group(x, lv.z, w, 1)]

    def events(self, groups: Sequence[Group]) -> list[Event]:
        """The tie events, sorted; at the summary level the units and their
        differences do not change between resamples: sorted once."""
        if self.level == "summary":
            if self._events is None:
                evs = [e for c, g in enumerate(groups) for e in tie_events(g.m, g.h, c)]
                self._events = sorted(evs)
            return self._events
        return sorted(tie_events(groups[0].m, groups[0].h, 0))


def _accuracy_values(units: Units, rows: list[int] | None, cols: list[int] | None,
                     tie: bool) -> tuple[Mean | None, tuple[int, float] | None]:
    groups = units.groups(rows, cols)
    mean = mean_accuracy(groups)
    if mean is None or not tie:
        return mean, None
    return mean, sweep(units.events(groups), mean, [g.w for g in groups])


def _ratio(num: int, den: int) -> float:
    return num / den


class AccuracyValues(NamedTuple):
    """Per resample (or once, on the data): pairwise and tie-calibrated
    accuracy (``nan`` where undefined) and the threshold of the latter."""

    pairwise: list[float]
    calibrated: list[float]
    epsilon: list[float]
    n: int


def accuracy_values(data: Data, level: str, draws: BootstrapDraws | None, tie: bool,
                    use_c: bool = True) -> AccuracyValues:
    """Both accuracies on the data (``draws`` None) or on each resample."""
    units = Units(data, level)
    groups = units.groups()
    n = sum(1 for g in groups if pair_counts(g.m, g.h, g.w) is not None) if level == "summary" else \
        len(groups[0].m)
    kern = kernels.accuracy_resample if use_c else None
    if kern is not None:
        got = kern({"system": 0, "summary": 1, "global": 2}[level], int(tie), data.flat[0], data.flat[-1],
                   layout(data), None if draws is None else draws.rows, None if draws is None else draws.cols,
                   1 if draws is None else draws.resamples)
        if got is not None:  # None: a count too large for the kernel's 62 bits
            return _from_kernel(got, n)
    out = AccuracyValues([], [], [], n)
    for rows, cols in ([(None, None)] if draws is None else draws):
        mean, best = _accuracy_values(units, rows, cols, tie)
        out.pairwise.append(NAN if mean is None else _ratio(mean.num, mean.den))
        if tie:
            out.calibrated.append(NAN if mean is None or best is None else _ratio(best[0], mean.den))
            out.epsilon.append(NAN if best is None else best[1])
    return out


def _from_kernel(got: Any, n: int) -> AccuracyValues:
    nums, cal, den, eps = got
    pairwise = [NAN if d == 0 else _ratio(a, d) for a, d in zip(nums, den)]
    calibrated = [NAN if d == 0 else _ratio(a, d) for a, d in zip(cal, den)] if cal is not None else []
    return AccuracyValues(pairwise, calibrated, list(eps) if eps is not None else [], n)


register("pairwise-accuracy", "accuracy", ("system", "summary", "global"),
         "share of unit pairs the metric orders as the humans do; a tie agrees only with a tie",
         aliases=("accuracy", "acc", "pa"))
register("tie-calibrated-accuracy", "accuracy", ("system", "summary"),
         "pairwise accuracy at the best metric tie threshold (Deutsch et al. 2023); reports its epsilon",
         aliases=("acc-t", "acc23", "tie-calibrated", "tca"))
