"""Paired significance tests on per-task scores of two systems (or two variants),
and the Holm-Bonferroni correction for testing many pairs at once."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rouge2.stats.bootstrap import mean
from rouge2.stats.resample import bootstrap_sums, randomization_sums

#: the paired tests, by name
TESTS = ("approximate-randomization", "paired-bootstrap")
#: defaults of every door (API, CLI, YAML)
DEFAULT_TEST = "approximate-randomization"
DEFAULT_TEST_RESAMPLES = 10000


def paired_test(a: Sequence[float], b: Sequence[float], test: str, resamples: int,
                rng: random.Random) -> float:
    """Two-sided p-value for "mean(a) == mean(b)" over paired values.

    ``approximate-randomization``: each pair's values are swapped with
    probability 1/2; p = (1 + #{|mean diff| >= |observed|}) / (1 + resamples).
    ``paired-bootstrap``: pairs resampled with replacement; p = (1 +
    #{|mean diff - observed| >= |observed|}) / (1 + resamples).
    The draws are made in bulk, the same as one ``rng.random()`` or
    ``rng.randrange(n)`` call at a time (:mod:`rouge2.stats.resample`)."""
    diffs = [x - y for x, y in zip(a, b)]
    n = len(diffs)
    observed = abs(mean(diffs))
    eps = 1e-12
    if test == "approximate-randomization":
        # per resample: each d kept if rng.random() < 0.5, else negated
        hits = sum(1 for s in randomization_sums(diffs, resamples, rng) if abs(s / n) >= observed - eps)
    elif test == "paired-bootstrap":
        # per resample: n draws rng.randrange(n)
        mean_obs = mean(diffs)
        hits = sum(1 for s in bootstrap_sums(diffs, resamples, rng) if abs(s / n - mean_obs) >= observed - eps)
    else:
        raise ValueError(f"unknown test {test!r}")
    return (hits + 1) / (resamples + 1)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (Holm 1979), in the order given.

    With the m p-values sorted increasingly, p(1) <= ... <= p(m), the
    adjusted value of the i-th is ``max over j <= i of min(1, (m - j + 1) * p(j))``:
    each is multiplied by the number of hypotheses not yet rejected, and the
    running maximum keeps the order.  Rejecting where the adjusted p is at
    most alpha controls the family-wise error rate at alpha.  Ties keep
    their input order (the result does not depend on it)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
