"""The Williams test for two dependent correlations (Williams 1959; Graham and Baldwin 2014).

Do metrics A and B correlate with the human scores H differently, given
that A and B are themselves correlated?  With r_AH, r_BH, r_AB Pearson's
r over the same n units:

    t = (r_AH - r_BH) sqrt((n - 1)(1 + r_AB))
        / sqrt(2 (n - 1)/(n - 3) |R| + ((r_AH + r_BH)/2)^2 (1 - r_AB)^3)
    |R| = 1 - r_AH^2 - r_BH^2 - r_AB^2 + 2 r_AH r_BH r_AB

follows Student's t with n - 3 degrees of freedom under H0: r_AH = r_BH.
The one-sided p (H1: r_AH > r_BH) is P(T >= t); the two-sided one
2 P(T >= |t|).  Student's t tail comes from the regularized incomplete
beta function (continued fraction, Lentz's method), so the core install
needs no scipy.
"""

from __future__ import annotations

import math
from typing import NamedTuple

NAN = float("nan")
_TINY = 1e-300


def _beta_cf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 100000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + aa / c
            c = c if abs(c) > _TINY else _TINY
            delta = d * c
            h *= delta
        if abs(delta - 1.0) < 4e-16:
            break
    return h


def betainc(a: float, b: float, x: float, y: float) -> float:
    """I_x(a, b), the regularized incomplete beta function; ``y`` is 1 - x
    computed without cancellation by the caller."""
    if x <= 0.0:
        return 0.0
    if y <= 0.0:
        return 1.0
    log_front = a * math.log(x) + b * math.log(y) - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_cf(b, a, y) / b


def t_sf(t: float, df: float) -> float:
    """P(T >= t) for Student's t with ``df`` degrees of freedom."""
    if t != t or df <= 0:
        return NAN
    if math.isinf(t):
        return 0.0 if t > 0 else 1.0
    tt = t * t
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + tt), tt / (df + tt))  # P(T >= |t|)
    return tail if t >= 0 else 1.0 - tail


class Williams(NamedTuple):
    """The test's statistic, degrees of freedom and p-values."""

    t: float
    df: int
    p_one_sided: float
    p_two_sided: float


def williams(r_ah: float, r_bh: float, r_ab: float, n: int) -> Williams:
    """The Williams test of r_AH = r_BH (``nan`` where undefined: n < 4 or an
    undefined correlation)."""
    if n < 4 or any(r != r for r in (r_ah, r_bh, r_ab)):
        return Williams(NAN, n - 3, NAN, NAN)
    det = 1 - r_ah ** 2 - r_bh ** 2 - r_ab ** 2 + 2 * r_ah * r_bh * r_ab
    den2 = 2 * (n - 1) / (n - 3) * det + ((r_ah + r_bh) / 2) ** 2 * (1 - r_ab) ** 3
    num = (r_ah - r_bh) * math.sqrt((n - 1) * (1 + r_ab))
    if den2 <= 0:
        if num == 0:
            return Williams(NAN, n - 3, NAN, NAN)
        t = math.copysign(math.inf, num)
    else:
        t = num / math.sqrt(den2)
    return Williams(t, n - 3, t_sf(t, n - 3), min(1.0, 2 * t_sf(abs(t), n - 3)))
